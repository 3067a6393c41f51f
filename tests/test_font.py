"""The pixel fonts: coverage, glyph shapes, measuring, wrapping, drawing, golden images.

Coverage is proved by drawing: a character a font lacks is drawn as the
missing-glyph box, so every character a screen needs is drawn and compared
with that box. The golden PNGs under tests/golden/ pin every pixel of two
pangrams and the symbols; after changing a glyph on purpose, regenerate them
with ``TABLESIDE_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_font.py``
and look at the new PNGs before committing them.
"""

import os
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageDraw

from firmware_app.words.font import (
    FONT_DIR,
    FontFormatError,
    Glyph,
    PixelFont,
    fonts,
    large,
    load_font,
    parse_font,
    small,
)

GOLDEN = Path(__file__).with_name("golden")
REGENERATE = os.environ.get("TABLESIDE_REGENERATE_GOLDEN") == "1"

ASCII = "".join(map(chr, range(32, 127)))
POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"
SYMBOLS = "→←↑↓•…–—×„”°✓✗●○■□"
ACCENTED = "ćńóśźżĆŃÓŚŹŻ"
WITH_OGONEK = "ąęĄĘ"
BASE = dict(zip(POLISH, "acelnoszzACELNOSZZ", strict=True))

PANGRAM_PL = "Zażółć gęślą jaźń. ZAŻÓŁĆ GĘŚLĄ JAŹŃ 0123456789"
PANGRAM_EN = "The quick brown fox jumps over the lazy dog. THE QUICK BROWN FOX 0123456789"
SYMBOL_LINE = f"{ASCII[1:]} {' '.join(SYMBOLS)} „Tak” 20°"

FONT_NAMES = ["small", "large"]


def font_named(name: str) -> PixelFont:
    return fonts()[name]


def ink_rows(font: PixelFont, char: str) -> list[int]:
    """Indices of the rows of ``char``'s cell that hold any ink."""
    return [number for number, row in enumerate(font.glyph(char).rows) if "#" in row]


def drawn_cell(font: PixelFont, char: str) -> Image.Image:
    """``char`` drawn alone, cropped to its glyph's cell."""
    image = Image.new("1", (font.glyph(char).width, font.height))
    font.draw(image, (0, 0), char)
    return image


def lit(image: Image.Image) -> int:
    """How many pixels are on (Pillow stores a lit one-bit pixel as 1 or 255)."""
    return image.convert("L").histogram()[255]


def render(font: PixelFont, text: str, width: int = 128) -> Image.Image:
    """``text`` wrapped to the panel's width, as a screen would draw it."""
    lines = font.wrap(text, width)
    image = Image.new("1", (width, font.line_height * len(lines)))
    font.draw(image, (0, 0), "\n".join(lines))
    return image


# Coverage -----------------------------------------------------------------


@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_ascii_printable_polish_letter_and_symbol_is_present(name):
    assert font_named(name).missing(ASCII + POLISH + SYMBOLS) == set()


@pytest.mark.parametrize("name", FONT_NAMES)
def test_no_needed_character_draws_the_missing_glyph_box(name):
    font = font_named(name)
    box = font.missing_glyph.mask.tobytes()
    drawn_as_box = [c for c in ASCII + POLISH + SYMBOLS if drawn_cell(font, c).tobytes() == box]
    assert drawn_as_box == []


@pytest.mark.parametrize("name", FONT_NAMES)
def test_an_unknown_character_is_reported_and_drawn_as_the_box(name):
    font = font_named(name)
    assert font.missing("Zażółć 中文\n€") == {"中", "文", "€"}
    assert font.glyph("中") is font.missing_glyph
    assert drawn_cell(font, "中").tobytes() == font.missing_glyph.mask.tobytes()
    assert font.text_width("中") == font.missing_glyph.width


def test_both_fonts_are_found_and_read_once():
    assert set(fonts()) == {"small", "large"}
    assert fonts() is fonts()
    assert small() is fonts()["small"]
    assert large() is fonts()["large"]
    assert small().name == "small"


# Glyph shapes -------------------------------------------------------------


@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_glyph_is_one_cell_of_its_declared_width(name):
    font = font_named(name)
    for char, glyph in [*font.glyphs.items(), ("missing", font.missing_glyph)]:
        assert len(glyph.rows) == font.height, char
        assert {len(row) for row in glyph.rows} == {glyph.width}, char
        assert glyph.mask.size == (glyph.width, font.height), char
        assert glyph.mask.mode == "1", char


def test_a_glyph_is_a_frozen_value_with_its_mask_built_once():
    rows = ("#.#", ".#.")
    glyph = Glyph(rows)
    assert glyph == Glyph(rows) and hash(glyph) == hash(Glyph(rows))
    assert glyph != Glyph(("###", ".#."))
    assert repr(glyph) == "Glyph(rows=('#.#', '.#.'))"
    assert glyph.mask is glyph.mask
    assert glyph.mask.tobytes("raw", "L") == bytes([255, 0, 255, 0, 255, 0])
    with pytest.raises(AttributeError):
        glyph.rows = ("#",)


@pytest.mark.parametrize("name", FONT_NAMES)
def test_glyph_rows_in_the_file_have_the_declared_width_and_cell_height(name):
    """Checks the text itself, independently of the parser."""
    font = font_named(name)
    lines = (FONT_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    headers = [n for n, line in enumerate(lines) if line.startswith(("char ", "missing "))]
    assert len(headers) == len(font.glyphs) + 1
    for n in headers:
        width = int(lines[n].rsplit(" ", 1)[1])
        cell = lines[n + 1 : n + 1 + font.height]
        assert [len(row) for row in cell] == [width] * font.height, lines[n]
        assert set("".join(cell)) <= {"#", "."}, lines[n]


@pytest.mark.parametrize("name", FONT_NAMES)
def test_no_two_characters_share_a_bitmap(name):
    font = font_named(name)
    owners: dict[tuple[str, ...], list[str]] = {}
    for char, glyph in [*font.glyphs.items(), ("missing", font.missing_glyph)]:
        owners.setdefault(glyph.rows, []).append(char)
    assert [chars for chars in owners.values() if len(chars) > 1] == []


@pytest.mark.parametrize("name", FONT_NAMES)
def test_only_the_space_is_blank_and_every_other_glyph_is_inked_edge_to_edge(name):
    """Tight glyphs are what make ``text_width`` equal to the inked width."""
    font = font_named(name)
    blank = [c for c, g in font.glyphs.items() if not any("#" in row for row in g.rows)]
    assert blank == [" "]
    for char, glyph in font.glyphs.items():
        if char != " ":
            assert any(row[0] == "#" for row in glyph.rows), char
            assert any(row[-1] == "#" for row in glyph.rows), char


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize("letter", POLISH)
def test_each_polish_letter_differs_from_its_base_letter(name, letter):
    font = font_named(name)
    assert font.glyph(letter).rows != font.glyph(BASE[letter]).rows


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize("letter", ACCENTED)
def test_an_accent_sits_above_its_letter_with_a_clear_row_between(name, letter):
    font = font_named(name)
    rows = ink_rows(font, letter)
    assert rows[0] < ink_rows(font, BASE[letter])[0]
    gaps = [row for row in range(rows[0], rows[-1]) if row not in rows]
    assert gaps, "the accent touches the letter"
    assert rows[-1] == font.baseline - 1, "the letter stands on the baseline"


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize("letter", WITH_OGONEK)
def test_an_ogonek_hangs_below_the_baseline(name, letter):
    font = font_named(name)
    assert ink_rows(font, letter)[-1] >= font.baseline
    assert ink_rows(font, BASE[letter])[-1] == font.baseline - 1


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize("letter", string.ascii_uppercase + "ĄĆĘŁŃÓŚŹŻ")
def test_capitals_and_their_accents_stay_inside_the_cell(name, letter):
    font = font_named(name)
    glyph = font.glyph(letter)
    image = Image.new("1", (glyph.width + 20, font.height + 20))
    font.draw(image, (10, 10), letter)
    left, top, right, bottom = image.getbbox()
    assert (left, right) == (10, 10 + glyph.width)
    assert top >= 10 and bottom <= 10 + font.height
    assert lit(image) == sum(row.count("#") for row in glyph.rows), "no accent pixel is lost"


# Measuring and drawing ----------------------------------------------------


def inked_text(font: PixelFont) -> st.SearchStrategy[str]:
    """Text of the font's characters that starts and ends with ink."""
    chars = st.sampled_from(sorted(font.glyphs))
    return st.text(chars, min_size=1, max_size=16).map(lambda s: s.strip(" ")).filter(bool)


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_text_width_is_exactly_the_width_that_draw_inks(name, data):
    font = font_named(name)
    text = data.draw(inked_text(font))
    width = font.text_width(text)
    image = Image.new("1", (width + 10, font.height + 10))
    font.draw(image, (5, 5), text)
    left, top, right, bottom = image.getbbox()
    assert (left, right) == (5, 5 + width)
    assert top >= 5 and bottom <= 5 + font.height


def test_text_width_adds_spacing_between_glyphs_and_takes_the_widest_line():
    font = small()
    a, b = font.glyph("a").width, font.glyph("b").width
    assert font.text_width("") == 0
    assert font.text_width("a") == a
    assert font.text_width("ab") == a + font.spacing + b
    assert font.text_width("ab\na") == font.text_width("ab")
    assert font.text_width("a\nab") == font.text_width("ab")


def test_digits_share_one_width_so_numbers_line_up():
    for font in fonts().values():
        assert len({font.glyph(digit).width for digit in string.digits}) == 1


def test_a_newline_starts_the_next_line_one_line_height_down():
    font = small()
    together = Image.new("1", (60, 30))
    font.draw(together, (3, 2), "Ala\nżółw")
    apart = Image.new("1", (60, 30))
    font.draw(apart, (3, 2), "Ala")
    font.draw(apart, (3, 2 + font.line_height), "żółw")
    assert together.tobytes() == apart.tobytes()
    assert font.line_height == font.height == 10
    assert large().line_height == large().height == 16


def test_drawing_on_an_imagedraw_matches_drawing_on_the_image():
    on_image = Image.new("1", (128, 64))
    small().draw(on_image, (4, 7), PANGRAM_PL)
    on_draw = Image.new("1", (128, 64))
    small().draw(ImageDraw.Draw(on_draw), (4, 7), PANGRAM_PL)
    assert on_image.tobytes() == on_draw.tobytes()
    assert on_image.getbbox() is not None


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet=PANGRAM_PL + SYMBOLS + "\n中", max_size=16),
    x=st.integers(-40, 130),
    y=st.integers(-20, 70),
    fill=st.sampled_from([0, 1]),
    paper=st.sampled_from([0, 1]),
)
def test_an_image_and_an_imagedraw_on_it_get_the_same_pixels_anywhere(
    name, text, x, y, fill, paper
):
    """An image is stamped with ``paste``, an ImageDraw with ``bitmap``: clipping included."""
    on_image = Image.new("1", (128, 64), paper)
    font_named(name).draw(on_image, (x, y), text, fill=fill)
    on_draw = Image.new("1", (128, 64), paper)
    font_named(name).draw(ImageDraw.Draw(on_draw), (x, y), text, fill=fill)
    assert on_image.tobytes() == on_draw.tobytes()


def test_drawing_inside_a_luma_canvas_reaches_the_device():
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        large().draw(draw, (0, 0), "Tura: Ala")
    expected = Image.new("1", (128, 64))
    large().draw(expected, (0, 0), "Tura: Ala")
    assert device.image.tobytes() == expected.tobytes()


def test_fill_zero_cuts_dark_text_out_of_a_lit_bar():
    font = small()
    bar = Image.new("1", (font.glyph("Ó").width, font.height), 1)
    font.draw(bar, (0, 0), "Ó", fill=0)
    paper = [pixel == "." for row in font.glyph("Ó").rows for pixel in row]
    assert [bool(value) for value in bar.tobytes("raw", "L")] == paper


def test_text_partly_off_the_image_is_clipped():
    image = Image.new("1", (20, 8))
    small().draw(image, (-3, -4), "Żółw")
    expected = Image.new("1", (40, 20))
    small().draw(expected, (0, 0), "Żółw")
    assert image.tobytes() == expected.crop((3, 4, 23, 12)).tobytes()


# Wrapping -----------------------------------------------------------------


def test_wrap_breaks_at_spaces():
    font = small()
    width = font.text_width("Ala ma")
    assert font.wrap("Ala ma kota", width) == ["Ala ma", "kota"]
    assert font.wrap("Ala ma kota", width - 1) == ["Ala", "ma", "kota"]
    assert font.wrap("Ala   ma kota", width) == ["Ala ma", "kota"]


def test_wrap_keeps_paragraphs_and_lines_that_fit_as_they_are():
    font = small()
    assert font.wrap("", 50) == [""]
    assert font.wrap("Tura\n\n  wynik  7", 128) == ["Tura", "", "  wynik  7"]


def test_wrap_breaks_a_word_too_long_for_a_line():
    font = small()
    word = "Konstantynopolitańczykowianeczka"
    lines = font.wrap(f"Ala {word}", 40)
    assert lines[0] == "Ala"
    assert "".join(lines[1:]) == word
    for line, following in zip(lines[1:], lines[2:], strict=False):
        assert font.text_width(line) <= 40 < font.text_width(line + following[0])


def test_wrap_refuses_a_width_narrower_than_a_character():
    with pytest.raises(ValueError) as error:
        small().wrap("li WW", 4)
    assert str(error.value) == "width_px=4 is narrower than 'W' (5 px in the small font)"


WORD_CHARS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄĆĘŁŃÓŚŹŻXYZ0123456789.,!?:-"


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.text(WORD_CHARS, min_size=1, max_size=14), min_size=1, max_size=12),
    width=st.integers(min_value=12, max_value=128),
)
def test_wrap_never_exceeds_the_width_and_loses_no_character(name, words, width):
    font = font_named(name)
    text = " ".join(words)
    lines = font.wrap(text, width)
    assert all(font.text_width(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    placed = {word for line in lines for word in line.split(" ")}
    assert {word for word in words if font.text_width(word) <= width} <= placed
    for line, following in zip(lines, lines[1:], strict=False):
        first = following.split(" ")[0]
        if first in words:
            assert font.text_width(f"{line} {first}") > width, "a word was left behind"


# The text format ----------------------------------------------------------

METRICS = "height 3\nbaseline 2\nspacing 1\n"
MISSING = "missing width 2\n##\n#.\n##\n"
GLYPH_A = "char U+0041 A width 2\n.#\n##\n#.\n"


def test_parse_font_reads_metrics_glyphs_and_comments():
    font = parse_font(f"; a comment\n{METRICS}\n{GLYPH_A}\n; another\n{MISSING}", "tiny")
    assert (font.name, font.height, font.baseline, font.spacing) == ("tiny", 3, 2, 1)
    assert font.glyph("A").rows == (".#", "##", "#.")
    assert font.missing_glyph.rows == ("##", "#.", "##")
    assert font.missing("AB") == {"B"}


def test_load_font_names_the_font_after_its_file(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text(METRICS + GLYPH_A + MISSING, encoding="utf-8")
    font = load_font(path)
    assert font.name == "tiny"
    assert repr(font) == "<PixelFont 'tiny': 1 glyphs, 3 px>"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            METRICS + "char U+0041 A width 3\n.#\n##\n#.\n" + MISSING,
            "<text>:5: '.#' is not 3 characters of '#' and '.'",
        ),
        (
            METRICS + "char U+0041 A width 2\n.#\n#x\n#.\n" + MISSING,
            "<text>:6: '#x' is not 2 characters of '#' and '.'",
        ),
        (METRICS + "char U+0042 A width 2\n" + MISSING, "<text>:4: U+0042 is not 'A'"),
        (METRICS + GLYPH_A + GLYPH_A + MISSING, "<text>:8: U+0041 A is already defined"),
        (METRICS + MISSING + MISSING, "<text>:8: a second missing glyph"),
        (
            METRICS + "glyph A\n",
            "<text>:4: expected 'char U+XXXX C width N', 'missing width N'"
            " or a metric (height, baseline, spacing), got 'glyph A'",
        ),
        (
            "height 3\n" + GLYPH_A + MISSING,
            "<text>:2: metrics missing before the glyphs: baseline, spacing",
        ),
        (
            METRICS + GLYPH_A + "spacing 2\n" + MISSING,
            "<text>:8: metrics must come before the first glyph",
        ),
        (METRICS + GLYPH_A, "<text>: no missing glyph ('missing width N')"),
        (METRICS + "missing width 2\n##\n", "<text>:4: 3 rows expected, the file ends after 1"),
        (
            "height 3\nbaseline 4\nspacing 1\n" + MISSING,
            "<text>:4: baseline 4 is outside the cell (1..3)",
        ),
    ],
)
def test_a_malformed_font_is_refused_naming_the_line(text, message):
    with pytest.raises(FontFormatError) as error:
        parse_font(text, "tiny")
    assert str(error.value) == message


def test_a_malformed_font_file_is_named_in_the_error(tmp_path):
    path = tmp_path / "broken.txt"
    path.write_text(METRICS + "char U+0041 A width 2\n.#\n", encoding="utf-8")
    with pytest.raises(FontFormatError, match=f"^{path}:4: 3 rows expected"):
        load_font(path)


# Golden images ------------------------------------------------------------


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize(
    ("sample", "text"),
    [("pl", PANGRAM_PL), ("en", PANGRAM_EN), ("symbols", SYMBOL_LINE)],
)
def test_golden_image(name, sample, text, tmp_path):
    actual = render(font_named(name), text)
    reference = GOLDEN / f"font-{name}-{sample}.png"
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        actual.save(reference)
    expected = Image.open(reference).convert("1")
    if actual.size != expected.size or actual.tobytes() != expected.tobytes():
        actual.save(tmp_path / reference.name)
        pytest.fail(f"{reference.name} differs; the new picture is {tmp_path / reference.name}")


# Every string the panel can show ------------------------------------------------


def panel_strings() -> dict[str, str]:
    """Every text a screen may draw, by where it comes from: both catalogues' ids and
    translations, the rules' words, each string literal of the app (docstrings aside),
    and every name and text of the card data files."""
    import ast
    import tomllib

    from firmware_app.words.i18n import LOCALE_DIR, parse_entries
    from rules import messages

    found: dict[str, str] = {}
    for path in sorted(LOCALE_DIR.glob("*.po")):
        singles, plurals = parse_entries(path.read_text(encoding="utf-8"))
        for msgid, msgstr in singles.items():
            found[f"{path.name} {msgid!r}"] = msgid + msgstr
        for msgid, forms in plurals.items():
            found[f"{path.name} {msgid!r}"] = msgid + "".join(forms)
    tables = [messages.NAMES, messages.INITIALS, messages.HERE, {"pl": messages.IN_PLACE}]
    for table in tables:
        for language, words in table.items():
            for key, word in words.items():
                found[f"rules.messages {language} {key}"] = word
    for key, templates in messages.MESSAGES.items():
        found[f"rules.messages {key}"] = "".join(templates.values())
    root = Path(__file__).parent.parent
    for path in sorted((root / "firmware_app").rglob("*.py")):
        if path.name in TERMINAL_ONLY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            literal = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if literal and id(node) not in docstrings:
                found[f"{path.relative_to(root)}:{node.lineno}"] = node.value
    for path in sorted((root / "rules" / "data").glob("*.toml")):
        found.update(_toml_strings(path.name, tomllib.loads(path.read_text(encoding="utf-8"))))
    return found


def _toml_strings(where: str, value) -> dict[str, str]:
    if isinstance(value, str):
        return {where: value}
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return {}
    found: dict[str, str] = {}
    for key, inner in items:
        found.update(_toml_strings(f"{where}.{key}", inner))
    return found


# Characters a panel string may hold that are never drawn (control characters), and the
# modules that draw the terminal simulator's frame and keys rather than the panel.
NOT_DRAWN = {chr(code) for code in range(32)}
TERMINAL_ONLY = ("terminal.py", "terminal_view.py")


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_character_of_every_panel_string_is_in_the_font(name):
    font = font_named(name)
    lacking = {
        where: "".join(sorted(font.missing(text) - NOT_DRAWN))
        for where, text in panel_strings().items()
        if font.missing(text) - NOT_DRAWN
    }
    assert lacking == {}


def test_the_middle_dot_of_a_card_line_is_drawn():
    for font in fonts().values():
        assert "·" in font.glyphs and drawn_cell(font, "·").getbbox() is not None
