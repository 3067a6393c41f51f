"""Polish and English on the panel: the catalogue matches the code and fits the screen.

The message ids are read from the source by ``firmware_app.words.i18n_extract``
(literal ``t("…")`` calls and the tables passed to ``t`` indirectly), so a
new screen text without its Polish translation, or a translation whose text
left the code, fails here. Every message is drawn-checked against the small
font and the labels a screen cuts with an ellipsis (menu items, titles,
prompts) must fit the 128 px panel in both languages.
"""

import ast
import gettext
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from screen_helpers import choose

from firmware_app.flows.pingwiny.help import LOCATION_HELP, PAGES
from firmware_app.flows.pingwiny.turn import EXTRAS
from firmware_app.flows.shared.end import DECIDED
from firmware_app.runners.headless import Headless
from firmware_app.ui.canvas import WIDTH, Canvas
from firmware_app.words.font import small
from firmware_app.words.i18n import LANGUAGES, LOCALE_DIR, Translator, parse_po
from firmware_app.words.i18n_extract import (
    PACKAGE_DIR,
    Extraction,
    Extractor,
    SourceFile,
    check,
    extract,
    main,
    po_entry,
    po_quote,
)
from rules.colours import TYPES
from rules.errors import RulesError
from rules.messages import MESSAGES, NAMES, text

PL_PO = LOCALE_DIR / "pl.po"
CATALOGUES = sorted(LOCALE_DIR.glob("*.po"))

# The widest page counter a notice puts beside its title ("12/23" on a score sheet).
PAGE_COUNTER = "10/20"
# Parameters whose text a screen draws on one line, cut with an ellipsis when too wide.
ROLES = {"title": "title", "label": "label", "prompt": "label", "right": "label"}
# ...and the canvas's own one-line methods, whose parameter is plain ``text``.
CANVAS_LINES = {"row": "label", "title": "title"}


@pytest.fixture(scope="module")
def found():
    return extract()


@pytest.fixture(scope="module")
def polish() -> dict[str, str]:
    return parse_po(PL_PO.read_text(encoding="utf-8"))


def fields(message: str) -> list[str]:
    """The ``{placeholders}`` of a message, sorted (word order differs between languages)."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(message) if name is not None)


def samples(message: str, language: str) -> dict[str, object]:
    """Short, typical values for a message's placeholders, in ``language``."""
    names = NAMES[language]
    t = Translator(language)
    values = {
        "n": 4,
        "d": 42,
        "space": 6,
        "points": 12,
        "uid": "04A1B2C3D4E5F6",
        "action": "visit chimp",
        "card": "Gladys",
        "mission": "Zoo",
        "label": "demo deck",
        "reason": "disk full",
        "value": "255",
        "choice": names["yellow"],
        "names": t("Player {n}", n=1),
        "who": t("Mouse {n}", n=1),
        "laps": 2,
        "place": t("the bag"),
        "penguin": f"Rico ({names['red']})",
        "tokens": f"2× {names['red']}, {names['blue']}",
        "colours": f"2× {names['red']}",
    }
    return {name: values.get(name, "Gladys") for name in fields(message)}


# The extractor on this code ---------------------------------------------------


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_every_translator_call_is_followed_to_its_ids(found):
    assert found.unfollowed == []
    assert len(found.messages) > 150


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_the_tables_passed_to_the_translator_indirectly_are_extracted(found):
    lines = [line for page in PAGES.values() for line in page]
    indirect = [*LOCATION_HELP.values(), *PAGES, *lines, *DECIDED.values(), *EXTRAS, *TYPES]
    assert [message for message in indirect if message not in found.messages] == []
    # keys used only to look a text up are not messages
    assert not {*LOCATION_HELP, *DECIDED} & set(found.messages)


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_each_place_of_an_id_is_a_line_that_calls_the_translator(found):
    root = PACKAGE_DIR.parent
    for places in found.messages.values():
        for place in places:
            path, _, line = place.rpartition(":")
            source = (root / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
            assert "t(" in source or "t.plural(" in source, place


# The extractor on a small package ---------------------------------------------

SAMPLE_TABLES = """
KINDS = ("bird", "insect")
"""

SAMPLE_SCREENS = """
from pkg.tables import KINDS as SORTS

TITLES = {"a": "First page", "b": "Second page"}
LINES = ["One", "Two"]
PAGES = {"Help": ["Read me.", "Then me."]}


def screen(app, t, key, runs):
    app.t("Literal")
    t(TITLES[key])
    [t(kind) for kind in SORTS]
    [t(label) for label, run in zip(LINES, runs)]
    [lambda title=title, lines=lines: [t(x) for x in lines] + [t(title)]
     for title, lines in PAGES.items()]
    for value in TITLES.values():
        t(value)
    t(key)
    t(f"Hello {key}")


def helper(t, text="Default"):
    t(text)
"""


@pytest.fixture
def sample_package(tmp_path) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "tables.py").write_text(SAMPLE_TABLES, encoding="utf-8")
    (package / "screens.py").write_text(SAMPLE_SCREENS, encoding="utf-8")
    return package


def test_the_extractor_follows_literals_tables_loops_and_imports(sample_package):
    found = extract(sample_package, sample_package.parent)
    assert sorted(found.messages) == sorted(
        ["Literal", "First page", "Second page", "bird", "insect", "One", "Two"]
        + ["Help", "Read me.", "Then me."]
    )
    assert found.messages["First page"] == ["pkg/screens.py:11", "pkg/screens.py:17"]


def test_the_extractor_reports_what_it_cannot_follow(sample_package):
    found = extract(sample_package, sample_package.parent)
    assert found.unfollowed == [
        "pkg/screens.py:18: t(key)",
        "pkg/screens.py:19: t(f'Hello {key}')",
        "pkg/screens.py:23: t(text)",
    ]


# The Polish catalogue ---------------------------------------------------------


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_every_id_has_a_polish_translation(found, polish):
    assert [message for message in found.messages if not polish.get(message)] == []


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.name)
def test_no_translation_is_stale(found, path):
    catalogue = parse_po(path.read_text(encoding="utf-8"))
    assert [message for message in catalogue if message not in found.messages] == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.name)
def test_each_catalogue_has_one_entry_per_id_and_a_standard_header(path):
    po = path.read_text(encoding="utf-8")
    ids = [line for line in po.splitlines() if line.startswith("msgid ")]
    assert len(ids) == len(parse_po(po)) + 1  # and the header
    for field in (
        f"Language: {path.stem}\\n",
        "Content-Type: text/plain; charset=UTF-8\\n",
        "Plural-Forms: nplurals=",
    ):
        assert field in po


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.name)
def test_placeholders_are_exactly_those_of_the_id(path):
    catalogue = parse_po(path.read_text(encoding="utf-8"))
    wrong = {
        msgid: msgstr for msgid, msgstr in catalogue.items() if fields(msgid) != fields(msgstr)
    }
    assert wrong == {}


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.name)
def test_gettext_compiles_each_catalogue_to_the_same_messages(tmp_path, path):
    """The real gettext tools agree with ``parse_po`` on every entry."""
    catalogue = parse_po(path.read_text(encoding="utf-8"))
    compiled = tmp_path / "messages.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(path)], check=True)
    with compiled.open("rb") as mo:
        gnu = gettext.GNUTranslations(mo)
    assert {msgid: gnu.gettext(msgid) for msgid in catalogue} == catalogue
    assert gnu.info()["language"] == path.stem


# Drawing every message --------------------------------------------------------


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_draws_without_a_missing_glyph(found, language):
    t, font = Translator(language), small()
    missing = {}
    for message in found.messages:
        shown = t(message, **samples(message, language))
        if font.missing(shown):
            missing[shown] = font.missing(shown)
    assert missing == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_refusals_and_names_draw_without_a_missing_glyph(language):
    font = small()
    names = NAMES[language]
    params = {"colour": names["yellow"], "location": names["hq"]}
    shown = list(names.values())
    for templates in MESSAGES.values():
        template = templates[language]
        shown.append(
            template.format(**{name: params.get(name, "Gladys") for name in fields(template)})
        )
    assert {line: font.missing(line) for line in shown if font.missing(line)} == {}


def test_the_rules_refusals_have_the_same_placeholders_in_both_languages():
    wrong = {
        key: pair for key, pair in MESSAGES.items() if fields(pair["en"]) != fields(pair["pl"])
    }
    assert wrong == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_can_be_raised_and_worded(language):
    for key, templates in MESSAGES.items():
        params = dict.fromkeys(fields(templates["en"]), "yellow")
        assert RulesError(key, **params).text(language) == text(key, language, **params)


# Fitting the panel ------------------------------------------------------------


class Roles:
    """Where the package draws a text on one line, found from the source.

    A text is a "title" when passed as a parameter named ``title`` (a notice
    puts its page counter beside it), a "label" when passed as a ``label``,
    ``prompt`` or ``right``, as the text of ``Canvas.row``, or as the first of a
    ``(label, value)`` pair. A text a helper returns plays the role of the
    helper's calls. Anything else (a notice's lines) is wrapped, never cut.
    """

    def __init__(self, extractor: Extractor) -> None:
        self.parameters: dict[str, list[list[str]]] = {}
        self.calls: dict[str, list[tuple[SourceFile, ast.Call]]] = {}
        for path in sorted(PACKAGE_DIR.rglob("*.py")):
            source = extractor.file(path)
            for node in ast.walk(source.tree):
                if isinstance(node, ast.FunctionDef | ast.ClassDef):
                    names = _parameters(node)
                    self.parameters.setdefault(node.name, []).append(names)
                elif isinstance(node, ast.Call) and _callee(node):
                    self.calls.setdefault(_callee(node), []).append((source, node))

    def of(
        self, source: SourceFile, node: ast.expr, seen: frozenset[str] = frozenset()
    ) -> str | None:
        """The role ("title", "label" or None) of the text ``node`` evaluates to."""
        parent = source.parents[node]
        while isinstance(parent, ast.IfExp):  # t("a") if final else t("b")
            node, parent = parent, source.parents[parent]
        if isinstance(parent, ast.keyword):
            return ROLES.get(parent.arg or "")
        if isinstance(parent, ast.Call) and node in parent.args:
            return self._argument(_callee(parent), parent.args.index(node))
        if isinstance(parent, ast.Tuple) and len(parent.elts) == 2 and parent.elts[0] is node:
            return "label"
        if isinstance(parent, ast.Assign):
            names = [target.id for target in parent.targets if isinstance(target, ast.Name)]
            return next((ROLES[name] for name in names if name in ROLES), None)
        if isinstance(parent, ast.Return):
            function = next(s for _, s in source.scopes(parent) if isinstance(s, ast.FunctionDef))
            if function.name not in seen:
                sites = self.calls.get(function.name, [])
                found = {self.of(site, call, seen | {function.name}) for site, call in sites}
                return "title" if "title" in found else "label" if "label" in found else None
        return None

    def _argument(self, callee: str | None, index: int) -> str | None:
        for params in self.parameters.get(callee or "", []):
            name = params[index] if index < len(params) else None
            if name in ROLES:
                return ROLES[name]
            if name == "text" and callee in CANVAS_LINES:
                return CANVAS_LINES[callee]
        return None


def _callee(call: ast.Call) -> str | None:
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def _parameters(node: ast.FunctionDef | ast.ClassDef) -> list[str]:
    """Positional parameters as a caller passes them: no ``self``; a dataclass's fields."""
    if isinstance(node, ast.ClassDef):
        inits = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
        if not inits:
            return [n.target.id for n in node.body if isinstance(n, ast.AnnAssign)]
        node = inits[0]
    names = [arg.arg for arg in node.args.posonlyargs + node.args.args]
    return names[1:] if names[:1] == ["self"] else names


def one_line_ids() -> dict[str, str]:
    """Every id drawn on one line somewhere, with the strictest role it plays."""
    extractor = Extractor()
    roles = Roles(extractor)
    found: dict[str, str] = {}
    for source, call, ids in extractor.calls():
        kind = roles.of(source, call)
        for message in (ids or []) if kind else []:
            found[message] = "title" if "title" in (kind, found.get(message)) else kind
    return found


def test_titles_items_and_prompts_are_found():
    roles = one_line_ids()
    assert roles["Score sheet"] == roles["Help"] == roles["Tokens drawn"] == "title"
    assert roles["Resume: {game}"] == roles["the bag"] == roles["Colour drawn:"] == "label"
    assert (
        roles["Without grey"] == roles["Why not …"] == roles["↑↓ colour, OK: {choice}"] == "label"
    )
    assert roles["never"] == roles["Player {n}"] == "label"  # returned by helpers
    assert "Most points." not in roles
    assert "track space {space}, marker flipped" not in roles  # a helper's text, wrapped


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
@pytest.mark.parametrize("language", LANGUAGES)
def test_titles_items_and_prompts_fit_the_panel(language):
    """A title leaves room for a notice's page counter; the rest use the whole row."""
    t, canvas = Translator(language), Canvas()
    counter = canvas.font.text_width(PAGE_COUNTER) + 4
    room = {"label": WIDTH - 2, "title": WIDTH - 2 - counter}
    too_wide = {}
    for message, kind in one_line_ids().items():
        shown = t(message, **samples(message, language))
        if canvas.fit(shown, room[kind]) != shown:
            too_wide[message] = f"{shown!r}: {canvas.font.text_width(shown)} > {room[kind]} px"
    assert too_wide == {}


# Reading and writing .po text ---------------------------------------------------

SAMPLE_PO = r"""# Translator's note: a header, then entries.
msgid ""
msgstr ""
"Language: pl\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: firmware_app/flows/pingwiny/help.py:49
#, python-brace-format
msgid ""
"Take a mission from above the board, "
"or swap yours for {n}."
msgstr ""
"Weź misję znad planszy "
"albo wymień swoją na {n}."

msgid "Say \"hi\"\tthen \\ go"
msgstr "Powiedz „cześć”\tpotem \\ idź"

msgid "Two\nlines"
msgstr ""
"Dwie\n"
"linie"

msgid "Not yet"
msgstr ""
"""

SAMPLE_ENTRIES = {
    "Take a mission from above the board, or swap yours for {n}.": (
        "Weź misję znad planszy albo wymień swoją na {n}."
    ),
    'Say "hi"\tthen \\ go': "Powiedz „cześć”\tpotem \\ idź",
    "Two\nlines": "Dwie\nlinie",
    "Not yet": "",
}


def test_parse_po_reads_multi_line_entries_and_escapes():
    assert parse_po(SAMPLE_PO) == SAMPLE_ENTRIES


def test_written_entries_read_back_the_same():
    written = "\n".join(
        po_entry(msgid, msgstr, ["x.py:1"]) for msgid, msgstr in SAMPLE_ENTRIES.items()
    )
    assert parse_po(written) == SAMPLE_ENTRIES
    assert (
        po_entry("Two\nlines", "Dwie\nlinie")
        == 'msgid ""\n"Two\\n"\n"lines"\nmsgstr ""\n"Dwie\\n"\n"linie"\n'
    )


def test_the_polish_catalogue_reads_back_the_same_when_rewritten(polish):
    assert parse_po("".join(po_entry(k, v) for k, v in polish.items())) == polish


TEXT = st.text(
    st.characters(categories=["L", "N", "P", "S", "Zs"]) | st.sampled_from('\n\t"\\{}'),
    min_size=1,
)


@settings(max_examples=60, deadline=None)
@given(msgid=TEXT, msgstr=TEXT)
def test_any_text_survives_a_round_trip(msgid, msgstr):
    assert parse_po(po_entry(msgid, msgstr)) == {msgid: msgstr}
    assert parse_po(f"msgid {po_quote(msgid)}\nmsgstr {po_quote(msgstr)}\n") == {msgid: msgstr}


# The tool for translators -------------------------------------------------------


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_the_template_lists_every_id_untranslated(found, capsys):
    assert main([]) == 0
    template = capsys.readouterr().out
    assert parse_po(template) == dict.fromkeys(found.messages, "")
    places = "".join(f"#: {place}\n" for place in found.messages["Most points."])
    assert f'{places}msgid "Most points."' in template


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_check_passes_for_each_language(found, capsys, language):
    assert main(["--check", language]) == 0
    assert capsys.readouterr().out == f"{language}.po: {len(found.messages)} ids, all in order\n"


def test_the_check_lists_what_a_catalogue_lacks_and_no_longer_needs(tmp_path):
    (tmp_path / "xx.po").write_text('msgid "Gone"\nmsgstr "Weg"\n', encoding="utf-8")
    found = Extraction({"Kept": ["a.py:1"]}, ["b.py:2: t(key)"])
    assert check(found, "xx", tmp_path) == [
        "untranslated: 'Kept'",
        "stale: 'Gone'",
        "not followed: b.py:2: t(key)",
    ]


# Switching the language on the box ----------------------------------------------

START_EN = ["[Tableside]", "New game", "Settings", "Statistics"]
START_PL = ["[Tableside]", "Nowa gra", "Ustawienia", "Statystyki"]


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path, language="en")
    yield sim
    sim.close()


def labels(screen: str) -> list[str]:
    """A frame's lines without the cursor mark."""
    return [line.removeprefix("> ").strip() for line in screen.splitlines()]


def test_the_settings_screen_switches_the_language_and_back(sim):
    for label in ("Settings", "Language: English", "Polski"):
        choose(sim, label)
    assert sim.app.setting("language") == "pl"
    assert labels(sim.screen)[:3] == ["[Ustawienia]", "Język: Polski", "Kontrast: 255"]
    for label in ("Język: Polski", "English"):
        choose(sim, label)
    assert sim.app.setting("language") == "en"
    assert labels(sim.screen)[:3] == ["[Settings]", "Language: English", "Contrast: 255"]


def test_the_start_screen_follows_the_language_chosen_in_settings(sim):
    assert labels(sim.screen) == START_EN
    for label in ("Settings", "Language: English", "Polski"):
        choose(sim, label)
    sim.press("back")
    assert labels(sim.screen) == START_PL
    for label in ("Ustawienia", "Język: Polski", "English"):
        choose(sim, label)
    sim.press("back")
    assert labels(sim.screen) == START_EN


def test_the_data_files_labels_are_the_ones_the_screens_translate(demo):
    from firmware_app.store.catalogue_files import load_popiel
    from firmware_app.words.i18n import DATA_LABELS, data_label
    from firmware_app.words.i18n import Translator as Words

    assert {demo.label, load_popiel(demo=True).demo_label} == set(DATA_LABELS)
    polish = Words("pl")
    assert all(data_label(polish, label) != label for label in DATA_LABELS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_colour_mark_begins_another(language):
    """The marks C (czerwony) and Cz (czarny) were told apart by one letter: never again."""
    from rules.messages import INITIALS

    marks = list(INITIALS[language].values())
    assert len(set(marks)) == len(marks)
    assert [(a, b) for a in marks for b in marks if a != b and b.startswith(a)] == []
    assert len({mark[0] for mark in marks}) == len(marks), "each mark has a first sign of its own"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cost_being_entered_shows_counted_marks(language):
    from types import SimpleNamespace

    from firmware_app.ui.canvas import Canvas
    from firmware_app.ui.screens import ColourEntry

    app = SimpleNamespace(t=Translator(language), wrap=None)
    entry = ColourEntry(app, "Cost", "Press each token", lambda colours: None)
    for colour in ("red", "red", "red", "blue", "black", "black", "white"):
        entry.button(colour)
    canvas = Canvas()
    entry.draw(canvas)
    t = Translator(language)
    red, blue, black, white = (t.initial(c) for c in ("red", "blue", "black", "white"))
    assert canvas.lines[2] == f"  3{red} {blue} {white} 2{black}"
    assert canvas.cuts == []
