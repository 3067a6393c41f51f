"""The screens, by game: ``shared`` (the screens every game uses and those outside any
game), ``pingwiny`` (both variants of Pingwiny z Madagaskaru), ``popiel`` (Król Popiel);
above them ``games`` (the registry: one row a game) and ``start`` (the home menu), which
reaches each game only through the registry.

Uses transfer, ui, words, session and store.
"""
