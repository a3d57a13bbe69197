"""Shared fixtures: the classic profile, a deal builder, and the games folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from replayer.cards import Card
from replayer.engine import DealState, start_deal
from replayer.rules import RuleProfile, load_rules

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
DATA = Path(__file__).resolve().parent / "data"


def cards(text: str) -> list[Card]:
    """Cards from a space-separated string."""
    return [Card.parse(t) for t in text.split()]


@pytest.fixture
def classic() -> RuleProfile:
    return load_rules("classic")


def deal(
    north: str,
    south: str,
    turnup: str = "10C",
    dealer: str = "N",
    options: dict[str, str | int] | None = None,
    profile: str = "classic",
) -> DealState:
    """A classic deal with the given hands (8 cards each); the non-dealer leads."""
    rules = load_rules(profile)
    opts = rules.default_options()
    opts.update(options or {})
    return start_deal(rules, opts, dealer, None, Card.parse(turnup), {"N": cards(north), "S": cards(south)}).state
