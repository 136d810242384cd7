"""The documentation runs: every docstring example, and every Python block and command
sample of the README and of the guide's pages (docs/guide/) gives exactly the output
it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import nimkit

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
#: The README and the guide's chapters: each one's examples run in order, on their own.
PAGES = [README, *sorted((ROOT / "docs" / "guide").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def page_blocks(page: Path, *languages: str) -> list[tuple[str, str]]:
    """A page's fenced blocks in these languages, in order, with their language."""
    return [(lang, code) for lang, code in BLOCK.findall(page.read_text()) if lang in languages]


def doc_blocks(*languages: str) -> list[tuple[str, str]]:
    """The fenced blocks of the README and every guide page, page by page."""
    return [block for page in PAGES for block in page_blocks(page, *languages)]


def modules() -> list[str]:
    names = [info.name for info in pkgutil.walk_packages(nimkit.__path__, "nimkit.")]
    # __main__ runs the command line when imported.
    return ["nimkit", *sorted(name for name in names if name != "nimkit.__main__")]


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring examples of {name} failed"


def test_native_docstring_examples():
    """The native classes' examples (doctest's finder skips extension types)."""
    from nimkit import _core

    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {**vars(_core), "nk": nimkit}
    found = 0
    for class_name, cls in vars(_core).items():
        if not isinstance(cls, type):
            continue
        for attr_name, attr in [("", cls), *vars(cls).items()]:
            doc = getattr(attr, "__doc__", None)
            if isinstance(doc, str) and ">>>" in doc:
                name = f"nimkit._core.{class_name}.{attr_name}".rstrip(".")
                runner.run(parser.get_doctest(doc, dict(globs), name, None, 0))
                found += 1
    assert found >= 4
    assert runner.failures == 0


def test_every_public_module_has_examples():
    # The examples are the documentation's: a module with none is a gap.
    finder = doctest.DocTestFinder(exclude_empty=True)
    tried = {
        name: sum(len(test.examples) for test in finder.find(importlib.import_module(name)))
        for name in modules()
    }
    public = [name for name in tried if not name.startswith("nimkit._")]
    missing = [name for name in public if not tried[name]]
    assert not missing, f"public modules without a docstring example: {missing}"


def test_the_guide_has_its_chapters():
    names = {page.stem for page in PAGES[1:]}
    assert {"heaps", "sums", "classical", "misere", "batch", "play", "limits"} <= names
    assert len(README.read_text().splitlines()) <= 300, "the README is a front door"
    assert sum(lang == "pycon" for lang, _ in doc_blocks("pycon")) > 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_page_python_blocks_run_in_order(page, tmp_path, monkeypatch):
    """A page's ``python`` blocks run, and its ``pycon`` blocks give exactly the
    results they show (doctest), in order, in one namespace: no shown result can go
    stale."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)  # blocks that write files write them here
    namespace: dict[str, object] = {}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    blocks = page_blocks(page, "python", "pycon")
    for number, (lang, code) in enumerate(blocks, 1):
        name = f"{page.name}, block {number}"
        if lang == "python":
            exec(compile(code, name, "exec"), namespace)
        else:
            test = parser.get_doctest(code, namespace, name, None, 0)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # a DocTest runs in a copy of the namespace
    differ = runner.failures
    assert differ == 0, f"{differ} results of {page.name} differ from what they show"


#: A comment that reads as a result (a value, a tuple, an outcome...): results belong in
#: ``pycon`` blocks, where the test checks them.
RESULT_COMMENT = re.compile(
    r"^\s*(\(|\[|\{|'|\"|-?\d|Outcome\.|True|False|None|array\(|Position\(|Move\(|"
    r"Rules\(|[A-Z]\w*Error)"
)


def test_readme_python_blocks_show_no_unchecked_results():
    import ast
    import io
    import tokenize

    for lang, code in doc_blocks("python"):
        del lang
        comments = {
            token.start[0]: token.string.lstrip("#")
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type == tokenize.COMMENT
        }
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant):
                comment = comments.get(node.end_lineno or node.lineno, "")
                assert not RESULT_COMMENT.match(comment), (
                    f"a result shown in a comment of a python block: {comment!r}; "
                    "show it in a pycon block, where it is checked"
                )


def test_readme_shell_commands_run(tmp_path):
    """Every ``nimkit`` command the README's shell blocks show runs and succeeds, on
    input files made for them (``nimkit play`` reads an empty standard input and
    says goodbye)."""
    import numpy as np

    heaps = np.random.default_rng(0).integers(0, 30, size=(1000, 4))
    np.save(tmp_path / "positions.npy", heaps)
    np.savetxt(tmp_path / "positions.csv", heaps, fmt="%d", delimiter=",")
    lines = [
        line.split("#", 1)[0].strip()
        for _, block in doc_blocks("sh", "")
        for line in block.splitlines()
    ]
    commands = [
        line.partition("&& ")[2] if line.startswith("pip install") else line for line in lines
    ]
    commands = [command for command in commands if command.startswith("nimkit ")]
    assert len(commands) >= 7
    for command in commands:
        args = shlex.split(command.removeprefix("nimkit "))
        result = subprocess.run(
            [sys.executable, "-m", "nimkit", *args],
            capture_output=True,
            text=True,
            timeout=300,
            input="",
            cwd=tmp_path,
        )
        assert result.returncode == 0, (command, result.stderr)
    assert np.load(tmp_path / "p.npy").shape == (1000,)
    assert np.load(tmp_path / "values.npy")[:4].tolist() == [0, 1, 2, 3]


#: The one line of a command sample that differs from run to run.
TIME = re.compile(r"^time: \d+\.\d+ s$", re.MULTILINE)


def test_readme_command_samples_are_what_the_commands_print():
    samples = [
        block for _, block in doc_blocks("text", "console") if block.startswith("$ nimkit ")
    ]
    assert len(samples) >= 4
    for sample in samples:
        command, _, shown = sample.partition("\n")
        args = shlex.split(command.removeprefix("$ nimkit "))
        result = subprocess.run(
            [sys.executable, "-m", "nimkit", *args], capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr
        printed = TIME.sub("time: ... s", result.stdout.rstrip())
        assert printed == TIME.sub("time: ... s", shown.rstrip()), command


#: The site's pages and the README, whose links point into them.
LINKING = [README, *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs").glob("*/*.md"))]


def rendered(page: Path) -> tuple[list[str], set[str]]:
    """A page's link and image targets and its headings' anchors, as mkdocs makes
    them (Python-Markdown's toc; code blocks hold neither)."""
    import markdown

    md = markdown.Markdown(extensions=["admonition", "pymdownx.superfences", "toc"])
    html = md.convert(page.read_text())
    targets = re.findall(r'<(?:a|img) [^>]*?(?:href|src)="([^"]*)"', html)
    ids: set[str] = set()
    tokens = list(md.toc_tokens)
    while tokens:
        token = tokens.pop()
        ids.add(token["id"])
        tokens.extend(token["children"])
    return targets, ids


def test_internal_links_and_anchors_resolve():
    """Every relative link of the site's pages and the README names a file that
    exists and, with #anchor, a heading of that page: mkdocs --strict catches these
    too (mkdocs.yml's validation), but only after a build of minutes."""
    from urllib.parse import unquote, urlsplit

    broken = []
    for page in LINKING:
        targets, _ = rendered(page)
        for target in targets:
            parts = urlsplit(target)
            if parts.scheme or parts.netloc:
                continue
            linked = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif linked.suffix == ".md" and parts.fragment not in {"", *rendered(linked)[1]}:
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)
    assert len(LINKING) > 20
