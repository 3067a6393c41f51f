"""The ways the app is run: the daemon on the device, the terminal simulator, headless
scripts, the demo GIF and its autopilot, and what only a runner needs (systemd's notifier,
the stand-ins for parts that do not answer, the ready-made splash).

Uses the loop and every room below it, never the command line.
"""
