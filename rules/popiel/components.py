"""The box of Król Popiel as data: what is printed, what the owner or the demo adds.

The rulebook prints the counts of tiles and reward tokens but not the mix of
the tokens nor the number of window spaces in the tower; those stay unknown
until the owner enters them (or the demo box, labelled as made up, fills
them in). Pure: the files are read by the application.
"""

from rules.errors import SetupError
from rules.popiel.game import KINDS, Components

UNKNOWN = "unknown"


def build_components(printed: dict, overlay: dict | None = None) -> Components:
    """Printed facts, then an overlay that only fills what is unknown."""
    rewards = dict(printed["rewards"])
    windows = dict(printed["windows"])
    label = None
    if overlay is not None:
        for table, target in (("rewards", rewards), ("windows", windows)):
            for key, value in overlay.get(table, {}).items():
                if target.get(key, UNKNOWN) != UNKNOWN and target[key] != value:
                    raise SetupError("setup.popiel_overlay", key=f"{table}.{key}")
                target[key] = value
        label = overlay["meta"].get("label")
    mix = None if UNKNOWN in rewards.values() else {k: rewards[k] for k in KINDS}
    count = printed["components"]["reward_tokens"]
    if mix is not None and sum(mix.values()) != count:
        raise SetupError("setup.popiel_overlay", key="rewards")
    return Components(
        tiles=printed["components"]["tiles"],
        windows={side: None if n == UNKNOWN else n for side, n in windows.items()},
        rewards=mix,
        reward_count=count,
        demo_label=label,
        sources=dict(printed.get("sources", {})),
    )
