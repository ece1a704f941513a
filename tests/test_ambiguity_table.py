"""A new ambiguity type is one entry of the table (and its checker): it flows through the pre-pass,
the question, the oracle, the translation prompt and the evaluator's report with no other change."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from assistant import ambiguity
from assistant.ambiguity import ambiguity_types, get_type
from assistant.chain import Assistant
from assistant.checks import CHECKERS, Checker, register_checker
from assistant.detection import find_candidates
from assistant.users import OracleUser
from evaluation.config import EvalConfig
from evaluation.runner import evaluate
from tests.fakes import StepFake

TOY = {
    "label": "whether the word means one or several",
    "languages": ["fr"],
    "family": "number",
    "detect": "lexicon_nouns",
    "options": {"default": ["one", "several"]},
    "question": "One {span} or several?",
    "check": "toy_number",
    "gold": "number",
    "oracle": {"singular": "one", "plural": "several"},
    "headline": "n_acc",
    "lexicon": ["deer", "moose"],
}


def read_number(text: str, lang: str) -> str | None:
    """The toy checker: French plural articles before a noun."""
    if re.search(r"\b(?:les|des)\b", text, re.IGNORECASE):
        return "plural"
    return "singular" if re.search(r"\b(?:le|la|un|une)\b", text, re.IGNORECASE) else None


@pytest.fixture
def toy_type(tmp_path, monkeypatch):
    table = yaml.safe_load(ambiguity.table_path().read_text(encoding="utf-8"))
    path = tmp_path / "ambiguities.yaml"
    path.write_text(yaml.safe_dump({**table, "number": TOY}, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(ambiguity, "table_path", lambda: path)
    ambiguity_types.cache_clear()
    register_checker(Checker("toy_number", ("singular", "plural"), "n", read_number, "number"))
    yield get_type("number")
    CHECKERS.pop("toy_number")
    monkeypatch.undo()
    ambiguity_types.cache_clear()


def test_the_new_type_is_found_asked_and_answered_by_the_oracle(toy_type):
    assert [(c.ambiguity, c.span) for c in find_candidates("The deer are in the field.", "fr")] == [("number", "deer")]
    assert find_candidates("The deer are in the field.", "de") == []  # the table says where it matters
    fake = StepFake(translate=["Les cerfs sont dans le champ."], calls=[])
    transcript = Assistant(fake, "fake:m").run("The deer are in the field.", "fr",
                                               user=OracleUser({"number": "plural"}))
    turn = transcript.turns[0]
    assert (turn.ambiguity, turn.question, turn.options) == ("number", "One deer or several?", ["one", "several"])
    assert (turn.answer, turn.answered_by) == ("several", "oracle")
    prompt = [m for step, m, _ in fake.calls if step == "translate"][0][-1].content
    assert "One deer or several? A: several" in prompt


def test_the_new_type_gets_its_own_table_in_the_report(toy_type, tmp_path):
    data = tmp_path / "toy.jsonl"
    rows = [{"id": f"deer-{i}", "src": "The deer are in the field.", "ref": "Les cerfs sont dans le champ.",
             "type": "number", "lang": "fr", "attributes": {"number": gold}} for i, gold in enumerate(["plural"] * 3)]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    fake = StepFake(translate=["Les cerfs sont dans le champ."], calls=[])
    summary = evaluate(EvalConfig(out=tmp_path / "run", data=str(data), langs=None, translator="transformers:fake",
                                  methods=("intercpt", "no-extra"), bootstrap=20),
                       progress=False, load_model=lambda spec: fake)
    rows = {row["method"]: row for row in summary["groups"] if row["type"] == "number"}
    assert rows["intercpt"]["scores"]["n_acc"]["value"] == 100.0 and "n_cov" in rows["intercpt"]["scores"]
    assert rows["intercpt"]["significance"]["baseline"] == "no-extra"  # ranked by the table's headline metric
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "## number" in report and "n_acc" in report
    record = json.loads((tmp_path / "run" / "items.jsonl").read_text(encoding="utf-8").splitlines()[0])
    asked = record["transcript"]["turns"] if record["method"] == "intercpt" else []
    assert all(turn["answered_by"] == "oracle" for turn in asked)
