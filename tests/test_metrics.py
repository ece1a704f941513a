"""The evaluator's metrics on tiny hand-made records, against values worked out by hand or by sacreBLEU."""

from __future__ import annotations

import json

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from assistant.transcript import Alternative, Check, Transcript, Turn
from evaluation.data import Item
from evaluation.metrics import (METRICS, MetricError, Score, bias, corpus_scores, error_types, metrics_for,
                                paired_test, segment_scores)
from evaluation.metrics.accuracy import observed_label
from evaluation.records import Record


def make(kind: str, lang: str, translation: str | None, refs: list[str] | None = None, *, gold: dict | None = None,
         method: str = "no-extra", ident: str = "1", alternatives: tuple[str, ...] = (),
         turns: tuple[Turn, ...] = (), checks: tuple[Check, ...] = ()) -> Record:
    """A record as the runner stores it; ``translation=None`` makes a failed item."""
    item = Item(id=f"{kind}-{lang}-{ident}", src="source text", refs=refs or ["reference"], context="", ambiguity=kind,
                lang=lang, attributes=gold or {})
    transcript = None if translation is None else Transcript(
        source=item.src, target_lang=lang, method=method, model="hand-made", turns=list(turns),
        translation=translation, alternatives=[Alternative(f"option {i}", a) for i, a in enumerate(alternatives)],
        checks=list(checks))
    return Record(method, "none", item, transcript, "failed" if translation is None else None)


# ---- F-Acc / G-Acc

FORMALITY_RECORDS = [  # (translation, gold): 3 correct, 1 wrong, 1 unreadable, 1 failed, 1 neutral gold
    ("Pouvez-vous m'aider ?", "formal"), ("Tu viens ce soir ?", "informal"), ("Vous êtes prêt ?", "formal"),
    ("Tu es là ?", "formal"), ("Il fait beau.", "informal"), (None, "formal"), ("Tu es là ?", "neutral"),
]


def formality_records() -> list[Record]:
    return [make("formality", "fr", text, gold={"formality": label}, ident=str(i))
            for i, (text, label) in enumerate(FORMALITY_RECORDS)]


def test_formality_accuracy_counts_unreadable_as_wrong_and_excludes_neutral_gold():
    scores = corpus_scores(formality_records(), bootstrap=0)
    assert scores["f_acc"].value == pytest.approx(100 * 3 / 6)
    assert scores["f_cov"].value == pytest.approx(100 * 4 / 6)
    assert (scores["f_acc"].n, scores["f_acc"].excluded) == (6, 1)
    assert set(scores) == {"bleu", "chrf", "f_acc", "f_cov"}
    assert "unreadable:wrong" in scores["f_acc"].signature


def test_gender_accuracy_reads_the_referent_or_the_person_by_type():
    it_records = [make("it_resolution", "es", "La compré ayer.", gold={"gender": "feminine"}, ident="1"),
                  make("it_resolution", "es", "Lo compré ayer.", gold={"gender": "feminine"}, ident="2"),
                  make("it_resolution", "es", "La compré ayer.", ident="3")]
    scores = corpus_scores(it_records, bootstrap=0)
    assert (scores["g_acc"].value, scores["g_cov"].value, scores["g_acc"].n, scores["g_acc"].excluded) == (
        50.0, 100.0, 2, 1)
    names = [make("neutral_names", "fr", text, gold={"gender": "feminine"}, ident=str(i))
             for i, text in enumerate(["Elle est arrivée.", "Il est arrivé.", "Camille arrive."])]
    scores = corpus_scores(names, bootstrap=0)
    assert scores["g_acc"].value == pytest.approx(100 / 3)
    assert scores["g_cov"].value == pytest.approx(200 / 3)
    # "le" before a verb stands for a masculine thing, and says nothing about a person.
    assert observed_label(make("it_resolution", "fr", "Je le prends.")) == "masculine"
    assert observed_label(make("neutral_professions", "fr", "Je le prends.")) is None


def test_segment_scores_are_readable_json():
    record = make("formality", "fr", "Tu es là ?", ["Vous êtes là ?"], gold={"formality": "formal"}, method="intercpt")
    scores = segment_scores(record)
    assert scores == {"chrf": round(sacrebleu.sentence_chrf("Tu es là ?", ["Vous êtes là ?"]).score, 2),
                      "observed_formality": "informal", "f_acc": 0, "error_types": ["no_question"],
                      "ask_recall": 0, "questions_on_gold": 0, "questions": 0}
    neutral = segment_scores(make("formality", "fr", "Tu es là ?", gold={"formality": "neutral"}))
    assert (neutral["observed_formality"], neutral["f_acc"]) == ("informal", None)
    polysemy = segment_scores(make("polysemy", "fr", "banque", ["banque"], gold={"sense": "banque"}))
    assert polysemy == {"chrf": 100.0, "hit@1": 1, "hit@3": 1, "chrf@3": 100.0}
    json.dumps(scores)


# ---- polysemy: hit@n and chrF@n

def polysemy_records() -> list[Record]:
    def sense(text, alternatives=(), ident="1"):
        return make("polysemy", "fr", text, ["la banque"], gold={"sense": "banque"}, alternatives=alternatives,
                    ident=ident)

    return [sense("la rive", ("la berge", "la banque"), "alt"),         # only an alternative hits
            sense("Banque", ident="case"),                             # casefolded
            sense("Je vais à la banque.", ident="inside"),              # a whole word inside
            sense("les banques", ("les rives",), "plural"),             # not the whole word
            sense("la rive", ("la berge", "le bord", "la banque"), "4th")]  # past the first three


def test_hit_at_1_and_at_3():
    scores = corpus_scores(polysemy_records(), bootstrap=0)
    assert scores["hit@1"].value == pytest.approx(40.0)
    assert scores["hit@3"].value == pytest.approx(60.0)


def test_chrf_at_3_takes_the_best_of_the_first_three_candidates():
    records = polysemy_records()[:1] + polysemy_records()[3:4]
    first = 100.0  # the third candidate equals the reference
    second = max(sacrebleu.sentence_chrf(c, ["la banque"]).score for c in ("les banques", "les rives"))
    assert corpus_scores(records, names=["chrf@3"], bootstrap=0)["chrf@3"].value == pytest.approx((first + second) / 2)
    assert second < 100


def test_a_missing_gold_word_is_not_counted():
    records = [make("polysemy", "fr", "la banque", ["la banque"], gold={"sense": "banque"}, ident="1"),
               make("polysemy", "fr", "la banque", ["la banque"], ident="2")]
    score = corpus_scores(records, names=["hit@1"], bootstrap=0)["hit@1"]
    assert (score.value, score.n, score.excluded) == (100.0, 1, 1)


# ---- BLEU and chrF

def test_bleu_and_chrf_equal_a_direct_sacrebleu_call_with_uneven_references():
    records = [make("formality", "de", "Können Sie mir bitte helfen?",
                    ["Können Sie mir helfen?", "Könnten Sie mir bitte helfen?"], ident="1"),
               make("formality", "de", "Wo ist der Bahnhof", ["Wo ist der Bahnhof?"], ident="2"),
               make("formality", "de", None, ["Ich komme morgen."], ident="failed")]
    hyps = ["Können Sie mir bitte helfen?", "Wo ist der Bahnhof", ""]
    refs = [["Können Sie mir helfen?", "Wo ist der Bahnhof?", "Ich komme morgen."],
            ["Könnten Sie mir bitte helfen?", None, None]]
    bleu, chrf = BLEU(), CHRF()
    expected_bleu, expected_chrf = bleu.corpus_score(hyps, refs), chrf.corpus_score(hyps, refs)
    scores = corpus_scores(records, bootstrap=0)
    assert scores["bleu"].value == pytest.approx(expected_bleu.score)
    assert scores["chrf"].value == pytest.approx(expected_chrf.score)
    assert scores["bleu"].signature == bleu.get_signature().format()
    assert scores["chrf"].signature == chrf.get_signature().format()
    assert "nrefs:var" in scores["bleu"].signature


JA_HYPOTHESIS, JA_REFERENCE = "手伝っていただけますか。", "手伝ってくださいますか。"


def test_japanese_bleu_uses_mecab():
    pytest.importorskip("MeCab", reason="sacrebleu[ja] is not installed")
    records = [make("formality", "ja", JA_HYPOTHESIS, [JA_REFERENCE])]
    score = corpus_scores(records, names=["bleu"], bootstrap=0)["bleu"]
    assert "tok:ja-mecab" in score.signature
    expected = sacrebleu.corpus_bleu([JA_HYPOTHESIS], [[JA_REFERENCE]], tokenize="ja-mecab").score
    assert score.value == pytest.approx(expected)


def test_japanese_bleu_without_mecab_falls_back_to_characters_and_says_so(monkeypatch):
    import sacrebleu.tokenizers.tokenizer_ja_mecab as ja_mecab

    monkeypatch.setattr(ja_mecab, "MeCab", None)
    records = [make("formality", "ja", JA_HYPOTHESIS, [JA_REFERENCE])]
    score = corpus_scores(records, names=["bleu"], bootstrap=0)["bleu"]
    assert "tok:char" in score.signature and score.signature.endswith("ja-mecab:unavailable")
    expected = sacrebleu.corpus_bleu([JA_HYPOTHESIS], [[JA_REFERENCE]], tokenize="char").score
    assert score.value == pytest.approx(expected)


# ---- confidence intervals and significance

def test_bootstrap_interval_brackets_the_value_and_is_reproducible():
    records = formality_records()
    first, again = (corpus_scores(records, names=["f_acc"], seed=7)["f_acc"] for _ in range(2))
    assert first == again
    assert 0 <= first.ci_low < first.value < first.ci_high <= 100
    assert first.signature.endswith("|bs:1000|seed:7")
    perfect = corpus_scores(formality_records()[:3], names=["f_acc"])["f_acc"]
    assert (perfect.value, perfect.ci_low, perfect.ci_high) == (100.0, 100.0, 100.0)
    assert corpus_scores(records, names=["f_acc"], bootstrap=0)["f_acc"].ci_low is None


def formality_system(good: bool, n: int = 30) -> list[Record]:
    text = "Pouvez-vous m'aider ?" if good else "Tu peux m'aider ?"
    return [make("formality", "fr", text, ["Pouvez-vous m'aider ?"], gold={"formality": "formal"}, ident=str(i))
            for i in range(n)]


def test_paired_test_finds_a_clearly_better_system():
    p = paired_test(formality_system(True), formality_system(False), ["f_acc", "chrf", "bleu"])
    assert all(value < 0.01 for value in p.values()), p


def test_paired_test_of_identical_systems_gives_p_one():
    system = formality_system(True)
    p = paired_test(system, system, ["f_acc", "f_cov", "chrf", "bleu"])
    assert p == {"f_acc": 1.0, "f_cov": 1.0, "chrf": 1.0, "bleu": 1.0}


def test_paired_test_says_nothing_about_a_handful_of_items():
    system, baseline = formality_system(True)[:3], formality_system(False)[:3]
    assert paired_test(system, baseline, ["f_acc"]) == {"f_acc": None}


def test_paired_test_pairs_records_by_item_not_by_position():
    system, baseline = formality_system(True), formality_system(True)
    baseline[0] = formality_system(False)[0]  # one item of thirty differs: no evidence either way
    p = paired_test(system, baseline, ["f_acc"])["f_acc"]
    assert 0.3 < p < 1
    assert paired_test(system, baseline[::-1], ["f_acc"])["f_acc"] == p


def test_paired_test_uses_the_items_both_sides_have():
    system = formality_system(True, 20) + [make("formality", "fr", "Tu viens ?", gold={"formality": "formal"},
                                                ident="only-here")]
    assert paired_test(system, formality_system(True, 20), ["f_acc"]) == {"f_acc": 1.0}
    polysemy = polysemy_records()
    assert paired_test(polysemy, polysemy, ["f_acc"]) == {"f_acc": None}
    assert paired_test(polysemy, polysemy, ["chrf"], bootstrap=0) == {"chrf": None}
    with pytest.raises(MetricError, match="no item in common"):
        paired_test(formality_system(True, 2), polysemy, ["chrf"])


# ---- bias and error types

def test_bias_counts_gold_and_output_labels():
    records = formality_records() + [make("neutral_names", "fr", "Il est arrivé.", gold={"gender": "feminine"}),
                                     make("polysemy", "fr", "la banque")]
    table = bias(records)
    assert set(table) == {"formality", "gender"}
    formality = table["formality"]
    assert formality["n"] == 7
    assert formality["gold"] == {"formal": 4, "informal": 2, "neutral": 1}
    assert formality["output"] == {"formal": 2, "informal": 3, "unreadable": 2}
    assert formality["output_shares"]["unreadable"] == pytest.approx(2 / 7)
    assert table["gender"]["gold"] == {"masculine": 0, "feminine": 1}
    assert table["gender"]["output"] == {"masculine": 1, "feminine": 0, "unreadable": 0}


def asked(kind: str, gold: dict, *turns: Turn, checks: tuple[Check, ...] = (), method: str = "intercpt") -> Record:
    return make(kind, "fr", "Pouvez-vous m'aider ?", gold=gold, method=method, turns=turns, checks=checks)


def test_each_error_type():
    formal = {"formality": "formal"}
    you = Turn("formality", "you", "Formal or informal?", ["formal", "informal", "generic"])
    assert error_types(asked("formality", formal)) == ["no_question"]
    assert error_types(asked("formality", formal, Turn("polysemy", "bank", "Which bank?"))) == ["wrong_phenomenon"]
    contradicted = Turn(**{**you.__dict__, "answer": "informal, my friend", "answered_by": "simulated"})
    assert error_types(asked("formality", formal, contradicted)) == ["answer_contradicts_gold"]
    obeyed = Turn(**{**you.__dict__, "answer": "formal", "answered_by": "simulated"})
    ignored = Check("formality", "formal", "informal", "fail")
    assert error_types(asked("formality", formal, obeyed, checks=(ignored,))) == ["ignored_answer"]


def test_what_is_not_an_error():
    woman = Turn("neutral_names", "Alex", "A man or a woman?", ["a man", "a woman"], "a woman", "oracle")
    too_long = Check("length", "plausible", "implausible", "fail")
    assert error_types(asked("neutral_professions", {"gender": "feminine"}, woman, checks=(too_long,))) == []
    assert error_types(asked("formality", {"formality": "formal"}, method="no-extra")) == []
    assert error_types(make("formality", "fr", None, method="intercpt")) == []


# ---- registry and input errors

ASKING = ["ask_recall", "question_precision", "questions_per_item"]


def test_metrics_by_type_and_unknown_names():
    assert metrics_for("formality") == ["bleu", "chrf", "f_acc", "f_cov", "cocoa_acc", "cocoa_det_acc",
                                        "cocoa_undet", *ASKING]
    assert metrics_for("neutral_professions") == ["bleu", "chrf", "g_acc", "g_cov", *ASKING]
    assert metrics_for("person_gender") == ["bleu", "chrf", "g_acc", "g_cov", "gate_acc", "gate_det_acc",
                                            "gate_undet", *ASKING]
    assert metrics_for("polysemy") == ["chrf", "hit@1", "hit@3", "chrf@3", *ASKING]
    assert metrics_for("none") == ["bleu", "chrf", "question_precision", "questions_per_item", "needless_rate"]
    assert metrics_for("anything else") == ["bleu", "chrf"]
    assert "f_acc" in METRICS and "f_ac" not in METRICS
    with pytest.raises(MetricError, match="did you mean f_acc"):
        METRICS["f_ac"]


def test_records_that_cannot_be_scored_say_why():
    with pytest.raises(MetricError, match="no records"):
        corpus_scores([])
    with pytest.raises(MetricError, match="share a target language; got de, fr"):
        corpus_scores([make("formality", "fr", "Oui", ident="1"), make("formality", "de", "Ja", ident="2")])
    no_reference = make("formality", "fr", "Oui")
    no_reference.item.refs = []
    with pytest.raises(MetricError, match="at least one non-empty reference"):
        corpus_scores([no_reference], names=["bleu"])


def test_score_to_dict():
    assert Score("bleu", 30.0, None, None, 3, "sig").to_dict()["n"] == 3
