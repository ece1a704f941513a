"""The HTTP APIs on a fake chat model: DeepL's v2 subset, LibreTranslate's, /v1/clarify, keys, bounds, errors."""

from __future__ import annotations

import io
import json
import threading

import polib
import pytest
from fastapi.testclient import TestClient

from assistant.ambiguity import get_type
from assistant.chain import Assistant, ChainOptions
from assistant.transcript import Transcript
from tests.fakes import StepFake, prompt_step
from tests.test_fidelity import ECHOES, REFERENCE, SOURCE
from ui.server import ServerSettings, build_app, exposure_warnings, upload_names

KEY = {"Authorization": "DeepL-Auth-Key k1"}
ASK_IT = '{"ambiguous": true, "question": "What is it?", "options": ["a hat", "a car"]}'


def make_client(fake=None, *, host="127.0.0.1", web_app=False, **settings) -> TestClient:
    fake = fake or StepFake(translate=["Pouvez-vous m'aider ?"], detect=['{"ambiguous": false}'], calls=[])
    assistant = Assistant(fake, "fake:m")
    app = build_app(assistant, "fake:m", ServerSettings(**settings),
                    host=host, web_app=web_app)
    client = TestClient(app)
    client.fake = fake
    return client


@pytest.fixture
def client():
    return make_client()


def deepl_translate(client, headers=KEY, **body):
    return client.post("/v2/translate", json={"text": ["Can you help me?"], "target_lang": "FR", **body},
                       headers=headers)


# --- DeepL --------------------------------------------------------------------------------------------

def test_formality_answers_the_question_in_advance(client):
    response = deepl_translate(client, formality="more", text=["Can you help me?", "Do you agree?"])
    assert response.status_code == 200, response.text
    translations = response.json()["translations"]
    assert [t["text"] for t in translations] == ["Pouvez-vous m'aider ?"] * 2
    assert translations[0]["detected_source_language"] == "EN" and translations[0]["billed_characters"] == 16
    for t in translations:
        (question,) = t["intercpt"]["questions"]
        assert (question["ambiguity"], question["answer"], question["answered_by"]) == ("formality", "formal",
                                                                                      "preference")
        assert t["intercpt"]["alternatives"] == []
    assert "decide" not in client.fake.steps()  # a question answered in advance costs no model call
    prompts = [m[-1].content for step, m, _ in client.fake.calls if step == "translate"]
    assert all("formal" in prompt for prompt in prompts)


def test_without_formality_the_best_guess_comes_alone_at_one_model_call_more_than_nothing_open():
    calls = {}
    for text, reply in (("The surgeon is tired.", "Le chirurgien est fatigué."), ("Blair is tired.", "Blair est fatigué."),
                        ("Can you help me?", "Pouvez-vous m'aider ?"), ("Good morning.", "Bonjour.")):
        client = make_client(StepFake(translate=[reply], detect=['{"ambiguous": false}'], calls=[]))
        response = client.post("/v2/translate", data={"text": text, "target_lang": "fr"}, headers=KEY)
        assert response.status_code == 200, response.text  # a form body, one text
        calls[text] = client.fake.steps()
    extra = response.json()["translations"][0]["intercpt"]
    assert calls["Good morning."] == ["translate"]
    assert calls["Can you help me?"] == ["translate"]  # the register is open whatever a model reads
    assert calls["The surgeon is tired."] == ["translate"]  # a person noun no pronoun may settle is open
    assert sorted(calls["Blair is tired."]) == ["decide", "translate"]  # no DeepL client reads an alternative
    assert make_client().post("/v2/translate", data={"text": "Can you help me?", "target_lang": "fr"},
                              headers=KEY).json()["translations"][0]["intercpt"]["alternatives"] == []
    assert extra["questions"] == []


def test_a_context_is_read_by_a_simulated_user_who_answers():
    client = make_client(StepFake(translate=["Peux-tu m'aider ?"], user=["informal"], calls=[]))
    response = deepl_translate(client, context="I am writing to my little brother.", formality="default")
    question = response.json()["translations"][0]["intercpt"]["questions"][0]
    assert (question["answer"], question["answered_by"]) == ("informal", "simulated")
    user_prompt = next(m for step, m, _ in client.fake.calls if step == "user")
    assert "little brother" in user_prompt[-1].content


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"target_lang": "IT"}, 400, "Value for 'target_lang' not supported"),
    ({"source_lang": "DE"}, 400, "intercpt translates from English"),
    ({"formality": "very"}, 400, "formality"),
    ({"text": []}, 400, "nothing to translate"),
    ({"text": ["Hi."] * 4}, 400, "too many texts: at most 3"),
    ({"text": ["x" * 101]}, 413, "at most 100"),
    ({"max_questions": 9}, 400, "max_questions must be between 0 and 3"),
    ({"glossary_id": "nope", "source_lang": "EN"}, 404, "no glossary"),
    ({"glossary_id": "nope"}, 400, "requires the source_lang"),
    ({"text": ["\x00\x01binary"]}, 400, "binary data"),
])
def test_bad_requests_get_deepls_codes_and_a_message(body, status, message):
    client = make_client(max_texts=3, max_text_chars=100)
    response = deepl_translate(client, **body)
    assert response.status_code == status and message in response.json()["message"], response.text


def test_languages_and_usage(client):
    assert client.get("/v2/languages", headers=KEY).json() == [{"language": "EN", "name": "English"}]
    targets = client.get("/v2/languages", params={"type": "target"}, headers=KEY).json()
    assert [t["language"] for t in targets] == ["FR", "DE", "ES", "JA"] and all(t["supports_formality"] for t in targets)
    deepl_translate(client, formality="less")
    assert client.get("/v2/usage", headers=KEY).json()["character_count"] == len("Can you help me?")


def test_glossaries_are_created_listed_used_and_deleted(client):
    created = client.post("/v2/glossaries", json={"name": "bank", "source_lang": "EN", "target_lang": "FR",
                                                  "entries": "bank account\tcompte bancaire\nreport\trapport\n",
                                                  "entries_format": "tsv"}, headers=KEY)
    assert created.status_code == 201, created.text
    info = created.json()
    assert (info["entry_count"], info["source_lang"], info["target_lang"], info["ready"]) == (2, "en", "fr", True)
    gid = info["glossary_id"]
    assert [g["glossary_id"] for g in client.get("/v2/glossaries", headers=KEY).json()["glossaries"]] == [gid]
    assert client.get(f"/v2/glossaries/{gid}/entries", headers=KEY).text == ("bank account\tcompte bancaire\n"
                                                                               "report\trapport\n")
    response = deepl_translate(client, text=["Send the report."], source_lang="EN", glossary_id=gid)
    checks = response.json()["translations"][0]["intercpt"]["checks"]
    assert [c["expected"] for c in checks if c["name"] == "terms"] == ["report → rapport"]
    prompt = next(m for step, m, _ in client.fake.calls if step == "translate")[-1].content
    assert '"report" → "rapport"' in prompt
    wrong = deepl_translate(client, target_lang="DE", source_lang="EN", glossary_id=gid)
    assert wrong.status_code == 400 and "translates into FR" in wrong.json()["message"]
    assert client.delete(f"/v2/glossaries/{gid}", headers=KEY).status_code == 204
    assert client.get(f"/v2/glossaries/{gid}", headers=KEY).status_code == 404


@pytest.mark.parametrize(("entries", "entries_format", "message"), [
    ("only one column\n", "tsv", "entries, line 1: expected a source term and a target term"),
    ("a,b\n", "xml", "entries_format must be tsv or csv"),
])
def test_bad_glossary_entries_are_refused_in_one_line(client, entries, entries_format, message):
    response = client.post("/v2/glossaries", json={"name": "g", "source_lang": "EN", "target_lang": "FR",
                                                   "entries": entries, "entries_format": entries_format}, headers=KEY)
    assert response.status_code == 400 and message in response.json()["message"], response.text


def test_csv_glossaries_are_read_too_and_belong_to_their_key():
    client = make_client(api_keys=None)
    import os
    os.environ["INTERCPT_API_KEYS"] = "k1,k2"
    try:
        client = make_client()
        created = client.post("/v2/glossaries", data={"name": "g", "source_lang": "EN", "target_lang": "FR",
                                                      "entries": "report,rapport\n", "entries_format": "csv"},
                              headers=KEY).json()
        other = {"Authorization": "DeepL-Auth-Key k2"}
        assert client.get("/v2/glossaries", headers=other).json() == {"glossaries": []}
        assert client.get(f"/v2/glossaries/{created['glossary_id']}", headers=other).status_code == 404
    finally:
        del os.environ["INTERCPT_API_KEYS"]


# --- keys, rates, quotas, the queue, bodies -----------------------------------------------------------

def test_keys_are_off_on_loopback_and_checked_once_configured(tmp_path):
    assert deepl_translate(make_client(), headers={}).status_code == 200
    keys = tmp_path / "keys.txt"
    keys.write_text("# our clients\nk1\n", encoding="utf-8")
    client = make_client(api_keys=keys)
    assert deepl_translate(client, headers={}).status_code == 403
    assert deepl_translate(client, headers={"Authorization": "DeepL-Auth-Key k2"}).status_code == 403
    assert deepl_translate(client).status_code == 200
    libre = client.post("/translate", json={"q": "Hello", "target": "fr"})
    assert libre.status_code == 403 and "API key" in libre.json()["error"]
    assert client.post("/translate", json={"q": "Hello", "target": "fr", "api_key": "k1"}).status_code == 200


def test_off_loopback_the_apis_need_keys_and_the_app_a_password(tmp_path):
    client = make_client(host="0.0.0.0")
    response = deepl_translate(client)
    assert response.status_code == 403 and "no API keys configured" in response.json()["message"]
    warnings = exposure_warnings(ServerSettings(), "0.0.0.0")
    assert any("--auth USER:PASS" in w for w in warnings) and any("API keys" in w for w in warnings)
    keys = tmp_path / "keys.txt"
    keys.write_text("k1\n")
    assert exposure_warnings(ServerSettings(auth="ann:secret", api_keys=keys), "0.0.0.0") == []
    assert exposure_warnings(ServerSettings(), "127.0.0.1") == []


def test_rate_and_quota_per_key_answer_429_and_456():
    client = make_client(rate_limit=2)
    assert [client.get("/v2/usage", headers=KEY).status_code for _ in range(3)] == [200, 200, 429]
    limited = client.get("/v2/usage", headers=KEY)
    assert "at most 2 a minute" in limited.json()["message"] and int(limited.headers["Retry-After"]) > 0
    client = make_client(character_limit=20)
    assert deepl_translate(client).status_code == 200
    over = deepl_translate(client)
    assert over.status_code == 456 and "quota exceeded" in over.json()["message"]


def test_a_full_queue_says_busy_try_again():
    client = make_client(queue_size=0)
    service = client.app.state.service
    held, release = threading.Event(), threading.Event()

    def hold():
        with service.gate.enter():
            held.set()
            release.wait(5)

    worker = threading.Thread(target=hold)
    worker.start()
    held.wait(5)
    try:
        response = deepl_translate(client)
    finally:
        release.set()
        worker.join()
    assert response.status_code == 429 and "busy, try again" in response.json()["message"]
    assert deepl_translate(client).status_code == 200


def test_a_body_past_the_bound_is_refused_before_it_is_read():
    client = make_client(max_file_size=1)
    response = client.post("/v2/translate", content=b"x" * (2 * 1024 * 1024), headers={**KEY,
                           "Content-Type": "application/json"})
    assert response.status_code == 413 and "larger than 1 MB" in response.json()["message"]
    assert client.app.state.service.gate  # the server still answers
    assert deepl_translate(client).status_code == 200


# --- LibreTranslate -----------------------------------------------------------------------------------

def test_libre_translate_with_alternatives_from_the_open_question(client):
    response = client.post("/translate", data={"q": "Can you help me?", "source": "auto", "target": "fr",
                                               "alternatives": "2"})
    body = response.json()
    assert response.status_code == 200, response.text
    assert body["translatedText"] == "Pouvez-vous m'aider ?" and len(body["alternatives"]) == 2
    assert body["detectedLanguage"] == {"confidence": 100.0, "language": "en"}
    before = client.fake.steps().count("translate")
    listed = client.post("/translate", json={"q": ["Can you help me?", "Are you sure?"], "target": "fr"}).json()
    assert listed["translatedText"] == ["Pouvez-vous m'aider ?"] * 2 and "alternatives" not in listed
    assert client.fake.steps().count("translate") == before + 2  # none asked for: one translation a text


def test_libre_html_keeps_the_tags():
    fake = StepFake(translate=["Cliquez <x1/>ici<x2/>."], decide=['{}'], detect=['{"ambiguous": false}'], calls=[])
    client = make_client(fake)
    body = client.post("/translate", json={"q": 'Click <a href="/x">here</a>.', "target": "fr",
                                           "format": "html"}).json()
    assert body["translatedText"] == 'Cliquez <a href="/x">ici</a>.'
    source = next(m for step, m, _ in fake.calls if step == "translate")[-1].content
    assert "href" not in source  # the model sees tokens, not the markup


@pytest.mark.parametrize(("body", "message"), [
    ({"q": "Hi", "target": "it"}, "it is not supported as a target language"),
    ({"q": "Hi", "source": "de", "target": "fr"}, "intercpt translates from en"),
    ({"q": "Hi", "target": "fr", "format": "pdf"}, "format must be text or html"),
    ({"target": "fr"}, "q: Field required"),
])
def test_libre_errors_are_one_line_in_error(client, body, message):
    response = client.post("/translate", json=body)
    assert response.status_code == 400 and message in response.json()["error"], response.text


def test_libre_languages(client):
    languages = client.get("/languages").json()
    assert languages[0] == {"code": "en", "name": "English", "targets": ["fr", "de", "es", "ja"]}


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#, python-format
msgid "Can you see %(count)d file?"
msgid_plural "Can you see %(count)d files?"
msgstr[0] ""
msgstr[1] ""

msgid "Do you want to save {name}?"
msgstr ""
"""


def test_translate_file_asks_once_keeps_placeholders_and_plurals():
    fake = StepFake(translate=["Voulez-vous <x1/> ?"], calls=[])
    client = make_client(fake)
    response = client.post("/translate_file", data={"target": "fr", "formality": "more"},
                           files={"file": ("app.po", PO.encode(), "text/x-gettext")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["intercpt"]["units"] == 2 and body["intercpt"]["placeholders_failed"] == []
    assert body["intercpt"]["questions"] == []  # answered in advance: asked nowhere
    downloaded = client.get(body["translatedFileUrl"])
    assert downloaded.status_code == 200
    catalog = polib.pofile(downloaded.text)
    plural = catalog[0]
    assert plural.msgstr_plural == {0: "Voulez-vous %(count)d ?", 1: "Voulez-vous %(count)d ?"}
    assert catalog[1].msgstr == "Voulez-vous {name} ?"


def test_uploads_of_other_types_or_past_the_bound_are_refused_before_they_are_stored(tmp_path):
    client = make_client(max_file_size=1)
    script = client.post("/translate_file", data={"target": "fr"}, files={"file": ("run.sh", b"rm -rf /\n")})
    assert script.status_code == 400 and "run.sh: this file type is not accepted" in script.json()["error"]
    big = client.post("/translate_file", data={"target": "fr"},
                      files={"file": ("big.po", io.BytesIO(b"#" * (30 * 1024 * 1024)))})
    assert big.status_code == 413 and "larger than 1 MB" in big.json()["error"]
    missing = client.post("/translate_file", data={"target": "fr"}, files={"other": ("a.po", b"x")})
    assert missing.status_code == 400 and "missing file" in missing.json()["error"]


def test_the_web_app_shares_the_port_and_its_uploads_are_bounded_too():
    client = make_client(web_app=True, max_file_size=1)
    assert client.get("/").status_code == 200
    assert "/v2/translate" in client.get("/openapi.json").json()["paths"]
    assert client.get("/docs").status_code == 200
    script = client.post("/gradio_api/upload", files={"files": ("evil.sh", b"echo hi\n")})
    assert script.status_code == 400 and "not accepted" in script.text
    big = client.post("/gradio_api/upload", files={"files": ("big.txt", b"a" * (30 * 1024 * 1024))})
    assert big.status_code == 413
    fine = client.post("/gradio_api/upload", files={"files": ("notes.txt", b"hello\n")})
    assert fine.status_code == 200, fine.text


def test_upload_names_reads_every_parts_file_name():
    body = (b'--b\r\nContent-Disposition: form-data; name="target"\r\n\r\nfr\r\n'
            b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.po"\r\n\r\nfilename="x.sh"\r\n--b--\r\n')
    assert upload_names(body, "multipart/form-data; boundary=b") == ["a.po"]


# --- /v1/clarify --------------------------------------------------------------------------------------

def test_clarify_asks_then_translates_with_the_answer(client):
    started = client.post("/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr"})
    body = started.json()
    assert started.status_code == 200 and body["done"] is False and body["session"]
    (question,) = body["questions"]
    assert question["ambiguity"] == "formality" and question["options"] == list(get_type("formality").options("fr"))
    assert question["id"] == "q1"
    url = f"/v1/clarify/{body['session']}"
    answered = client.post(url, json={"answers": [{"question": "q1", "answer": "Formal"}]}).json()
    assert answered["done"] is True and answered["questions"] == []
    transcript = Transcript.from_dict(answered["transcript"])
    assert transcript.translation == "Pouvez-vous m'aider ?" and transcript.turns[0].answer == "formal"
    assert transcript.turns[0].answered_by == "human"
    translations = client.fake.steps().count("translate")
    again = client.post(url, json={"answers": [{"question": "q1", "answer": "formal"}]})
    assert again.status_code == 200 and again.json() == answered  # a retried answer changes nothing
    assert client.fake.steps().count("translate") == translations
    changed = client.post(url, json={"answers": [{"question": "q1", "answer": "informal"}]})
    assert changed.status_code == 409 and "already answered 'formal'" in changed.json()["detail"]


@pytest.mark.parametrize(("server", "asked", "spans"), [
    (False, None, []), (False, True, ["Any user"]), (True, None, ["Any user"]), (True, False, [])])
def test_clarify_asks_about_anyone_of_a_kind_where_the_request_or_else_the_server_wants_inclusive_forms(
        server, asked, spans):
    """ "inclusive" in the first request wins over the server's --inclusive; left out, the server's holds."""
    fake = StepFake(translate=["N'importe quel utilisateur peut commenter."], detect=['{"ambiguous": false}'],
                    calls=[])
    client = TestClient(build_app(Assistant(fake, "fake:m", ChainOptions(inclusive=server)), "fake:m"))
    request = {"text": "Any user can post a comment.", "target_lang": "fr"}
    body = client.post("/v1/clarify", json=request if asked is None else {**request, "inclusive": asked}).json()
    assert [q["span"] for q in body["questions"]] == spans and body["done"] is not spans


@pytest.mark.parametrize(("answers", "status", "message"), [
    (["formal"], 400, 'each answer names its question: {"question": ID, "answer": VALUE}'),
    ([{"question": "q2", "answer": "formal"}], 400, "no question 'q2' in this session (the pending one is q1)"),
    ([{"question": "q1", "answer": "a woman"}], 400, "the answer to q1 is not one of its options (formal, "),
    ([{"question": "q1", "answer": "formal"}, {"question": "q1", "answer": "informal"}], 400, "two different"),
    ([{"question": "q1", "answer": "x" * 101}], 413, "the answer to q1 has 101 characters; it takes at most 100"),
])
def test_clarify_answers_name_their_question_and_take_its_options(answers, status, message):
    client = make_client(max_text_chars=100)
    body = client.post("/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr"}).json()
    refused = client.post(f"/v1/clarify/{body['session']}", json={"answers": answers})
    assert refused.status_code == status and message in refused.json()["detail"], refused.text
    assert "translate" not in client.fake.steps()
    still = client.post(f"/v1/clarify/{body['session']}", json={"answers": [{"question": "q1", "answer": None}]})
    assert still.json()["done"]  # nothing was recorded: the question was still open


def test_the_api_docs_say_clarify_answers_are_json_only(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert list(paths["/v1/clarify/{session_id}"]["post"]["requestBody"]["content"]) == ["application/json"]
    assert "application/x-www-form-urlencoded" in paths["/v1/clarify"]["post"]["requestBody"]["content"]


def test_clarify_skipping_gives_alternatives_when_asked_for_and_nothing_to_ask_is_done_at_once():
    client = make_client(StepFake(detect=[ASK_IT], translate=["Il est là."], calls=[]))
    body = client.post("/v1/clarify", json={"text": "I saw a hat and a car. Where is it?", "target_lang": "fr"}).json()
    assert body["questions"][0]["question"].startswith("What does “it” refer to here?")
    assert body["questions"][0]["id"] == "q1"
    done = client.post(f"/v1/clarify/{body['session']}", json={"answers": [{"question": "q1", "answer": None}]}).json()
    assert done["done"] and done["transcript"]["turns"][0]["answered_by"] == "none"
    assert done["transcript"]["alternatives"] == [] and not done["transcript"]["alternatives_requested"]
    you = client.post("/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr", "alternatives": True,
                                           "max_questions": 1}).json()
    (question,) = you["questions"]
    done = client.post(f"/v1/clarify/{you['session']}",
                       json={"answers": [{"question": question["id"], "answer": None}]}).json()
    assert [a["assumption"] for a in done["transcript"]["alternatives"]] == ["you → formal", "you → informal"]
    quiet = client.post("/v1/clarify", json={"text": "Good morning.", "target_lang": "fr"}).json()
    assert quiet["done"] and quiet["transcript"]["translation"] == "Il est là."


class FailingFake(StepFake):
    """A model whose translations fail while ``failing`` is set."""

    failing: bool = False

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if self.failing and prompt_step(run_manager) == "translate":
            raise RuntimeError("the model server failed")
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_clarify_an_answer_whose_translation_failed_is_sent_again_and_billed_once():
    fake = FailingFake(translate=["Aide-moi ?"], calls=[], failing=True)
    client = make_client(fake)
    body = client.post("/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr"}).json()
    url, informal = f"/v1/clarify/{body['session']}", {"answers": [{"question": "q1", "answer": "informal"}]}
    with pytest.raises(RuntimeError, match="the model server failed"):
        client.post(url, json=informal)
    assert client.get("/v2/usage").json()["character_count"] == len("Can you help me?")  # nothing delivered
    assert client.post(url, json={"answers": [{"question": "q1", "answer": "formal"}]}).status_code == 409
    fake.failing = False
    done = client.post(url, json=informal).json()
    assert done["done"] and done["transcript"]["translation"] == "Aide-moi ?"
    assert client.get("/v2/usage").json()["character_count"] == len("Can you help me?") + len("informal")


def test_clarify_open_questions_take_free_text():
    client = make_client(StepFake(detect=[ASK_IT], translate=["Il est là."], calls=[]))
    body = client.post("/v1/clarify", json={"text": "I saw a hat and a car. Where is it?", "target_lang": "fr"}).json()
    done = client.post(f"/v1/clarify/{body['session']}", json={"answers": [{"question": "q1", "answer": " a vase "}]})
    assert done.status_code == 200 and done.json()["transcript"]["turns"][0]["answer"] == "a vase"


def test_clarify_sessions_belong_to_their_key(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("k1\nk2\n")
    client = make_client(api_keys=keys)
    body = client.post("/v1/clarify", json={"text": "Can you help me?", "target_lang": "fr"},
                       headers={"Authorization": "Bearer k1"}).json()
    other = client.post(f"/v1/clarify/{body['session']}", json={"answers": [{"question": "q1", "answer": "formal"}]},
                        headers={"Authorization": "Bearer k2"})
    assert other.status_code == 404


def test_bad_auth_settings_fail_in_one_line():
    from assistant.errors import InputError

    with pytest.raises(InputError, match="USER:PASSWORD"):
        ServerSettings(auth="nopassword").credentials()
    assert json.dumps(ServerSettings(auth="ann:pw").credentials()) == '["ann", "pw"]'


# --- #26: what each API delivers is the translation only -----------------------------------------------

def _deepl(client) -> tuple[str, list[dict]]:
    body = deepl_translate(client, text=[SOURCE], formality="more").json()["translations"][0]
    return body["text"], body["intercpt"]["checks"]


def _libre(client) -> tuple[str, list[dict]]:
    body = client.post("/translate", data={"q": SOURCE, "source": "en", "target": "fr", "formality": "more"}).json()
    return body["translatedText"], body["intercpt"]["checks"]


def _clarify(client) -> tuple[str, list[dict]]:
    body = client.post("/v1/clarify", json={"text": SOURCE, "target_lang": "fr"}).json()
    answers = {"formality": "formal", "person_gender": "a man"}
    while not body["done"]:
        (question,) = body["questions"]
        body = client.post(f"/v1/clarify/{body['session']}", json={"answers": [
            {"question": question["id"], "answer": answers[question["ambiguity"]]}]}).json()
    return body["transcript"]["translation"], body["transcript"]["checks"]


@pytest.mark.parametrize("echo", ECHOES)
@pytest.mark.parametrize("api", [_deepl, _libre, _clarify], ids=["deepl", "libre", "clarify"])
def test_a_sentence_restating_an_answer_is_not_delivered_and_never_a_passed_check(api, echo):
    """A reply that appends a translated instruction ("Je m'adresse à vous formellement.") to a right
    translation: the API delivers the translation without it, and its fidelity check records it removed."""
    client = make_client(StepFake(translate=[f"{REFERENCE} {echo}"], calls=[]))
    text, checks = api(client)
    assert text == REFERENCE
    (fidelity,) = [c for c in checks if c["name"] == "fidelity"]
    assert f"removed “{echo}”" in fidelity["observed"] and f"{echo}: removed" in fidelity["features"]
    assert not [c for c in checks if c["status"] == "pass" and c["name"] != "fidelity" and echo in json.dumps(
        c, ensure_ascii=False)]
    assert any(c["name"] == "formality" and c["status"] == "pass" for c in checks)  # the answer reached the model


@pytest.mark.parametrize("echo", ECHOES)
@pytest.mark.parametrize("path", ["/translate", "/v2/translate"], ids=["libre", "deepl"])
def test_with_no_answer_an_added_sentence_is_not_delivered(path, echo):
    """What a client without intercpt's formality field sends (libretranslatepy, a plain DeepL client):
    the question gets the best guess, the model is told nothing to restate, and still appends a sentence,
    which reads as no sentence of the source: it is cut, and the check says so."""
    client = make_client(StepFake(translate=[f"{REFERENCE} {echo}"], calls=[]))
    if path == "/translate":
        body = client.post(path, data={"q": SOURCE, "source": "en", "target": "fr"}).json()
        text, checks = body["translatedText"], body["intercpt"]["checks"]
    else:
        body = client.post(path, data={"text": SOURCE, "target_lang": "fr"}, headers=KEY).json()["translations"][0]
        text, checks = body["text"], body["intercpt"]["checks"]
    (fidelity,) = [c for c in checks if c["name"] == "fidelity"]
    assert text == REFERENCE and f"removed “{echo}”" in fidelity["observed"], fidelity["observed"]


def test_the_deepl_client_reads_the_translation_without_the_restated_answer():
    """The same through DeepL's own Python library against the app served on a loopback port."""
    import deepl

    from tests.browser import serving

    client = make_client(StepFake(translate=[f"{REFERENCE} {ECHOES[0]}"], calls=[]))
    with serving(client.app) as url:
        translator = deepl.Translator("any-key-on-loopback", server_url=url.rstrip("/"))
        result = translator.translate_text(SOURCE, source_lang="EN", target_lang="FR", formality="more")
    assert result.text == REFERENCE
