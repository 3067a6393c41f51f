"""A method's calls, noted while a test runs."""

from typing import Any, NamedTuple


class Call(NamedTuple):
    """One call: the object called, its first argument, the other positional ones and what
    it returned."""

    self: Any
    first: Any
    args: tuple
    result: Any


def noted_calls(monkeypatch, owner, name: str) -> list[Call]:
    """Each call of ``owner.name`` from now to the end of the test; the method still runs
    as before, and ``monkeypatch`` puts it back."""
    seen: list[Call] = []
    method = getattr(owner, name)

    def noting(self, first, /, *args, **kwargs):
        result = method(self, first, *args, **kwargs)
        seen.append(Call(self, first, args, result))
        return result

    monkeypatch.setattr(owner, name, noting)
    return seen
