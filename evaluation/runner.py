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
from datetime import datetime, timezone
from typing import Any, Callable

from tqdm import tqdm

from assistant.backends import ModelSpec, load_chat_model, supports_structured_output
from assistant.chain import Assistant
from assistant.errors import InputError
from assistant.users import User, make_user

from .config import NO_USER, ORACLE, EvalConfig
from .data import Item, LoadReport
from .loaders import load_items
from .records import ITEMS_FILE, Record, RecordStore, record_key

RUN_FILE = "run.json"


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

    def __init__(self, config: EvalConfig, load_model: Callable[[ModelSpec], Any] = load_chat_model):
        self.config = config
        self.load_report = LoadReport()
        items = load_items(config.data, config.types, config.langs, self.load_report)
        self.items = select_items(items, config.limit, config.seed)
        config.out.mkdir(parents=True, exist_ok=True)
        self.run_info = self._claim_run_dir()
        self.store = RecordStore(config.out / ITEMS_FILE)
        # One target language after another: every prompt starts with its language, so this keeps
        # a backend's prefix cache warm instead of switching prompts at every item.
        by_language = sorted(self.items, key=lambda item: item.lang)
        self.units = [(method, item) for item in by_language for method in config.methods]
        self._load_model = load_model
        self._policy = config.chain.context_policy()  # checked before any model loads
        self._translator = ModelSpec.parse(config.translator)
        self._user_spec = ModelSpec.parse(config.user) if config.user not in (NO_USER, ORACLE) else None
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

        def finished_one(record: Record) -> None:
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
            model = self._load_model(self._translator)
            self._assistant = Assistant.for_model(model, self._translator, prompts=config.chain.prompts,
                                                  context_policy=self._policy)
            if "intercpt" in config.methods and self._user_spec is not None:
                self._user_model = model if config.user == config.translator else self._load_model(self._user_spec)

    def _user_for(self, item: Item) -> User:
        """The oracle, nobody, or a simulated user reading the item's context; nobody where the item
        has nothing to answer from (no gold label for the oracle, no context for the simulated user)."""
        kind = self.config.user if self.config.user in (NO_USER, ORACLE) else "simulated"
        if (kind == ORACLE and not item.attributes) or (kind == "simulated" and not item.context.strip()):
            kind = NO_USER
        simulated = kind == "simulated"
        return make_user(kind, target_lang=item.lang, gold=item.attributes, context=item.context,
                         chat_model=self._user_model if simulated else None,
                         structured_output=simulated and supports_structured_output(self._user_spec),
                         specialist=self.config.chain.prompts == "specialist", context_policy=self._policy)

    def _run_unit(self, method: str, item: Item) -> Record:
        from .metrics import segment_scores

        user = self._user_for(item) if method == "intercpt" else None
        try:
            transcript = self._assistant.run(item.src, item.lang, method=method, context=item.context or None,
                                             user=user, max_questions=self.config.chain.max_questions)
            error = None
        except InputError as err:
            transcript, error = None, str(err)
        record = Record(method, user.name if user else "-", item, transcript, error)
        record.scores = segment_scores(record)
        return record

    def records(self) -> list[Record]:
        """Finished records in unit order (the order of the data, then of the methods)."""
        keys = [record_key(m, i) for m, i in self.units]
        return [self.store.records[k] for k in keys if k in self.store]


def evaluate(config: EvalConfig, *, progress: bool = True,
             load_model: Callable[[ModelSpec], Any] = load_chat_model) -> dict[str, Any]:
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
    summary = summarize(records, evaluation.run_info, notes, config)
    write_report(config.out, summary)
    return summary
