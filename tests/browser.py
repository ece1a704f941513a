"""What the browser tests share: Debian's Chromium under Playwright, the server in a thread of the test
process, where screenshots go, and how a person sends a text."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live_server import free_port

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START_S = 120.0  # the page's first start on a busy 2-core machine


def launch_chromium(playwright):
    """Debian's chromium (never a downloaded one); missing, it skips the test, or fails it under CI."""
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed")
    return playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)


@contextmanager
def serving(app) -> Iterator[str]:
    """``app`` (``ui.server.build_app``'s, as ``intercpt ui`` serves it) on a free loopback port; its URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_S
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


def send(page, text: str) -> None:
    """Type ``text`` in the input box and press Translate."""
    page.get_by_placeholder("English text to translate").fill(text)
    page.locator("#send").click()


def upload_a_file(page, path: Path) -> None:
    """Open the page's file panel and upload ``path``: its question sheet is read."""
    page.locator("#file-area").get_by_text("Translate a file").click()
    page.locator("#file-upload input[type=file]").set_input_files(str(path))


def translate_and_download(page, timeout_ms: float | None = None) -> tuple[Path, Path]:
    """Press the file panel's Translate, wait for the summary, download the translation and the answers
    kept as a project profile: their paths."""
    from playwright.sync_api import expect

    page.locator("#translate-file").click()
    expect(page.locator("#file-summary")).to_contain_text("applied your answers to the whole file",
                                                          timeout=timeout_ms)
    with page.expect_download() as translation:
        page.locator("#file-download").click()
    with page.expect_download() as profile:
        page.locator("#profile-download").click()
    return translation.value.path(), profile.value.path()
