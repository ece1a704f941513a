"""The evaluator's control flow on a fake chat model: selection, records, resume, failures, report files.

The real-model runs of the same code are in tests/test_evaluate_real.py.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import pytest

from assistant.chain import METHODS, ChainOptions
from assistant.errors import DataError, InputError, OutageError
from evaluation.config import EvalConfig
from evaluation.records import SCHEMA_VERSION, Record, RecordStore
from evaluation.runner import Evaluation, evaluate, select_items
from evaluation.sweep import model_size, run_sweep
from tests.fakes import StepFake

ASK = '{"ambiguous": true, "question": "Formal or informal?", "options": ["formal", "informal"]}'
SAMPLE = Path(__file__).resolve().parent.parent / "datasets" / "fixtures" / "sample.jsonl"


def fake_loader(**queues):
    fake = StepFake(detect=queues.get("detect", [ASK]), translate=queues.get("translate", ["Vous êtes ici."]),
                    user=["formal"], calls=[])
    return (lambda spec: fake), fake


def config(tmp_path, **overrides) -> EvalConfig:
    settings = dict(out=tmp_path / "run", data=str(SAMPLE), langs=None, translator="transformers:fake-model",
                    bootstrap=50, retry_wait=0.01)
    settings.update(overrides)
    return EvalConfig(**settings)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_sample_is_seeded_per_type_and_language_and_keeps_file_order(dev_data, tmp_path):
    evaluation_a = Evaluation(config(tmp_path, data=str(dev_data), limit=2, seed=7, langs=("fr", "de")),
                              lambda spec: None)
    ids = [i.id for i in evaluation_a.items]
    assert len(ids) == 2 * (5 * 2 - 1)  # no neutral_professions for fr
    again = select_items(evaluation_a.items, 2, 7)
    assert [i.id for i in again] == ids
    other = Evaluation(config(tmp_path / "b", data=str(dev_data), limit=2, seed=8, langs=("fr", "de")),
                       lambda spec: None)
    assert [i.id for i in other.items] != ids


def test_every_method_of_every_item_gets_one_record_with_its_transcript(tmp_path):
    load, fake = fake_loader()
    summary = evaluate(config(tmp_path, concurrency=3), progress=False, load_model=load)
    records = lines(tmp_path / "run" / "items.jsonl")
    assert len(records) == 4 * 3 == summary["run"]["items"]
    assert len({r["key"] for r in records}) == len(records)
    intercpt = next(r for r in records if r["key"] == "intercpt/formal-1")
    assert intercpt["transcript"]["turns"][0]["answered_by"] == "oracle"
    assert intercpt["transcript"]["turns"][0]["answer"] == "formal"
    assert intercpt["scores"]["f_acc"] == 1
    for name in ("report.md", "summary.json", "summary.csv", "plots/formality.png"):
        assert (tmp_path / "run" / name).is_file(), name


def test_a_restart_runs_only_what_is_missing_and_drops_a_partial_line(tmp_path):
    load, fake = fake_loader()
    evaluate(config(tmp_path), progress=False, load_model=load)
    path = tmp_path / "run" / "items.jsonl"
    kept = path.read_text(encoding="utf-8").splitlines()[:5]
    path.write_text("\n".join(kept) + "\n" + '{"key": "no-extra/name-1", "meth', encoding="utf-8")
    fake.calls.clear()
    evaluate(config(tmp_path), progress=False, load_model=load)
    records = lines(path)
    assert len(records) == 12 and len({r["key"] for r in records}) == 12
    assert records[:5] == [json.loads(line) for line in kept]
    assert fake.steps().count("translate") >= 7  # the seven missing records, nothing more than needed


def test_a_restart_with_other_arguments_is_refused(tmp_path):
    load, _ = fake_loader()
    evaluate(config(tmp_path, methods=("no-extra",)), progress=False, load_model=load)
    with pytest.raises(InputError, match="methods differ"):
        Evaluation(config(tmp_path, methods=("with-context",)), load)


def test_a_server_outage_stops_the_run_and_keeps_what_finished(tmp_path):
    class FlakyFake(StepFake):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            if len(self.calls) >= 3:
                raise OutageError("the model server went away")
            return super()._generate(messages, stop, run_manager, **kwargs)

    fake = FlakyFake(detect=[ASK], translate=["Vous êtes ici."], user=["x"], calls=[])
    with pytest.raises(OutageError, match="went away.*records kept"):
        evaluate(config(tmp_path, methods=("no-extra",)), progress=False, load_model=lambda spec: fake)
    finished = lines(tmp_path / "run" / "items.jsonl")
    assert 1 <= len(finished) < 4 and all(r["error"] is None for r in finished)
    run_info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run_info["sessions"][-1]["items"] == len(finished)


def test_an_item_the_chain_refuses_is_recorded_with_its_error(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "empty", "src": "   \u200b ", "ref": "x", "type": "formality", "lang": "fr"})
                    + "\n" + SAMPLE.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    load, _ = fake_loader()
    evaluate(config(tmp_path, data=str(data), methods=("no-extra",)), progress=False, load_model=load)
    records = {r["key"]: r for r in lines(tmp_path / "run" / "items.jsonl")}
    assert records["no-extra/empty"]["transcript"] is None
    assert "empty" in records["no-extra/empty"]["error"]
    assert records["no-extra/formal-1"]["error"] is None


def test_missing_data_and_unknown_types_get_clear_errors(tmp_path):
    with pytest.raises(InputError, match="no such file or folder"):
        Evaluation(config(tmp_path, data=str(tmp_path / "nope.jsonl")), lambda spec: None)
    with pytest.raises(InputError, match="no items"):
        Evaluation(config(tmp_path, types=("sarcasm",)), lambda spec: None)


def test_model_size_is_read_from_the_model_name():
    assert model_size("transformers:Qwen/Qwen2.5-1.5B-Instruct") == 1.5
    assert model_size("vllm:/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf") == 0.5
    assert model_size("openai:http://host:8000/v1#smollm-360M") == 0.36
    assert model_size("oracle") is None


def test_a_sweep_runs_each_model_and_plots_score_against_size(tmp_path):
    load, _ = fake_loader()
    base = config(tmp_path, out=tmp_path / "sweep", methods=("intercpt", "no-extra"), bootstrap=20)
    sweep = run_sweep(base, ["transformers:m-0.5B", "transformers:m-1.5B"], ["oracle"], progress=False,
                      load_model=load)
    assert [r["translator_size_b"] for r in sweep["runs"]] == [0.5, 1.5]
    for run in sweep["runs"]:
        assert (tmp_path / "sweep" / run["folder"] / "report.md").is_file()
    assert (tmp_path / "sweep" / "plots" / "scaling_f_acc.png").is_file()
    assert "translator `transformers:m-1.5B`" in (tmp_path / "sweep" / "sweep.md").read_text()


def test_records_round_trip_and_a_newer_schema_is_refused_with_file_and_line(tmp_path):
    load, _ = fake_loader()
    evaluate(config(tmp_path, methods=("intercpt",)), progress=False, load_model=load)
    path = tmp_path / "run" / "items.jsonl"
    store = RecordStore(path)
    record = store.records["intercpt/formal-1"]
    assert isinstance(record, Record) and record.transcript.turns[0].answer == "formal"
    assert Record.from_dict(record.to_dict()) == record
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["schema_version"] == SCHEMA_VERSION
    rows = path.read_text(encoding="utf-8").splitlines()
    newer = json.loads(rows[1])
    newer["schema_version"] = SCHEMA_VERSION + 1
    path.write_text("\n".join([rows[0], json.dumps(newer), *rows[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=rf"items.jsonl:2: record schema_version {SCHEMA_VERSION + 1} "):
        RecordStore(path)
    path.write_text('{"key": "x", "method": "no-extra"}\n', encoding="utf-8")
    with pytest.raises(DataError, match="items.jsonl:1: not an evaluation record"):
        RecordStore(path)


def test_the_run_identity_comes_from_the_field_metadata_and_includes_the_chain_options(tmp_path):
    chosen = replace(config(tmp_path), chain=ChainOptions(max_questions=1, prompts="specialist"), concurrency=4)
    identity = chosen.identity()
    assert identity["max_questions"] == 1 and identity["prompts"] == "specialist"
    assert "method" not in identity and "concurrency" not in identity and "out" not in identity
    assert identity["methods"] == list(METHODS) and identity["langs"] is None
    assert set(identity) == {f.name for f in fields(EvalConfig) if f.metadata["identity"] and f.name != "chain"} | {
        f.name for f in fields(ChainOptions) if f.name != "method"}
    with pytest.raises(InputError, match="unknown method"):
        config(tmp_path, methods=("intercpt", "guess"))
    load, _ = fake_loader()
    evaluate(config(tmp_path, methods=("no-extra",)), progress=False, load_model=load)
    with pytest.raises(InputError, match="max_questions differ"):
        Evaluation(replace(config(tmp_path, methods=("no-extra",)), chain=ChainOptions(max_questions=1)), load)
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert f"at most {ChainOptions().max_questions} question(s)" in report


def test_the_checker_ceiling_scores_references_without_a_transcript(tmp_path):
    load, _ = fake_loader()
    summary = evaluate(config(tmp_path, methods=("no-extra",)), progress=False, load_model=load)
    ceilings = {(row["type"], row["lang"]): row["scores"] for row in summary["checker_ceilings"]}
    assert set(ceilings[("formality", "fr")]) == {"f_acc", "f_cov"}
    assert ceilings[("formality", "fr")]["f_acc"]["value"] == 100.0  # both sample references read as their gold
    assert set(ceilings[("neutral_names", "de")]) == {"g_acc", "g_cov"}


def test_a_glossary_reaches_every_item_and_its_terms_checks_are_recorded(tmp_path):
    glossary = tmp_path / "terms.csv"
    glossary.write_text("cake,gâteau\n", encoding="utf-8")
    load, fake = fake_loader(translate=["Tu veux du gâteau ?"])
    evaluate(config(tmp_path, glossary=str(glossary), methods=("no-extra",)), progress=False, load_model=load)
    records = {r["item"]["id"]: r for r in lines(tmp_path / "run" / "items.jsonl")}
    cake = records["informal-1"]["transcript"]
    assert cake["terms"] == [{"source": "cake", "target": "gâteau"}]
    assert [(c["name"], c["status"]) for c in cake["checks"] if c["name"] == "terms"] == [("terms", "pass")]
    assert all(r["transcript"]["terms"] == [] for key, r in records.items() if key != "informal-1")
    run_info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run_info["config"]["glossary"] == str(glossary)
    with pytest.raises(InputError, match="glossary"):  # a resume with another glossary is refused
        Evaluation(config(tmp_path, methods=("no-extra",)), load)


def test_a_glossary_into_one_language_fails_a_run_in_several_before_any_model_loads(tmp_path):
    glossary = tmp_path / "terms.csv"
    glossary.write_text("en,fr\ncake,gâteau\n", encoding="utf-8")

    def no_load(spec):
        raise AssertionError("a model was loaded before the glossary was checked")

    with pytest.raises(InputError, match=r"into 'fr', not 'de'; the items are in de, es, fr: .*--langs"):
        Evaluation(config(tmp_path, glossary=str(glossary)), no_load)
    with Evaluation(config(tmp_path, glossary=str(glossary), langs=("fr",)), no_load) as evaluation:
        assert set(evaluation._glossaries) == {"fr"}


def test_alternatives_are_computed_only_for_a_type_whose_metrics_read_them(tmp_path):
    data = tmp_path / "items.jsonl"
    data.write_text("\n".join(json.dumps(item) for item in [
        {"id": "you", "src": "Can you help me?", "ref": "Pouvez-vous m'aider ?", "type": "formality", "lang": "fr",
         "attributes": {}},
        {"id": "bank", "src": "I sat on the bank.", "ref": "Je me suis assis sur la rive.", "type": "polysemy",
         "lang": "fr", "attributes": {"sense": "rive"}}]) + "\n", encoding="utf-8")
    load, fake = fake_loader()
    evaluate(config(tmp_path, data=str(data), methods=("intercpt",), user="none"), progress=False, load_model=load)
    requested = {r["item"]["id"]: r["transcript"]["alternatives_requested"]
                 for r in lines(tmp_path / "run" / "items.jsonl")}
    assert requested == {"you": False, "bank": True}  # hit@3 and chrF@3 read them; the formality metrics do not
    you = next(r for r in lines(tmp_path / "run" / "items.jsonl") if r["item"]["id"] == "you")
    assert you["transcript"]["turns"][0]["answered_by"] == "none" and you["transcript"]["alternatives"] == []


def test_a_profile_answers_before_the_oracle_and_its_answers_are_recorded_as_the_profiles(tmp_path):
    profile = tmp_path / "project.yaml"
    profile.write_text("register:\n  fr: informal\npeople:\n  Blair: a man\n", encoding="utf-8")
    load, fake = fake_loader()
    evaluate(config(tmp_path, profile=str(profile), methods=("intercpt",)), progress=False, load_model=load)
    records = {r["item"]["id"]: r for r in lines(tmp_path / "run" / "items.jsonl")}
    answers = {key: [(t["span"], t["answer"], t["answered_by"]) for t in r["transcript"]["turns"]]
               for key, r in records.items()}
    assert answers["formal-1"] == [("you", "informal", "profile")]  # the profile's, over the gold label's
    assert answers["name-1"] == [("Blair", "a man", "profile")]
    assert [who for _, _, who in answers["it-1"]] == ["oracle"]  # what the profile does not answer is asked
    assert records["formal-1"]["scores"]["questions"] == 0 and records["it-1"]["scores"]["questions"] == 1
    assert json.loads((tmp_path / "run" / "run.json").read_text())["config"]["profile"] == str(profile)
    with pytest.raises(InputError, match="profile"):  # a resume without the profile is refused
        Evaluation(config(tmp_path, methods=("intercpt",)), load)


@pytest.mark.parametrize(("text", "message"), [
    ("voice: formal\n", "unknown section 'voice'"),
    ("people:\n  alex: " + "x" * 400 + "\n", "at most 300"),
    ("register:\n  ja: formal\n", r"its register is for ja; the items are in de, es, fr: .*--langs"),
])
def test_a_bad_profile_fails_the_run_before_any_model_loads(tmp_path, text, message):
    profile = tmp_path / "project.yaml"
    profile.write_text(text, encoding="utf-8")

    def no_load(spec):
        raise AssertionError("a model was loaded before the profile was checked")

    with pytest.raises(InputError, match=message):
        Evaluation(config(tmp_path, profile=str(profile)), no_load)
    with pytest.raises(InputError, match="no such profile file"):
        Evaluation(config(tmp_path, profile=str(tmp_path / "missing.yaml")), no_load)
