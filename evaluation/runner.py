"""Run the chain and its baselines over evaluation items, concurrently and resumably.

A run directory holds ``run.json`` (the arguments that define the run, and one entry per
session), ``items.jsonl`` (one record per finished method × item) and, once every item is
done, the report. Starting the same run again skips what ``items.jsonl`` already holds (but a
garbage reply's record, run again); one process at a time may write a run directory. Items are
launched only as workers free up, so a stop (a signal, or a model server that keeps failing)
sends nothing more to the model.
"""

from __future__ import annotations

import json
import queue
import random
import sys
import threading
import time
from collections import deque
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable

from tqdm import tqdm

from assistant.backends import ModelSpec, load_chat_model
from assistant.chain import Assistant, PreferenceMemory, User
from assistant.errors import BackendError, InputError, IntercptError, OutageError
from assistant.glossary import Glossary
from assistant.profile import PER_LANGUAGE, Profile, load_profile
from assistant.sheet import with_profile

from .config import NO_USER, ORACLE, EvalConfig
from .data import Item, LoadReport
from .files import FolderLock, replace_file
from .loaders import load_items
from .records import ITEMS_FILE, Record, RecordStore, record_key
from .retry import with_retries
from .stopping import StopRequest, is_garbage_reply, is_server_failure

RUN_FILE = "run.json"
GRACE_S = 5.0  # after a stop signal, how long items already running may take to finish and be kept
POLL_S = 0.2  # how often the run looks at the clock and at a stop request between finished items


def select_items(items: list[Item], limit: int | None, seed: int) -> list[Item]:
    """Up to ``limit`` items per type × language, a seeded sample kept in file order."""
    if limit is None:
        return items
    groups: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault((item.ambiguity, item.lang), []).append(index)
    chosen: list[int] = []
    for (ambiguity, lang), indices in groups.items():
        rng = random.Random(f"{seed}/{ambiguity}/{lang}")
        chosen += rng.sample(indices, min(limit, len(indices)))
    return [items[i] for i in sorted(chosen)]


class Evaluation:
    """One run directory, locked while this object is open: its items, its store of finished
    records, and the models that fill it. Use it as a context manager (or ``close`` it)."""

    def __init__(self, config: EvalConfig, load_model: Callable[[ModelSpec], Any] = load_chat_model, *,
                 resume_command: str | None = None, grace_s: float = GRACE_S):
        self.config = config
        self.load_report = LoadReport()
        items = load_items(config.data, config.types, config.langs, self.load_report)
        self.items = select_items(items, config.limit, config.seed)
        self.units = _units(self.items, config)
        self._glossaries = _glossaries(config.glossary, self.items)
        self._profile = _profile(config.profile, self.items)
        self._translator = ModelSpec.parse(config.translator)
        self._user_spec = ModelSpec.parse(config.user) if config.user not in (NO_USER, ORACLE) else None
        self._lock = FolderLock(config.out)
        try:
            self.run_info = self._claim_run_dir()
            self.store = RecordStore(config.out / ITEMS_FILE)
        except BaseException:
            self._lock.release()
            raise
        self.resume_command = resume_command
        self.grace_s = grace_s
        self._load_model = load_model
        self._assistant: Assistant | None = None
        self._user_assistant: Assistant | None = None  # the simulated user's model, under the chain's options

    def __enter__(self) -> "Evaluation":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the run directory for the next process."""
        self._lock.release()

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
        return [(m, i) for m, i in self.units if not self.store.is_final(record_key(m, i))]

    def run(self, progress: bool = True) -> None:
        """Run every pending unit, ``concurrency`` at a time, appending each record as it finishes.

        An item that fails (the chain refuses its input, the model's reply is unusable, a metric
        cannot score it) is recorded with its error and counts as a failure. An item that fails
        for the model server (an HTTP 5xx or 429, a timeout, no connection) is tried again with
        backoff; one that still fails is not recorded and stops the run with ``OutageError``,
        naming how many items failed so; a stop signal winds it down (``StopRequest``). Either way
        what finished is kept and the next start runs only what is missing. Each start is a
        session in run.json, updated after every item.
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
        todo, in_flight, failure, dropped = deque(pending), set(), None, 0
        halt = threading.Event()  # ends the waits of items to be tried again
        finished: queue.SimpleQueue = queue.SimpleQueue()
        bar = tqdm(total=len(self.units), initial=len(self.units) - len(pending), unit="item",
                   desc="evaluate", disable=not progress, dynamic_ncols=True)
        with StopRequest() as stop:
            try:
                while todo or in_flight:
                    while todo and len(in_flight) < self.config.concurrency and not (stop.requested or failure):
                        unit = todo.popleft()
                        in_flight.add(record_key(*unit))
                        self._launch(unit, finished, halt)
                    if stop.requested or failure:
                        halt.set()
                    if not in_flight or stop.waited() > self.grace_s:
                        break
                    try:
                        key, outcome = finished.get(timeout=POLL_S)
                    except queue.Empty:
                        continue
                    in_flight.discard(key)
                    if isinstance(outcome, Record):
                        self.store.append(outcome)
                        session.update(wall_s=round(time.perf_counter() - t0, 3), items=len(self.store) - done_before)
                        self._save_run_info()
                        bar.update()
                    else:
                        failure = failure or outcome
                        dropped += 1
            finally:
                bar.close()
                if stop.requested or failure:
                    session["stopped"] = stop.name or "outage"
                    self._save_run_info()
        if stop.requested:
            self._say_how_to_resume(f"stopped by {stop.name}", len(in_flight))
            raise stop.exit()
        if failure is not None and not is_server_failure(failure):
            raise failure
        if failure is not None:
            raise OutageError(f"{dropped} item(s) failed for the model server and were not recorded (after "
                              f"{self.config.retries} retries: {_reason(failure)}); {self._kept()}; "
                              f"{self.resume_hint()}") from failure

    def _launch(self, unit: tuple[str, Item], finished: queue.SimpleQueue, halt: threading.Event) -> None:
        """Run one unit in a daemon thread, tried again while the server fails it (until ``halt``): a model
        call given up on at a stop must not hold the exit."""
        def work() -> None:
            try:
                outcome: Record | BaseException = with_retries(lambda: self._run_unit(*unit), self.config.retries,
                                                               self.config.retry_wait, halt)
            except Exception as err:  # noqa: BLE001 - only server failures (and RetryAbandoned) come through
                outcome = err
            finished.put((record_key(*unit), outcome))

        threading.Thread(target=work, name=f"evaluate {record_key(*unit)}", daemon=True).start()

    def _kept(self) -> str:
        return f"{len(self.store)} of {len(self.units)} records kept in {self.config.out / ITEMS_FILE}"

    def resume_hint(self) -> str:
        if self.resume_command:
            return f"resume with: {self.resume_command}"
        return f"run the same command again (same --out {self.config.out}) to resume"

    def _say_how_to_resume(self, why: str, abandoned: int) -> None:
        dropped = f"; {abandoned} unfinished item(s) dropped, to run again" if abandoned else ""
        print(f"intercpt: {why}: {self._kept()}{dropped}\nintercpt: {self.resume_hint()}", file=sys.stderr,
              flush=True)

    def _save_run_info(self) -> None:
        replace_file(self.config.out / RUN_FILE, (json.dumps(self.run_info, indent=2) + "\n").encode("utf-8"))

    def _ensure_models(self) -> None:
        if self._assistant is None:
            config = self.config
            model = self._load_model(self._translator)
            self._assistant = Assistant.for_model(model, self._translator, config.chain)
            if "intercpt" in config.methods and self._user_spec is not None:
                self._user_assistant = self._assistant if config.user == config.translator else \
                    Assistant.for_model(self._load_model(self._user_spec), self._user_spec, config.chain)

    def _user_for(self, item: Item) -> User:
        """The oracle, nobody, or a simulated user reading the item's context; nobody where the item
        has nothing to answer from (no gold label for the oracle, no context for the simulated user)."""
        kind = self.config.user if self.config.user in (NO_USER, ORACLE) else "simulated"
        if (kind == ORACLE and not item.attributes) or (kind == "simulated" and not item.context.strip()):
            kind = NO_USER
        answerer = self._user_assistant if kind == "simulated" else self._assistant
        return answerer.user(kind, item.lang, context=item.context, gold=item.attributes, gold_about=item.ambiguity)

    def _answered_in_advance(self, item: Item) -> PreferenceMemory | None:
        """The ``--profile``'s answers for the item's language, a memory of the item's own (answers do not
        carry from one item to the next)."""
        if self._profile is None:
            return None
        return with_profile(PreferenceMemory(every_answer=True, answered_by="profile"), self._profile, item.lang)

    def _run_unit(self, method: str, item: Item) -> Record:
        """The item's record; whatever fails on the item's account (not the server's) is its recorded error,
        and a garbage reply is recorded as such (the report counts it, the next start runs it again)."""
        from .metrics import reads_alternatives, segment_scores

        user, transcript, error, garbage = None, None, None, False
        try:
            user = self._user_for(item) if method == "intercpt" else None
            transcript = self._assistant.run(item.src, item.lang, replace(self.config.chain, method=method),
                                             context=item.context or None, user=user,
                                             preferences=self._answered_in_advance(item) if user else None,
                                             glossary=self._glossaries.get(item.lang),
                                             alternatives=method == "intercpt" and reads_alternatives(item.ambiguity))
        except Exception as err:  # noqa: BLE001 - an item's failure is data; only the server's stops the run
            if is_server_failure(err):
                raise
            garbage = is_garbage_reply(err)
            error = f"the model server's reply is not a completion ({_reason(err)})" if garbage else _reason(err)
        record = Record(method, user.name if user else "-", item, transcript, error, garbage=garbage)
        try:
            record.scores = segment_scores(record)
        except Exception as err:  # noqa: BLE001 - same: one unscorable item must not stop the others
            record.error, record.scores = record.error or f"cannot be scored: {_reason(err)}", {}
        return record

    def records(self) -> list[Record]:
        """Finished records in unit order (the order of the data, then of the methods)."""
        keys = [record_key(m, i) for m, i in self.units]
        return [self.store.records[k] for k in keys if k in self.store]


def evaluate(config: EvalConfig, *, progress: bool = True, load_model: Callable[[ModelSpec], Any] = load_chat_model,
             resume_command: str | None = None) -> dict[str, Any]:
    """Run (or finish) the evaluation, then write items.jsonl, summary.json/.csv, report.md and plots.
    ``resume_command`` is the command line to show when the run stops before the end. Garbage
    replies fail the run (``BackendError``) once the report that counts them is written."""
    from .report import summarize, write_report

    with Evaluation(config, load_model, resume_command=resume_command) as evaluation:
        _warn_about_data(evaluation)
        evaluation.run(progress=progress)
        records = evaluation.records()
        if config.comet:
            from .metrics.comet import add_comet_scores

            if add_comet_scores(records, config.comet):
                evaluation.store.rewrite(records)
        loaded = evaluation.load_report
        notes = {"malformed": loaded.malformed, "gender_not_derived": loaded.gender_not_derived,
                 "duplicate_records": evaluation.store.duplicates,
                 "with_context_skipped": sum(1 for i in evaluation.items if not i.context.strip())
                 if "with-context" in config.methods else 0}
        summary = summarize(records, evaluation.run_info, notes, config)
        write_report(config.out, summary)
        garbage = summary["run"]["garbage_items"]
        if garbage:
            raise BackendError(f"{garbage} item(s) got a reply from the model server that is not a completion (e.g. "
                               f"an HTML page); {config.out / 'report.md'} counts them as failed and the next start "
                               f"runs them again; {evaluation.resume_hint()}")
        return summary


def _units(items: list[Item], config: EvalConfig) -> list[tuple[str, Item]]:
    """Every (method, item) the run produces, one target language after another: every prompt starts
    with its language, so this keeps a backend's prefix cache warm. with-context needs a context, so
    it runs only on the items that have one, and a data set with none cannot be asked for it."""
    with_context = [i for i in items if i.context.strip()]
    if "with-context" in config.methods and not with_context:
        raise InputError(f"--methods with-context needs items with a context; none of the {len(items)} item(s) of "
                         f"{config.data} has one: leave it out (e.g. --methods intercpt,no-extra)")
    by_language = sorted(items, key=lambda item: item.lang)
    return [(method, item) for item in by_language for method in config.methods
            if method != "with-context" or item.context.strip()]


def _glossaries(path: str | None, items: list[Item]) -> dict[str, Glossary]:
    """The ``--glossary`` file read for each target language of the items (a TBX file may hold several),
    before any model loads: a glossary into another language than an item's fails the run here."""
    if path is None:
        return {}
    Glossary.load(path)  # the file itself is readable: what fails below is a language
    langs = sorted({item.lang for item in items})
    glossaries = {}
    for lang in langs:
        try:
            glossaries[lang] = Glossary.load(path, lang)
        except InputError as err:
            raise InputError(f"{err}; the items are in {', '.join(langs)}: keep to the glossary's language "
                             "with --langs") from None
    return glossaries


def _profile(path: str | None, items: list[Item]) -> Profile | None:
    """The ``--profile`` file, read and checked as ``translate --profile`` reads one (size, UTF-8, sections,
    bounds) before any model loads; a register for none of the items' languages fails the run here."""
    if path is None:
        return None
    profile = load_profile(path)
    registers, langs = profile.answers[PER_LANGUAGE], sorted({item.lang for item in items})
    if registers and not registers.keys() & set(langs):
        raise InputError(f"{path}: its register is for {', '.join(sorted(registers))}; the items are in "
                         f"{', '.join(langs)}: keep to the profile's languages with --langs")
    return profile


def _reason(err: BaseException) -> str:
    """An item's error as one line: our own errors speak for themselves, others name their type."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return text if isinstance(err, IntercptError) else f"{type(err).__name__}: {text}".rstrip(": ")


def _warn_about_data(evaluation: Evaluation) -> None:
    """Say on stderr what the run leaves out, before it starts (the report repeats it)."""
    for problems, what in ((evaluation.load_report.malformed, "unreadable data row(s) skipped"),
                           (evaluation.store.duplicates, "duplicate record(s) dropped, the first of each kept")):
        if problems:
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            print(f"intercpt: warning: {len(problems)} {what}: {'; '.join(problems[:3])}{more}", file=sys.stderr)
