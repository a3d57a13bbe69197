"""The reader (replayer/reader.py) and its tables (replayer/grammar_tables.py, compiled from the grammar)."""

from __future__ import annotations

from replayer import grammar_tables
from replayer.grammar_compiler import generate, grammar_path, grammar_sha256, tables_path


def test_the_tables_are_compiled_from_the_grammar_as_it_is() -> None:
    """The generated tables hold the grammar's hash and are what the compiler writes now (run
    `python -m replayer.grammar_compiler` if not)."""
    text = grammar_path().read_text(encoding="utf-8")
    stale = "stale replayer/grammar_tables.py: run python -m replayer.grammar_compiler"
    assert grammar_sha256(text) == grammar_tables.GRAMMAR_SHA256, stale
    assert tables_path().read_text(encoding="utf-8") == generate(text), stale
