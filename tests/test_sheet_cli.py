"""``intercpt translate --file`` with a question sheet, in-process on a fake model: ``--plan`` prints it,
``--answers-file`` and ``--profile`` answer it, a terminal asks it first; nothing is asked again."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polib
import pytest
import yaml

from assistant.cli.main import main
from assistant.profile import glossary_path, load_profile
from tests.test_translate_files import fake  # noqa: F401 - the fixture

DJANGO = Path(__file__).parent / "data" / "formats" / "django_accounts.po"
MODEL = ["--model", "openai:http://127.0.0.1:9/v1#m"]


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["translate", "--file", str(DJANGO), "--to", "fr", *args, *MODEL])
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_prints_one_question_per_register_and_role_and_translates_nothing(fake, tmp_path, capsys):
    out = tmp_path / "django.fr.po"
    code, printed, _ = run(capsys, "--plan", "--out", str(out))
    assert code == 0 and not out.exists()
    sheet = json.loads(printed)
    asked = [(q["type"], q["segment_count"]) for q in sheet["questions"]]
    assert asked == [("formality", 10), ("neutral_professions", 6)], asked  # "a user", "the user", "this user": one
    register = sheet["questions"][0]
    assert register["id"] == "q1" and register["options"][:2] == ["formal", "informal"]
    example = register["examples"][0]
    start, end = example["words"][0]
    assert example["text"][start:end] == "You" and len(register["examples"]) == 3
    assert fake.steps().count("translate") == 0


def test_plan_in_yaml(fake, capsys):
    code, printed, _ = run(capsys, "--plan", "yaml")
    assert code == 0 and yaml.safe_load(printed)["question_count"] == 2


def test_an_answers_file_answers_the_sheet_without_a_terminal(fake, tmp_path, capsys):
    answers = tmp_path / "answers.yaml"
    answers.write_text("register:\n  fr: formal\npeople:\n  the user: a woman\n", encoding="utf-8")
    out = tmp_path / "django.fr.po"
    code, printed, _ = run(capsys, "--answers-file", str(answers), "--out", str(out), "--json")
    assert code == 0
    turns = [t for transcript in json.loads(printed)["transcripts"] for t in transcript["turns"]]
    assert {(t["ambiguity"], t["answer"], t["answered_by"]) for t in turns} == {
        ("formality", "formal", "preference"), ("neutral_professions", "a woman", "preference")}
    assert "decide" not in fake.steps()  # "the user" is open without a reading, and nothing is read to translate
    assert all(entry.msgstr or entry.msgstr_plural[0] for entry in polib.pofile(str(out)))


def test_a_profile_keeps_the_terminal_answers_and_the_next_run_asks_nothing(fake, tmp_path, capsys, monkeypatch):
    profile = tmp_path / "project.yaml"
    replies = iter(["2", "a woman"])
    monkeypatch.setattr("sys.stdin", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())
    monkeypatch.setattr("builtins.input", lambda prompt="": next(replies))
    glossary = DJANGO.parent / "glossary.csv"
    code, _, err = run(capsys, "--profile", str(profile), "--out", str(tmp_path / "one.po"), "--glossary", str(glossary))
    assert code == 0 and "2 questions for the whole file (13 segments)" in err
    assert "[1/2] 10 segments, for example:" in err and "1: [You] may edit it again below." in err
    assert "2 new answers saved" in err
    saved = load_profile(profile)
    assert saved.answers["register"] == {"fr": "informal"} and saved.answers["people"] == {"user": "a woman"}
    assert glossary_path(saved, profile).resolve() == glossary.resolve()  # kept relative to the profile

    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("asked again"))
    code, _, err = run(capsys, "--profile", str(profile), "--out", str(tmp_path / "two.po"))
    assert code == 0 and "0 new answers saved" in err and "questions for the whole file" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["--answer", "formal", "--plan"], "--answer answers questions in reading order"),
    (["--user", "oracle", "--gold", "formality=formal", "--plan"], "a question sheet is answered by a person"),
    (["--answers-file", "missing.yaml"], "no such profile file"),
])
def test_sheet_flags_refuse_what_they_cannot_do(fake, capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code == 1 and message in err


def test_sheet_flags_need_a_file(fake, capsys):
    assert main(["translate", "Hello", "--to", "fr", "--plan", *MODEL]) == 1
    assert "--plan works on the question sheet of a --file" in capsys.readouterr().err


def test_a_malformed_answers_file_is_refused_before_the_model_loads(fake, tmp_path, capsys):
    answers = tmp_path / "answers.yaml"
    answers.write_text("register: [fr\n", encoding="utf-8")
    code, _, err = run(capsys, "--answers-file", str(answers))
    assert code == 1 and "is not valid YAML" in err and fake.calls == []


def answers_file(tmp_path: Path, text: str = "register:\n  fr: formal\n") -> str:
    path = tmp_path / "answers.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_each_po_unit_notes_the_answer_or_guess_that_shaped_it(fake, tmp_path, capsys):
    out = tmp_path / "django.fr.po"
    assert run(capsys, "--answers-file", answers_file(tmp_path), "--out", str(out))[0] == 0
    comments = {entry.msgid: entry.tcomment for entry in polib.pofile(str(out))}
    assert comments["Your password was changed."] == "intercpt: Your → formal (answered for the whole file)"
    assert comments["Specific permissions for this user."] == \
        "intercpt: this user → the model's guess (not answered)"  # skipped on the sheet: guessed, and flagged
    assert "fuzzy" in polib.pofile(str(out)).find("Specific permissions for this user.").flags

    again = tmp_path / "again.fr.po"  # a note an earlier run wrote is replaced, not repeated
    main(["translate", "--file", str(out), "--to", "fr", "--out", str(again), *MODEL,
          "--answers-file", answers_file(tmp_path, "register:\n  fr: informal\npeople:\n  user: a man\n")])
    assert polib.pofile(str(again)).find("Specific permissions for this user.").tcomment == \
        "intercpt: this user → a man (answered for the whole file)"


@pytest.mark.parametrize("name", ["app.xlf", "app12.xlf"])
def test_xliff_units_get_a_note(fake, tmp_path, capsys, name):
    out = tmp_path / f"out.{name}"
    assert main(["translate", "--file", str(DJANGO.parent / name), "--to", "fr", "--out", str(out),
                 "--answers-file", answers_file(tmp_path), *MODEL]) == 0
    written = out.read_text(encoding="utf-8")
    assert "formal (answered for the whole file)" in written and 'intercpt"' in written
    assert "Shown on the home page" in written or "Button tooltip" in written  # the file's own notes kept


def test_docx_paragraphs_get_a_comment(fake, tmp_path, capsys):
    import docx

    source, out = tmp_path / "guide.docx", tmp_path / "guide.fr.docx"
    written = docx.Document()
    written.add_paragraph("Can you save the file?")
    written.save(str(source))
    assert main(["translate", "--file", str(source), "--to", "fr", "--out", str(out),
                 "--answers-file", answers_file(tmp_path), *MODEL]) == 0
    comments = [c.text for c in docx.Document(str(out)).comments]
    assert [text for text in comments if "you → formal (answered for the whole file)" in text], comments


REAL_MODEL_UNITS = {"You don’t have permission to view or edit anything.", "Your password was changed.",
                    "Specific permissions for this user.", "A user with that username already exists.",
                    "Designates whether the user can log into this admin site."}


@pytest.mark.real_model
def test_real_model_sheet_answers_and_profile_on_a_django_catalogue(intercpt_cli, embedded_spec, tmp_path, measure):
    """Real strings of Django's admin and auth catalogues, on the 0.5B model: the sheet asks the register
    once and the user once, a saved profile answers them, the answers reach every unit and its note."""
    catalogue = polib.pofile(str(DJANGO))  # the units that say "you" or name the user, and no "it"
    for entry in [e for e in catalogue if e.msgid not in REAL_MODEL_UNITS]:
        catalogue.remove(entry)
    django = tmp_path / "django.po"
    catalogue.save(str(django))
    profile = tmp_path / "project.yaml"
    profile.write_text("register:\n  fr: formal\npeople:\n  the user: a woman\n", encoding="utf-8")
    plan = intercpt_cli("translate", "--file", str(django), "--to", "fr", "--plan", "--profile", str(profile),
                        "--model", embedded_spec, timeout=1800)
    assert plan.returncode == 0, plan.stderr
    sheet = json.loads(plan.stdout)
    questions = {(q["type"], q["words"].lower()): q for q in sheet["questions"]}
    types = [kind for kind, _ in questions]
    assert types.count("formality") == 1 and types.count("neutral_professions") <= 1, types
    assert sheet["question_count"] <= 10 and sheet["questions"][0]["segment_count"] >= 2
    assert {q["answered_by"] for (kind, _), q in questions.items() if kind != "it_resolution"} == {"profile"}

    out = tmp_path / "django.fr.po"
    run = intercpt_cli("translate", "--file", str(django), "--to", "fr", "--answers-file", str(profile),
                       "--out", str(out), "--json", "--model", embedded_spec, timeout=3600)
    assert run.returncode == 0, run.stderr
    turns = [t for transcript in json.loads(run.stdout)["transcripts"] for t in transcript["turns"]]
    answered = [t for t in turns if t["ambiguity"] in ("formality", "neutral_professions")]
    assert answered and all(t["answered_by"] == "preference" for t in answered), answered  # nothing asked again
    assert {t["answer"] for t in answered} <= {"formal", "a woman"}
    written = polib.pofile(str(out))
    assert all(entry.msgstr or entry.msgstr_plural.get(0) for entry in written)
    assert written.find("Your password was changed.").tcomment == \
        "intercpt: Your → formal (answered for the whole file)"
    measure(f"question sheet, 0.5B on llama.cpp, {sheet['segment_count']} Django segments: "
            f"{sheet['question_count']} questions: "
            + ", ".join(f"{q['type']} “{q['words']}” ({q['segment_count']})" for q in sheet["questions"]))
