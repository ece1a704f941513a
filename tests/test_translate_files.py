"""``intercpt translate --file`` on localisation files, in-process on a fake model: one question per
document, the structure and every placeholder kept, the placeholder check recorded."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
import srt
from lxml import etree

import assistant.backends
from assistant.cli.main import main
from assistant.prompts import PROMPT_TAG
from assistant.formats.placeholders import find_placeholders
from tests.fakes import StepFake, prompt_step
from tests.test_fidelity import ECHOES, REFERENCE, SOURCE
from tests.test_formats import _build_docx, _runs

DATA = Path(__file__).parent / "data" / "formats"
_SOURCE = re.compile(r"<source>\n(.*)\n</source>", re.DOTALL)
_TRANSLATION = re.compile(r"<translation>\n(.*)\n</translation>", re.DOTALL)


class EchoFake(StepFake):
    """Translates by writing "Vous :" before the source it was given (placeholder tokens and all);
    a rewrite (the text reads as English to the language check) gives the translation back unchanged."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if prompt_step(run_manager) == "translate":
            if PROMPT_TAG.format("rewrite") in run_manager.tags:
                self.translate = [_TRANSLATION.search(messages[-1].content).group(1)]
            else:
                self.translate = ["Vous : " + _SOURCE.search(messages[-1].content).group(1)]
        return super()._generate(messages, stop, run_manager, **kwargs)


@pytest.fixture
def fake(monkeypatch):
    model = EchoFake(detect=['{"ambiguous": false}'], calls=[])
    monkeypatch.setattr(assistant.backends, "load_chat_model", lambda spec, generation=None: model)
    return model


def translate_file(source: Path, out: Path, capsys, answers: tuple[str, ...] = ("formal",)) -> dict:
    """The file through the CLI; ``answers`` answer its questions in order (the rest are skipped)."""
    given = [arg for answer in answers for arg in ("--answer", answer)]
    assert main(["translate", "--file", str(source), "--to", "fr", "--out", str(out), *given,
                 "--json", "--model", "openai:http://127.0.0.1:9/v1#m"]) == 0
    return json.loads(capsys.readouterr().out)


def asked_once(record: dict, says_you: bool = True) -> None:
    asked = [t for transcript in record["transcripts"] for t in transcript["turns"] if t["answered_by"] != "preference"]
    distinct = [(t["ambiguity"], t["span"].lower()) for t in asked]
    assert len(distinct) == len(set(distinct)), distinct  # each question once for the whole document
    assert [t["answer"] for t in asked if t["ambiguity"] == "formality"] == (["formal"] if says_you else [])
    assert all(u["placeholders"]["status"] == "pass" for u in record["units"])


def test_po_plurals_and_placeholders(fake, tmp_path, capsys):
    out = tmp_path / "messages.fr.po"
    record = translate_file(DATA / "messages.po", out, capsys)
    asked_once(record)
    source, target = polib.pofile(str(DATA / "messages.po")), polib.pofile(str(out))
    assert [e.msgid for e in source] == [e.msgid for e in target]
    for entry in target:
        if entry.msgid == "Already translated":
            assert entry.msgstr == "Déjà traduit"  # a human translation is never overwritten
        elif entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == [0, 1]
            assert find_placeholders(entry.msgstr_plural[1]) == find_placeholders(entry.msgid_plural)
        else:
            assert find_placeholders(entry.msgstr) == find_placeholders(entry.msgid) and entry.msgstr
    assert target.metadata["Language"] == "fr" and "nplurals=2" in target.metadata["Plural-Forms"]


def _inline(path: Path, element: str) -> list[list[str]]:
    tree = etree.parse(str(path))
    return [[etree.QName(child).localname for child in node.iter() if child is not node]
            for node in tree.iter("{*}" + element)]


def test_xliff2_inline_tags(fake, tmp_path, capsys):
    out = tmp_path / "app.fr.xlf"
    asked_once(translate_file(DATA / "app.xlf", out, capsys))  # "dear friend" is whoever reads it: only "you" is asked
    assert _inline(out, "target") == _inline(DATA / "app.xlf", "source")
    assert etree.parse(str(out)).getroot().get("trgLang") == "fr"


def test_srt_timings_and_lines(fake, tmp_path, capsys):
    out = tmp_path / "dialogue.fr.srt"
    asked_once(translate_file(DATA / "dialogue.srt", out, capsys))
    before = list(srt.parse((DATA / "dialogue.srt").read_text(encoding="utf-8")))
    after = list(srt.parse(out.read_text(encoding="utf-8")))
    assert [(s.index, s.start, s.end) for s in before] == [(s.index, s.start, s.end) for s in after]
    assert all(s.content.startswith("Vous") for s in after) and "<i>red</i>" in after[1].content


def test_docx_runs_and_formatting(fake, tmp_path, capsys):
    source, out = tmp_path / "guide.docx", tmp_path / "guide.fr.docx"
    _build_docx(source)
    asked_once(translate_file(source, out, capsys), says_you=False)
    # a unit flagged for review (the echo reads as English) gets a Word comment, anchored by an empty run
    before, after = _runs(source), [[run for run in p if run[0]] for p in _runs(out)]
    assert [len(p) for p in before] == [len(p) for p in after]
    assert [[(bold, italic) for _, bold, italic in p] for p in before] == \
        [[(bold, italic) for _, bold, italic in p] for p in after]
    assert any("{name}" in text for p in after for text, _, _ in p)


def test_a_txt_keeps_document_mode_on_stdout_unless_out_is_given(fake, tmp_path, capsys):
    letter = tmp_path / "letter.txt"
    letter.write_text("Can you come?\n\nDo you agree?\n", encoding="utf-8")
    assert main(["translate", "--file", str(letter), "--to", "fr", "--answer", "formal",
                 "--model", "openai:http://127.0.0.1:9/v1#m"]) == 0
    assert capsys.readouterr().out == "Vous : Can you come?\n\nVous : Do you agree?\n"
    out = tmp_path / "letter.fr.txt"
    assert main(["translate", "--file", str(letter), "--to", "fr", "--out", str(out), "--answer", "formal",
                 "--model", "openai:http://127.0.0.1:9/v1#m"]) == 0
    assert out.read_text(encoding="utf-8") == "Vous : Can you come?\n\nVous : Do you agree?\n"
    assert "asked once for the whole file" in capsys.readouterr().err


def test_a_glossary_reaches_the_translator(fake, tmp_path, capsys):
    glossary = tmp_path / "terms.csv"
    glossary.write_text("report,rapport\n", encoding="utf-8")
    assert main(["translate", "Send the report.", "--to", "fr", "--glossary", str(glossary), "--user", "none",
                 "--json", "--model", "openai:http://127.0.0.1:9/v1#m"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    assert transcript["terms"] == [{"source": "report", "target": "rapport"}]
    assert [c["name"] for c in transcript["checks"]].count("terms") == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["translate", "Hi", "--to", "fr", "--glossary", "missing.csv"], "no such glossary file"),
    (["chat", "--to", "fr", "--glossary", "missing.tsv"], "no such glossary file"),
    (["translate", "Hi", "--to", "fr", "--out", "x.po"], "give --file too"),
    (["translate", "--file", "notes.pdf", "--to", "fr", "--out", "notes.fr.pdf"], "unsupported file type '.pdf'"),
])
def test_bad_files_fail_in_one_line_before_any_model_loads(argv, message, monkeypatch, capsys):
    def no_load(spec, generation=None):
        raise AssertionError("a model was loaded before the arguments were checked")

    monkeypatch.setattr(assistant.backends, "load_chat_model", no_load)
    assert main(argv) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], lines


def test_out_may_not_overwrite_the_input(tmp_path, capsys):
    po = tmp_path / "a.po"
    po.write_text((DATA / "messages.po").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["translate", "--file", str(po), "--to", "fr", "--out", str(po)]) == 1
    assert "would overwrite" in capsys.readouterr().err


@pytest.mark.parametrize("echo", ECHOES)
def test_a_po_entry_gets_no_sentence_restating_an_answer(echo, monkeypatch, tmp_path, capsys):
    """#26 in a file: a reply that appends a translated instruction to a right translation is written
    to the catalogue without it, and the unit's fidelity check records it removed."""
    model = StepFake(translate=[f"{REFERENCE} {echo}"], calls=[])
    monkeypatch.setattr(assistant.backends, "load_chat_model", lambda spec, generation=None: model)
    source, out = tmp_path / "messages.po", tmp_path / "messages.fr.po"
    source.write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                      f'msgid "{SOURCE}"\nmsgstr ""\n', encoding="utf-8")
    record = translate_file(source, out, capsys, answers=("formal", "a man"))
    (entry,) = polib.pofile(str(out))
    assert entry.msgstr == REFERENCE and "fuzzy" not in entry.flags
    checks = [c for transcript in record["transcripts"] for c in transcript["checks"]]
    (fidelity,) = [c for c in checks if c["name"] == "fidelity"]
    assert f"removed “{echo}”" in fidelity["observed"] and f"{echo}: removed" in fidelity["features"]
    assert not [c for c in checks if c["status"] == "pass" and c["name"] != "fidelity" and echo in json.dumps(
        c, ensure_ascii=False)]
