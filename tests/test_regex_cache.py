"""The disk cache of the reader's compiled regular expressions (replayer/regex_cache.py): a pattern made from the
cache reads exactly as one compiled by ``re``; a missing, stale or damaged cache only means compiling again."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GAMES

from replayer import regex_cache
from replayer.grammar_tables import BLOCKS, ELEMENTS, STATEMENTS
from replayer.regex_cache import CachedPatterns

SOURCES = {**STATEMENTS, **ELEMENTS, **{f"block:{k}": v for k, v in BLOCKS.items()}}
TEXTS = [path.read_text(encoding="utf-8") for path in sorted(GAMES.glob("*.bzq"))]


def _spans(pattern: object, text: str) -> list[tuple[tuple[int, int], ...]]:
    """Every match of the pattern at each line start of the text, with the span of every group."""
    found = []
    for start in (0, *(i + 1 for i, c in enumerate(text) if c == "\n")):
        match = pattern.match(text, start)  # type: ignore[attr-defined]
        if match is not None:
            found.append(tuple(match.span(g) for g in range(len(match.groups()) + 1)))
    return found


def test_patterns_from_the_cache_read_as_compiled_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = CachedPatterns(SOURCES, "test")
    for key in SOURCES:
        first.get(key)
    first.save()
    (cache,) = (tmp_path / "bezique").iterdir()
    second = CachedPatterns(SOURCES, "test")
    loaded = {key: second.get(key) for key in SOURCES}
    assert second.loaded is not None and set(second.loaded) == set(SOURCES)  # every one made from the cache
    assert not second.added
    import re

    for key, pattern in loaded.items():
        assert pattern.pattern == SOURCES[key] and pattern.groupindex == re.compile(SOURCES[key]).groupindex
        for text in TEXTS:
            assert _spans(pattern, text) == _spans(re.compile(SOURCES[key]), text), key
    assert cache.name.startswith("patterns-test-")


def test_a_damaged_or_stale_cache_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = "trick_stmt"
    made = CachedPatterns(SOURCES, "damaged")
    made.get(key)
    made.save()
    (cache,) = (tmp_path / "bezique").iterdir()
    cache.write_bytes(b"not a cache")
    again = CachedPatterns(SOURCES, "damaged")
    assert again.get(key).match("trick 1: N QS, S 9S -> N") is not None
    assert key in again.added  # compiled afresh, and written back
    again.save()
    assert CachedPatterns(SOURCES, "damaged").get(key).pattern == SOURCES[key]
    # Another version of the tables is another file: never read for this one.
    assert CachedPatterns(SOURCES, "other").path != again.path
    # An entry of another expression under the same key (tables regenerated, the same grammar) is not used.
    changed = CachedPatterns({**SOURCES, key: "trick (?P<n>[0-9]+)"}, "damaged")
    assert changed.get(key).pattern == "trick (?P<n>[0-9]+)" and key in changed.added


def test_an_unwritable_cache_folder_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    made = CachedPatterns(SOURCES, "blocked")
    assert made.get("score_stmt").match("score N 10, S 0") is not None
    made.save()  # nothing written, nothing raised
    assert blocked.read_text(encoding="utf-8") == "a file where the folder would be"


def test_without_the_engine_internals_it_compiles_as_usual(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(source: str) -> object:
        raise AttributeError("re internals of another interpreter")

    import re

    monkeypatch.setattr(re, "_parser", type("P", (), {"parse": staticmethod(broken)}), raising=False)
    pattern, compiled = regex_cache._compile(SOURCES["score_stmt"])
    assert compiled is None and pattern.match("score N 10, S 0") is not None
