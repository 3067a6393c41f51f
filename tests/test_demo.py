"""The demo GIF: a whole 2-player game written by ``tableside demo``, checked frame by frame.

One GIF is written through the command line for the module; the pictures in
it are compared with the app's own renders of the start screen and of the
score sheet, scaled up the same way.
"""

import contextlib
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware_app.cli.main import main
from firmware_app.flows.shared.end import score_pages
from firmware_app.flows.shared.score_chart import score_chart_screen
from firmware_app.runners import demo
from firmware_app.runners.headless import Headless
from firmware_app.ui.canvas import Canvas
from firmware_app.ui.screens import Menu, Notice
from firmware_app.words.font import small

LABEL = "demo deck — not the printed cards"
LIT = tuple(demo.PALETTE[3 * demo.LIT : 3 * demo.LIT + 3])
CAPTION = tuple(demo.PALETTE[3 * demo.CAPTION_INK : 3 * demo.CAPTION_INK + 3])
PANEL_BOX = (
    *demo.PANEL_AT,
    demo.PANEL_AT[0] + demo.PANEL_SIZE[0],
    demo.PANEL_AT[1] + demo.PANEL_SIZE[1],
)


@pytest.fixture(scope="module")
def gif(tmp_path_factory) -> tuple[Path, str]:
    """``tableside demo`` run once: the GIF's path and what the command printed."""
    path = tmp_path_factory.mktemp("demo") / "demo.gif"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--gif", str(path), "--players", "2", "--seed", "1"]) == 0
    return path, out.getvalue()


@pytest.fixture(scope="module")
def frames(gif) -> list[Image.Image]:
    with Image.open(gif[0]) as im:
        pictures = []
        for index in range(im.n_frames):
            im.seek(index)
            picture = im.convert("RGB")
            picture.info["duration"] = im.info["duration"]
            pictures.append(picture)
    return pictures


def ink(picture: Image.Image, box: tuple[int, int, int, int], colour: tuple) -> Image.Image:
    """The pixels of ``picture`` in ``box`` that have ``colour``, as a mode "1" mask."""
    region = picture.crop(box)
    other = ImageChops.difference(region, Image.new("RGB", region.size, colour)).convert("L")
    return other.point(lambda level: 255 if level == 0 else 0).convert("1")


def scaled(panel: Image.Image) -> Image.Image:
    return panel.resize(demo.PANEL_SIZE, Image.Resampling.NEAREST)


@pytest.mark.whole_game
def test_the_command_writes_a_gif_pillow_opens_with_the_frames_it_reports(gif, frames):
    path, printed = gif
    assert printed == f"{path}: {len(frames)} frames\n"
    assert len(frames) > 50  # two minutes of a whole game
    assert path.stat().st_size < 2_000_000
    assert all(frame.size == frames[0].size for frame in frames)


@pytest.mark.whole_game  # reads the demo's whole game
def test_the_first_frame_is_the_start_screen_scaled_up(frames, tmp_path):
    start = Headless(tmp_path / "start")
    try:
        expected = scaled(start.display.last_image)
    finally:
        start.close()
    assert "New game" in start.screen
    assert ink(frames[0], PANEL_BOX, LIT).tobytes() == expected.tobytes()


@pytest.mark.whole_game
def test_the_scores_by_round_show_near_the_end_and_the_gif_ends_on_the_score_sheet(
    frames, tmp_path
):
    """The same seed plays the same game; its chart and score sheet, drawn by the app, end
    it, the sheet's last page (the winner) last."""
    sim = Headless(tmp_path / "again", seed=1)
    try:
        demo.play_game(sim, 2, 1, printed=False)
        sheet = score_pages(sim.app, final=True)
        opened, scrolled = Canvas(), Canvas()
        sheet.draw(opened)
        sheet.page = sheet.pages - 1
        sheet.draw(scrolled)
        chart = Canvas()
        score_chart_screen(sim.app).draw(chart)
    finally:
        sim.close()
    assert opened.lines[0].startswith("[Score sheet]")
    assert "Winner" in scrolled.text()
    panels = [ink(frame, PANEL_BOX, LIT).tobytes() for frame in frames]
    at_chart = panels.index(scaled(chart.image).tobytes())
    assert at_chart >= len(frames) - 30
    assert scaled(opened.image).tobytes() in panels[at_chart:]  # the sheet's first page
    assert panels[-1] == scaled(scrolled.image).tobytes()  # its last line: the winner


@pytest.mark.whole_game  # reads the demo's whole game
def test_every_frame_carries_the_demo_deck_label(gif, frames):
    font = small()
    text = Image.new("1", (font.text_width(LABEL), font.line_height))
    font.draw(text, (0, 0), LABEL)
    factor = demo.CAPTION_SCALE
    expected = text.resize((text.width * factor, text.height * factor), Image.Resampling.NEAREST)
    expected = expected.crop(expected.getbbox()).tobytes()
    below = (0, PANEL_BOX[3], frames[0].width, frames[0].height)
    for frame in frames:
        caption = ink(frame, below, CAPTION)
        assert caption.crop(caption.getbbox()).tobytes() == expected
    with Image.open(gif[0]) as im:
        assert im.info["comment"].decode() == LABEL


@pytest.mark.whole_game  # reads the demo's whole game
def test_notices_stay_up_longer_than_menus_and_the_ends_longest(frames):
    times = [frame.info["duration"] for frame in frames]
    assert times[0] == demo.FIRST_MS and times[-1] == demo.LAST_MS
    assert set(times[1:-1]) <= {demo.NOTICE_MS, demo.SCREEN_MS, demo.SCROLL_MS}
    assert demo.NOTICE_MS > demo.SCREEN_MS
    assert min(times[0], times[-1]) > max(times[1:-1])
    assert times.count(demo.NOTICE_MS) > 10


# select: which frames of a game are kept, on made-up shots.


def picture_number(n: int) -> Image.Image:
    """A panel frame of its own: pixel ``n`` lit."""
    image = Image.new("1", (128, 64))
    image.putpixel((n % 128, n // 128), 1)
    return image


def shots_of(screens, turn=None, over=False, first=0):
    return [
        demo.Shot(picture_number(first + i), screen, turn, over) for i, screen in enumerate(screens)
    ]


def menu():
    return Menu(None, "menu", [])


def notice():
    return Notice(None, "notice", [])  # without lines, a notice needs no app


def test_a_menus_cursor_travel_keeps_where_it_opened_and_what_was_chosen():
    first, second = menu(), menu()
    shots = shots_of([first] * 5 + [second] * 2 + [notice()] * 3 + [first])
    kept = demo.select(shots)
    assert kept == [shots[0], shots[4], shots[5], shots[6], *shots[7:]]


@pytest.mark.whole_game  # reads the demo's whole game
def test_the_gif_lasts_two_minutes_at_most(frames):
    assert sum(frame.info["duration"] for frame in frames) <= 120_000


def test_a_long_game_keeps_the_opening_the_end_and_whole_turns_within_the_cap():
    opening = shots_of([notice() for _ in range(20)], turn=0)
    turns = [
        shots_of([notice() for _ in range(10)], turn=t, first=10 * t + 20) for t in range(1, 201)
    ]
    ending = shots_of([notice() for _ in range(15)], turn=200, over=True, first=3000)
    shots = opening + [shot for turn in turns for shot in turn] + ending
    kept = demo.select(shots)
    assert kept[:20] == opening and kept[-15:] == ending
    seconds = sum(demo.durations(kept)) / 1000
    assert demo.MAX_SECONDS - 20 < seconds <= demo.MAX_SECONDS  # no more turns left out
    middle = kept[20:-15]
    kept_turns = {shot.turn for shot in middle}
    assert len(middle) == 10 * len(kept_turns)  # whole turns only
    assert 1 in kept_turns and len(kept_turns) > 2


def test_a_short_game_is_kept_whole():
    shots = shots_of([notice() for _ in range(50)], turn=3)
    assert demo.select(shots) == shots


def test_frames_brought_together_equal_are_shown_once():
    screen = menu()
    shots = shots_of([screen] * 3) + shots_of([notice()], first=3)
    shots[2] = demo.Shot(shots[0].image, screen, None, False)  # the cursor came back
    assert demo.select(shots) == [shots[0], shots[3]]


@pytest.mark.whole_game
def test_the_printed_demo_shows_the_teaching_screens_labelled_as_made_up(tmp_path, monkeypatch):
    """``--printed``: a family's first game on the printed box; the autopilot's answers
    are made up, and the caption and the GIF's comment say so. The game checked is the one
    the command plays for its GIF (2 players, seed 1), kept on its way: played once."""
    from firmware_app.flows.shared.teach import CostEntry

    played = []

    def kept_on_its_way(players: int, seed: int, printed: bool = False):
        played.append(((players, seed, printed), real(players, seed, printed)))
        return played[-1][1]

    real = demo.play_demo
    monkeypatch.setattr(demo, "play_demo", kept_on_its_way)
    path = tmp_path / "printed.gif"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--printed", "--gif", str(path), "--players", "2"]) == 0
    ((asked, (shots, label)),) = played
    assert asked == (2, 1, True)
    assert label == demo.PRINTED_LABEL == "printed box, values made up"
    kept = demo.select(shots)
    assert any(isinstance(shot.screen, CostEntry) for shot in kept)
    assert shots[-1].over
    assert sum(demo.durations(kept)) <= 120_000
    with Image.open(path) as im:
        assert im.info["comment"].decode() == demo.PRINTED_LABEL


@pytest.mark.whole_game
def test_the_printed_demo_is_a_sensible_game_of_normal_players(tmp_path):
    """The box plays every seat at the normal level, the token mix and the cards taught with
    plausible values, so the scores look like the rulebook's worked examples (15 and 20
    points, after 2 and 1 penalty points): none below zero, no hoard of leftover tokens."""
    sim = Headless(tmp_path / "state", seed=1, owner_catalogue=tmp_path / "owner.toml")
    try:
        demo.play_game(sim, 3, 1, printed=True)
        session = sim.app.session
        assert session.over and session.game.options.virtual == ("normal",) * 3
        assert session.game.cards.mix_known
        players = session.game.score(session.state).to_json()["players"]
        assert all(player["total"] > 0 for player in players), players
        assert all(player["penalty"] >= -10 for player in players), players
    finally:
        sim.close()
