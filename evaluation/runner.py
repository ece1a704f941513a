"""Run the chain and its baselines over evaluation items, concurrently and resumably.

A run directory holds ``run.json`` (the arguments that define the run, and one entry per
session), ``items.jsonl`` (one record per finished method × item) and, once every item is
done, the report. Starting the same run again skips what ``items.jsonl`` already holds.
"""

from __future__ import annotations

import json
import os
import random
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from tqdm import tqdm

from assistant.backends import default_model_spec, load_chat_model, supports_structured_output
from assistant.chain import DEFAULT_MAX_QUESTIONS, METHODS, Assistant
from assistant.errors import InputError
from assistant.context import DEFAULT_BUDGET, DEFAULT_STRATEGY, ContextPolicy
from assistant.users import NoUser, OracleUser, SimulatedUser, User

from .data import AMBIGUITY_TYPES, Item, LoadReport, load_ambigmt, load_jsonl
from .download import ambigmt_folder
from .records import ITEMS_FILE, RecordStore, new_record, record_key

RUN_FILE = "run.json"
NO_USER, ORACLE = "none", "oracle"


@dataclass
class EvalConfig:
    """Everything that decides which records a run produces (``identity``), plus how it runs.

    data: ``ambigmt`` (downloaded and verified, or ``$INTERCPT_AMBIGMT_DIR``), a folder with
        the AmbigMT files, or a JSONL file. types/langs: None keeps every one the data has.
    user: who answers the intercpt method's questions: ``oracle`` (gold labels), ``none``
        (nobody: questions are skipped), or a model spec (a simulated user reading the context).
    limit: items per ambiguity type × language, drawn with ``seed`` (None: all).
    context_*: how much of an item's context the simulated user and the with-context method
        read (see ``assistant.summarize.ContextPolicy``), so its effect can be measured.
    """

    out: Path
    data: str = "ambigmt"
    types: tuple[str, ...] | None = None
    langs: tuple[str, ...] | None = ("fr", "de", "es")
    methods: tuple[str, ...] = METHODS
    translator: str = field(default_factory=default_model_spec)
    user: str = ORACLE
    limit: int | None = None
    seed: int = 0
    prompts: str = "generalist"
    max_questions: int = DEFAULT_MAX_QUESTIONS
    context_strategy: str = DEFAULT_STRATEGY
    context_budget: int = DEFAULT_BUDGET
    context_encoder: str | None = None
    concurrency: int = 1
    bootstrap: int = 1000
    comet: str | None = None

    def identity(self) -> dict[str, Any]:
        """The arguments a restarted run must share with the first start."""
        keys = ("data", "types", "langs", "methods", "translator", "user", "limit", "seed", "prompts", "max_questions",
                "context_strategy", "context_budget", "context_encoder")
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items() if k in keys}

    def context_policy(self) -> ContextPolicy:
        return ContextPolicy(self.context_strategy, self.context_budget, self.context_encoder)


def load_items(config: EvalConfig, report: LoadReport) -> list[Item]:
    """The data's items for the configured types and languages (before ``limit``)."""
    source = Path(config.data)
    if config.data == "ambigmt" or source.is_dir():
        folder = ambigmt_folder() if config.data == "ambigmt" else source
        items = load_ambigmt(folder, config.types or AMBIGUITY_TYPES, config.langs or ("fr", "de", "es"), report)
    elif source.is_file():
        items = load_jsonl(source, report)
    else:
        raise InputError(f"--data {config.data}: no such file or folder (give 'ambigmt', a folder or a JSONL file)")
    items = [i for i in items if (not config.types or i.type in config.types)
             and (not config.langs or i.lang in config.langs)]
    if not items:
        raise InputError(f"no items in {config.data} for types {config.types or 'all'} and languages "
                         f"{config.langs or 'all'}"
                         + (f"; problems: {report.malformed[:3]}" if report.malformed else ""))
    return items


def select_items(items: list[Item], limit: int | None, seed: int) -> list[Item]:
    """Up to ``limit`` items per type × language, a seeded sample kept in file order."""
    if limit is None:
        return items
    groups: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault((item.type, item.lang), []).append(index)
    chosen: list[int] = []
    for (kind, lang), indices in groups.items():
        rng = random.Random(f"{seed}/{kind}/{lang}")
        chosen += rng.sample(indices, min(limit, len(indices)))
    return [items[i] for i in sorted(chosen)]


class Evaluation:
    """One run directory: its items, its store of finished records, and the models that fill it."""

    def __init__(self, config: EvalConfig, load_model: Callable[[str], Any] = load_chat_model):
        self.config = config
        self.load_report = LoadReport()
        self.items = select_items(load_items(config, self.load_report), config.limit, config.seed)
        config.out.mkdir(parents=True, exist_ok=True)
        self.run_info = self._claim_run_dir()
        self.store = RecordStore(config.out / ITEMS_FILE)
        # One target language after another: every prompt starts with its language, so this keeps
        # a backend's prefix cache warm instead of switching prompts at every item.
        by_language = sorted(self.items, key=lambda item: item.lang)
        self.units = [(method, item) for item in by_language for method in config.methods]
        self._load_model = load_model
        self._policy = config.context_policy()  # checked before any model loads
        self._assistant: Assistant | None = None
        self._user_model = None

    def _claim_run_dir(self) -> dict[str, Any]:
        path = self.config.out / RUN_FILE
        identity = self.config.identity()
        if path.exists():
            info = json.loads(path.read_text(encoding="utf-8"))
            changed = [k for k in identity if info["config"].get(k) != identity[k]]
            if changed:
                raise InputError(f"{self.config.out} holds a run with other arguments ({', '.join(changed)} differ); "
                                 "resume it with the same arguments or choose another --out")
            return info
        self.run_info = {"config": identity, "sessions": []}
        self._save_run_info()
        return self.run_info

    @property
    def pending(self) -> list[tuple[str, Item]]:
        return [(m, i) for m, i in self.units if record_key(m, i) not in self.store]

    def run(self, progress: bool = True) -> None:
        """Run every pending unit, ``concurrency`` at a time, appending each record as it finishes.

        An item whose input the chain refuses is recorded with its error; a failing backend
        stops the run (what finished is kept, and the next start goes on from there). Each
        start is a session in run.json, updated after every item so a killed run still counts.
        """
        pending = self.pending
        if not pending:
            return
        load_start = time.perf_counter()
        self._ensure_models()
        session = {"started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   "load_s": round(time.perf_counter() - load_start, 3), "wall_s": 0.0, "items": 0,
                   "concurrency": self.config.concurrency}
        self.run_info["sessions"].append(session)
        t0, done_before = time.perf_counter(), len(self.store)

        def finished_one(record: dict[str, Any]) -> None:
            self.store.append(record)
            session.update(wall_s=round(time.perf_counter() - t0, 3), items=len(self.store) - done_before)
            self._save_run_info()
            bar.update()

        bar = tqdm(total=len(self.units), initial=len(self.units) - len(pending), unit="item",
                   desc="evaluate", disable=not progress, dynamic_ncols=True)
        try:
            with ThreadPoolExecutor(max_workers=max(1, self.config.concurrency)) as pool:
                futures = {pool.submit(self._run_unit, m, i) for m, i in pending}
                failure = None
                while futures:
                    finished, futures = wait(futures, return_when=FIRST_COMPLETED)
                    for future in finished:
                        if future.cancelled():
                            continue
                        if future.exception() is not None:
                            failure = failure or future.exception()
                            for other in futures:
                                other.cancel()  # items already running still finish and are kept
                            continue
                        finished_one(future.result())
                if failure is not None:
                    raise failure
        finally:
            bar.close()

    def _save_run_info(self) -> None:
        path = self.config.out / RUN_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.run_info, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    def _ensure_models(self) -> None:
        if self._assistant is None:
            config = self.config
            model = self._load_model(config.translator)
            self._assistant = Assistant.for_model(model, config.translator, prompts=config.prompts,
                                                  context_policy=self._policy)
            if "intercpt" in config.methods and config.user not in (NO_USER, ORACLE):
                self._user_model = model if config.user == config.translator else self._load_model(config.user)

    def _user_for(self, item: Item) -> User:
        if self.config.user == ORACLE:
            return OracleUser(item.attributes)
        if self.config.user == NO_USER or not item.context:
            return NoUser()
        return SimulatedUser(self._user_model, item.context, item.lang, specialist=self.config.prompts == "specialist",
                             context_policy=self._policy,
                             structured_output=supports_structured_output(self.config.user))

    def _run_unit(self, method: str, item: Item) -> dict[str, Any]:
        from .metrics import segment_scores

        user = self._user_for(item) if method == "intercpt" else None
        try:
            transcript = self._assistant.run(item.src, item.lang, method=method, context=item.context or None,
                                             user=user, max_questions=self.config.max_questions)
            error = None
        except InputError as err:
            transcript, error = None, str(err)
        record = new_record(method, item, user.name if user else "-", transcript, error)
        record["scores"] = segment_scores(record)
        return record

    def records(self) -> list[dict[str, Any]]:
        """Finished records in unit order (the order of the data, then of the methods)."""
        keys = [record_key(m, i) for m, i in self.units]
        return [self.store.records[k] for k in keys if k in self.store]


def evaluate(config: EvalConfig, *, progress: bool = True,
             load_model: Callable[[str], Any] = load_chat_model) -> dict[str, Any]:
    """Run (or finish) the evaluation, then write items.jsonl, summary.json/.csv, report.md and plots."""
    from .report import summarize, write_report

    evaluation = Evaluation(config, load_model)
    evaluation.run(progress=progress)
    records = evaluation.records()
    if config.comet:
        from .metrics.comet import add_comet_scores

        if add_comet_scores(records, config.comet):
            evaluation.store.rewrite(records)
    loaded = evaluation.load_report
    notes = {"malformed": loaded.malformed, "gender_not_derived": loaded.gender_not_derived}
    summary = summarize(records, evaluation.run_info, notes, bootstrap=config.bootstrap, seed=config.seed,
                        comet=config.comet)
    write_report(config.out, summary)
    return summary
