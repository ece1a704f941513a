"""Record the questions the chain asks on a fixed sample of real text, for a translator to label.

    python benchmarks/question_sample.py --model MODEL.gguf --po django.po [--out tests/data/asked_questions.yaml] \
        [--labels OLD.yaml] [--more N]

The sample is drawn with a fixed seed, before any question is seen, from text written by others:
the English turns of CoCoA-MT's train split (conversations and call-centre turns), GATE's dev half
(Wikipedia-style sentences), tests/data/two_people_real.yaml, tests/data/expletive_it.yaml,
tests/data/person_looking_things.yaml and the msgids of a web framework's French gettext
catalogue (Django's ``contrib/admin/locale/fr/LC_MESSAGES/django.po``: ``pip download django
--no-deps`` and unzip it), whose placeholders are masked as the file formats mask them. Every
question the chain asks into French is recorded (each skipped, none capped), with ``needed``
left empty for the labeller; the rule for labelling is the file's header, written before any
question was read. With ``--labels`` (an earlier labelled file), a question asked again word for word
(same text, type, words, question and options) keeps its label, so only new questions wait for the
labeller. ``benchmarks/detection.py`` reports the share of needed questions.
"""

from __future__ import annotations

import argparse
import random
from itertools import zip_longest
import subprocess
import sys
from pathlib import Path

import polib
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.backends import GenerationConfig, ModelSpec, load_chat_model  # noqa: E402
from assistant.chain import MAX_QUESTIONS_LIMIT, Assistant, ChainOptions  # noqa: E402
from assistant.formats.placeholders import mask  # noqa: E402
from tests.dev_sets import cocoa_items, gate_items  # noqa: E402

SEED = 25
TESTS_DATA = ROOT / "tests" / "data"
RULE = """\
# Questions the chain asked on real text (benchmarks/question_sample.py), labelled by a translator.
#
# Labelling rule, written before any question was read. A question is `needed: true` when all hold:
#  1. the French translation must choose between the answers (tu/vous; a masculine or feminine form
#     of a word that agrees with the person; the gender of the noun "it" stands for; a word's sense
#     that French words differently), and
#  2. neither the text nor what any translator knows settles it: not a pronoun that clearly refers to
#     that person, a title (Mr, Mrs), a gendered noun (actress, king), an agreement, a well-known
#     person or character, a situation that fixes the register (an agent speaking to a customer is
#     formal), and
#  3. the question names the word it is about and its options are real answers (options taken from
#     the text or the target's real choices; not invented things, not grammar terms).
# Otherwise `needed: false`, with `why:` one of: settled (the text or common knowledge settles it),
# no-effect (the answer would not change the French: "Je suis content" has no agreement with a
# gender of "I" when nothing agrees; a generic group; "it" standing for a clause or nothing),
# not-a-person (a thing, a place, an institution, a work asked about as a person), ill-formed (the
# question names the wrong word, a hidden placeholder, or offers invented options).
# Each question is judged alone against its text (and the context given with it, if any).
"""


def sample(args: argparse.Namespace) -> list[dict]:
    """(text, source) pairs drawn with the fixed seed, ``args.per_source`` from each source, taken
    in turn from each source so that a run stopped early is still a sample of every source; then
    ``args.more`` further texts of each source, drawn with the next seed from those not drawn yet, so that
    a larger sample keeps every text, and every question, of the smaller one."""
    rng, more_rng = random.Random(SEED), random.Random(SEED + 1)
    drawn, more = [], []
    for items in _sources(args):
        first = rng.sample(items, min(args.per_source, len(items)))
        rest = [item for item in items if item not in first]
        drawn.append(first)
        more.append(more_rng.sample(rest, min(args.more, len(rest))))
    return _in_turn(drawn) + _in_turn(more)


def _sources(args: argparse.Namespace) -> list[list[dict]]:
    """Each source's texts, as (text, source) pairs, in the order the sources are drawn from."""
    cocoa = dict.fromkeys(i.src for i in cocoa_items(args.data / "cocoa-mt", "fr"))
    gate = dict.fromkeys(i.src for i in gate_items(args.data / "gate", "fr"))
    sources = [[{"text": t, "source": "CoCoA-MT train en-fr (dev half)"} for t in cocoa],
               [{"text": t, "source": "GATE dev half, fr"} for t in gate]]
    for name in ("two_people_real", "expletive_it", "person_looking_things"):
        items = yaml.safe_load((TESTS_DATA / f"{name}.yaml").read_text(encoding="utf-8"))
        sources.append([{"text": i["text"], "source": f"tests/data/{name}.yaml ({i.get('source', '')})"}
                        for i in items])
    if args.po:
        ids = [e.msgid for e in polib.pofile(str(args.po)) if len(e.msgid.split()) >= 3 and not e.obsolete]
        sources.append([{"text": mask(t).text, "source": f"{args.po.name} msgid (placeholders masked)"} for t in ids])
    return sources


def _in_turn(drawn: list[list[dict]]) -> list[dict]:
    """One text of each source in turn."""
    return [item for turn in zip_longest(*drawn) for item in turn if item is not None]


def questions(assistant: Assistant, text: str) -> list[dict]:
    """Every question the chain asks about ``text`` into French, each skipped."""
    dialogue = assistant.start(text, "fr", options=ChainOptions(max_questions=MAX_QUESTIONS_LIMIT))
    asked = []
    while (turn := dialogue.ask_next()) is not None:
        asked.append({"type": turn.ambiguity, "span": turn.span, "question": turn.question,
                      "options": list(turn.options), "needed": None})
        dialogue.answer(None, "none")
    return asked


LABEL_KEYS = ("needed", "why")


def identity(question: dict) -> tuple:
    """What makes two recorded questions the same question for a labeller."""
    return (question["text"], question["type"], question["span"], question["question"], tuple(question["options"]))


def earlier_labels(path: Path | None) -> dict[tuple, dict]:
    """The labels of an earlier run's questions, by ``identity``."""
    if path is None:
        return {}
    labelled = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return {identity(q): {k: q[k] for k in LABEL_KEYS if k in q} for q in labelled if q.get("needed") is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="model spec (a .gguf path runs on llama.cpp)")
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--po", type=Path, help="a French gettext catalogue with English msgids")
    parser.add_argument("--per-source", type=int, default=25)
    parser.add_argument("--more", type=int, default=0,
                        help="further texts per source, drawn after the first sample, which they leave as it is")
    parser.add_argument("--out", type=Path, default=TESTS_DATA / "asked_questions.yaml")
    parser.add_argument("--labels", type=Path, help="an earlier labelled file whose labels identical questions keep")
    args = parser.parse_args()
    labels = earlier_labels(args.labels)
    spec = ModelSpec.parse(args.model)
    assistant = Assistant.for_model(load_chat_model(spec, GenerationConfig(temperature=0.0, seed=0)), spec)
    revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=ROOT).stdout.strip()
    header = RULE + f"# Asked by {Path(args.model).name} at revision {revision}, seed {SEED}, up to " \
                    f"{args.per_source} texts per source, taken in turn from each source" \
                    + (f", then {args.more} more per source with seed {SEED + 1}" if args.more else "") + ".\n"
    if labels:
        header += f"# A question asked word for word as in {args.labels.name} (an earlier run) kept its label there.\n"
    args.out.write_text(header, encoding="utf-8")
    count = 0
    for item in sample(args):
        asked = [{**item, **question} for question in questions(assistant, item["text"])]
        for question in asked:
            question.update(labels.get(identity(question), {}))
        with args.out.open("a", encoding="utf-8") as out:  # written as it goes: a stopped run keeps its questions
            out.write(yaml.safe_dump(asked, allow_unicode=True, sort_keys=False, width=120) if asked else "")
        count += len(asked)
        print(f"{count} questions; {item['source']}: {[q['span'] for q in asked]}", flush=True)


if __name__ == "__main__":
    main()
