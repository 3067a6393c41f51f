"""``tableside run``: the daemon on the device.

Start-up is ordered so the panel shows something as early as possible (a
Zero 2 W is slow to import Python): configuration, panel, first frame, then
the rest. systemd hears READY after the first frame, a watchdog ping from
every loop tick, and STOPPING on the way out. SIGTERM raises ``SystemExit``
so shutdown runs through the ``finally`` blocks below.
"""

import gc
import logging
import time
from contextlib import ExitStack

from firmware_app.runners.splash import splash
from firmware_app.runners.systemd_notify import Notifier, exit_on_sigterm
from firmware_app.runners.tell import tell_start
from firmware_app.store.config import load_config
from hw.display import build_display

LOG = logging.getLogger("tableside.daemon")
TICK = 0.01


def run(config_path: str | None, *, first_frame: bool = False, home: bool = False) -> int:
    """Run until stopped; ``first_frame`` and ``home`` stop early, for the benchmarks.

    Both print the wall-clock time of the first frame (``first frame shown at T``).
    ``first_frame`` then exits 0 before anything else is opened. ``home`` goes on
    through the whole start (journal opened and checked, app built, the first loop
    tick, which draws and shows the home menu), prints ``home menu shown at T`` once
    the loop is ready for a press, and stops as cleanly as on SIGTERM, exit status 0.
    ``benchmarks/startup.py`` and ``benchmarks/history.py`` read those lines.
    """
    exit_on_sigterm()
    config = load_config(config_path)
    notifier = Notifier()
    display = build_display(config.display)
    display.show(splash())
    if first_frame or home:
        print(f"first frame shown at {time.time():.6f}", flush=True)
    if first_frame:
        display.close()
        return 0
    # Imported only now, so that the frame above is not kept waiting for the
    # journal's SQLite, the pin and serial libraries, the rules and the screens.
    from firmware_app.app import App
    from firmware_app.flows.shared.stick import StickWatch
    from firmware_app.loop import Loop
    from firmware_app.runners.parts import Problem, build_part, fix_for
    from firmware_app.store.housekeeping import Keeper
    from firmware_app.store.recovery import close_journal, open_journal
    from firmware_app.transfer.stick_port import StickPort
    from hw.buttons import REFERENCE_PINS, FakeButtons, build_buttons
    from hw.buzzer import NoBuzzer, build_buzzer
    from hw.rfid import build_reader
    from hw.rfid.reader import NoReader

    # Everything opened is closed on the way out, whatever stops the daemon (SIGTERM, a
    # bug): each close runs even if another one fails, the journal's among them.
    with ExitStack() as opened:
        opened.callback(display.close)
        try:
            problems: list[Problem] = []
            names = tuple(config.buttons.get("pins", REFERENCE_PINS))
            buttons = build_part(
                "buttons",
                lambda: build_buttons(config.buttons),
                lambda: FakeButtons(names),
                problems,
            )
            opened.callback(buttons.close)
            reader = build_part("reader", lambda: build_reader(config.reader), NoReader, problems)
            opened.callback(reader.close)
            buzzer = build_part("buzzer", lambda: build_buzzer(config.buzzer), NoBuzzer, problems)
            opened.callback(buzzer.close)
            if display.fault is not None:
                problem = Problem("display", str(display.fault), fix_for("display", display.fault))
                LOG.error("%s", problem)
                problems.append(problem)
            try:
                config.app.state_dir.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                LOG.error("cannot create the state folder %s: %s", config.app.state_dir, error)
            journal, outcome = open_journal(config.app.journal, config.app.catalogue)
            opened.callback(close_journal, journal)
            outcome.log()
            backups = Keeper(journal)  # the check after start-up, then the backups
            opened.callback(backups.close)
            app = App(
                journal,
                language=config.app.language,
                owner_catalogue=config.app.catalogue,
                buttons=buttons.names,
                reader_name=config.reader["driver"] if not isinstance(reader, NoReader) else "none",
                defaults=config.app.setting_defaults(),
            )
            tell_start(app, outcome, problems)
            missing = "missing: " + ", ".join(p.part for p in problems) if problems else ""
            loop = Loop(
                app,
                buttons,
                reader,
                display,
                notifier=notifier,
                buzzer=buzzer,
                backups=backups,
                stick=StickWatch(app, StickPort()),
                missing=missing,
            )
            loop.tick(time.monotonic())
            # The home menu is shown: the start is over (see cli/main.py). What it made lives
            # as long as the daemon: frozen, the collector never walks it again, so its
            # full passes stay short on the main loop.
            gc.freeze()
            gc.enable()
            notifier.ready()
            LOG.info("ready: %s", config.source or "simulator defaults")
            if home:
                print(f"home menu shown at {time.time():.6f}", flush=True)
                return 0
            while True:
                loop.tick(time.monotonic())
                time.sleep(TICK)
        finally:
            notifier.stopping()
            from firmware_app.ui.canvas import message_frame

            display.show(message_frame("Stopped. / Zatrzymano.").image)
