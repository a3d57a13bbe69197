"""Inference on every profile (issue 21): generated games with suits, cards, hands and draws erased, completed again.

A complete record is a completion of any erased copy of it, so the inference is held to the truth: every card it
calls forced is the card erased, every erased card is among the values it finds possible, every card it says a
hand certainly holds was dealt there, and the completion it chooses replays without a problem. A few games per
profile here; bench/infer_campaign.py runs the larger campaign (and imports the erasure and the audit from here).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from test_infer import departures, erase

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.infer import Inference, infer_deal
from replayer.profiles import load_profile, profile_names
from replayer.reader import read_record
from replayer.replay import replay_deal

MODES = {
    "suits": {"suits": 0.25},
    "cards": {"cards": 0.06, "draw_cards": True},
    "hands": {"hand": True, "suits": 0.05},
    "draws": {"draws": 0.15},
    "mixed": {"suits": 0.15, "cards": 0.03, "draws": 0.08, "draw_cards": True},
}
"""The erasures of the campaign: suits lost, whole cards lost, a hand left out, draws statements left out."""


@dataclass
class Audit:
    """What one erased record gave: its counts, and every way the inference departed from the truth."""

    unknowns: int = 0
    forced: int = 0
    open: int = 0
    undecided: int = 0
    completed: bool = False
    failure: str = ""
    seconds: float = 0.0
    wrong: list[str] = field(default_factory=list)
    """Soundness failures: a forced card not the one erased, an erased card not found possible, a completion that
    does not replay."""


def audit(complete_text: str, erased_text: str, time_limit: float | None = None) -> Audit:
    """Complete the erased record's first deal with the analysis and hold every answer to the complete record."""
    complete = read_record(complete_text)
    record = read_record(erased_text)
    game = record.games[0]
    deal = game.deals[0]
    profile = load_profile(game.profile)
    options = profile.resolve_options(game.options)
    dealer = deal.dealer or profile.seats[0]
    started = time.perf_counter()
    inference: Inference = infer_deal(deal, profile, options, dealer, analyse=True, time_limit=time_limit)
    if inference.deal is None and time_limit is not None and "time limit" in inference.failure:
        # (the limit bounds the analysis: a completion is still looked for, without it)
        inference = infer_deal(deal, profile, options, dealer)
    found = Audit(len(inference.unknowns), seconds=time.perf_counter() - started, failure=inference.failure)
    if inference.deal is None:
        return found
    found.completed = True
    found.forced = len(inference.forced())
    found.open = len(inference.open())
    found.undecided = sum(1 for u in inference.unknowns if u.role != "hand" and inference.undecided.get(u.tag))
    if inference.analysed:  # (not when the limit passed before a completion: then it was found without the analysis)
        found.wrong.extend(departures(inference, complete))
    dealt = complete.games[0].deals[0].hands
    for seat, hand in inference.hands.items():
        extra = hand["certain"] - Counter(dealt.get(seat, []))
        if extra:
            found.wrong.append(f"{seat}'s hand: certain {sorted(map(str, extra.elements()))}, not dealt there")
    problems = replay_deal(inference.deal, profile, options, dealer)
    if problems:
        found.wrong.append(f"the completion chosen does not replay (tricks {problems[:5]})")
    return found


SMALL = [name for name in profile_names() if load_profile(name).deck_size <= 64]
"""The profiles whose hand, left out, the tests erase too (a larger deck's hand is the campaign's)."""
CASES = [(name, "mixed") for name in profile_names()] + [(name, "hands") for name in SMALL]
"""Every profile's mixed erasure (4h-six-000's among them: its joint declarations say who holds their cards, and
the obligations of four seats are the core's, so that it completes at its first candidate), and the hands of the
small decks."""


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_erased_games_of_every_profile_are_completed_soundly(name: str, mode: str) -> None:
    # A few cards each (the campaign erases at the modes' full rates): quick on a deal of a hundred cards or more.
    seed = sum(map(ord, name)) % 7
    text = generate_game(name, seed)
    erased = erase(text, random.Random(seed), at_most=8, **MODES[mode])  # type: ignore[arg-type]
    # (the analysis is bounded: what it proves within the limit is held to the truth, the rest is undecided)
    found = audit(text, erased, time_limit=4.0)
    assert found.unknowns > 0
    assert found.completed, found.failure
    assert not found.wrong, found.wrong


@pytest.mark.parametrize("name", ["three-handed", "4h-three-004", "chinese-001", "sixty-six", "infuzorka"])
def test_an_erased_record_validates_and_its_completion_is_written(name: str) -> None:
    # Through the pipeline: validate completes it (no BZ603, no BZ601), and `bezique infer` writes a valid record.
    from replayer.check import check_record
    from replayer.completed_record import completed_text

    text = generate_game(name, 5)
    erased = erase(text, random.Random(5), suits=0.1, draws=0.1)
    record = read_record(erased)
    result = check_record(record)
    assert result.valid, [f"{d.code} {d.message}" for d in result.diagnostics]
    written = completed_text(record, result)
    assert "?" not in "".join(line for line in written.split("\n") if line.startswith(("trick", "  draws")))
    assert check_text(written).valid
