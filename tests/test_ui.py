"""The web UI on the real small model: through Gradio's API client and in a real browser."""

from __future__ import annotations

import re

import pytest

from assistant.chain import Assistant
from tests.browser import ARTIFACTS, launch_chromium, send, serving

pytestmark = pytest.mark.real_model

QUESTION_SOURCE = "Can you help me?"
# Long enough that its translation streams in several pieces a person can see arrive.
BROWSER_SOURCE = "Can you help me carry these boxes to the car after lunch?"
SECOND_SOURCE = "Do you know where the station is?"
STOPPED_SOURCE = "Where is the station? We would like to take the last train to the coast tonight."
# Records each value the translation box shows (Gradio sets the textarea's value, which no
# DOM mutation reports, so the page is polled).
WATCH_TRANSLATION = """() => {
    window.seenTranslations = [];
    window.watchTranslation = setInterval(() => {
        const box = document.querySelector('#translation textarea');
        const seen = window.seenTranslations;
        if (box && seen[seen.length - 1] !== box.value) seen.push(box.value);
    }, 10);
}"""
STOP_WATCHING = "() => { clearInterval(window.watchTranslation); return window.seenTranslations; }"


@pytest.fixture(scope="module")
def app_url(hf_model, test_model_path):
    from assistant.backends import ModelSpec
    from ui.server import build_app

    spec = ModelSpec.parse(f"transformers:{test_model_path}")
    with serving(build_app(Assistant.for_model(hf_model, spec), str(spec))) as url:
        yield url


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


def test_browser_flow(app_url, measure):
    """A translator's session in real Chromium: question, streamed translation, alternatives, a
    changed answer, a preference, Clear with a question pending, a reload, and a phone screen."""
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    measure(f"browser screenshots: {ARTIFACTS}")
    slow = 600_000  # one model call takes up to a minute on 2 busy cores
    expect.set_options(timeout=30_000)  # what the page does at once can still wait for a busy CPU
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(app_url)
        translation, account = page.locator("#translation textarea"), page.locator("#account")
        chat, status = page.locator("#chat"), page.locator("#status")

        # The question names its word, highlighted in the source; the buttons say what they mean.
        send(page, BROWSER_SOURCE)  # the register is asked at once: no model call, no status to wait on
        formal = page.get_by_role("button", name="formal — « vous »", exact=True)
        expect(formal).to_be_visible(timeout=slow)
        expect(page.locator("#question-source")).to_contain_text("you")
        expect(chat).to_contain_text("“you”")
        expect(status).to_have_text("")
        page.screenshot(path=str(ARTIFACTS / "ui-question.png"))

        # Skip: the translation goes into its box piece by piece as the model writes it, the status
        # line timed; then the variants come as cards, and one of them is used.
        page.evaluate(WATCH_TRANSLATION)
        page.get_by_role("button", name="skip — offer me the variants").click()
        expect(status).to_contain_text(re.compile(r"⏳ \w.* \d+ s"))
        expect(page.locator("#use-1")).to_be_visible(timeout=slow)
        final = translation.input_value()
        partial = {value for value in page.evaluate(STOP_WATCHING) if value.strip() and value != final}
        assert final.strip() and len(partial) >= 2, (partial, final)
        measure(f"browser: the translation box showed {len(partial)} partial values before {final!r}")
        expect(status).to_have_text("")
        page.screenshot(path=str(ARTIFACTS / "ui-alternatives.png"), full_page=True)
        formal_variant = page.locator("#alternative-0 textarea").input_value()
        page.locator("#use-0").click()
        expect(account).to_contain_text("you → formal, because the card you picked")
        expect(translation).to_have_value(formal_variant)

        # Change the answer: translated again at once, nothing asked again.
        page.locator("#answer-choice-0 input").click()
        page.get_by_role("option", name="informal — « tu »").click()
        page.locator("#change-0").click()
        expect(chat).to_contain_text("Change: “you” → informal")
        expect(account).to_contain_text("you → informal, because you said", timeout=slow)
        expect(status).to_have_text("")
        page.screenshot(path=str(ARTIFACTS / "ui-translation.png"), full_page=True)

        # Clear with a question pending: the next text is a new text, not the answer.
        send(page, QUESTION_SOURCE)
        expect(formal).to_be_visible(timeout=slow)
        chat.get_by_role("button", name="Clear").click()
        send(page, "Where is the station?")
        expect(chat).to_contain_text("Where is the station?")
        # Done only once its account is shown (Clear emptied the account): a draft in the box, or a status
        # line the 1-second timer has not refreshed yet, does not mean done, and Translate is ignored while
        # a text runs.
        expect(account).to_contain_text("cost:", timeout=slow)
        expect(account).not_to_contain_text("you →")
        expect(translation).not_to_have_value("")
        expect(chat).not_to_contain_text(QUESTION_SOURCE)
        expect(status).to_have_text("", timeout=slow)

        # A preference applies without asking, and the account says so.
        page.get_by_role("button", name="Preferences").click()
        page.locator("#register").get_by_text("formal", exact=True).click()
        expect(page.locator("#preferences-view")).to_contain_text("you → formal")
        send(page, SECOND_SOURCE)
        expect(account).to_contain_text("your setting", timeout=slow)
        expect(formal).to_have_count(0)

        # Stop, whatever runs: no spinner left, nothing pending, no half-written translation left in
        # its box, the page ready for the next text.
        finished = translation.input_value()
        send(page, STOPPED_SOURCE)
        expect(translation).not_to_have_value(finished, timeout=slow)  # its draft is being written
        page.locator("#stop").click()
        expect(chat).to_contain_text("Stopped.")
        expect(translation).to_have_value(finished)
        expect(status).to_have_text("")
        expect(chat.get_by_text("Working")).to_have_count(0)

        # The conversation and the preference survive a reload; a phone sees the input first.
        page.reload()
        expect(page.locator("#chat")).to_contain_text(STOPPED_SOURCE)
        page.get_by_role("button", name="Preferences").click()
        expect(page.locator("#register").get_by_role("radio", name="formal", exact=True)).to_be_checked()
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(app_url)
        box = page.get_by_placeholder("English text to translate").bounding_box()
        assert box and box["y"] + box["height"] <= 844, box
        expect(page.locator("#chat")).to_contain_text(SECOND_SOURCE)
        page.screenshot(path=str(ARTIFACTS / "ui-phone.png"))
        browser.close()


def test_browser_file_sheet(app_url, tmp_path, measure):
    """A .po of real Django strings in real Chromium on the real model: the sheet is shown on upload, one
    click answers each question, the translation and the answers (a profile) are downloaded, and each unit's
    comment names the answer that shaped it."""
    import time

    import polib
    import yaml
    from playwright.sync_api import expect, sync_playwright

    from tests.browser import translate_and_download, upload_a_file
    from tests.test_ui_page import CATALOGUE

    source = tmp_path / "accounts.po"
    source.write_text(CATALOGUE, encoding="utf-8")
    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(app_url)
        upload_a_file(page, source)
        expect(page.locator("#sheet-header")).to_contain_text("for the whole file (4 segments)", timeout=300_000)
        register, person = page.locator("#sheet-question-0"), page.locator("#sheet-question-1")
        expect(register.locator(".highlighted").first).to_have_text("You")
        expect(person.locator(".highlighted").first).to_have_text("this user")
        register.get_by_label("formal — « vous »").check()
        person.get_by_label("a woman (feminine forms)").check()
        started = time.monotonic()
        translation, profile = translate_and_download(page, timeout_ms=600_000)
        seconds = time.monotonic() - started
        written = polib.pofile(translation.read_text(encoding="utf-8"))  # downloads go with the browser
        answers = yaml.safe_load(profile.read_text(encoding="utf-8"))
        browser.close()
    assert all(entry.msgstr for entry in written)
    notes = {entry.msgid: entry.tcomment for entry in written}
    assert notes["Your password was changed."] == "intercpt: Your → formal (answered for the whole file)"
    assert notes["Specific permissions for this user."] == "intercpt: this user → a woman (answered for the whole file)"
    assert answers == {"register": {"fr": "formal"}, "people": {"user": "a woman"}}
    measure(f"browser, file sheet on the real model: 4 units translated in {seconds:.1f} s; "
            f"{[entry.msgstr for entry in written]}")
