"""Loading AmbigMT (with its quirks) and the generic JSONL format."""

import json
from pathlib import Path

import pytest

from assistant.ambiguity import ambiguity_types, get_type
from assistant.errors import InputError
from evaluation.data import LoadReport
from evaluation.loaders import DATA_SETS, ambigmt, cocoa_mt, gate, jsonl, load_items, resolve
from evaluation.loaders.ambigmt import AMBIGUITY_TYPES, gender_from_pronouns

# Rows per file in the dev half (from its data card).
DEV_ROWS = {
    ("formality", "de"): 504, ("formality", "es"): 467, ("formality", "fr"): 501,
    ("it_resolution", "de"): 490, ("it_resolution", "es"): 491, ("it_resolution", "fr"): 517,
    ("neutral_names", "de"): 474, ("neutral_names", "es"): 478, ("neutral_names", "fr"): 513,
    ("neutral_professions", "de"): 294, ("neutral_professions", "es"): 320,
    ("polysemy", "de"): 489, ("polysemy", "es"): 531, ("polysemy", "fr"): 516,
}


def test_all_fourteen_files_load_completely(dev_data, measure):
    report = LoadReport()
    items = ambigmt.load(dev_data, ("fr", "de", "es"), report, types=AMBIGUITY_TYPES)
    counts = {}
    for item in items:
        counts[(item.ambiguity, item.lang)] = counts.get((item.ambiguity, item.lang), 0) + 1
    assert counts == DEV_ROWS
    assert report.malformed == []
    assert len({item.id for item in items}) == len(items)
    measure(f"AmbigMT dev: {len(items)} items; gender not derivable for {report.gender_not_derived}")


def test_columns_are_read_by_meaning(dev_data):
    formality = ambigmt.load(dev_data, ["fr"], types=["formality"])[1]
    assert formality.src.startswith("And, you know, I knew")
    assert formality.refs[0].startswith("Mais je savais")
    assert formality.context.startswith("- She moved in with him.")
    assert formality.attributes == {"formality": "neutral"}
    profession = ambigmt.load(dev_data, ["de"], types=["neutral_professions"])[0]
    assert profession.src.startswith("[pr] heads the Edhi Foundation")
    assert profession.attributes == {"gender": "feminine"}
    polysemy = ambigmt.load(dev_data, ["fr"], types=["polysemy"])[0]
    assert (polysemy.src, polysemy.attributes["sense"]) == ("about", "au sujet de")
    it_es = [i for i in ambigmt.load(dev_data, ["es"], types=["it_resolution"]) if i.attributes]
    assert {i.attributes["gender"] for i in it_es} == {"masculine", "feminine"}


def test_gender_from_pronouns():
    assert gender_from_pronouns("She was born in 1947. Her award…") == "feminine"
    assert gender_from_pronouns("He said his piece.") == "masculine"
    assert gender_from_pronouns("They left. He and she stayed.") is None


def test_jsonl_rows_load_and_malformed_rows_are_reported(tmp_path):
    path = tmp_path / "set.jsonl"
    rows = [
        {"id": "a", "src": "Are you ready?", "ref": "Êtes-vous prêt ?", "lang": "fr", "type": "formality",
         "attributes": {"formality": "formal"}},
        "not json",
        {"src": "Hi", "refs": ["Salut", "Bonjour"], "lang": "fr"},
        {"src": "Missing lang", "ref": "x"},
        {"src": "Bad ref", "ref": 3, "lang": "fr"},
    ]
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    report = LoadReport()
    items = jsonl.load(path, None, report)
    assert [i.id for i in items] == ["a", "set-3"]
    assert items[1].refs == ["Salut", "Bonjour"]
    assert [m.split(":")[1] for m in report.malformed] == ["2", "4", "5"]


def test_unknown_type_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="unknown ambiguity type"):
        ambigmt.load(tmp_path, types=["sarcasm"])


def test_data_values_name_their_loader(dev_data, tmp_path, monkeypatch):
    sample = Path(__file__).resolve().parent.parent / "datasets" / "fixtures" / "sample.jsonl"
    assert resolve(f"ambigmt:{dev_data}") == (DATA_SETS["ambigmt"], dev_data)
    assert resolve(str(dev_data)) == (DATA_SETS["ambigmt"], dev_data)
    assert resolve(str(sample)) == (DATA_SETS["jsonl"], sample)
    monkeypatch.setenv("INTERCPT_AMBIGMT_DIR", str(dev_data))
    assert resolve("ambigmt")[0] is DATA_SETS["ambigmt"]
    with pytest.raises(InputError, match="no such folder"):
        resolve(f"gate:{tmp_path / 'missing'}")
    with pytest.raises(InputError, match="no such file or folder.*cocoa-mt:DIR"):
        resolve("nothing-here")
    report = LoadReport()
    items = load_items(f"ambigmt:{dev_data}", ("formality",), ("de",), report)
    assert {(i.ambiguity, i.lang) for i in items} == {("formality", "de")} and report.malformed == []
    assert [i.id for i in load_items(str(sample), None, ("de",), LoadReport())] == ["name-1"]


def test_gold_attributes_are_named_by_the_ambiguity_table(dev_data):
    for kind in AMBIGUITY_TYPES:
        items = [i for i in ambigmt.load(dev_data, ["es"], types=[kind]) if i.attributes]
        assert items and {tuple(i.attributes) for i in items} == {(get_type(kind).gold,)}


def test_the_data_layouts_name_types_of_the_ambiguity_table():
    """Which data holds which type is read from each data set's layout.yaml: every type it names is
    an entry of the table."""
    assert {*AMBIGUITY_TYPES, cocoa_mt.TYPE, gate.TYPE} <= set(ambiguity_types())
