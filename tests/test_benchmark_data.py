"""CoCoA-MT and GATE: their loaders (shared dev folders, tiny synthetic folders) and their own metrics
on hand-worked examples; the shape of the sets of real sentences shipped in tests/data."""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from assistant.errors import DataError
from evaluation.data import Item, LoadReport
from evaluation.loaders import cocoa_mt, gate
from evaluation.metrics.contrastive import (CocoaFormality, GateGender, classify_contrastive, classify_gate,
                                            marked_phrases)

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"
COCOA_DIR = Path(os.environ.get("INTERCPT_COCOA_MT_DIR", SHARED / "cocoa-mt"))
GATE_DIR = Path(os.environ.get("INTERCPT_GATE_DIR", SHARED / "gate"))


def _dev_folder(path: Path, variable: str) -> Path:
    if path.is_dir():
        return path
    message = f"dev data not found at {path}; set {variable}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def cocoa_dir() -> Path:
    return _dev_folder(COCOA_DIR, "INTERCPT_COCOA_MT_DIR")


@pytest.fixture(scope="module")
def gate_dir() -> Path:
    return _dev_folder(GATE_DIR, "INTERCPT_GATE_DIR")


def record(item: Item, translation: str) -> SimpleNamespace:
    """The two things the metrics read of a record."""
    return SimpleNamespace(item=item, translation=translation)


# ---- CoCoA-MT loader

def test_cocoa_dev_folder_gives_two_items_per_source(cocoa_dir, measure):
    report = LoadReport()
    items = cocoa_mt.load(cocoa_dir, ("fr", "de", "es", "ja"), report)
    assert report.malformed == []
    counts = Counter((i.lang, i.attributes["domain"]) for i in items)
    # 200 sources per domain (500 for en-ja), two items each
    assert counts == {(lang, domain): 400 for lang in ("de", "es", "fr") for domain in ("telephony", "topical_chat")} | {
        ("ja", "telephony"): 1000, ("ja", "topical_chat"): 1000}
    assert len({i.id for i in items}) == len(items)
    assert {i.attributes["split"] for i in items} == {"train"}  # the dev copy has no test split
    formal, informal = items[0], items[1]
    assert formal.src == informal.src and formal.ambiguity == informal.ambiguity == "formality"
    assert (formal.attributes["formality"], informal.attributes["formality"]) == ("formal", "informal")
    assert formal.id == "cocoa-mt-train-fr-telephony-1-formal"  # languages in the order asked for
    assert formal.refs[0].startswith("Je ne l'achèterais certainement jamais pour moi.")
    assert formal.attributes["formal_annotated"] == informal.attributes["formal_annotated"]
    ja = next(i for i in items if i.lang == "ja" and "[F]" in i.attributes["formal_annotated"])
    assert "[F]" not in ja.refs[0]
    measure(f"CoCoA-MT train (fr/de/es/ja): {len(items)} items")


def test_cocoa_every_pair_by_default_and_missing_pair_reported(cocoa_dir):
    report = LoadReport()
    langs = {i.lang for i in cocoa_mt.load(cocoa_dir / "CoCoA-MT", None, report)}  # the CoCoA-MT folder itself
    assert langs == {"de", "es", "fr", "hi", "it", "ja", "nl", "pt"}  # pt files are named en-ptpt
    cocoa_mt.load(cocoa_dir, ["xx"], report)
    assert report.malformed and "en-xx: not found" in report.malformed[-1]


def write_cocoa(root: Path, split: str, lang: str, domain: str, rows: dict[str, list[str]], suffix: bool) -> None:
    """A tiny CoCoA-MT pair folder, with (train style) or without (test style) language suffixes."""
    folder = root / "CoCoA-MT" / split / f"en-{lang}"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"formality-control.{split}.{domain}.en-{lang}"
    for key, lines in rows.items():
        name = (stem if key == "en" else f"{stem}.{key}") + (f".{'en' if key == 'en' else lang}" if suffix else "")
        (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


SYNTHETIC = {
    "en": ["Are you sure?", "Do you like it?"],
    "formal": ["Êtes-vous sûr ?", "Vous l'aimez ?"],
    "informal": ["Es-tu sûr ?", "Tu l'aimes ?"],
    "formal.annotated": ["[F]Êtes-vous[/F] sûr ?", "[F]Vous[/F] l'aimez ?"],
    "informal.annotated": ["[F]Es-tu[/F] sûr ?", "[F]Tu[/F] l'aimes ?"],
}


def test_cocoa_test_split_layout_is_preferred_and_named(tmp_path):
    write_cocoa(tmp_path, "train", "fr", "telephony", SYNTHETIC, suffix=True)
    write_cocoa(tmp_path, "test", "fr", "call_center", SYNTHETIC, suffix=False)
    items = cocoa_mt.load(tmp_path, ["fr"], LoadReport())
    assert [i.id for i in items][:2] == ["cocoa-mt-test-fr-call_center-1-formal", "cocoa-mt-test-fr-call_center-1-informal"]
    assert items[1].refs == ["Es-tu sûr ?"] and items[1].attributes["informal_annotated"] == "[F]Es-tu[/F] sûr ?"
    train = cocoa_mt.load(tmp_path, ["fr"], LoadReport(), split="train")
    assert {i.attributes["split"] for i in train} == {"train"} and len(train) == 4


def test_cocoa_malformed_rows_and_files_are_reported(tmp_path):
    rows = dict(SYNTHETIC, informal=["Es-tu sûr ?", ""])  # line 2 of the informal reference is empty
    write_cocoa(tmp_path, "test", "fr", "telephony", rows, suffix=False)
    write_cocoa(tmp_path, "test", "fr", "topical_chat", dict(SYNTHETIC, formal=["Êtes-vous sûr ?"]), suffix=False)
    report = LoadReport()
    items = cocoa_mt.load(tmp_path, ["fr"], report)
    assert [i.id for i in items] == ["cocoa-mt-test-fr-telephony-1-formal", "cocoa-mt-test-fr-telephony-1-informal"]
    assert any(m.endswith("telephony.en-fr.informal:2: empty segment; source skipped") for m in report.malformed)
    assert any("topical_chat.en-fr.formal: 1 lines, expected 2" in m for m in report.malformed)


@pytest.mark.parametrize("make", [
    lambda root: None,                                               # empty folder
    lambda root: (root / "data" / "ES").mkdir(parents=True),          # GATE's layout
    lambda root: (root / "CoCoA-MT" / "dev").mkdir(parents=True),     # no train/test split
])
def test_cocoa_wrong_layout_fails_fast_naming_the_expected_paths(tmp_path, make):
    make(tmp_path)
    start = time.perf_counter()
    with pytest.raises(DataError, match=r"CoCoA-MT/\{test,train\}/en-XX/formality-control\.SPLIT\.DOMAIN"):
        cocoa_mt.load(tmp_path, ["fr"], LoadReport())
    assert time.perf_counter() - start < 1


def test_cocoa_absent_split_is_an_error(tmp_path):
    write_cocoa(tmp_path, "train", "fr", "telephony", SYNTHETIC, suffix=True)
    with pytest.raises(DataError, match="no .*test/en-XX folders \\(splits present: train\\)"):
        cocoa_mt.load(tmp_path, ["fr"], LoadReport(), split="test")


# ---- GATE loader

def test_gate_dev_folder_counts_and_attributes(gate_dir, measure):
    report = LoadReport()
    items = gate.load(gate_dir, ("fr", "de", "es", "ja"), report)  # de/ja: not GATE languages, skipped silently
    assert report.malformed == []
    counts = Counter((i.lang, i.attributes["gender"]) for i in items)
    assert counts == {("es", "feminine"): 762, ("es", "masculine"): 762, ("fr", "feminine"): 769,
                      ("fr", "masculine"): 769}
    assert len({i.id for i in items}) == len(items)
    feminine = next(i for i in items if i.id == "gate-es-2v-2-f")
    assert feminine.ambiguity == "person_gender"
    assert feminine.refs[0].startswith("Pero mi hermano, que conoce mejor a la jefa")
    assert feminine.attributes == {
        "gender": "feminine", "genders": "feminine", "labels": "DOBJ;PROF;SUBJ;PROF;DFCL", "kw_s": "boss=boss",
        "kw_f": "a la [jefa]=la [jefa]", "kw_m": "al [jefe]=el [jefe]", "variants": "2", "dataset": "gate",
        "split": "dev"}
    assert Counter(i.attributes.get("split") for i in items if i.lang == "es") == {"dev": 752, "test": 772}
    assert len(gate.load(gate_dir, ["es"], LoadReport(), split="test")) == 772
    measure(f"GATE 2-variant dev copy (es/fr): {len(items)} items")


def test_gate_split_on_a_file_without_split_column_is_an_error(gate_dir):
    with pytest.raises(DataError, match="FR_2_variants.tsv has no data_split column"):
        gate.load(gate_dir, ["fr"], LoadReport(), split="dev")


HEADER_4 = ["labels", "source", "ff", "fm", "mf", "mm", "kw_s", "kw_f", "kw_m", "data_split"]


def write_gate(root: Path, lang: str, variants: int, rows: list[list[str]], header: list[str]) -> Path:
    path = root / "data" / lang.upper() / f"{lang.upper()}_{variants}_variants.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join("\t".join(row) + "\n" for row in [header, *rows]), encoding="utf-8")
    return path


def test_gate_four_variants_by_header_and_malformed_rows(tmp_path):
    good = ["SUBJ;PROF", "The boss met the doctor.", "La jefa conoció a la médica.", "La jefa conoció al médico.",
            "El jefe conoció a la médica.", "El jefe conoció al médico.", "boss;doctor", "la [jefa];la [médica]",
            "el [jefe];el [médico]", "test"]
    short = good[:5]
    one_entity = good[:7] + ["la [jefa]", "el [jefe]", "dev"]
    path = write_gate(tmp_path, "es", 4, [good, short, one_entity], HEADER_4)
    report = LoadReport()
    items = gate.load(tmp_path, ["es"], report)
    assert [i.id for i in items] == ["gate-es-4v-2-ff", "gate-es-4v-2-fm", "gate-es-4v-2-mf", "gate-es-4v-2-mm"]
    fm = items[1]
    assert fm.refs == ["La jefa conoció al médico."] and fm.attributes["genders"] == "feminine;masculine"
    assert "gender" not in fm.attributes  # people of both genders: no single answer for the oracle
    assert items[0].attributes["gender"] == "feminine" and items[3].attributes["gender"] == "masculine"
    assert report.malformed == [f"{path}:3: 5 fields, expected 10",
                                f"{path}:4: keywords for {{'kw_f': 1, 'kw_m': 1}} entities, expected 2 (';'-separated)"]


def test_gate_wrong_layout_fails_fast(tmp_path):
    (tmp_path / "CoCoA-MT" / "train").mkdir(parents=True)
    start = time.perf_counter()
    with pytest.raises(DataError, match=r"data/XX/XX_\{2,4,8\}_variants\.tsv"):
        gate.load(tmp_path, ["es"], LoadReport())
    assert time.perf_counter() - start < 1


# ---- CoCoA-MT contrastive formality

def test_marked_phrases_are_the_reference_scorers():
    assert marked_phrases("[F]Magst du[/F] Legos? [F]Hast du[/F] jemals") == ["Magst du", "Hast du"]


FORMAL_DE = "[F]Mögen Sie[/F] Legos? [F]Haben Sie[/F] jemals als Kind mit ihnen gespielt?"
INFORMAL_DE = "[F]Magst du[/F] Legos? [F]Hast du[/F] jemals als Kind mit ihnen gespielt?"


@pytest.mark.parametrize("output, expected", [
    ("Mögen Sie Legos? Haben Sie jemals damit gespielt?", "formal"),
    ("Magst du Legos?", "informal"),
    ("Mögen Sie Legos? Hast du je gespielt?", None),      # a formal and an informal marker: undetermined
    ("Legos? Jemals gespielt?", None),                     # no marker: undetermined
    ("Sie Mögen Legos", "formal"),                         # token subset: order does not matter
    ("mögen sie Legos", None),                             # case is kept, as the scorer keeps it
    ("Mögen Sie? Legos", None),                            # "Sie?" is not the token "Sie" (punctuation stays on)
    ("", None),                                            # a failed item
])
def test_classify_contrastive(output, expected):
    assert classify_contrastive(output, FORMAL_DE, INFORMAL_DE) == expected


def test_phrase_marked_in_both_references_does_not_count():
    formal = "[F]言っていました[/F]。[F]同じです[/F]"
    informal = "[F]言っていました[/F]。[F]同じだ[/F]"
    output = "皆そう言っていました。同じです。"
    assert classify_contrastive(output, formal, informal, whitespace_tokens=False) == "formal"
    # the upstream scorer counts the shared phrase for both levels and leaves the output undetermined
    assert classify_contrastive(output, formal, informal, whitespace_tokens=False, ignore_shared=False) is None
    # Japanese matches by substring, never by whitespace tokens
    assert classify_contrastive(output, formal, informal) is None


def cocoa_item(level: str, lang: str = "de", formal: str = FORMAL_DE, informal: str = INFORMAL_DE) -> Item:
    return Item(id=f"c-{level}", src="Do you like Legos?", refs=["ref"], context="", ambiguity="formality", lang=lang,
                attributes={"formality": level, "formal_annotated": formal, "informal_annotated": informal})


def test_cocoa_metric_three_numbers_and_exclusions():
    records = [
        record(cocoa_item("formal"), "Mögen Sie Legos?"),       # correct
        record(cocoa_item("informal"), "Magst du Legos?"),      # correct
        record(cocoa_item("informal"), "Mögen Sie Legos?"),     # wrong
        record(cocoa_item("formal"), "Legos?"),                 # undetermined
        record(cocoa_item("formal", formal="Gleich.", informal="Gleich."), "Gleich."),  # no contrast: excluded
        record(Item("a", "Hi", ["Salut"], "", "formality", "de", {"formality": "formal"}), "Hallo"),  # AmbigMT item
    ]
    acc, det, undet = (CocoaFormality(s).score(records, bootstrap=0) for s in ("acc", "det_acc", "undet"))
    assert (acc.value, acc.n, acc.excluded) == (50.0, 4, 2)
    assert det.value == pytest.approx(200 / 3) and det.n == 3
    assert (undet.value, undet.higher_is_better) == (25.0, False)
    assert "shared:ignored" in acc.signature and "match:token-subset" in acc.signature
    assert CocoaFormality("acc").segment(records[2]) == {"cocoa_observed": "formal", "cocoa_acc": 0}
    assert CocoaFormality("det_acc").segment(records[3]) == {"cocoa_observed": None, "cocoa_det_acc": None}


def test_cocoa_references_read_as_their_own_level(cocoa_dir, measure):
    """The metric's ceiling on the dev data: a reference never reads as the other level."""
    items = cocoa_mt.load(cocoa_dir, ("fr", "de", "es", "ja"), LoadReport())
    for lang in ("fr", "de", "es", "ja"):
        records = [record(i, i.refs[0]) for i in items if i.lang == lang]
        det, undet = (CocoaFormality(s).score(records, bootstrap=0) for s in ("det_acc", "undet"))
        assert det.value == 100.0
        assert undet.value < 30
        measure(f"CoCoA-MT train {lang}: references undetermined {undet.value:.1f}% (scorer's token rules)")


# ---- GATE gender keywords

@pytest.mark.parametrize("output, expected", [
    ("Pero mi hermano conoce a la jefa.", "feminine"),
    ("El jefe es capaz de pagarte.", "masculine"),
    ("La Jefa y el jefe.", None),                              # both: undetermined
    ("Conoce al jefecillo.", None),                            # the head word only as a whole word
    ("JEFA", "feminine"),                                      # case is ignored
])
def test_classify_gate_head_words(output, expected):
    assert classify_gate(output, "a la [jefa]=la [jefa]", "al [jefe]=el [jefe]", "es") == expected


def test_classify_gate_accents_apostrophes_and_shared_heads():
    assert classify_gate("La médica llegó.", "la [médica]", "el [médico]", "es") == "feminine"
    assert classify_gate("La medica llegó.", "la [médica]", "el [médico]", "es") is None  # accents are kept
    assert classify_gate("L\u2019avocate parle.", "l'[avocate]", "l'[avocat]", "fr") == "feminine"
    # the same head in both genders: the whole mention decides
    assert classify_gate("Appelez quiconque présente.", "[quiconque] présente", "[quiconque] présent", "fr") == "feminine"
    assert classify_gate("Appelez quiconque présent.", "[quiconque] présente", "[quiconque] présent", "fr") == "masculine"
    # a dropped pronoun gives no cue; the other mention does
    assert classify_gate("Estoy muy agradecida.", "(yo)=muy agradecida", "(yo)=muy agradecido", "es") == "feminine"


def gate_item(genders: str, kw_f: str, kw_m: str) -> Item:
    return Item(id="g", src="The boss met the doctor.", refs=["ref"], context="", ambiguity="person_gender", lang="es",
                attributes={"genders": genders, "kw_f": kw_f, "kw_m": kw_m})


def test_gate_metric_over_entities():
    two = ("la [jefa];la [médica]", "el [jefe];el [médico]")
    records = [
        record(gate_item("feminine;masculine", *two), "La jefa conoció al médico."),    # correct
        record(gate_item("feminine;feminine", *two), "La jefa conoció al médico."),     # one entity wrong
        record(gate_item("feminine;feminine", *two), "La jefa llegó."),                 # one entity unread
        record(gate_item("feminine", "actuaire", "actuaire"), "L'actuaire prépare."),    # no contrast: excluded
        record(gate_item("masculine", "el [jefe]", "la [jefa]"), ""),                   # failed item: undetermined
    ]
    acc, det, undet = (GateGender(s).score(records, bootstrap=0) for s in ("acc", "det_acc", "undet"))
    assert (acc.value, acc.n, acc.excluded) == (25.0, 4, 1)
    assert (det.value, det.n) == (50.0, 2)
    assert undet.value == 50.0
    assert GateGender("acc").segment(records[1]) == {"gate_observed": "feminine;masculine", "gate_acc": 0}


def test_gate_references_read_as_their_own_gender(gate_dir, measure):
    items = gate.load(gate_dir, ["es", "fr"], LoadReport())
    for lang in ("es", "fr"):
        records = [record(i, i.refs[0]) for i in items if i.lang == lang]
        det, undet = (GateGender(s).score(records, bootstrap=0) for s in ("det_acc", "undet"))
        assert det.value == 100.0 and undet.value < 2
        measure(f"GATE {lang}: references undetermined {undet.value:.1f}%, excluded (no keyword contrast) "
                f"{undet.excluded} items")


REGISTERED = [f"{prefix}_{statistic}" for prefix in ("cocoa", "gate") for statistic in ("acc", "det_acc", "undet")]


def test_contrastive_metrics_are_registered_for_the_benchmarks_items_only():
    from evaluation.metrics import METRICS, corpus_scores, metrics_for_outputs
    from evaluation.records import Record

    assert [METRICS[name].name for name in REGISTERED] == REGISTERED
    assert METRICS["cocoa_acc"].reported_for("formality") and not METRICS["cocoa_acc"].reported_for("polysemy")
    assert METRICS["gate_undet"].reported_for("person_gender") and not METRICS["gate_undet"].higher_is_better
    ambigmt = Record("no-extra", "-", Item("a", "Hi", ["Salut"], "", "formality", "de", {"formality": "formal"}), None)
    cocoa = Record("no-extra", "-", cocoa_item("formal"), None)
    gate_record = Record("no-extra", "-", gate_item("feminine", "la [jefa]", "el [jefe]"), None)
    assert not any(name.startswith("cocoa") for name in metrics_for_outputs([ambigmt]))
    assert metrics_for_outputs([cocoa])[2:] == ["f_acc", "f_cov", "cocoa_acc", "cocoa_det_acc", "cocoa_undet"]
    assert metrics_for_outputs([gate_record])[2:] == ["g_acc", "g_cov", "gate_acc", "gate_det_acc", "gate_undet"]
    assert set(corpus_scores([cocoa], bootstrap=0)) == {"bleu", "chrf", "f_acc", "f_cov", *REGISTERED[:3]}
    with pytest.raises(ValueError, match="unknown statistic 'mean'"):
        CocoaFormality("mean")


# ---- the two-people sets of real sentences (tests/data/two_people_real.yaml, two_people_fresh.yaml)

GENDERED_PRONOUN = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
KINDS = {"subject", "object", "possessor", "cataphora", "other"}


def _as_word(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@pytest.mark.parametrize("name, size", [("two_people_real.yaml", 200), ("two_people_fresh.yaml", 90)])
def test_two_people_sets_have_their_fields_and_their_words_in_each_text(name, size):
    items = yaml.safe_load((Path(__file__).parent / "data" / name).read_text(encoding="utf-8"))
    assert len(items) >= size
    assert len({item["text"] for item in items}) == len(items)
    for item in items:
        shown = {"unsettled_shown_fr"} if item["unsettled"][:1].isupper() else set()  # labelled for every name
        assert set(item) == {"text", "pronoun", "settled", "unsettled", "kind", "source"} | shown, item
        assert item.get("unsettled_shown_fr", False) in (True, False), item
        assert GENDERED_PRONOUN.findall(item["text"]) == [item["pronoun"]], item
        assert item["settled"] != item["unsettled"], item
        assert _as_word(item["settled"], item["text"]) and _as_word(item["unsettled"], item["text"]), item
        assert item["kind"] in KINDS and item["source"].strip(), item
