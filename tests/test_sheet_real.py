"""The question sheet and a project profile on the real 0.5B model (llama.cpp), in every file format the
product reads: the console script's ``translate --file`` answered by a profile, and the web page's file
panel given the profile as an upload. Each file holds real strings of Django's admin and auth catalogues
(tests/data/formats/django_accounts.po): the register of "you" and a person, "the user", open in them."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
import yaml

from assistant.backends import ModelSpec
from assistant.chain import Assistant
from assistant.cli.main import main
from tests.test_ui_files import uploaded
from ui.files import FileHandlers
from ui.handlers import ChatHandlers, ChatOptions

pytestmark = pytest.mark.real_model

STRINGS = ["Your password was changed.", "Specific permissions for this user.",
           "A user with that username already exists."]
PROFILE = "register:\n  fr: formal\npeople:\n  user: a woman\n"
# What the sheet's answers are, read back from a segment's transcript.
ANSWERS = {"formality": "formal", "neutral_professions": "a woman", "person_gender": "a woman"}
NOTE = "answered for the whole file"


def xliff2(strings: list[str]) -> str:
    units = "".join(f'<unit id="u{n}"><segment><source>{text}</source></segment></unit>'
                    for n, text in enumerate(strings, 1))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" '
            f'version="2.0" srcLang="en" trgLang="fr"><file id="f1">{units}</file></xliff>\n')


def xliff12(strings: list[str]) -> str:
    units = "".join(f'<trans-unit id="u{n}"><source>{text}</source></trans-unit>' for n, text in enumerate(strings, 1))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
            f'<file original="accounts" source-language="en" target-language="fr" datatype="plaintext"><body>{units}'
            '</body></file></xliff>\n')


def subtitles(strings: list[str]) -> str:
    return "".join(f"{n}\n00:00:0{n},000 --> 00:00:0{n},900\n{text}\n\n" for n, text in enumerate(strings, 1))


def word(path: Path, strings: list[str]) -> None:
    import docx

    document = docx.Document()
    for text in strings:
        document.add_paragraph(text)
    document.save(str(path))


def write_source(path: Path) -> None:
    """``STRINGS`` as a file of ``path``'s format (an ``…12.xlf`` is XLIFF 1.2)."""
    if path.suffix == ".docx":
        word(path, STRINGS)
        return
    xliff = xliff12 if path.stem.endswith("12") else xliff2
    text = {".txt": "\n\n".join(STRINGS) + "\n", ".srt": subtitles(STRINGS), ".xlf": xliff(STRINGS)}[path.suffix]
    path.write_text(text, encoding="utf-8")


def translations_written(path: Path) -> list[str]:
    """The texts the translated file holds in place of the sources, read in its own format."""
    if path.suffix == ".docx":
        import docx

        return [p.text for p in docx.Document(str(path)).paragraphs if p.text.strip()]
    if path.suffix == ".srt":
        import srt

        return [cue.content for cue in srt.parse(path.read_text(encoding="utf-8"))]
    if path.suffix == ".xlf":
        from xml.etree import ElementTree

        return ["".join(t.itertext()) for t in ElementTree.parse(path).iter() if t.tag.endswith("}target")]
    return [p for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]


def notes_written(path: Path) -> str:
    """The notes a reviewer sees in the written file: XLIFF notes, Word comments (SRT and text hold none)."""
    if path.suffix == ".docx":
        import docx

        return "\n".join(comment.text for comment in docx.Document(str(path)).comments)
    return path.read_text(encoding="utf-8") if path.suffix == ".xlf" else ""


@pytest.mark.parametrize("name", ["accounts.txt", "accounts.xlf", "accounts12.xlf", "accounts.srt", "accounts.docx"])
def test_real_model_translates_each_format_with_the_profile_s_answers_and_asks_nothing(embedded_spec, tmp_path,
                                                                                      capsys, measure, name):
    source, out, profile = tmp_path / name, tmp_path / f"fr.{name}", tmp_path / "project.yaml"
    write_source(source)
    profile.write_text(PROFILE, encoding="utf-8")
    assert main(["translate", "--file", str(source), "--to", "fr", "--plan", "--profile", str(profile),
                 "--model", embedded_spec]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["segment_count"] == len(STRINGS) and sheet["question_count"] <= 2, sheet
    assert {q["answered_by"] for q in sheet["questions"]} == {"profile"}, sheet["questions"]

    assert main(["translate", "--file", str(source), "--to", "fr", "--out", str(out), "--answers-file", str(profile),
                 "--json", "--model", embedded_spec]) == 0
    record = json.loads(capsys.readouterr().out)
    turns = [turn for transcript in record["transcripts"] for turn in transcript["turns"]]
    answered = [turn for turn in turns if turn["ambiguity"] in ANSWERS]
    assert answered and all(t["answered_by"] == "preference" and t["answer"] == ANSWERS[t["ambiguity"]]
                            for t in answered), answered  # every answer the profile's, nothing asked again
    translations = translations_written(out)
    assert len(translations) == len(STRINGS) and not set(translations) & set(STRINGS), translations
    if out.suffix in (".xlf", ".docx"):
        assert NOTE in notes_written(out), notes_written(out)
    register = [check["status"] for transcript in record["transcripts"] for check in transcript["checks"]
                if check["name"] == "formality"]
    assert "fail" not in register, register
    measure(f"{name} with a profile (fr formal, the user a woman), 0.5B on llama.cpp: {translations}; "
            f"{len(answered)} answers applied, formality checks {register}")


def test_real_model_page_takes_a_profile_for_a_file_s_sheet_and_notes_each_unit(embedded_model, embedded_spec,
                                                                              tmp_path, measure):
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalogue += [polib.POEntry(msgid=text, msgstr="") for text in STRINGS]
    files = FileHandlers(ChatHandlers(Assistant.for_model(embedded_model, ModelSpec.parse(embedded_spec))))
    session, kept, line, _ = files.set_profile(uploaded(tmp_path, "project.yaml", PROFILE), None)
    assert kept and line.startswith("✓"), line
    upload = uploaded(tmp_path, "accounts.po", catalogue.__unicode__())
    read = files.read_sheet(upload, ChatOptions(), session)
    assert read.sheet.questions and {q.answered_by for q in read.sheet.questions} == {"profile"}, read.sheet.questions
    result = files.translate_file(upload, ChatOptions(), session, [q.answer for q in read.sheet.questions])
    assert result.out is not None, result.summary
    written = polib.pofile(str(result.out))
    assert all(entry.msgstr for entry in written)
    assert written.find(STRINGS[0]).tcomment == f"intercpt: Your → formal ({NOTE})"
    assert written.find(STRINGS[1]).tcomment == f"intercpt: this user → a woman ({NOTE})"
    assert yaml.safe_load(result.profile.read_text(encoding="utf-8")) == yaml.safe_load(PROFILE)
    measure(f"page, .po of {len(STRINGS)} Django strings with a profile, 0.5B on llama.cpp: "
            f"{[entry.msgstr for entry in written]}")
