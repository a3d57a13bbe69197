"""Rule profiles: the classic profile's data, and clear errors for broken YAML."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edited_profile

from replayer.errors import RuleProfileError
from replayer.profiles import load_profile, profile_names


def test_classic_profile_values() -> None:
    # RULES.md §2.a rule 13 (meld table) and rules 15, 16, 20.
    rules = load_profile("classic")
    table = {m.kind: m.points for m in rules.melds}
    assert table == {
        "sequence": 250,
        "four_aces": 100,
        "four_kings": 80,
        "four_queens": 60,
        "four_jacks": 40,
        "royal_marriage": 40,
        "marriage": 20,
        "bezique": 40,
        "double_bezique": 500,
    }
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_played) == (10, 10, 10)
    assert rules.last_trick_points == 10 and rules.brisque_points == 10
    assert (rules.deck_size, rules.stock_size, rules.phase1_tricks, rules.total_tricks) == (64, 48, 24, 32)
    assert rules.default_options() == {
        "last_trick": "24",
        "declarations_per_trick": "1",
        "reuse": "text_with_remarriage",
        "tie_rule": "last_trick",
        "exchange_declaration": "gained_card_later",
        "target": 2000,
    }
    assert rules.seven_gained == "later"  # §2.a rule 15b: [EW] iii, "the card exchanged not being used"


def test_options_are_checked() -> None:
    rules = load_profile("classic")
    assert rules.resolve_options({"last_trick": "final"})["last_trick"] == "final"
    with pytest.raises(ValueError, match="option last_trick is one of 24, final"):
        rules.resolve_options({"last_trick": "25"})
    with pytest.raises(ValueError, match="has no option 'nope'"):
        rules.resolve_options({"nope": "1"})


def test_profile_names() -> None:
    assert "classic" in profile_names()


def test_unknown_profile() -> None:
    with pytest.raises(RuleProfileError, match="unknown profile 'nope'"):
        load_profile("nope")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("hand_size: 8", "hand_size: eight", "key 'hand_size': expected int"),
        ("    points: 250", "    pointz: 250", "missing key 'melds[0].points'"),
        ("packs: 2", "packs: 2\nsurprise: 1", "key 'surprise': unknown key"),
        ("draw_order: winner_first", "draw_order: sideways", "key 'draw_order': expected one of"),
        ('    default: "24"', '    default: "23"', "key 'options.last_trick.default'"),
        ("name: classic", "name: [classic", "not valid YAML"),
    ],
)
def test_broken_profiles_name_file_and_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = edited_profile(tmp_path, "classic", old, new)
    with pytest.raises(RuleProfileError) as info:
        load_profile(str(path))
    assert str(path) in str(info.value)
    assert message in str(info.value)
