"""RFID readers: a tap of a card's sticker becomes one ``TagEvent`` with its full UID.

The codecs (``pn532``, ``rdm6300``) are pure bytes-to-frames code; the
drivers poll them without blocking, reopen a vanished port by themselves and
report each visit of a tag once (``presence``). ``build_reader`` picks one by
name from the configuration. For the tests and the simulator, ``FakeReader``
stands in for a whole reader, and ``simulated`` holds the chips' side of the
wire, so that the real drivers run without hardware.
"""

from hw.rfid.factory import build_reader
from hw.rfid.fake import FakeReader
from hw.rfid.reader import NoReader, Reader

__all__ = ["FakeReader", "NoReader", "Reader", "build_reader"]
