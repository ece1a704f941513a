"""Read the register of a Japanese text (plain, polite, honorific) from the predicate that ends each sentence.

The rule, from Japanese grammar rather than from any set of sentences: a sentence is polite when its
final predicate carries the polite auxiliaries です or ます in any inflection (でした, ません, ましょう,
ございます) or is the polite request or imperative of くださる/なさる (ください, なさい); it is plain when
that predicate is a verb, an adjective or an auxiliary (だ, た, ない, たい, う…) without them, the casual
でしょ (でしょう cut short: 分かるでしょ), a bare ありがとう/おはよう/おめでとう/ごめん, or a verb's て-form said as a request (待って; not with the polite
prefix お/ご: お気をつけて). Sentence-final particles (よ, ね, か, の…) and a clause-final
conjunction (けど, から, が…) are looked through; a sentence that ends in a noun, another interjection
(こんにちは) or a bare adjectival noun marks neither. The text is polite (honorific when it also
uses respectful or humble verbs) or plain only when every sentence that marks a register marks that one;
sentences that disagree, or none marked, read as None: the check could not read one register.

The predicate is found by SudachiPy's morphology (part of speech and dictionary form: the ``ja`` extra).
Without it the text is read as before, by the endings of its sentences' surface strings.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .target_gender import Reading

PLAIN, POLITE, HONORIFIC = "plain", "polite", "honorific"

# Respectful and humble verbs: a polite text that uses them is honorific.
_HONORIFIC = re.compile(r"いらっしゃ|おっしゃ|なさ[いりっ]|召し上が|ご覧に|お越し|お\w{1,4}になり|ございます|存じ|申し上げ|"
                        r"伺[いっう]|参りま|差し上げ|いただけ|くださいませ")
# A sentence ends at 。！？ (full or half width) or a line break; "..." and "." inside it are split by the parse.
_SENTENCE = re.compile(r"[^。．！？!?\n]+[。．！？!?]*")
# Only the end of a sentence is parsed: its final predicate is there (and the parser's input stays bounded).
SENTENCE_TAIL_CHARS = 160
# At most this many sentences' words are kept as what a reading rests on.
MAX_EVIDENCE = 8
EVIDENCE_CHARS = 60

# -- by morphology ---------------------------------------------------------------------------------

_POLITE_AUXILIARIES = {"です", "ます"}
_POLITE_REQUEST_VERBS = {"くださる", "下さる", "なさる", "為さる"}   # ください, なさい: polite imperatives
_LOOKED_THROUGH = {("助詞", "終助詞"), ("補助記号", "句点"), ("補助記号", "読点"), ("補助記号", "括弧閉"),
                   ("補助記号", "一般"), ("空白", "*")}
_CLAUSE_FINAL_CONJUNCTIONS = {"けど", "けれど", "けれども", "が", "から", "ので", "のに", "し"}
_PREDICATE_HEADS = {"動詞", "形容詞", "助動詞"}
_POLITE_PREFIXES = {"お", "ご", "御"}
# Set phrases whose polite form adds ございます or なさい: bare, they are the plain one.
_PLAIN_GREETINGS = {"ありがとう", "おはよう", "おめでとう", "ごめん"}


@lru_cache(maxsize=1)
def _sudachi() -> tuple[Any, Any, threading.Lock] | None:
    """SudachiPy's tokenizer over its core dictionary, or None where the ``ja`` extra is not installed
    (a tokenizer serves one call at a time, hence the lock)."""
    try:
        from sudachipy import Dictionary, SplitMode
        tokenizer = Dictionary(dict="core").create(SplitMode.C)
    except (ImportError, ModuleNotFoundError, RuntimeError, OSError, ValueError):
        return None
    return tokenizer, SplitMode.C, threading.Lock()


def morphology_available() -> bool:
    """Whether the register is read by morphology (SudachiPy and its dictionary are installed)."""
    return _sudachi() is not None


def _morphemes(sentence: str) -> list[tuple[str, tuple[str, str], str]]:
    """(surface, (part of speech, subtype), dictionary form) of the end of ``sentence``."""
    tokenizer, mode, lock = _sudachi()
    with lock:
        return [(m.surface(), tuple(m.part_of_speech()[:2]), m.dictionary_form())
                for m in tokenizer.tokenize(sentence[-SENTENCE_TAIL_CHARS:], mode)]


def _clauses(morphemes: list[tuple[str, tuple[str, str], str]]) -> list[list[tuple[str, tuple[str, str], str]]]:
    """The sentence split again where the parse finds a full stop inside it ("...笑")."""
    parts, current = [], []
    for n, morpheme in enumerate(morphemes):
        current.append(morpheme)
        following = morphemes[n + 1][1] if n + 1 < len(morphemes) else None
        if morpheme[1] == ("補助記号", "句点") and following and following[0] != "補助記号":
            parts.append(current)
            current = []
    return parts + [current] if current else parts


def _register_by_morphology(morphemes: list[tuple[str, tuple[str, str], str]]) -> str | None:
    """Plain, polite or None for one sentence, from its final predicate."""
    words = list(morphemes)
    while words and (words[-1][1] in _LOOKED_THROUGH or words[-1][1][0] == "補助記号"
                     or (words[-1][1] == ("助詞", "接続助詞") and words[-1][2] in _CLAUSE_FINAL_CONJUNCTIONS)):
        words.pop()
    if not words:
        return None
    last_pos = words[-1][1]
    if last_pos == ("助詞", "接続助詞") and words[-1][2] in ("て", "で"):
        # 待って: a plain request; お気をつけて, with the polite prefix お/ご, is a polite one cut short
        polite_prefix = any(pos == ("接頭辞", "*") and surface in _POLITE_PREFIXES for surface, pos, _ in words)
        return PLAIN if len(words) > 1 and words[-2][1][0] in _PREDICATE_HEADS and not polite_prefix else None
    if last_pos[0] == "感動詞" and words[-1][0] in _PLAIN_GREETINGS:
        return PLAIN
    if last_pos[0] not in _PREDICATE_HEADS and last_pos != ("助詞", "準体助詞"):
        return None  # a noun, an interjection, a particle: no predicate ends the sentence
    predicate = []
    for surface, pos, lemma in reversed(words):
        predicate.append((pos, lemma))
        if pos[0] in ("動詞", "形容詞") and pos[1] != "非自立可能":
            break   # the content verb or adjective that heads the predicate
        if pos[0] not in _PREDICATE_HEADS and pos not in (("助詞", "接続助詞"), ("助詞", "準体助詞")):
            break
    if predicate[0] == (("助動詞", "*"), "です") and words[-1][0] == "でしょ":
        return PLAIN   # 分かるでしょ: でしょう cut short asks for agreement casually
    if any(pos[0] == "助動詞" and lemma in _POLITE_AUXILIARIES for pos, lemma in predicate) or any(
            pos[0] == "動詞" and lemma in _POLITE_REQUEST_VERBS for pos, lemma in predicate):
        return POLITE
    return PLAIN


def _sentence_registers_by_morphology(sentence: str) -> list[tuple[str | None, str]]:
    return [(_register_by_morphology(clause), "".join(m[0] for m in clause))
            for clause in _clauses(_morphemes(sentence))]


# -- by surface endings (without SudachiPy) ---------------------------------------------------------

_FINAL_PARTICLES = re.compile(r"(?:[よねなかわぞぜさ]|かな|よね|っけ|の|ー|〜|…|w)*[。！？!?」』）)\s]*$")
_POLITE_END = re.compile(r"(?:です|ます|ました|ません|でした|ましょう|ませんでした|でしょう|ください|下さい|まして|ませ)$")
_PLAIN_END = re.compile(r"(?:だ|だった|だろう|じゃない|ない|なかった|た|る|う|く|す|つ|ぬ|ぶ|む|ぐ|い|て|で|ん|じゃん|だろ|ろ|よう)$")


def _sentence_registers_by_endings(sentence: str) -> list[tuple[str | None, str]]:
    core = _FINAL_PARTICLES.sub("", sentence.strip())
    if _POLITE_END.search(core):
        return [(POLITE, sentence)]
    return [(PLAIN if core and _PLAIN_END.search(core) else None, sentence)]


# -- the whole text -------------------------------------------------------------------------------

def sentence_registers(text: str) -> list[tuple[str | None, str]]:
    """(register or None, sentence) for each sentence of ``text``, by morphology where installed."""
    read: Callable[[str], list[tuple[str | None, str]]] = (
        _sentence_registers_by_morphology if morphology_available() else _sentence_registers_by_endings)
    return [reading for match in _SENTENCE.finditer(text) if match.group(0).strip()
            for reading in read(match.group(0).strip())]


def _quoted(sentence: str) -> str:
    sentence = sentence.strip()
    return sentence if len(sentence) <= EVIDENCE_CHARS else sentence[:EVIDENCE_CHARS - 1] + "…"


def japanese_register(text: str) -> Reading:
    """Plain, polite or honorific when every sentence that marks a register marks the same one
    (honorific: a polite text with respectful or humble verbs); None when they disagree or none
    does. The evidence is the sentences read (those of the register found; all marked ones when
    they disagree), for a repair to name."""
    readings = [(label, sentence) for label, sentence in sentence_registers(text) if label is not None]
    labels = {label for label, _ in readings}
    read = dict.fromkeys((_quoted(sentence), label) for label, sentence in readings)
    evidence = tuple(dict.fromkeys(sentence for sentence, _ in read))[:MAX_EVIDENCE]
    features = tuple(f"{sentence}: Register={label}" for sentence, label in read if sentence in evidence)
    if len(labels) != 1:
        return Reading(None, evidence, features=features,
                       doubt="its sentences disagree in register" if labels else None,
                       parts=tuple((sentence, label) for sentence, label in read if sentence in evidence))
    label = labels.pop()
    if label == POLITE and _HONORIFIC.search(text):
        return Reading(HONORIFIC, evidence, features=features)
    return Reading(label, evidence, features=features)

