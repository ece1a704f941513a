"""Is an utterance addressed to someone, so that the register of address must be chosen?

French, German and Spanish choose T or V (and singular or plural) where a second person or an
imperative appears; Japanese chooses plain, polite or honorific forms for anything said to someone:
a request, a question, a greeting, a vocative, a reply in a conversation. The result names the span
to ask about and whether "you" is plural (you all, you guys, both of you, a plural vocative).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import takewhile
from typing import Any

from .coreference import SUBJECTS, quotations
from .lexicon import done_only_to_people, object_verbs

FORMALITY, REGISTER = "formality", "register"
SECOND_PERSON = {"you", "your", "yours", "yourself", "yourselves", "y'all", "ya", "u", "ur", "thee", "thou"}
GREETINGS = {"hi", "hello", "hey", "thanks", "thank", "bye", "goodbye", "sorry", "welcome", "congratulations",
             "congrats", "cheers", "please", "excuse", "pardon", "dear", "good", "morning", "evening", "howdy",
             "yes", "yeah", "no", "nope", "ok", "okay", "oh", "wow", "well", "sure", "right", "alright", "um", "uh",
             "hmm", "haha", "lol", "yep"}
# Words that greet or thank whoever the noun after them names ("Hi friend!", "Thanks man").
SALUTATIONS = {"hi", "hello", "hey", "thanks", "bye", "goodbye", "howdy", "cheers", "congrats", "congratulations"}
PLURAL_ADDRESSEES = {"guys", "folks", "everyone", "everybody", "all", "y'all", "ladies", "gentlemen", "team",
                     "people", "kids", "children", "friends", "colleagues", "everybody"}
_PLURAL_YOU = re.compile(
    r"\b(?:you\s+(?:all|guys|folks|people|two|three|both|lot|boys|girls|kids)|y'all|yourselves|"
    r"(?:both|all|each|either|neither|one|any|some|none|most|many|few)\s+of\s+(?:you|your)|"
    r"(?:hi|hello|hey|thanks|thank\s+you|morning|evening|bye),?\s+(?:everyone|everybody|all|guys|folks|team))\b",
    re.IGNORECASE,
)
SENTENCE_ENDS = set(".!?…:;。！？")
# Words a title leaves in lower case ("Gone with the Wind"): the others of a title are capitalised.
TITLE_MINOR_WORDS = {"a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for", "with",
                     "from", "as"}
LABEL_WORDS = 6  # a button's or a menu's command is a few words
ROLE_LABEL_WORDS = 3  # a column or a button that names a role ("Contact Administrator")
# T-V choices need a second person or an imperative; the Japanese register applies to more.
CUES_FOR = {"fr": ("second_person", "imperative"), "de": ("second_person", "imperative"),
            "es": ("second_person", "imperative"),
            "ja": ("second_person", "imperative", "request", "question", "vocative", "greeting", "conversation")}


@dataclass(frozen=True)
class AddressCandidate:
    """Where the register of address must be chosen: the span to ask about, every cue found,
    and whether "you" means several people (None: nothing says)."""

    span: str
    start: int
    dimension: str
    cues: tuple[str, ...]
    plural: bool | None
    plural_cue: str | None


def address_candidates(doc_or_text: Any, target_lang: str) -> list[AddressCandidate]:
    """At most one candidate per utterance, for the cues that matter in ``target_lang``."""
    doc = _parse(doc_or_text) if isinstance(doc_or_text, str) else doc_or_text
    wanted = CUES_FOR.get(target_lang, ())
    cues = [cue for cue in address_cues(doc) if cue[0] in wanted]
    if not cues:
        return []
    kind, token = cues[0]
    first = _negation(token) if kind == "imperative" else token
    plural_cue = plural_you_cue(doc)
    return [AddressCandidate(doc[first.i:token.i + 1].text, first.idx, REGISTER if target_lang == "ja" else FORMALITY,
                             tuple(dict.fromkeys(c[0] for c in cues)), True if plural_cue else None, plural_cue)]


def addressee(span: str) -> str:
    """How a question names the person ``span`` addresses: "you" itself, or for an imperative ("Sign the
    form"), whose addressee the text only implies, whoever is told to do it ("told to “Sign”"); a
    question about "Sign" as if the verb were a person reads as nonsense."""
    if span.lower() == "you":
        return f"“{span}”"
    return f"the “you” of “{span}”" if span.lower() in SECOND_PERSON else f"told to “{span}”"


def imperatives(doc: Any) -> list[tuple[Any, Any]]:
    """(first word, verb) of each imperative that addresses someone ("Don't", "be" of "Don't be shy"), in order."""
    return [(_negation(token), token) for cue, token in address_cues(doc) if cue == "imperative"]


def address_cues(doc: Any) -> list[tuple[str, Any]]:
    """(cue, token) pairs, strongest first: second person, imperative, request, question, vocative,
    greeting, conversation (a first-person statement or an interjection)."""
    found: list[tuple[str, Any]] = []
    titled = _quoted_titles(doc)
    for token in doc:
        if token.lower_ in SECOND_PERSON and token.i not in titled:
            found.append(("greeting", token.head) if _thanks(token) else ("second_person", token))
    for sent in doc.sents:
        words = [t for t in sent if not t.is_punct and t.lower_ not in GREETINGS and t.dep_ != "npadvmod"]
        vocative = _vocative(sent)
        words = [t for t in words if vocative is None or t.i != vocative.i]
        verb = _opening_imperative(words, vocative)
        if verb is not None and not _label(doc, sent):
            found.append(("imperative" if verb.lower_ != "let" else "request", verb))
        if any(t.lower_ == "please" for t in sent) or (words and words[0].lower_ in ("could", "would", "can", "will")
                                                       and sent.text.rstrip().endswith("?")):
            found.append(("request", sent[0]))
        if sent.text.rstrip().endswith("?"):
            found.append(("question", sent[0]))
        if vocative is not None:
            found.append(("vocative", vocative))
        if sent[0].lower_ in GREETINGS or sent[0].pos_ == "INTJ":
            found.append(("greeting", sent[0]))
        first_person = next((t for t in sent if t.lower_ in ("i", "we", "me", "us", "my", "our", "let's")), None)
        if first_person is not None:
            found.append(("conversation", first_person))
    order = list(CUES_FOR["ja"])
    return sorted(found, key=lambda cue: (order.index(cue[0]), cue[1].i))


def _quoted_titles(doc: Any) -> set[int]:
    """The words of titles quoted in running text, every word of them capitalised but the small ones (a song's:
    'film songs to his credit, among them "Have You Got Any Castles, Baby"'): a title's "you" addresses no one
    the text is said to. A quote alone is what someone says or a label, whatever its capitals."""
    found: set[int] = set()
    for opening, closing in quotations(doc):
        words = [t for t in doc[opening + 1:closing] if t.is_alpha]
        outside = [t for t in doc[opening].sent if t.is_alpha and not opening < t.i < closing]
        if len(words) >= 2 and outside and all(t.text[0].isupper() or t.lower_ in TITLE_MINOR_WORDS for t in words):
            found |= {t.i for t in words}
    return found


# The roles of a noun phrase: a verb in one is a word named, not a command ('"pass" is a null operation').
_NOMINAL = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "compound", "nmod", "npadvmod"})


def _opening_imperative(words: list[Any], vocative: Any | None) -> Any | None:
    """The verb a sentence opens with in the imperative, or None: a base form with no subject, whether it heads
    the sentence or a quote a speech verb reports (« "Don't bother", Mike answered »). ``words``: the
    sentence's words but for punctuation, greetings and the vocative."""
    verb = next((t for t in words if not _leads_an_imperative(t, t.head)), None)
    if verb is None or verb.tag_ != "VB" or verb.pos_ not in ("VERB", "AUX") or verb.dep_ in _NOMINAL \
            or not all(_leads_an_imperative(t, verb) for t in words if t.i < verb.i):
        return None  # a verb that is a noun phrase is a word quoted: '"pass" is a null operation'
    if any(c.dep_ in ("nsubj", "expl") and (vocative is None or c.i != vocative.i)
           or c.dep_ == "aux" and not _do_support(c) for c in verb.children):
        return None
    return verb


def _leads_an_imperative(token: Any, verb: Any) -> bool:
    """A word an imperative may start with before its verb: a negation or an adverb of the verb ("Don't be
    shy", "Do not share this link", "Never share it", "Always be polite")."""
    return token.head.i == verb.i and (token.dep_ in ("neg", "advmod") or _do_support(token))


def _negation(verb: Any) -> Any:
    """Where a negative imperative starts ("Don't worry", "Do not share"), so that the question names what the
    person is told, not "worry" alone; the verb itself for any other."""
    return min((c for c in verb.children if c.i < verb.i and (c.dep_ == "neg" or _do_support(c))),
               key=lambda c: c.i, default=verb)


def _do_support(token: Any) -> bool:
    """The "do" of a negative or emphatic imperative ("Don't", "Do not", "Do come in"), not a question's "Did"."""
    return token.dep_ == "aux" and token.lower_ in ("do", "don't")


def _label(doc: Any, sent: Any, most_words: int = LABEL_WORDS) -> bool:
    """A command standing alone without a full stop, as on a button or a menu ("Change my password",
    "Add another {name}"): French, German and Spanish word it with the infinitive (Changer mon mot de
    passe, Passwort ändern), so it addresses no one in a register."""
    words = [t for t in sent if not t.is_punct]
    return len(list(doc.sents)) == 1 and len(words) <= most_words and sent.text.rstrip()[-1:] not in SENTENCE_ENDS


def names_a_role(doc: Any) -> bool:
    """A button, a menu entry or a column naming a role: at most ``ROLE_LABEL_WORDS`` words, without a full
    stop or a subject ("Recipient", "Contact Administrator", "Your correspondent"), or a status that says what was
    done to a record ("User updated", "Voucher created", "Email saved"). A role is no one in particular
    (Destinataire, Contacter l'administrateur), so it has no gender to ask about; a longer fragment may be a
    headline about someone ("Joint accounts for spouses", as GATE has them)."""
    return _label(doc, doc[:], ROLE_LABEL_WORDS) and all(_subject_of_a_status(t) for t in doc if t.dep_ in SUBJECTS)


def _subject_of_a_status(subject: Any) -> bool:
    """A subject without a determiner before a bare participle: what was done to a record ("Voucher created"); not
    what is done only to people ("Doctor arrested") nor what the subject did ("Teacher died")."""
    verb, lemma = subject.head, subject.head.lemma_.lower()
    return verb.tag_ in ("VBD", "VBN") and not any(c.dep_ in ("aux", "auxpass", "dobj") for c in verb.children) \
        and not any(c.dep_ in ("det", "poss") for c in subject.children) \
        and lemma in object_verbs() and not done_only_to_people(lemma)


def _thanks(token: Any) -> bool:
    """The "you" of the formula "Thank you": merci, danke, gracias carry no register, so it is a
    greeting (a cue for Japanese only), not a second person. "I thank you" (je vous remercie) is one."""
    verb = token.head
    return token.dep_ == "dobj" and verb.lemma_.lower() == "thank" and not any(c.dep_ == "nsubj" for c in verb.children)


def plural_you_cue(doc: Any) -> str | None:
    """The words saying that "you" is several people, or None."""
    match = _PLURAL_YOU.search(doc.text)
    if match:
        return match.group(0)
    for sent in doc.sents:
        vocative = _vocative(sent)
        if vocative is not None and (vocative.tag_ in ("NNS", "NNPS") or vocative.lower_ in PLURAL_ADDRESSEES):
            return vocative.text
    return None


def _vocative(sent: Any) -> Any | None:
    """A name or noun set off by a comma at the start or end of a sentence ("Anna, ...", "..., guys"), or the
    one a salutation opens on ("Hi friend!", "Hello dear friend, you have …")."""
    tokens = [t for t in sent if not (t.is_punct and t.text not in ",")]
    greeted = list(takewhile(lambda t: t.text != ",", tokens[1:])) if tokens and tokens[0].lower_ in SALUTATIONS \
        else []
    if greeted and greeted[-1].pos_ in ("PROPN", "NOUN") and all(t.pos_ in ("ADJ", "DET") for t in greeted[:-1]):
        return greeted[-1]
    if len(tokens) > 2 and tokens[1].text == "," and tokens[0].pos_ in ("PROPN", "NOUN", "PRON") \
            and tokens[0].lower_ not in GREETINGS | {"i", "it", "this", "that", "we", "they", "he", "she"}:
        return tokens[0]
    if len(tokens) > 2 and tokens[-2].text == "," and tokens[-1].pos_ in ("PROPN", "NOUN") \
            or (len(tokens) > 2 and tokens[-2].text == "," and tokens[-1].lower_ in PLURAL_ADDRESSEES):
        return tokens[-1]
    return None


def _parse(text: str) -> Any:
    from .pipelines import english_pipeline

    return english_pipeline()(text)
