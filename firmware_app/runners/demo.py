"""The demo GIF: a whole game on the demo deck, as the panel showed it.

``tableside demo --gif FILE`` plays a game from the start screen to the
chart of the scores by round and the score sheet on ``hw``'s fakes, every
seat a virtual player at the normal level (the autopilot presses OK on each
step it tells the table), keeps every frame the fake panel received, and
writes them as an animated GIF with Pillow alone (luma.emulator's GIF device
needs pygame). Each frame is the panel scaled up with sharp pixels, lit
pixels on a dark panel, in a bezel, with a caption bar that says the cards
are the made-up demo deck. With ``--printed`` the game is a family's first on
the printed box: every teaching question shows, answered with the demo deck's
values for the card asked (``plausible.py``), so the game and its scores are
sensible ones; the caption says the values entered are made up.

A whole game is a few thousand frames, most of them a menu's cursor moving
one line, so the GIF keeps:

- every frame but the travel on one screen: of a run of frames of one menu
  or entry, the first (as it opened) and the last (the choice made);
- the opening (start screen, setup questions and pages, first turn), the
  end of the game, the scores by round and the whole score sheet, always;
- of the turns in between, whole turns at an even stride, so that the GIF
  lasts at most ``MAX_SECONDS``; each kept turn reads from its start;
- no frame equal to the one before it (the panel never receives one, but
  leaving frames out can bring two together).

Notices stay up long enough to read, a menu a little less; the first frame
and the last (the score sheet's winner) longest.
"""

import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.runners.plausible import Plausible
from firmware_app.ui.canvas import HEIGHT, WIDTH, Canvas
from firmware_app.ui.screens import Menu, Notice, Screen
from rules.pingwiny.options import Options

DEMO_LEVEL = "normal"  # the box plays every seat, as a family would see a sensible game
SCALE = 3  # panel pixels to GIF pixels
PRINTED_LABEL = "printed box, values made up"  # the caption when the autopilot taught it
BEZEL = 16  # GIF pixels of frame around the panel
CAPTION_SCALE = 2
MAX_SECONDS = 120  # the whole GIF: a demo watched to its end

# Palette indices of the GIF: the bezel, an unlit and a lit panel pixel, the caption.
BEZEL_INK, DARK, LIT, CAPTION_INK = range(4)
PALETTE = [0x22, 0x24, 0x28, 0x00, 0x00, 0x00, 0xD8, 0xF0, 0xFF, 0xB0, 0xB4, 0xBC]

PANEL_AT = (BEZEL, BEZEL)  # top-left of the scaled panel in a GIF frame
PANEL_SIZE = (WIDTH * SCALE, HEIGHT * SCALE)

FIRST_MS = 3000
NOTICE_MS = 1500
SCREEN_MS = 600
SCROLL_MS = 600  # a notice scrolled by one line
LAST_MS = 6000


@dataclass(frozen=True, eq=False)
class Shot:
    """One frame the panel received, with the screen that drew it and when in the game."""

    image: Image.Image
    screen: Screen
    turn: int | None  # completed turns, or None before the game starts
    over: bool


def write_demo_gif(path: Path, players: int = 3, seed: int = 1, printed: bool = False) -> int:
    """Play a demo game with ``players`` seats and write it to ``path``; returns the frame count.

    ``seed`` drives both the app's shuffles and the autopilot's choices, so a
    seed always gives the same GIF.
    """
    shots, label = play_demo(players, seed, printed)
    kept = select(shots)
    caption = caption_mask(label)
    pictures = [picture(shot.image, caption) for shot in kept]
    first, *rest = pictures
    first.save(
        path,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=durations(kept),
        loop=0,
        comment=label,
    )
    return len(pictures)


def play_demo(players: int, seed: int, printed: bool = False) -> tuple[list[Shot], str]:
    """A whole game through the UI, the score sheet, the scores by round; every frame sent,
    and the deck label.

    ``printed``: the printed box from an empty owner's file, as a family's first game,
    the autopilot making up each value the panel asks for (so labelled). The game's
    journal and that file live in a temporary folder, removed afterwards. A
    number of players the game does not take is refused (``SetupError``)
    before anything is played, rather than left to the setup menu's nearest item.
    """
    Options(players=players)
    with tempfile.TemporaryDirectory(prefix="tableside-demo-") as folder:
        owner = Path(folder) / "owner.toml" if printed else None
        sim = Headless(Path(folder) / "state", seed=seed, owner_catalogue=owner)
        shots = _record(sim)
        try:
            play_game(sim, players, seed, printed)
            _show_score_chart(sim)
            _read_score_sheet(sim)
            label = PRINTED_LABEL if printed else sim.app.session.game.cards.demo_label
        finally:
            sim.close()
    return shots, label


def play_game(sim: Headless, players: int, seed: int, printed: bool) -> None:
    """From the start screen to the end of the game, every seat a virtual player."""
    pilot = DemoPilot(sim, seed)
    for line in new_game_script(players, demo=not printed, virtual=DEMO_LEVEL):
        while pilot.answers.mix():  # the printed box's token mix, before the seats
            pass
        sim.command(line)
    pilot.play()


class DemoPilot(Autopilot):
    """The autopilot; on the printed box it answers the questions with plausible values."""

    def __init__(self, sim: Headless, seed: int) -> None:
        super().__init__(sim, seed)
        self.answers = Plausible(sim.app, sim.press)

    def play(self, limit: int = 100_000) -> None:
        unwatch = self.answers.watch()
        try:
            super().play(limit)
        finally:
            unwatch()

    def step(self) -> bool:
        return self.answers.mix() or self.answers.card() or super().step()


def _record(sim: Headless) -> list[Shot]:
    """Note each frame the fake panel receives, with the screen on top of the app.

    The list starts with the frame already shown (the start screen). The
    panel only receives a frame that differs from the last one, so equal
    consecutive frames are dropped already.
    """
    shots: list[Shot] = []

    def note() -> None:
        game = sim.app.session
        turn = None if game is None else game.state.turns
        over = game is not None and game.over
        shots.append(Shot(sim.display.last_image, sim.app.top, turn, over))

    show = sim.display.show

    def show_and_note(image: Image.Image) -> bool:
        sent = show(image)
        if sent:
            note()
        return sent

    note()
    sim.display.show = show_and_note
    return shots


def _show_score_chart(sim: Headless) -> None:
    """From the end screen, the chart of the scores round by round."""
    end = sim.app.top
    if not isinstance(end, Menu) or not sim.app.session.over:
        raise RuntimeError(f"the game did not end on its end screen: {sim.screen}")
    labels = [item.label for item in end.items]
    sim.press("down", labels.index(sim.app.t("Scores by round")) - end.cursor)
    sim.press("ok")


def _read_score_sheet(sim: Headless) -> None:
    """Back to the end screen, open the score sheet, and scroll until its last line (the
    winner) shows: the GIF ends there."""
    sim.press("back")
    end = sim.app.top
    sim.press("up", end.cursor)  # its first item is the score sheet
    sim.press("ok")
    sheet = sim.app.top
    if not isinstance(sheet, Notice):
        raise RuntimeError(f"the end screen's first item is not the score sheet: {sim.screen}")
    sim.press("down", sheet.pages - 1)


def select(shots: list[Shot]) -> list[Shot]:
    """The frames worth showing (see the module docstring), in order."""
    kept = _distinct([shot for i, shot in enumerate(shots) if not _cursor_travel(shots, i)])
    turns = sorted({shot.turn for shot in kept if _between(shot)})
    stride = 1  # one turn in every stride, the first among them: the fewest left out that fit
    while _seconds(kept, turns, stride) > MAX_SECONDS and stride <= len(turns):
        stride += 1
    shown = set(turns[::stride]) if stride <= len(turns) else set()
    return _distinct([shot for shot in kept if not _between(shot) or shot.turn in shown])


def _seconds(kept: list[Shot], turns: list[int], stride: int) -> float:
    """How long the GIF lasts with one turn in every ``stride`` (none past the last)."""
    shown = set(turns[::stride]) if stride <= len(turns) else set()
    frames = _distinct([shot for shot in kept if not _between(shot) or shot.turn in shown])
    return sum(durations(frames)) / 1000


def _distinct(shots: list[Shot]) -> list[Shot]:
    """No frame equal to the one before it."""
    return [
        shot
        for i, shot in enumerate(shots)
        if i == 0 or shot.image.tobytes() != shots[i - 1].image.tobytes()
    ]


def _between(shot: Shot) -> bool:
    """After the first turn and before the end: where whole turns may be left out."""
    return bool(shot.turn) and not shot.over


def _cursor_travel(shots: list[Shot], i: int) -> bool:
    """A frame of a menu or an entry (not a notice, each of whose pages is read) between
    the one it opened with and the one it left with."""
    screen = shots[i].screen
    return (
        not isinstance(screen, Notice)
        and 0 < i < len(shots) - 1
        and shots[i - 1].screen is screen
        and shots[i + 1].screen is screen
    )


def durations(shots: list[Shot]) -> list[int]:
    """Milliseconds per frame: long enough to read a notice, longest at both ends."""
    times = []
    for i, shot in enumerate(shots):
        if isinstance(shot.screen, Notice):
            scrolled = i > 0 and shots[i - 1].screen is shot.screen
            times.append(SCROLL_MS if scrolled else NOTICE_MS)
        else:
            times.append(SCREEN_MS)
    times[0], times[-1] = FIRST_MS, LAST_MS
    return times


def caption_mask(label: str) -> Image.Image:
    """The deck's label in the panel's own font, scaled up: ink is 1."""
    canvas = Canvas()
    text = Image.new("1", (canvas.font.text_width(label), canvas.font.line_height))
    canvas.font.draw(text, (0, 0), label)
    return text.resize(
        (text.width * CAPTION_SCALE, text.height * CAPTION_SCALE), Image.Resampling.NEAREST
    )


def gif_size(caption: Image.Image) -> tuple[int, int]:
    """The GIF's width and height: the panel in its bezel, then the caption bar."""
    return PANEL_SIZE[0] + 2 * BEZEL, PANEL_SIZE[1] + caption.height + 3 * BEZEL


def caption_at(caption: Image.Image) -> tuple[int, int]:
    """Top-left of the caption: centred under the panel."""
    width, _ = gif_size(caption)
    return (width - caption.width) // 2, PANEL_SIZE[1] + 2 * BEZEL


def picture(frame: Image.Image, caption: Image.Image) -> Image.Image:
    """One GIF frame: ``frame`` (128x64, mode "1") scaled up in its bezel, with the caption."""
    out = Image.new("P", gif_size(caption), BEZEL_INK)
    out.putpalette(PALETTE)
    out.paste(DARK, (*PANEL_AT, PANEL_AT[0] + PANEL_SIZE[0], PANEL_AT[1] + PANEL_SIZE[1]))
    scaled = frame.resize(PANEL_SIZE, Image.Resampling.NEAREST)
    out.paste(LIT, PANEL_AT, scaled)
    out.paste(CAPTION_INK, caption_at(caption), caption)
    return out
