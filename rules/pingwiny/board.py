"""The advanced variant's board: nine tiles in a 3x3 square, Headquarters in the middle.

Squares are numbered 0..8 row by row, so Headquarters is square 4. A
penguin stands on a square, in the middle or on the blockade field of one
of its edges (``n``, ``e``, ``s``, ``w``). A penguin on the edge facing a
neighbour blocks entry from that neighbour.
"""

HQ_SQUARE = 4
EDGES = ("n", "e", "s", "w")
MIDDLE = "middle"
SPOTS = (MIDDLE,) + EDGES
_STEP = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def neighbour(square: int, edge: str) -> int | None:
    """The square across ``edge``, or None at the board's rim."""
    row, col = divmod(square, 3)
    dr, dc = _STEP[edge]
    row, col = row + dr, col + dc
    return row * 3 + col if 0 <= row < 3 and 0 <= col < 3 else None


# The geometry never changes: tables, so the move generator only looks things up.
ADJACENT = tuple(
    tuple(neighbour(s, e) for e in EDGES if neighbour(s, e) is not None) for s in range(9)
)
# Edges that face another tile: the only ones a penguin can enter through.
INNER_EDGES = tuple(tuple(e for e in EDGES if neighbour(s, e) is not None) for s in range(9))
# (square, other) -> the edge of ``square`` that faces the adjacent ``other``.
EDGE_TOWARDS = {
    (s, neighbour(s, e)): e for s in range(9) for e in EDGES if neighbour(s, e) is not None
}
