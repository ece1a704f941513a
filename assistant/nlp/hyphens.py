"""Hyphenated words, which spaCy's English tokenizer splits at their hyphens ("co-worker": "co", "-", "worker")."""

from __future__ import annotations

from typing import Any

NOUNS = ("NOUN", "PROPN")


def hyphenated_modifier(token: Any) -> bool:
    """The first part of a hyphenated word ("user-defined", "runner-up"; "the Department of Anti-drugs Policies",
    tagged a proper noun, but not a name's first part, "Jean-Pierre"): the word is read at its last part, and a
    modifier such as "user-defined" names no one."""
    doc = token.doc
    joined = not token.whitespace_ and token.i + 2 < len(doc) and doc[token.i + 1].text == "-" \
        and not doc[token.i + 1].whitespace_
    return joined and (token.pos_ != "PROPN" or doc[token.i + 2].is_lower)


def word_start(token: Any) -> Any:
    """The first part of the hyphenated word whose last part is ``token`` ("co" of "co-worker"), else ``token``."""
    first = token
    while first.i >= 2 and hyphenated_modifier(token.doc[first.i - 2]):
        first = token.doc[first.i - 2]
    return first


def join_hyphenated_nouns(doc: Any) -> Any:
    """A pipeline step after the tagging and the parse: a hyphenated noun's first parts hung on its last part, with
    what the parser hung on them ("My co-worker said …" may come parsed with "co", "-" and "worker" each a subject
    of "said", and "My" the possessor of "co"; "some co-workers" then read as a plural with no determiner). The
    parts are one word, and its modifiers are its last part's: the question names the whole word ("a non-smoker"
    is no smoker) and reads its determiner. A text read without the parser is left as it is."""
    if not doc.has_annotation("DEP"):
        return doc
    for token in doc:
        first = word_start(token)
        if first is token or token.pos_ not in NOUNS:
            continue
        parts = doc[first.i:token.i]
        if any(part.is_ancestor(token) for part in parts):
            continue  # parsed as one phrase already ("great-grandchild", "asylum-seeker")
        for part in parts:
            if first.i <= part.head.i <= token.i:
                continue
            for child in list(part.children):
                if not first.i <= child.i <= token.i:
                    child.head = token
            part.head = token
            part.dep_ = "punct" if part.text == "-" else "compound"
    return doc
