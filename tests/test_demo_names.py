"""The demo deck's names in the table's language (issue 24, point 6).

The rulebook gives some card names only in English (its family Example Scoring: "King
Julian, Mort, Burt, King of the Rats, Rats, Becky and Buck Rogut" — Rats has its printed
Polish name elsewhere, "Rats (Szczury)"). Polish screens show the data's Polish rendering of
those, marked there as a translation; English screens keep the name as the rulebook gives
it. Whole demo games in Polish — the setup, every turn with its extras, the virtual players'
screens, the score sheet — and a first game on the printed cards, taught as it goes, show
no English-only name.
"""

import re
import tomllib
from pathlib import Path

import pytest
from test_plain_words import open_extras, pages

from firmware_app.flows.pingwiny.advanced_setup import setup_pages as advanced_setup_pages
from firmware_app.flows.pingwiny.family_setup import setup_pages as family_setup_pages
from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.store.catalogue_files import PRINTED_FILE
from firmware_app.words.i18n import Translator, card_name, deck_sentence
from rules.pingwiny.options import Options

RULEBOOK = Path("/work/shared/rulebooks/pingwiny-z-madagaskaru.txt")
# The names the rulebook gives only in English, and the Polish a Polish screen shows.
ENGLISH_ONLY = {"King of the Rats": "Król Szczurów", "King Julian": "Król Julian"}
SETUPS = {"family": family_setup_pages, "advanced": advanced_setup_pages}


def test_the_names_are_the_rulebooks_english_only_ones():
    text = RULEBOOK.read_text(encoding="utf-8")
    scoring = re.search(r"she has these figurant cards: ([^.]*)\.", text).group(1)
    assert set(ENGLISH_ONLY) <= set(re.split(r", | and ", scoring))
    for name in ENGLISH_ONLY:  # never given with a Polish name in parentheses
        assert not re.search(re.escape(name) + r" \(", text)
    raw = tomllib.loads(PRINTED_FILE.read_text(encoding="utf-8"))
    translated = {
        card["name"]: card["polish_translation"]
        for card in raw["figurant"] + raw["mission"]
        if "polish_translation" in card
    }
    assert translated == ENGLISH_ONLY
    lines = PRINTED_FILE.read_text(encoding="utf-8").splitlines()
    marked = [
        line
        for line in lines
        for polish in ENGLISH_ONLY.values()
        if line.startswith(f'polish_translation = "{polish}"')
    ]
    assert len(marked) == len(ENGLISH_ONLY)
    assert all("the app's translation" in line for line in marked)  # not printed


def test_polish_screens_show_the_translation_english_ones_the_rulebooks_name(tmp_path):
    sim = Headless(tmp_path, language="pl", seed=1)
    try:
        box = sim.app.catalogue(demo=True)
        cards = {card.name: card for card in box.figurants}
        for english, polish in ENGLISH_ONLY.items():
            assert card_name(Translator("pl"), cards[english]) == polish
            assert card_name(Translator("en"), cards[english]) == english
        assert card_name(Translator("pl"), cards["Szczury"]) == "Szczury"  # printed: as it is
    finally:
        sim.close()


def test_the_setup_says_which_deck_in_a_sentence_of_each_language():
    label = "demo deck — not the printed cards"
    assert deck_sentence(Translator("pl"), label) == "Gramy talią demo, nie kartami z pudełka."
    assert deck_sentence(Translator("en"), label) == (
        "Playing with the demo deck, not the cards from the box."
    )
    assert deck_sentence(Translator("en"), "cards of a friend") == (
        "Playing with the cards of a friend."  # a label the app has no sentence for
    )


def play(sim, seed: int) -> list[str]:
    """The autopilot's game to its end: every frame, and now and then the turn menu's
    extras (score, table, help, why not …) opened and drawn."""
    pilot, texts, step = Autopilot(sim, seed), [], 0
    while pilot.step():
        step += 1
        if isinstance(sim.app.top, TurnMenu) and step % 23 == 1:
            texts += open_extras(sim.app)
        assert step < 20_000
    return texts + sim.frames


def english_left(texts: list[str]) -> dict[str, list[str]]:
    found = {}
    for text in texts:
        joined = " ".join(text.split())  # a name wrapped over two lines joined again
        names = [name for name in ENGLISH_ONLY if name in joined]
        if names:
            found[text] = names
    return found


@pytest.mark.whole_game
@pytest.mark.parametrize("variant", ["family", "advanced"])
@pytest.mark.parametrize("virtual", [None, "normal"])
def test_a_demo_game_in_polish_shows_no_english_only_name(tmp_path, variant, virtual):
    sim = Headless(tmp_path, language="pl", seed=3)
    try:
        app = sim.app
        box = app.catalogue(demo=True)
        ids = [card.id for card in box.figurants_in_play(False)]
        first = [card.id for card in box.figurants if card.name in ENGLISH_ONLY]
        seats = (None, virtual, virtual)  # a person, then the box's players
        options = Options(
            players=3,
            seed=3,
            virtual=seats if virtual else None,
            deck_order=tuple(first + [i for i in ids if i not in first]),  # both laid out
        )
        game = ("pingwiny", variant)
        app.session = Session.start(app.journal, options, box, now=0.0, game=game)
        texts = [title + "\n" + "\n".join(lines) for title, lines in SETUPS[variant](app)]
        app.show_game()
        texts += play(sim, 3)
        assert app.session.over
        texts += pages(app, app.top)  # the score sheet
        assert english_left(texts) == {}
        shown = " ".join(" ".join(text.split()) for text in texts)
        assert all(polish in shown for polish in ENGLISH_ONLY.values())  # they came up
    finally:
        sim.close()


@pytest.mark.whole_game
def test_a_first_printed_game_taught_in_polish_shows_no_english_only_name(tmp_path):
    """The printed cards, the app's deck: each card's values taught as it comes up."""
    sim = Headless(tmp_path, language="pl", seed=2)
    try:
        for line in new_game_script(3, demo=False):
            if line:
                sim.command(line)
        texts = play(sim, 2)
        assert english_left(texts) == {}
        taught = [text for text in texts if text.startswith("[Gracz 1: Król Julian")]
        assert taught  # its values were asked under its Polish name
    finally:
        sim.close()
