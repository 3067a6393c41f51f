"""Games kept compactly: one catalogue for many games, an ended game's actions in one value.

A game's header carries the card catalogue it was played with, about 30 KB of JSON, and
nearly every game of a box shares it with the others; its actions are a few hundred short
rows. Kept as played, a finished game cost 45 KB of journal: 450 MB after 10,000 games,
copied by every backup. So:

- every game's catalogue is kept in the ``catalogues`` table under the SHA-256 of its JSON
  text (stored once however many games use it, :func:`keep_catalogue`), and the header
  keeps ``"catalogue": null`` in its place, so the key order, and with it the exported
  record, stays byte for byte the same; reading the unfinished games (the resume list,
  the start's check) then never parses a catalogue;

and when a game ends it is *sealed*, in the same transaction:

- its live actions leave the ``actions`` table for one zlib-packed JSON list in the game's
  row (``packed``, with their number in ``packed_count``);
- ``sealed`` numbers the seals in order (the backups copy each sealed game once, see
  ``rolling_backups.py``) and ``crc`` is a CRC-32 of what the row holds, so a value damaged
  on the card is found by the check after start-up (``housekeeping.py``), not by a player.

A typical finished game then costs about 2 KB. Nothing is lost: :func:`unpack_record`
gives back exactly the record the game had before it was sealed.
"""

import hashlib
import json
import sqlite3
import zlib
from typing import Any

_GAME = "SELECT header, summary, catalogue_hash FROM games WHERE id = ? AND sealed IS NULL"
_LIVE = "SELECT notation FROM actions WHERE game_id = ? AND NOT undone ORDER BY seq"
_KEEP_CATALOGUE = "INSERT OR IGNORE INTO catalogues (hash, body) VALUES (?, ?)"
# The number of the last seal, read from the end of its index; 0 before the first.
LAST_SEAL = """coalesce(
    (SELECT sealed FROM games WHERE sealed IS NOT NULL ORDER BY sealed DESC LIMIT 1), 0)"""
_SEAL = f"""UPDATE games SET header = ?2, catalogue_hash = ?3, packed = ?4, packed_count = ?5,
    crc = ?6, sealed = {LAST_SEAL} + 1 WHERE id = ?1"""
_DROP_ACTIONS = "DELETE FROM actions WHERE game_id = ?"
_CATALOGUE = "SELECT body FROM {}catalogues WHERE hash = ?"
# An ended game not sealed yet: one from before sealing existed, sealed after start-up.
UNSEALED = "SELECT id FROM games WHERE outcome IS NOT NULL AND sealed IS NULL ORDER BY id LIMIT ?"


def dumps(value: Any) -> str:
    """The journal's JSON text: the characters as they are, no NaN."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def crc(header: str, summary: str | None, catalogue: str | None, packed: bytes) -> int:
    """The CRC-32 of a sealed row's values, in a fixed order."""
    text = "\0".join((header, summary or "", catalogue or "")).encode("utf-8")
    return zlib.crc32(packed, zlib.crc32(text))


def keep_catalogue(db: sqlite3.Connection, header: dict) -> str | None:
    """Move the header's catalogue to the ``catalogues`` table, inside the caller's
    transaction; its key there, or None for a header without one."""
    if not isinstance(header.get("catalogue"), dict):
        return None
    body = dumps(header["catalogue"])
    key = hashlib.sha256(body.encode("utf-8")).hexdigest()
    db.execute(_KEEP_CATALOGUE, (key, body))
    header["catalogue"] = None  # the key stays where it was
    return key


def seal(db: sqlite3.Connection, game_id: int) -> None:
    """Seal one ended game, inside the caller's transaction; a sealed game is left as it is."""
    row = db.execute(_GAME, (game_id,)).fetchone()
    if row is None:
        return
    header_text, summary, catalogue = row
    header = json.loads(header_text)
    if isinstance(header.get("catalogue"), dict):  # a game kept before catalogues were apart
        catalogue = keep_catalogue(db, header)
        header_text = dumps(header)
    actions = [notation for (notation,) in db.execute(_LIVE, (game_id,))]
    packed = zlib.compress(dumps(actions).encode("utf-8"), 9)
    check = crc(header_text, summary, catalogue, packed)
    db.execute(_SEAL, (game_id, header_text, catalogue, packed, len(actions), check))
    db.execute(_DROP_ACTIONS, (game_id,))


def unpack_actions(packed: bytes) -> list[str]:
    """The actions a sealed row holds; ``ValueError`` (or zlib's error) when damaged."""
    actions = json.loads(zlib.decompress(packed).decode("utf-8"))
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ValueError("the packed actions are not a list of notations")
    return actions


def unpack_header(db: sqlite3.Connection, header_text: str, catalogue: str | None) -> dict:
    """A game's header with its catalogue back in place (a sealed game's is kept apart)."""
    header = json.loads(header_text)
    if catalogue is not None:
        row = db.execute(_CATALOGUE.format(""), (catalogue,)).fetchone()
        if row is None:
            raise ValueError(f"the catalogue {catalogue[:12]} is missing")
        header["catalogue"] = json.loads(row[0])
    return header


def damage(db: sqlite3.Connection, row: tuple, schema: str = "") -> str:
    """What is wrong with one sealed row ``(id, header, summary, catalogue_hash, packed,
    packed_count, crc)``, or an empty text when it holds what it held when sealed;
    ``schema`` (``"a."``) names an attached file whose catalogues it uses."""
    _, header, summary, catalogue, packed, count, check = row
    if not isinstance(header, str) or not isinstance(packed, bytes):
        return "its values have the wrong type"
    if crc(header, summary, catalogue, packed) != check:
        return "its values changed after it was sealed (CRC mismatch)"
    try:
        if len(unpack_actions(packed)) != count:
            return "its number of actions does not match"
        if catalogue is not None:
            query = _CATALOGUE.format(schema)
            (body,) = db.execute(query, (catalogue,)).fetchone() or (None,)
            if body is None or hashlib.sha256(body.encode("utf-8")).hexdigest() != catalogue:
                return "its catalogue is missing or damaged"
    except (ValueError, zlib.error) as error:
        return f"its actions are not readable ({error})"
    return ""
