"""Moving things off and onto the box: results and records (export, import), the whole-box
backup and its restore, the USB stick.

Uses store, words (the score sheet as text) and session.
"""
