"""The seeded random player and the replayer check each other: every generated deal re-validates."""

from __future__ import annotations

from collections import Counter

import pytest

from replayer.cards import make_pack
from replayer.check import check_text
from replayer.generate import generate_game
from replayer.replay import to_json


@pytest.mark.parametrize("seed", range(60))
def test_generated_deal_revalidates(seed: int) -> None:
    text = generate_game("classic", seed)
    result = check_text(text, f"seed-{seed}.bzq")
    assert result.valid, [d.message for d in result.diagnostics]
    data = to_json(result)
    deal = data["games"][0]["deals"][0]
    # Card conservation: the 64 cards played are exactly two packs, and each was dealt or drawn.
    played = Counter(p["card"] for t in deal["tricks"] for p in t["plays"])
    assert played == Counter(str(c) for c in make_pack(2))
    held = Counter(c for cards in deal["hands"].values() for c in cards)
    held.update(d["card"] for t in deal["tricks"] for d in t["draws"])
    for exchange in (e for t in deal["tricks"] for e in t["scoring"] if e["kind"] == "seven_exchange"):
        # The exchanger takes the turn-up into his hand; his seven becomes the card drawn last.
        held[deal["turnup"]] += 1
        held[exchange["cards"][0]] -= 1
    assert held == played
    assert len(deal["tricks"]) == 32
    # The last-trick bonus goes to trick 24 under the classic default (RULES.md §2.a rule 20).
    last = [t["n"] for t in deal["tricks"] for e in t["scoring"] if e["kind"] == "last_trick"]
    assert last == [24]
    # Brisques: the 16 aces and tens are all won by someone, 160 points in all.
    assert sum(deal["brisques"].values()) == 160


def test_same_seed_same_record() -> None:
    assert generate_game("classic", 7, deals=2) == generate_game("classic", 7, deals=2)
    assert generate_game("classic", 7) != generate_game("classic", 8)


def test_multi_deal_game_totals() -> None:
    text = generate_game("classic", 11, deals=3)
    result = check_text(text)
    assert result.valid, [d.message for d in result.diagnostics]
    game = result.games[0]
    assert [d.dealer for d in game.deals] == ["S", "N", "S"]
    assert game.scores == {s: sum(d.scores[s] for d in game.deals) for s in ("N", "S")}
