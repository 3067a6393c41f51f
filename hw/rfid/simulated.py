"""Simulated reader chips, so the real drivers run without hardware.

``FakeReader`` stands in for a whole reader; these stand in for the chips
behind the wire instead, so every line of a driver (framing, handshake,
timeouts, recovery) runs in the tests and the simulator as it would on a Pi.
They speak bytes: what the driver wrote goes in, what the chip would answer
comes out, and the glue (a ``loop://`` port, a pseudo-terminal, an SPI
stand-in) is up to the caller.
"""

import math
from functools import reduce
from operator import xor

from hw.rfid.pn532 import (
    ACK_FRAME,
    ERROR_FRAME,
    IN_LIST_PASSIVE_TARGET,
    PN532_TO_HOST,
    RF_CONFIGURATION,
    SAM_CONFIGURATION,
    Command,
    FrameParser,
    frame,
)
from hw.rfid.rc522_reader import (
    BIT_FRAMING,
    CASCADE_TAG,
    COM_IRQ,
    COMMAND,
    FIFO_DATA,
    FIFO_LEVEL,
    HLTA,
    IDLE_IRQ,
    RX_IRQ,
    SAK_UID_INCOMPLETE,
    SELECT,
    SELECT_LEVELS,
    SOFT_RESET,
    START_SEND,
    TIMER_IRQ,
    TRANSCEIVE,
    TRANSMIT,
    TX_IRQ,
    VERSION,
    WUPA,
    crc_a,
)
from hw.rfid.rdm6300 import encode

# SENS_RES (ATQA) by UID size: bits 7-6 of the first byte give single, double or triple.
SENS_RES = {4: b"\x00\x04", 7: b"\x00\x44", 10: b"\x00\x84"}
REQA = 0x26
KNOWN_COMMANDS = (SAM_CONFIGURATION, RF_CONFIGURATION, IN_LIST_PASSIVE_TARGET)


class SimulatedPn532:
    """The PN532's side of its UART, with at most one type A tag in the field.

    It ACKs and answers SAMConfiguration, RFConfiguration and
    InListPassiveTarget, and sends an error frame for anything else.
    ``mute`` plays a chip without power; ``fail_next`` makes it refuse the
    next command with an error frame. ``commands`` records the command codes
    it heard.
    """

    def __init__(self) -> None:
        self.tag: bytes | None = None
        self.mute = False
        self.fail_next = False
        self.commands: list[int] = []
        self._parser = FrameParser()

    def respond(self, received: bytes) -> bytes:
        """What the chip sends back after receiving ``received``."""
        if self.mute:
            return b""
        answers = b""
        for heard in self._parser.feed(received):
            if isinstance(heard, Command):
                self.commands.append(heard.code)
                answers += self._answer(heard.code)
        return answers

    def _answer(self, code: int) -> bytes:
        if self.fail_next or code not in KNOWN_COMMANDS:
            self.fail_next = False
            return ERROR_FRAME
        data = b""
        if code == IN_LIST_PASSIVE_TARGET:
            data = b"\x00" if self.tag is None else self._target(self.tag)
        return ACK_FRAME + frame(bytes([PN532_TO_HOST, code + 1]) + data)

    @staticmethod
    def _target(uid: bytes) -> bytes:
        # NbTg, Tg, SENS_RES, SEL_RES (an NTAG's), NFCIDLength, NFCID1.
        return b"\x01\x01" + SENS_RES[len(uid)] + b"\x00" + bytes([len(uid)]) + uid


class SimulatedRdm6300:
    """The RDM6300's side of its UART: while a tag is in the field, its frame every 65 ms."""

    REPEAT = 0.065

    def __init__(self) -> None:
        self.tag: bytes | None = None
        self._sent_at = -math.inf

    def output(self, now: float) -> bytes:
        """The bytes the module sends by ``now`` since the last call."""
        if self.tag is None or now - self._sent_at < self.REPEAT:
            return b""
        self._sent_at = now
        return encode(self.tag)


class SimulatedRc522:
    """An MFRC522 behind ``spidev.SpiDev.xfer2``, with at most one type A tag in its field.

    It keeps the registers a driver touches, runs Transceive when StartSend is
    set and Transmit at once, and its tag follows the ISO 14443-3 states: a tag
    left selected ignores the next WUPA, as real ones do, so a driver that
    forgets HLTA sees it only every other poll. ``selections`` counts complete
    selections; ``heard`` keeps every frame the tag received.
    """

    def __init__(self, version: int = 0x92) -> None:
        self.version = version
        self.closed = False
        self.selections = 0
        self.heard: list[bytes] = []
        self.tag: bytes | None = None
        self._state = "idle"
        self._level = 0
        self._registers: dict[int, int] = {}
        self._fifo = bytearray()

    def present(self, uid: bytes | None) -> None:
        """Bring a tag into the field (it powers up idle), or take it away with ``None``."""
        self.tag = uid
        self._state = "idle"

    def xfer2(self, data: list[int]) -> list[int]:
        """One SPI transfer: an address byte, then values to write or zeros to clock a read."""
        address, values = data[0], data[1:]
        register = address >> 1 & 0x3F
        if address & 0x80:
            return [0] + [self._read(register) for _ in values]
        for value in values:
            self._write(register, value)
        return [0] * len(data)

    def close(self) -> None:
        """Release the bus."""
        self.closed = True

    def _read(self, register: int) -> int:
        if register == FIFO_DATA:
            return self._fifo.pop(0) if self._fifo else 0
        if register == FIFO_LEVEL:
            return len(self._fifo)
        if register == VERSION:
            return self.version
        return self._registers.get(register, 0)

    def _write(self, register: int, value: int) -> None:
        if register == FIFO_DATA:
            self._fifo.append(value)
        elif register == FIFO_LEVEL:
            if value & 0x80:
                self._fifo.clear()
        elif register == COM_IRQ:
            irq = self._registers.get(COM_IRQ, 0)
            self._registers[COM_IRQ] = irq | value & 0x7F if value & 0x80 else irq & ~value
        elif register == COMMAND and value == SOFT_RESET:
            self._registers.clear()
            self._fifo.clear()
        else:
            self._registers[register] = value
            if register == COMMAND and value == TRANSMIT:
                self._air(TX_IRQ | IDLE_IRQ, self._tag_hears(bytes(self._fifo), 0))
            elif register == BIT_FRAMING and value & START_SEND and self._command() == TRANSCEIVE:
                self._air(TX_IRQ, self._tag_hears(bytes(self._fifo), value & 0x07))

    def _command(self) -> int:
        return self._registers.get(COMMAND, 0)

    def _air(self, irq: int, answer: bytes | None) -> None:
        self._fifo.clear()
        if answer is None:
            irq |= TIMER_IRQ if self._command() == TRANSCEIVE else 0
        else:
            self._fifo += answer
            irq |= RX_IRQ | IDLE_IRQ
        self._registers[COM_IRQ] = self._registers.get(COM_IRQ, 0) | irq

    def _tag_hears(self, heard: bytes, last_bits: int) -> bytes | None:
        self.heard.append(heard)
        if self.tag is None:
            return None
        parts = self._cascade(self.tag)
        level = SELECT_LEVELS[self._level]
        part = parts[self._level] + bytes([reduce(xor, parts[self._level])])
        if last_bits == 7 and heard in (bytes([REQA]), bytes([WUPA])):
            if self._state == "idle" or (self._state == "halt" and heard[0] == WUPA):
                self._state, self._level = "ready", 0
                return SENS_RES[len(self.tag)][::-1]
        elif self._state == "ready" and heard == bytes([level, 0x20]):
            return part
        elif self._state == "ready" and heard[:7] == bytes([level, SELECT]) + part:
            if heard[7:] != crc_a(heard[:7]):
                return None
            last = self._level == len(parts) - 1
            sak = bytes([0x00 if last else SAK_UID_INCOMPLETE])
            if last:
                self._state = "active"
                self.selections += 1
            else:
                self._level += 1
            return sak + crc_a(sak)
        elif self._state == "active" and heard == HLTA + crc_a(HLTA):
            self._state = "halt"
            return None
        # Anything unexpected sends the tag back to idle, or to halt if it was halted.
        self._state = "halt" if self._state == "halt" else "idle"
        return None

    @staticmethod
    def _cascade(uid: bytes) -> list[bytes]:
        """The 4 bytes each cascade level answers: CT + 3 UID bytes until the last level."""
        if len(uid) == 4:
            return [uid]
        if len(uid) == 7:
            return [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
        return [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
