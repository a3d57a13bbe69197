"""Shared fixtures: the classic profile, a deal builder, and the games folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from replayer.cards import Card
from replayer.engine import DealState, apply_draw, start_deal
from replayer.errors import RuleViolation
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


def C(text: str) -> Card:
    """One card from its text."""
    return Card.parse(text)


def draw(state: DealState, *draws: str) -> DealState:
    """Draws written 'N 9S', 'S QD' in order; strict (raises on a violation)."""
    for text in draws:
        seat, card = text.split()
        state = apply_draw(state, seat, C(card)).state
    return state


def violation(step_fn, *args, **kwargs) -> RuleViolation:  # type: ignore[no-untyped-def]
    """The rule violation an engine action raises."""
    with pytest.raises(RuleViolation) as info:
        step_fn(*args, **kwargs)
    return info.value


def edited_profile(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of a shipped profile with one edit (for tests of broken YAML)."""
    text = (ROOT / "replayer" / "profiles" / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"edited-{name}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path
