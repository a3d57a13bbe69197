"""One completion of a deal for every replay of it (issue 23: a fuzz case completed the same deal three or four
times), and the rejected completions excluded by the cards they write."""

from __future__ import annotations

import random

from conftest import DATA
from test_infer import erase

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.infer import infer_deal
from replayer.lsp import Workbench
from replayer.profiles import load_profile
from replayer.reader import read_record


def _erased() -> str:
    return erase(generate_game("classic", 11), random.Random(11), suits=0.3, cards=0.1, hands=True, draws=0.2)


def test_a_deal_read_twice_is_completed_once() -> None:
    text = _erased()
    profile = load_profile("classic")
    options = profile.default_options()
    first = infer_deal(read_record(text).games[0].deals[0], profile, options, "N")
    again = infer_deal(read_record(text).games[0].deals[0], profile, options, "N")
    assert first.deal is not None and again is first
    # A question asked with a time limit is answered by the completion made without one, not the other way round.
    assert infer_deal(read_record(text).games[0].deals[0], profile, options, "N", time_limit=0.0) is first
    other = infer_deal(read_record(text).games[0].deals[0], profile, options, "S")
    assert other is not first
    limited = infer_deal(read_record(text).games[0].deals[0], profile, options, "S", analyse=True, time_limit=0.0)
    assert limited.deal is None and "time limit" in limited.failure
    assert infer_deal(read_record(text).games[0].deals[0], profile, options, "S", analyse=True) is not limited


def test_the_server_and_validate_share_the_completion() -> None:
    text = _erased()
    bench = Workbench(text, "erased.bzq")
    diagnostics = check_text(text, "erased.bzq").diagnostics
    assert [(d.code, d.span) for d in bench.diagnostics] == [(d.code, d.span) for d in diagnostics]
    viewed = bench.parts[0][1].result.games[0].deals[0].inference
    checked = bench.parts[0][1].checked.result.games[0].deals[0].inference
    assert viewed is not None and viewed is checked


def test_a_repaired_deal_whose_completions_all_break_a_rule_is_still_replayed() -> None:
    # seed 28, case 18 of the fuzz campaign: a hand's line does not read ("10D8C"), and the one completion of its
    # unknown card breaks a rule: the replay reports what it breaks instead of BZ601
    text = (DATA / "fuzz-28-18-lenient.bzq").read_text(encoding="utf-8")
    found = {(d.code, d.span.line if d.span else None) for d in check_text(text, "fuzz.bzq").diagnostics}
    assert ("BZ108", 21) in found and ("BZ506", 37) in found
    assert not any(code == "BZ601" for code, _ in found)
