"""The engine's refusals in words (``rules.messages.text``): names, seats and places as a
player reads them, in English and Polish; what the tables do not know is shown as written."""

import pytest

from rules.messages import text


@pytest.mark.parametrize(
    ("language", "things", "expected"),
    [
        ("en", None, "Player 2 already holds a mission."),
        ("pl", None, "Gracz 2: ma już misję."),
        ("en", {"p2": "Ola"}, "Ola already holds a mission."),  # a seat with a name
    ],
)
def test_a_seat_is_named_by_its_number_or_by_the_name_the_table_gave_it(language, things, expected):
    assert text("illegal.correct_mission_held", language, things=things, player="p2") == expected


def test_a_card_is_named_as_the_table_knows_it():
    found = text("illegal.correct_not_in_deck", "en", things={"becky": "Becky"}, card="becky")
    assert found == "Card 'Becky' is not in the deck."


@pytest.mark.parametrize(
    ("language", "place", "expected"),
    [
        ("en", "take", "Your penguin is not on a tile whose tokens it could take."),
        ("pl", "take", "Twój pingwin nie stoi na polu z żetonami do wzięcia."),
        ("en", "gastro", "Your penguin is not on the Gastro zone."),
        ("pl", "gastro", "Twój pingwin nie stoi w Strefie gastro."),  # where: the locative
        ("en", "moon", "Your penguin is not on the moon."),  # no such place: as written
    ],
)
def test_a_penguin_elsewhere_is_told_where_it_should_stand(language, place, expected):
    assert text("illegal.not_here", language, action=place) == expected


def test_polish_declines_a_colour_it_knows_and_leaves_another_as_written():
    """ "Za mało czerwonych żetonów": the genitive plural of "czerwony"."""
    known = text("illegal.cannot_afford", "pl", colour="red", card="X")
    assert known == "Za mało czerwonych żetonów, by zwerbować kartę „X”."
    unknown = text("illegal.cannot_afford", "pl", colour="pink", card="X")
    assert unknown == "Za mało pink żetonów, by zwerbować kartę „X”."
