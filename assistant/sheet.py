"""The question sheet: a document's open questions, gathered before anything is translated.

A file repeats its ambiguities: the same "you" in three hundred strings, the same person in forty. Asking in
reading order puts a question to the person every few minutes for as long as the file runs; reading every
segment first (the pre-pass, and the chain's decide call where a type has fixed options) and grouping the
questions by what one answer settles (the document's memory key: one register for the file, one gender
per person, one sense per word; "it" per text) lets the person answer each once, up front. The answers
then fill the document's memory, so the translation asks nothing again; a question left unanswered is
asked of nobody, and the model's guess is flagged as before.

A question asked afresh in each text that only one segment raises ("it" in one string of a catalogue) is
not put on the sheet: its answer would settle that one string, so the sheet would grow with the file, one
click per string. It is kept for review instead: the translation guesses, flags the guess in the unit's
notes, and a client or a profile may still answer it by id or by text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .ambiguity import FOR_SESSION, FOR_TEXT, ambiguity_types, get_type
from .detection import Candidate, Parsed, candidates_in, parse
from .dialogue import PreferenceMemory, open_questions
from .errors import InputError
from .profile import Profile, sections
from .steps import ModelSteps
from .transcript import Turn

MAX_EXAMPLES = 3
MAX_SEGMENTS = 20_000  # a file's segments are bounded by its size already; this bounds the work of one sheet
# What an answer holds for, by the type's ``remember``: the whole document, the word, or the one text.
SCOPES = {FOR_SESSION: "document", FOR_TEXT: "text"}
PER_WORD = "word"  # the scope of every other type: a person, a word's sense


@dataclass(frozen=True)
class Example:
    """A segment a question affects: its number (from 1), its text, and the character offsets of the words."""

    segment: int
    text: str
    words: tuple[tuple[int, int], ...]


@dataclass
class SheetQuestion:
    """One question for the whole document. ``key`` is what the answer is kept under: "" for the whole
    document (the register), the lower-cased words (a person, a word's sense) or, for a type asked
    afresh in every text ("it"), the segment's text; ``segments`` are the numbers (from 1) of the
    segments it affects; ``also``: the same person's questions in the other number ("some users" beside
    "a user"), answered by this one's answer, option by option."""

    id: str
    ambiguity: str
    span: str
    key: str
    question: str
    options: list[str]
    segments: list[int] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    answer: str | None = None
    answered_by: str | None = None
    also: list["SheetQuestion"] = field(default_factory=list)

    @property
    def scope(self) -> str:
        return SCOPES.get(get_type(self.ambiguity).remember, PER_WORD)

    def turn(self) -> Turn:
        """The question as the chain's turn, answered where it was answered."""
        return Turn(self.ambiguity, self.span, self.question, list(self.options), self.answer,
                    self.answered_by or "none")

    def followers(self) -> list[Turn]:
        """The questions of ``also`` as turns, answered with the option of this answer's place (a free
        answer as it is; none where their options have no such place)."""
        place = self.options.index(self.answer) if self.answer in self.options else None
        turns = []
        for other in self.also:
            answer = self.answer if place is None else (other.options[place] if place < len(other.options) else None)
            turns.append(replace(other.turn(), answer=answer, answered_by=self.answered_by or "none"))
        return turns

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.ambiguity, "words": self.span, "question": self.question,
                "options": self.options, "also_answers": [other.span for other in self.also],
                "answer_holds_for": self.scope, "segment_count": len(self.segments),
                "examples": [{**asdict(example), "words": [list(span) for span in example.words]}
                             for example in self.examples],
                "answer": self.answer, "answered_by": self.answered_by}


@dataclass
class Sheet:
    """The questions of a document in the order to ask them (the table's rank, then where first met), and
    those kept for review: questions about one string only, guessed and flagged unless answered by id."""

    target_lang: str
    segment_count: int
    questions: list[SheetQuestion] = field(default_factory=list)
    for_review: list[SheetQuestion] = field(default_factory=list)

    @property
    def every_question(self) -> list[SheetQuestion]:
        return self.questions + self.for_review

    def question(self, question_id: str) -> SheetQuestion:
        found = next((q for q in self.every_question if q.id == question_id), None)
        if found is None:
            raise InputError(f"no question {question_id[:40]!r} on this sheet; its questions are "
                             f"{', '.join(q.id for q in self.every_question) or 'none'}")
        return found

    def answer(self, question_id: str, reply: str | None, answered_by: str = "human") -> None:
        """Record a reply (None or blank: skipped, the model's guess is flagged)."""
        question = self.question(question_id)
        reply = reply.strip() if reply and reply.strip() else None
        question.answer, question.answered_by = reply, answered_by if reply else None

    def answer_all(self, replies: Mapping[str, str | None]) -> None:
        """Record a person's replies by question id; a profile's answer left as it was stays the profile's
        (it is not new to the project), one changed is the person's."""
        for question_id, reply in replies.items():
            question = self.question(question_id)
            kept = question.answered_by == "profile" and (reply or "").strip() == question.answer
            self.answer(question_id, reply, "profile" if kept else "human")

    def open_questions(self) -> list[SheetQuestion]:
        """The sheet's questions still to answer (not those kept for review)."""
        return [q for q in self.questions if q.answer is None]

    def question_for(self, candidate: Candidate, source: str) -> Turn | None:
        """The sheet's question about ``candidate`` in the segment ``source``, unanswered (the document's
        memory or the sheet's user answers it), or None where the sheet read the segment as settling it:
        the translation then spends no detection call on what the sheet already read."""
        key = _key(candidate, source)
        asked = self.every_question + [other for q in self.every_question for other in q.also]
        question = next((q for q in asked if (q.ambiguity, q.key) == key), None)
        return None if question is None else Turn(candidate.ambiguity, candidate.span, question.question,
                                                  list(question.options), start=candidate.start)

    def memory(self, profile: Profile | None = None) -> PreferenceMemory:
        """The document's memory with every answer that holds beyond its text, the sheet's and the profile's
        (a person the sheet did not list may still come up where the translation reads more context)."""
        memory = PreferenceMemory(every_answer=True)
        for question in self.questions:
            if question.answer and question.scope != SCOPES[FOR_TEXT]:
                for turn in (question.turn(), *question.followers()):
                    if turn.answer:
                        memory.remember(turn, turn.answer)
        return with_profile(memory, self.without_skipped(profile), self.target_lang) if profile else memory

    def user(self, profile: Profile | None = None) -> "SheetUser":
        """Who answers, in the translation, the questions asked afresh in every text: the sheet, then the profile."""
        known = {(family, text): answer for family, text, answer in _profile_texts(self.without_skipped(profile))} \
            if profile else {}
        return SheetUser(known | {(get_type(q.ambiguity).family, q.key): q.answer
                                  for q in self.every_question if q.answer and q.scope == SCOPES[FOR_TEXT]})

    def apply_profile(self, profile: Profile) -> None:
        """Answer the questions the profile already answers (answered by "profile"), those for review too."""
        for question in self.every_question:
            if question.answer is not None:
                continue
            known = profile.get(get_type(question.ambiguity).family, self._profile_key(question))
            if known:
                question.answer, question.answered_by = known, "profile"

    def without_skipped(self, profile: Profile) -> Profile:
        """``profile`` less its answers to the questions left open on this sheet: a person who skips a question
        the profile answered wants the model's flagged guess for this document, not the project's answer."""
        return profile.without((get_type(q.ambiguity).family, self._profile_key(q)) for q in self.every_question
                               if q.answer is None)

    def record_in(self, profile: Profile) -> int:
        """Add the sheet's new answers to ``profile``, those its questions give the same person in the other
        number too ("users: women" beside "user: a woman", for a call that reads the profile without a
        sheet); how many were added."""
        added = 0
        for question in self.every_question:
            if question.answer and question.answered_by != "profile":
                family = get_type(question.ambiguity).family
                added += profile.put(family, self._profile_key(question), question.answer)
                for other, turn in zip(question.also, question.followers()):
                    if turn.answer:
                        added += profile.put(family, other.key, turn.answer)
        return added

    def _profile_key(self, question: SheetQuestion) -> str:
        """Where a profile keeps the answer: the target language for a register, else the sheet's key."""
        return self.target_lang if question.scope == SCOPES[FOR_SESSION] else question.key

    def to_dict(self) -> dict[str, Any]:
        return {"target_lang": self.target_lang, "segment_count": self.segment_count,
                "question_count": len(self.questions), "questions": [q.to_dict() for q in self.questions],
                "for_review": [q.to_dict() for q in self.for_review]}


class SheetUser:
    """Answers a question asked afresh in each text ("it") from the sheet, by what it settles and the text."""

    name = "human"

    def __init__(self, answers: dict[tuple[str, str], str | None]):
        self._answers = answers

    def answer(self, turn: Turn, source: str) -> str | None:
        return self._answers.get((get_type(turn.ambiguity).family, source))


def with_profile(memory: PreferenceMemory, profile: Profile, target_lang: str) -> PreferenceMemory:
    """``memory`` with the profile's answers that hold beyond a text, where it holds none of its own (an answer
    given now, or a request's formality, wins)."""
    for turn in _profile_turns(profile, target_lang):
        if memory.recall(Candidate(turn.ambiguity, turn.span, 0)) is None:
            memory.remember(turn, turn.answer)
    return memory


def _profile_turns(profile: Profile, target_lang: str) -> list[Turn]:
    """The profile's answers that hold beyond a text, as answered turns of every type they answer in
    ``target_lang`` (a person's gender answers a name's, a role noun's and a group's question alike)."""
    turns = []
    for ambiguity_type in ambiguity_types().values():
        if target_lang not in ambiguity_type.languages or ambiguity_type.remember == FOR_TEXT:
            continue
        section = profile.answers.get(sections().get(ambiguity_type.family, ""), {})
        known = {"you": section.get(target_lang)} if ambiguity_type.remember == FOR_SESSION else section
        question = ambiguity_type.fixed_question  # the table's question about each word answered
        turns += [Turn(ambiguity_type.name, word, question(word, target_lang) or ambiguity_type.label,
                       list(ambiguity_type.options(target_lang)), answer, "profile")
                  for word, answer in known.items() if answer]
    return turns


def _profile_texts(profile: Profile) -> list[tuple[str, str, str]]:
    """The profile's answers kept per text ("it" in one segment): (family, text, answer)."""
    families = {t.family for t in ambiguity_types().values() if t.remember == FOR_TEXT} & sections().keys()
    return [(family, text, answer) for family in families
            for text, answer in profile.answers[sections()[family]].items()]


def prepared_sheet(steps: ModelSteps, segments: Sequence[str], target_lang: str, known: Profile | None = None, *,
                   progress: bool = False) -> Sheet:
    """The sheet of ``segments`` with what the project already answered (``known``) filled in; ``progress``
    shows a tqdm bar while the segments are read (a terminal's, or the page's, which tracks tqdm)."""
    from tqdm import tqdm

    with tqdm(total=len(segments), desc="reading for questions", unit="segment", disable=not progress) as bar:
        sheet = build_sheet(steps, segments, target_lang, on_segment=lambda _: bar.update())
    if known is not None:
        sheet.apply_profile(known)
    return sheet


def build_sheet(steps: ModelSteps, segments: Sequence[str], target_lang: str,
                on_segment: Callable[[int], None] | None = None) -> Sheet:
    """The sheet of ``segments`` (the texts the translator will be given, in document order).

    Each distinct segment is parsed once. The decide call reads a segment only for the fixed-option
    words whose question is not on the sheet yet: once one segment leaves "you" open, the others
    that say "you" count as affected without a model call (the answer will be applied to them all).
    A type with open options gets its question written by the model once per key. ``on_segment`` hears
    each segment's number once it is read (a progress bar)."""
    if len(segments) > MAX_SEGMENTS:
        raise InputError(f"the document has {len(segments)} segments; a question sheet reads at most {MAX_SEGMENTS}")
    found: dict[tuple[str, str], SheetQuestion] = {}
    closed: set[tuple[str, str]] = set()  # keys the model read as settled where it wrote the question
    readings: dict[str, list[Candidate]] = {}  # the candidates only: a file's parses are not all kept
    words: dict[tuple[str, str], tuple[str, str]] = {}  # a key of a word's fixed options → (family, the word)
    inclusive = steps.options.inclusive
    for number, segment in enumerate(segments, 1):
        parsed = None if segment in readings else parse(segment, target_lang, inclusive)
        if parsed is not None:
            readings[segment] = candidates_in(parsed)
        candidates = readings[segment]
        undecided = [c for c in candidates if _key(c, segment) not in found
                     and get_type(c.ambiguity).fixed_question(c.span, target_lang)]
        opened = {(turn.ambiguity, turn.span) for turn in open_questions(steps, segment, target_lang, undecided)}
        for candidate in sorted(candidates, key=lambda c: bool(get_type(c.ambiguity).implied_by)):  # implied last
            key = _key(candidate, segment)
            if key not in found and key not in closed and not _implied(candidate.ambiguity, key[1], found):
                turn = _question(steps, segment, target_lang, candidate, undecided, opened)
                if turn is None:
                    if candidate not in undecided:
                        closed.add(key)  # the model read it once; it is not asked about again
                    continue
                found[key] = SheetQuestion("", candidate.ambiguity, candidate.span, key[1], turn.question,
                                           list(turn.options))
                if found[key].scope == PER_WORD and get_type(candidate.ambiguity).options(target_lang):
                    parsed = parsed or parse(segment, target_lang, inclusive)  # a repeated segment's: parsed again
                    words[key] = get_type(candidate.ambiguity).family, _singular(parsed, candidate, key[1])
            if key in found:
                _affects(found[key], number, segment, candidate)
        if on_segment:
            on_segment(number)
    _one_per_word(found, words)
    ordered = sorted((q for q in found.values() if not _implied(q.ambiguity, q.key, found)),
                     key=lambda q: (get_type(q.ambiguity).rank, q.segments[0]))
    asked = [q for q in ordered if not _one_string(q)]
    for_review = [q for q in ordered if _one_string(q)]
    for prefix, questions in (("q", asked), ("r", for_review)):
        for index, question in enumerate(questions, 1):
            question.id = f"{prefix}{index}"
    return Sheet(target_lang, len(segments), asked, for_review)


def _one_string(question: SheetQuestion) -> bool:
    """Whether the question's answer would settle one segment only: asked afresh in each text, raised by one."""
    return question.scope == SCOPES[FOR_TEXT] and len(question.segments) == 1


def _singular(parsed: Parsed, candidate: Candidate, key: str) -> str:
    """The person a key names, in the singular: its head word's lemma ("some users" and "a user" are one role,
    "your users" is "your user"); a type's own word where it has one ("you" for an imperative's addressee)."""
    if get_type(candidate.ambiguity).asks_about:
        return key
    words = parsed.doc.char_span(candidate.start, candidate.start + len(candidate.span), alignment_mode="expand")
    head = words[-1].lemma_.lower() if words else ""
    return " ".join([*key.split()[:-1], head]) if head else key


def _one_per_word(found: dict[tuple[str, str], SheetQuestion], words: Mapping[tuple[str, str], tuple[str, str]]) -> None:
    """Fold the questions of one family about one word in both numbers into one (a person: "a user" and
    "some users"): the question with fewer options (the singular's "a man / a woman") stays and answers
    the others option by option ("men / women"); of two alike, the one that names the word itself ("you", not
    the person told "Be patient")."""
    kept: dict[tuple[str, str], SheetQuestion] = {}
    for key, question in sorted(found.items(), key=lambda item: (len(item[1].options),
                                                                 bool(get_type(item[1].ambiguity).asks_about))):
        word = words.get(key)
        first = kept.setdefault(word, question) if word else question
        if first is not question:
            first.also.append(question)
            first.segments = sorted({*first.segments, *question.segments})
            first.examples = sorted([*first.examples, *question.examples], key=lambda e: e.segment)[:MAX_EXAMPLES]
            del found[key]


def _implied(ambiguity: str, key: str, found: Mapping[tuple[str, str], SheetQuestion]) -> bool:
    """Whether another question of the sheet about the same word implies this one's answer (the table's
    ``implied_by``: "Recipient" asked about as a person is meant in its person sense)."""
    families = get_type(ambiguity).implied_by
    return bool(families) and any(q.key == key and get_type(q.ambiguity).family in families for q in found.values())


def _key(candidate: Candidate, segment: str) -> tuple[str, str]:
    """What one answer settles, as the document's memory keeps it: the type and its word ("" for the whole
    document), or, for a type asked afresh in every text, the text itself as the chain reads it (stripped)."""
    word = get_type(candidate.ambiguity).memory_key(candidate.span, every_answer=True)
    return candidate.ambiguity, segment.strip() if word is None else word


def _question(steps: ModelSteps, segment: str, target_lang: str, candidate: Candidate,
              undecided: list[Candidate], opened: set[tuple[str, str]]) -> Turn | None:
    """The question about ``candidate``: the table's, where the decide call left it open; the model's
    own (written now), for a type with open options; None where it is not open."""
    if candidate in undecided:
        return steps.fixed_turn(candidate, target_lang) if (candidate.ambiguity, candidate.span) in opened else None
    return steps.ask(segment, target_lang, candidate)


def _affects(question: SheetQuestion, number: int, segment: str, candidate: Candidate) -> None:
    """Count the segment, and keep it as an example while there are fewer than ``MAX_EXAMPLES`` (a repeated
    text once)."""
    words = (candidate.start, candidate.start + len(candidate.span))
    if question.segments and question.segments[-1] == number:
        last = question.examples[-1] if question.examples and question.examples[-1].segment == number else None
        if last is not None and words not in last.words:
            question.examples[-1] = Example(number, segment, (*last.words, words))
        return
    question.segments.append(number)
    if len(question.examples) < MAX_EXAMPLES and all(example.text != segment for example in question.examples):
        question.examples.append(Example(number, segment, (words,)))
