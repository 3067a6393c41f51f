"""Drawing on the 128x64 panel: the canvas, the stack of screens, small charts.

Uses words (the fonts).
"""
