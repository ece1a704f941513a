"""The real ``intercpt ui`` over HTTP, with API keys: a client that keeps sending wrong keys is made to
wait, and a target language is accepted only as a code or a regional variant that exists."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.fake_openai import FakeOpenAIServer
from tests.live_server import intercpt_ui
from ui.api.auth import FIRST_WAIT_SECONDS, FREE_FAILURES

KEY = "team-key-0123456789"
RIGHT = {"Authorization": f"DeepL-Auth-Key {KEY}"}
WRONG = {"Authorization": "DeepL-Auth-Key guessed-key"}


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keys")
    key_file = folder / "keys.txt"
    key_file.write_text(f"# the team's key\n{KEY}\n", encoding="utf-8")
    with FakeOpenAIServer() as fake, intercpt_ui(f"openai:{fake.url}#fake", "--api-keys", str(key_file),
                                                 tmp_path=folder) as live:
        with httpx.Client(base_url=live.url, timeout=120) as client:
            yield client


@pytest.mark.parametrize("code", ["FR", "fr", "FR-CA", "de-AT", "ES-419", "es-MX", "JA"])
def test_a_language_code_or_a_regional_variant_that_exists_is_accepted(api, code):
    answer = api.post("/v2/translate", headers=RIGHT, json={"text": ["Hello."], "target_lang": code})
    assert answer.status_code == 200, answer.text
    assert answer.json()["translations"][0]["text"]


@pytest.mark.parametrize("code", ["fr-zzz", "FR-XX", "fr_CA", "fr-", "es-420", "ja-FR", "IT", "EN-GB"])
def test_a_variant_that_does_not_exist_is_refused_in_each_api_s_words(api, code):
    deepl = api.post("/v2/translate", headers=RIGHT, json={"text": ["Hello."], "target_lang": code})
    assert deepl.status_code == 400 and deepl.json()["message"].startswith("Value for 'target_lang' not supported")
    glossary = api.post("/v2/glossaries", headers=RIGHT, json={
        "name": "g", "source_lang": "EN", "target_lang": code, "entries": "cake\tgâteau", "entries_format": "tsv"})
    assert glossary.status_code == 400 and "target_lang" in glossary.json()["message"]
    libre = api.post("/translate", json={"q": "Hello.", "source": "en", "target": code, "api_key": KEY})
    assert libre.status_code == 400 and libre.json()["error"] == (
        f"{code} is not supported as a target language; use one of fr, de, es, ja")
    clarify = api.post("/v1/clarify", headers={"Authorization": f"Bearer {KEY}"},
                       json={"text": "Hello.", "target_lang": code})
    assert clarify.status_code == 400 and "not supported" in clarify.json()["detail"]


def test_the_libre_api_takes_a_regional_variant_as_its_language(api):
    answer = api.post("/translate", json={"q": "Hello.", "source": "en", "target": "fr-CA", "api_key": KEY})
    assert answer.status_code == 200, answer.text


def test_an_address_that_keeps_sending_wrong_keys_is_made_to_wait_longer_each_time(api):
    for _ in range(FREE_FAILURES):
        refused = api.get("/v2/usage", headers=WRONG)
        assert refused.status_code == 403 and refused.json() == {"message": "missing or unknown API key"}
    slowed = api.get("/v2/usage", headers=WRONG)
    assert slowed.status_code == 429, slowed.text
    wait = int(slowed.headers["Retry-After"])
    assert wait == FIRST_WAIT_SECONDS and "too many wrong API keys" in slowed.json()["message"]
    # While it waits, nothing from that address is looked at: guessing on is no faster, in any API.
    assert api.get("/v2/usage", headers=RIGHT).status_code == 429
    libre = api.post("/translate", json={"q": "Hello.", "source": "en", "target": "fr", "api_key": KEY})
    assert libre.status_code == 429 and "too many wrong API keys" in libre.json()["error"]
    assert api.post("/v1/clarify", json={"text": "Hello.", "target_lang": "FR"}).status_code == 429

    time.sleep(wait)
    again = api.get("/v2/usage", headers=WRONG)  # one more wrong key after the wait: twice as long
    assert again.status_code == 429 and int(again.headers["Retry-After"]) == 2 * wait
    time.sleep(2 * wait)
    assert api.get("/v2/usage", headers=RIGHT).status_code == 200  # the right key, once the wait is over
