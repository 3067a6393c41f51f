"""Polish and English for the screens, through gettext catalogues.

Screens write English message ids (``t("Draw 2 tokens")``); a language's
translations live in ``firmware_app/locale/LANG.po``, the format every
gettext tool edits. The catalogues are read straight from the ``.po`` text
(a few lines of parsing) so no compile step stands between a translator's
edit and the panel. Rules engine refusals come as message keys and are
worded by ``rules.messages`` in the same language.
"""

import ast
import gettext
from functools import cache
from pathlib import Path

from rules.errors import RulesError
from rules.messages import NAMES

LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("pl", "en")


class PoTranslations(gettext.NullTranslations):
    """A gettext translation object filled from a ``.po`` file's text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.catalogue = parse_po(text)

    def gettext(self, message: str) -> str:
        return self.catalogue.get(message) or message


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a ``.po`` text (single forms, C-style quoted strings)."""
    entries: dict[str, str] = {}
    msgid = msgstr = None
    target = None
    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if line.startswith("msgid "):
            if msgid is not None:
                entries[msgid] = msgstr or ""
            msgid, msgstr, target = ast.literal_eval(line[6:]), None, "id"
        elif line.startswith("msgstr "):
            msgstr, target = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"'):
            if target == "id":
                msgid += ast.literal_eval(line)
            elif target == "str":
                msgstr += ast.literal_eval(line)
    if msgid is not None:
        entries[msgid] = msgstr or ""
    entries.pop("", None)
    return entries


@cache
def translations(language: str) -> gettext.NullTranslations:
    path = LOCALE_DIR / f"{language}.po"
    if not path.exists():
        return gettext.NullTranslations()
    return PoTranslations(path.read_text(encoding="utf-8"))


class Translator:
    """Everything a screen says, in one language."""

    def __init__(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.language = language
        self._gettext = translations(language).gettext

    def __call__(self, message: str, **params: object) -> str:
        text = self._gettext(message)
        return text.format(**params) if params else text

    def name(self, thing: str) -> str:
        """A colour or location by id (``red``, ``chimp``)."""
        return NAMES[self.language].get(thing, thing)

    def refusal(self, error: RulesError) -> str:
        return error.text(self.language)


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
