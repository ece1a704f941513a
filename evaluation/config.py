"""The evaluator's run configuration, the one source of its command-line options.

Each field's metadata says how its option reads (``help``, ``metavar``, ``choices``, ``min``;
a ``tuple`` field takes a comma-separated list; ``sweep``: the option may be repeated, one run
per value) and whether it defines the run (``identity``: a restarted run must share it). The
chain's own options are nested as ``ChainOptions``, not listed again; ``exclude`` names the
nested fields the evaluator does not take (it runs several ``methods``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from assistant.backends import default_model_spec
from assistant.options import METHODS, ChainOptions
from assistant.errors import InputError

DEFAULT_LANGS = ("fr", "de", "es")
ORACLE, NO_USER = "oracle", "none"


@dataclass(frozen=True)
class EvalConfig:
    """Everything that decides which records a run produces (``identity``), plus how it runs."""

    out: Path = field(metadata={"help": "run directory (resumable)", "metavar": "DIR", "identity": False})
    data: str = field(default="ambigmt", metadata={
        "help": "'ambigmt' (downloaded and verified once, or $INTERCPT_AMBIGMT_DIR), ambigmt:DIR, cocoa-mt:DIR, "
                "gate:DIR, a folder with the AmbigMT files, or a JSONL file",
        "metavar": "PATH|ambigmt", "identity": True})
    types: tuple[str, ...] | None = field(default=None, metadata={
        "help": "ambiguity types to keep (default: all the data has)", "metavar": "T1,T2", "identity": True})
    langs: tuple[str, ...] | None = field(default=DEFAULT_LANGS, metadata={
        "help": "target languages", "metavar": "L1,L2", "identity": True})
    methods: tuple[str, ...] = field(default=METHODS, metadata={
        "help": f"any of {', '.join(METHODS)}", "metavar": "M1,M2", "choices": METHODS, "identity": True})
    translator: str = field(default_factory=default_model_spec, metadata={
        "help": "translator model spec (default: $INTERCPT_MODEL or the default model)", "metavar": "SPEC",
        "sweep": True, "identity": True})
    user: str = field(default=ORACLE, metadata={
        "help": f"who answers intercpt's questions: {ORACLE} (gold labels), {NO_USER}, or a model spec for a "
                "simulated user that reads the context", "metavar": "SPEC|oracle|none", "sweep": True,
        "identity": True})
    limit: int | None = field(default=None, metadata={
        "help": "at most N items per type × language, a seeded sample (default: all)", "metavar": "N", "min": 1,
        "identity": True})
    seed: int = field(default=0, metadata={"help": "sampling and bootstrap seed", "identity": True})
    glossary: str | None = field(default=None, metadata={
        "help": "term translations every item keeps (given to the translator and checked, as translate --glossary "
                "does): a CSV or TSV file (source,target per line) or TBX", "metavar": "FILE", "identity": True})
    profile: str | None = field(default=None, metadata={
        "help": "a project profile (YAML, as translate --profile reads it): its register, people and senses answer "
                "intercpt's questions before the user is asked, recorded as answered by \"profile\"",
        "metavar": "FILE", "identity": True})
    chain: ChainOptions = field(default_factory=ChainOptions, metadata={"identity": True, "exclude": ("method",)})
    concurrency: int = field(default=1, metadata={
        "help": "items in flight at once; a vLLM server batches them", "metavar": "K", "min": 1, "max": 256,
        "identity": False})
    retries: int = field(default=4, metadata={
        "help": "times an item is tried again after a model server error (HTTP 5xx or 429, a timeout, a dropped "
                "connection), after waits that grow exponentially with jitter; then the run stops, exits 1 and its "
                "next start runs the item again", "metavar": "N", "min": 0, "max": 20, "identity": False})
    retry_wait: float = field(default=30.0, metadata={
        "help": "longest wait in seconds before trying an item again (the first wait is up to 1 s, then up to twice "
                "as long each time)", "metavar": "S", "min": 0.0, "max": 600.0, "identity": False})
    bootstrap: int = field(default=1000, metadata={
        "help": "bootstrap resamples for confidence intervals and tests", "metavar": "B", "min": 1,
        "max": 100_000, "identity": False})
    comet: str | None = field(default=None, metadata={
        "help": "also score with COMET (a checkpoint path, or a hub name on a machine with network); runs in its "
                "own environment, created on first use", "metavar": "MODEL", "identity": False})

    def __post_init__(self) -> None:
        unknown = [m for m in self.methods if m not in METHODS]
        if unknown:
            raise InputError(f"unknown method(s) {', '.join(unknown)}; choose from: {', '.join(METHODS)}")

    def identity(self) -> dict[str, Any]:
        """The arguments a restarted run must share with the first start (the fields marked ``identity``;
        a nested options object contributes its own fields)."""
        found: dict[str, Any] = {}
        for spec in fields(self):
            if not spec.metadata.get("identity"):
                continue
            value = getattr(self, spec.name)
            if is_dataclass(value):
                excluded = spec.metadata.get("exclude", ())
                found.update({k: _plain(v) for k, v in asdict(value).items() if k not in excluded})
            else:
                found[spec.name] = _plain(value)
        return found


def _plain(value: Any) -> Any:
    """A JSON value as run.json stores it (tuples as lists)."""
    return list(value) if isinstance(value, tuple) else value
