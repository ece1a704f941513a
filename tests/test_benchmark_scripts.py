"""Every benchmark script still imports against today's code: a benchmark that broke when an internal
moved is found here, not when someone reruns it for a report."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

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
