"""The web UI on the real small model: through Gradio's API client and in a real browser."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest

from assistant.chain import PROMPT_VARIANTS, Assistant

pytestmark = pytest.mark.real_model

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUESTION_SOURCE = "Can you help me?"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def app_url(hf_model, test_model_path):
    from ui.app import build_demo

    spec = f"transformers:{test_model_path}"
    assistants = {variant: Assistant(hf_model, spec, prompts=variant) for variant in PROMPT_VARIANTS}
    demo = build_demo(assistants, spec)
    port = _free_port()
    demo.queue().launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    yield f"http://127.0.0.1:{port}/"
    demo.close()


def _chat(client, message: str):
    return client.predict(message, "fr", "intercpt", 3, "generalist", False, "", None, api_name="/chat")


def _messages(response) -> list[dict]:
    return response if isinstance(response, list) else [response]


def test_api_client_question_answer_translation(app_url):
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    chat, translation, _account, transcript = _chat(client, QUESTION_SOURCE)
    asked = [m for m in _messages(chat) if m.get("options")]
    assert asked, chat
    labels = [o.get("value") or o.get("label") for o in asked[-1]["options"]]
    assert "formal" in labels and "skip" in labels

    other = Client(app_url, verbose=False)  # another person's session, in between
    other_chat, other_translation, _, other_transcript = _chat(other, "Where is the station?")
    assert other_transcript["source"] == "Where is the station?" and other_translation

    chat, translation, account, transcript = _chat(client, "formal")
    assert translation and transcript["source"] == QUESTION_SOURCE
    assert transcript["turns"][0]["answer"] == "formal" and transcript["turns"][0]["answered_by"] == "human"
    assert "you → formal" in account


def test_api_translate_endpoint(app_url):
    from gradio_client import Client

    transcript = Client(app_url, verbose=False).predict(
        text=QUESTION_SOURCE, target_lang="de", method="intercpt", context="", answers=["informal"],
        max_questions=3, api_name="/translate")
    assert transcript["translation"] and transcript["target_lang"] == "de"
    assert transcript["turns"] and transcript["turns"][0]["answer"] == "informal"


def test_bad_input_is_a_message_not_a_crash(app_url):
    from gradio_client import Client

    chat, *_ = Client(app_url, verbose=False).predict("   ", "fr", "intercpt", 3, "generalist", False, "", None,
                                                       api_name="/chat")
    assert "nothing to translate" in str(chat)


def test_browser_flow(app_url):
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(app_url)
        box = page.get_by_placeholder("English text to translate")
        box.fill(QUESTION_SOURCE)
        box.press("Enter")
        formal = page.get_by_role("button", name="formal", exact=True)
        expect(formal).to_be_visible(timeout=300_000)
        page.screenshot(path=str(ARTIFACTS / "ui-question.png"))
        formal.click()
        translation = page.locator("#translation textarea")
        expect(translation).not_to_have_value("", timeout=300_000)
        page.screenshot(path=str(ARTIFACTS / "ui-translation.png"), full_page=True)
        assert translation.input_value().strip()
        browser.close()
