"""What every API shares: one model behind a bounded queue, request bounds, answers given in advance,
glossaries per key, and the translation of texts and files through the chain.

A request has no person to ask, so a question is answered in advance (DeepL's ``formality``
becomes the remembered answer to the formality question, which is then never asked), by a
simulated user reading the request's ``context`` when there is one, or left unanswered:
the chain then takes its best guess, and translates under each option only for a request that
asks for alternatives (LibreTranslate's ``alternatives``, the clarify API's).
"""

from __future__ import annotations

import tempfile
import threading
import uuid
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from assistant import deadlines
from assistant.ambiguity import REGISTER, preset_types
from assistant.chain import Assistant, ChainOptions, PreferenceMemory, User
from assistant.errors import InputError, IntercptError
from assistant.glossary import (MAX_GLOSSARY_BYTES, MAX_GLOSSARY_ENTRIES, Glossary, GlossaryTooLarge,
                               check_glossary_bytes)
from assistant.transcript import Transcript, Turn

from . import ApiError
from .auth import Account, KeyRing

# DeepL's formality values and the answer each gives to the formality question in advance.
FORMALITY_ANSWERS = {"default": None, "more": "formal", "prefer_more": "formal", "less": "informal",
                     "prefer_less": "informal"}
MAX_GLOSSARIES_PER_KEY = 100
# What one key's glossaries may hold together: two glossaries of the largest size (each costs memory for its matcher).
MAX_GLOSSARY_ENTRIES_PER_KEY = 2 * MAX_GLOSSARY_ENTRIES
MAX_GLOSSARY_BYTES_PER_KEY = 2 * MAX_GLOSSARY_BYTES
MAX_FILE_CHARS = 200_000
KEPT_FILES = 100
TURN_CHECK_S = 0.25  # how often a request waiting for the model looks at its deadline and its client
GLOSSARY_RETRY_S = 10  # Retry-After for a glossary refused while another is being built


@dataclass(frozen=True)
class Limits:
    """The bounds of one request (the server's options set them)."""

    max_texts: int = 50
    max_text_chars: int = 5000
    max_questions: int = 3
    max_file_bytes: int = 10 * 1024 * 1024
    queue_size: int = 16


class Gate:
    """At most ``concurrency`` requests use the model at once and ``queue_size`` more wait; the next
    one is told at once that the server is busy (429), instead of waiting without end. A request
    waits no longer than its deadline, and one whose client has left never starts."""

    def __init__(self, concurrency: int, queue_size: int):
        self._running = threading.BoundedSemaphore(concurrency)
        self._admitted = threading.BoundedSemaphore(concurrency + queue_size)

    @contextmanager
    def enter(self) -> Iterator[None]:
        if not self._admitted.acquire(blocking=False):
            raise ApiError(429, "busy, try again in a moment: every place in the queue is taken",
                           {"Retry-After": "5"})
        try:
            self._wait_for_turn()
            try:
                yield
            finally:
                self._running.release()
        finally:
            self._admitted.release()

    def _wait_for_turn(self) -> None:
        """Take a place at the model; raise (holding none) once the request's deadline passes or its client leaves."""
        deadline = deadlines.current()
        if deadline is None:
            self._running.acquire()
            return
        while not self._running.acquire(timeout=TURN_CHECK_S):
            deadline.check()
        try:
            deadline.check()
        except IntercptError:
            self._running.release()
            raise


@dataclass
class StoredGlossary:
    """A glossary created through the API: DeepL's description of it, and the parsed entries."""

    glossary_id: str
    name: str
    source_lang: str
    target_lang: str
    creation_time: str
    glossary: Glossary
    size_bytes: int

    def info(self) -> dict[str, Any]:
        return {"glossary_id": self.glossary_id, "name": self.name, "ready": True, "source_lang": self.source_lang,
                "target_lang": self.target_lang, "creation_time": self.creation_time,
                "entry_count": len(self.glossary.entries)}

    def tsv(self) -> str:
        return "".join(f"{entry.source}\t{entry.target}\n" for entry in self.glossary.entries)


def given_answers(formality: str | None, target_lang: str) -> PreferenceMemory:
    """A memory holding the answers a request gives in advance (every later answer is kept too)."""
    memory = PreferenceMemory(every_answer=True)
    answer = FORMALITY_ANSWERS.get(formality or "default")
    for kind in preset_types(REGISTER) if answer else ():
        memory.remember(Turn(kind.name, "you", kind.fixed_question("you", target_lang) or kind.label,
                             list(kind.options(target_lang))), answer)
    return memory


def billable(text: str, context: str | None) -> int:
    """The characters a text is billed: its own and those of the context that comes with it, which the
    models read for it (the simulated user for each question, the with-context translator)."""
    return len(text) + len(context or "")


def extension(transcript: Transcript) -> dict[str, Any]:
    """What a translation adds to the API's answer: the questions that could have been asked (with
    the answer used, if any), the alternatives under the options of a skipped one, and the checks."""
    return {"questions": [asdict(turn) for turn in transcript.turns],
            "alternatives": [{"assumption": a.assumption, "text": a.translation} for a in transcript.alternatives],
            "checks": [asdict(check) for check in transcript.checks]}


class TranslationService:
    """The model and everything the APIs share about using it."""

    def __init__(self, assistant: Assistant, keys: KeyRing, limits: Limits, *, concurrency: int = 1):
        self.assistant = assistant
        self.keys = keys
        self.limits = limits
        self.gate = Gate(concurrency, limits.queue_size)
        self._glossaries: dict[str | None, OrderedDict[str, StoredGlossary]] = {}
        self._files = tempfile.TemporaryDirectory(prefix="intercpt-files-")
        self._kept: list[Path] = []
        self._lock = threading.Lock()
        self._glossary_build = threading.Lock()  # one glossary's matcher is built at a time: it costs CPU

    # --- requests -------------------------------------------------------------------------------------

    def check_texts(self, texts: list[str]) -> None:
        """400 without texts or with too many; 413 for a text longer than one request takes."""
        if not texts:
            raise ApiError(400, "nothing to translate: give at least one text")
        if len(texts) > self.limits.max_texts:
            raise ApiError(400, f"too many texts: at most {self.limits.max_texts} in one request")
        for number, text in enumerate(texts, 1):
            if not isinstance(text, str):
                raise ApiError(400, f"text {number} is not a string")
            if len(text) > self.limits.max_text_chars:
                raise ApiError(413, f"text {number} has {len(text)} characters; one text takes at most "
                               f"{self.limits.max_text_chars}")

    def check_length(self, what: str, value: str | None) -> None:
        """413 for a context or an answer longer than a text may be (``--max-text-chars``)."""
        if value is not None and len(value) > self.limits.max_text_chars:
            raise ApiError(413, f"{what} has {len(value)} characters; it takes at most {self.limits.max_text_chars}")

    def chain_options(self, max_questions: int | None = None) -> ChainOptions:
        """The chain's options for a request: the server's, asking at most the server's bound of questions,
        or fewer if the request says so."""
        if max_questions is None:
            max_questions = self.limits.max_questions
        elif not 0 <= max_questions <= self.limits.max_questions:
            raise ApiError(400, f"max_questions must be between 0 and {self.limits.max_questions}")
        return replace(self.assistant.options, max_questions=max_questions)

    def user_for(self, context: str | None, target_lang: str) -> User:
        """Who answers what a request leaves open: a simulated user reading its context, else nobody."""
        if not context or not context.strip():
            return self.assistant.user("none", target_lang)
        return self.assistant.user("simulated", target_lang, context=context)

    def translate(self, account: Account, texts: list[str], target_lang: str, *, formality: str | None = None,
                  context: str | None = None, glossary: Glossary | None = None,
                  max_questions: int | None = None, alternatives: bool = False) -> list[Transcript]:
        """One transcript per text; the texts share one memory of answers (one question per batch);
        ``alternatives``: each text under the options of a question left open, too."""
        self.check_texts(texts)
        self.check_length("the context", context)
        options = self.chain_options(max_questions)
        memory = given_answers(formality, target_lang)
        user = self.user_for(context, target_lang)
        with self.gate.enter(), self.keys.billed(account, sum(billable(text, context) for text in texts)):
            try:
                return [self.assistant.run(text, target_lang, options, context=context, user=user,
                                           preferences=memory, glossary=glossary, alternatives=alternatives)
                        for text in texts]
            except InputError as err:
                raise ApiError(400, str(err)) from None

    def start(self, account: Account, text: str, target_lang: str, *, formality: str | None = None,
              context: str | None = None, glossary: Glossary | None = None, max_questions: int | None = None,
              alternatives: bool = False):
        """A dialogue for ``/v1/clarify``, driven to its first question (or to the end when none is left);
        ``alternatives``: at the end, the translation under the options of a skipped question, too."""
        self.check_texts([text])
        self.check_length("the context", context)
        options = self.chain_options(max_questions)
        with self.gate.enter(), self.keys.billed(account, billable(text, context)):
            try:
                dialogue = self.assistant.start(text, target_lang, options, context=context,
                                                preferences=given_answers(formality, target_lang),
                                                glossary=glossary, alternatives=alternatives)
                for _ in dialogue.drive(None):
                    pass
            except InputError as err:
                raise ApiError(400, str(err)) from None
        return dialogue

    def go_on(self, account: Account, dialogue, answers: list[str | None], characters: int) -> None:
        """Give ``answers`` (a person's) to the pending question and drive on to the next question or to the
        end; ``characters`` (the answers the models read) are billed when that succeeds."""
        with self.gate.enter(), self.keys.billed(account, characters):
            for answer in answers:
                dialogue.answer(answer, "human")
            for _ in dialogue.drive(None):
                pass

    # --- files ----------------------------------------------------------------------------------------

    def translate_file(self, account: Account, path: Path, target_lang: str, *, formality: str | None = None,
                       context: str | None = None, glossary: Glossary | None = None) -> tuple[Path, dict[str, Any]]:
        """Translate a stored upload into a file of the same structure; its path and a short record."""
        from assistant.document import DocumentTranslator
        from assistant.formats import read_document, translate_document

        self.check_length("the context", context)
        try:
            document = read_document(path)
        except InputError as err:
            raise ApiError(400, str(err).replace(str(path.parent) + "/", "")) from None
        characters = sum(len(segment) for unit in document.units for segment in unit.segments)
        if not document.units:
            raise ApiError(400, "nothing to translate: every unit is empty or already translated")
        if characters > MAX_FILE_CHARS:
            raise ApiError(413, f"the file has {characters} characters to translate; one file takes at most "
                           f"{MAX_FILE_CHARS}")
        translator = DocumentTranslator(self.assistant, target_lang, self.chain_options(), background=context,
                                        glossary=glossary)
        out = self.new_file_path(path.name)
        transcripts: list[Transcript] = []
        with self.gate.enter(), self.keys.billed(account, characters + len(context or "")):
            try:
                report = translate_document(
                    document, out, translator.segment_translator(self.user_for(context, target_lang), transcripts,
                                                                 given_answers(formality, target_lang)),
                    target_lang=target_lang, progress=False)
            except InputError as err:
                raise ApiError(400, str(err)) from None
        asked = [asdict(turn) for t in transcripts for turn in t.turns if turn.answered_by != "preference"]
        failed = [unit.id for unit in report.failed]
        return out, {"questions": asked, "placeholders_failed": failed, "units": len(document.units)}

    def new_file_path(self, name: str) -> Path:
        """A fresh path in the server's file store; the oldest files go once more than ``KEPT_FILES`` are kept."""
        folder = Path(self._files.name) / uuid.uuid4().hex
        folder.mkdir()
        with self._lock:
            self._kept.append(folder)
            while len(self._kept) > KEPT_FILES:
                old = self._kept.pop(0)
                for child in old.iterdir():
                    child.unlink()
                old.rmdir()
        return folder / Path(name).name

    def stored_file(self, token: str, name: str) -> Path:
        path = Path(self._files.name) / token / name
        if not (token.isalnum() and path.parent.parent == Path(self._files.name) and path.is_file()):
            raise ApiError(404, "no such file (files are kept for the last 100 translations)")
        return path

    # --- glossaries -----------------------------------------------------------------------------------

    def create_glossary(self, account: Account, name: str, source_lang: str, target_lang: str, entries: str,
                        entries_format: str) -> StoredGlossary:
        """Parse ``entries`` (DeepL's TSV or CSV) with the glossary reader the CLI uses, and build its matcher
        now, once: 413 for a glossary over the bounds of one, 456 when the key's glossaries would hold too much,
        429 while another glossary is being built (a large one takes a core for a minute)."""
        if entries_format not in ("tsv", "csv"):
            raise ApiError(400, f"entries_format must be tsv or csv, not {entries_format!r}")
        if source_lang.lower() != "en":
            raise ApiError(400, "glossaries translate from English (source_lang EN)")
        size = len(entries.encode("utf-8"))
        try:
            check_glossary_bytes(size, "entries")
        except GlossaryTooLarge as err:
            raise ApiError(413, str(err)) from None
        if not self._glossary_build.acquire(blocking=False):
            raise ApiError(429, "busy building another glossary, try again in a moment",
                           {"Retry-After": str(GLOSSARY_RETRY_S)})
        try:
            glossary = parse_entries(entries, entries_format, target_lang.lower())
            stored = StoredGlossary(uuid.uuid4().hex, name, "en", target_lang.lower(),
                                    datetime.now(timezone.utc).isoformat(timespec="milliseconds"), glossary, size)
            with self._lock:
                self._check_room(account, stored)
            glossary.prepare()  # stops at the request's deadline, or once its client has left
        finally:
            self._glossary_build.release()
        with self._lock:
            self._check_room(account, stored)  # another request of this key may have taken the room meanwhile
            self._glossaries.setdefault(account.key, OrderedDict())[stored.glossary_id] = stored
        return stored

    def _check_room(self, account: Account, new: StoredGlossary) -> None:
        """456 when the key's glossaries and ``new`` together are more than a key may keep."""
        mine = list(self._glossaries.get(account.key, {}).values())
        if len(mine) >= MAX_GLOSSARIES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: at most {MAX_GLOSSARIES_PER_KEY} a key; delete one")
        entries = sum(len(g.glossary.entries) for g in mine) + len(new.glossary.entries)
        if entries > MAX_GLOSSARY_ENTRIES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: this key's glossaries would hold {entries} entries, at most "
                           f"{MAX_GLOSSARY_ENTRIES_PER_KEY}; delete one")
        size = sum(g.size_bytes for g in mine) + new.size_bytes
        if size > MAX_GLOSSARY_BYTES_PER_KEY:
            raise ApiError(456, f"glossary limit reached: this key's glossaries would hold {size} bytes, at most "
                           f"{MAX_GLOSSARY_BYTES_PER_KEY}; delete one")

    def glossaries(self, account: Account) -> list[StoredGlossary]:
        return list(self._glossaries.get(account.key, {}).values())

    def glossary(self, account: Account, glossary_id: str) -> StoredGlossary:
        found = self._glossaries.get(account.key, {}).get(glossary_id)
        if found is None:
            raise ApiError(404, f"no glossary {glossary_id!r}")
        return found

    def delete_glossary(self, account: Account, glossary_id: str) -> None:
        self.glossary(account, glossary_id)
        with self._lock:
            del self._glossaries[account.key][glossary_id]


def parse_entries(entries: str, entries_format: str, target_lang: str) -> Glossary:
    """DeepL's glossary entries through ``Glossary.load`` (the one reader of CSV and TSV glossaries)."""
    with tempfile.TemporaryDirectory(prefix="intercpt-glossary-") as folder:
        path = Path(folder) / f"entries.{entries_format}"
        path.write_text(entries, encoding="utf-8")
        try:
            return Glossary.load(path, target_lang)
        except InputError as err:
            status = 413 if isinstance(err, GlossaryTooLarge) else 400
            raise ApiError(status, str(err).replace(str(path), "entries")) from None
