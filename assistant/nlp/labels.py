"""Words of an interface's labels and messages that the tagger takes for people.

A catalogue's strings are short and capitalised: "Email Changed", "- Browser: Firefox", "Invalid token.", "None
available". The capitals make the entity recogniser read a common noun as a name and the tagger read an adjective
as a proper noun; none of them is anyone to ask about.
"""

from __future__ import annotations

from typing import Any

from .address import names_a_role
from .lexicon import name_gender, person_noun, singular_of, wordnet_adjectives, wordnet_nouns


def common_noun_in_a_label(word: Any) -> bool:
    """A common noun, no first name, that a heading's capitals, a field's colon or a short label made the tagger
    take for a name ("Email Changed", "- Browser: Firefox", "Actions (footer)"); a surname that is also a word
    stays one in running text ("Dark taught Mays"), and so does a title with an article ("A novice asked the
    Master: …")."""
    noun = person_noun(word.lower_)
    common = word.lower_ in wordnet_nouns() or singular_of(word.lower_) in wordnet_nouns()  # "Actions"
    if name_gender(word.text)[0] or not common or noun is not None and noun.only:
        return False  # a first name, a word WordNet lacks, a name it knows only as someone's ("Gershwin")
    before_a_colon = word.i + 1 < len(word.doc) and word.nbor(1).text == ":" \
        and not any(c.dep_ in ("det", "poss") for c in word.children)  # not "asked the Master:"
    words = [t for t in word.sent if t.is_alpha and len(t) > 3]
    return before_a_colon or len(words) > 1 and all(t.text[:1].isupper() for t in words) or names_a_role(word.doc)


def adjective_opening_a_sentence(token: Any) -> bool:
    """An adjective opening a sentence before the noun it describes, taken for a name for its capital ("Invalid
    token.": "invalid" is a person noun too)."""
    after = token.nbor(1) if token.i + 1 < len(token.doc) else None
    return token.i == token.sent.start and token.pos_ == "PROPN" and token.lower_ in wordnet_adjectives() \
        and after is not None and after.is_lower and after.pos_ in ("NOUN", "ADJ") and after.lower_ in wordnet_nouns()


def heads_a_verbless_label(token: Any) -> bool:
    """A word heading a text without a verb ("None available", "All"): a label of the items an interface shows."""
    return token.dep_ == "ROOT" and not any(t.pos_ in ("VERB", "AUX") for t in token.sent)
