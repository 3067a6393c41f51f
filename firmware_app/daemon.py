"""``tableside run``: the daemon on the device.

Start-up is ordered so the panel shows something as early as possible (a
Zero 2 W is slow to import Python): configuration, panel, first frame, then
the rest. systemd hears READY after the first frame, a watchdog ping from
every loop tick, and STOPPING on the way out. SIGTERM raises ``SystemExit``
so shutdown runs through the ``finally`` blocks below.
"""

import logging
import time

from firmware_app.config import load_config
from firmware_app.splash import splash
from firmware_app.systemd_notify import Notifier, exit_on_sigterm
from hw.display import build_display

LOG = logging.getLogger("tableside.daemon")
TICK = 0.01


def message_frame(text: str):
    """A frame with the title bar and ``text``: what the panel keeps after a stop."""
    from firmware_app.ui.canvas import Canvas

    canvas = Canvas()
    canvas.title("Tableside")
    canvas.paragraph(text)
    return canvas


def run(config_path: str | None, *, first_frame: bool = False) -> int:
    """Run until stopped; with ``first_frame``, stop once the first frame is shown.

    ``first_frame`` is for ``benchmarks/startup.py``: it prints the wall-clock
    time of the first frame and exits 0 before anything else is opened.
    """
    exit_on_sigterm()
    config = load_config(config_path)
    notifier = Notifier()
    display = build_display(config.display)
    display.show(splash())
    if first_frame:
        print(f"first frame shown at {time.time():.6f}", flush=True)
        display.close()
        return 0
    # Imported only now, so that the frame above is not kept waiting for the
    # journal's SQLite, the pin and serial libraries, the rules and the screens.
    from firmware_app.app import App
    from firmware_app.journal import Journal
    from firmware_app.loop import Loop
    from hw.buttons import build_buttons
    from hw.buzzer import build_buzzer
    from hw.rfid import build_reader

    config.app.state_dir.mkdir(parents=True, exist_ok=True)
    journal = Journal(config.app.journal)
    buttons = build_buttons(config.buttons)
    reader = build_reader(config.reader)
    buzzer = build_buzzer(config.buzzer)
    try:
        app = App(
            journal,
            language=config.app.language,
            owner_catalogue=config.app.catalogue,
            buttons=buttons.names,
            reader_name=config.reader["driver"],
            defaults=config.app.setting_defaults(),
        )
        loop = Loop(app, buttons, reader, display, notifier=notifier, buzzer=buzzer)
        loop.tick(time.monotonic())
        notifier.ready()
        LOG.info("ready: %s", config.source or "simulator defaults")
        while True:
            loop.tick(time.monotonic())
            time.sleep(TICK)
    finally:
        notifier.stopping()
        display.show(message_frame("Stopped. / Zatrzymano.").image)
        for part in (buttons, reader, buzzer):
            part.close()
        display.close()
        journal.close()
