"""Król Popiel: the books of a tile-placement race up King Popiel's tower.

The app cannot see the tower: players say how many yellow dots each tile
completed and whether it touched the king's window; the engine keeps the
scores past the 30-space track, the reward tokens and the king's climb.
"""
