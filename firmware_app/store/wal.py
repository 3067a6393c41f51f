"""The write-ahead log walked as SQLite reads it, to find the commits it would drop unsaid.

The format is in SQLite's ``walformat`` documentation: a 32-byte header, then frames of a
24-byte header and one page each, every frame checksummed over all before it.
"""

import struct
from pathlib import Path

WAL_HEADER, FRAME_HEADER = 32, 24


def wal_problems(wal: Path) -> list[str]:
    """Committed transactions that SQLite would skip without a word: a damaged or torn log.

    SQLite replays the write-ahead log up to the first frame whose checksum
    or salt does not match and ignores the rest, which is right for the
    unfinished transaction of a power cut but silently drops every commit
    after a damaged frame. So the log is walked here as SQLite does (the
    format is in SQLite's ``walformat`` documentation): a frame of the
    current log that closes a transaction after the break, a damaged header
    with frames behind it, or a frame cut short all mean lost commits. Frames
    left from before a log restart carry an older salt and are not counted.
    """
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as error:
        return [f"cannot read the log {wal}: {error}"]
    if len(data) < WAL_HEADER:
        return [f"the log {wal.name} is cut short ({len(data)} bytes)"] if data else []
    magic, _, page_size = struct.unpack(">III", data[:12])
    if magic not in (0x377F0682, 0x377F0683) or not 512 <= page_size <= 65536:
        return [f"the log {wal.name} has a damaged header"]
    order = "<" if magic == 0x377F0682 else ">"
    salt = data[16:24]
    sums = _wal_checksum(order, data[:24], (0, 0))
    frame = FRAME_HEADER + page_size
    frames = (len(data) - WAL_HEADER) // frame
    if sums != struct.unpack(">II", data[24:32]):
        return [f"the log {wal.name} has a damaged header"] if frames else []
    broken = False
    for index in range(frames):
        start = WAL_HEADER + index * frame
        head = data[start : start + FRAME_HEADER]
        commit = struct.unpack(">I", head[4:8])[0] != 0
        if broken:
            if head[8:16] == salt and commit:
                return [f"the log {wal.name} is damaged at frame {broken}; commits follow it"]
            continue
        if head[8:16] != salt:
            broken = index + 1
            continue
        sums = _wal_checksum(order, head[:8] + data[start + FRAME_HEADER : start + frame], sums)
        if sums != struct.unpack(">II", head[16:24]):
            broken = index + 1
    if (len(data) - WAL_HEADER) % frame:
        return [f"the log {wal.name} ends in a frame cut short"]
    return []


def _wal_checksum(order: str, data: bytes, sums: tuple[int, int]) -> tuple[int, int]:
    s0, s1 = sums
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for x0, x1 in zip(words[::2], words[1::2], strict=True):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1
