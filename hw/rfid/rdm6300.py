"""The RDM6300's serial output, as a pure codec between bytes and tag numbers.

The module only talks, at 9600 baud, one 14-byte frame per read:
``STX (02)``, 10 ASCII hex characters (the 5 bytes of an EM4100 tag number),
2 ASCII hex characters (the XOR of those 5 bytes), ``ETX (03)``. It repeats
the frame about every 65 ms while the tag stays in the field.

STX and ETX are not hex characters, so a frame can never hide inside another
one: when a frame turns out malformed, dropping its STX and searching for the
next one always resynchronises.
"""

from functools import reduce
from operator import xor

STX = 0x02
ETX = 0x03
FRAME_SIZE = 14
HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")


def encode(number: bytes) -> bytes:
    """The frame the module sends for the 5-byte tag ``number``."""
    if len(number) != 5:
        raise ValueError(f"an EM4100 tag number has 5 bytes, not {len(number)}")
    checksum = reduce(xor, number)
    return bytes([STX]) + f"{number.hex()}{checksum:02x}".upper().encode("ascii") + bytes([ETX])


class Rdm6300Parser:
    """Turns a byte stream cut anywhere into tag numbers, skipping anything malformed."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def clear(self) -> None:
        """Forget any partial frame, e.g. after the port was reopened."""
        self._buffer.clear()

    def feed(self, chunk: bytes) -> list[bytes]:
        """The 5-byte tag numbers of the good frames completed by ``chunk``, in order."""
        self._buffer += chunk
        found: list[bytes] = []
        while True:
            start = self._buffer.find(STX)
            if start < 0:
                self._buffer.clear()
                return found
            del self._buffer[:start]
            if len(self._buffer) < FRAME_SIZE:
                return found
            number = _decode(bytes(self._buffer[:FRAME_SIZE]))
            if number is None:
                del self._buffer[:1]
                continue
            found.append(number)
            del self._buffer[:FRAME_SIZE]


def _decode(candidate: bytes) -> bytes | None:
    """The tag number in a 14-byte candidate that starts with STX, or None if malformed."""
    text = candidate[1:-1]
    if candidate[-1] != ETX or not HEX_DIGITS.issuperset(text):
        return None
    number = bytes.fromhex(text[:10].decode("ascii"))
    if reduce(xor, number) != int(text[10:], 16):
        return None
    return number
