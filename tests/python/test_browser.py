"""The tour notebook in a real browser: JupyterLab under headless Chromium (Debian's
chromium and chromium-driver, driven by selenium) runs examples/tour.ipynb, the
SVG pictures render with a size, and a move played on the widget's board is
answered. CI installs the browser (.ci/run); without it the test is skipped.

Run alone: pytest tests/python/test_browser.py
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
# CI sets this: there the browser must be present, and the test must run.
REQUIRED = os.environ.get("NIMKIT_REQUIRE_BROWSER") == "1"
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytest.importorskip("jupyterlab", reason="jupyterlab is not installed")
pytestmark = pytest.mark.skipif(
    (CHROMIUM is None or CHROMEDRIVER is None) and not REQUIRED,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)

TOUR = Path(__file__).parents[2] / "examples" / "tour.ipynb"
TOKEN = "nimkit-browser-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A JupyterLab server on 127.0.0.1 serving a copy of the tour; its URL."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(TOUR, root / "tour.ipynb")
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            f"--ServerApp.token={TOKEN}",
            f"--ServerApp.root_dir={root}",
            "--LabApp.expose_app_in_browser=True",
            "--allow-root",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("JupyterLab did not start") from None
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(flag)
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, script: str, timeout: float = 180) -> Any:
    """Poll a JavaScript expression until it is truthy; return its value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for: {script}")


RUN_ALL = """
const done = arguments[arguments.length - 1];
const app = window.jupyterapp;
const panel = app.shell.currentWidget;
panel.sessionContext.ready
  .then(() => app.commands.execute('notebook:run-all-cells'))
  .then(() => done('ran'), (err) => done('error: ' + err));
"""

# Every code cell has run (an execution count) and the kernel is idle.
FINISHED = """(() => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.sessionContext.session) return false;
  const cells = panel.content.widgets.filter((c) => c.model.type === 'code');
  const status = panel.sessionContext.session.kernel.status;
  return status === 'idle' && cells.every((c) => c.model.executionCount !== null);
})()"""

ERRORS = """return Array.from(document.querySelectorAll(
  '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
)).map((e) => e.innerText)"""

# Every SVG picture the outputs show, with its drawn size: inline (the widget's
# board) or as an image (JupyterLab shows an untrusted notebook's SVG output through
# <img>; naturalWidth is 0 when the image failed to decode).
SVG_SIZES = """return Array.from(document.querySelectorAll(
  '.jp-RenderedSVG img, .jp-RenderedSVG svg, .jp-RenderedHTMLCommon svg, .widget-html svg'
)).map((e) => {
  const r = e.getBoundingClientRect();
  const decoded = e.tagName.toLowerCase() === 'img' ? e.naturalWidth : r.width;
  return [r.width, r.height, decoded];
})"""


# The loopy game graph's D-positions and moves back, drawn with a size (inline SVG in
# the game's HTML output).
LOOPY = """const sized = (selector) => Array.from(document.querySelectorAll(selector))
  .filter((e) => e.getBoundingClientRect().width > 0).length;
return {draws: sized('rect.d-position'), back: sized('path.back')};"""


ENTER = """const box = arguments[0];
for (const type of ['keydown', 'keypress', 'keyup']) {
  box.dispatchEvent(new KeyboardEvent(type, {key: 'Enter', code: 'Enter', keyCode: 13,
                                             which: 13, bubbles: true}));
}"""


def test_the_tour_runs_in_jupyterlab_and_the_board_plays(lab: str, browser: Any) -> None:
    browser.set_script_timeout(120)
    browser.get(f"{lab}/lab/tree/tour.ipynb?token={TOKEN}")
    wait_for(
        browser,
        "window.jupyterapp && window.jupyterapp.shell.currentWidget "
        "&& window.jupyterapp.shell.currentWidget.sessionContext !== undefined",
    )
    assert browser.execute_async_script(RUN_ALL) == "ran"
    wait_for(browser, FINISHED)
    assert browser.execute_script(ERRORS) == []
    sizes = browser.execute_script(SVG_SIZES)
    # The analysis, the game, the game graph, the sum's graph, the loopy graph and the
    # widget's board, at least.
    assert len(sizes) >= 6, sizes
    assert all(width > 50 and height > 20 and decoded for width, height, decoded in sizes), sizes

    # The loopy graph's draws and its move back are drawn, with a size.
    drawn = browser.execute_script(LOOPY)
    assert drawn == {"draws": 3, "back": 1}

    # The board (thirteen lights, the computer opened): take 1 from heap 0.
    wait_for(browser, "document.querySelector('.widget-button') !== null")
    status_before = board_status(browser)
    assert "Your move" in status_before or "The computer" in status_before
    take = browser.find_element("css selector", ".widget-text input")
    take.clear()
    take.send_keys("1")
    move = next(b for b in browser.find_elements("css selector", "button") if b.text == "Move")
    move.click()
    answer = wait_for(
        browser,
        "Array.from(document.querySelectorAll('.widget-html-content'))"
        ".map((e) => e.innerText).find((t) => t.includes('The computer plays'))",
        timeout=60,
    )
    assert "The computer plays" in answer
    # The board picture lists the move under the player's name.
    assert "you: take 1 from heap 0" in browser.execute_script("return document.body.innerText")
    # Enter in the take box plays too.
    take = browser.find_element("css selector", ".widget-text input")
    take.clear()
    take.send_keys("2")
    # ipywidgets holds a value change back while the kernel is busy but sends the
    # Enter (a message of its own) at once: had the kernel not heard "2" yet, it would
    # read the old take. A person types slower; here the kernel is let go idle first.
    settled(browser)
    # The Enter goes to the box itself (a keypress, which the widget listens to), not
    # through the window, where JupyterLab's shortcuts may take it first.
    browser.execute_script(ENTER, take)
    try:
        wait_for(browser, "document.body.innerText.includes('you: take 2 from heap 0')", 60)
    except AssertionError:
        value = browser.execute_script("return arguments[0].value", take)
        raise AssertionError((value, board_status(browser))) from None


KERNEL_IDLE = "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"


def settled(browser: Any) -> None:
    """Wait until the kernel is idle at two looks in a row (the held-back value
    change is sent when it goes idle, and answered before it is idle again)."""
    idle = 0
    deadline = time.monotonic() + 60
    while idle < 2:
        assert time.monotonic() < deadline, "the kernel stayed busy"
        idle = idle + 1 if browser.execute_script(f"return {KERNEL_IDLE}") == "idle" else 0
        time.sleep(0.5)


def board_status(browser: Any) -> str:
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('.widget-html-content'))"
        ".map((e) => e.innerText)"
    )
    return " ".join(texts)
