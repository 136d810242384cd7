"""The Python package in layers, bottom to top (issue #65): each module imports only
modules of its own layer or below, at module level and inside functions alike, and
the modules import each other in no circle at module level. The one way up: inside a
function or method named ``svg`` or ``_repr_svg_``, which draws an object with
``nimkit.svg`` (as python-chess's ``chess.svg`` is reached). Imports under ``if
TYPE_CHECKING:`` count too: a reader follows them as well.

The imports are read from the source (``ast``), not from a running interpreter, so a
lazy import in a function counts as much as one at the top. ``tests/integration/layers.rs`` does
the same for the Rust core.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "python" / "nimkit"

#: The layers of nimkit, bottom (layer 1) to top, as docs/guide/development.md lists
#: them. A new module goes in one of them.
LAYERS: list[tuple[str, list[str]]] = [
    ("the native core", ["nimkit._core"]),
    (
        "small helpers",
        ["nimkit._extras", "nimkit._files", "nimkit._progress", "nimkit._seeds"],
    ),
    (
        "positions and rules",
        [
            "nimkit.outcome",
            "nimkit.position",
            "nimkit.rules",
            "nimkit.presets",
            "nimkit._text",
            "nimkit.nimbers",
            "nimkit.misere",
            "nimkit.octal",
            "nimkit.certificate",
            "nimkit._facts",
            "nimkit.board_checker",
            "nimkit.sprouts_checker",
        ],
    ),
    ("the game protocol", ["nimkit.games"]),
    (
        "the families",
        [
            "nimkit.boards",
            "nimkit.board_checkpoint",
            "nimkit.board_certificate",
            "nimkit.cluster",
            "nimkit.value_table_cache",
            "nimkit.classical",
            "nimkit.coins",
            "nimkit.hackenbush",
            "nimkit.sprouts",
            "nimkit.sprouts_checkpoint",
            "nimkit.sprouts_table",
        ],
    ),
    (
        "analysis, explanation, graphs, play, tables, batch",
        [
            "nimkit.analysis",
            "nimkit.explain",
            "nimkit.solve",
            "nimkit.graph",
            "nimkit.playing",
            "nimkit.tables",
            "nimkit.batch",
            "nimkit.frames",
            "nimkit._classify",
            "nimkit.sequence_checkpoint",
            "nimkit.misere_codes",
        ],
    ),
    (
        "drawing",
        ["nimkit._drawing", "nimkit._layered", "nimkit.svg", "nimkit.graph_picture"],
    ),
    (
        "widgets, plots, command line, learning, interop",
        [
            "nimkit.widgets",
            "nimkit.plots",
            "nimkit.cli",
            "nimkit.cli._boards",
            "nimkit._terminal",
            "nimkit.__main__",
            "nimkit.rl",
            "nimkit.rl._board",
            "nimkit.rl._heap_tables",
            "nimkit.rl._gym",
            "nimkit.rl._aec",
            "nimkit.rl.jax",
            "nimkit.dask",
            "nimkit.openspiel",
        ],
    ),
    ("the package's names", ["nimkit"]),
]

#: Functions and methods that may import a higher layer: the pictures.
DRAWING = frozenset({"svg", "_repr_svg_"})


@dataclass(frozen=True)
class Import:
    """One import of one module of the package by another."""

    source: str
    target: str
    file: Path
    line: int
    text: str
    #: The innermost function or method around it, None at module level.
    function: str | None

    def where(self) -> str:
        inside = f" (in {self.function})" if self.function else ""
        return f"{self.file}:{self.line}: {self.text!r}{inside}"


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package at ``root`` (subpackages too), by dotted name; a
    native module (``.so`` or ``.pyd``) or a stub (``.pyi``) without a ``.py``
    counts as a module with no imports."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".pyi", ".so", ".pyd"):
            continue
        parts = path.relative_to(root).parts
        name = ".".join((package, *parts[:-1], parts[-1].split(".")[0]))
        if name.endswith(".__init__"):
            name = name.removesuffix(".__init__")
        if path.suffix == ".py" or name not in found:
            found[name] = path
    return found


def imports(root: Path, package: str) -> Iterator[Import]:
    """Every import of a module of the package by a module of it, read with ast."""
    files = module_files(root, package)
    for source, path in files.items():
        if path.suffix != ".py":
            continue
        is_package = path.name == "__init__.py"
        here = source if is_package else source.rpartition(".")[0]
        tree = ast.parse(path.read_text(), filename=str(path))
        yield from _walk(tree, None, source, here, path, files)


def _walk(
    node: ast.AST,
    function: str | None,
    source: str,
    here: str,
    path: Path,
    files: dict[str, Path],
) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        inside = function
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside = getattr(child, "name", "<lambda>")
        if isinstance(child, ast.Import):
            for alias in child.names:
                target = _module(alias.name, files)
                if target is not None:
                    text = f"import {alias.name}"
                    yield Import(source, target, path, child.lineno, text, function)
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                parts = here.split(".")
                parts = parts[: len(parts) - (child.level - 1)]
                base = ".".join([*parts, *([child.module] if child.module else [])])
            text = f"from {'.' * child.level}{child.module or ''} import " + ", ".join(
                alias.name for alias in child.names
            )
            targets: dict[str, None] = {}
            for alias in child.names:
                # ``from . import svg`` imports the module nimkit.svg.
                named = f"{base}.{alias.name}"
                target = named if named in files else _module(base, files)
                if target is not None:
                    targets[target] = None
            for target in targets:
                yield Import(source, target, path, child.lineno, text, function)
        yield from _walk(child, inside, source, here, path, files)


def _module(name: str, files: dict[str, Path]) -> str | None:
    """The module of the package that ``name`` is, or the one it lies in; None for
    names outside the package."""
    while name:
        if name in files:
            return name
        name = name.rpartition(".")[0]
    return None


def check(root: Path, package: str, layers: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """What breaks the layering of the package at ``root``: modules in no layer (or
    in the table but not in the package), imports of a higher layer outside
    ``svg``/``_repr_svg_``, and circles of imports at module level. Each message
    names the file, the line and the import."""
    files = module_files(root, package)
    level: dict[str, int] = {}
    problems: list[str] = []
    for number, (_, modules) in enumerate(layers):
        for module in modules:
            if module in level:
                problems.append(f"{module} is in two layers of the table")
            level[module] = number
    for module, path in files.items():
        if module not in level:
            problems.append(f"{path}: the module {module} is in no layer of the table")
    for module in level:
        if module not in files:
            problems.append(f"the table's module {module} is not in the package")
    found = list(imports(root, package))
    for imported in found:
        if imported.source not in level or imported.target not in level:
            continue
        source, target = level[imported.source], level[imported.target]
        if target > source and imported.function not in DRAWING:
            problems.append(
                f"{imported.where()}: {imported.source} (layer {source + 1}, "
                f"{layers[source][0]}) imports {imported.target} from a higher layer "
                f"({target + 1}, {layers[target][0]})"
            )
    problems += [
        "import circle at module level: " + " -> ".join(step.where() for step in circle)
        for circle in _circles([i for i in found if i.function is None])
    ]
    return problems


def _circles(found: list[Import]) -> list[list[Import]]:
    """One circle through each group of modules that import each other (a strongly
    connected component of the import graph, Tarjan's algorithm), as its imports."""
    edges: dict[str, dict[str, Import]] = {}
    for imported in found:
        if imported.source != imported.target:
            edges.setdefault(imported.source, {}).setdefault(imported.target, imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in edges.get(node, {}):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    circles = []
    for group in groups:
        members = set(group)
        # A path from the group's first module back to it, inside the group.
        start = min(group)
        path: list[Import] = []
        seen = {start}
        node = start
        while True:
            following = [i for t, i in sorted(edges[node].items()) if t in members]
            back = [i for i in following if i.target == start]
            step = back[0] if back else next(i for i in following if i.target not in seen)
            path.append(step)
            if step.target == start:
                break
            seen.add(step.target)
            node = step.target
        circles.append(path)
    return circles


def test_nimkit_is_in_layers():
    problems = check(PACKAGE, "nimkit", LAYERS)
    assert not problems, "\n".join(problems)


# The checker itself, on small packages written here: it must fail on each break.

FAKE_LAYERS = [
    ("bottom", ["fake._core", "fake.low", "fake.low2"]),
    ("middle", ["fake.mid"]),
    ("drawing", ["fake.draw"]),
    ("top", ["fake"]),
]


def fake_package(root: Path, sources: dict[str, str]) -> Path:
    package = root / "fake"
    package.mkdir()
    (package / "_core.pyi").write_text("def f() -> int: ...\n")
    modules = {"__init__": "", "low": "", "low2": "", "mid": "", "draw": "", **sources}
    for name, source in modules.items():
        (package / f"{name}.py").write_text(textwrap.dedent(source))
    return package


def test_a_clean_fake_package_passes(tmp_path):
    package = fake_package(
        tmp_path,
        {
            "__init__": "from . import mid\nfrom .draw import picture\n",
            "low": "from ._core import f\nfrom . import low2\n",
            "mid": """\
                from . import low
                import fake.low2
                from typing import TYPE_CHECKING

                class Thing:
                    def svg(self):
                        from .draw import picture
                        return picture(self)

                    def _repr_svg_(self):
                        from . import draw
                        return draw.picture(self)
                """,
            "draw": "from .mid import Thing\ndef picture(thing): ...\n",
        },
    )
    assert check(package, "fake", FAKE_LAYERS) == []


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("from .mid import Thing\n", 1),
        ("import fake.mid\n", 1),
        ("from . import mid\n", 1),
        ("import os\n\ndef helper():\n    from .draw import picture\n", 4),
        # Not a way round: an upward import under TYPE_CHECKING, or in a function
        # that is not a picture, or in one nested in a picture's method.
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import fake.mid\n", 3),
        ("def svg_helper():\n    from . import draw\n", 2),
        ("class A:\n    def svg(self):\n        def inner():\n            import fake\n", 4),
    ],
)
def test_an_upward_import_fails_naming_the_file_and_line(tmp_path, source, line):
    package = fake_package(tmp_path, {"low": source})
    (problem,) = check(package, "fake", FAKE_LAYERS)
    assert f"{package / 'low.py'}:{line}:" in problem
    assert "fake.low (layer 1, bottom) imports" in problem
    assert "from a higher layer" in problem


def test_an_upward_import_inside_a_picture_method_is_allowed(tmp_path):
    source = "class A:\n    def svg(self):\n        from . import draw\n"
    package = fake_package(tmp_path, {"low": source})
    assert check(package, "fake", FAKE_LAYERS) == []


def test_a_circle_at_module_level_fails(tmp_path):
    package = fake_package(
        tmp_path, {"low": "from . import low2\n", "low2": "\n\nfrom .low import x\n"}
    )
    (problem,) = check(package, "fake", FAKE_LAYERS)
    assert problem.startswith("import circle at module level: ")
    assert f"{package / 'low.py'}:1: 'from . import low2'" in problem
    assert f"{package / 'low2.py'}:3: 'from .low import x'" in problem


def test_a_circle_through_a_function_is_no_circle(tmp_path):
    package = fake_package(
        tmp_path,
        {"low": "from . import low2\n", "low2": "def later():\n    from .low import x\n"},
    )
    assert check(package, "fake", FAKE_LAYERS) == []


def test_a_module_in_no_layer_fails(tmp_path):
    package = fake_package(tmp_path, {"extra": "x = 1\n"})
    (problem,) = check(package, "fake", FAKE_LAYERS)
    assert problem == f"{package / 'extra.py'}: the module fake.extra is in no layer of the table"


def test_a_module_of_the_table_not_in_the_package_fails(tmp_path):
    package = fake_package(tmp_path, {})
    (package / "low2.py").unlink()
    assert check(package, "fake", FAKE_LAYERS) == [
        "the table's module fake.low2 is not in the package"
    ]


def test_the_real_package_fails_with_an_upward_import_added(tmp_path):
    # The same check on a copy of nimkit with one upward import added to rules.py.
    import shutil

    copy = tmp_path / "nimkit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    rules = copy / "rules.py"
    rules.write_text(rules.read_text() + "\n\ndef later():\n    from .analysis import analyse\n")
    problems = check(copy, "nimkit", LAYERS)
    assert len(problems) == 1
    assert "rules.py" in problems[0]
    assert "'from .analysis import analyse' (in later)" in problems[0]
