"""Numbers in an action's words: a count, a place, a seat ("p2").

Its own module, importing nothing: the refusal messages read seats too, and the errors that
carry them are imported by ``actions``.
"""


def whole(word: str) -> int | None:
    """A count or a place written in digits ("12"), else ``None``. ``str.isdigit`` alone
    also takes "²", which ``int`` refuses: an action read from a record is refused, never a
    crash."""
    return int(word) if word.isascii() and word.isdigit() else None


def seat(word: str) -> int | None:
    """The seat a word such as "p2" names, counted from 1, else ``None``."""
    return whole(word[1:]) if word[:1] == "p" else None
