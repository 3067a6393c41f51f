"""Pingwiny z Madagaskaru on the panel, family and advanced: the setups, the turn, the
table's instructions, corrections, help and the virtual players.

Uses the shared screens, never Król Popiel's.
"""
