"""Polish and English for the screens, through gettext catalogues.

Screens write English message ids (``t("Draw 2 tokens")``); a language's
translations live in ``firmware_app/words/locale/LANG.po``, the format every
gettext tool edits. The catalogues are read straight from the ``.po`` text
(a few lines of parsing) so no compile step stands between a translator's
edit and the panel. Rules engine refusals come as message keys and are
worded by ``rules.messages`` in the same language.
"""

import ast
import gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from rules.errors import RulesError
from rules.messages import INITIALS, NAMES

LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("pl", "en")


class PoTranslations(gettext.NullTranslations):
    """A gettext translation object filled from a ``.po`` file's text.

    Plural entries (``msgid_plural``, ``msgstr[0]`` …) choose their form by
    the catalogue's own ``Plural-Forms`` rule, as gettext does: Polish has three.
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.catalogue, self.plurals = parse_entries(text)
        header = dict(line.partition(":")[::2] for line in self.catalogue.get("", "").splitlines())
        rule = header.get("Plural-Forms", "plural=(n != 1);").partition("plural=")[2]
        self.plural_form = gettext.c2py(rule.strip().rstrip(";"))

    def gettext(self, message: str) -> str:
        return self.catalogue.get(message) or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.plurals.get(singular)
        index = self.plural_form(n)
        if forms and index < len(forms) and forms[index]:
            return forms[index]
        return singular if n == 1 else plural


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a ``.po`` text; a plural entry gives its first form."""
    singles, plurals = parse_entries(text)
    singles.pop("", None)
    return {**singles, **{msgid: forms[0] for msgid, forms in plurals.items()}}


def unquote(literal: str) -> str:
    """The text of one quoted ``.po`` string.

    The catalogue is read at every start, before the home menu is shown: a string with
    no escape and no inner quote (nearly all) is simply cut out of its quotes.
    """
    inner = literal[1:-1]
    plain = '"' not in inner and "\\" not in inner
    if plain and len(literal) > 1 and literal[0] == literal[-1] == '"':
        return inner
    return ast.literal_eval(literal)


def parse_entries(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The single entries (the header under ``""``) and the plural ones' forms, in order."""
    singles: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    entry: dict[str, str] = {}
    target = None

    def close() -> None:
        if "msgid" not in entry:
            return
        if "msgid_plural" in entry:
            forms = sorted(k for k in entry if k.startswith("msgstr["))
            plurals[entry["msgid"]] = [entry[k] for k in forms]
        else:
            singles[entry["msgid"]] = entry.get("msgstr", "")

    for raw in text.splitlines() + [""]:
        line = raw.strip()
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid":
            close()
            entry, target = {}, keyword
            entry[target] = unquote(rest)
        elif keyword == "msgid_plural" or keyword.startswith("msgstr"):
            target = keyword
            entry[target] = unquote(rest)
        elif line.startswith('"') and target:
            entry[target] += unquote(line)
    close()
    return singles, plurals


def plural_forms(text: str) -> int:
    """``nplurals`` of a catalogue's ``Plural-Forms`` header (2 when it has none)."""
    header = parse_entries(text)[0].get("", "")
    rule = next((line for line in header.splitlines() if line.startswith("Plural-Forms:")), "")
    number = rule.partition("nplurals=")[2].partition(";")[0].strip()
    return int(number) if number.isdigit() else 2


@cache
def translations(language: str) -> gettext.NullTranslations:
    path = LOCALE_DIR / f"{language}.po"
    if not path.exists():
        return gettext.NullTranslations()
    return PoTranslations(path.read_text(encoding="utf-8"))


def _one_stop(text: str) -> str:
    """A sentence that ends on a name ending in dots ("Ni wydra, ni...") takes no full
    stop of its own after them."""
    return text.replace("....", "...").replace("….", "…")


class Translator:
    """Everything a screen says, in one language."""

    def __init__(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.language = language
        catalogue = translations(language)
        self._gettext, self._ngettext = catalogue.gettext, catalogue.ngettext

    def __call__(self, message: str, **params: object) -> str:
        text = self._gettext(message)
        return _one_stop(text.format(**params)) if params else text

    def plural(self, singular: str, plural: str, n: int, **params: object) -> str:
        """``{n} token`` / ``{n} tokens``, in the form the language wants for ``n``."""
        return self._ngettext(singular, plural, n).format(n=n, **params)

    def number(self, value: float | int | None) -> str:
        """A figure as the language writes it: ``27.5`` / ``27,5``; a whole one without
        its ``.0``; ``-`` for none."""
        if value is None:
            return "-"
        if float(value).is_integer():
            return str(int(value))
        shown = f"{value:.1f}"
        return shown.replace(".", ",") if self.language == "pl" else shown

    def name(self, thing: str) -> str:
        """A colour or location by id (``red``, ``chimp``)."""
        return NAMES[self.language].get(thing, thing)

    def initial(self, colour: str) -> str:
        """A colour's short mark for a card's cost (``R``, ``Cz``)."""
        return INITIALS[self.language][colour]

    def refusal(self, error: RulesError, session=None) -> str:
        """The engine's reason in this language, with cards and players by their names."""
        if session is None:
            return error.text(self.language)
        return error.text(self.language, things=ThingsNamed(self, session))


# Labels that come from the data files (English there), worded on the panel in the
# player's language. They must match the files' ``label`` values exactly.
DATA_LABELS = (
    "demo deck — not the printed cards",
    "demo box — not the printed mix or tower",
)


def data_label(t, text: str) -> str:
    """A data file's label in the screen's language (unknown labels are shown as they are)."""
    for known in DATA_LABELS:
        if known == text:
            return t(known)
    return text


# The names the app itself gives a card: the demo deck's stand-ins, and the box's cards
# the rulebook does not name. They are the app's words, so the table reads them in its
# language ("Statysta demo 33"); a printed or a family's own name is shown as it is, but
# for a name the rulebook gives only in English: Polish screens show the printed data's
# ``polish_translation`` of it ("Król Szczurów").
STAND_INS = ("Demo figurant {n}", "Demo mission {n}", "Figurant {n}", "Mission {n}")


def card_name(t, card) -> str:
    """A figurant's or mission's name as the table reads it."""
    return shown_name(t, card.id, card.name)


def shown_name(t, card_id: str, name: str) -> str:
    """The card ``card_id`` named ``name`` in its data, as the table reads it."""
    number = card_id.rpartition("-")[2]
    for template in STAND_INS:
        if name == template.format(n=number):
            return t(template, n=number)
    if t.language == "pl":
        return polish_translations().get((card_id, name), name)
    return name


@cache
def polish_translations() -> dict[tuple[str, str], str]:
    """(id, name) -> the Polish rendering, for the printed cards whose name the rulebook
    gives only in English. Read from the printed data once, at the first Polish card name:
    the engine's card tables keep a card's id and name only, and a game resumed from its
    record shows the same. Keyed by the name too, so a card named otherwise keeps its name."""
    from firmware_app.store.catalogue_files import load

    box = load([], demo=False)
    return {
        (card.id, card.name): card.polish_translation
        for card in (*box.figurants, *box.missions)
        if card.polish_translation
    }


# The setup's sentence naming a data file's deck, whole for each label, so that each
# language words it in its own grammar ("Gramy talią demo"). Keys are ``DATA_LABELS``.
DECK_SENTENCES = {
    "demo deck — not the printed cards": "Playing with the demo deck, not the cards from the box.",
}


def deck_sentence(t, label: str) -> str:
    """The setup's "Playing with …" line for a deck's label, in the screen's language."""
    for known, sentence in DECK_SENTENCES.items():
        if known == label:
            return t(sentence)
    return t("Playing with the {deck}.", deck=data_label(t, label))


class ThingsNamed(Mapping):
    """Card, mission and seat ids of a game, by the names the table uses.

    Each name is worked out when a reason asks for it: a turn's menu words the refusal of
    every move it cannot offer, and each reason names one or two of the game's many cards.
    A seat's id wins over a penguin's, a penguin's over a card's, a mission's over a
    figurant's (they never share one in the shipped data).
    """

    def __init__(self, t, session) -> None:
        cards = getattr(session.game, "cards", None)
        self._t, self._names = t, session.game.options.names
        self._cards = {**cards.figurants, **cards.missions} if cards is not None else {}
        self._penguins = tuple(cards.penguins) if cards is not None else ()
        players = getattr(session.state, "players", ())
        self._seats = {f"p{seat + 1}": seat for seat in range(len(players))}

    def __getitem__(self, thing: str) -> str:
        if thing in self._seats:
            seat = self._seats[thing]
            return self._names[seat] if self._names else self._t("Player {n}", n=seat + 1)
        if thing in self._penguins:
            return thing.capitalize()
        return card_name(self._t, self._cards[thing])

    def __iter__(self):
        return iter(dict.fromkeys([*self._cards, *self._penguins, *self._seats]))

    def __len__(self) -> int:
        return sum(1 for _ in self)
