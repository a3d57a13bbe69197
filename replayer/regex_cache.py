"""The reader's regular expressions, compiled once per machine: a disk cache of their compiled code.

The statements' expressions (replayer/grammar_tables.py) are long: every card is the grammar's CARD terminal, with
the Russian suit words and the suit symbols, and compiling the few dozen a record needs takes a command's start
about 60 ms, more than the rest of it. Python keeps no compiled regular expression between runs (a compiled
pattern pickles as its source), so this module keeps the code that ``re`` compiles each expression to, in the user's
cache folder (``$XDG_CACHE_HOME/bezique`` or ``~/.cache/bezique``), and makes the pattern from it with ``_sre``
directly, as ``re`` itself does after compiling.

The cache is an optimisation only: its file is named by the regular expression engine's version (``_sre.MAGIC``),
Python's version and the tables' version, and each entry holds its expression, used only for the very same one, so
a stale entry is never read; a file that cannot be read or written, or an interpreter whose ``re`` internals differ,
means compiling as usual. Nothing but the cache file is written, and it
is replaced atomically.
"""

from __future__ import annotations

import os
import re
import sys

__all__ = ["CachedPatterns"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

_Compiled = tuple[str, int, bytes, int, dict[str, int], tuple[str | None, ...]]
"""What ``re`` compiles an expression to, with the expression itself (an entry is used only for the very same
source): source, flags, code, groups, group index, index group (``_sre.compile``'s), the code kept as the bytes of an
array of unsigned ints (read back only for the expressions a run needs: a list of ints for every expression would
take longer to load than to compile a few)."""


def _cache_folder() -> str | None:
    base = os.environ.get("XDG_CACHE_HOME") or (os.path.join(os.path.expanduser("~"), ".cache"))
    return os.path.join(base, "bezique") if base else None


class CachedPatterns:
    """The compiled patterns of a table of expressions (``sources``, by key), each compiled when first asked for,
    from the disk cache where it holds it (see the module's docstring)."""

    def __init__(self, sources: Mapping[str, str], version: str) -> None:
        self.sources = sources
        self.patterns: dict[str, re.Pattern[str]] = {}
        self.loaded: dict[str, _Compiled] | None = None
        self.added: dict[str, _Compiled] = {}
        self.path: str | None = None
        try:
            import _sre  # type: ignore[import-not-found]

            folder = _cache_folder()
            if folder is not None:
                name = f"patterns-{version[:16]}-py{sys.version_info[0]}{sys.version_info[1]}-{_sre.MAGIC}.bin"
                self.path = os.path.join(folder, name)
        except ImportError:  # pragma: no cover - an interpreter without CPython's regular expression engine
            self.path = None

    def get(self, key: str) -> re.Pattern[str]:
        """The pattern of ``key``, compiled (or made from the cache) when first asked for."""
        pattern = self.patterns.get(key)
        if pattern is None:
            pattern = self.patterns[key] = self._make(key)
        return pattern

    def _make(self, key: str) -> re.Pattern[str]:
        source = self.sources[key]
        if self.path is None:
            return re.compile(source)
        if self.loaded is None:
            self.loaded = self._load()
        compiled = self.loaded.get(key)
        if compiled is not None and compiled[0] == source:
            try:
                import _sre  # type: ignore[import-not-found]
                from array import array

                _, flags, packed, groups, groupindex, indexgroup = compiled
                code = array("I", packed).tolist()
                pattern: re.Pattern[str] = _sre.compile(source, flags, code, groups, groupindex, indexgroup)
                return pattern
            except Exception:  # a cache that does not fit this interpreter: compile as usual
                self.path = None
                return re.compile(source)
        pattern, compiled = _compile(source)
        if compiled is not None:
            if not self.added:
                import atexit

                atexit.register(self.save)
            self.added[key] = compiled
        return pattern

    def _load(self) -> dict[str, _Compiled]:
        import marshal

        assert self.path is not None
        try:
            with open(self.path, "rb") as handle:
                loaded = marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        return loaded if isinstance(loaded, dict) else {}

    def save(self) -> None:
        """Write what this process compiled into the cache file (with what it held), atomically; nothing on error."""
        if self.path is None or not self.added:
            return
        import marshal
        import tempfile

        entries = {**(self.loaded or {}), **self.added}
        folder = os.path.dirname(self.path)
        try:
            os.makedirs(folder, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=".patterns-", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    marshal.dump(entries, out)
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except (OSError, ValueError):
            return
        self.added = {}


def _compile(source: str) -> tuple[re.Pattern[str], _Compiled | None]:
    """The pattern, compiled as ``re.compile`` does, and its compiled code (None where ``re``'s internals are not
    those of CPython 3.11 to 3.13)."""
    try:
        import _sre  # type: ignore[import-not-found]
        from array import array
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed: Any = _parser.parse(source, 0)
        code = [int(op) for op in _compiler._code(parsed, 0)]
        state = parsed.state
        groupindex = dict(state.groupdict)
        indexgroup: list[str | None] = [None] * state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        flags, groups = int(state.flags), state.groups - 1
        pattern: re.Pattern[str] = _sre.compile(source, flags, code, groups, groupindex, tuple(indexgroup))
        packed = array("I", code)
        if packed.tolist() != code:  # (an unsigned int too narrow for this engine's code: no cache)
            return pattern, None
        compiled: _Compiled = (source, flags, packed.tobytes(), groups, groupindex, tuple(indexgroup))
    except Exception:  # another interpreter's internals: compile as usual, without the cache
        return re.compile(source), None
    return pattern, compiled
