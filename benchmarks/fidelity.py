"""Measure the fidelity check (``assistant.fidelity``): additions and omissions, sentence by sentence.

    python benchmarks/fidelity.py [--data DIR] [--every N] [--out benchmarks/results/fidelity.md]
    python benchmarks/fidelity.py --translate-reminders GGUF   # once: the model's translations of the reminders
    python benchmarks/fidelity.py --model GGUF --limit 20      # also: clarified translations by a real model

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
Each is measured with the sentence encoder and with the word fallback (the encoder absent).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.ambiguity import get_type  # noqa: E402
from assistant.fidelity import compare, source_pieces, translation_pieces, without_pieces  # noqa: E402
from assistant.steps import _reminders, clarifications  # noqa: E402
from assistant.transcript import Transcript, Turn  # noqa: E402
from tests.dev_sets import cocoa_items  # noqa: E402

LANGS = ("fr", "de", "es")
REMINDERS = ROOT / "benchmarks" / "fidelity_reminders.yaml"
# The reminder lines a prompt may carry, by (check, label): the ones the chain adds after an answer.
REMINDER_KEYS = (("formality", "formal"), ("formality", "informal"), ("formality", "several"),
                 ("person_gender", "masculine"), ("person_gender", "feminine"))


def translate_reminders(model_path: str) -> None:
    """Write the model's plain translation of every reminder line, per language."""
    from assistant.backends import ModelSpec, load_chat_model
    from assistant.steps import ModelSteps

    steps = ModelSteps(load_chat_model(ModelSpec.parse(f"llamacpp:{model_path}")))
    table = _reminders()
    out = {"model": Path(model_path).name, "translations": {}}
    for lang in LANGS:
        out["translations"][lang] = {
            f"{check}.{label}": steps.translate(Transcript(table[check][label][lang], lang, "no-extra", "m"))
            for check, label in REMINDER_KEYS}
    header = ("# The product's plain translation step (prompts/translate.yaml) on each reminder line of\n"
              "# prompts/reminders.yaml, by the model named below: python benchmarks/fidelity.py --translate-reminders GGUF.\n")
    REMINDERS.write_text(header + yaml.safe_dump(out, allow_unicode=True, sort_keys=False, width=200), encoding="utf-8")


def prompt_lines(item, reminder: tuple[str, str]) -> list[str]:
    """The lines the chain puts in the prompt after the formality answer, plus ``reminder``'s line."""
    kind = get_type("formality")
    turn = Turn(ambiguity="formality", span="you", question=kind.fixed_question("you", item.lang),
                answer=item.attributes["formality"], answered_by="oracle")
    lines = clarifications(Transcript(item.src, item.lang, "interactive", "m"), [turn])
    check, label = reminder
    return lines + [line for line in [_reminders()[check][label][item.lang]] if line not in lines]


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
            extra = translated[lang][".".join(reminder)]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--every", type=int, default=2, help="every N-th source of CoCoA-MT train (2: the dev half)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "fidelity.md")
    parser.add_argument("--translate-reminders", metavar="GGUF", help="write fidelity_reminders.yaml with this model")
    args = parser.parse_args()
    if args.translate_reminders:
        translate_reminders(args.translate_reminders)
        return
    start = time.perf_counter()
    rows, misses = [], []
    for use_encoder in (True, False):
        r, m = measure(args.data, args.every, use_encoder)
        rows += r
        misses += m
    model = yaml.safe_load(REMINDERS.read_text(encoding="utf-8"))["model"]
    text = ("# Fidelity check: additions and omissions on CoCoA-MT train's dev references\n\n"
            f"`python benchmarks/fidelity.py --every {args.every}` ({time.perf_counter() - start:.0f} s). "
            "Sets and rules: the script's docstring. Appended lines: the reminders as translated by "
            f"{model}.\n\n"
            "| lang | signal | references | references flagged (false positives) | appended reminder caught | "
            "caught and nothing else | last sentence dropped, caught |\n|---|---|---|---|---|---|---|\n"
            + "\n".join(rows) + "\n\n## Every false positive and missed addition\n\n" + "\n".join(misses) + "\n")
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
