"""The page in real Chromium against the real server (``build_app``, as ``intercpt ui`` serves it) on a fake
chat model: what is on screen when, on a desktop and on a phone (issue #28). The real model's browser test
is in test_ui.py."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest

from assistant.chain import Assistant
from tests.browser import ARTIFACTS, launch_chromium, send, serving, translate_and_download, upload_a_file
from tests.fakes import StepFake, prompt_step
from ui.labels import SKIP_LABEL

SOURCE = "Can you help me?"
# The fake's translation under each answer its prompt carries, and its guess under none.
BY_ANSWER = {"A: formal": "Pouvez-vous m'aider ?", "A: informal": "Peux-tu m'aider ?", "A: polite": "手伝ってくれますか。"}
OTHER = "Could you sign the form?"  # a second text, asked about as the first
GUESS = "Tu pourrais m'aider ?"
TRANSLATE_WAIT_S = 120.0  # the longest a held translation waits for its test
# Set, the fake translates at once; cleared (``held_translations``), a translation waits until it is set.
TRANSLATIONS = threading.Event()
TRANSLATIONS.set()
DESKTOP = {"width": 1280, "height": 1000}
PHONE = {"width": 390, "height": 844}
TOUCH_PX = 44  # the smallest touch target


class PageFake(StepFake):
    """Asks about "you" (the decide queue's default) and translates by the answer its prompt carries,
    once ``TRANSLATIONS`` lets it."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if prompt_step(run_manager) == "translate":
            assert TRANSLATIONS.wait(TRANSLATE_WAIT_S), "a held translation was never let go"
            prompt = messages[-1].content
            self.translate = [next((text for said, text in BY_ANSWER.items() if said in prompt), GUESS)]
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture(scope="module")
def page_url():
    from ui.server import build_app

    fake = PageFake(detect=['{"ambiguous": false}'], calls=[])  # a file's words of open senses: none
    with serving(build_app(Assistant(fake, "fake:m"), "fake:m")) as url:
        yield url


@pytest.fixture
def held_translations() -> Iterator[threading.Event]:
    """Translations wait until the test sets the event it gets (and at its end)."""
    TRANSLATIONS.clear()
    yield TRANSLATIONS
    TRANSLATIONS.set()


@pytest.fixture
def browser():
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    expect.set_options(timeout=20_000)  # a busy 2-core machine
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


def open_page(browser, url: str, viewport: dict):
    """The page in a fresh browser context whose clipboard a test may read."""
    context = browser.new_context(viewport=viewport, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(url)
    return page


def ask(page):
    """Send the source and wait for its question; the "formal" answer button."""
    from playwright.sync_api import expect

    send(page, SOURCE)
    formal = page.get_by_role("button", name="formal — « vous »", exact=True)
    expect(formal).to_be_visible()
    return formal


def test_the_question_panel_shows_only_while_a_question_is_open(page_url, browser, held_translations):
    """Item 3: after the last answer, "The word in question" and "My message answers the question" go, during
    the translation and after it."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    panel = [page.locator("#question-source"), page.locator("#as-answer")]
    formal = ask(page)
    for part in panel:
        expect(part).to_be_visible()
    formal.click()
    expect(page.locator("#status")).to_contain_text("Translating")
    for part in panel:
        expect(part).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "page-translating-after-the-answer.png"))
    held_translations.set()
    expect(page.locator("#translation textarea")).to_have_value(BY_ANSWER["A: formal"])
    expect(page.locator("#status")).to_have_text("")
    for part in panel:
        expect(part).to_be_hidden()


def test_a_text_typed_while_the_last_one_translates_stays_in_the_box(page_url, browser, held_translations):
    """The next text, typed while the last one is translated, is still there when that translation ends."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    send(page, "The weather was fine.")  # nothing to ask: the request's first view is its end
    expect(page.locator("#status")).to_contain_text("Translating")
    box = page.get_by_placeholder("English text to translate")
    box.fill(OTHER)
    held_translations.set()
    expect(page.locator("#translation textarea")).to_have_value(GUESS)
    expect(page.locator("#status")).to_have_text("")
    expect(box).to_have_value(OTHER)


def test_after_skip_the_box_says_what_it_assumes_and_each_card_copies_and_is_used(page_url, browser):
    """Item 4: the translation box says which card it is, or that it assumes neither; each card has a copy
    button; "Use this one" is recorded as the card picked, and the chat shows the text picked."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    translation, note = page.locator("#translation textarea"), page.locator("#translation-note")
    account, replies = page.locator("#account"), page.locator("#chat .bot-row")
    ask(page)
    page.get_by_role("button", name=SKIP_LABEL).click()
    expect(page.locator("#use-1")).to_be_visible()
    expect(translation).to_have_value(GUESS)
    expect(note).to_contain_text("neither")  # the guess is neither card's text
    page.screenshot(path=str(ARTIFACTS / "page-variants.png"), full_page=True)
    for i, variant in enumerate((BY_ANSWER["A: formal"], BY_ANSWER["A: informal"])):
        card = page.locator(f"#alternative-{i}").first
        expect(card).to_contain_text(f"you → {('formal', 'informal')[i]}")
        card.get_by_role("button", name="Copy").click()
        page.wait_for_function("text => navigator.clipboard.readText().then(copied => copied === text)", arg=variant)

    page.locator("#use-0").click()
    expect(translation).to_have_value(BY_ANSWER["A: formal"])
    expect(note).to_contain_text("you → formal")
    expect(account).to_contain_text("you → formal, because the card you picked")
    expect(account).not_to_contain_text("because you said")
    expect(replies.last).to_contain_text(BY_ANSWER["A: formal"])
    page.screenshot(path=str(ARTIFACTS / "page-variant-used.png"), full_page=True)


def test_on_a_phone_the_question_shows_whole_the_translation_comes_before_the_settings_and_targets_are_big(
        page_url, browser):
    """Item 6, on a 390×844 screen: a question asked after a translation shows whole in the chat without
    scrolling it, the translation comes before Settings and Preferences, and every button a person taps
    is at least 44 px tall."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, PHONE)
    ask(page)
    page.get_by_role("button", name=SKIP_LABEL).click()
    expect(page.locator("#use-1")).to_be_visible()
    translation = page.locator("#translation").bounding_box()
    for folded in ("#settings", "#preferences"):
        assert translation["y"] < page.locator(folded).bounding_box()["y"], folded
    for target in ("#send", "#stop", "#use-0", "#use-1", "#change-0"):
        assert page.locator(target).bounding_box()["height"] >= TOUCH_PX, target

    ask(page)  # the same text again: a second question below the first translation
    page.evaluate("s => window.scrollBy(0, document.querySelector(s).getBoundingClientRect().top)", "#chat")
    page.screenshot(path=str(ARTIFACTS / "page-phone-question.png"))
    options = page.locator("#chat button.option")
    expect(options.first).to_be_visible()
    # whole on the screen, as the chat box scrolled itself (the page scrolled to the chat box's top)
    for part in [page.locator("#chat .bot-row").last.locator("p").first, *options.all()]:
        expect(part).to_be_in_viewport(ratio=1)
    for option in options.all():
        assert option.bounding_box()["height"] >= TOUCH_PX, option.inner_text()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_answer_menu_shows_each_label_whole(page_url, browser, viewport):
    """Item 7 (the layout's part): the menu of an answered question shows the answer chosen whole, on a
    desktop and on a phone, not "skip — offer me the va"."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, viewport)
    ask(page)
    page.get_by_role("button", name=SKIP_LABEL).click()
    expect(page.locator("#use-1")).to_be_visible()
    menu = page.locator("#answer-choice-0 input")
    expect(menu).to_have_value(SKIP_LABEL)
    menu.click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    for i in range(options.count()):
        if i:
            menu.click()
        label = options.nth(i).inner_text().removeprefix("✓").strip()  # the chosen one is ticked
        options.nth(i).click()
        expect(menu).to_have_value(label)
        width, room = menu.evaluate("box => [box.scrollWidth, box.clientWidth]")
        assert width <= room, (label, width, room)
    page.locator("#translation").click()  # the menu closes
    expect(options.first).to_be_hidden()
    menu.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"page-answer-menu-{viewport['width']}.png"))


def test_a_reload_keeps_the_open_question_answerable_and_the_last_translation_whole(page_url, browser):
    """Item 1: after a reload, the open question's buttons still answer it (and the reply says the answer's
    label, not its raw value "formal"); after a translation, a reload brings back the translation, its account
    and the answered question, whose Change answer still works."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    translation, account = page.locator("#translation textarea"), page.locator("#account")
    ask(page)
    page.reload()
    formal = page.get_by_role("button", name="formal — « vous »", exact=True)
    expect(formal).to_be_visible()
    formal.click()
    expect(account).to_contain_text("you → formal")  # the translation is finished, not a draft
    expect(translation).to_have_value(BY_ANSWER["A: formal"])
    expect(page.locator("#chat")).not_to_contain_text("no longer open")
    expect(page.locator("#chat .user-row").last).to_contain_text("formal — « vous »")

    page.reload()
    expect(translation).to_have_value(BY_ANSWER["A: formal"])
    expect(account).to_contain_text("you → formal, because you said")
    expect(page.locator("#answer-0")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "page-after-reload.png"), full_page=True)
    page.locator("#answer-choice-0 input").click()
    page.get_by_role("option", name="informal — « tu »").click()
    page.locator("#change-0").click()
    expect(translation).to_have_value(BY_ANSWER["A: informal"])
    expect(page.locator("#chat")).not_to_contain_text("no answer to change")


def test_undo_and_stop_leave_no_box_of_another_text_and_a_replaced_text_leaves_a_note(page_url, browser,
                                                                                      held_translations):
    """Item 2: Undo after a translation takes its translation, account and answers off the screen with the
    chat; a text replaced by a newer one while its question was open leaves a note (and its question no
    buttons); after Stop the box holds the last finished translation and says which text it translates."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    translation, account = page.locator("#translation textarea"), page.locator("#account")
    box_label, chat = page.locator("#translation [data-testid='block-info']"), page.locator("#chat")
    held_translations.set()
    ask(page).click()
    expect(translation).to_have_value(BY_ANSWER["A: formal"])
    expect(box_label).to_have_text(f"Translation of “{SOURCE}”")
    chat.get_by_role("button", name="Undo").click()
    expect(page.get_by_placeholder("English text to translate")).to_have_value(SOURCE)
    expect(translation).to_have_value("")
    expect(account).to_have_text("")
    expect(page.locator("#answer-0")).to_be_hidden()

    ask(page)
    send(page, OTHER)
    expect(chat).to_contain_text(f"“{SOURCE}” is left untranslated")
    formal = page.get_by_role("button", name="formal — « vous »", exact=True)
    expect(formal).to_have_count(1)  # the replaced text's question has none left
    formal.click()
    expect(box_label).to_have_text(f"Translation of “{OTHER}”")

    held_translations.clear()
    ask(page).click()
    expect(page.locator("#status")).to_contain_text("Translating")
    page.locator("#stop").click()
    expect(chat).to_contain_text("Stopped")
    expect(translation).to_have_value(BY_ANSWER["A: formal"])
    expect(box_label).to_have_text(f"Translation of “{OTHER}”")
    expect(account).to_contain_text("you → formal")
    page.screenshot(path=str(ARTIFACTS / "page-after-stop.png"), full_page=True)


def test_questions_name_their_person_mark_the_word_found_and_keep_the_answers_own_words(page_url, browser):
    """Item 5: an imperative's question names who is told to do it, not the verb as a person; the word marked
    is the "you" asked about, not the one of "Thank you"; the account names a Japanese answer by its own
    label ("polite"), not as "formal"."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    send(page, "Sign the form, please.")
    question = page.locator("#chat .bot-row").last
    expect(question).to_contain_text("Who is told to “Sign” here")
    expect(question).not_to_contain_text("(“Sign”)")

    send(page, "Thank you for the form. Can you sign it?")
    expect(page.locator("#question-source .highlighted")).to_have_text("you")
    expect(page.locator("#question-source .token").first).to_have_text("Thank you for the form. Can ")
    page.screenshot(path=str(ARTIFACTS / "page-question-words.png"))

    page.get_by_label("Translate into").click()
    page.get_by_role("option", name="Japanese").click()
    send(page, SOURCE)
    page.get_by_role("button", name=re.compile(r"^polite")).click()
    account = page.locator("#account")
    expect(account).to_contain_text("you → polite, because you said")
    expect(account).not_to_contain_text("formal")


def test_the_inclusive_forms_box_asks_about_anyone_of_a_kind(page_url, browser):
    """Unticked, "Any user" keeps its generic form and nothing is asked; ticked in Settings, its gender is asked."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    anyone, question = "Any user can post a comment.", "Is “Any user” a man or a woman?"
    send(page, anyone)
    expect(page.locator("#account")).to_contain_text("cost: 1 model call")  # translated, nothing asked
    expect(page.locator("#chat")).not_to_contain_text(question)
    page.locator("#settings").get_by_text("Settings", exact=True).click()
    page.locator("#inclusive input").check()
    send(page, anyone)
    expect(page.locator("#chat .bot-row").last).to_contain_text(question)
    expect(page.locator("#question-source .highlighted")).to_have_text("Any user")


def test_the_account_is_said_once_shortly_and_the_chat_points_to_it(page_url, browser):
    """Item 7 (the words' part): after a skipped question the account under the translation says "you → not
    answered" without the whole question, and leaves each variant's text to its card; the chat's reply is the
    translation and a one-line pointer, not the account again."""
    from playwright.sync_api import expect

    page = open_page(browser, page_url, DESKTOP)
    account, replies = page.locator("#account"), page.locator("#chat .bot-row")
    ask(page)
    question = replies.last.locator("p").first.inner_text()
    page.get_by_role("button", name=SKIP_LABEL).click()
    expect(page.locator("#use-1")).to_be_visible()
    expect(page.locator("#translation textarea")).to_have_value(GUESS)
    expect(account).to_contain_text("you → not answered")
    expect(account).not_to_contain_text(question)
    for variant in (BY_ANSWER["A: formal"], BY_ANSWER["A: informal"]):  # on their cards, not in the account
        expect(account).not_to_contain_text(variant)
    lines = [line.strip() for line in account.inner_text().splitlines() if line.strip()]
    assert "you → not answered" in lines, lines

    reply = replies.last
    expect(reply).to_contain_text(GUESS)
    expect(reply).to_contain_text("under the translation")
    said = [line.strip() for line in reply.inner_text().splitlines() if line.strip()]
    assert len(said) <= 2 and not set(said) & set(lines), (said, lines)
    page.screenshot(path=str(ARTIFACTS / "page-account-said-once.png"), full_page=True)


CATALOGUE = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "You may edit it again below."
msgstr ""

msgid "Your password was changed."
msgstr ""

msgid "Specific permissions for this user."
msgstr ""

msgid "A user with that username already exists."
msgstr ""
"""


def test_a_file_s_question_sheet_is_answered_on_the_page_and_its_translation_downloaded(page_url, browser, tmp_path):
    """Upload a .po, answer its sheet (one click a question), translate it, download the translation: each unit's
    translator comment names the answer that shaped it, and the answers come back as a profile."""
    import polib
    import yaml
    from playwright.sync_api import expect

    source = tmp_path / "accounts.po"
    source.write_text(CATALOGUE, encoding="utf-8")
    page = open_page(browser, page_url, DESKTOP)
    upload_a_file(page, source)
    expect(page.locator("#sheet-header")).to_contain_text("2 questions for the whole file (4 segments)")
    register, person = page.locator("#sheet-question-0"), page.locator("#sheet-question-1")
    expect(register).to_contain_text("2 segments")
    expect(register.locator(".highlighted").first).to_have_text("You")
    expect(person.locator(".highlighted").first).to_have_text("this user")
    expect(page.locator("#sheet-question-2")).to_be_hidden()
    register.get_by_label("informal — « tu »").check()
    person.get_by_label("a woman (feminine forms)").check()
    page.locator("#file-area").screenshot(path=str(ARTIFACTS / "file-question-sheet.png"))

    translation, profile = translate_and_download(page)
    notes = {e.msgid: e.tcomment for e in polib.pofile(translation.read_text(encoding="utf-8"))}
    assert notes["Your password was changed."] == "intercpt: Your → informal (answered for the whole file)"
    assert notes["A user with that username already exists."] == \
        "intercpt: A user → a woman (answered for the whole file)"
    assert yaml.safe_load(profile.read_text(encoding="utf-8")) == {
        "register": {"fr": "informal"}, "people": {"user": "a woman"}}
