"""Reading a record file game by game, so that validating a file of any size takes the memory of one game.

The file is split before each ``game`` statement (outside comments) and each part is read by the reader
(replayer/reader.py) and replayed on its own: games share nothing in a replay. Whatever this path does not handle
exactly as the whole-file path would (bytes that are not UTF-8, a byte-order mark, line breaks other than ``\\n``
and ``\\r\\n``, a syntax or structure error) makes :func:`read_part` stop with :class:`NotStreamable`, and the
caller reads the whole file as before, which reports it exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a valid file's start needs none of it
if TYPE_CHECKING:
    from typing import BinaryIO

    from .record import Record

__all__ = ["NotStreamable", "game_chunks", "read_part"]

# A game statement starts a part; "game score N 1, S 0" (a game's score after its deals) belongs to its game.
_GAME = re.compile(rb"[ \t\f]*game(?![\w])(?![ \t\f]*score(?![\w]))", re.IGNORECASE)
# What str.splitlines() breaks at besides "\n": the whole-file path numbers lines with it when it prints a
# diagnostic's source line, so a part holding one of these is left to that path.
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class NotStreamable(Exception):
    """The file needs the whole-file path (see the module's docstring)."""


def _open_after(line: bytes, open_: bool) -> bool:
    """Whether a ``{`` is still open after this line (comments and questions may span lines)."""
    pos = 0
    while True:
        if open_:
            end = line.find(b"}", pos)
            if end < 0:
                return True
            open_, pos = False, end + 1
        else:
            start = line.find(b"{", pos)
            if start < 0:
                return False
            open_, pos = True, start + 1


def game_chunks(handle: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The file's bytes in parts that each start at a ``game`` statement (the first part: at the file's start),
    with the line number of each part's first line."""
    lines: list[bytes] = []
    first = number = 1
    open_ = False
    games = 0  # the comments before the first game are read with it (a part of comments only is not a record)
    for line in handle:
        if not open_ and _GAME.match(line):
            games += 1
            if lines and games > 1:
                yield first, b"".join(lines)
                lines, first = [], number
        lines.append(line)
        open_ = _open_after(line, open_)
        number += 1
    yield first, b"".join(lines)


def read_part(first: int, data: bytes, path: str) -> Record:
    """One part of a file as a record, its positions the file's (``first``: the line number of its first line).

    Raises :class:`NotStreamable` when the whole-file path must read the file.
    """
    from .errors import NotationError
    from .reader import read_record  # not at import: a file that replayer/quick.py accepts never needs the reader

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotStreamable(path) from None
    text = text.replace("\r\n", "\n")
    if (first == 1 and text.startswith("\ufeff")) or _OTHER_BREAKS.search(text):
        raise NotStreamable(path)
    try:
        return read_record(text, path, first)
    except NotationError:
        raise NotStreamable(path) from None
