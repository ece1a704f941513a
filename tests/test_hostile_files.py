"""Hostile files, built here, through the real server (``/translate_file``) and the real CLI
(``intercpt translate --file``): a PO that declares a hundred million plural forms, a Word zip bomb,
a damaged Word file, subtitles made to stall a pattern. Each is refused in the interface's own error
format (LibreTranslate's ``{"error": …}``, one CLI line) before it costs memory, time or a model call;
the server stays up and its memory grows by less than ``MAX_GROWTH_KB``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import docx
import httpx
import pytest

from assistant.errors import InputError
from assistant.formats import read_document
from assistant.formats.packages import MAX_MEMBERS, MAX_UNPACKED_BYTES
from assistant.formats.po import MAX_PLURAL_FORMS
from tests.fake_openai import FakeOpenAIServer
from tests.live_server import ROOT, intercpt_ui

MAX_GROWTH_KB = 100 * 1024
BOMB_BYTES = 300 * 1024 * 1024

PO_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
PO_PLURAL = 'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n'


def plural_po(nplurals: str) -> bytes:
    """A 150-byte PO whose header declares ``nplurals`` and which has one plural entry to translate."""
    return (PO_HEADER.format(forms=f"nplurals={nplurals}; plural=(n != 1);") + PO_PLURAL).encode()


def small_docx() -> bytes:
    document = docx.Document()
    document.add_paragraph("Could you sign here?")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def rezipped(package: bytes, extra: dict[str, bytes] | None = None, replace: dict[str, bytes] | None = None,
             compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """``package``'s members with some replaced and some added, compressed as asked (level 9)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w", compression,
                                                                         compresslevel=9) as target:
        for member in source.infolist():
            target.writestr(member.filename, (replace or {}).get(member.filename, source.read(member)))
        for name, data in (extra or {}).items():
            target.writestr(name, data)
    return out.getvalue()


def zip_bomb() -> bytes:
    """A sound Word file whose document.xml ends in 300 MB of blank space: a few hundred KB packed."""
    with zipfile.ZipFile(io.BytesIO(small_docx())) as package:
        xml = package.read("word/document.xml")
    return rezipped(small_docx(), replace={"word/document.xml": xml + b" " * BOMB_BYTES})


def lying_zip_bomb() -> bytes:
    """A zip bomb whose central directory states 1 KB for the 300 MB member, so only unpacking tells."""
    bomb = zip_bomb()
    entry = bomb.find(b"PK\x01\x02")  # the central directory's entries: name at 46, stated size at 24
    while bomb[entry + 46:entry + 46 + len(b"word/document.xml")] != b"word/document.xml":
        entry = bomb.find(b"PK\x01\x02", entry + 4)
    return bomb[:entry + 24] + (1024).to_bytes(4, "little") + bomb[entry + 28:]


def damaged_docx() -> bytes:
    """A zip with Word's parts whose main document is cut off mid-element."""
    with zipfile.ZipFile(io.BytesIO(small_docx())) as package:
        xml = package.read("word/document.xml")
    return rezipped(small_docx(), replace={"word/document.xml": xml[:len(xml) // 2]})


HOSTILE = {
    "plurals.po": (plural_po("99999999"), f"between 1 and {MAX_PLURAL_FORMS} plural forms"),
    "bomb.docx": (zip_bomb(), f"{MAX_UNPACKED_BYTES // (1024 * 1024)} MB unpacked"),
    "lying.docx": (lying_zip_bomb(), "a damaged or encrypted zip"),
    "damaged.docx": (damaged_docx(), "not a readable Word .docx file"),
    "notzip.docx": (b"PK\x03\x04 this is not a zip at all", "not a readable Word .docx file"),
    "stall.srt": (b"9" * 5000 + b"\n", "more than 20 digits"),
}


# --- fast unit checks of the bounds -------------------------------------------------------------------

@pytest.mark.parametrize("nplurals", ["0", "7", "99999999", "9" * 5000])
def test_po_plural_forms_out_of_range_are_refused_naming_the_bound(tmp_path, nplurals):
    path = tmp_path / "messages.po"
    path.write_bytes(plural_po(nplurals))
    with pytest.raises(InputError, match=f"between 1 and {MAX_PLURAL_FORMS} plural forms"):
        read_document(path)


def test_po_plural_forms_within_range_are_written(tmp_path):
    from assistant.formats import UnitTranslation

    path = tmp_path / "messages.po"
    path.write_bytes(plural_po("3"))
    document = read_document(path)
    document.write([UnitTranslation(("Un fichier", "%d fichiers"))], tmp_path / "out.po", "fr")
    assert (tmp_path / "out.po").read_text().count('msgstr[2] "%d fichiers"') == 1


def test_po_plural_forms_bound_covers_every_language_of_the_toolkit():
    from translate.lang.data import languages

    assert MAX_PLURAL_FORMS == max(nplurals for _, nplurals, _ in languages.values())


def test_docx_with_too_many_parts_is_refused(tmp_path):
    path = tmp_path / "parts.docx"
    path.write_bytes(rezipped(small_docx(), extra={f"extra/part{n}.xml": b"<a/>" for n in range(MAX_MEMBERS)}))
    with pytest.raises(InputError, match=f"at most {MAX_MEMBERS} parts"):
        read_document(path)


def test_docx_compressed_with_another_method_is_refused(tmp_path):
    path = tmp_path / "bzip.docx"
    path.write_bytes(rezipped(small_docx(), compression=zipfile.ZIP_BZIP2))
    with pytest.raises(InputError, match="deflated or stored"):
        read_document(path)


def test_sound_docx_still_reads_after_the_checks(tmp_path):
    path = tmp_path / "sound.docx"
    path.write_bytes(small_docx())
    assert [unit.source for unit in read_document(path).units] == ["Could you sign here?"]


@pytest.mark.parametrize("text", ["\n" * 20000 + "x", "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n0:0:0" + "9" * 20,
                                  "1\n" + "9" * 20 + ":00:01,000 --> 00:00:02,000\nHi\n"])
def test_srt_that_stalls_or_overflows_srt_is_refused_at_once(tmp_path, text):
    path = tmp_path / "stall.srt"
    path.write_text(text)
    started = time.monotonic()
    with pytest.raises(InputError, match="not a valid SubRip file"):
        read_document(path)
    assert time.monotonic() - started < 2


def test_xliff_whose_root_is_not_xliff_is_refused(tmp_path):
    path = tmp_path / "wrong.xliff"
    path.write_text('<?xml version="1.0"?><foo version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"/>')
    with pytest.raises(InputError, match="not a readable XLIFF file: its root is not an XLIFF element"):
        read_document(path)


# --- the real server and the real CLI -----------------------------------------------------------------

@pytest.fixture(scope="module")
def fake():
    with FakeOpenAIServer(reply="Pourriez-vous signer ici ?") as server:
        yield server


@pytest.fixture(scope="module")
def live(fake, tmp_path_factory):
    with intercpt_ui(f"openai:{fake.url}#fake", tmp_path=tmp_path_factory.mktemp("ui")) as server:
        yield server


@pytest.mark.parametrize("name", list(HOSTILE))
def test_server_refuses_a_hostile_file_with_400_and_stays_up_and_small(live, fake, name):
    data, message = HOSTILE[name]
    requests_before, memory_before, peak_before = fake.requests, live.memory_kb(), live.memory_kb("VmHWM")
    answer = httpx.post(f"{live.url}/translate_file", data={"source": "en", "target": "fr"},
                        files={"file": (name, data)}, timeout=60)
    assert answer.status_code == 400, answer.text
    assert set(answer.json()) == {"error"} and message in answer.json()["error"], answer.text
    assert live.alive()
    assert httpx.get(f"{live.url}/languages", timeout=10).status_code == 200
    assert live.memory_kb() - memory_before < MAX_GROWTH_KB
    assert live.memory_kb("VmHWM") - peak_before < MAX_GROWTH_KB
    assert fake.requests == requests_before  # refused before any model call


@pytest.mark.parametrize("name", list(HOSTILE))
def test_cli_refuses_a_hostile_file_in_one_line(fake, tmp_path, name):
    data, message = HOSTILE[name]
    path = tmp_path / name
    path.write_bytes(data)
    result = subprocess.run([sys.executable, "-m", "assistant.cli.main", "translate", "--file", str(path),
                             "--to", "fr", "--model", f"openai:{fake.url}#fake"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "EMPTY"})
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0
    assert len(lines) == 1 and lines[0].startswith("intercpt: error:") and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("name", list(HOSTILE))
def test_page_file_panel_refuses_a_hostile_file_with_a_message(tmp_path, name):
    from ui.files import FileHandlers

    data, message = HOSTILE[name]
    path = tmp_path / name
    path.write_bytes(data)
    kept, line = FileHandlers.check_file(str(path))
    assert kept is None and line.startswith("⚠️") and message in line, line
