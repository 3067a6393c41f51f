"""Words and glyphs: the translator and its catalogues (``locale/``), the extractor that
keeps them complete, the panel's pixel fonts (``fonts/``), the table's instructions and
the score sheet as text.

Uses no other room.
"""
