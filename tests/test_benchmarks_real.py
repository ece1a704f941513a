"""``intercpt evaluate`` on CoCoA-MT and GATE with the real 0.5B model (llama.cpp): the benchmarks' own accuracies,
the asking metrics and the published comparison come out of real transcripts. Plumbing checks only:
the model's scores say nothing about translation quality."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.test_benchmark_data import COCOA_DIR, GATE_DIR, _dev_folder

pytestmark = pytest.mark.real_model


@pytest.mark.parametrize("name, folder, variable, lang, accuracy", [
    ("cocoa-mt", COCOA_DIR, "INTERCPT_COCOA_MT_DIR", "de", "cocoa_acc"),
    ("gate", GATE_DIR, "INTERCPT_GATE_DIR", "es", "gate_acc"),
])
def test_evaluate_on_a_benchmark_reports_its_accuracy_and_how_well_it_asks(embedded_spec, tmp_path, measure, name,
                                                                           folder, variable, lang, accuracy):
    folder = _dev_folder(folder, variable)
    out = tmp_path / name
    command = ["intercpt", "evaluate", "--data", f"{name}:{folder}", "--langs", lang, "--limit", "2",
               "--methods", "intercpt,no-extra", "--user", "oracle", "--max-questions", "1",
               "--translator", embedded_spec, "--bootstrap", "100", "--out", str(out),
               "--no-progress"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    groups = {row["method"]: row for row in summary["groups"]}
    assert set(groups) == {"intercpt", "no-extra"}
    for row in groups.values():
        assert row["scores"][accuracy]["n"] + row["scores"][accuracy]["excluded"] == 2
    assert {"ask_recall", "question_precision", "questions_per_item"} <= set(groups["intercpt"]["scores"])
    assert "ask_recall" not in groups["no-extra"]["scores"]
    records = [json.loads(line) for line in (out / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    asked = sum(len(r["transcript"]["turns"]) for r in records if r["method"] == "intercpt" and r["transcript"])
    assert groups["intercpt"]["scores"]["questions_per_item"]["value"] == asked / 2
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## How well the assistant asks" in report and "## Compared with published results" in report
    if name == "cocoa-mt":
        assert summary["published"]["results"] and "this run read the train split" in report
    else:
        assert "gate: no published number" in report
    measure(f"evaluate {name} {lang}, 0.5B on llama.cpp, 4 records: {accuracy} "
            + ", ".join(f"{m} {g['scores'][accuracy]['value']}" for m, g in groups.items())
            + f"; questions per item {groups['intercpt']['scores']['questions_per_item']['value']}")
