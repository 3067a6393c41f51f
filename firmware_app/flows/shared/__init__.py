"""Screens every game uses, and those outside any game: the seats, the end and its chart,
the settings and the box's cards, teaching a card, statistics, the USB stick.

Uses no game's screens.
"""
