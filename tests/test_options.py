"""A game's options refuse what the rulebook or the table cannot play, saying what is wrong,
and come back unchanged from a game record's JSON."""

import json

import pytest

from rules.errors import SetupError
from rules.pingwiny.options import Options


@pytest.mark.parametrize(
    "options, said",
    [
        # Rulebook: "2–4 players".
        ({"players": 5}, ["2 to 4 players", "not 5"]),
        ({"players": 1}, ["2 to 4 players", "not 1"]),
        ({"players": 2, "bag": "pocket"}, ["'bag'", "'pocket'"]),
        ({"players": 2, "deck": "pocket"}, ["'deck'", "'pocket'"]),
        ({"players": 2, "die": "pocket"}, ["'die'", "'pocket'"]),
        ({"players": 3, "first": 3}, ["no player 3"]),  # seats are 0, 1 and 2
        ({"players": 3, "first": -1}, ["no player -1"]),
        ({"players": 2, "names": ("Ala",)}, ["exactly 2 player names"]),
        ({"players": 2, "virtual": ("normal",)}, ["2 seats"]),
        ({"players": 2, "virtual": ("normal", "genius")}, ["2 seats", "easy, normal or strong"]),
    ],
)
def test_options_a_table_cannot_play_are_refused_saying_what_is_wrong(options, said):
    with pytest.raises(SetupError) as refused:
        Options(**options)
    text = refused.value.text("en")
    assert all(words in text for words in said), text


def test_the_first_and_the_last_seat_may_start_and_every_level_may_sit():
    assert Options(players=3, first=0).first == 0
    assert Options(players=3, first=2).first == 2
    assert Options(players=4, virtual=(None, "easy", "normal", "strong")).virtual[3] == "strong"


def test_an_unknown_option_in_a_record_is_refused_by_name():
    with pytest.raises(SetupError) as refused:
        Options.from_json({"players": 2, "colour": "red"})
    assert "'colour'" in refused.value.text("en")


def test_options_come_back_unchanged_from_a_records_json():
    options = Options(
        players=3,
        names=("Ala", "Ola", "Ela"),
        virtual=(None, "normal", None),
        layout=("gate", "chimp", "otter", "gastro", "hq", "shop", "lemur", "gorilla", "storehouse"),
        first=1,
        seed=7,
    )
    assert options.to_json()["names"] == ["Ala", "Ola", "Ela"]  # JSON has lists, not tuples
    data = json.loads(json.dumps(options.to_json()))
    again = Options.from_json(data)
    assert again == options and isinstance(again.names, tuple) and isinstance(again.layout, tuple)
