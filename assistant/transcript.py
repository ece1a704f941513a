"""The transcript of one chain run: the single record shared by the CLI, the UI and the evaluator."""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

from .errors import DataError
from .usage import StepUsage

# 2: glossary terms; 3: people settled without a question; 4: model calls and tokens per step, and
# whether alternatives were asked for; 5: what each check read (``about``, ``words``, ``features``, ``doubt``);
# 6: where each question's word starts in the source; 7: ``answered_by`` only from ``ANSWERERS`` (the page
# wrote "your setting" and "the card you picked", read now as ``setting`` and ``picked``)
SCHEMA_VERSION = 7
UNTIMED_STEP = "other"  # where a model call made outside every timed step is counted
ANSWERERS = ("human", "simulated", "oracle", "preference", "setting", "profile", "picked", "assumed", "none")
IN_ADVANCE = ("preference", "profile")  # answers a memory held before the text: applied without asking
_ANSWERERS_BEFORE_7 = {"your setting": "setting", "the card you picked": "picked"}


@dataclass
class Turn:
    """One clarification: what was ambiguous, the question, and the answer (None = skipped).

    ``answered_by`` is one of ``ANSWERERS``: ``human``, ``simulated``, ``oracle``, ``preference`` (a
    lasting preference stated earlier in a session), ``setting`` (a preference of the page's settings,
    stated before the text), ``profile`` (a project profile's saved answer, on a document's question
    sheet), ``picked`` (the person picked the card of an alternative, which assumed
    this answer), ``assumed`` (an alternative's assumption) or ``none``.
    ``start``: where the pre-pass found ``span`` in the source, so that a page marks that word and not
    an earlier one spelled the same (the "you" of "Thank you"); None where no pre-pass found it.
    """

    ambiguity: str
    span: str
    question: str
    options: list[str] = field(default_factory=list)
    answer: str | None = None
    answered_by: str = "none"
    start: int | None = None

    def __post_init__(self) -> None:
        if self.answered_by not in ANSWERERS:
            raise DataError(f"a question answered by {self.answered_by!r}: expected one of {', '.join(ANSWERERS)}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Turn":
        """A turn as any schema version wrote it (before 7 the page wrote who answered as it displays it)."""
        answered_by = data.get("answered_by", "none")
        return cls(**{**data, "answered_by": _ANSWERERS_BEFORE_7.get(answered_by, answered_by)})


@dataclass
class Settled:
    """What was not asked because the text settles it: ``by`` is ``text`` (the parse found what
    settles it, e.g. a person's gender by a pronoun, a title or a gendered noun; ``evidence`` says
    which) or ``model`` (the decide call read the text as settling it, or as not mattering for the
    translation); ``family`` is the ambiguity family (``gender``, ``formality``); ``value`` is the
    settled label where the parse knows it (``feminine``)."""

    family: str
    span: str
    value: str | None
    by: str
    evidence: str


@dataclass
class Check:
    """Verification of the translation against an answer: status is pass, fail or unchecked.

    What the checker read, for a translator to audit: ``about``, the words asked about ("the
    lawyer"); ``words``, the words of the translation read, as they stand in it ("l'avocate");
    ``features``, what each was read as ("avocate: Gender=Fem"); ``doubt``, why what was read may
    not say it (its words disagree, they may be another person's, the same words were read two
    ways), which makes the check unchecked whatever label was read.
    """

    name: str
    expected: str
    observed: str | None
    status: str
    attempts: int = 1
    about: str | None = None
    words: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)
    doubt: str | None = None


@dataclass
class Alternative:
    """A translation under an assumed answer, offered when a question went unanswered."""

    assumption: str
    translation: str
    checks: list[Check] = field(default_factory=list)


@dataclass
class Term:
    """A glossary entry found in the source: the translation must render ``source`` as ``target``."""

    source: str
    target: str


@dataclass
class BoundedContext:
    """What a model reads of a long context (``assistant.context``): the kept text, the
    0-based indices of the context sentences it comes from (in document order), its size in
    tokens before and after bounding, the strategy, and, for ``extract+abstract``, a short
    summary of the kept text for a person to read."""

    text: str
    indices: list[int]
    tokens_in: int
    tokens_out: int
    strategy: str
    summary: str | None = None


@dataclass
class Transcript:
    """What was asked, who answered, what came out, and how long each step took.

    ``alternatives`` are the translations under each option of a skipped question, computed only
    where someone asked for them (``alternatives_requested``); ``terms`` are the glossary entries
    found in the source;
    ``timings`` maps a step name to seconds; ``usage`` maps it to the model calls and tokens it
    spent (the chain's own model; a simulated user's model calls are not counted: they stand
    for a person, who costs no model time); ``context`` is what the caller supplied
    (the translator only sees it with the with-context method); ``bounded_context`` is the
    part of it that a model reads (the with-context translator, the simulated user).
    """

    source: str
    target_lang: str
    method: str
    model: str
    context: str | None = None
    turns: list[Turn] = field(default_factory=list)
    translation: str | None = None
    alternatives: list[Alternative] = field(default_factory=list)
    alternatives_requested: bool = False
    checks: list[Check] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    usage: dict[str, StepUsage] = field(default_factory=dict)
    bounded_context: BoundedContext | None = None
    terms: list[Term] = field(default_factory=list)
    settled: list[Settled] = field(default_factory=list)
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        self._open_steps: list[str] = []  # not a field: which step a model call now belongs to

    @contextmanager
    def timed(self, step: str) -> Iterator[None]:
        """Add the wall time of the ``with`` body to ``timings[step]``; model calls made meanwhile
        count in ``usage[step]``."""
        start = time.perf_counter()
        self._open_steps.append(step)
        try:
            yield
        finally:
            self._open_steps.remove(step)
            elapsed = time.perf_counter() - start
            self.timings[step] = round(self.timings.get(step, 0.0) + elapsed, 4)

    def open_step_usage(self) -> StepUsage:
        """The usage of the step open now (the innermost), where a model call starting now counts."""
        return self.usage.setdefault(self._open_steps[-1] if self._open_steps else UNTIMED_STEP, StepUsage())

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Transcript":
        """The transcript ``to_dict`` wrote (this version or an older one); a record of a newer schema
        version is refused, not misread."""
        version = data.get("schema_version")
        if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
            raise DataError(f"a transcript of schema version {version!r} cannot be read by this version of intercpt "
                            f"(it reads version {SCHEMA_VERSION})")
        data = dict(data)
        data["turns"] = [Turn.from_dict(t) for t in data.get("turns", [])]
        data["alternatives"] = [
            Alternative(a["assumption"], a["translation"], [Check(**c) for c in a.get("checks", [])])
            for a in data.get("alternatives", [])
        ]
        data["checks"] = [Check(**c) for c in data.get("checks", [])]
        data["terms"] = [Term(**t) for t in data.get("terms", [])]
        data["settled"] = [Settled(**s) for s in data.get("settled", [])]
        data["usage"] = {step: StepUsage(**counts) for step, counts in data.get("usage", {}).items()}
        data["schema_version"] = SCHEMA_VERSION
        if data.get("bounded_context"):
            data["bounded_context"] = BoundedContext(**data["bounded_context"])
        return cls(**data)
