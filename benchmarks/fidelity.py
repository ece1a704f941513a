"""Measure the fidelity check (``assistant.fidelity``): additions and omissions, sentence by sentence.

    python benchmarks/fidelity.py [--data DIR] [--every N] [--out benchmarks/results/fidelity.md]
    python benchmarks/fidelity.py --translate-reminders GGUF   # once: the model's translations of the reminders
    python benchmarks/fidelity.py --model GGUF --limit 34      # instead: clarified translations by a real model

Sets, built mechanically before the check was tuned, from CoCoA-MT train's dev half (every ``--every``-th
English source, fr/de/es, both professional references of each):
- references: each human reference as it is, with the prompt lines the chain would have sent for its
  formality label (the question, the answer, the reminder). Rule: a reference is faithful; any finding
  is a false positive.
- additions: each reference followed by the model's own translation of a reminder line that was in
  that prompt (``fidelity_reminders.yaml``, written by ``--translate-reminders``: the product's plain
  translation step on each line of ``prompts/reminders.yaml``; the reminder is chosen by the item's
  index). Rule: the appended sentence must be found as added, and nothing else.
- omissions: each reference of a source of two or more sentences, without its last sentence. Rule:
  an omission must be found.
Each is measured with the sentence encoder and with the word fallback (the encoder absent). And GATE's
dev half (every ``--every``-th source, fr/es, its feminine and its masculine reference), each reference
with the lines the chain sends after its person's gold gender is answered. Rule: any finding is a false
positive.

With ``--model``, the chain itself translates the first ``--limit`` sources of each language's dev half
(each with its formal and its informal item: the oracle answers the register question), greedy, and
each translation is read twice, as the model drafted it and as the chain delivered it, by the same
rule (independent of the check's own condition that the output has more sentences than the source):
a sentence whose best encoder similarity to any source sentence or pair of neighbours is below
``NO_COUNTERPART_MAX`` matches no source sentence; one closer to a prompt line than to the source (at
least ``ECHO_MIN``) restates the prompt, and so does such a clause of a sentence past its first (« …, qui
est une femme »). The register of the delivered translation is read by the
product's reader against the answer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.ambiguity import AmbiguityType, ambiguity_types, get_type  # noqa: E402
from assistant.checks import read_formality, without_markup  # noqa: E402
from assistant.fidelity import (ECHO_MIN, NO_COUNTERPART_MAX, closeness, compare, echoed_clauses,  # noqa: E402
                                source_pieces, translation_pieces, without_pieces)
from assistant.steps import clarifications  # noqa: E402
from assistant.transcript import Transcript, Turn  # noqa: E402
from tests.dev_sets import cocoa_items, gate_items  # noqa: E402

LANGS = ("fr", "de", "es")
REMINDERS = ROOT / "benchmarks" / "fidelity_reminders.yaml"
RESULTS = ROOT / "benchmarks" / "results"


def reminder_keys() -> tuple[tuple[AmbiguityType, str], ...]:
    """The reminder lines a prompt may carry, the ones the chain adds after an answer: (type, label)
    for every label of the first type of each checker that has reminders (the types a checker
    verifies share its reminders)."""
    first: dict[str, AmbiguityType] = {}
    for kind in ambiguity_types().values():
        if kind.check and kind.reminders.by_label:
            first.setdefault(kind.check, kind)
    return tuple((kind, label) for kind in first.values() for label in kind.reminders.by_label)


def reminder_key(kind: AmbiguityType, label: str) -> str:
    """A reminder's key in ``fidelity_reminders.yaml``: its checker and its label, joined by a dot."""
    return f"{kind.check}.{label}"


REMINDER_KEYS = reminder_keys()


def translate_reminders(model_path: str) -> None:
    """Write the model's plain translation of every reminder line, per language."""
    from assistant.backends import ModelSpec, load_chat_model
    from assistant.steps import ModelSteps

    steps = ModelSteps(load_chat_model(ModelSpec.parse(f"llamacpp:{model_path}")))
    out = {"model": Path(model_path).name, "translations": {}}
    for lang in LANGS:
        out["translations"][lang] = {
            reminder_key(kind, label): steps.translate(Transcript(kind.reminder(label, lang), lang, "no-extra", "m"))
            for kind, label in REMINDER_KEYS}
    header = ("# The product's plain translation step (prompts/translate.yaml) on each reminder line of\n"
              "# prompts/reminders.yaml, by the model named below: python benchmarks/fidelity.py --translate-reminders GGUF.\n")
    REMINDERS.write_text(header + yaml.safe_dump(out, allow_unicode=True, sort_keys=False, width=200), encoding="utf-8")


def answered_lines(item, span: str) -> list[str]:
    """The lines the chain puts in the prompt after the oracle answers the item's question about
    ``span`` from its gold label (a register; a person's gender)."""
    kind = get_type(item.ambiguity)
    turn = Turn(ambiguity=item.ambiguity, span=span, question=kind.fixed_question(span, item.lang),
                answer=kind.oracle_answer(item.attributes), answered_by="oracle")
    return clarifications(Transcript(item.src, item.lang, "interactive", "m"), [turn])


def prompt_lines(item, reminder: tuple[AmbiguityType, str]) -> list[str]:
    """The lines the chain puts in the prompt after the answer to the item's question about "you"
    (its gold register), plus ``reminder``'s line."""
    lines = answered_lines(item, "you")
    reminded, label = reminder
    return lines + [line for line in [reminded.reminder(label, item.lang)] if line not in lines]


def gate_flagged(data: Path, every: int) -> tuple[list[str], list[str]]:
    """Rows of GATE's dev-half references (fr, es; both genders of every ``every``-th source), each read
    against the lines the chain writes after its gold gender is answered for the item's person: any
    sentence or clause flagged is a false positive (a reference translates its source, and states no
    answer)."""
    rows, misses = [], []
    for lang in ("fr", "es"):
        items = gate_items(data / "gate", lang, every)
        flagged = 0
        for item in items:
            lines = answered_lines(item, item.attributes["kw_s"].split("=")[0].strip("[]"))
            found = compare(item.src, item.refs[0], lang, lines, use_encoder=True)
            if found.added or found.omitted:
                flagged += 1
                misses.append(f"- false positive (GATE, encoder), {lang}: {item.src!r} → {item.refs[0]!r}: "
                              f"{found.check().observed}")
        rows.append(f"| {lang} | {len(items)} | {flagged} ({flagged / max(len(items), 1):.1%}) |")
    return rows, misses


def measure(data: Path, every: int, use_encoder: bool) -> tuple[list[str], list[str]]:
    translated = yaml.safe_load(REMINDERS.read_text(encoding="utf-8"))["translations"]
    rows, misses = [], []
    for lang in LANGS:
        items = cocoa_items(data / "cocoa-mt", lang, every)
        flagged = caught = exact = omission_items = omission_caught = 0
        for i, item in enumerate(items):
            reminder = REMINDER_KEYS[i % len(REMINDER_KEYS)]
            lines = prompt_lines(item, reminder)
            ref = item.refs[0]
            found = compare(item.src, ref, lang, lines, use_encoder=use_encoder)
            if found.added or found.omitted:
                flagged += 1
                misses.append(f"- false positive ({'encoder' if use_encoder else 'words'}), {lang}: {item.src!r} → {ref!r}: {found.check().observed}")
            extra = translated[lang][reminder_key(*reminder)]
            found = compare(item.src, f"{ref} {extra}", lang, lines, use_encoder=use_encoder)
            hit = any(p.text == extra.strip() for p in found.added)
            caught += hit
            exact += [p.text for p in found.added] == [extra.strip()] and not found.omitted
            if not hit:
                misses.append(f"- addition missed ({'encoder' if use_encoder else 'words'}), {lang}: {extra!r} after {ref!r}")
            pieces = translation_pieces(ref, lang)
            if use_encoder and len(source_pieces(item.src)) >= 2 and len(pieces) >= 2:
                omission_items += 1
                shorter = without_pieces(ref, (pieces[-1],))
                omission_caught += bool(compare(item.src, shorter, lang, lines, use_encoder=True).omitted)
        n = len(items)
        rows.append(f"| {lang} | {'encoder' if use_encoder else 'words'} | {n} | {flagged} ({flagged / n:.1%}) | "
                    f"{caught}/{n} ({caught / n:.1%}) | {exact}/{n} | "
                    + (f"{omission_caught}/{omission_items} ({omission_caught / max(omission_items, 1):.1%}) |"
                       if use_encoder else "– |"))
    return rows, misses


def unmatched(source: str, translation: str, lang: str, prompt_lines: list[str]) -> tuple[list[str], list[str]]:
    """(sentences matching no source sentence, sentences restating a prompt line) of ``translation``:
    the check's own similarities, read without its condition on the count of sentences."""
    sources = [p for p in source_pieces(source) if without_markup(p.text)]
    outputs = [p for p in translation_pieces(translation, lang) if without_markup(p.text)]
    if not sources or not outputs:
        return [], []
    near = closeness(sources, outputs, prompt_lines)
    echoes = [o for o, s, e in zip(outputs, near.to_source, near.to_prompt) if e >= ECHO_MIN and e > s]
    return ([o.text for o, s in zip(outputs, near.to_source) if s < NO_COUNTERPART_MAX],
            [o.text for o in echoes] + [c.text for c in echoed_clauses(outputs, near, tuple(echoes))])


def model_run(data: Path, every: int, model_path: str, limit: int) -> str:
    """Clarified translations by the chain on ``model_path``: what the drafts and the delivered
    translations add, and whether the delivered ones keep the register answered."""
    from assistant.backends import GenerationConfig, ModelSpec, load_chat_model
    from assistant.chain import Assistant
    from assistant.usage import total
    from assistant.users import OracleUser

    spec = ModelSpec.parse(f"llamacpp:{model_path}")
    assistant = Assistant.for_model(load_chat_model(spec, GenerationConfig(temperature=0.0, seed=0)), spec)
    rows, found = [], []
    totals = {"n": 0, "draft": 0, "draft_echo": 0, "delivered": 0, "delivered_echo": 0}
    for lang in LANGS:
        sources = list(dict.fromkeys(i.src for i in cocoa_items(data / "cocoa-mt", lang, every)))[:limit]
        items = [i for i in cocoa_items(data / "cocoa-mt", lang, every) if i.src in sources]
        counts = {"n": 0, "draft": 0, "draft_echo": 0, "delivered": 0, "delivered_echo": 0, "agree": 0, "read": 0,
                  "calls": 0}
        for item in items:
            attribute = get_type(item.ambiguity).gold
            gold = item.attributes[attribute]
            dialogue = assistant.start(item.src, lang)
            draft = "".join(step.text for step in dialogue.drive(OracleUser({attribute: gold}))
                            if step.kind == "token")
            t = dialogue.transcript
            lines = clarifications(t, t.turns)
            counts["n"] += 1
            counts["calls"] += total(t.usage.values()).calls
            for name, text in (("draft", draft), ("delivered", t.translation or "")):
                extra, echo = unmatched(item.src, text, lang, lines)
                counts[name] += bool(extra)
                counts[f"{name}_echo"] += bool(echo)
                found += [f"- {name}, {lang} ({gold}): {s!r} in {text!r} (source {item.src!r})" for s in extra]
            reading = read_formality(t.translation or "", lang)
            counts["read"] += reading is not None
            counts["agree"] += reading == gold
        for key in totals:
            totals[key] += counts[key]
        n = counts["n"]
        rows.append(f"| {lang} | {n} | {counts['draft']} | {counts['draft_echo']} | {counts['delivered']} | "
                    f"{counts['delivered_echo']} | {counts['agree']}/{counts['read']} | {counts['read']}/{n} | "
                    f"{counts['calls'] / n:.2f} |")
    rows.append(f"| all | {totals['n']} | {totals['draft']} | {totals['draft_echo']} | {totals['delivered']} | "
                f"{totals['delivered_echo']} | | | |")
    return ("| lang | translations | drafts with a sentence matching no source sentence | drafts restating the "
            "prompt | delivered with a sentence matching no source sentence | delivered restating the prompt | "
            "register as answered, where read | register read | model calls per translation |\n"
            "|---|---|---|---|---|---|---|---|---|\n" + "\n".join(rows)
            + "\n\n## Every sentence matching no source sentence\n\n" + ("\n".join(found) or "none") + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--every", type=int, default=2, help="every N-th source of CoCoA-MT train (2: the dev half)")
    parser.add_argument("--out", type=Path, help="default: benchmarks/results/fidelity.md, with --model "
                        "benchmarks/results/fidelity-MODEL.md")
    parser.add_argument("--translate-reminders", metavar="GGUF", help="write fidelity_reminders.yaml with this model")
    parser.add_argument("--model", metavar="GGUF", help="instead, measure the chain's clarified translations by this model")
    parser.add_argument("--limit", type=int, default=34, help="with --model: sources per language (each twice)")
    args = parser.parse_args()
    if args.translate_reminders:
        translate_reminders(args.translate_reminders)
        return
    start = time.perf_counter()
    if args.model:
        table = model_run(args.data, args.every, args.model, args.limit)
        text = (f"# Fidelity of the chain's clarified translations: {Path(args.model).name}\n\n"
                f"`python benchmarks/fidelity.py --model {Path(args.model).name} --limit {args.limit} --every "
                f"{args.every}` ({time.perf_counter() - start:.0f} s): the first {args.limit} sources of CoCoA-MT "
                "train's dev half per language, each as its formal and its informal item, the oracle answering "
                "the register question; llama.cpp, greedy (temperature 0, seed 0). Rules: the script's docstring. "
                "A test model's translations check the plumbing; they say nothing of translation quality.\n\n"
                + table)
        (args.out or RESULTS / f"fidelity-{Path(args.model).stem}.md").write_text(text, encoding="utf-8")
        print(text)
        return
    rows, misses = [], []
    for use_encoder in (True, False):
        r, m = measure(args.data, args.every, use_encoder)
        rows += r
        misses += m
    gate_rows, gate_misses = gate_flagged(args.data, args.every)
    model = yaml.safe_load(REMINDERS.read_text(encoding="utf-8"))["model"]
    text = ("# Fidelity check: additions and omissions on CoCoA-MT train's and GATE's dev references\n\n"
            f"`python benchmarks/fidelity.py --every {args.every}` ({time.perf_counter() - start:.0f} s). "
            "Sets and rules: the script's docstring. Appended lines: the reminders as translated by "
            f"{model}.\n\n"
            "| lang | signal | references | references flagged (false positives) | appended reminder caught | "
            "caught and nothing else | last sentence dropped, caught |\n|---|---|---|---|---|---|---|\n"
            + "\n".join(rows) + "\n\nGATE's references, the person's gender answered (the chain's lines for the "
            "answer beside each; a sentence or a clause flagged is a false positive):\n\n"
            "| lang | references | flagged (false positives) |\n|---|---|---|\n" + "\n".join(gate_rows)
            + "\n\n## Every false positive and missed addition\n\n" + "\n".join(misses + gate_misses) + "\n")
    (args.out or RESULTS / "fidelity.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
