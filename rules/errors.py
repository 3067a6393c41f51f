"""Why the engine refuses an action.

A malformed action (text the engine cannot read) and an illegal one (a
well-formed move the rules forbid now) are different errors, as in chess
notation. Both carry a message key and its parameters rather than a
sentence, so the screen can say it in Polish or English (``rules.messages``).
"""

from rules.messages import text


class RulesError(Exception):
    """Base class: an action was refused; the state is unchanged."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(text(key, "en", **params))

    def text(self, language: str, things: dict[str, str] | None = None) -> str:
        """The reason in ``language`` ("en" or "pl"); ``things`` names ids (cards, seats)."""
        return text(self.key, language, things=things, **self.params)


class MalformedAction(RulesError, ValueError):
    """The action's text cannot be read as any action of this game."""


class IllegalAction(RulesError):
    """The action is well formed but the rules do not allow it now."""


class SetupError(RulesError, ValueError):
    """A game cannot be set up with these options or this catalogue."""
