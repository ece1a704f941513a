"""A file's throughput on a CPU: the file path against sentence-by-sentence, side by side in one run.

    python benchmarks/file_throughput.py [--model FILE.gguf] [--file tests/data/formats/django_accounts.po] \\
        [--answers benchmarks/file_throughput_answers.yaml] [--to fr] [--out benchmarks/results/file-throughput.md]

The same file, the same model (llama.cpp, loaded once) and the same answers, two ways:

- **file**: the file's question sheet is read and answered from the answers file (``--answers-file``),
  then the file is translated as ``intercpt translate --file`` does: each distinct segment once, its
  questions taken from the sheet;
- **sentence**: each segment through the chain on its own, as ``intercpt translate TEXT`` would, a person
  answering each question it asks from the same answers file.

Before each way the model's prompt-state cache is emptied and warmed with the same two texts, so
neither way finds the other's prompts cached. A LangChain callback on the model counts every call and
the tokens it reports (prompt tokens, those computed rather than restored from llama.cpp's cache, and
generated tokens). It prints segments/minute for each way, their ratio and calls and tokens per segment,
and writes them to ``--out``. The small test models' translations prove the path works; their quality
is not measured here.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT / "tests" / "data" / "formats" / "django_accounts.po"
DEFAULT_ANSWERS = Path(__file__).resolve().parent / "file_throughput_answers.yaml"
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "file-throughput.md"


@dataclass
class Way:
    """One way through the file: its wall time, the segments and the model's usage (``assistant.usage``)."""

    name: str
    seconds: float
    segments: int
    usage: object
    translations: list[str]

    @property
    def per_minute(self) -> float:
        return 60 * self.segments / self.seconds

    def per_segment(self, field: str) -> float:
        return getattr(self.usage, field) / self.segments


class AnswersUser:
    """A person who answers each question as it comes from the answers file: the register for the target
    language, a person or a word by its words, "it" by the text."""

    name = "human"

    def __init__(self, profile, target_lang: str):
        self.profile, self.target_lang = profile, target_lang

    def answer(self, turn, source: str) -> str | None:
        from assistant.ambiguity import FOR_SESSION, get_type

        kind = get_type(turn.ambiguity)
        key = self.target_lang if kind.remember == FOR_SESSION else kind.memory_key(turn.span, True) or source
        return self.profile.get(kind.family, key)


def fresh_prompt_cache(target: str) -> None:
    """Empty the llama.cpp model's cache of prompt states (the next call computes its whole prompt)."""
    import llama_cpp

    from assistant.backends.llamacpp import STATE_CACHE_BYTES, load_engine, state_cache_for

    load_engine(target).llama.set_cache(state_cache_for(llama_cpp, STATE_CACHE_BYTES))


def measured(name: str, counter, run) -> Way:
    before = copy.copy(counter.total)
    start = time.perf_counter()
    translations = run()
    return Way(name, time.perf_counter() - start, len(translations), counter.total - before, translations)


def file_way(assistant, path: Path, profile, lang: str) -> list[str]:
    """The file path: the sheet answered from the answers file, then the file translated with its answers."""
    from assistant.document import DocumentTranslator, noted
    from assistant.formats import read_document, translate_document, translator_segments
    from assistant.sheet import prepared_sheet

    document = read_document(path)
    sheet = prepared_sheet(assistant.steps, translator_segments(document), lang, profile)
    record: list = []
    translate = DocumentTranslator(assistant, lang).segment_translator(sheet.user(profile), record,
                                                                       sheet.memory(profile), sheet)
    with tempfile.TemporaryDirectory() as folder:
        translate_document(document, Path(folder) / f"out{path.suffix}", noted(translate, record),
                           target_lang=lang, progress=False)
    return [t.translation or "" for t in record]


def sentence_way(assistant, segments: list[str], profile, lang: str) -> list[str]:
    """Sentence by sentence: each segment through the chain on its own, its questions answered as asked."""
    user = AnswersUser(profile, lang)
    return [assistant.run(segment, lang, user=user).translation or "" for segment in segments]


def report(ways: list[Way], model: Path, path: Path, distinct: int, threads: int, seed: int,
           load: tuple[float, float]) -> str:
    file, sentence = ways
    rows = [f"| {w.name} | {w.seconds:.1f} | {w.per_minute:.1f} | {w.per_segment('calls'):.2f} "
            f"| {w.per_segment('input_tokens'):.0f} | {w.per_segment('evaluated_tokens'):.0f} "
            f"| {w.per_segment('output_tokens'):.1f} |" for w in ways]
    same = sum(a == b for a, b in zip(file.translations, sentence.translations))
    work = [w.per_segment("evaluated_tokens") + w.per_segment("output_tokens") for w in ways]
    busy = "shared with other work (noisy)" if max(load) > 0.5 else "quiet"
    return "\n".join([
        "# File throughput: the file path against sentence-by-sentence",
        "",
        f"Model: `{model.name}` on llama.cpp (in process), {threads} threads; greedy decoding (the chain's "
        f"retries sample with its fixed seeds; backend seed {seed}). File: `{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}`, "
        f"{file.segments} segments ({distinct} distinct), into French, answered from "
        "`benchmarks/file_throughput_answers.yaml` both ways. "
        f"Machine: {os.cpu_count()} CPU cores ({platform.machine()}), {busy}: load average "
        f"{load[0]:.2f} before and {load[1]:.2f} after the run, per core.",
        "",
        "| way | seconds | segments/min | model calls/segment | prompt tokens/segment "
        "| prompt tokens computed/segment | output tokens/segment |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"The file path is **{file.per_minute / sentence.per_minute:.2f}×** the segments/minute of "
        f"sentence-by-sentence. Its time includes reading and answering the question sheet. "
        f"{same} of {file.segments} segments got the same translation both ways. The model's work per segment "
        f"(prompt tokens computed plus output tokens) is {work[0]:.0f} against {work[1]:.0f} "
        f"(**{work[1] / work[0]:.2f}×**): on a shared machine the wall-time ratio strays from it with the load.",
        "",
        "Prompt tokens computed are those llama.cpp did not restore from its prompt-state cache (the "
        "constant prefix of each prompt, cached after the warm-up). The small test model's translations "
        "only show that the paths run; their quality is not claimed.",
        "",
        "```bash",
        "python benchmarks/file_throughput.py --model qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        "```",
        ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=os.environ.get("INTERCPT_TEST_MODEL"),
                        help="a GGUF instruct model (default: $INTERCPT_TEST_MODEL)")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the file to translate")
    parser.add_argument("--answers", type=Path, default=DEFAULT_ANSWERS, help="the answers file (a project profile)")
    parser.add_argument("--to", default="fr", help="target language")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the results go (Markdown)")
    args = parser.parse_args()
    if args.model is None:
        parser.error("give --model or set INTERCPT_TEST_MODEL")

    from timing import warm

    from assistant.backends import GenerationConfig, ModelSpec, load_chat_model
    from assistant.backends.llamacpp import thread_count
    from assistant.chain import Assistant
    from assistant.formats import read_document, translator_segments
    from assistant.profile import load_profile
    from assistant.usage import UsageCounter

    spec = ModelSpec.parse(f"llamacpp:{args.model}")
    model, counter = load_chat_model(spec), UsageCounter()
    model.callbacks = [counter]
    profile = load_profile(args.answers)
    segments = translator_segments(read_document(args.file))
    load_before = os.getloadavg()[0] / os.cpu_count()

    def prepared() -> Assistant:
        """A fresh assistant (no readings remembered) on an emptied, warmed prompt cache."""
        fresh_prompt_cache(spec.target)
        warm(str(spec), args.to, model)
        return Assistant.for_model(model, spec)

    ways = []
    for name, way in (("file (sheet, then the file)", lambda a: file_way(a, args.file, profile, args.to)),
                      ("sentence by sentence", lambda a: sentence_way(a, segments, profile, args.to))):
        assistant = prepared()
        ways.append(measured(name, counter, lambda: way(assistant)))
        print(f"{name}: {ways[-1].per_minute:.1f} segments/min ({ways[-1].seconds:.0f} s)", file=sys.stderr)
    load = (load_before, os.getloadavg()[0] / os.cpu_count())
    text = report(ways, args.model, args.file.resolve(), len(set(segments)), thread_count(), GenerationConfig().seed,
                  load)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
