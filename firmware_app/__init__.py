"""The daemon: the app and its screens, the journal, the command line and the ways it is run.

Its rooms, top to bottom; each imports only rooms below it (``pyproject.toml``'s
import contracts hold that, and the suite runs them):

- ``cli``: the ``tableside`` command line;
- ``runners``: the daemon, the terminal simulator, headless scripts, the demo;
- ``loop``: one tick of the main loop, the same for every runner;
- ``app`` and ``status``: the screens, the game session and the journal, without hardware,
  and the one-line status the loop reports of it;
- ``flows``: the screens, by game;
- ``transfer`` and ``ui``: results, backups and the stick; drawing on the panel;
- ``words`` and ``session``: texts, translations and fonts; the game being played;
- ``store``: the journal and everything else kept on the card.

It uses ``rules`` and ``hw``; they never use it.
"""
