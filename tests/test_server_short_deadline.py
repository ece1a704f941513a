"""The real ``intercpt ui`` with a short ``--request-timeout``, over HTTP: its very first request finds the
language data already loaded (the server loads it before it takes requests), and building a large
glossary's matcher holds the CPU for one request at a time and no longer than that request's deadline."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import pytest

from tests.fake_openai import FakeOpenAIServer
from tests.live_server import LiveServer, intercpt_ui
from tests.test_glossary_scale import large_glossary

DEADLINE_S = 3.0
SLACK_S = 6.0  # a busy 2-core machine: the batch of terms in progress when the deadline passes, the reply
FIRST_TEXT = "Tell Maria that you will sign the contract."  # a person and "you": the pre-pass reads both
LARGE_ENTRIES = 50_000  # its matcher takes far longer than the deadline to build


@dataclass
class Server:
    live: LiveServer
    first: httpx.Response  # the answer to the server's very first API request


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with FakeOpenAIServer() as fake, intercpt_ui(f"openai:{fake.url}#fake", "--request-timeout", str(DEADLINE_S),
                                                 tmp_path=tmp_path_factory.mktemp("short-deadline")) as live:
        first = httpx.post(f"{live.url}/v2/translate", json={"text": [FIRST_TEXT], "target_lang": "FR"}, timeout=60)
        yield Server(live, first)


def create_glossary(url: str, entries: str) -> httpx.Response:
    return httpx.post(f"{url}/v2/glossaries", timeout=120, json={
        "name": "terms", "source_lang": "EN", "target_lang": "FR", "entries": entries, "entries_format": "tsv"})


def used(url: str) -> int:
    return httpx.get(f"{url}/v2/usage", timeout=30).json()["character_count"]


def test_the_first_request_does_not_spend_its_deadline_loading(server):
    assert server.first.status_code == 200, server.first.text
    assert server.first.json()["translations"][0]["text"]


def test_one_glossary_is_built_at_a_time_and_no_longer_than_its_deadline(server):
    url = server.live.url
    before = used(url)
    with ThreadPoolExecutor(1) as pool:
        started = time.monotonic()
        large = pool.submit(create_glossary, url, large_glossary(LARGE_ENTRIES))
        time.sleep(1.0)  # the large one is being built by now
        second = create_glossary(url, "bank account\tcompte bancaire\n")
        first = large.result()
        first_s = time.monotonic() - started
    assert second.status_code == 429, second.text
    assert second.json() == {"message": "busy building another glossary, try again in a moment"}
    assert int(second.headers["Retry-After"]) > 0
    assert first.status_code == 503 and "deadline of 3 s" in first.json()["message"], first.text
    assert first_s < DEADLINE_S + SLACK_S  # the build stopped at the deadline, not minutes later
    assert used(url) == before
    again = create_glossary(url, "bank account\tcompte bancaire\n")  # the server builds again at once
    assert again.status_code == 201, again.text
    assert [g["entry_count"] for g in httpx.get(f"{url}/v2/glossaries", timeout=30).json()["glossaries"]] == [1]
