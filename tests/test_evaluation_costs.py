"""The report's cost side: calls, tokens and model time per item of each method, and the ratio of a
method's model time and calls to no-extra's on the items both finished."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.transcript import Transcript
from assistant.usage import StepUsage
from evaluation.config import EvalConfig
from evaluation.costs import COLUMNS, cost
from evaluation.data import Item
from evaluation.records import Record
from evaluation.runner import evaluate
from tests.fakes import StepFake

SAMPLE = Path(__file__).resolve().parent.parent / "datasets" / "fixtures" / "sample.jsonl"
ASK = '{"ambiguous": true, "question": "Formal or informal?", "options": ["formal", "informal"]}'


def record(method: str, item_id: str, usage: dict[str, StepUsage], timings: dict[str, float],
           error: str | None = None) -> Record:
    item = Item(id=item_id, src="Can you help me?", refs=["Pouvez-vous m'aider ?"], context="", ambiguity="formality",
                lang="fr")
    transcript = Transcript(source=item.src, target_lang="fr", method=method, model="fake", usage=usage,
                            timings=timings)
    return Record(method, "oracle", item, transcript, error=error)


def test_cost_per_item_and_against_no_extra_on_the_items_both_finished():
    asked = StepUsage(calls=2, input_tokens=300, evaluated_tokens=100, output_tokens=20)
    translated = StepUsage(calls=1, streamed=1, input_tokens=200, evaluated_tokens=50, output_tokens=10)
    intercpt = [
        record("intercpt", "a", {"detect": asked, "translate": translated}, {"detect": 1.0, "answer": 30.0,
                                                                             "translate": 2.0}),
        record("intercpt", "b", {"detect": asked, "translate": translated, "verify": asked},
               {"detect": 1.0, "translate": 2.0, "verify": 3.0}),
        record("intercpt", "c", {"translate": translated}, {"translate": 4.0}),  # no-extra failed on it
        record("intercpt", "d", {"translate": translated}, {"translate": 9.0}, error="OutageError: down"),
    ]
    no_extra = [record("no-extra", item, {"translate": translated}, {"translate": 1.5}) for item in "ab"]
    no_extra.append(record("no-extra", "c", {"translate": translated}, {"translate": 1.0}, error="failed"))
    found = cost(intercpt, no_extra)
    assert found["items"] == 3  # the failed one left out
    assert found["calls"] == round((3 + 5 + 1) / 3, 2) and found["streamed"] == 1
    assert found["input_tokens"] == round((500 + 800 + 200) / 3, 2)
    assert found["evaluated_tokens"] == round((150 + 250 + 50) / 3, 2)
    assert found["output_tokens"] == round((30 + 50 + 10) / 3, 2)
    assert found["model_s"] == round((3.0 + 6.0 + 4.0) / 3, 3)  # the user's answer is not the chain's time
    assert found["vs_no_extra"] == {"items": 2, "model_time": 3.0, "calls": 4.0}  # (3+6)/(1.5+1.5), (3+5)/(1+1)
    assert cost(no_extra, None)["vs_no_extra"] is None


def test_records_that_counted_nothing_have_no_cost():
    older = record("no-extra", "a", {}, {"translate": 1.0})  # a transcript from before calls were counted
    assert cost([older], None) is None


def test_the_report_shows_each_methods_cost_beside_its_scores(tmp_path):
    usage = {"input_tokens": 100, "output_tokens": 7, "total_tokens": 107, "input_token_details": {"cache_read": 60}}
    fake = StepFake(detect=[ASK], translate=["Vous êtes ici."], user=["formal"], calls=[], usage=usage)
    config = EvalConfig(out=tmp_path / "run", data=str(SAMPLE), langs=("fr",), types=("formality",),
                        methods=("intercpt", "no-extra"), translator="transformers:fake-model", bootstrap=20,
                        retry_wait=0.01)
    summary = evaluate(config, progress=False, load_model=lambda spec: fake)
    rows = {row["method"]: row for row in summary["groups"]}
    records = [json.loads(line) for line in (tmp_path / "run" / "items.jsonl").read_text().splitlines()]
    calls = {method: sum(u["calls"] for r in records if r["method"] == method
                         for u in r["transcript"]["usage"].values()) for method in rows}
    assert calls["no-extra"] == 2 and calls["intercpt"] > calls["no-extra"]
    assert rows["no-extra"]["cost"]["calls"] == 1 and rows["no-extra"]["cost"]["input_tokens"] == 100
    assert rows["intercpt"]["cost"]["vs_no_extra"]["calls"] == round(calls["intercpt"] / calls["no-extra"], 2)
    assert rows["no-extra"]["cost"]["vs_no_extra"] is None
    table = (tmp_path / "run" / "report.md").read_text().split("## formality")[1].splitlines()
    assert table[2].endswith(" | ".join(COLUMNS) + " |")
    no_extra_row = next(line for line in table if line.startswith("| fr | no-extra |"))
    assert no_extra_row.endswith("| 1 (0) | 100 (40) | 7 | " + f"{rows['no-extra']['cost']['model_s']:.2f} | – |")
    intercpt_row = next(line for line in table if line.startswith("| fr | intercpt |"))
    assert f"{rows['intercpt']['cost']['vs_no_extra']['calls']:.2f}× (n=2) |" in intercpt_row
