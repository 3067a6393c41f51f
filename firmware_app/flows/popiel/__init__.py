"""Król Popiel on the panel: its setup, turn and end, and teaching its box at the first setup.

Uses the shared screens, never Pingwiny's.
"""
