"""The HTTP APIs on the real 0.5B model (llama.cpp, the embedded default), driven by the real clients:
DeepL's Python library and libretranslatepy, against one intercpt server started in-process on a free
loopback port."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib import parse, request

import httpx
import pytest

from assistant.backends import ModelSpec
from assistant.chain import Assistant
from ui.server import ServerSettings, build_app

pytestmark = pytest.mark.real_model

SOURCES = ["Can you send me the report?", "Do you have the figures?"]
CONTEXT = "An email from an employee to the director of the company."


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server_url(embedded_model, embedded_spec):
    import uvicorn

    assistant = Assistant.for_model(embedded_model, ModelSpec.parse(embedded_spec))
    app = build_app(assistant, embedded_spec,
                    ServerSettings(max_questions=1))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_the_deepl_client_translates_a_batch_with_formality_context_and_its_glossary(server_url, measure):
    import deepl

    # A small model on a CPU takes longer than the client waits by default; a retry would translate again.
    deepl.http_client.min_connection_timeout = 1800.0
    deepl.http_client.max_network_retries = 0
    translator = deepl.Translator("any-key-on-loopback", server_url=server_url)
    glossary = translator.create_glossary("reports", "EN", "FR", {"report": "rapport", "figures": "chiffres"})
    assert glossary.entry_count == 2 and glossary.target_lang == "FR"
    assert translator.get_glossary_entries(glossary) == {"report": "rapport", "figures": "chiffres"}
    assert [g.glossary_id for g in translator.list_glossaries()] == [glossary.glossary_id]
    started = time.perf_counter()
    results = translator.translate_text(SOURCES, source_lang="EN", target_lang="FR", formality="more",
                                        context=CONTEXT,
                                        glossary=glossary)
    seconds = time.perf_counter() - started
    assert len(results) == 2 and all(r.text.strip() for r in results)
    assert all(r.detected_source_lang == "EN" and r.billed_characters > 0 for r in results)
    billed = sum(len(source) + len(CONTEXT) for source in SOURCES)  # a text and the context a model reads with it
    assert translator.get_usage().character.count == billed
    # The same request, raw, shows what the client ignores: formality was an answer given in advance.
    raw = httpx.post(f"{server_url}/v2/translate", timeout=600, json={
        "text": SOURCES[:1], "target_lang": "FR", "source_lang": "EN", "formality": "more",
        "glossary_id": glossary.glossary_id}).json()["translations"][0]["intercpt"]
    formality = [q for q in raw["questions"] if q["ambiguity"] == "formality"]
    assert formality and all(q["answer"] == "formal" and q["answered_by"] == "preference" for q in formality)
    assert [c["expected"] for c in raw["checks"] if c["name"] == "terms"] == ["report → rapport"]
    translator.delete_glossary(glossary)
    assert translator.list_glossaries() == []
    measure(f"DeepL client on the 0.5B model, 2 texts with formality, context and glossary: {seconds:.1f} s; "
            f"{[r.text for r in results]}")


def test_libretranslatepy_translates_and_gets_the_alternatives_of_the_open_question(server_url, measure):
    from libretranslatepy import LibreTranslateAPI

    client = LibreTranslateAPI(server_url + "/")
    assert "fr" in next(lang for lang in client.languages() if lang["code"] == "en")["targets"]
    started = time.perf_counter()
    text = client.translate("Can you help me?", "en", "fr")
    assert isinstance(text, str) and text.strip()
    # libretranslatepy 2.1.4 has no alternatives argument: the same form request it sends, with one more field.
    form = parse.urlencode({"q": "Can you help me?", "source": "en", "target": "fr", "alternatives": 2}).encode()
    with request.urlopen(request.Request(client.url + "translate", data=form), timeout=600) as response:
        body = json.loads(response.read().decode())
    seconds = time.perf_counter() - started
    assert body["translatedText"].strip()
    assert len(body["alternatives"]) == 2 and all(a.strip() for a in body["alternatives"])
    assumptions = [a["assumption"] for a in body["intercpt"]["alternatives"]]
    assert assumptions == ["you → formal", "you → informal"]
    measure(f"LibreTranslate client on the 0.5B model, 2 requests: {seconds:.1f} s; alternatives "
            f"{body['alternatives']}")


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#, python-format
msgid "Can you open %(count)d file?"
msgid_plural "Can you open %(count)d files?"
msgstr[0] ""
msgstr[1] ""

#, python-brace-format
msgid "Do you want to delete {name}?"
msgstr ""
"""


def test_a_small_po_through_the_cli_asks_once_and_keeps_placeholders(intercpt_cli, embedded_spec, tmp_path, measure):
    import polib

    from assistant.formats.placeholders import find_placeholders

    source, out = tmp_path / "app.po", tmp_path / "app.fr.po"
    source.write_text(PO, encoding="utf-8")
    started = time.perf_counter()
    result = intercpt_cli("translate", "--file", str(source), "--to", "fr", "--out", str(out), "--json",
                          "--max-questions", "1", "--answer", "formal",
                          "--model", embedded_spec, timeout=1800)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    asked = [(t["ambiguity"], t["span"].lower()) for transcript in record["transcripts"]
             for t in transcript["turns"] if t["answered_by"] != "preference"]
    assert asked and len(asked) == len(set(asked)), asked  # each question once for the file
    catalog = polib.pofile(str(out))
    assert [e.msgid for e in catalog] == [e.msgid for e in polib.pofile(str(source))]
    statuses = [unit["placeholders"]["status"] for unit in record["units"]]
    for entry, status in zip(catalog, statuses):
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        assert all(text.strip() for text in texts)
        kept = all(find_placeholders(t) == find_placeholders(entry.msgid) for t in texts)
        assert kept == (status == "pass") and (kept or "fuzzy" in entry.flags)  # a lost one is flagged
    measure(f"translate --file on a 2-entry .po, 0.5B: {time.perf_counter() - started:.1f} s; placeholders "
            f"{statuses}; asked {asked}")


def test_a_stored_profile_answers_the_deepl_client_on_the_real_model(server_url, measure):
    """A CAT tool set up with a DeepL key gets the project's decisions: the profile's id goes with each call
    (the client's ``extra_body_parameters``), its answers reach the text and nobody is asked."""
    import deepl

    deepl.http_client.min_connection_timeout = 1800.0
    deepl.http_client.max_network_retries = 0
    created = httpx.post(f"{server_url}/v1/profiles", timeout=60, json={
        "name": "accounts", "profile": "register:\n  fr: informal\npeople:\n  user: a woman\n"})
    assert created.status_code == 200, created.text
    profile = {"profile_id": created.json()["profile_id"]}
    sources = ["Can you send me the report?", "Specific permissions for this user."]
    translator = deepl.Translator("any-key-on-loopback", server_url=server_url)
    started = time.perf_counter()
    results = translator.translate_text(sources, target_lang="FR", extra_body_parameters=profile)
    seconds = time.perf_counter() - started
    assert len(results) == 2 and all(r.text.strip() for r in results)
    assert "vous" not in results[0].text.lower(), results[0].text  # the informal register, as the profile says
    raw = httpx.post(f"{server_url}/v2/translate", timeout=600,
                     json={"text": sources, "target_lang": "FR", **profile}).json()["translations"]
    answered = [(q["ambiguity"], q["answer"], q["answered_by"]) for t in raw for q in t["intercpt"]["questions"]]
    assert ("formality", "informal", "preference") in answered and ("neutral_professions", "a woman", "preference") \
        in answered and {by for _, _, by in answered} == {"preference"}, answered
    measure(f"DeepL client with a stored profile (fr: informal, the user a woman) on the 0.5B model: {seconds:.1f} s; "
            f"{[r.text for r in results]}")


def test_a_stored_profile_answers_the_libretranslate_endpoint_on_the_real_model(server_url, measure):
    created = httpx.post(f"{server_url}/v1/profiles", timeout=60,
                         json={"name": "shop", "profile": "register:\n  fr: formal\n"})
    assert created.status_code == 200, created.text
    # libretranslatepy 2.1.4 sends no profile_id: the same form request it sends, with one more field.
    form = parse.urlencode({"q": "Can you send me the report?", "source": "en", "target": "fr",
                            "profile_id": created.json()["profile_id"]}).encode()
    started = time.perf_counter()
    with request.urlopen(request.Request(server_url + "/translate", data=form), timeout=600) as response:
        body = json.loads(response.read().decode())
    seconds = time.perf_counter() - started
    assert body["translatedText"].strip()
    register = [q for q in body["intercpt"]["questions"] if q["ambiguity"] == "formality"]
    assert register and all(q["answer"] == "formal" for q in register)  # the profile's answer, nothing asked
    checked = [c["status"] for c in body["intercpt"]["checks"] if c["name"] == "formality"]
    measure(f"LibreTranslate endpoint with a stored profile (fr: formal) on the 0.5B model: {seconds:.1f} s; "
            f"{body['translatedText']!r}; formality check {checked}")


def test_the_clarify_api_asks_about_anyone_of_a_kind_where_the_request_wants_inclusive_forms(server_url, measure):
    """The server keeps the generic form by default; a request with "inclusive": true is asked about "any blogger"
    (GATE fr dev half), and the answer reaches the transcript."""
    body = {"text": "This is more or less the question any blogger asks.", "target_lang": "fr"}
    plain = httpx.post(f"{server_url}/v1/clarify", json=body, timeout=600).json()
    assert plain["done"] is True and plain["transcript"]["turns"] == []
    started = httpx.post(f"{server_url}/v1/clarify", json={**body, "inclusive": True}, timeout=600).json()
    (question,) = started["questions"]
    assert question["span"] == "any blogger" and question["options"] == ["a man", "a woman"]
    answered = httpx.post(f"{server_url}/v1/clarify/{started['session']}", timeout=600,
                          json={"answers": [{"question": question["id"], "answer": "a woman"}]}).json()
    assert answered["done"] is True and answered["transcript"]["translation"]
    assert [(t["span"], t["answer"]) for t in answered["transcript"]["turns"]] == [("any blogger", "a woman")]
    measure(f"clarify, inclusive forms, real 0.5B: {answered['transcript']['translation']!r}")
