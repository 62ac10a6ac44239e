"""The house limits of the package's structure (CONTRIBUTING.md): layers that import only
downwards, no import cycles, no module over 1,000 lines, no function over 150 lines (the rules
data aside), no compiled-core function with more than 10 parameters."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "dragonsim"
#: the Dragon Lords layers, lowest first: a module imports only from its own layer or lower
LORDS_LAYERS = {"game": 0, "bots": 1, "engine": 2, "api": 3, "analysis": 4, "views": 4}
#: functions that are rules tables written as data: one rule declaration after another
RULES_DATA = {"rules/dice.py:_rules", "rules/krynn.py:_rules"}
#: the offenders still to fix; each test fails on a new one and on a fixed one left listed
KNOWN_BIG_MODULES: set[str] = set()
KNOWN_LONG_FUNCTIONS: set[str] = set()
KNOWN_MANY_PARAMETERS: set[str] = set()
#: the modules of the compiled core (engines, kernels, mechanics, bots, search, move tables)
CORE = (
    "lords/game/mechanics",
    "lords/game/movetables",
    "lords/bots",
    "lords/engine",
    "dice/kernel",
    "krynn/engine",
    "_kernels",
)


def _names():
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SUBMODULES = set(_names())


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path, ast.parse(path.read_text())


def _imports(name, path, tree):
    """Every module of the package that ``name`` imports, at the top or inside a function."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = {f"{mod}.{a.name}" for a in node.names}
            out.update(subs)
            if not subs <= SUBMODULES:  # ``from pkg import submodule`` needs the submodule only
                out.add(mod)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("dragonsim")}


MODULES = list(_modules())
NAMES = {name for name, _, _ in MODULES}
GRAPH = {name: (_imports(name, path, tree) & NAMES) - {name} for name, path, tree in MODULES}


def test_no_import_cycles():
    """Following imports from any module never leads back to it."""
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                cycles.append(sorted(scc))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert cycles == []


def _lords_layer(name):
    parts = name.split(".")
    return (
        LORDS_LAYERS.get(parts[2])
        if parts[:2] == ["dragonsim", "lords"] and len(parts) > 2
        else None
    )


def test_lords_layers_import_only_downwards():
    """The game never imports the bots, the bots never the engine, the engine never the
    public runs, and nothing below imports the analyses or the views."""
    upward = [
        (name, dep)
        for name, deps in GRAPH.items()
        if _lords_layer(name) is not None
        for dep in deps
        if _lords_layer(dep) is not None and _lords_layer(dep) > _lords_layer(name)
    ]
    assert upward == []


def _ratchet(found, known):
    """``found`` offenders may only be ``known`` ones, and a known one that is fixed must leave
    the list (so the list only shrinks)."""
    assert sorted(set(found) - known) == [], "new offenders"
    assert sorted(known - set(found)) == [], "fixed: take them off the known list"


def test_no_module_over_1000_lines():
    big = [
        str(p.relative_to(PACKAGE)) for _, p, _ in MODULES if len(p.read_text().splitlines()) > 1000
    ]
    _ratchet(big, KNOWN_BIG_MODULES)


def _functions():
    for _, path, tree in MODULES:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield path.relative_to(PACKAGE).as_posix(), node


def test_no_function_over_150_lines():
    """Rules tables written as data (the rule declarations, :data:`RULES_DATA`) aside."""
    long = [
        f"{rel}:{f.name}"
        for rel, f in _functions()
        if f.end_lineno - f.lineno + 1 > 150 and f"{rel}:{f.name}" not in RULES_DATA
    ]
    _ratchet(long, KNOWN_LONG_FUNCTIONS)


def test_no_core_function_over_10_parameters():
    """What a run is played with travels as records (CONTRIBUTING.md, "Records")."""
    many = []
    for rel, f in _functions():
        if any(rel.startswith(c) for c in CORE):
            a = f.args
            if len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) > 10:
                many.append(f"{rel}:{f.name}")
    _ratchet(many, KNOWN_MANY_PARAMETERS)


@pytest.mark.parametrize("path", ["CONTRIBUTING.md"])
def test_the_house_style_is_written_down(path):
    text = (PACKAGE.parent / path).read_text()
    for section in ("## The layers", "## Records", "## Registries", "bit-identical"):
        assert section in text


def test_every_cache_guard_comes_after_the_functions_it_flushes():
    """A compiled module ends with its cache guard (``guard_caches`` or the engine's ``guard``):
    the guard flushes the numba caches of the functions the module has defined when it runs, so
    a function defined below it would keep a cache compiled against older code (the look-ahead's
    rollouts did: an edited bot ran its previous version until the cache was wiped by hand)."""
    late = []
    for name, _, tree in MODULES:
        calls = [
            i
            for i, node in enumerate(tree.body)
            if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", "") in ("guard", "guard_caches")
        ]
        if not calls:
            continue
        late += [
            f"{name}.{node.name}"
            for node in tree.body[calls[-1] + 1 :]
            if isinstance(node, ast.FunctionDef)
        ]
    assert late == [], f"defined after the module's cache guard: {late}"
