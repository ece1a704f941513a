"""Whether the options of a model-written question about "it" name things the text names.

A person can answer "What does “it” refer to: the printer or the scanner?" from the text; not a
question whose options the model invented ("the report / the bag / the letter" for "it was a
great place") or one about grammar ("the object / the subject"). An option counts when each of
its nouns is, by lemma, a noun of one of the text's noun chunks.
"""

from __future__ import annotations

from typing import Any

NOUNS = ("NOUN", "PROPN")


def named_in_text(options: list[str], *texts: str | None) -> list[str]:
    """The ``options`` that name a noun phrase of ``texts`` (the source, and its context when one is
    given), in their order, one per thing ("the movie" and "the movie I don't know about" are one
    choice); an option without a noun names nothing."""
    from .pipelines import english_pipeline

    nlp = english_pipeline()
    known = {form for doc in nlp.pipe(t for t in texts if t) for chunk in doc.noun_chunks
             for token in chunk if token.pos_ in NOUNS for form in _forms(token)}
    kept: dict[str, str] = {}
    for option, doc in zip(options, nlp.pipe(options)):
        nouns = [token for token in doc if token.pos_ in NOUNS]
        if nouns and all(known.intersection(_forms(token)) for token in nouns):
            kept.setdefault(_thing(doc, nouns), option)
    return list(kept.values())


def _thing(doc: Any, nouns: list[Any]) -> str:
    """What an option names: the head of its first noun phrase ("instance" in "the exception instance")."""
    head = next((chunk.root for chunk in doc.noun_chunks if chunk.root.pos_ in NOUNS), nouns[0])
    return head.lemma_.lower()


def _forms(token: Any) -> set[str]:
    """A noun's lemma and its own form, lower-cased: a word alone may be lemmatised unlike the same
    word in a sentence."""
    return {token.lemma_.lower(), token.lower_}
