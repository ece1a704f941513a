"""A new ambiguity type is one entry of the table (and its checker): it flows through the pre-pass,
the question, the oracle, the translation prompt (its reminder and its forbidden words), the check
(read with its checker's own answer labels), the repair and the reports with no other change."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from assistant import ambiguity
from assistant.ambiguity import ambiguity_types, get_type, parse_table, word_key
from assistant.chain import Assistant
from assistant.checks import CHECKERS, AnswerLabels, Checker, Wording, register_checker
from assistant.detection import Candidate, find_candidates
from assistant.dialogue import PreferenceMemory
from assistant.errors import InputError
from assistant.explain import explain
from assistant.nlp.target_gender import Reading
from assistant.transcript import Turn
from assistant.users import OracleUser, make_user
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
    # its own reminder and forbidden words, in the entry (no section of the prompt tables)
    "reminders": {"plural": {"fr": "Several animals are meant: use the plural (les, des) and plural verbs."}},
    "forbidden": {"plural": {"fr": ["un", "une"]}},
}
REMINDER = TOY["reminders"]["plural"]["fr"]
# The toy checker's own answer vocabulary: no other checker reads "several" as "plural".
NUMBER_ANSWERS = AnswerLabels("number", (("plural", re.compile(r"\b(?:several|many)\b", re.IGNORECASE)),
                                         ("singular", re.compile(r"\b(?:one|single)\b", re.IGNORECASE))))
NUMBER_WORDING = Wording({"plural": "several", "singular": "one"}, "{about} reads as {want}: {words}",
                         "{about} should read as {want}, but {words} {reads} as {got}",
                         "whether {about} reads as {want}", "the number of “{about}”")
SOURCE = "The deer are in the field."
SINGULAR, PLURAL = "Le cerf est dans le champ.", "Les cerfs sont dans le champ."


def number_reading(text: str, lang: str) -> Reading:
    """The toy checker: French plural articles, else singular ones, with the words read."""
    for label, articles in (("plural", r"les|des"), ("singular", r"le|la|un|une")):
        found = re.findall(rf"\b(?:{articles})\b", text, re.IGNORECASE)
        if found:
            return Reading(label, tuple(found))
    return Reading(None)


def read_number(text: str, lang: str) -> str | None:
    return number_reading(text, lang).label


@pytest.fixture
def toy_type(tmp_path, monkeypatch):
    table = yaml.safe_load(ambiguity.table_path().read_text(encoding="utf-8"))
    path = tmp_path / "ambiguities.yaml"
    path.write_text(yaml.safe_dump({**table, "number": TOY}, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(ambiguity, "table_path", lambda: path)
    ambiguity_types.cache_clear()
    register_checker(Checker("toy_number", ("singular", "plural"), "n", read_number, NUMBER_ANSWERS,
                             explain=number_reading, wording=NUMBER_WORDING))
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


def test_the_answer_reaches_the_prompt_the_checker_the_repair_and_the_account(toy_type):
    """The answer is read with the toy checker's own labels ("several": plural); its type's reminder
    goes into the translation prompt and its forbidden words into the decoding; the checker reads the
    draft, finds it singular and a repair is told so, with the reminder, and still forbids the words;
    the account words the check as the checker says."""
    fake = StepFake(translate=[SINGULAR, PLURAL], calls=[])
    dialogue = Assistant(fake, "fake:m").start(SOURCE, "fr")
    steps = list(dialogue.drive(OracleUser({"number": "plural"})))
    transcript = dialogue.transcript
    translate, rewrite = [(m[-1].content, k) for step, m, k in fake.calls if step == "translate"]
    assert REMINDER in translate[0].splitlines()  # the type's reminder, not "Use the plural form."
    assert {"un", "une"} <= set(translate[1].bad_words)  # the type's forbidden words
    assert f"About “deer”: “Le”, “le” are singular. {REMINDER}" in rewrite[0]  # the repair, told what failed
    assert {"un", "une"} <= set(rewrite[1].bad_words)
    assert [s.text for s in steps if s.kind == "repairing"] == ["Fixing the number of “deer”, try 1 of 2"]
    assert transcript.translation == PLURAL
    check = next(c for c in transcript.checks if c.name == "toy_number")
    assert (check.expected, check.observed, check.status, check.about) == ("plural", "plural", "pass", "deer")
    assert "✓ deer reads as several: « Les »" in explain(transcript)
    assert "deer → several, because the gold label says: several" in explain(transcript)  # the option, as asked


def test_an_answer_the_toy_labels_do_not_read_asks_nothing_of_the_translation(toy_type):
    """"Not sure" is no label of the toy's: no reminder, no forbidden word, no check, no repair."""
    fake = StepFake(translate=[SINGULAR], calls=[])
    transcript = Assistant(fake, "fake:m").run(SOURCE, "fr", user=make_user("human", target_lang="fr",
                                                                             ask=lambda turn: "not sure"))
    assert transcript.turns[0].answer == "not sure"
    translate, = [(m[-1].content, k) for step, m, k in fake.calls if step == "translate"]
    assert REMINDER not in translate[0] and not translate[1].bad_words
    assert not any(c.name == "toy_number" for c in transcript.checks)


@pytest.mark.parametrize(("remember", "recalled"), [("session", ["several", "several"]),
                                                   ("word", ["several", None]), ("text", [None, None])])
def test_the_table_says_how_long_an_answer_holds_in_a_document(remember, recalled, tmp_path, monkeypatch):
    """Remembered for every word of the type, for the same word, or for its text only."""
    table = yaml.safe_load(ambiguity.table_path().read_text(encoding="utf-8"))
    path = tmp_path / "ambiguities.yaml"
    path.write_text(yaml.safe_dump({**table, "number": {**TOY, "remember": remember}}, allow_unicode=True),
                    encoding="utf-8")
    monkeypatch.setattr(ambiguity, "table_path", lambda: path)
    ambiguity_types.cache_clear()
    try:
        memory = PreferenceMemory(every_answer=True)
        memory.remember(Turn("number", "deer", "One deer or several?", ["one", "several"]), "several")
        found = [memory.recall(Candidate("number", word, 4)) for word in ("Deer", "moose")]
        assert [turn.answer if turn else None for turn in found] == recalled
    finally:
        monkeypatch.undo()
        ambiguity_types.cache_clear()


@pytest.mark.parametrize(("decided", "sure", "maybe_a_thing"), [
    ("always", True, True), ("never", False, False), ("unsure", False, True)])
def test_the_table_says_when_the_decide_call_reads_a_candidate(decided, sure, maybe_a_thing):
    toy = parse_table({"number": {**TOY, "decided": decided}}, {}, {})["number"]
    assert (toy.decided_for(False), toy.decided_for(True)) == (sure, maybe_a_thing)


def test_an_unknown_decided_value_is_refused():
    with pytest.raises(InputError, match="decided must be one of always, never, unsure"):
        parse_table({"number": {**TOY, "decided": False}}, {}, {})


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
    records = [json.loads(line) for line in (tmp_path / "run" / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    asked = [turn for record in records if record["method"] == "intercpt" for turn in record["transcript"]["turns"]]
    assert asked and all(turn["answered_by"] == "oracle" for turn in asked)
    checked = [check for record in records if record["method"] == "intercpt" for check in record["transcript"]["checks"]
               if check["name"] == "toy_number"]  # the checker verified the oracle's answer on every item
    assert len(checked) == 3 and all((c["expected"], c["status"]) == ("plural", "pass") for c in checked)


@pytest.mark.parametrize("spans, key", [
    (("A user", "the user", "Dear user", "at least one user", "User"), "user"),  # accounts_200.po's strings
    (("your user", "Your user"), "your user"),  # a possessive is another person: "my doctor", "your doctor"
    (("Johnny Mercer", "Mercer", "Mercer's"), "mercer"),
    (("Tom Hepker, a machinist", "Hepker"), "hepker"),  # a name with its apposition
    (("his close friend Robert Henri", "Henri"), "henri"),  # a name after its noun: the person's, whoever's friend
])
def test_an_answer_is_kept_under_the_head_word_after_its_possessive(spans, key):
    assert {word_key(span) for span in spans} == {key}
