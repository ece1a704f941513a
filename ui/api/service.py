"""What every API shares: the translation of texts, dialogues and files through the chain, within a
request's bounds, at the model's queue (``gate``) and billed to the request's key (``auth``).

A request has no person to ask, so a question is answered in advance (DeepL's ``formality``
becomes the remembered answer to the formality question, which is then never asked), by a
simulated user reading the request's ``context`` when there is one, or left unanswered:
the chain then takes its best guess, and translates under each option only for a request that
asks for alternatives (LibreTranslate's ``alternatives``, the clarify API's).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Iterator

from assistant.ambiguity import REGISTER, preset_types
from assistant.chain import Assistant, ChainOptions, PreferenceMemory, User
from assistant.errors import InputError
from assistant.glossary import Glossary
from assistant.profile import Profile
from assistant.sheet import with_profile
from assistant.transcript import Transcript, Turn

from . import ApiError
from .auth import Account, KeyRing
from ..file_store import FileStore
from .gate import Gate

# DeepL's formality values and the answer each gives to the formality question in advance.
FORMALITY_ANSWERS = {"default": None, "more": "formal", "prefer_more": "formal", "less": "informal",
                     "prefer_less": "informal"}
MAX_FILE_CHARS = 200_000


@dataclass(frozen=True)
class Limits:
    """The bounds of one request (the server's options set them)."""

    max_texts: int = 50
    max_text_chars: int = 5000
    max_questions: int = 3
    max_file_bytes: int = 10 * 1024 * 1024
    queue_size: int = 16


def given_answers(formality: str | None, target_lang: str, profile: Profile | None = None) -> PreferenceMemory:
    """A memory holding the answers a request gives in advance, its formality and then a stored profile's
    (every later answer is kept too)."""
    memory = PreferenceMemory(every_answer=True)
    answer = FORMALITY_ANSWERS.get(formality or "default")
    for ambiguity_type in preset_types(REGISTER) if answer else ():
        question = ambiguity_type.fixed_question("you", target_lang) or ambiguity_type.label
        memory.remember(Turn(ambiguity_type.name, "you", question, list(ambiguity_type.options(target_lang))), answer)
    return with_profile(memory, profile, target_lang) if profile is not None else memory


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
    """Translates the APIs' requests on one ``Assistant``: checks their bounds, waits for the model at
    the ``gate``, bills the characters to the key once a request succeeds, and stores translated files
    in ``files``."""

    def __init__(self, assistant: Assistant, keys: KeyRing, limits: Limits, files: FileStore, *,
                 concurrency: int = 1):
        self.assistant = assistant
        self.keys = keys
        self.limits = limits
        self.files = files
        self.gate = Gate(concurrency, limits.queue_size)

    # --- requests -------------------------------------------------------------------------------------

    @contextmanager
    def at_the_model(self, account: Account, characters: int) -> Iterator[None]:
        """A place at the model for the ``with`` block, its ``characters`` billed to ``account`` (given back
        when it fails)."""
        with self.gate.enter(), self.keys.billed(account, characters):
            yield

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

    def chain_options(self, max_questions: int | None = None, inclusive: bool | None = None) -> ChainOptions:
        """The chain's options for a request: the server's, asking at most the server's bound of questions,
        or fewer if the request says so, and about anyone of a kind where it asks for inclusive forms (the
        server's choice where it does not say)."""
        if max_questions is None:
            max_questions = self.limits.max_questions
        elif not 0 <= max_questions <= self.limits.max_questions:
            raise ApiError(400, f"max_questions must be between 0 and {self.limits.max_questions}")
        options = replace(self.assistant.options, max_questions=max_questions)
        return options if inclusive is None else replace(options, inclusive=inclusive)

    def user_for(self, context: str | None, target_lang: str) -> User:
        """Who answers what a request leaves open: a simulated user reading its context, else nobody."""
        if not context or not context.strip():
            return self.assistant.user("none", target_lang)
        return self.assistant.user("simulated", target_lang, context=context)

    def translate(self, account: Account, texts: list[str], target_lang: str, *, formality: str | None = None,
                  context: str | None = None, glossary: Glossary | None = None,
                  max_questions: int | None = None, alternatives: bool = False,
                  profile: Profile | None = None) -> list[Transcript]:
        """One transcript per text; the texts share one memory of answers (one question per batch);
        ``alternatives``: each text under the options of a question left open, too; ``profile``: a project's
        saved answers, applied without asking (a request's formality wins over its register)."""
        self.check_texts(texts)
        self.check_length("the context", context)
        options = self.chain_options(max_questions)
        memory = given_answers(formality, target_lang, profile)
        user = self.user_for(context, target_lang)
        with self.at_the_model(account, sum(billable(text, context) for text in texts)):
            try:
                return [self.assistant.run(text, target_lang, options, context=context, user=user,
                                           preferences=memory, glossary=glossary, alternatives=alternatives)
                        for text in texts]
            except InputError as err:
                raise ApiError(400, str(err)) from None

    def start(self, account: Account, text: str, target_lang: str, *, formality: str | None = None,
              context: str | None = None, glossary: Glossary | None = None, max_questions: int | None = None,
              alternatives: bool = False, inclusive: bool | None = None):
        """A dialogue for ``/v1/clarify``, driven to its first question (or to the end when none is left);
        ``alternatives``: at the end, the translation under the options of a skipped question, too."""
        self.check_texts([text])
        self.check_length("the context", context)
        options = self.chain_options(max_questions, inclusive)
        with self.at_the_model(account, billable(text, context)):
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
        with self.at_the_model(account, characters):
            for answer in answers:
                dialogue.answer(answer, "human")
            for _ in dialogue.drive(None):
                pass

    # --- files ----------------------------------------------------------------------------------------

    def translate_file(self, account: Account, path: Path, target_lang: str, *, formality: str | None = None,
                       context: str | None = None, glossary: Glossary | None = None,
                       profile: Profile | None = None) -> tuple[Path, dict[str, Any]]:
        """Translate a stored upload into a file of the same structure, ``profile``'s answers applied without
        asking; its path and a short record."""
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
        out = self.files.new_path(path.name)
        transcripts: list[Transcript] = []
        with self.at_the_model(account, characters + len(context or "")):
            try:
                report = translate_document(
                    document, out, translator.segment_translator(self.user_for(context, target_lang), transcripts,
                                                                 given_answers(formality, target_lang, profile)),
                    target_lang=target_lang, progress=False)
            except InputError as err:
                raise ApiError(400, str(err)) from None
        asked = [asdict(turn) for t in transcripts for turn in t.turns if turn.answered_by != "preference"]
        failed = [unit.id for unit in report.failed]
        return out, {"questions": asked, "placeholders_failed": failed, "units": len(document.units)}
