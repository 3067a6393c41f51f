"""The terminal view: half blocks, braille, and the layout of the panel, legend and text."""

import pytest
from PIL import Image

from firmware_app.runners.terminal_view import (
    BELOW,
    BESIDE,
    BLANK,
    BLANK_DOTS,
    HEIGHT,
    PANEL_COLS,
    SMALLEST,
    WIDTH,
    Layout,
    View,
    braille,
    compose,
    half_blocks,
    layout_for,
    legend,
    short_legend,
)

# ------------------------------------------------------------ half blocks


def test_half_blocks_draw_two_pixel_rows_per_character():
    image = Image.new("1", (4, 3))
    for xy in [(1, 0), (2, 1), (3, 0), (3, 1), (0, 2), (3, 2)]:
        image.putpixel(xy, 1)
    # rows 0+1: off/off, on/off, off/on, on/on; row 2 over an unlit row
    assert half_blocks(image) == [" ▀▄█", "▀  ▀"]


def test_a_whole_panel_is_32_rows_of_128_characters():
    image = Image.new("1", (WIDTH, HEIGHT))
    image.putpixel((WIDTH - 1, HEIGHT - 1), 1)
    rows = half_blocks(image)
    assert len(rows) == 32 and {len(row) for row in rows} == {128}
    assert rows[-1] == " " * 127 + "▄"
    assert set("".join(rows[:-1])) == {" "}


def test_half_blocks_want_a_one_bit_image():
    with pytest.raises(ValueError, match="expected a one-bit image \\(mode '1'\\), not mode 'L'"):
        half_blocks(Image.new("L", (4, 4)))


# ----------------------------------------------------------------- braille


def lit(size, *pixels) -> Image.Image:
    image = Image.new("1", size)
    for xy in pixels:
        image.putpixel(xy, 1)
    return image


@pytest.mark.parametrize(
    ("pixel", "cell"),
    [
        ((0, 0), "⠁"),  # dot 1, U+2801
        ((0, 1), "⠂"),  # dot 2, U+2802
        ((0, 2), "⠄"),  # dot 3, U+2804
        ((1, 0), "⠈"),  # dot 4, U+2808
        ((1, 1), "⠐"),  # dot 5, U+2810
        ((1, 2), "⠠"),  # dot 6, U+2820
        ((0, 3), "⡀"),  # dot 7, U+2840
        ((1, 3), "⢀"),  # dot 8, U+2880
    ],
)
def test_each_pixel_of_a_cell_raises_its_own_braille_dot(pixel, cell):
    assert braille(lit((2, 4), pixel)) == [cell]


def test_braille_draws_two_by_four_pixels_per_character():
    # left cell: the left column lit (dots 1 2 3 7); right cell: every pixel; then a bare cell
    image = lit((6, 4), (0, 0), (0, 1), (0, 2), (0, 3), *[(x, y) for x in (2, 3) for y in range(4)])
    assert braille(image) == ["⡇⣿⠀"]
    assert [hex(ord(c)) for c in braille(image)[0]] == ["0x2847", "0x28ff", "0x2800"]


def test_braille_draws_a_diagonal_and_pads_a_ragged_edge_unlit():
    image = lit((3, 6), (0, 0), (1, 1), (2, 2), (2, 5))
    # (0,0) dot 1 + (1,1) dot 5 = 0x11; (2,2) is dot 3 of the second cell; (2,5) dot 2 below
    assert braille(image) == ["⠑⠄", "⠀⠂"]


def test_a_whole_panel_is_16_rows_of_64_braille_characters():
    image = lit((WIDTH, HEIGHT), (WIDTH - 1, HEIGHT - 1))
    rows = braille(image)
    assert len(rows) == 16 and {len(row) for row in rows} == {64}
    assert rows[-1] == "⠀" * 63 + "⢀"
    assert set("".join(rows[:-1])) == {"⠀"}
    assert tuple(braille(Image.new("1", (WIDTH, HEIGHT)))) == BLANK_DOTS


def test_braille_wants_a_one_bit_image():
    with pytest.raises(ValueError, match="expected a one-bit image"):
        braille(Image.new("L", (4, 4)))


# ----------------------------------------------------------------- layout


def view(**changes) -> View:
    fields = dict(
        panel=("█" * WIDTH,) * (HEIGHT // 2),
        dots=("⣿" * (WIDTH // 2),) * (HEIGHT // 4),
        text=("[Tableside]", "> New game", "  Settings"),
        log="action draw",
        prompt=None,
        asleep=False,
        language="en",
    )
    return View(**(fields | changes))


def at(pieces, row, col=0) -> str:
    return next(text for r, c, text in pieces if (r, c) == (row, col))


def test_the_panel_is_framed_with_the_legend_and_the_log_under_it():
    pieces = compose(view(), *BELOW)
    assert at(pieces, 0).startswith("┌─ Tableside ─") and at(pieces, 0).endswith("┐")
    assert at(pieces, 1) == "│" + "█" * WIDTH + "│"
    assert at(pieces, 33) == "└" + "─" * WIDTH + "┘"
    assert [at(pieces, row) for row in (34, 35, 36)] == legend("en")
    assert at(pieces, 37) == "action draw"


def test_the_screen_text_goes_below_on_a_narrow_terminal_and_beside_on_a_wide_one():
    below = compose(view(), *BELOW)
    assert [at(below, row) for row in (38, 39, 40)] == ["[Tableside]", "> New game", "  Settings"]
    beside = compose(view(), *BESIDE)
    assert [at(beside, row, PANEL_COLS + 2) for row in (1, 2, 3)] == list(view().text)


def test_the_tag_prompt_takes_the_status_line():
    pieces = compose(view(prompt="04A1"), *BELOW)
    assert at(pieces, 37) == "Tag UID in hex (Enter lays it on the reader, Esc cancels): 04A1_"


def test_a_sleeping_panel_is_blank_and_says_how_to_wake_it():
    pieces = compose(view(panel=BLANK, asleep=True, language="pl"), *BELOW)
    assert at(pieces, 1) == "│" + " " * WIDTH + "│"
    assert at(pieces, 38) == "Ekran śpi: dowolny klawisz go budzi."


@pytest.mark.parametrize(
    ("size", "layout"),
    [
        (BESIDE, Layout.BESIDE),
        ((200, 60), Layout.BESIDE),
        (BELOW, Layout.BELOW),
        ((163, 80), Layout.BELOW),
        ((129, 80), Layout.BRAILLE),
        ((164, 37), Layout.BRAILLE),
        ((80, 24), Layout.BRAILLE),
        (SMALLEST, Layout.BRAILLE),
        ((65, 40), Layout.TOO_SMALL),
        ((100, 18), Layout.TOO_SMALL),
    ],
)
def test_the_full_picture_when_it_fits_else_braille_else_a_message(size, layout):
    assert (SMALLEST, BELOW, BESIDE) == ((66, 19), (130, 45), (164, 38))
    assert layout_for(*size) is layout


SIZES = [BELOW, BESIDE, (200, 60), (129, 80), (80, 24), (79, 24), SMALLEST, (66, 40), (20, 3)]


@pytest.mark.parametrize("size", SIZES)
def test_nothing_is_written_off_screen_or_in_the_last_cell(size):
    cols, rows = size
    for row, col, text in compose(view(), cols, rows):
        assert 0 <= row < rows and col + len(text) <= cols
        assert not (row == rows - 1 and col + len(text) == cols)


@pytest.mark.parametrize("size", SIZES)
def test_no_two_pieces_overlap(size):
    taken = set()
    for row, col, text in compose(view(), *size):
        cells = {(row, c) for c in range(col, col + len(text))}
        assert not cells & taken, (row, col, text)
        taken |= cells


def test_at_80x24_the_braille_panel_has_the_short_legend_beside_and_the_text_below():
    pieces = compose(view(), 80, 24)
    assert at(pieces, 0).startswith("┌─ Tableside ─") and len(at(pieces, 0)) == 66
    assert [at(pieces, row) for row in range(1, 17)] == ["│" + "⣿" * 64 + "│"] * 16
    assert at(pieces, 17) == "└" + "─" * 64 + "┘"
    assert [at(pieces, row, 67) for row in range(13)] == short_legend("en")
    assert at(pieces, 18) == "action draw"
    assert [at(pieces, row) for row in (19, 20, 21)] == list(view().text)


def test_at_80x24_seven_lines_of_text_take_two_columns():
    text = tuple(f"line {n}" for n in range(1, 8))
    pieces = compose(view(text=text), 80, 24)
    assert [at(pieces, row) for row in range(19, 24)] == list(text[:5])
    assert [at(pieces, row, 34) for row in (19, 20)] == list(text[5:])


def test_the_short_legend_fits_beside_the_braille_panel_of_an_80_column_terminal():
    for language in ("en", "pl"):
        assert max(len(line) for line in short_legend(language)) <= 80 - 67
        assert len(short_legend(language)) <= 16


def test_a_braille_terminal_too_narrow_for_the_legend_beside_gets_it_below():
    pieces = compose(view(language="pl"), 70, 30)
    assert at(pieces, 18) == "action draw"
    below = [at(pieces, row) for row in (19, 20, 21)]
    assert "   ".join(below).split("   ") == short_legend("pl")
    assert all(len(line) <= 69 for line in below)
    assert at(pieces, 22) == "[Tableside]"


def test_a_sleeping_braille_panel_is_blank_and_says_how_to_wake_it():
    pieces = compose(view(dots=BLANK_DOTS, asleep=True), 80, 24)
    assert at(pieces, 1) == "│" + "⠀" * 64 + "│"
    assert at(pieces, 19) == "The panel is asleep: any key wakes it."


def test_a_terminal_too_small_gets_the_sizes_it_needs():
    text = " ".join(text for _, _, text in compose(view(), 60, 15))
    assert text == (
        "tableside sim needs a terminal of at least 66x19 characters "
        "(130x45 or 164x38 for the full picture); this one is 60x15"
    )
