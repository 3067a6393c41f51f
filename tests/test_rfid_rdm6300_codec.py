"""The RDM6300 framing: known frames, malformed ones, and a property test."""

from functools import reduce
from itertools import pairwise
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.rfid.rdm6300 import Rdm6300Parser, encode

TAG = bytes.fromhex("0F 00 A1 B2 C3")
GOOD = (
    b"\x02"  # STX
    + b"0F00A1B2C3"  # the 5 bytes of the tag number, as ASCII hex
    + b"DF"  # checksum: 0F ^ 00 ^ A1 ^ B2 ^ C3 = DF
    + b"\x03"  # ETX
)


def test_encode_gives_the_hand_built_frame() -> None:
    assert encode(TAG) == GOOD


def test_encode_refuses_a_number_of_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="an EM4100 tag number has 5 bytes, not 4"):
        encode(bytes(4))


def test_a_good_frame() -> None:
    assert Rdm6300Parser().feed(GOOD) == [TAG]


def test_lower_case_hex_is_accepted() -> None:
    assert Rdm6300Parser().feed(GOOD.lower()) == [TAG]


def test_a_bad_checksum_is_skipped() -> None:
    assert Rdm6300Parser().feed(GOOD[:11] + b"DE\x03" + GOOD) == [TAG]


def test_a_missing_etx_is_skipped() -> None:
    assert Rdm6300Parser().feed(GOOD[:-1] + GOOD) == [TAG]


def test_a_non_hex_character_is_skipped() -> None:
    assert Rdm6300Parser().feed(GOOD[:4] + b"G" + GOOD[5:] + GOOD) == [TAG]


def test_a_frame_cut_short_does_not_hide_the_next_one() -> None:
    assert Rdm6300Parser().feed(GOOD[:6] + GOOD) == [TAG]


def test_chunks_of_any_size() -> None:
    parser = Rdm6300Parser()
    assert [n for byte in b"\x00\xff" + GOOD + GOOD for n in parser.feed(bytes([byte]))] == [
        TAG,
        TAG,
    ]


def test_clear_forgets_a_partial_frame() -> None:
    parser = Rdm6300Parser()
    assert parser.feed(GOOD[:7]) == []
    parser.clear()
    assert parser.feed(GOOD[7:] + GOOD) == [TAG]


# --- property test -------------------------------------------------------------------------

NUMBERS = st.binary(min_size=5, max_size=5)


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A frame with a wrong checksum, a non-hex character, no ETX, or cut short."""
    number = draw(NUMBERS)
    whole = encode(number)
    how = draw(st.sampled_from(["checksum", "character", "no etx", "cut"]))
    if how == "checksum":
        wrong = reduce(xor, number) ^ draw(st.integers(1, 255))
        return whole[:11] + f"{wrong:02X}".encode() + whole[13:]
    if how == "character":
        at = draw(st.integers(1, 12))
        return whole[:at] + draw(st.sampled_from([b"G", b" ", b"\x00", b"\xff"])) + whole[at + 1 :]
    if how == "no etx":
        return whole[:-1]
    return whole[: draw(st.integers(1, 12))]


# Line noise, except ETX: only a byte that ends a frame can complete a damaged one.
GARBAGE = st.binary(min_size=1, max_size=8).map(lambda raw: raw.replace(b"\x03", b""))


@settings(max_examples=150, deadline=None)
@given(
    pieces=st.lists(
        st.one_of(
            NUMBERS.map(lambda number: (encode(number), number)),
            damaged().map(lambda raw: (raw, None)),
            GARBAGE.map(lambda raw: (raw, None)),
        ),
        max_size=12,
    ),
    cuts=st.lists(st.integers(0, 200), max_size=10),
)
def test_exactly_the_good_frames_come_out_in_order(
    pieces: list[tuple[bytes, bytes | None]], cuts: list[int]
) -> None:
    stream = b"".join(raw for raw, _ in pieces)
    expected = [number for _, number in pieces if number is not None]
    parser = Rdm6300Parser()
    bounds = sorted({0, len(stream), *(cut for cut in cuts if cut < len(stream))})
    parsed = [n for a, b in pairwise(bounds) for n in parser.feed(stream[a:b])]
    assert parsed == expected
