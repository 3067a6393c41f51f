"""The ``tableside`` command line: the top room, which may use every other.

``main`` holds the parser, the commands and their one error path; ``results`` the commands
that read the journal (stats, import, export), ``backup`` backup and restore, and
``common`` what they share (errors, the state folder), a leaf the others import.
"""
