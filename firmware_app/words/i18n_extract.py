"""Finds every message id the screens pass to the translator, for the catalogues.

Screens call the translator as ``t("…")``, ``self.t("…")`` or ``app.t("…")``,
and for a text with a number ``t.plural("{n} token", "{n} tokens", n)``: the
singular is the id and the plural goes beside it (``msgid_plural``);
some pass a value out of a module-level table instead (``t(DECIDED[key])``,
``t(label) for label in EXTRAS``). The source is read with ``ast``, never
run: a literal argument is an id, and a non-literal one is followed through
comprehension and loop variables, lambda defaults, subscripts, ``zip`` and
``.items()`` back to the table it comes from, so a new table is found without
being listed anywhere. A call that cannot be followed to literals is reported
rather than skipped, so a message can never silently miss its translation.

``python -m firmware_app.words.i18n_extract`` prints a gettext template (``.pot``)
for translation tools; ``--check LANG`` lists the ids ``LANG.po`` lacks and
the entries no screen uses any more.
"""

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from firmware_app.words.i18n import LOCALE_DIR, parse_entries, parse_po, plural_forms

PACKAGE_DIR = Path(__file__).parent.parent  # the whole firmware_app package
ROOT = PACKAGE_DIR.parent
SOURCE_LANGUAGE = "en"  # the ids are the English texts
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class Unfollowable(Exception):
    """An expression whose possible values are not all literals in the source."""


UNKNOWN = object()  # a column of a ``zip`` the extractor cannot follow


@dataclass
class Extraction:
    """Message ids with the places (``path:line``) that use them, and calls not followed."""

    messages: dict[str, list[str]] = field(default_factory=dict)
    unfollowed: list[str] = field(default_factory=list)
    plurals: dict[str, str] = field(default_factory=dict)  # singular id -> its plural


class SourceFile:
    """One parsed module: its tree, each node's parent, its literal constants and imports."""

    def __init__(self, path: Path, root: Path) -> None:
        self.name = path.relative_to(root).as_posix()
        self.tree = ast.parse(path.read_text(encoding="utf-8"), self.name)
        self.parents = {
            child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)
        }

    @cached_property
    def constants(self) -> dict[str, object]:
        """Top-level ``NAME = <literal>`` assignments, evaluated."""
        found = {}
        for statement in self.tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target, value = statement.targets[0], statement.value
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                target, value = statement.target, statement.value
            else:
                continue
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(value)
                except ValueError:
                    continue
        return found

    @cached_property
    def imports(self) -> dict[str, tuple[str, str]]:
        """Local name -> (module, name) for every absolute ``from module import name``."""
        return {
            alias.asname or alias.name: (statement.module, alias.name)
            for statement in self.tree.body
            if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level
            for alias in statement.names
        }

    def place(self, node: ast.AST) -> str:
        return f"{self.name}:{node.lineno}"

    def scopes(self, node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        """``(child, ancestor)`` pairs from ``node`` up to the module."""
        while node in self.parents:
            parent = self.parents[node]
            yield node, parent
            node = parent


class Extractor:
    """Reads a package's sources and collects what its screens say."""

    def __init__(self, package: Path = PACKAGE_DIR, root: Path = ROOT) -> None:
        self.package, self.root = package, root
        self._files: dict[Path, SourceFile] = {}

    def file(self, path: Path) -> SourceFile:
        if path not in self._files:
            self._files[path] = SourceFile(path, self.root)
        return self._files[path]

    def calls(self) -> Iterator[tuple[SourceFile, ast.Call, list[str] | None]]:
        """Every translator call: its file, its node, and its ids (None if not followed)."""
        for path in sorted(self.package.rglob("*.py")):
            source = self.file(path)
            for call in ast.walk(source.tree):
                if _is_translation(call):
                    yield source, call, self.ids(source, call.args[0])

    def ids(self, source: SourceFile, expr: ast.expr) -> list[str] | None:
        """The message ids ``expr`` can be, or None when some value is not a literal string."""
        try:
            values = self.values(source, expr)
        except Unfollowable:
            return None
        return values if all(isinstance(value, str) for value in values) else None

    def run(self) -> Extraction:
        found = Extraction()
        for source, call, ids in self.calls():
            if ids is None:
                found.unfollowed.append(f"{source.place(call)}: {ast.unparse(call)}")
                continue
            if _is_plural(call):
                plural = self.ids(source, call.args[1]) if len(call.args) > 2 else None
                if plural is None or len(plural) != len(ids):
                    found.unfollowed.append(f"{source.place(call)}: {ast.unparse(call)}")
                    continue
                found.plurals.update(zip(ids, plural, strict=True))
            for msgid in ids:
                places = found.messages.setdefault(msgid, [])
                if source.place(call) not in places:
                    places.append(source.place(call))
        for places in found.messages.values():
            places.sort(key=_place_order)
        return found

    # ----------------------------------------------------- following values

    def values(self, source: SourceFile, expr: ast.expr) -> list[object]:
        """Every value ``expr`` can take, or ``Unfollowable``."""
        if isinstance(expr, ast.Constant):
            return [expr.value]
        if isinstance(expr, ast.Name):
            return self.binding(source, expr.id, expr)
        if isinstance(expr, ast.Subscript):
            return [item for table in self.values(source, expr.value) for item in _items(table)]
        raise Unfollowable(ast.unparse(expr))

    def elements(self, source: SourceFile, expr: ast.expr) -> list[object]:
        """What a ``for`` over ``expr`` yields: keys of a table, items of a list."""
        if isinstance(expr, ast.Call) and not expr.args and isinstance(expr.func, ast.Attribute):
            tables = self.values(source, expr.func.value)
            view = expr.func.attr
            if view == "items":
                return [pair for table in tables for pair in _dict(table).items()]
            if view in ("keys", "values"):
                return [item for table in tables for item in getattr(_dict(table), view)()]
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "zip":
            columns = []
            for arg in expr.args:
                try:
                    columns.append(self.elements(source, arg))
                except Unfollowable:
                    columns.append(None)
            known = [column for column in columns if column is not None]
            if not known:
                raise Unfollowable(ast.unparse(expr))
            rows = min(len(column) for column in known)
            return [
                tuple(UNKNOWN if column is None else column[row] for column in columns)
                for row in range(rows)
            ]
        found = []
        for value in self.values(source, expr):
            if isinstance(value, dict | list | tuple | set | frozenset):
                found += list(value)
            else:
                raise Unfollowable(ast.unparse(expr))
        return found

    def binding(self, source: SourceFile, name: str, node: ast.AST) -> list[object]:
        """The values ``name`` can hold where ``node`` uses it, innermost binding first."""
        path: set[ast.AST] = set()
        for child, scope in source.scopes(node):
            path.add(child)
            if isinstance(scope, COMPREHENSIONS) and scope.generators[0].iter not in path:
                for generator in scope.generators:
                    if name in _target_names(generator.target):
                        rows = self.elements(source, generator.iter)
                        return _unpack(generator.target, name, rows)
            elif isinstance(scope, ast.For) and child in scope.body:
                if name in _target_names(scope.target):
                    return _unpack(scope.target, name, self.elements(source, scope.iter))
            elif isinstance(scope, FUNCTIONS) and child is not scope.args:
                if name not in _parameters(scope.args):
                    continue
                # ``lambda x=x: …`` is how a loop hands a value on; a function's
                # callers may pass anything, so its parameters are not followed.
                default = _default(scope.args, name) if isinstance(scope, ast.Lambda) else None
                if default is None:
                    raise Unfollowable(f"{name} is a parameter of {source.place(scope)}")
                return self.values(source, default)
        return self.global_value(source, name)

    def global_value(self, source: SourceFile, name: str) -> list[object]:
        if name in source.constants:
            return [source.constants[name]]
        if name in source.imports:
            module, original = source.imports[name]
            path = self.root.joinpath(*module.split(".")).with_suffix(".py")
            if path.exists():
                return self.global_value(self.file(path), original)
        raise Unfollowable(f"{name} in {source.name}")


def _is_translation(node: ast.AST) -> bool:
    """A call of a function named ``t`` (``t(…)``, ``self.t(…)``) with an argument,
    or of its ``plural``."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func = node.func
    return (
        (isinstance(func, ast.Name) and func.id == "t")
        or (isinstance(func, ast.Attribute) and func.attr == "t")
        or _is_plural(node)
    )


def _is_plural(node: ast.Call) -> bool:
    """``t.plural(…)``, ``self.t.plural(…)``, ``app.t.plural(…)``."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "plural"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Name) and owner.id == "t") or (
        isinstance(owner, ast.Attribute) and owner.attr == "t"
    )


def _place_order(place: str) -> tuple[str, int]:
    path, _, line = place.rpartition(":")
    return path, int(line)


def _dict(value: object) -> dict:
    if not isinstance(value, dict):
        raise Unfollowable(f"{value!r} is not a table")
    return value


def _items(table: object) -> list[object]:
    """What ``table[key]`` can be: any value of a dict, any item of a sequence."""
    if isinstance(table, dict):
        return list(table.values())
    if isinstance(table, list | tuple):
        return list(table)
    raise Unfollowable(f"{table!r} cannot be indexed")


def _target_names(target: ast.expr) -> set[str]:
    return {node.id for node in ast.walk(target) if isinstance(node, ast.Name)}


def _unpack(target: ast.expr, name: str, rows: list[object]) -> list[object]:
    """The values ``name`` takes when each row is assigned to ``target``."""
    if isinstance(target, ast.Name):
        return rows
    if not isinstance(target, ast.Tuple | ast.List):
        raise Unfollowable(ast.unparse(target))
    found = []
    for part_index, part in enumerate(target.elts):
        if name not in _target_names(part):
            continue
        for row in rows:
            if not isinstance(row, tuple | list) or len(row) != len(target.elts):
                raise Unfollowable(f"{row!r} does not unpack into {ast.unparse(target)}")
            found += _unpack(part, name, [row[part_index]])
    return found


def _parameters(args: ast.arguments) -> list[str]:
    every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    return [arg.arg for arg in every if arg is not None]


def _default(args: ast.arguments, name: str) -> ast.expr | None:
    """The default value of parameter ``name`` (the loop-variable idiom ``lambda x=x: …``)."""
    positional = args.posonlyargs + args.args
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += list(zip(args.kwonlyargs, args.kw_defaults, strict=True))
    return next((default for arg, default in pairs if arg.arg == name), None)


def extract(package: Path = PACKAGE_DIR, root: Path = ROOT) -> Extraction:
    """Every message id in the package's sources, and every call that could not be followed."""
    return Extractor(package, root).run()


def po_quote(text: str) -> str:
    """``text`` as a ``.po`` string literal: backslash, quote, newline, tab and CR escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{escaped}"'


def po_entry(msgid: str, msgstr: str = "", places: list[str] | tuple[str, ...] = ()) -> str:
    """One catalogue entry; a text with newlines is split after each, as gettext tools do."""
    lines = [f"#: {place}" for place in places]
    for keyword, text in (("msgid", msgid), ("msgstr", msgstr)):
        pieces = text.splitlines(keepends=True)
        if "\n" in text:
            lines.append(f'{keyword} ""')
            lines += [po_quote(piece) for piece in pieces]
        else:
            lines.append(f"{keyword} {po_quote(text)}")
    return "\n".join(lines) + "\n"


POT_HEADER = po_entry(
    "", "Project-Id-Version: Tableside\nContent-Type: text/plain; charset=UTF-8\n"
)


def plural_entry(msgid: str, plural: str, forms: list[str], places=()) -> str:
    """A plural entry: the id, its plural, and one ``msgstr[i]`` per form."""
    lines = [f"#: {place}" for place in places]
    lines += [f"msgid {po_quote(msgid)}", f"msgid_plural {po_quote(plural)}"]
    lines += [f"msgstr[{i}] {po_quote(form)}" for i, form in enumerate(forms)]
    return "\n".join(lines) + "\n"


def pot_text(found: Extraction) -> str:
    """A gettext template of every id, sorted, with the places that use it."""
    entries = [
        plural_entry(msgid, found.plurals[msgid], ["", ""], places)
        if msgid in found.plurals
        else po_entry(msgid, "", places)
        for msgid, places in sorted(found.messages.items())
    ]
    return "\n".join([POT_HEADER, *entries])


def check(found: Extraction, language: str, locale_dir: Path = LOCALE_DIR) -> list[str]:
    """What a catalogue needs: ids it lacks or leaves empty, and its entries no code uses.

    English needs no entry for an id (the id is its English text), only for
    the few the panel shows in shorter words.
    """
    path = locale_dir / f"{language}.po"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    catalogue = parse_po(text)
    _, plurals = parse_entries(text)
    forms = plural_forms(text)
    problems = [
        f"untranslated: {msgid!r}"
        for msgid in found.messages
        if language != SOURCE_LANGUAGE and not catalogue.get(msgid)
    ]
    problems += [
        f"not a plural entry: {msgid!r}"
        for msgid in found.plurals
        if msgid in catalogue and msgid not in plurals
    ]
    problems += [
        f"needs {forms} plural forms: {msgid!r}"
        for msgid, given in plurals.items()
        if msgid in found.plurals and (len(given) != forms or not all(given))
    ]
    problems += [f"stale: {msgid!r}" for msgid in catalogue if msgid not in found.messages]
    problems += [f"not followed: {call}" for call in found.unfollowed]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m firmware_app.words.i18n_extract", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--check", metavar="LANG", help="list what LANG.po lacks or no longer needs"
    )
    args = parser.parse_args(argv)
    found = extract()
    if args.check:
        problems = check(found, args.check)
        print("\n".join(problems) or f"{args.check}.po: {len(found.messages)} ids, all in order")
        return 1 if problems else 0
    sys.stdout.write(pot_text(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
