"""The application: screens, the game session and the journal, without hardware.

The daemon and the simulator feed it button and tag events and show what
``render`` draws; tests drive it the same way. Every input takes one flow:
the top screen turns it into a rules action or a move through menus; an
action is checked by the engine, committed to the journal, and only then
shown. A refused action shows its reason and changes nothing.
"""

import logging
import time
from pathlib import Path

from firmware_app.flows.games import GAMES
from firmware_app.flows.start import start_screen
from firmware_app.session import Session
from firmware_app.store import state_check
from firmware_app.ui.canvas import Canvas
from firmware_app.ui.screens import Notice, Screen
from firmware_app.words.i18n import Translator
from hw.events import ButtonEvent, Press, TagEvent
from rules.errors import RulesError

LOG = logging.getLogger("tableside.app")
COLOUR_BUTTONS = ("red", "blue", "green", "yellow", "grey", "white", "black")
DEFAULTS = {
    "contrast": 255,
    "sleep_minutes": 5,
    "bag": "app",
    "deck": "app",
    "tags": {},
    "names": [],  # the players' names the box remembers, the latest first (flows/shared/seats.py)
    "teach_points": "now",
    "handoff_chirp": "day",  # the buzzer's chirp at a hand-off: always, day (not at night), never
    "pawn_colours": [],  # Król Popiel's mouse pawns in the box, by colour; none marked yet
}
NIGHT = (22, 7)  # from 22:00 to 07:00 local time a "day" chirp stays silent


def new_seed() -> int:
    """A random seed for a new game (``secrets`` is imported at the first, not at start)."""
    import secrets

    return secrets.randbits(63)


class App:
    """Everything the box shows and remembers, driven by input events."""

    # The states a virtual player's move may spend; None: its level's budget. Tests whose
    # subject is not the players' strength set a few (tests/conftest.py): weaker moves, as
    # repeatable for a seed, thought in a fraction of the time.
    think_nodes: int | None = None

    def __init__(
        self,
        journal,
        *,
        language: str = "pl",
        owner_catalogue: Path | None = None,
        buttons: tuple[str, ...] = ("up", "down", "ok", "back") + COLOUR_BUTTONS,
        clock=time.time,
        think_clock=time.monotonic,
        seeds=new_seed,
        reader_name: str = "none",
        defaults: dict | None = None,
        overrides: dict | None = None,
    ) -> None:
        """``defaults`` are settings until the table changes them; ``overrides`` (command-line
        flags) win over the stored settings for this run only and are not saved.
        ``think_clock`` times a virtual player's thinking (a clock that never jumps);
        None: it thinks by node budget alone, so a scripted run repeats exactly."""
        self.journal = journal
        self.clock = clock
        self.think_clock = think_clock
        # (game id, seat, actions played, seconds): a virtual turn's thinking so far, which
        # ``flows/pingwiny/virtual.py`` caps on the box
        self.turn_thought: tuple | None = None
        self.seed = seeds
        self.owner_catalogue = owner_catalogue
        self.has_colour_buttons = all(c in buttons for c in COLOUR_BUTTONS)
        self._defaults = {**DEFAULTS, **(defaults or {}), "language": language}
        self._overrides = overrides or {}
        self.reader_name = reader_name
        self.stack: list[Screen] = []
        self.handoffs = 0  # turns passed since the start, for the buzzer's chirp
        self.cursors: dict[str, str] = {}  # a remembering menu's name -> the label chosen last
        self.held_hand_off = None  # shown once the cards being taught are saved (flows.teach)
        self._back_was_long = False
        self.reload()

    def reload(self) -> None:
        """Settings, tags and the game in play from the journal, then the home menu.

        Run at the start, and again after a restore has replaced the journal's contents. A
        setting or an owner's card file that cannot be read is kept aside, the default used,
        and the panel says so (``store/state_check.py``).
        """
        journal, failed = self.journal, []
        # a setting that cannot be read is kept aside and back to its default (state_check.py)
        found = state_check.at_start(
            "settings",
            lambda: state_check.check_settings(journal, self._defaults, self.clock),
            state_check.SettingsFindings(dict(self._defaults)),
            failed,
        )
        self.settings = found.settings
        self.settings.update(self._overrides)
        self.language = self.settings["language"]
        self.t = Translator(self.language)
        self.session: Session | None = state_check.at_start(
            "game in play", lambda: Session.resume(journal), None, failed
        )
        self.home()
        if found.reset:
            self.notice(self.t("Game record"), found.message(self.t))
        # an owner's card file that cannot be read is kept aside
        state_check.at_start("cards", lambda: state_check.check_owner_files(self), None, failed)
        if failed:
            self._not_read(failed)

    def _not_read(self, failed: list[str]) -> None:
        """The parts of the state a start could not read: named, the game safe."""
        t = self.t
        parts = {
            "settings": t("the settings"),
            "game in play": t("the game in play"),
            "cards": t("the owner's cards"),
        }
        names = ", ".join(parts[part] for part in failed)
        lines = [
            t("Not read at start: {parts}.", parts=names),
            t("The game is safe: every move made is saved."),
        ]
        self.notice(t("Unexpected error"), lines)

    # ----------------------------------------------------------- catalogue

    def catalogue(self, demo: bool):
        """The box's catalogue of cards (read when a game is set up, so imported then)."""
        # an owner's file that cannot be loaded is kept aside, and the box's cards are used
        return state_check.owner_catalogue(self, demo)

    # --------------------------------------------------------------- input

    def button(self, event: ButtonEvent) -> None:
        """One button event; BACK acts on release, a long BACK undoes."""
        name, kind = event.name, event.kind
        if name == "back":
            if kind == Press.LONG:
                self._back_was_long = True
                self.undo()
            elif kind == Press.RELEASE:
                if not self._back_was_long:
                    self.top.button("back")
                self._back_was_long = False
            elif kind == Press.PRESS:
                self._back_was_long = False
            return
        if not self.ignores(event):
            self.top.button(name)

    @staticmethod
    def ignores(event: ButtonEvent) -> bool:
        """Whether ``event`` changes nothing a screen shows: BACK's press (BACK acts on its
        release, or undoes when held), a release or a long press of another button, a repeat
        of one other than UP and DOWN. The loop draws nothing again for it."""
        name, kind = event.name, event.kind
        if name == "back":
            return kind == Press.PRESS
        return not (kind == Press.PRESS or (kind == Press.REPEAT and name in ("up", "down")))

    def tag(self, event: TagEvent) -> None:
        """A tag on the reader: the card it names, or the enrolment of a new tag."""
        card = self.tags().get(event.uid)
        if card is None:
            from firmware_app.flows.shared.cards import enrol_tag

            enrol_tag(self, event.uid)
        else:
            self.top.card(card)

    def tags(self) -> dict[str, str]:
        return self.settings["tags"]

    def setting(self, key: str):
        """A user setting, from memory: the loop reads them every tick."""
        return self.settings[key]

    def set_setting(self, key: str, value) -> None:
        self.journal.set_setting(key, value)
        LOG.info("setting %s saved", key)
        self.settings[key] = value
        if key == "language":
            self.language = value
            self.t = Translator(value)

    # ------------------------------------------------------------- screens

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self, screen: Screen | None = None) -> None:
        """Leave the top screen (or ``screen``); the first screen stays."""
        if screen is not None and screen in self.stack[1:]:
            self.stack.remove(screen)
        elif screen is None and len(self.stack) > 1:
            self.stack.pop()

    def reset(self, screen: Screen) -> None:
        self.stack = [screen]

    def home(self) -> None:
        """The home menu (resume, new game, settings) as the only screen."""
        self.reset(start_screen(self))

    def notice(self, title: str, lines: list[str], then=None) -> None:
        self.push(Notice(self, title, lines, then))

    def unsaved(self, reason: str) -> None:
        """The storage refused the last input's write (``StorageError.reason``): say so."""
        text = {
            "full": self.t("Storage full: this move was not saved"),
            "read-only": self.t("Storage is read-only: this move was not saved"),
        }.get(reason, self.t("Storage error: this move was not saved"))
        self.notice(self.t("Not saved"), [text])

    def wrap(self, text: str) -> list[str]:
        return Canvas().font.wrap(text, 126)

    def render(self) -> Canvas:
        canvas = Canvas()
        self.top.draw(canvas)
        return canvas

    # ---------------------------------------------------------------- game

    def act(self, action: str, steps: str | None = None) -> bool:
        """Play one rules action; show what the table must do, or why not.

        With ``steps`` (a virtual player's name) each thing the table must do is
        a screen of its own under that title, each waiting for OK.
        """
        before = self.session.state
        try:
            events = self.session.act(action, now=self.clock())
        except RulesError as error:
            LOG.info("refused %r: %s", action, error.text("en"))
            self.notice(self.t("Not allowed"), [self.t.refusal(error, self.session)])
            return False
        LOG.info("action %s", action)
        self.show_game(events, steps, before)
        return True

    def resume(self, game_id: int) -> None:
        """Bring an unfinished game of the journal back to the table."""
        if self.session is None or self.session.game_id != game_id:
            self.session = Session.load(self.journal, game_id)
        LOG.info("resume game %d", game_id)
        self.show_game()

    def show_game(
        self, events: list[dict] | None = None, steps: str | None = None, before=None
    ) -> None:
        """The game's current screen, with what the last action asks of the table.

        When the action passed the turn, the notice is the hand-off: its title
        names the next player (see ``hand_off`` of each game's turn screens).
        """
        from firmware_app.flows.pingwiny.virtual import turn_or_virtual

        session = self.session
        screens = GAMES[session.key]
        self.reset(screens.end(self) if session.over else turn_or_virtual(self, screens.turn))
        from firmware_app.flows.shared.end import keep_result
        from firmware_app.flows.shared.teach import ask, hold_hand_off

        teaching = ask(self)
        if session.over and not teaching:
            keep_result(self)
        lines = screens.events(self.t, session.game, events or [])
        if lines and steps:
            for line in reversed(lines):
                self.notice(steps, [line])
        elif before is not None and not session.over and session.state.current != before.current:
            if not hold_hand_off(self, lambda: screens.hand_off(self, [])):  # cards first
                screens.hand_off(self, lines)
            elif lines:
                self.notice(self.t("At the table"), lines)
        elif lines and not self.top.say(lines):  # the same turn goes on: its menu may say them
            self.notice(self.t("At the table"), lines)

    def hint(self) -> None:
        """The normal level's move for the player to move (``flows.pingwiny.hint``, which
        imports the turn screens: reached from here, the flows import no circle)."""
        from firmware_app.flows.pingwiny.hint import hint

        hint(self)

    def handed_off(self) -> None:
        """The turn passed to another player: the loop chirps the buzzer for it."""
        self.handoffs += 1

    def chirps(self) -> bool:
        """Whether a hand-off sounds now: by the setting, and the hour of the table's clock."""
        when = self.settings.get("handoff_chirp", "day")
        hour = time.localtime(self.clock()).tm_hour
        night = hour >= NIGHT[0] or hour < NIGHT[1]
        return when == "always" or (when == "day" and not night)

    def undo(self) -> None:
        if self.session is None:
            return
        undone = self.session.undo()
        if undone is None:
            self.notice(self.t("Undo"), [self.t("Nothing to undo.")])
            return
        LOG.info("undo %s", undone)
        self.show_game()
        words = GAMES[self.session.key].describe(self, self.session.state, undone)
        self.notice(self.t("Undone"), [self.t("Undone: {action}", action=words)])

    def redo(self) -> None:
        before = self.session.state if self.session else None
        events = self.session.redo() if self.session else None
        if events is None:
            self.notice(self.t("Redo"), [self.t("Nothing to redo.")])
            return
        self.show_game(events, before=before)
