"""Control flow of the assistant on a fake chat model (no weights)."""

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from assistant.chain import Assistant, ChainOptions
from assistant.errors import BackendError, InputError
from assistant.transcript import Transcript


class RecordingFake(FakeListChatModel):
    """A fake chat model that remembers the messages it was sent."""

    seen: list = []

    def _call(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(messages)
        return super()._call(messages, stop, run_manager, **kwargs)

    def _stream(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(messages)
        return super()._stream(messages, stop, run_manager, **kwargs)


def test_no_extra_translation_and_transcript():
    fake = RecordingFake(responses=["Translation: « Où est la gare ? »"], seen=[])
    transcript = Assistant(fake, "fake:model").run("  Where is the station? ", "fr", ChainOptions(method="no-extra"))
    assert transcript.translation == "Où est la gare ?"
    assert transcript.source == "Where is the station?"
    assert (transcript.method, transcript.target_lang, transcript.model) == ("no-extra", "fr", "fake:model")
    assert transcript.timings["translate"] >= 0
    assert "Where is the station?" in fake.seen[0][-1].content
    assert "French" in fake.seen[0][0].content


def test_transcript_json_round_trip():
    transcript = Assistant(FakeListChatModel(responses=["Hallo"]), "fake:m").run("Hello", "de",
                                                                                 ChainOptions(method="no-extra"))
    data = json.loads(transcript.to_json())
    assert data["translation"] == "Hallo"
    assert Transcript.from_dict(data) == transcript


def test_bad_input_fails_before_the_model_is_called():
    fake = RecordingFake(responses=["x"], seen=[])
    with pytest.raises(InputError):
        Assistant(fake, "fake:m").run("hi", "pt", options=ChainOptions(method="no-extra"))
    with pytest.raises(InputError):
        Assistant(fake, "fake:m").run("   ", "fr", options=ChainOptions(method="no-extra"))
    assert fake.seen == []


def test_empty_model_reply_is_reported():
    with pytest.raises(BackendError, match="no translation"):
        Assistant(FakeListChatModel(responses=["   "]), "fake:m").run("Hello", "es", ChainOptions(method="no-extra"))


def test_a_transcript_of_schema_4_is_read_and_its_checks_record_no_words():
    from assistant.transcript import SCHEMA_VERSION

    old = {"source": "Can you help me?", "target_lang": "fr", "method": "intercpt", "model": "fake:m",
           "translation": "Pouvez-vous m'aider ?", "schema_version": 4,
           "checks": [{"name": "formality", "expected": "formal", "observed": "formal", "status": "pass", "attempts": 1}]}
    transcript = Transcript.from_dict(old)
    check = transcript.checks[0]
    assert (check.status, check.about, check.words, check.features, check.doubt) == ("pass", None, [], [], None)
    assert transcript.schema_version == SCHEMA_VERSION == 7


def test_who_answered_is_one_of_a_closed_set_and_the_page_s_older_wording_reads_as_it():
    from assistant.errors import DataError
    from assistant.transcript import Turn

    turn = {"ambiguity": "formality", "span": "you", "question": "Formal or informal?", "options": ["formal"],
            "answer": "formal"}
    old = {"source": "Can you help me?", "target_lang": "fr", "method": "intercpt", "model": "fake:m",
           "translation": "Pouvez-vous m'aider ?", "schema_version": 6,
           "turns": [{**turn, "answered_by": "your setting"}, {**turn, "answered_by": "the card you picked"}]}
    assert [t.answered_by for t in Transcript.from_dict(old).turns] == ["setting", "picked"]
    with pytest.raises(DataError, match="answered by 'your answer'"):
        Turn(**{**turn, "answered_by": "your answer"})
