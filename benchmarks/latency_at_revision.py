"""The chain's interactive latency as an earlier revision had it: the "before" of a before/after.

Run by ``backends.py`` with the working directory and ``PYTHONPATH`` at a checkout of that
revision, so ``assistant`` is the old code. It speaks the question-by-question API the chain
had until the dialogue learned to drive itself (``start``, ``next_question``, ``answer``,
``finish``), which is the API of the pinned revision; it prints one JSON object. GOLD, the warm-up
oracle's labels as a JSON object, comes from the caller (``timing.warm_up_gold``): this checkout's
table names them, the old code only answers from them.

    PYTHONPATH=<checkout> python latency_at_revision.py SPEC LANG GOLD SENTENCE...
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "median": None, "p90": None}
    return {"n": len(values), "median": round(float(np.median(values)), 3),
            "p90": round(float(np.percentile(values, 90)), 3)}


def main(spec: str, target_lang: str, gold: dict[str, str], sentences: list[str]) -> dict:
    from assistant.backends import load_chat_model
    from assistant.core import Assistant
    from assistant.users import OracleUser

    model = load_chat_model(spec)
    assistant = Assistant.for_model(model, spec)
    for text in ("Are you ready?", "Can you help me?"):  # warm, as timing.warm does after
        assistant.run(text, target_lang, user=OracleUser(gold))
    to_question, to_translation, asked = [], [], 0
    for sentence in sentences:
        started = time.perf_counter()
        dialogue = assistant.start(sentence, target_lang)
        turn = dialogue.next_question()  # the pinned revision's name
        if turn is not None:
            to_question.append(time.perf_counter() - started)
            asked += 1
        while turn is not None:  # a person who clicks the first option at once
            dialogue.answer(turn.options[0] if turn.options else "yes", "human")
            turn = dialogue.next_question()  # the pinned revision's name
        dialogue.finish()
        to_translation.append(time.perf_counter() - started)
    return {"sentences": len(sentences), "asked": asked, "to_first_question_s": summary(to_question),
            "to_translation_s": summary(to_translation)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:])))
