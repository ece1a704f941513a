"""The web page's question sheet for a file, through its handlers on a fake chat model: read on upload,
answered with a pick per question, applied to every unit (each unit's note names its answer), nothing asked
again; a project profile fills it in and the answers come back as a profile (the browser test is in
test_ui_page.py)."""

from __future__ import annotations

import gradio as gr
import polib
import pytest
import yaml

from assistant.chain import Assistant, ChainOptions
from tests.test_translate_files import EchoFake
from tests.test_ui_files import uploaded
from ui.files import FileHandlers
from ui.handlers import ChatHandlers, ChatOptions
from ui.labels import SKIP
from ui.sheet_panel import MAX_SHEET_QUESTIONS, SheetPanel, examples_shown

DJANGO = "django_accounts.po"


@pytest.fixture
def fake() -> EchoFake:
    return EchoFake(detect=['{"ambiguous": false}'], calls=[])  # the decide call leaves every word open


def page(fake) -> FileHandlers:
    return FileHandlers(ChatHandlers(Assistant(fake, "fake:m")))


def test_the_sheet_is_read_on_upload_answered_once_and_applied_to_every_unit(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    read = files.read_sheet(upload, ChatOptions(), "s")
    assert read.note == "" and [(q.ambiguity, len(q.segments)) for q in read.sheet.questions] == [
        ("formality", 10), ("neutral_professions", 6)]
    register = read.sheet.questions[0]
    assert examples_shown(register)[:3] == [("segment 1: ", None), ("You", "in question"),
                                            (" may edit it again below.", None)]
    read_calls = fake.steps().count("decide")

    result = files.translate_file(upload, ChatOptions(), "s", ["formal", "a woman"])
    assert result.out is not None, result.summary
    assert fake.steps().count("decide") == read_calls  # nothing is read for questions again, nobody is asked
    notes = {entry.msgid: entry.tcomment for entry in polib.pofile(str(result.out))}
    assert notes["Your password was changed."] == "intercpt: Your → formal (answered for the whole file)"
    assert notes["Specific permissions for this user."] == "intercpt: this user → a woman (answered for the whole file)"
    assert "applied your answers to the whole file: “You” → formal; “a user” → a woman" in result.summary
    assert "best guess" not in result.summary
    saved = yaml.safe_load(result.profile.read_text(encoding="utf-8"))
    assert saved == {"register": {"fr": "formal"}, "people": {"user": "a woman"}}


def test_a_question_skipped_on_the_sheet_is_guessed_and_flagged(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    files.read_sheet(upload, ChatOptions(), "s")
    result = files.translate_file(upload, ChatOptions(), "s", ["formal", SKIP])
    entry = polib.pofile(str(result.out)).find("Specific permissions for this user.")
    assert entry.tcomment == "intercpt: this user → the model's guess (not answered)" and entry.fuzzy
    assert "best guess, flagged for review (skipped on the sheet): “a user” (" in result.summary
    assert yaml.safe_load(result.profile.read_text(encoding="utf-8")) == {"register": {"fr": "formal"}}


def test_a_profile_and_the_preferences_fill_in_the_sheet_and_the_panel_picks_their_answers(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    session, kept, line, sheet = files.set_profile(uploaded(tmp_path, "project.yaml", "people:\n  user: a man\n"), "s")
    assert kept and line.startswith("✓ “project.yaml”: 1 answer") and sheet is None
    read = files.read_sheet(upload, ChatOptions(register="informal"), session)
    assert [(q.answer, q.answered_by) for q in read.sheet.questions] == [("informal", "profile"), ("a man", "profile")]
    with gr.Blocks():
        panel = SheetPanel()
    shown = panel.shown(read.sheet)
    assert [shown[choice]["value"] for choice in panel.choices[:2]] == ["informal", "a man"]
    assert "from your profile or preferences" in shown[panel.texts[1]]
    assert [shown[slot]["visible"] for slot in panel.slots] == [True, True] + [False] * (MAX_SHEET_QUESTIONS - 2)
    result = files.translate_file(upload, ChatOptions(register="informal"), session, ["informal", "a man"])
    assert polib.pofile(str(result.out)).find("Specific permissions for this user.").tcomment == \
        "intercpt: this user → a man (answered for the whole file)"


def test_a_profile_uploaded_after_the_sheet_answers_its_open_questions_only(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    files.read_sheet(upload, ChatOptions(), "s")
    _, _, _, sheet = files.set_profile(uploaded(tmp_path, "team.yml", "register:\n  fr: formal\n  de: informal\n"), "s")
    assert [(q.answer, q.answered_by) for q in sheet.questions] == [("formal", "profile"), (None, None)]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("project.txt", "register:\n  fr: formal\n", "“project.txt” is not a project profile; upload a .yaml file"),
    ("project.yaml", "register: [fr\n", "“project.yaml” is not valid YAML (line 2)"),
    ("project.yaml", "colours:\n  red: blue\n", "unknown section 'colours'"),
    ("project.yaml", "register:\n  xx: formal\n", "register is per target language"),
    ("project.yaml", "people:\n  alex: a woman\n".encode("utf-16"), "is not UTF-8 text"),
    ("project.yaml", "senses:\n" + "  bank: river\n" * 30_000, "larger than 256 KB"),
])
def test_a_bad_profile_is_refused_beside_the_upload(fake, tmp_path, name, text, message):
    files = page(fake)
    _, kept, line, _ = files.set_profile(uploaded(tmp_path, name, text), "s")
    assert kept is None and line.startswith("⚠️") and message in line, line
    assert str(tmp_path) not in line  # the file by its own name, never the server's upload path
    assert files.chat.sessions.get("s").profile is None


def test_answers_read_for_one_language_are_not_applied_to_another(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    files.read_sheet(upload, ChatOptions(lang="fr"), "s")
    result = files.translate_file(upload, ChatOptions(lang="de"), "s", ["formal"])
    assert result.out is None
    assert "the file's questions were read for French; upload the file again to answer them for German" in result.summary


@pytest.mark.parametrize("inclusive", [False, True])
def test_the_sheet_asks_about_anyone_of_a_kind_only_with_the_inclusive_forms_box_ticked(fake, tmp_path, inclusive):
    upload = uploaded(tmp_path, "comments.po", 'msgid "Any user can post a comment."\nmsgstr ""\n')
    read = page(fake).read_sheet(upload, ChatOptions(chain=ChainOptions(inclusive=inclusive)), "s")
    assert [q.span for q in read.sheet.questions] == (["Any user"] if inclusive else [])


def test_no_sheet_is_read_where_nobody_answers_on_the_page(fake, tmp_path):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    assert files.read_sheet(upload, ChatOptions(simulate=True), "s").sheet is None
    assert files.read_sheet(upload, ChatOptions(chain=ChainOptions(method="no-extra")), "s").sheet is None
    assert fake.steps() == []


@pytest.mark.parametrize(("profile", "register"), [("people:\n  user: a man\n", None), ("", "informal")])
def test_a_question_skipped_on_the_sheet_is_guessed_though_the_profile_or_a_preference_answered_it(
        fake, tmp_path, profile, register):
    files, upload = page(fake), uploaded(tmp_path, DJANGO)
    session, _, _, _ = files.set_profile(uploaded(tmp_path, "project.yaml", profile) if profile else None, "s")
    options = ChatOptions(register=register) if register else ChatOptions()
    read = files.read_sheet(upload, options, session)
    skipped = 1 if profile else 0
    assert read.sheet.questions[skipped].answered_by == "profile"
    picked = ["formal", "a woman"]
    picked[skipped] = SKIP
    result = files.translate_file(upload, options, session, picked)
    entries = polib.pofile(str(result.out))
    if profile:
        entry = entries.find("Specific permissions for this user.")
        assert entry.tcomment == "intercpt: this user → the model's guess (not answered)" and entry.fuzzy
    else:
        entry = entries.find("Your password was changed.")
        assert entry.tcomment == "intercpt: Your → the model's guess (not answered)" and entry.fuzzy
    assert "best guess, flagged for review (skipped on the sheet)" in result.summary
    saved = yaml.safe_load(result.profile.read_text(encoding="utf-8"))
    # the project's answer is kept as it was uploaded (a skip is for this file), and nothing skipped is added
    assert saved == ({"register": {"fr": "formal"}, "people": {"user": "a man"}} if profile
                     else {"people": {"user": "a woman"}})
