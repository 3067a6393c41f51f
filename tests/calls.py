"""A method's calls, noted while a test runs."""


def noted_calls(monkeypatch, owner, name: str) -> list:
    """The first argument of each call of ``owner.name`` from now to the end of the test;
    the method still runs as before, and ``monkeypatch`` puts it back."""
    seen: list = []
    method = getattr(owner, name)

    def noting(self, first, /, *args, **kwargs):
        seen.append(first)
        return method(self, first, *args, **kwargs)

    monkeypatch.setattr(owner, name, noting)
    return seen
