"""The tour notebook in a real browser: JupyterLab under headless Chromium (Debian's
chromium and chromium-driver, driven by selenium) runs examples/tour.ipynb, the
SVG pictures render with a size, and a move played on the widget's board is
answered. CI installs the browser (.ci/run); without it the test is skipped.

Run alone: pytest tests/test_browser.py
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

TOUR = Path(__file__).parents[1] / "examples" / "tour.ipynb"
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
    # The analysis, the game, the game graph and the widget's board, at least.
    assert len(sizes) >= 4, sizes
    assert all(width > 50 and height > 20 and decoded for width, height, decoded in sizes), sizes

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
    from selenium.webdriver.common.keys import Keys

    take = browser.find_element("css selector", ".widget-text input")
    take.clear()
    take.send_keys("2", Keys.ENTER)
    wait_for(browser, "document.body.innerText.includes('you: take 2 from heap 0')", timeout=60)


def board_status(browser: Any) -> str:
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('.widget-html-content'))"
        ".map((e) => e.innerText)"
    )
    return " ".join(texts)
