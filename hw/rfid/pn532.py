"""The PN532's serial (HSU) framing, as a pure bytes-to-frames codec.

Nothing here touches a port or a clock, so the same code serves the driver,
the tests and a simulated chip. The rules, from the PN532 user manual:

- normal frame: ``00 00 FF LEN LCS TFI data... DCS 00``, where
  ``LEN + LCS`` and ``TFI + data + DCS`` are both 0 modulo 256 and LEN counts
  TFI and data. TFI is ``D4`` from the host, ``D5`` from the PN532;
- ACK ``00 00 FF 00 FF 00`` (the PN532 took a command) and NACK
  ``00 00 FF FF 00 00`` (please send that again);
- error frame ``00 00 FF 01 FF 7F 81 00``: the PN532 could not parse the
  last command.

The parser keys on the start code ``00 FF`` alone: the leading preamble and
the trailing postamble byte carry no information, so they are skipped like
any other byte between frames, and a frame that lost only its postamble is
still read. Extended frames (``00 FF FF FF ...``, for payloads over 254 bytes)
never answer the commands used here and are skipped as malformed.
"""

from dataclasses import dataclass

from hw.errors import FrameError

START_CODE = b"\x00\xff"
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
APPLICATION_ERROR = 0x7F

ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"
NACK_FRAME = b"\x00\x00\xff\xff\x00\x00"

# Command codes; the PN532 answers each with code + 1.
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

# Over HSU a sleeping PN532 wakes on a long preamble: 55 55 and enough zeros
# for its oscillator to start before the first real frame arrives.
WAKE_UP = b"\x55\x55" + bytes(14)


@dataclass(frozen=True)
class Ack:
    """The PN532 accepted a command and is working on it."""


@dataclass(frozen=True)
class Nack:
    """The sender asks for the last frame again."""


@dataclass(frozen=True)
class ErrorFrame:
    """The PN532 found a syntax error in the last command frame."""


@dataclass(frozen=True)
class Response:
    """A frame from the PN532: ``code`` is the command code + 1."""

    code: int
    data: bytes


@dataclass(frozen=True)
class Command:
    """A frame from the host: what the driver sends, as a peer would read it."""

    code: int
    params: bytes


Frame = Ack | Nack | ErrorFrame | Response | Command


def frame(body: bytes) -> bytes:
    """A normal information frame around ``body`` (TFI first), with both checksums."""
    if not 1 <= len(body) <= 254:
        raise ValueError(f"a normal frame holds 1 to 254 bytes, not {len(body)}")
    length = len(body)
    return (
        b"\x00"
        + START_CODE
        + bytes([length, -length % 256])
        + body
        + bytes([-sum(body) % 256, 0x00])
    )


ERROR_FRAME = frame(bytes([APPLICATION_ERROR]))


def command_frame(code: int, params: bytes = b"") -> bytes:
    """A host-to-PN532 frame for command ``code`` with its parameters."""
    return frame(bytes([HOST_TO_PN532, code]) + params)


# Normal mode, the (unused) virtual-card timeout of 1 s, and the IRQ line on.
SAM_CONFIGURATION_FRAME = command_frame(SAM_CONFIGURATION, b"\x01\x14\x01")

# CfgItem 5 "MaxRetries": ATR retries as at reset (FF), PSL retries as at reset
# (01) and one passive-activation retry instead of the reset default of
# "forever". With "forever", InListPassiveTarget never answers while no tag is
# there, and the driver could not tell "no tag" from "no PN532".
MAX_RETRIES_FRAME = command_frame(RF_CONFIGURATION, b"\x05\xff\x01\x01")

# At most one target, 106 kbps type A (ISO/IEC 14443-A: NTAG, MIFARE).
IN_LIST_PASSIVE_TARGET_FRAME = command_frame(IN_LIST_PASSIVE_TARGET, b"\x01\x00")


class FrameParser:
    """Turns a byte stream cut anywhere into frames, skipping whatever is not one.

    Feed it chunks as they arrive; each call returns the frames completed so
    far. When a start code leads to something malformed (bad length checksum,
    bad data checksum, unknown TFI) only that start code is dropped and the
    search goes on from the next byte, so a frame hidden inside the declared
    length of a truncated one is still found.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()

    def clear(self) -> None:
        """Forget any partial frame, e.g. before a new command: old bytes are stale."""
        self._buffer.clear()

    def feed(self, chunk: bytes) -> list[Frame]:
        """Frames completed by ``chunk``, in stream order."""
        self._buffer += chunk
        frames: list[Frame] = []
        while True:
            start = self._buffer.find(START_CODE)
            if start < 0:
                # A trailing 00 may be the first half of a start code.
                del self._buffer[: -1 if self._buffer.endswith(b"\x00") else None]
                return frames
            del self._buffer[:start]
            size, decoded = _decode(self._buffer)
            if size == 0:
                return frames
            if decoded is None:
                del self._buffer[: len(START_CODE)]
                continue
            frames.append(decoded)
            del self._buffer[:size]


def _decode(buffer: bytearray) -> tuple[int, Frame | None]:
    """Read the frame at the start code that begins ``buffer``.

    Returns ``(0, None)`` while more bytes are needed, ``(size, frame)`` for
    a good frame and ``(size, None)`` for a malformed one.
    """
    if len(buffer) < 4:
        return 0, None
    length, length_check = buffer[2], buffer[3]
    if (length, length_check) == (0x00, 0xFF):
        return 4, Ack()
    if (length, length_check) == (0xFF, 0x00):
        return 4, Nack()
    if length == 0 or (length + length_check) % 256:
        return 4, None
    end = 4 + length + 1
    if len(buffer) < end:
        return 0, None
    body = bytes(buffer[4 : end - 1])
    if (sum(body) + buffer[end - 1]) % 256:
        return end, None
    return end, _classify(body)


def _classify(body: bytes) -> Frame | None:
    tfi, rest = body[0], body[1:]
    if tfi == PN532_TO_HOST and rest:
        return Response(rest[0], rest[1:])
    if tfi == HOST_TO_PN532 and rest:
        return Command(rest[0], rest[1:])
    if body == bytes([APPLICATION_ERROR]):
        return ErrorFrame()
    return None


def target_uid(response: Response) -> bytes | None:
    """The full UID in an InListPassiveTarget answer, or ``None`` if no tag was found.

    The answer for 106 kbps type A is ``NbTg`` then, per target, ``Tg``,
    ``SENS_RES`` (2 bytes), ``SEL_RES``, ``NFCIDLength`` and the UID: 4, 7 or
    10 bytes (single, double or triple size). Anything after the UID (an ATS)
    is ignored.
    """
    if response.code != IN_LIST_PASSIVE_TARGET + 1:
        raise FrameError(f"not an InListPassiveTarget answer: code 0x{response.code:02X}")
    data = response.data
    if not data:
        raise FrameError("InListPassiveTarget answer without a target count")
    if data[0] == 0:
        return None
    if len(data) < 6:
        raise FrameError(f"InListPassiveTarget answer too short: {data.hex(' ')}")
    length = data[5]
    uid = data[6 : 6 + length]
    if length not in (4, 7, 10) or len(uid) != length:
        raise FrameError(f"InListPassiveTarget answer with a bad UID: {data.hex(' ')}")
    return uid
