"""bench/bench.py loaded as a module (it is a script, not part of the package), for the tests of its measurements."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_bench() -> ModuleType:
    """A fresh copy of bench/bench.py's module."""
    spec = importlib.util.spec_from_file_location("bench_module", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
