"""Checks every game engine must pass, shared by the variants' property tests."""

import json

from rules.actions import Action
from rules.errors import RulesError
from rules.record import replay


def refusals_change_nothing(game, playout, probes) -> None:
    """Every probe not listed as legal is refused, and the state stays exactly as it was:
    its JSON once all its probes were refused is the JSON before them, so a refusal that
    changed the state in place is caught (a state's JSON is most of this check's time)."""
    for before, _, _ in playout:
        snapshot = json.dumps(before.to_json(), sort_keys=True)
        legal = game.legal_actions(before)
        refused = []
        for probe in probes:
            if probe.strip() and Action.parse(probe) in legal:
                continue
            try:
                game.apply(before, probe)
            except RulesError:
                refused.append(probe)
            else:
                raise AssertionError(f"{probe!r} is not listed but was accepted")
        after = json.dumps(before.to_json(), sort_keys=True)
        assert after == snapshot, f"one of these refusals changed the state: {refused}"


def record_replays(record: dict, playout):
    """Play ``playout`` into ``record``; the record then replays to the same final state."""
    final = None
    for _, action, after in playout:
        record["actions"].append(str(action))
        final = after
    replayed = replay(json.loads(json.dumps(record)))
    assert replayed.final == final
    return final
