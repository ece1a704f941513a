"""A large glossary on the real ``intercpt ui`` over HTTP (fake OpenAI-compatible model): translating with
100,000 entries costs about what translating without one does, and a glossary over the bounds is refused."""

from __future__ import annotations

import statistics
import time

import httpx
import pytest

from assistant.glossary import MAX_GLOSSARY_ENTRIES
from tests.fake_openai import FakeOpenAIServer
from tests.live_server import intercpt_ui
from tests.test_http_api import KEY, make_client

TEXTS = ["Close both bank accounts before you send the widget 4242.", "Can you check the invoice of widget 17?",
         "The account of the river bank is long."]
SLOWDOWN = 3.0  # the glossary's requests may take at most this many times the baseline's, plus MARGIN_S
MARGIN_S = 1.0


def large_glossary(entries: int) -> str:
    """``entries`` distinct TSV entries, two of them terms the texts hold in another form."""
    rows = ["bank account\tcompte bancaire", "invoice\tfacture"]
    rows += [f"widget {n}\tgadget {n}" for n in range(entries - len(rows))]
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with FakeOpenAIServer() as fake, intercpt_ui(f"openai:{fake.url}#fake",
                                                 tmp_path=tmp_path_factory.mktemp("server")) as live:
        yield live


def translate(url: str, text: str, glossary_id: str | None = None) -> tuple[float, dict]:
    body = {"text": [text], "target_lang": "FR", "source_lang": "EN"}
    if glossary_id:
        body["glossary_id"] = glossary_id
    started = time.perf_counter()
    response = httpx.post(f"{url}/v2/translate", json=body, headers=KEY, timeout=300)
    assert response.status_code == 200, response.text
    return time.perf_counter() - started, response.json()["translations"][0]


def test_a_100k_entry_glossary_costs_about_what_no_glossary_does(server, measure):
    started = time.perf_counter()
    created = httpx.post(f"{server.url}/v2/glossaries", headers=KEY, timeout=600, json={
        "name": "large", "source_lang": "EN", "target_lang": "FR", "entries": large_glossary(100_000),
        "entries_format": "tsv"})
    assert created.status_code == 201, created.text
    build_s = time.perf_counter() - started
    glossary_id = created.json()["glossary_id"]
    assert created.json()["entry_count"] == 100_000
    translate(server.url, TEXTS[0])  # warm: the first request loads what every later one shares
    baseline = statistics.median(translate(server.url, text)[0] for text in TEXTS)
    timed = [translate(server.url, text, glossary_id) for text in TEXTS]
    with_glossary = statistics.median(seconds for seconds, _ in timed)
    terms = [[c["expected"] for c in t["intercpt"]["checks"] if c["name"] == "terms"] for _, t in timed]
    assert terms == [["bank account → compte bancaire", "widget 4242 → gadget 4242"],
                     ["invoice → facture", "widget 17 → gadget 17"], []]
    measure(f"100,000-entry glossary over HTTP: created in {build_s:.1f} s; translation median {with_glossary:.2f} s "
            f"with it, {baseline:.2f} s without")
    assert with_glossary < SLOWDOWN * baseline + MARGIN_S, (with_glossary, baseline)


def test_a_glossary_over_the_entry_bound_is_refused_with_the_bound_named(server):
    response = httpx.post(f"{server.url}/v2/glossaries", headers=KEY, timeout=300, json={
        "name": "too large", "source_lang": "EN", "target_lang": "FR",
        "entries": large_glossary(MAX_GLOSSARY_ENTRIES + 1), "entries_format": "tsv"})
    assert response.status_code == 413, response.text
    assert f"at most {MAX_GLOSSARY_ENTRIES}" in response.json()["message"]


def test_a_key_whose_glossaries_would_hold_too_much_is_told_so(monkeypatch):
    import ui.api.glossary_store as store

    monkeypatch.setattr(store, "MAX_GLOSSARY_ENTRIES_PER_KEY", 3)
    monkeypatch.setattr(store, "MAX_GLOSSARY_BYTES_PER_KEY", 60)
    client = make_client()

    def create(entries: str):
        return client.post("/v2/glossaries", headers=KEY, json={"name": "g", "source_lang": "EN",
                                                                 "target_lang": "FR", "entries": entries})

    assert create("bank\tbanque\nkey\tclé\n").status_code == 201
    refused = create("report\trapport\ninvoice\tfacture\n")
    assert refused.status_code == 456 and "would hold 4 entries, at most 3" in refused.json()["message"]
    refused = create("a long source term to fill the bytes\tun long terme\n")
    assert refused.status_code == 456 and "bytes, at most 60" in refused.json()["message"]
