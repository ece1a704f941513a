"""Localisation files: read into units, translate through translate_file with a fake translator, write back."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
import srt
from lxml import etree

from assistant.errors import InputError
from assistant.formats import read_document, translate_file
from assistant.formats.placeholders import find_placeholders, mask, placeholder_check
from assistant.formats.subtitles import SUBTITLE_WIDTH
from assistant.formats.xliff import _tagged

DATA = Path(__file__).parent / "data" / "formats"
_TOKEN = re.compile(r"(<x\d+/>)")


def upper_words(segments: list[str]) -> list[str]:
    """A fake translator: upper-cases the text and copies the opaque tokens."""
    return ["".join(p if _TOKEN.fullmatch(p) else p.upper() for p in _TOKEN.split(s)) for s in segments]


def upper_source(text: str) -> str:
    """What upper_words makes of a source once its placeholders are restored."""
    masked = mask(text)
    return masked.restore(upper_words([masked.text])[0])


class Recorder:
    """Records the calls a translator gets."""

    def __init__(self, translate=upper_words):
        self.calls: list[list[str]] = []
        self.translate = translate

    def __call__(self, segments):
        self.calls.append(list(segments))
        return self.translate(segments)


def test_mask_and_restore_every_placeholder_kind():
    text = "Hi <b>%s</b>, %(count)d items for {name} {0} {{x}}: 100% done %%"
    masked = mask(text)
    assert masked.originals == ("<b>", "%s", "</b>", "%(count)d", "{name}", "{0}", "{{x}}", "%%")
    assert "%" not in masked.text.replace("100% done", "") and "{" not in masked.text
    assert masked.restore(masked.text) == text
    assert upper_source(text) == "HI <b>%s</b>, %(count)d ITEMS FOR {name} {0} {{x}}: 100% DONE %%"


def test_placeholder_check_catches_dropped_duplicated_and_unexpected():
    assert placeholder_check("Hello %s, {name}", "Bonjour {name}, %s").status == "pass"
    dropped = placeholder_check("Hello %s, {name}", "Bonjour %s")
    assert dropped.status == "fail" and dropped.observed == "missing {name}"
    duplicated = placeholder_check("Save <b>it</b>", "Enregistrez <b>le</b> <b>")
    assert duplicated.status == "fail" and "duplicated <b>" in duplicated.observed
    assert "unexpected %d" in placeholder_check("Hello", "Bonjour %d").observed
    assert find_placeholders("No placeholders, 100% sure") == []


def test_po_round_trip_keeps_plurals_comments_flags_and_placeholders(tmp_path):
    out = tmp_path / "fr.po"
    translator = Recorder()
    report = translate_file(DATA / "messages.po", out, translator, target_lang="fr", progress=False)
    assert translator.calls == [[mask(s).text for s in (
        "Hello %s, welcome back!", "You have %(count)d new message", "You have %(count)d new messages",
        "Save {name} to <b>your</b> account")]]
    assert [c.status for c in report.checks] == ["pass"] * 3
    source, translated = polib.pofile(str(DATA / "messages.po")), polib.pofile(str(out))
    assert [e.msgid for e in translated] == [e.msgid for e in source]
    assert [(e.occurrences, e.flags, e.comment, e.msgctxt) for e in translated] == \
           [(e.occurrences, e.flags, e.comment, e.msgctxt) for e in source]
    by_id = {e.msgid: e for e in translated}
    assert by_id["Hello %s, welcome back!"].msgstr == "HELLO %s, WELCOME BACK!"
    assert by_id["You have %(count)d new message"].msgstr_plural == {
        0: "YOU HAVE %(count)d NEW MESSAGE", 1: "YOU HAVE %(count)d NEW MESSAGES"}
    assert by_id["Save {name} to <b>your</b> account"].msgstr == "SAVE {name} TO <b>YOUR</b> ACCOUNT"
    assert by_id["Already translated"].msgstr == "Déjà traduit"
    assert translated.metadata["Language"] == "fr"
    assert translated.metadata["Plural-Forms"].startswith("nplurals=2;")


def test_po_japanese_has_one_plural_form_and_uncertain_units_are_fuzzy(tmp_path):
    out = tmp_path / "ja.po"

    def unsure_of_the_first(segments):
        return [(text, i == 0) for i, text in enumerate(upper_words(segments))]

    translate_file(DATA / "messages.po", out, unsure_of_the_first, target_lang="ja", progress=False)
    by_id = {e.msgid: e for e in polib.pofile(str(out))}
    assert by_id["You have %(count)d new message"].msgstr_plural == {0: "YOU HAVE %(count)d NEW MESSAGES"}
    assert "fuzzy" in by_id["Hello %s, welcome back!"].flags
    assert "fuzzy" not in by_id["Save {name} to <b>your</b> account"].flags


def test_po_unit_that_lost_a_placeholder_is_fuzzy_and_reported(tmp_path):
    out = tmp_path / "fr.po"
    report = translate_file(DATA / "messages.po", out, lambda segs: [_TOKEN.sub("", s) for s in segs],
                            target_lang="fr", progress=False)
    assert [c.status for c in report.checks] == ["fail"] * 3
    assert report.failed[0].source == "Hello %s, welcome back!"
    assert all("fuzzy" in polib.pofile(str(out)).find(u.source).flags for u in report.failed)


def _segments(path: Path, version2: bool) -> list[etree._Element]:
    ns = "urn:oasis:names:tc:xliff:document:2.0" if version2 else "urn:oasis:names:tc:xliff:document:1.2"
    return etree.parse(str(path)).getroot().findall(f".//{{{ns}}}{'segment' if version2 else 'trans-unit'}")


def test_xliff2_round_trip_keeps_inline_codes(tmp_path):
    out = tmp_path / "fr.xlf"
    report = translate_file(DATA / "app.xlf", out, upper_words, target_lang="fr", progress=False)
    assert [c.status for c in report.checks] == ["pass"] * 3
    before, after = _segments(DATA / "app.xlf", True), _segments(out, True)
    assert len(before) == len(after) == 3
    ns = "{urn:oasis:names:tc:xliff:document:2.0}"
    targets = [_tagged(segment.find(f"{ns}target"))[0] for segment in after]
    assert targets == ['HELLO <pc id="1">DEAR</pc> FRIEND, YOU HAVE <ph id="2"/> NEW & UNREAD MESSAGES.',
                       "GOODBYE, {name}!", 'SEE YOU <sc id="3"/>SOON<ec startRef="3"/>.']
    assert [_tagged(s.find(f"{ns}source"))[0] for s in after] == [_tagged(s.find(f"{ns}source"))[0] for s in before]
    assert {s.get("state") for s in after} == {"translated"}
    assert "Shown on the home page" in out.read_text(encoding="utf-8")


def test_xliff2_translation_with_broken_tags_is_written_without_them_and_needs_review(tmp_path):
    out = tmp_path / "fr.xlf"

    def swap_tag_order(segments):
        return [s.replace("<x1/>dear<x2/>", "<x2/>DEAR<x1/>") for s in segments]

    report = translate_file(DATA / "app.xlf", out, swap_tag_order, progress=False)
    first = _segments(out, True)[0]
    target = first.find("{urn:oasis:names:tc:xliff:document:2.0}target")
    assert first.get("state") == "initial" and len(target) == 0 and "DEAR" in target.text
    assert report.checks[0].status == "pass"  # every tag is there once; only their order broke the nesting


def test_xliff12_round_trip_keeps_g_and_x(tmp_path):
    out = tmp_path / "fr.xlf"
    translate_file(DATA / "app12.xlf", out, upper_words, target_lang="fr", progress=False)
    ns = "{urn:oasis:names:tc:xliff:document:1.2}"
    units = _segments(out, False)
    assert [u.get("id") for u in units] == ["save", "files"]
    assert [_tagged(u.find(f"{ns}target"))[0] for u in units] == [
        'CLICK <g id="1">HERE</g> TO SAVE<x id="2"/>.', "%d FILES WERE COPIED TO %s"]
    assert units[0].find(f"{ns}note").text == "Button tooltip"


def test_srt_round_trip_keeps_timings_and_line_breaks(tmp_path):
    out = tmp_path / "fr.srt"
    translate_file(DATA / "dialogue.srt", out, upper_words, progress=False)
    before = list(srt.parse((DATA / "dialogue.srt").read_text(encoding="utf-8")))
    after = list(srt.parse(out.read_text(encoding="utf-8")))
    assert [(s.index, s.start, s.end) for s in after] == [(s.index, s.start, s.end) for s in before]
    assert after[0].content == "WHERE DID YOU PUT IT?"
    assert after[1].content.splitlines() == ["I LEFT THE KEY ON THE TABLE", "NEXT TO THE <i>RED</i> LAMP."]


def test_srt_long_translation_is_rewrapped_to_subtitle_width(tmp_path):
    out = tmp_path / "fr.srt"
    translate_file(DATA / "dialogue.srt", out, lambda segs: [" ".join([s] * 4) for s in upper_words(segs)],
                   progress=False)
    lines = list(srt.parse(out.read_text(encoding="utf-8")))[0].content.splitlines()
    assert len(lines) > 1 and all(len(line) <= SUBTITLE_WIDTH for line in lines)


def _build_docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Getting started", level=1)
    paragraph = document.add_paragraph("Click ")
    paragraph.add_run("here").bold = True
    paragraph.add_run(" to ")
    paragraph.add_run("save").italic = True
    paragraph.add_run(" the {name} file.")
    document.add_paragraph("")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Name"
    table.cell(0, 1).text = "Value"
    document.save(str(path))


def _runs(path: Path) -> list[list[tuple[str, bool | None, bool | None]]]:
    import docx

    from assistant.formats.word import _paragraphs

    return [[(r.text, r.bold, r.italic) for r in p.runs] for p in _paragraphs(docx.Document(str(path)))]


def test_docx_round_trip_keeps_paragraphs_runs_and_formatting(tmp_path):
    source, out = tmp_path / "guide.docx", tmp_path / "guide.fr.docx"
    _build_docx(source)
    translator = Recorder()
    report = translate_file(source, out, translator, progress=False)
    assert [c.status for c in report.checks] == ["pass"] * 4
    assert translator.calls[0][1] == "<x1/>Click <x2/><x3/>here<x4/><x5/> to <x6/><x7/>save<x8/><x9/> the <x10/> file.<x11/>"
    assert _runs(out) == [
        [("GETTING STARTED", None, None)],
        [("CLICK ", None, None), ("HERE", True, None), (" TO ", None, None), ("SAVE", None, True),
         (" THE {name} FILE.", None, None)],
        [],
        [("NAME", None, None)],
        [("VALUE", None, None)],
    ]
    import docx

    assert docx.Document(str(out)).paragraphs[0].style.name == "Heading 1"


def test_docx_translation_that_moves_words_between_runs_keeps_each_runs_formatting(tmp_path):
    source, out = tmp_path / "guide.docx", tmp_path / "guide.fr.docx"
    _build_docx(source)

    def reorder(segments):
        # "Cliquez ici pour enregistrer" with the italic word before the bold one and text outside tags
        return [s.replace("<x1/>Click <x2/><x3/>here<x4/><x5/> to <x6/><x7/>save<x8/><x9/> the <x10/> file.<x11/>",
                          "<x7/>Enregistrer<x8/> le fichier <x10/> : <x1/>cliquez <x2/><x3/>ici<x4/><x9/><x11/>.")
                for s in segments]

    report = translate_file(source, out, reorder, progress=False)
    assert report.checks[1].status == "fail"  # the tags of " to " were dropped
    # the second run is the reference to the review comment; " to " lost its tags, so its run is empty
    assert _runs(out)[1] == [("cliquez ", None, None), ("", None, None), ("ici", True, None), ("", None, None),
                             ("Enregistrer le fichier {name} : ", None, True), (".", None, None)]
    import docx

    comments = list(docx.Document(str(out)).comments)
    assert [c.text for c in comments] == ["Please review this translation."]


def test_txt_round_trip_keeps_paragraphs(tmp_path):
    out = tmp_path / "letter.fr.txt"
    translate_file(DATA / "letter.txt", out, upper_words, progress=False)
    assert out.read_text(encoding="utf-8").split("\n\n") == [
        "THE FIRST PARAGRAPH IS HERE. IT IS HARD-WRAPPED.", "A SECOND PARAGRAPH WITH {name} AND %s.",
        "THE THIRD ONE.\n"]


def test_translator_must_return_one_translation_per_segment(tmp_path):
    with pytest.raises(ValueError):
        translate_file(DATA / "letter.txt", tmp_path / "out.txt", lambda segs: segs[:-1], progress=False)


@pytest.mark.parametrize("name, message", [
    ("broken.po", "not a readable gettext PO file"),
    ("broken.xlf", "not well-formed XML"),
    ("broken.srt", "not a valid SubRip file"),
    ("latin1.txt", "not UTF-8 text"),
    ("missing.po", "no such file"),
    ("notes.pdf", "unsupported file type '.pdf'"),
])
def test_bad_files_give_one_clear_error(name, message):
    with pytest.raises(InputError, match=re.escape(message)):
        read_document(DATA / name)


def test_a_file_that_is_not_a_docx_gives_a_clear_error(tmp_path):
    fake = tmp_path / "report.docx"
    fake.write_text("not a zip", encoding="utf-8")
    with pytest.raises(InputError, match="not a readable Word .docx file"):
        read_document(fake)
