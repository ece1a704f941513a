"""How relevant each context sentence is to the text being translated and to its ambiguity.

A sentence matters when it names the ambiguous word or a person the text names, when it
carries a pronoun or title that settles what the question asks (gender for a person,
register for "you"), when it shares content words with the text, and, with an encoder,
when it means something close to it. Later sentences get a small bonus: a context comes
before the text, and the nearest lines are the likeliest to be about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..detection import GENDERED_PRONOUNS, SECOND_PERSON, TITLES
from ..nlp.source_roles import PLACEHOLDER, source_parse
from .encoders import Encoder
from .sentences import Sentence

W_GENDER = 3.0     # a pronoun or title with gender, when the question is about a person
W_FOCUS = 2.0      # names the ambiguous word or a person the text names
W_ADDRESS = 1.0    # second person or a form of address, when it is about "you"
W_OVERLAP = 1.5    # times the share of the text's content lemmas the sentence shares
W_MEANING = 2.0    # times the encoder's cosine similarity to the text
W_RECENCY = 0.5    # times the position, 0 for the first sentence to 1 for the last

GENDER_CUES = GENDERED_PRONOUNS | TITLES
ADDRESS_CUES = SECOND_PERSON | TITLES
_WORD = re.compile(r"[\w'-]+")


@dataclass(frozen=True)
class Focus:
    """What the context should settle about the text."""

    words: frozenset[str]      # lower-cased names and ambiguous content words
    lemmas: frozenset[str]     # content lemmas of the text
    gender: bool               # a person's gender is in question
    address: bool              # the register of "you" is in question

    def is_cue(self, token: Any) -> bool:
        """Whether a context token mentions the focus or carries the cue in question."""
        word = token.lower_
        return (word in self.words or (self.gender and word in GENDER_CUES)
                or (self.address and word in ADDRESS_CUES))


def build_focus(source: str, spans: Iterable[str] = ()) -> Focus:
    """The focus for ``source`` and its ambiguous ``spans``; without spans both cue kinds count."""
    spans = [span.strip() for span in spans if span and span.strip()]
    doc = source_parse(source)  # the parse the mentions and the checks of this source read
    names = {token.lower_ for ent in doc.ents if ent.label_ == "PERSON" for token in ent if token.is_alpha}
    words = {word.lower() for span in spans if span != PLACEHOLDER for word in _WORD.findall(span)
             if word.lower() not in SECOND_PERSON | {"it"}}
    about_address = any(span.lower() in SECOND_PERSON for span in spans)
    about_person = any(span.lower() not in SECOND_PERSON | {"it"} for span in spans)
    lemmas = {token.lemma_.lower() for token in doc if token.is_alpha and not token.is_stop}
    return Focus(words=frozenset(words | names), lemmas=frozenset(lemmas),
                 gender=about_person or not spans, address=about_address or not spans)


def relevance(sentences: Sequence[Sentence], source: str, focus: Focus, encoder: Encoder | None = None
              ) -> list[float]:
    """One score per sentence; higher is more relevant."""
    count = len(sentences)
    meaning = [0.0] * count
    if encoder is not None and count:
        vectors = encoder([sentence.span.text for sentence in sentences] + [source])
        meaning = [float(v) for v in vectors[:-1] @ vectors[-1]]
    scores = []
    for sentence, similarity in zip(sentences, meaning):
        words = {token.lower_ for token in sentence.tokens}
        lemmas = {token.lemma_.lower() for token in sentence.tokens if token.is_alpha and not token.is_stop}
        score = W_FOCUS * bool(words & focus.words)
        score += W_GENDER * (focus.gender and bool(words & GENDER_CUES))
        score += W_ADDRESS * (focus.address and bool(words & ADDRESS_CUES))
        score += W_OVERLAP * (len(lemmas & focus.lemmas) / len(focus.lemmas) if focus.lemmas else 0.0)
        score += W_MEANING * similarity
        score += W_RECENCY * (sentence.index / (count - 1) if count > 1 else 0.0)
        scores.append(score)
    return scores
