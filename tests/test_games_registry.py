"""The registry of games: every engine has its screens, and the screens import no circle."""

import ast
from pathlib import Path

from firmware_app.autopilot import Autopilot
from firmware_app.flows.games import GAMES
from firmware_app.headless import Headless
from rules.record import VARIANTS

FLOWS = Path(__file__).parent.parent / "firmware_app" / "flows"
PACKAGE = "firmware_app.flows"


def flows_imports() -> dict[str, set[str]]:
    """Each module of ``firmware_app/flows`` -> the modules of it that it imports, anywhere.

    Imports inside functions count: they are what hid the old circle.
    """
    modules = {f"{PACKAGE}.{path.stem}" for path in FLOWS.glob("*.py")}
    graph = {}
    for path in FLOWS.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[f"{PACKAGE}.{path.stem}"] = found & modules
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            found = visit(imported, path + [module])
            if found:
                return found
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return None


def test_the_flows_import_no_circle():
    graph = flows_imports()
    assert f"{PACKAGE}.games" in graph and graph[f"{PACKAGE}.games"]
    assert circle(graph) is None, " -> ".join(circle(graph))


def test_the_circle_finder_finds_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circle(graph) == ["a", "b", "c", "a"]


def test_the_start_screen_imports_no_game():
    graph = flows_imports()
    games = graph[f"{PACKAGE}.games"]
    assert graph[f"{PACKAGE}.start"].isdisjoint(games)
    assert not {m for m in games if "start" in m}


def test_every_engine_has_its_screens_and_every_screen_set_an_engine():
    assert set(GAMES) == set(VARIANTS)


def test_the_new_game_menu_lists_the_registry_in_its_order(tmp_path):
    sim = Headless(tmp_path / "state", language="en", seed=1)
    try:
        sim.press("ok")
        names = [screens.name(sim.app.t) for screens in GAMES.values()]
        assert sim.screen.splitlines()[1:] == ["> " + names[0]] + ["  " + n for n in names[1:]]
    finally:
        sim.close()


def test_each_game_starts_from_the_menu_and_plays_on_its_registered_screens(tmp_path):
    for index, (key, screens) in enumerate(GAMES.items()):
        sim = Headless(tmp_path / f"state-{index}", language="en", seed=1)
        try:
            sim.press("ok")
            sim.press("down", index)
            sim.press("ok")
            assert sim.screen.splitlines()[0] == f"[{screens.setup(sim.app).title}]"
            pilot = Autopilot(sim, seed=index)
            for _ in range(200):
                if sim.app.session is not None:
                    break
                pilot.step()
            assert sim.app.session.key == key
            shown = sim.app.stack[0]
            expected = screens.turn(sim.app)
            assert (type(shown), shown.title) == (type(expected), expected.title)
        finally:
            sim.close()
