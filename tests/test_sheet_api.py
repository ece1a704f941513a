"""``/v1/sheet`` on a fake chat model: a document's questions at once with ids, answered in one request, every
text translated with the answers; bounded, billed, safe to retry."""

from __future__ import annotations

import json
from urllib import error, parse, request

import pytest

from tests.browser import serving
from tests.fakes import StepFake
from tests.test_http_api import make_client

TEXTS = ["Can you help me?", "Alex was glad to send you a message.", "Alex left early.", "Thank you."]
KEY = {"Authorization": "Bearer k1"}


@pytest.fixture
def client():
    return make_client(StepFake(translate=["Pouvez-vous m'aider ?"], detect=['{"ambiguous": false}'], calls=[]))


def start(client, **body):
    return client.post("/v1/sheet", json={"texts": TEXTS, "target_lang": "FR", **body})


def test_the_sheet_comes_at_once_and_its_answers_reach_every_text(client):
    response = start(client)
    assert response.status_code == 200, response.text
    sheet = response.json()
    assert [(q["id"], q["type"], q["segment_count"]) for q in sheet["questions"]] == [
        ("q1", "formality", 2), ("q2", "neutral_names", 2)]
    assert sheet["translations"] is None and "translate" not in client.fake.steps()

    answered = client.post(f"/v1/sheet/{sheet['sheet']}", json={"answers": [{"question": "q1", "answer": "Formal"}]})
    assert answered.status_code == 200, answered.text
    translations = answered.json()["translations"]
    assert len(translations) == len(TEXTS)
    assert translations[1]["note"] == "you → formal (answered for the whole file); Alex → the model's guess (not answered)"
    assert translations[1]["guessed"] and not translations[0]["guessed"]
    questions = [q for t in translations for q in t["intercpt"]["questions"] if q["ambiguity"] == "formality"]
    assert {(q["answer"], q["answered_by"]) for q in questions} == {("formal", "preference")}

    again = client.post(f"/v1/sheet/{sheet['sheet']}", json={"answers": [{"question": "q1", "answer": "formal"}]})
    assert again.json()["translations"] == translations  # a retry gets the same translations, without new work
    other = client.post(f"/v1/sheet/{sheet['sheet']}", json={"answers": [{"question": "q1", "answer": "informal"}]})
    assert other.status_code == 409


@pytest.mark.parametrize("inclusive", [False, True])
def test_a_sheet_asked_for_inclusive_forms_asks_about_anyone_of_a_kind_and_translates_under_its_answer(inclusive):
    fake = StepFake(translate=["Tout utilisateur peut commenter."], detect=['{"ambiguous": false}'], calls=[])
    client = make_client(fake)
    sheet = client.post("/v1/sheet", json={"texts": ["Any user can post a comment."], "target_lang": "fr",
                                           "inclusive": inclusive}).json()
    assert [q["words"] for q in sheet["questions"]] == (["Any user"] if inclusive else [])
    answers = [{"question": "q1", "answer": "a woman"}] if inclusive else []
    translated = client.post(f"/v1/sheet/{sheet['sheet']}", json={"answers": answers})
    assert translated.status_code == 200, translated.text
    turns = translated.json()["translations"][0]["intercpt"]["questions"]
    assert [(t["span"], t["answer"]) for t in turns] == ([("Any user", "a woman")] if inclusive else [])


def test_a_profile_sent_along_answers_the_sheet(client):
    sheet = start(client, profile="register:\n  fr: informal\npeople:\n  alex: a woman\n").json()
    assert [(q["answer"], q["answered_by"]) for q in sheet["questions"]] == [("informal", "profile"),
                                                                              ("a woman", "profile")]
    done = client.post(f"/v1/sheet/{sheet['sheet']}", json={"answers": []}).json()
    assert not any(t["guessed"] for t in done["translations"])


@pytest.mark.parametrize(("body", "answers", "status", "message"), [
    ({"profile": "voice: formal"}, None, 400, "unknown section 'voice'"),
    ({"texts": []}, None, 400, "nothing to translate"),
    ({"texts": ["x" * 6000]}, None, 413, "text 1 has 6000 characters"),
    ({}, [{"question": "q9", "answer": "formal"}], 400, "no question 'q9' on this sheet"),
    ({}, [{"question": "q1", "answer": "polite"}], 400, "not one of its options"),
])
def test_bad_requests_get_a_clear_message(client, body, answers, status, message):
    response = start(client, **body)
    if answers is not None:
        response = client.post(f"/v1/sheet/{response.json()['sheet']}", json={"answers": answers})
    assert response.status_code == status and message in response.text, response.text


def test_an_unknown_sheet_is_not_found(client):
    assert client.post("/v1/sheet/nope", json={"answers": []}).status_code == 404


def test_a_stored_profile_answers_deepl_calls_by_id(client):
    import deepl

    created = client.post("/v1/profiles", json={"name": "shop", "profile": "register:\n  fr: informal\n"}, headers=KEY)
    assert created.status_code == 200, created.text
    profile_id = created.json()["profile_id"]
    assert created.json()["entry_count"] == 1
    assert client.get(f"/v1/profiles/{profile_id}", headers=KEY).text.splitlines()[-1] == "  fr: informal"

    with serving(client.app) as url:
        translator = deepl.Translator("k1", server_url=url.rstrip("/"))
        result = translator.translate_text("Can you help me?", target_lang="FR",
                                           extra_body_parameters={"profile_id": profile_id})
    assert result.text == "Pouvez-vous m'aider ?"
    prompts = [m[-1].content for step, m, _ in client.fake.calls if step == "translate"]
    assert prompts and all("informal" in prompt for prompt in prompts) and "decide" not in client.fake.steps()

    sheet = client.post("/v1/sheet", json={"texts": TEXTS, "target_lang": "FR", "profile_id": profile_id},
                        headers=KEY).json()
    assert sheet["questions"][0]["answered_by"] == "profile"
    assert client.delete(f"/v1/profiles/{profile_id}", headers=KEY).status_code == 204
    assert client.post("/v1/profiles", json={"name": "bad", "profile": "people: [a"}, headers=KEY).status_code == 400


def libre_form(url: str, path: str, **fields) -> tuple[int, dict]:
    """A form request as libretranslatepy sends one, with intercpt's fields beside LibreTranslate's."""
    form = parse.urlencode(fields).encode()
    try:
        with request.urlopen(request.Request(url + path, data=form), timeout=60) as response:
            return response.status, json.loads(response.read().decode())
    except error.HTTPError as refused:
        return refused.code, json.loads(refused.read().decode())


def test_a_stored_profile_answers_libretranslate_calls_by_id(client):
    created = client.post("/v1/profiles", json={"name": "shop", "profile": "register:\n  fr: informal\n"}, headers=KEY)
    profile_id = created.json()["profile_id"]
    with serving(client.app) as url:
        status, body = libre_form(url, "translate", q="Can you help me?", source="en", target="fr", api_key="k1",
                                  profile_id=profile_id)
    assert status == 200 and body["translatedText"] == "Pouvez-vous m'aider ?", body
    (question,) = body["intercpt"]["questions"]
    assert (question["ambiguity"], question["answer"]) == ("formality", "informal")
    prompts = [m[-1].content for step, m, _ in client.fake.calls if step == "translate"]
    assert prompts and all("informal" in prompt for prompt in prompts) and "decide" not in client.fake.steps()

    response = client.post("/translate_file", data={"target": "fr", "api_key": "k1", "profile_id": profile_id},
                           files={"file": ("app.txt", b"Can you help me?\n", "text/plain")})
    assert response.status_code == 200 and response.json()["intercpt"]["questions"] == [], response.text
    assert "decide" not in client.fake.steps()


@pytest.mark.parametrize(("fields", "status", "message"), [
    ({"profile_id": "nope", "api_key": "k1"}, 404, "no profile 'nope'"),
    ({"profile_id": "STORED", "api_key": "k2"}, 404, "no profile"),  # another key's profile
    ({"profile_id": "x" * 65, "api_key": "k1"}, 400, "profile_id: String should have at most 64 characters"),
])
def test_a_libretranslate_call_naming_no_profile_of_its_key_gets_an_error_in_libretranslates_words(
        tmp_path, fields, status, message):
    keys = tmp_path / "keys"
    keys.write_text("k1\nk2\n")
    client = make_client(StepFake(translate=["Pouvez-vous m'aider ?"], detect=['{"ambiguous": false}'], calls=[]),
                         api_keys=keys)
    stored = client.post("/v1/profiles", json={"name": "shop", "profile": "register:\n  fr: informal\n"},
                         headers=KEY).json()["profile_id"]
    fields = {**fields, "profile_id": stored if fields["profile_id"] == "STORED" else fields["profile_id"]}
    with serving(client.app) as url:
        got, body = libre_form(url, "translate", q="Can you help me?", target="fr", **fields)
    assert got == status and list(body) == ["error"] and message in body["error"], body
    assert "translate" not in client.fake.steps()
