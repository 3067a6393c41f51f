"""Pulling the panel and the reader out mid-game: the app keeps going and they come back.

The panel is the shipped fake, which fails as the I2C bus does (errno 121);
the reader is the real RDM6300 driver on a pseudo-terminal whose device
vanishes and returns, as a USB-serial adapter does.
"""

from test_rfid_pty import QUICK, Pty

from firmware_app.app import App
from firmware_app.loop import Loop
from firmware_app.store.journal import Journal
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.rdm6300 import encode
from hw.rfid.rdm6300_reader import Rdm6300Reader


def test_display_and_reader_unplugged_mid_run_recover(tmp_path):
    clock = {"now": 0.0}
    pty = Pty(tmp_path / "serial0")
    journal = Journal(tmp_path / "journal.sqlite")
    app = App(journal, language="en")
    buttons = FakeButtons()
    display = FakeDisplay(clock=lambda: clock["now"])
    reader = Rdm6300Reader(str(pty.path), backoff=QUICK)
    loop = Loop(app, buttons, reader, display)

    def run(seconds: float) -> None:
        end = clock["now"] + seconds
        while clock["now"] < end:
            clock["now"] = round(clock["now"] + 0.01, 6)
            loop.tick(clock["now"])

    def press(name: str) -> None:
        buttons.press(name, clock["now"])
        run(0.05)
        buttons.release(name, clock["now"])
        run(0.05)

    try:
        run(0.1)
        assert display.last_image is not None
        sent = len(display.frames)

        display.unplug()
        pty.unplug()
        press("ok")  # New game: the app goes on with no panel and no reader
        assert app.render().text().startswith("[Game]")
        run(1.0)
        assert len(display.frames) == sent

        display.plug()
        pty.plug_in()
        run(40.0)  # longer than the longest backoff of either
        assert display.last_image.tobytes() == app.render().image.tobytes()

        pty.send(encode(bytes.fromhex("0A0B0C0D0E")) * 2)  # the module repeats its frame
        run(0.05)
        assert app.render().text().startswith("[New tag: which card?]")
    finally:
        reader.close()
        pty.close()
        journal.close()
