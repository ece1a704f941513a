"""How well the assistant asks (hand-worked), the oracle on CoCoA-MT and GATE items, items whose gold says
nothing is ambiguous, the "Compared with published results" table, and a wrong --data layout on the CLI."""

from __future__ import annotations

import json
import time

import pytest

from assistant.cli.main import main
from assistant.transcript import Transcript, Turn
from assistant.users import OracleUser
from evaluation.data import Item, LoadReport
from evaluation.loaders import jsonl, load_items
from evaluation.metrics import corpus_scores, metrics_for_outputs, segment_scores
from evaluation.metrics.asking import concerns_gold, gold_words
from evaluation.published import compare, load_published
from evaluation.records import Record
from evaluation.report import render_asking, render_published

GENDER_OPTIONS = ["a man", "a woman"]


def item(kind: str, src: str, ident: str = "1", **attributes: str) -> Item:
    return Item(id=f"{kind}-{ident}", src=src, refs=["ref"], context="", ambiguity=kind, lang="es",
                attributes=attributes)


def asked(it: Item, *turns: tuple[str, str], method: str = "intercpt") -> Record:
    """A record of ``it`` whose transcript asked the (ambiguity, span) questions ``turns``."""
    transcript = Transcript(source=it.src, target_lang=it.lang, method=method, model="hand-made",
                            turns=[Turn(kind, span, f"about {span}?") for kind, span in turns], translation="x")
    return Record(method, "oracle", it, transcript)


# ---- gold words and which question concerns them

def test_gold_words_named_by_the_data_or_derived_per_type():
    assert gold_words(item("person_gender", "The boss met the doctor.", kw_s="boss=boss")) == {"bos"}
    assert gold_words(item("person_gender", "x", kw_s="[workers];doctor")) == {"worker", "doctor"}
    assert gold_words(item("formality", "Can you help me with your bags?")) == {"you", "your"}
    assert gold_words(item("formality", "Have a nice day.")) == set()  # no "you": any formality question counts
    assert gold_words(item("neutral_names", "Jessie is at [pr] mom's, you can have the attic.")) == {"jessie", "[pr]"}
    assert gold_words(item("neutral_professions", "The nurses said [pr] was late.")) == {"nurse", "[pr]"}
    assert gold_words(item("it_resolution", "Can you grab it for us?")) == {"it"}
    assert gold_words(item("polysemy", "about")) == {"about"}
    assert gold_words(item("none", "Thank you.")) == set()


def test_a_question_concerns_the_gold_when_its_family_and_words_match():
    boss = item("person_gender", "The boss met the doctor.", kw_s="boss")
    assert concerns_gold(Turn("neutral_professions", "the boss", "?"), boss)  # professions ask for a gender too
    assert concerns_gold(Turn("person_gender", "Boss", "?"), boss)
    assert not concerns_gold(Turn("neutral_professions", "doctor", "?"), boss)  # another person
    assert not concerns_gold(Turn("formality", "you", "?"), boss)  # another family
    generic = item("formality", "Have a nice day.")
    assert concerns_gold(Turn("formality", "the reader", "?"), generic)  # no gold words: the family decides
    assert not concerns_gold(Turn("formality", "you", "?"), item("none", "Thank you."))


# ---- the asking metrics, worked by hand

def gate_records() -> list[Record]:
    boss = item("person_gender", "The boss met the doctor.", "1", kw_s="boss")
    workers = item("person_gender", "What have the workers gained?", "4", kw_s="workers")
    return [
        asked(boss, ("neutral_professions", "boss"), ("neutral_professions", "doctor")),  # recall 1; 1 of 2 on gold
        asked(item("person_gender", "The boss left.", "2", kw_s="boss")),                  # nothing asked
        asked(item("person_gender", "Do you know the boss?", "3", kw_s="boss"), ("formality", "you")),  # off-topic
        asked(workers, ("person_gender", "worker")),                                       # plural "s" ignored
    ]


def test_ask_recall_precision_and_questions_per_item_by_hand():
    scores = corpus_scores(gate_records(), names=["ask_recall", "question_precision", "questions_per_item"],
                           bootstrap=200)
    assert (scores["ask_recall"].value, scores["ask_recall"].n) == (50.0, 4)         # items 1 and 4 of 4
    precision = scores["question_precision"]
    assert (precision.value, precision.n, precision.excluded) == (50.0, 3, 1)       # 2 of 4 questions; item 2 asked none
    assert scores["questions_per_item"].value == 1.0                                 # 4 questions, 4 items
    low, high = scores["ask_recall"].ci_low, scores["ask_recall"].ci_high
    assert 0 <= low <= 50 <= high <= 100 and "family:table" in scores["ask_recall"].signature


def test_needless_questions_on_items_whose_gold_says_nothing_is_ambiguous():
    records = [asked(item("none", "Thank you.", "1"), ("formality", "you")), asked(item("none", "Good night.", "2"))]
    assert metrics_for_outputs(records)[2:] == ["question_precision", "questions_per_item", "needless_rate"]
    scores = corpus_scores(records, bootstrap=0)
    assert (scores["needless_rate"].value, scores["needless_rate"].higher_is_better) == (50.0, False)
    assert scores["question_precision"].value == 0.0 and scores["questions_per_item"].value == 0.5
    assert segment_scores(records[0])["needless_rate"] == 1
    assert "error_types" not in segment_scores(records[1])  # asking nothing is right here, not "no_question"


def test_baselines_get_no_asking_metrics():
    baseline = asked(item("person_gender", "The boss left.", kw_s="boss"), method="no-extra")
    assert not {"ask_recall", "question_precision", "questions_per_item"} & set(metrics_for_outputs([baseline]))
    assert "ask_recall" not in segment_scores(baseline)


def test_a_jsonl_item_of_type_none_is_loaded_and_scored_without_a_checker(tmp_path):
    path = tmp_path / "none.jsonl"
    path.write_text(json.dumps({"src": "Good night.", "ref": "Bonne nuit.", "lang": "fr", "type": "none"}) + "\n",
                    encoding="utf-8")
    report = LoadReport()
    [loaded] = jsonl.load(path, None, report)
    assert loaded.ambiguity == "none" and not report.malformed
    record = asked(loaded)
    assert metrics_for_outputs([record]) == ["bleu", "chrf", "question_precision", "questions_per_item",
                                             "needless_rate"]


def test_the_asking_table_in_the_report():
    scores = corpus_scores(gate_records(), names=["ask_recall", "question_precision", "questions_per_item"],
                           bootstrap=0)
    row = {"type": "person_gender", "lang": "es", "method": "intercpt", "n": 4,
           "scores": {name: score.to_dict() for name, score in scores.items()}}
    baseline = {"type": "person_gender", "lang": "es", "method": "no-extra", "n": 4, "scores": {}}
    lines = render_asking([row, baseline])
    assert lines[0].startswith("## How well the assistant asks")
    assert "| person_gender | es | 4 | 50.0 | 50.0 | 1.00 |" in lines
    assert len([line for line in lines if line.startswith("| person_gender")]) == 1



def test_the_terminal_shows_the_headline_and_how_well_it_asked(capsys):
    from evaluation.console import print_summary

    names = ["g_acc", "ask_recall", "question_precision", "questions_per_item"]
    scores = corpus_scores(gate_records(), names=names, bootstrap=0)
    row = {"type": "person_gender", "lang": "es", "method": "intercpt", "n": 4, "significance": None,
           "scores": {name: score.to_dict() for name, score in scores.items()}}
    run = {"translator": "llamacpp:model.gguf", "user": "oracle", "items": 4, "failed_items": 0}
    print_summary({"run": run, "groups": [row]}, "out/report.md")
    shown = capsys.readouterr().out
    header = next(line for line in shown.splitlines() if "lang" in line)
    assert [name for name in names + ["g_cov"] if name in header] == names
    assert "50.0" in shown and "1.00" in shown and "report: out/report.md" in shown

# ---- the oracle answers the benchmarks' items through the ambiguity table

def test_the_oracle_answers_cocoa_and_gate_items_from_their_gold(tmp_path):
    cocoa = item("formality", "Do you like Legos?", formality="informal", formal_annotated="[F]Sie[/F]",
                 informal_annotated="[F]du[/F]")
    you = Turn("formality", "you", "?", ["formal", "informal", "generic"])
    assert OracleUser(cocoa.attributes).answer(you, cocoa.src) == "informal"
    from tests.test_benchmark_data import HEADER_4, write_gate
    from evaluation.loaders import gate

    row = ["SUBJ;PROF", "The boss met the doctor.", "La jefa conoció a la médica.", "La jefa conoció al médico.",
           "El jefe conoció a la médica.", "El jefe conoció al médico.", "boss;doctor", "la [jefa];la [médica]",
           "el [jefe];el [médico]", "test"]
    write_gate(tmp_path, "es", 4, [row], HEADER_4)
    ff, fm, _, mm = gate.load(tmp_path, ["es"], LoadReport())
    doctor = Turn("neutral_professions", "the doctor", "?", GENDER_OPTIONS)
    assert OracleUser(ff.attributes).answer(doctor, ff.src) == "a woman"
    assert OracleUser(mm.attributes).answer(doctor, mm.src) == "a man"
    assert OracleUser(fm.attributes).answer(doctor, fm.src) is None  # a woman and a man: the oracle skips
    it = Turn("it_resolution", "it", "What does “it” refer to here?", [])
    assert OracleUser(ff.attributes, ff.ambiguity).answer(doctor, ff.src) == "a woman"
    assert OracleUser(ff.attributes, ff.ambiguity).answer(it, ff.src) is None  # the person's gender is not the thing's


# ---- compared with published results

def cocoa_group(method: str, lang: str, value: float, n: int = 10) -> dict:
    score = {"name": "cocoa_det_acc", "value": value, "ci_low": None, "ci_high": None, "n": n,
             "signature": "stat:det_acc|shared:ignored"}
    return {"type": "formality", "lang": lang, "method": method, "n": n, "scores": {"cocoa_det_acc": score}}


PUBLISHED = {"results": [
    {"benchmark": "cocoa-mt", "paper": "Paper A", "system": "fine-tuned NMT", "setting": "in-domain",
     "metric": "contrastive accuracy", "language": "average", "value": 82, "comparable": "Loosely.",
     "data_set": "cocoa-mt", "ours": {"metric": "cocoa_det_acc", "langs": "all", "split": "test"}},
    {"benchmark": "cocoa-mt", "paper": "Paper B", "system": "shared task", "setting": "supervised",
     "metric": "matched accuracy", "language": "en-de, en-es", "value": 93.5, "comparable": "Partly | as above.",
     "data_set": "cocoa-mt", "ours": {"metric": "cocoa_det_acc", "langs": ["de", "es"], "split": "test",
                                      "signature": "shared:kept"}},
    {"benchmark": "other", "paper": "Paper C", "data_set": "elsewhere", "value": 1,
     "ours": {"metric": "cocoa_det_acc", "langs": "all"}}],
    "without_numbers": {"gate": "No keyword accuracy was published.", "elsewhere": "not in this run"}}


def cocoa_records(split: str = "train") -> list[Record]:
    return [asked(item("formality", "Hi", dataset="cocoa-mt", split=split)),
            asked(item("person_gender", "Hi", dataset="gate"))]


def test_the_run_computes_its_side_of_the_published_comparison():
    groups = [cocoa_group("intercpt", "de", 60.0), cocoa_group("intercpt", "fr", 80.0),
              cocoa_group("no-extra", "de", 40.0), cocoa_group("no-extra", "fr", None)]
    compared = compare(groups, cocoa_records(), {"limit": 20, "user": "oracle"}, PUBLISHED)
    first, second = compared["results"]
    assert first["this_run"] == {"intercpt": {"value": 70.0, "n": 20, "langs": ["de", "fr"]},
                                 "no-extra": {"value": 40.0, "n": 10, "langs": ["de"]}}
    assert second["this_run"]["intercpt"] == {"value": 60.0, "n": 10, "langs": ["de"]}  # es is not in the run
    assert "this run has only de of de, es" in second["differences"]
    assert not any(d.startswith("no value in") for d in second["differences"])
    assert "no value in fr (nothing the metric counts, e.g. no determined output)" not in first["differences"]
    only_no_extra = compare(groups[2:], cocoa_records(), {}, PUBLISHED)["results"][0]
    assert "no value in fr (nothing the metric counts, e.g. no determined output)" in only_no_extra["differences"]
    assert "scorer options differ: published shared:kept, this run shared:ignored" in second["differences"]
    assert "this run read the train split; the published number is on test" in first["differences"]
    assert "a seeded sample of at most 20 items per language" in first["differences"]
    assert compared["without_numbers"] == {"gate": "No keyword accuracy was published."}


def test_the_published_table_renders_both_sides_and_says_what_is_not_comparable():
    groups = [cocoa_group("intercpt", "de", 60.0)]
    lines = render_published(compare(groups, cocoa_records("test"), {"user": "none"}, PUBLISHED))
    assert lines[0] == "## Compared with published results"
    rows = [line for line in lines if line.startswith("| Paper")]
    assert len(rows) == 2
    assert "| 82 | intercpt 60.0 (cocoa_det_acc, de; n=10) | Loosely. |" in rows[0]
    assert "Partly \\| as above." in rows[1]  # a "|" in a cell does not break the table
    assert all(row.count(" | ") == 6 for row in rows)
    assert "- gate: no published number to compare with. No keyword accuracy was published." in lines
    assert not any("train split" in row for row in rows)  # this run read the test split
    assert render_published(compare(groups, [asked(item("formality", "Hi"))], {}, PUBLISHED)) == []


def test_the_shipped_published_file_names_a_metric_the_run_reports():
    from evaluation.metrics import METRICS

    published = load_published()
    assert published["results"] and "gate" in published["without_numbers"]
    for entry in published["results"]:
        assert entry["ours"]["metric"] in METRICS and isinstance(entry["value"], (int, float))


# ---- a --data folder of the wrong layout

@pytest.mark.parametrize("name, expected", [("gate", "not the GATE layout; expected DIR/data/XX/XX_{2,4,8}"),
                                            ("cocoa-mt", "not the CoCoA-MT layout; expected DIR/CoCoA-MT/{test,train}")])
def test_evaluate_with_a_folder_of_the_wrong_layout_fails_at_once(tmp_path, capsys, name, expected):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "notes.txt").write_text("hello", encoding="utf-8")
    start = time.perf_counter()
    status = main(["evaluate", "--data", f"{name}:{tmp_path / 'data'}", "--out", str(tmp_path / "run"),
                   "--translator", "transformers:/no/such/model.gguf", "--no-progress"])
    err = capsys.readouterr().err
    assert status == 1 and expected in err and err.count("\n") == 1 and "Traceback" not in err
    assert time.perf_counter() - start < 10 and not (tmp_path / "run").exists()


def test_a_bare_folder_without_items_says_which_layout_was_expected(tmp_path):
    with pytest.raises(Exception, match="the ambigmt layout is AmbigMT's files, DIR/TYPE/TYPE_en_XX.tsv"):
        load_items(str(tmp_path), None, ("fr",), LoadReport())


def test_the_shipped_unambiguous_texts_load_as_type_none():
    from assistant.paths import shipped_dir

    report = LoadReport()
    items = load_items(str(shipped_dir("datasets") / "fixtures" / "nothing_ambiguous.jsonl"), None, None, report)
    assert not report.malformed and len(items) == 15 and {i.ambiguity for i in items} == {"none"}
    assert {i.lang for i in items} == {"fr", "de", "es"}
    assert metrics_for_outputs([asked(items[0])])[-1] == "needless_rate"
