"""The web page's glossary upload and "Translate a file" panel, through their handlers: on a fake chat
model, and once on the real small model (the browser tests are in test_ui.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest

from assistant.backends import ModelSpec
from assistant.chain import Assistant, ChainOptions
from assistant.formats.placeholders import find_placeholders
from tests.fakes import StepFake
from tests.test_translate_files import EchoFake
from ui.files import FileHandlers
from ui.handlers import ChatHandlers, ChatOptions
from ui.messages import account_markdown

DATA = Path(__file__).parent / "data" / "formats"
ASK = '{"ambiguous": true, "question": "Formal or informal?", "options": ["formal", "informal"]}'


def page(fake) -> FileHandlers:
    return FileHandlers(ChatHandlers(Assistant(fake, "fake:m")))


def uploaded(tmp_path: Path, name: str, text: str | bytes | None = None) -> str:
    """A file as Gradio hands an upload over: a copy in a folder of its own, under its own name."""
    folder = tmp_path / "gradio" / "0123abcd"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if text is None:
        shutil.copy(DATA / name, path)
    elif isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def chat(files: FileHandlers, text: str, session: str, lang: str = "fr"):
    return list(files.chat.turn(text, ChatOptions(lang=lang, chain=ChainOptions(max_questions=0)), session))[-1]


def test_an_uploaded_glossary_reaches_every_translation_of_its_session_and_is_shown(tmp_path):
    fake = StepFake(detect=['{"ambiguous": false}'], translate=["Où sont mes clés ?"], calls=[])
    files = page(fake)
    session, kept, view = files.set_glossary(uploaded(tmp_path, "glossary.csv"), None)
    assert kept and view.startswith("✓ **Glossary:** 2 terms from “glossary.csv”")
    done = chat(files, "Where are my keys?", session)
    assert [(t.source, t.target) for t in done.transcript.terms] == [("key", "clé")]
    prompt = next(m for step, m, _ in fake.calls if step == "translate")[-1].content
    assert '"key" → "clé"' in prompt
    assert [c.status for c in done.transcript.checks if c.name == "terms"] == ["pass"]
    assert account_markdown(done.transcript).startswith("- terms: 1 from your glossary")
    assert chat(files, "Where are my keys?", "another session").transcript.terms == []  # per session
    assert "No glossary" in files.clear_glossary(session)
    assert chat(files, "Where are my keys?", session).transcript.terms == []  # clearing the upload removes it


@pytest.mark.parametrize(("name", "text", "message"), [
    ("terms.xlsx", "key,clé\n", "is not a glossary; upload a .csv, .tsv or .tbx file"),
    ("terms.csv", "key;clé\n", "line 1: expected a source term and a target term"),
    ("terms.csv", "key,clé\n".encode("latin-1"), "is not UTF-8 text"),
    ("terms.tsv", "", "the glossary has no entries"),
    ("terms.csv", "a," + "x" * 2_000_000, "larger than 1 MB"),
])
def test_a_bad_glossary_is_refused_beside_the_upload(tmp_path, name, text, message):
    files = page(StepFake(calls=[]))
    session, kept, view = files.set_glossary(uploaded(tmp_path, name, text), "s")
    assert kept is None and view.startswith("⚠️") and message in view, view
    assert str(tmp_path) not in view  # the file by its own name, never the server's upload path
    assert files.chat.sessions.get(session).glossary is None


def test_a_glossary_into_another_language_is_a_message_in_the_chat(tmp_path):
    files = page(StepFake(detect=['{"ambiguous": false}'], translate=["x"], calls=[]))
    session, _, _ = files.set_glossary(uploaded(tmp_path, "glossary.tsv"), None)  # a French glossary
    failed = chat(files, "Where are my keys?", session, lang="de")
    assert failed.failed and "“glossary.tsv” is a glossary into 'fr', not 'de'" in failed.messages[-1].content


def test_a_po_file_is_translated_with_the_page_preferences_and_glossary_structure_kept(tmp_path):
    fake = EchoFake(detect=[ASK], calls=[])
    files = page(fake)
    session, _, _ = files.set_glossary(uploaded(tmp_path, "terms.csv", "account,compte\n"), None)
    upload = uploaded(tmp_path, "messages.po")
    kept, note = files.check_file(upload)
    assert kept == upload and note == "✓ “messages.po”: 3 units to translate (gettext PO)"
    paces = []
    result = files.translate_file(upload, ChatOptions(register="formal"), session,
                                  report=lambda done, total, pace: paces.append((done, total, pace)))
    assert result.out is not None and result.out.name == "messages.fr.po" and result.out.is_file()
    assert [done for done, _, _ in paces] == [1, 2, 3, 4] and {total for _, total, _ in paces} == {4}
    assert all(pace.endswith(" left") and " segments/min, " in pace for _, _, pace in paces)  # the page's bar
    source, target = polib.pofile(str(DATA / "messages.po")), polib.pofile(str(result.out))
    assert [e.msgid for e in source] == [e.msgid for e in target]
    for entry in target:
        if entry.msgid_plural:
            assert find_placeholders(entry.msgstr_plural[1]) == find_placeholders(entry.msgid_plural)
        elif entry.msgid != "Already translated":
            assert find_placeholders(entry.msgstr) == find_placeholders(entry.msgid) and entry.msgstr
    # the preference answered every "you": review only for failed checks, the echo that reads as English
    # (the language check) and the glossary term not kept
    assert [entry.msgid for entry in target if entry.fuzzy] == ["You have %(count)d new message",
                                                               "Save {name} to <b>your</b> account"]
    assert "applied your setting: “you” → formal\n" in result.summary.lower()  # one line for every "you"
    assert "terms from your glossary: 0 of 1 kept" in result.summary  # the echo kept "account", not "compte"
    assert "best guess" not in result.summary


def test_what_nobody_answered_is_guessed_flagged_for_review_and_said(tmp_path):
    files = page(EchoFake(detect=[ASK], calls=[]))
    result = files.translate_file(uploaded(tmp_path, "messages.po"), ChatOptions(), "s")
    target = polib.pofile(str(result.out))
    says_you = [e for e in target if "you" in e.msgid.lower() and e.msgid != "Already translated"]
    assert says_you and all(e.fuzzy for e in says_you)
    assert not next(e for e in target if e.msgid.startswith("Hello")).fuzzy
    assert "best guess, flagged for review (a file is translated without asking): “you” (" in result.summary.lower()


def test_the_page_keeps_its_translated_files_in_one_bounded_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("ui.file_store.KEPT_FILES", 2)
    files = page(EchoFake(detect=[ASK], calls=[]))
    outs = [files.translate_file(uploaded(tmp_path, "messages.po"), ChatOptions(), "s").out for _ in range(3)]
    assert all(out.name == "messages.fr.po" for out in outs)
    assert len({out.parent.parent for out in outs}) == 1  # the page's store, not a fresh folder each time
    assert [out.is_file() for out in outs] == [False, True, True]  # the oldest went


@pytest.mark.parametrize(("name", "text", "message"), [
    ("notes.pdf", "%PDF-1.4", "unsupported file type '.pdf'"),
    ("broken.po", None, "is not a readable gettext PO file"),
    ("subtitles.srt", "1\n00:00:01,000 --> 00:00:02,000\nCaf\xe9\n".encode("latin-1"), "is not UTF-8 text"),
    ("empty.txt", "  \n", "nothing to translate"),
])
def test_a_bad_file_is_refused_on_upload_and_on_translate(tmp_path, name, text, message):
    files = page(StepFake(calls=[]))
    upload = uploaded(tmp_path, name, text)
    kept, note = files.check_file(upload)
    assert kept is None and note.startswith("⚠️") and message in note, note
    assert str(tmp_path) not in note
    result = files.translate_file(upload, ChatOptions(), "s")
    assert result.out is None and message in result.summary


@pytest.mark.real_model
def test_the_real_model_translates_a_po_file_with_a_glossary_through_the_page(embedded_model, embedded_spec, tmp_path,
                                                                              measure):
    import time

    po = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
          '#, python-format\nmsgid "Hello %s, welcome back!"\nmsgstr ""\n\n'
          '#, python-brace-format\nmsgid "Open the {name} report."\nmsgstr ""\n')
    assistant = Assistant.for_model(embedded_model, ModelSpec.parse(embedded_spec))
    files = FileHandlers(ChatHandlers(assistant))
    session, kept, _ = files.set_glossary(uploaded(tmp_path, "terms.csv", "report,rapport\n"), None)
    assert kept
    started = time.monotonic()
    result = files.translate_file(uploaded(tmp_path, "app.po", po), ChatOptions(chain=ChainOptions(max_questions=0)),
                                  session)
    assert result.out is not None, result.summary
    target = polib.pofile(str(result.out))
    assert [e.msgid for e in target] == ["Hello %s, welcome back!", "Open the {name} report."]
    for entry in target:
        assert entry.msgstr and find_placeholders(entry.msgstr) == find_placeholders(entry.msgid), entry.msgstr
    assert "terms from your glossary:" in result.summary and "of 1 kept" in result.summary
    measure(f"UI file translation, 0.5B on llama.cpp, 2-entry .po with a glossary: {time.monotonic() - started:.1f} s; "
            f"{[e.msgstr for e in target]}; {result.summary.splitlines()[-1]}")
