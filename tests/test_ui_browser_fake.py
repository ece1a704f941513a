"""The page in real Chromium on a fake chat model: what it delivers is the translation, and a
sentence the model added (one restating the instructions) is shown removed, never as checked."""

from __future__ import annotations

import pytest

from assistant.chain import Assistant
from tests.fakes import StepFake
from tests.test_fidelity import ECHOES, REFERENCE, SOURCE
from tests.browser import launch_chromium, send, serving

ECHO = ECHOES[0]  # "Je m'adresse à vous formellement.", as a real run appended it


@pytest.fixture
def fake_app_url():
    from ui.server import build_app

    fake = StepFake(translate=[f"{REFERENCE} {ECHO}"], calls=[])
    with serving(build_app(Assistant(fake, "fake:m"), "fake:m")) as url:
        yield url


def test_an_added_sentence_is_cut_from_the_page_and_never_ticked(fake_app_url):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=60_000)  # two busy cores
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(fake_app_url)
        send(page, SOURCE)
        page.get_by_role("button", name="formal — « vous »", exact=True).click()
        page.get_by_role("button", name="a man or men (masculine forms)", exact=True).click()  # "intolérant"
        account = page.locator("#account")
        expect(account).to_contain_text(f"✂ removed « {ECHO} »: the source does not say it")
        expect(page.locator("#translation textarea")).to_have_value(REFERENCE)
        expect(page.locator("#chat")).to_contain_text(REFERENCE)
        expect(page.locator("#chat")).not_to_contain_text(f"{REFERENCE} {ECHO}")  # nor in the chat's result
        expect(account).to_contain_text("✓ formal address: « vous »")
        ticked = [line for line in account.inner_text().splitlines() if "✓" in line]
        assert not [line for line in ticked if "added" in line or "removed" in line or ECHO in line], ticked
        assert not [line for line in ticked if "accord" in line], ticked  # "d'accord" is nobody's gender
        browser.close()
