"""From a checker's reading of a translation to the check a translator reads.

A check passes only where its checker read words of the translation, of what was asked about,
and read them one way: a label read off no words, words that disagree or may be another
person's, or the same words read two ways in the texts one repair tries, leave it unchecked
(shown as such, never as passed), with the reason in ``Check.doubt``.
"""

from __future__ import annotations

from .checks import reading_of
from .nlp.target_gender import Reading
from .transcript import Check


def answer_check(name: str, expected: str, span: str, reading: Reading, text: str) -> Check:
    """The check of the answer ``expected`` about ``span`` given ``reading`` of ``text``."""
    words = as_written(text, reading.evidence)
    doubt = reading.doubt or (None if words or reading.label is None else "no word of the translation was read")
    status = "unchecked" if reading.label is None or doubt else ("pass" if reading.label == expected else "fail")
    return Check(name=name, expected=expected, observed=reading.label, status=status, about=span, words=words,
                 features=list(reading.features), doubt=doubt)


def as_written(text: str, words: tuple[str, ...]) -> list[str]:
    """``words`` as ``text`` writes them, neighbours joined ("l'" and "avocate": "l'avocate"; "le"
    and "procureur": "le procureur"); a word not found in the text stays as it is."""
    phrases: list[str] = []
    end, at = None, 0  # where the last phrase ends in the text (None: not found), where to look next
    for word in words:
        start = text.find(word, at)
        start = text.find(word) if start < 0 else start
        if start < 0:
            phrases.append(word)
            end = None
            continue
        if end is not None and 0 <= start - end <= 1 and not text[end:start].strip():
            phrases[-1] += text[end:start + len(word)]
        else:
            phrases.append(word)
        end = at = start + len(word)
    return list(dict.fromkeys(phrases))


class AnswerReadings:
    """The answer checks of every text one verify-and-repair reads (the draft, its rewrites, the
    re-translations), remembering each label the same words got: a reader that gives the same
    words two labels cannot be trusted on them, whichever text is kept."""

    def __init__(self, source: str, lang: str):
        self.source, self.lang = source, lang
        self._labels: dict[tuple, set[str]] = {}

    def check(self, name: str, expected: str, span: str, text: str) -> tuple[Check, Reading]:
        """Read ``text`` for the answer ``expected`` about ``span``: its check, and the reading (for a repair)."""
        reading = reading_of(name, text, self.lang, self.source, span).against(expected)
        check = answer_check(name, expected, span, reading, text)
        if reading.label is not None:
            self._labels.setdefault(self._key(check), set()).add(reading.label)
        return check, reading

    def settled(self, checks: list[Check]) -> list[Check]:
        """``checks`` with each answer check whose words were read two ways made unchecked."""
        for check in checks:
            labels = self._labels.get(self._key(check), set())
            if check.about is not None and len(labels) > 1:
                check.status = "unchecked"
                check.doubt = f"the same words were read as {' and as '.join(sorted(labels))} in two attempts"
        return checks

    @staticmethod
    def _key(check: Check) -> tuple:
        return check.name, check.about, tuple(word.lower() for word in check.words)
