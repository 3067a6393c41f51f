"""One game being played: the engine, its states, and the journal that keeps it.

Every accepted action is committed to the journal before the caller shows
its result, so what the table saw acknowledged survives a power cut. The
states since the start stay in memory: undo drops the last one, and redo
applies the undone action again, which gives the same draw because the
random source lives in the state. With each change the journal also keeps
how far the game got (:meth:`Session.place`), which the resume list shows
without replaying anything.
"""

from contextlib import suppress

from firmware_app.store.faults import JournalError, StorageError
from rules.actions import Action
from rules.errors import RulesError
from rules.record import RecordError, game_of, new_record, replay


class Session:
    def __init__(self, journal, game_id: int, record: dict) -> None:
        result = replay(record)
        self.journal, self.game_id = journal, game_id
        self.key = (record["game"], record["variant"])  # as in rules.record.VARIANTS
        self.game = result.game
        self.states = list(result.states)
        self._keep_place()

    def _keep_place(self) -> None:
        """Store the place if the journal's is missing or stale (a game from before places
        were kept, a power cut between a redo and its place); a storage that refuses
        writes keeps the old one, which only the resume list reads."""
        try:
            stored = self.journal.place(self.game_id)
        except JournalError:  # an ended game keeps no place
            return
        if stored != self.place():
            with suppress(StorageError):
                self.journal.set_place(self.game_id, self.place())

    @classmethod
    def start(
        cls, journal, options, catalogue, now: float, game: tuple[str, str] = ("pingwiny", "family")
    ) -> "Session":
        """Store a new game; a setup the engine refuses raises its ``RulesError`` and
        never reaches the journal."""
        header = new_record(*game, options, catalogue)
        try:
            game_of(header)
        except RecordError as error:
            if isinstance(error.__cause__, RulesError):
                raise error.__cause__ from None
            raise
        game_id = journal.start_game(header, now=now)
        return cls(journal, game_id, journal.record(game_id))

    @classmethod
    def load(cls, journal, game_id: int) -> "Session":
        """A game of the journal, replayed to where the table left it."""
        return cls(journal, game_id, journal.record(game_id))

    def teach(self, catalogue: dict) -> None:
        """Complete the game's catalogue with values the table taught, in the journal too.

        A taught value was unknown until now, and the engine refuses whatever
        would read an unknown value, so every recorded action replays the same
        on the completed catalogue; this is checked before anything is written.
        """
        record = self.journal.record(self.game_id)
        record["catalogue"] = catalogue
        try:
            result = replay(record)
        except RecordError as error:
            raise ValueError(f"the taught values would change the game: {error}") from error
        if list(result.states) != self.states:  # every slot of every state
            raise ValueError("the taught values would change the game")
        self.journal.complete_catalogue(self.game_id, catalogue)
        self.game, self.states = result.game, list(result.states)

    @classmethod
    def resume(cls, journal) -> "Session | None":
        """The unfinished game played last, if any."""
        game_id = journal.unfinished()
        return None if game_id is None else cls.load(journal, game_id)

    @property
    def state(self):
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def place(self, state=None) -> dict:
        """How far the game got at ``state`` (the current one by default), as the resume
        list shows it: the players, whether it is over, and the round (the move in Król
        Popiel, where the mice have no rounds) being played."""
        state = self.state if state is None else state
        if self.game.variant == "popiel":
            step = state.moves + 1
        else:  # every player has a turn a round, the first player first
            step = state.turns // len(state.players) + 1
        return {"players": self.game.n, "over": state.phase == "over", "step": step}

    def act(self, action: str | Action, now: float | None = None) -> list[dict]:
        """Apply, then commit (``now``: when it was played); a refused action raises
        and nothing is written."""
        action = Action.parse(action) if isinstance(action, str) else action
        new, events = self.game.apply(self.state, action)
        self.journal.append(self.game_id, str(action), now=now, place=self.place(new))
        self.states.append(new)
        return events

    def can_undo(self) -> bool:
        """An action to take back, in a game still being played (one kept at its end is
        closed)."""
        return len(self.states) > 1 and self.journal.can_undo(self.game_id)

    def undo(self) -> str | None:
        if not self.can_undo():
            return None
        undone = self.journal.undo(self.game_id, place=self.place(self.states[-2]))
        self.states.pop()
        return undone

    def redo(self) -> list[dict] | None:
        if not self.journal.can_redo(self.game_id):
            return None
        action = self.journal.redo(self.game_id)
        new, events = self.game.apply(self.state, Action.parse(action))
        self.states.append(new)
        with suppress(StorageError):  # the redo is kept; a stale place is mended at load
            self.journal.set_place(self.game_id, self.place())
        return events

    def finish(self, now: float) -> None:
        """The table accepted the final score: the game is kept as finished."""
        self.journal.finish(self.game_id, summary(self.game, self.state), now=now)

    def abandon(self, now: float) -> None:
        """The table ended the game before its end: it is kept, as abandoned."""
        self.journal.abandon(self.game_id, now=now)


def summary(game, state) -> dict:
    """What the journal keeps as a finished game's result: the score sheet, or the track."""
    if game.variant == "popiel":
        return {"scores": list(state.scores), "winners": list(game.winners(state))}
    return game.score(state).to_json()
