"""``intercpt evaluate`` end to end on the real 0.5B model (llama.cpp, the embedded default) and the
AmbigMT dev data.

The scores of this model are plumbing checks: they prove every artifact is written from real
transcripts, not that the translations are good.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.real_model

TYPES = ("formality", "it_resolution", "polysemy", "neutral_names", "neutral_professions")


def evaluate_command(model: str, data: Path, out: Path, *extra: str) -> list[str]:
    return ["intercpt", "evaluate", "--data", str(data), "--translator", model, "--out", str(out),
            "--bootstrap", "200", "--no-progress", *extra]


def count_records(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}"))


def test_a_run_over_every_type_survives_being_killed(embedded_spec, test_model_path, dev_data, tmp_path, measure):
    out = tmp_path / "run"
    # Spanish is one of the two languages with a file of every type: one item of each, five records.
    command = evaluate_command(embedded_spec, dev_data, out, "--langs", "es", "--limit", "1", "--methods", "intercpt",
                               "--max-questions", "1", "--user", "oracle")
    expected = len(TYPES)
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    deadline = time.monotonic() + 600
    while count_records(out / "items.jsonl") < expected // 2 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert first.poll() is None, f"the first run ended before it could be killed: {first.communicate()[1][-2000:]}"
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    killed_at = count_records(out / "items.jsonl")
    assert 0 < killed_at < expected

    second = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
    assert second.returncode == 0, second.stderr[-3000:]
    records = [json.loads(line) for line in (out / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(records) == expected and len({r["key"] for r in records}) == expected
    assert {(r["item"]["type"], r["item"]["lang"]) for r in records} == {(t, "es") for t in TYPES}
    assert all(r["transcript"]["translation"] for r in records if r["error"] is None)
    for name in ("report.md", "summary.json", "summary.csv", "items.jsonl", "run.json"):
        assert (out / name).stat().st_size > 0, name
    assert sorted(p.name for p in (out / "plots").glob("*.png")) == sorted(f"{t}.png" for t in TYPES)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["items"] == expected and len(summary["run"]["sessions"]) == 2
    report = (out / "report.md").read_text()
    assert "nrefs:1" in report and "seed 0" in report and test_model_path in report
    measure(f"evaluate, 0.5B on llama.cpp, {expected} records, killed after {killed_at}: "
            f"{summary['run']['items_per_s']:.3f} records/s over {summary['run']['wall_s']:.0f} s")


def test_a_user_sweep_puts_oracle_none_and_simulated_user_side_by_side(embedded_spec, dev_data, tmp_path, measure):
    out = tmp_path / "sweep"
    simulated = embedded_spec  # the simulated user shares the translator's model, loaded once
    command = evaluate_command(embedded_spec, dev_data, out, "--types", "formality", "--langs", "fr",
                               "--limit", "1", "--methods", "intercpt", "--max-questions", "1",
                               "--user", "oracle", "--user", "none", "--user", simulated)
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    sweep = json.loads((out / "sweep.json").read_text())
    assert [run["user"] for run in sweep["runs"]] == ["oracle", "none", simulated]
    answered = {}
    for run in sweep["runs"]:
        records = [json.loads(line) for line in (out / run["folder"] / "items.jsonl").read_text().splitlines()]
        answered[run["user"]] = {t["answered_by"] for r in records for t in r["transcript"]["turns"]}
        report = (out / run["folder"] / "report.md").read_text()
        assert "f_acc" in report
        f_acc = {row["lang"]: row["scores"]["f_acc"]["value"] for row in run["groups"]}
        measure(f"F-Acc with user {run['user']} (0.5B on llama.cpp, one French formality item): {f_acc}")
    assert answered["none"] <= {"none"} and "oracle" in answered["oracle"]
    assert answered[simulated] <= {"simulated", "none"}
    sweep_md = (out / "sweep.md").read_text()
    assert "user `oracle`" in sweep_md and "user `none`" in sweep_md and "f_acc" in sweep_md
    assert (out / "plots" / "scaling_f_acc.png").is_file()
