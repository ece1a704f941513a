"""Sweeps: the same evaluation over several translator or user models, and score-vs-size curves.

Each translator × user pair is an ordinary (resumable) run in its own sub-folder; the sweep
adds ``sweep.json``, ``sweep.md`` and one scaling plot per metric.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from assistant.backends import ModelSpec, load_chat_model

from .config import EvalConfig
from .files import FolderLock, replace_file
from .report import save_figure
from .runner import evaluate

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)


def model_size(spec: str) -> float | None:
    """Parameters in billions, read from the model's name ("…-1.5B-Instruct" -> 1.5); None if it does not say."""
    match = None
    for match in _SIZE.finditer(spec.rsplit("/", 1)[-1]):
        pass
    if match is None:
        return None
    value = float(match.group(1))
    return value if match.group(2).lower() == "b" else value / 1000


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", spec.rsplit("/", 1)[-1]).strip("-")[:60] or "model"


def run_sweep(config: EvalConfig, translators: list[str], users: list[str], progress: bool = True,
              load_model: Callable[[ModelSpec], Any] = load_chat_model,
              resume_command: str | None = None) -> dict[str, Any]:
    """One run of ``config`` per translator × user, each in a sub-folder of ``config.out`` (the
    sweep's folder is locked for the whole sweep, each run's folder for its run)."""
    out = config.out
    lock = FolderLock(out, what="intercpt evaluate (a sweep)")
    try:
        entries = []
        for translator in translators:
            for user in users:
                folder = out / f"{_slug(translator)}__{_slug(user)}"
                summary = evaluate(replace(config, out=folder, translator=translator, user=user), progress=progress,
                                   load_model=load_model, resume_command=resume_command)
                entries.append({"translator": translator, "user": user, "folder": folder.name,
                                "translator_size_b": model_size(translator), "user_size_b": model_size(user),
                                "groups": summary["groups"]})
        sweep = {"runs": entries}
        replace_file(out / "sweep.json", (json.dumps(sweep, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        replace_file(out / "sweep.md", render_sweep(sweep).encode("utf-8"))
        plot_scaling(sweep, out / "plots", "translator" if len(translators) > 1 else "user")
        return sweep
    finally:
        lock.release()


def _mean_scores(entry: dict[str, Any], method: str) -> dict[str, float]:
    """Per metric, the mean over types × languages of one method's scores (for a one-line comparison)."""
    values: dict[str, list[float]] = {}
    for row in entry["groups"]:
        if row["method"] == method:
            for name, score in row["scores"].items():
                if score["value"] is not None:
                    values.setdefault(name, []).append(score["value"])
    return {name: sum(v) / len(v) for name, v in values.items()}


def render_sweep(sweep: dict[str, Any]) -> str:
    lines = ["# intercpt sweep", "", "Scores are means over the ambiguity types and languages of each run; the "
             "per-group tables with confidence intervals are in each run's report.md.", ""]
    for entry in sweep["runs"]:
        methods = dict.fromkeys(r["method"] for r in entry["groups"])
        lines += [f"## translator `{entry['translator']}`, user `{entry['user']}` ({entry['folder']}/report.md)", ""]
        for method in methods:
            means = _mean_scores(entry, method)
            lines.append(f"- {method}: " + ", ".join(f"{n} {v:.1f}" for n, v in sorted(means.items())))
        lines.append("")
    return "\n".join(lines)


def plot_scaling(sweep: dict[str, Any], folder: Path, axis: str) -> list[Path]:
    """Score vs model size (the swept ``axis``: translator or user), one line per method, one PNG per metric."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    runs = sweep["runs"]
    sizes = [r[f"{axis}_size_b"] for r in runs]
    positions = sizes if all(s is not None for s in sizes) else list(range(len(runs)))
    methods = list(dict.fromkeys(row["method"] for r in runs for row in r["groups"]))
    names = sorted({name for r in runs for m in methods for name in _mean_scores(r, m)})
    written = []
    for name in names:
        fig, ax = plt.subplots(figsize=(4.5, 3.2))
        for method in methods:
            points = [(x, _mean_scores(r, method).get(name)) for x, r in zip(positions, runs)]
            points = sorted((x, y) for x, y in points if y is not None)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=method)
        if positions is sizes:
            ax.set_xscale("log")
            ax.set_xlabel(f"{axis} parameters (billions)")
        else:
            ax.set_xticks(positions, [_slug(r[axis]) for r in runs], rotation=20, fontsize="small")
        ax.set_ylabel(name)
        ax.legend(fontsize="small")
        written.append(save_figure(fig, folder / f"scaling_{name.replace('@', 'at')}.png"))
    return written
