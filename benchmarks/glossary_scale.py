"""Glossary scale: translation latency with glossaries of 0, 100, 10,000 and 100,000 entries, side by side.

The real chain (real spaCy, real prompts, verify-and-repair, the terms checks) translates a few
English texts into French on a fake OpenAI-compatible model server (``tests/fake_openai.py``,
which answers at once), so what is measured is the product's own work: finding the glossary's
terms in the source and checking them in the translation. Each glossary's matcher is built once
before the texts (the one-time cost a glossary's creation pays, shown apart), and the sizes take turns
on every text. The glossaries are
English word pairs (distinct terms), each holding the terms the texts use; the fake model's reply holds
their translations. Target: the 100k
case within 2× of no glossary (median over the texts).

    python benchmarks/glossary_scale.py [--sizes 0 100 10000 100000] [--repeat 5]

Writes benchmarks/results/glossary_scale.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from assistant.backends import ModelSpec, load_chat_model  # noqa: E402
from assistant.chain import Assistant  # noqa: E402
from assistant.glossary import Glossary  # noqa: E402
from assistant.nlp.pipelines import english_pipeline  # noqa: E402
from assistant.transcript import Term  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402

TARGET = 2.0
# Each run fills in its own number: no run reads what the chain cached for an earlier one.
TEXTS = ["Close both bank accounts before the end of month {n} and keep the last statements.",
         "The invoices are attached to message {n}; please check the delivery dates on them.",
         "Our support team answers every ticket within {n} working days, holidays excepted.",
         "Send the signed contract to the legal department by Friday, with {n} copies to the office.",
         "Invoice {n} was paid from the wrong bank account; the support team has opened a ticket.",
         "The delivery date of order {n} moves by two working days because of the strike."]
TERMS = [Term("bank account", "compte bancaire"), Term("invoice", "facture"), Term("delivery date", "date de livraison"),
         Term("support team", "équipe d'assistance"), Term("ticket", "ticket"), Term("working day", "jour ouvré"),
         Term("contract", "contrat"), Term("legal department", "service juridique")]

# The fake model's one reply: it holds every term's translation, so the terms checks pass and no glossary
# adds repairs (more model calls) to the times.
REPLY = ("Fermez le compte bancaire : la facture, la date de livraison, l'équipe d'assistance, le ticket, "
         "le jour ouvré, le contrat, le service juridique.")


def glossary(size: int) -> Glossary | None:
    """``size`` entries: the texts' terms, then distinct pairs of English words (seeded)."""
    if size == 0:
        return None
    words = sorted({w for w in english_pipeline().vocab.strings if w.isalpha() and w.islower() and len(w) > 3})
    rng = random.Random(1)
    entries, seen = list(TERMS[:size]), {term.source for term in TERMS}
    while len(entries) < size:
        source = f"{rng.choice(words)} {rng.choice(words)}"
        if source not in seen:
            seen.add(source)
            entries.append(Term(source, source.upper()))
    return Glossary(entries, target_lang="fr")


def built(size: int) -> tuple[Glossary | None, float]:
    """The glossary of ``size`` entries with its matcher built, and the seconds the build took."""
    made = glossary(size)
    started = time.perf_counter()
    if made is not None:
        made.prepare()
    return made, time.perf_counter() - started


def measure(assistant: Assistant, sizes: list[int], repeat: int) -> list[dict]:
    """Per size: the build time, and the median over the texts of each text's median translation time.
    The sizes take turns on every text, so that a change in the machine's load touches them all alike."""
    glossaries = {}
    for size in sizes:
        glossaries[size] = built(size)
        print(f"{size:>7} entries: matcher built in {glossaries[size][1]:.1f} s", flush=True)
    times: dict[int, dict[str, list[float]]] = {size: {text: [] for text in TEXTS} for size in sizes}
    terms = dict.fromkeys(sizes, 0)
    for run in range(repeat):
        for text in TEXTS:
            for size in sizes:
                started = time.perf_counter()
                transcript = assistant.run(text.format(n=f"{run}{size}"), "fr", glossary=glossaries[size][0])
                times[size][text].append(time.perf_counter() - started)
                terms[size] += len(transcript.terms) if run == 0 else 0
    return [{"size": size, "build_s": glossaries[size][1], "terms": terms[size],
             "median_s": statistics.median(statistics.median(runs) for runs in times[size].values())}
            for size in sizes]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 100, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5, help="runs per text (their median counts)")
    args = parser.parse_args()
    with FakeOpenAIServer(reply=REPLY) as fake:
        spec = ModelSpec.parse(f"openai:{fake.url}#fake")
        os.environ.setdefault("OPENAI_API_KEY", "EMPTY")
        assistant = Assistant.for_model(load_chat_model(spec), spec)
        assistant.run(TEXTS[0].format(n=1), "fr", glossary=glossary(len(TERMS)))  # warm: spaCy's pipelines load once, before any timing
        rows = measure(assistant, args.sizes, args.repeat)
    baseline = next((row["median_s"] for row in rows if row["size"] == 0), rows[0]["median_s"])
    for row in rows:
        row["ratio"] = row["median_s"] / baseline
        print(f"{row['size']:>7} entries: median {row['median_s'] * 1000:7.1f} ms ({row['ratio']:.2f}×), "
              f"terms found {row['terms']}")
    write_report(rows, args)
    largest = rows[-1]
    print(f"{largest['size']} entries: {largest['ratio']:.2f}× no glossary (target within {TARGET:g}×)")
    return 0 if largest["ratio"] <= TARGET else 1


def write_report(rows: list[dict], args: argparse.Namespace) -> None:
    command = "python benchmarks/glossary_scale.py " + " ".join(
        ["--sizes", *map(str, args.sizes), "--repeat", str(args.repeat)])
    lines = [
        "# Glossary scale: translation latency against the glossary's size",
        "",
        f"`{command}` on {date.today().isoformat()}: {os.cpu_count()} CPU cores ({platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end). The real chain "
        f"(real spaCy, verify-and-repair, the terms checks) into French on the fake OpenAI-compatible server "
        f"(`tests/fake_openai.py`, answering at once); median over {len(TEXTS)} texts of each text's median of "
        f"{args.repeat} runs (the sizes take turns on each text). *Build* is the one-time cost of a glossary's term matcher (its creation pays it, "
        "not a translation). *Terms* counts the glossary terms found in the texts.",
        "",
        "| entries | build (s) | median latency (ms) | × no glossary | terms |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(f"| {row['size']:,} | {row['build_s']:.1f} | {row['median_s'] * 1000:.1f} | "
                     f"{row['ratio']:.2f} | {row['terms']} |")
    lines += ["", f"Target: the largest glossary within {TARGET:g}× of no glossary."]
    out = HERE / "results" / "glossary_scale.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    raise SystemExit(main())
