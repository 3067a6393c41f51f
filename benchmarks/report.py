"""How every benchmark prints its figures: a table, or one JSON object."""

import json
import platform

MACHINE = {"python": platform.python_version(), "machine": platform.machine()}


def report(result: dict, as_json: bool) -> None:
    """``result`` with the interpreter and machine it was measured on."""
    result = {**result, **MACHINE}
    if as_json:
        print(json.dumps(result))
        return
    width = max(len(key) for key in result)
    for key, value in result.items():
        print(f"{key:>{width}}  {value}")
