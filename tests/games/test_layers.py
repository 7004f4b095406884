"""The games package is layered: no import cycle anywhere in it, not even one hidden in a
function (type-only imports aside), the round model imports nothing of the platform, and
only a family reaches into a family's modules."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "games"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _type_only(tree: ast.Module) -> set[int]:
    """Line numbers inside `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    skip = _type_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            # `from X import y`: the module X.y if there is one, else X itself
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as a path, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle_in_games():
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert graph["games.ranked.clocks"] and "games.services" in graph  # the scan sees them
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_round_model_stands_on_the_engine_alone():
    modules = _modules()
    round_modules = {name: path for name, path in modules.items()
                     if name.startswith("games.round.") or name == "games.round"}
    assert {"games.round", "games.round.model", "games.round.play"} <= set(round_modules)
    assert "games.round.model" in _imports("games.round.play", round_modules["games.round.play"],
                                           modules)  # and reads their imports
    outside = {name: {m for m in _imports(name, path, modules)
                      if not m.startswith(("games.round", "games.engine"))}
               for name, path in round_modules.items()}
    assert {name: found for name, found in outside.items() if found} == {}


def test_only_a_family_reaches_into_a_family():
    """A family's modules (games.engine.<family>.*) are imported by the engine's own
    registry, that family and its server board module alone: bots, boards and the rest
    of the platform reach it through the Rules protocol and its registration."""
    modules = _modules()
    families = {name.split(".")[2] for name in modules
                if name.count(".") >= 2 and name.startswith("games.engine.")
                and modules[name].name == "__init__.py"}
    assert {"barrier", "blockade", "blokus"} <= families  # the scan sees them
    for name, path in modules.items():
        for target in _imports(name, path, modules):
            parts = target.split(".")
            if len(parts) < 3 or parts[:2] != ["games", "engine"] or parts[2] not in families:
                continue
            family = parts[2]
            allowed = (name.startswith(f"games.engine.{family}")
                       or name in ("games.engine.registry", f"games.boards.{family}"))
            assert allowed, f"{name} imports {target}"
