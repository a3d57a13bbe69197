"""What the fuzz tests (tests/test_fuzz.py) and the fuzz campaign (bench/fuzz_campaign.py) edit records with."""

from __future__ import annotations

VOCABULARY = [
    "trick", "deal", "game", "draws", "score", "result", "brisques", "total", "winner", "declares", "shows",
    "exchanges", "scores", "hand N:", "stock:", "dealer:", "trump:", "turnup:", "profile:", "options:", "N", "S",
    "E", "North", "Юг", "QS", "10C", "Q♠", "Д пики", "Q?", "??", "?S", "0", "7", "32", "4294967296", "->", "/",
    ",", ":", "=", "{", "}", "{?", "|", '"', "\n", "\t", "\ufeff", "royal_marriage", "seven_played", "last_trick=9",
]  # fmt: skip
"""Words and signs of the notation that an edit puts into a record."""

LINE_EDITS = ("delete", "duplicate", "swap", "move")


def edit_lines(lines: list[str], kind: str, i: int, j: int) -> None:
    """Edit ``lines`` in place: delete line ``i``, or copy it to ``j``, swap it with ``j``, move it to ``j``."""
    if kind == "delete":
        if len(lines) > 1:
            del lines[i]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
