"""Forbidden words as token sequences (vLLM's ``bad_words`` meaning), on a toy tokenizer."""

from __future__ import annotations

from assistant.backends.bad_words import forbidden_next, token_sequences
from assistant.backends.config import GenerationConfig
from assistant.backends.request import GenerationRequest, StructuredOutputs

VOCAB = {"vous": [7], " vous": [8], "votre": [9, 10], " votre": [11, 10], "ton": [12, 13], " ton": [14]}


def test_each_word_is_forbidden_at_the_start_and_after_a_space():
    assert token_sequences(["vous", "votre"], VOCAB.__getitem__) == [[7], [8], [9, 10], [11, 10]]


def test_a_one_token_word_is_always_forbidden_and_a_longer_one_only_after_its_first_tokens():
    sequences = token_sequences(["vous", "votre"], VOCAB.__getitem__)
    assert forbidden_next(sequences, [1, 2, 3]) == {7, 8}
    assert forbidden_next(sequences, [1, 2, 11]) == {7, 8, 10}
    assert forbidden_next(sequences, []) == {7, 8}


def test_the_chain_binds_them_as_vllm_does_and_every_backend_reads_them():
    config = GenerationConfig().updated(GenerationRequest(bad_words=("tu", "toi"), temperature=0.7))
    assert config.bad_words == ("tu", "toi") and config.temperature == 0.7
    choice = GenerationRequest(structured_outputs=StructuredOutputs(choice=("a",)))
    assert GenerationConfig().updated(choice).bad_words == ()


def test_words_that_could_translate_a_third_person_are_forbidden_only_where_the_source_has_none():
    from assistant.ambiguity import forbidden_words

    informal = [("formality", "informal")]
    assert {"usted", "su", "sus"} <= set(forbidden_words(informal, "es", "So, what is your ideal boyfriend?"))
    assert "su" not in forbidden_words(informal, "es", "Did you see her brother?")  # su hermano: "her brother"
    assert "su" not in forbidden_words(informal, "es")  # no source: only the unambiguous words
    assert {"Sie", "Ihre", "Ihnen"} <= set(forbidden_words(informal, "de", "Where is your car?"))
    assert "Sie" not in forbidden_words(informal, "de", "They said you were late.")
    assert "Ihr" not in forbidden_words(informal, "de", "Are you all ready?")  # "Ihr seid": plural informal
    assert "Sie" not in forbidden_words([("formality", "formal")], "de", "Where is your car?")


def test_a_vllm_client_also_bans_the_one_token_forms_vllm_s_own_bad_words_skips(monkeypatch):
    from assistant.backends.openai import chat_model

    model = chat_model("http://127.0.0.1:1/v1", "m", GenerationConfig(), api_key="k",
                       tokenize_url="http://127.0.0.1:1/tokenize")
    monkeypatch.setattr(type(model), "_tokenize", lambda self, text: VOCAB[text])
    sent = model.body_fields(GenerationRequest(bad_words=("vous", "votre", "ton"), temperature=0))
    assert sent["logit_bias"] == {"7": -100, "8": -100, "14": -100}  # " ton": one token, "ton" two
    assert sent["extra_body"]["bad_words"] == ["vous", "votre", "ton"]  # vLLM forbids the longer forms itself
    plain = chat_model("http://127.0.0.1:1/v1", "m", GenerationConfig(), api_key="k")  # any other server
    assert "logit_bias" not in plain.body_fields(GenerationRequest(bad_words=("vous",)))


def assert_forbidden_words_stay_out(model) -> None:
    """On a real chat model: the prompt makes it write "vous"/"votre" when free, and never with the
    words an informal answer forbids (each backend's test calls this)."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from assistant.ambiguity import forbidden_words

    prompt = [SystemMessage("Translate into French."), HumanMessage("Are you sure? Is this your coat?")]
    forbidden = forbidden_words([("formality", "informal")], "fr")
    free = GenerationRequest(max_tokens=40).bound_to(model).invoke(prompt).content
    constrained = GenerationRequest(max_tokens=40, bad_words=forbidden).bound_to(model).invoke(prompt).content
    assert "vous" in free or "votre" in free, free  # what the model writes when free
    assert constrained.strip() and not any(word in constrained for word in ("vous", "Vous", "votre", "Votre", "vos",
                                                                            "Vos")), constrained


# Pieces as a byte-level tokenizer has them (Qwen2.5 writes のです, ですか and ありがとうございます as one token each).
JA_VOCAB = [piece.encode() for piece in ["の", "です", "のです", "ですか", "で", "す", "ありがとうございます", "。", "だ", "よ",
                                         "ま", "行", "きました"]]


def test_japanese_words_are_forbidden_inside_any_token_and_across_tokens():
    from assistant.backends.bad_words import TextBan, is_unspaced

    assert is_unspaced("です") and is_unspaced("だ。") and not is_unspaced("vous") and not is_unspaced("-tu")
    ban = TextBan(["です", "ます", "ました"], JA_VOCAB)
    ids = {piece.decode(): n for n, piece in enumerate(JA_VOCAB)}
    always = {ids[w] for w in ("です", "のです", "ですか", "ありがとうございます", "きました")}
    assert set(ban.forbidden("今日は".encode())) == always
    assert set(ban.forbidden("それはで".encode())) == always | {ids["す"]}  # で + す spells です
    assert set(ban.forbidden("それはで".encode()[:-1])) == always  # a character cut in two is no で yet
    assert ids["。"] not in ban.forbidden("です".encode()) and ids["の"] not in ban.forbidden("ま".encode())
    after_copula = TextBan(["だ。"], JA_VOCAB)
    assert after_copula.forbidden("まだ".encode()) == [ids["。"]] and after_copula.forbidden("だよ".encode()) == []
