"""A game validated again after an edit from the first deal it changed (replayer/check.py: GameCheck): the same
diagnostics and replay as a fresh validation of the whole text, whatever the edits."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz import FUZZ, SCALE

from replayer.check import GameCheck, _deal_starts, check_text_record
from replayer.generate import generate_game
from replayer.results import to_json

# A long game (no deal reaches the target) and a game that ends before its last deal is written (BZ508 after it).
ENDLESS = generate_game("classic", 2301, deals=5, options={"target": "10000000"})
SHORT = generate_game("classic", 2302, deals=4, options={"target": "600"})
PLAYS = re.compile(r"\b(?:10|[7-9JQKA])[SHDC]\b")


def fresh(text: str, views: bool = False) -> Any:
    return check_text_record(text, "g.bzq", analyse=False, views=views)[1]


def flat(diagnostics: list[Any]) -> list[tuple[Any, ...]]:
    return [(d.code, d.message, d.span, d.path, d.severity) for d in diagnostics]


def edit(text: str, draw: st.DrawFn) -> str:
    """One edit inside a deal chosen at random (or its headers): a digit, a card, a line deleted, doubled or
    moved, a typo, a winner or a total line, the deal written twice."""
    starts = [*_deal_starts(text), len(text)]
    if len(starts) < 2:
        return text + "\n" + draw(st.sampled_from(["winner N", "total N 0, S 0", "deal"]))
    deal = draw(st.integers(0, len(starts) - 2))
    before, chunk, after = text[: starts[deal]], text[starts[deal] : starts[deal + 1]], text[starts[deal + 1] :]
    lines = chunk.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    kind = draw(st.sampled_from(["digit", "card", "delete", "double", "move", "typo", "winner", "total", "deal"]))
    if kind == "digit" and any(c.isdigit() for c in line):
        k = draw(st.sampled_from([k for k, c in enumerate(line) if c.isdigit()]))
        lines[i] = line[:k] + str(draw(st.integers(0, 9))) + line[k + 1 :]
    elif kind == "card" and PLAYS.search(line):
        found = draw(st.sampled_from(list(PLAYS.finditer(line))))
        card = draw(st.sampled_from(["7", "8", "9", "10", "J", "Q", "K", "A"])) + draw(st.sampled_from("SHDC"))
        lines[i] = line[: found.start()] + card + line[found.end() :]
    elif kind == "delete":
        del lines[i]
    elif kind == "double":
        lines.insert(i, line)
    elif kind == "move":
        lines.insert(draw(st.integers(0, len(lines))), lines.pop(i))
    elif kind == "typo":
        k = draw(st.integers(0, len(line)))
        lines[i] = line[:k] + draw(st.sampled_from(list("x{}(),:=?7"))) + line[k:]
    elif kind in ("winner", "total"):
        lines.insert(i, "winner S" if kind == "winner" else "total N 120, S 150")
    elif kind == "deal":
        return before + chunk + chunk + after
    return before + "\n".join(lines) + after


@settings(FUZZ, max_examples=12 * SCALE)
@given(st.data())
def test_after_random_edits_the_same_diagnostics_as_a_fresh_validation(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from([ENDLESS, SHORT]))
    previous = GameCheck(base, "g.bzq")
    text = base
    for _ in range(data.draw(st.integers(1, 4))):
        text = edit(base if data.draw(st.booleans()) else text, data.draw)
        checked = GameCheck(text, "g.bzq", previous=previous)
        assert flat(checked.diagnostics) == flat(fresh(text).diagnostics)
        previous = checked


@settings(FUZZ, max_examples=4 * SCALE)
@given(st.data())
def test_after_random_edits_the_same_replay_with_views(data: st.DataObject) -> None:
    previous = GameCheck(ENDLESS, "g.bzq", views=True)
    text = ENDLESS
    for _ in range(data.draw(st.integers(1, 3))):
        text = edit(text, data.draw)
        checked = GameCheck(text, "g.bzq", views=True, previous=previous)
        whole = fresh(text, views=True)
        assert flat(checked.diagnostics) == flat(whole.diagnostics)
        assert to_json(checked.result) == to_json(whole)
        previous = checked


def _score_line(text: str, deal: int) -> int:
    """The offset of the first running score of a deal (0-based)."""
    return text.index("score N", _deal_starts(text)[deal])


def test_a_score_edited_replays_that_deal_only() -> None:
    previous = GameCheck(ENDLESS, "g.bzq")
    at = _score_line(ENDLESS, 3) + len("score N ")
    edited = ENDLESS[:at] + "9" + ENDLESS[at:]
    checked = GameCheck(edited, "g.bzq", previous=previous)
    # The running score is checked, not counted: the game's state after deal 4 is as before, deal 5 is not replayed.
    assert (checked.resumed, checked.replayed) == (3, 1)
    assert [d.code for d in checked.diagnostics] == ["BZ501"]
    assert flat(checked.diagnostics) == flat(fresh(edited).diagnostics)
    back = GameCheck(ENDLESS, "g.bzq", previous=checked)
    assert (back.resumed, back.replayed, back.diagnostics) == (3, 1, [])


def test_a_deal_scored_otherwise_replays_the_deals_after_it() -> None:
    previous = GameCheck(ENDLESS, "g.bzq")
    # Deal 2 without its declaration: its score, so the game's totals, change, and every later deal is replayed
    # from the new state (their total lines now disagree).
    declared = "  N declares four_jacks JS JH JD JC = 40\n"
    assert ENDLESS.index(declared) > _deal_starts(ENDLESS)[1]
    edited = ENDLESS.replace(declared, "", 1)
    checked = GameCheck(edited, "g.bzq", previous=previous)
    assert (checked.resumed, checked.replayed) == (1, 4)
    assert "BZ504" in {d.code for d in checked.diagnostics}
    assert flat(checked.diagnostics) == flat(fresh(edited).diagnostics)


def test_a_text_that_does_not_read_is_validated_whole_and_resumed_after() -> None:
    previous = GameCheck(ENDLESS, "g.bzq")
    at = _score_line(ENDLESS, 2)
    broken = ENDLESS[:at] + "scor" + ENDLESS[at + len("score") :]
    checked = GameCheck(broken, "g.bzq", previous=previous)
    assert checked.header == ""  # (read whole, with the recovering reader)
    assert [d.code for d in checked.diagnostics][:1] == ["BZ001"]
    assert flat(checked.diagnostics) == flat(fresh(broken).diagnostics)
    mended = GameCheck(ENDLESS, "g.bzq", previous=checked)
    # The headers of the text read whole are not kept: the game is replayed from its start, its deals' texts
    # read before are not read again.
    assert (mended.resumed, mended.diagnostics) == (0, [])


def test_an_edited_header_replays_the_whole_game() -> None:
    previous = GameCheck(ENDLESS, "g.bzq")
    edited = ENDLESS.replace("target=10000000", "target=500", 1)
    checked = GameCheck(edited, "g.bzq", previous=previous)
    assert (checked.resumed, checked.replayed) == (0, len(_deal_starts(edited)))
    assert any(d.code == "BZ508" for d in checked.diagnostics)
    assert flat(checked.diagnostics) == flat(fresh(edited).diagnostics)


def test_the_server_answers_after_an_edit_as_for_a_fresh_text() -> None:
    from replayer.lsp import Workbench

    cache: dict[str, Any] = {}
    lines = ENDLESS.split("\n")
    tricks = [i for i, line in enumerate(lines) if line.startswith("trick ")]
    opened = Workbench(ENDLESS, "g.bzq", cache)
    assert opened.hover(tricks[-1], 2)  # (the replay with views, made for the hover)
    at = _score_line(ENDLESS, 2) + len("score N ")
    edited = ENDLESS[:at] + "7" + ENDLESS[at:]
    after = Workbench(edited, "g.bzq", cache)
    whole = Workbench(edited, "g.bzq")
    assert flat(after.diagnostics) == flat(whole.diagnostics) and after.diagnostics
    for line in tricks[:: max(1, len(tricks) // 12)] + tricks[-1:]:
        assert after.hover(line, 2) == whole.hover(line, 2)
    (game,) = (game for _, game in after.parts)
    assert game._viewed is not None and game._viewed.resumed == 2  # (the views resumed from the text before)


def test_a_draws_line_that_does_not_read_is_not_also_a_draw_left_out() -> None:
    # (check.py's inference: a deal with a line that did not read is not analysed for forced draws left out, which
    # would follow from that line, and took minutes in a four-handed deal: the fuzz campaign's hang)
    from conftest import GAMES

    worked = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    assert "  draws N KC, S 9D\n" in worked
    text = worked.replace("  draws N KC, S 9D\n", "  drows N KC, S 9D\n", 1)
    codes = [d.code for d in fresh(text).diagnostics]
    assert codes[:1] == ["BZ001"] and "BZ405" not in codes
    left_out = worked.replace("  draws N KC, S 9D\n", "", 1)
    assert [d.code for d in fresh(left_out).diagnostics] == ["BZ405"]
