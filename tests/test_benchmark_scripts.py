"""Every benchmark script still imports against today's code: a benchmark that broke when an internal
moved is found here, not when someone reruns it for a report."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import polib
import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_the_benchmark_script_imports(script, monkeypatch):
    """Importing runs a script's top level (its imports of the product) but not its ``main``."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import their siblings by name
    name = Path(script).stem
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / script)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)


def test_the_catalogue_count_reads_masked_msgids_and_counts_gender_questions_only(tmp_path, monkeypatch):
    # msgids of django-cms 5.1.3's and django-allauth 65.22.1's French catalogues
    catalogue = polib.POFile()
    for msgid in ("Save and add another", "Are you sure?", "You are already logged in as %(user_display)s."):
        catalogue.append(polib.POEntry(msgid=msgid, msgstr=""))
    catalogue.save(str(tmp_path / "django.po"))
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from catalogue_questions import questions

    assert questions(tmp_path / "django.po", "fr") == {"Save and add another": [], "Are you sure?": ["you"],
                                                         "You are already logged in as <x1/>.": ["You"]}


def test_further_texts_of_the_question_sample_leave_the_first_sample_as_it_was(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import question_sample

    sources = [[{"text": f"{name} {n}", "source": name} for n in range(12)] for name in ("a", "b", "c")]
    monkeypatch.setattr(question_sample, "_sources", lambda args: sources)

    def drawn(more):
        return question_sample.sample(argparse.Namespace(per_source=4, more=more))

    first, larger = drawn(0), drawn(3)
    assert larger[:len(first)] == first and len(larger) == len(first) + 9
    assert len({item["text"] for item in larger}) == len(larger)  # no text drawn twice
    assert [item["source"] for item in first[:3]] == ["a", "b", "c"]  # one of each source in turn
