"""Shared fixtures: the classic profile, a deal builder, and the games folder."""

from __future__ import annotations

import random
import re
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

from replayer import writer as write
from replayer.cards import Card, Suit
from replayer.engine import EngineState, Step, apply_draw, apply_play, from_position, start_deal
from replayer.errors import RuleViolation
from replayer.generate import PlayedDeal
from replayer.profile import RuleProfile
from replayer.profiles import load_profile
from replayer.rules import DealState

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
DATA = Path(__file__).resolve().parent / "data"

TABLES: list[tuple[str, dict[str, str]]] = [
    ("4h-three-004", {}),
    ("no-trump", {"players": "3"}),
    ("no-trump", {"players": "4"}),
    ("no-trump", {"packs": "4"}),
    ("infuzorka", {"players": "3"}),
    ("infuzorka", {"players": "4"}),
    ("infuzorka", {"packs": "10"}),
]
"""The tables issue 17 added (profile, options): seed 001's and 004's counts of players and packs, each played by
``bezique generate --profile P --option NAME=VALUE``."""


def cyrillic_share(text: str) -> float:
    """The share of Cyrillic words among a text's words: a word is a run of two or more letters (an underscore joins
    a code such as last_trick into one word; digits, card ranks and seat letters are not words)."""
    words = [w for w in re.findall(r"[^\W\d]+", text) if len(w.strip("_")) >= 2]
    cyrillic = sum(1 for w in words if re.search(r"[А-Яа-яЁё]", w))
    latin = sum(1 for w in words if re.search(r"[A-Za-z]", w))
    return cyrillic / max(cyrillic + latin, 1)


def visible_text(html: str) -> str:
    """A page's text as a reader sees it, without its scripts and styles (nor its attributes)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def cards(text: str) -> list[Card]:
    """Cards from a space-separated string."""
    return [Card.parse(t) for t in text.split()]


@pytest.fixture
def classic() -> RuleProfile:
    return load_profile("classic")


def deal(
    north: str,
    south: str,
    turnup: str = "10C",
    dealer: str = "N",
    options: dict[str, str | int] | None = None,
    profile: str = "classic",
) -> EngineState:
    """A classic deal with the given hands (8 cards each); the non-dealer leads."""
    rules = load_profile(profile)
    opts = rules.default_options()
    opts.update(options or {})
    return start_deal(rules, opts, dealer, None, Card.parse(turnup), {"N": cards(north), "S": cards(south)}).state


def C(text: str) -> Card:
    """One card from its text."""
    return Card.parse(text)


def draw(state: EngineState, *draws: str) -> EngineState:
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


def seeded_record(profile: str, options: dict[str, str], lines: list[str]) -> str:
    """A generated deal's lines as a one-game record of ``profile`` (with its options header)."""
    header = [f'game "seeded {profile} deal"', f"profile: {profile}"]
    if options:
        header.append("options: " + ", ".join(f"{k}={v}" for k, v in options.items()))
    return "\n".join([*header, "", *lines, ""])


def soak_deal(profile: str, options: dict[str, str], seed: int, round_trip: bool) -> PlayedDeal:
    """Play one seeded random deal and check what every profile must keep (the soaks of the profile tests).

    The dealt hands, the stock and the turn-up are exactly the deck, and a hand played out ends with every card in a
    trick; every point is an event of its seat or side;
    and with ``round_trip`` the deal written in the notation re-validates to the same scores (and game score or game
    points, where the profile has them). Checks of a profile's own rules are the caller's.
    """
    from replayer.check import check_text
    from replayer.engine import game_points
    from replayer.generate import play_deal
    from replayer.rules import game_score

    named = load_profile(profile)
    chosen = named.resolve_options(options)
    # The table as the options make it: an option may change the seats, the sides and the packs (players=3).
    rules = named.with_options(chosen)
    played = play_deal(named, random.Random(seed), rules.seats[seed % rules.players], chosen)
    dealt = Counter(c for hand in played.hands.values() for c in hand) + Counter(played.stock)
    if played.turnup is not None:
        dealt[played.turnup] += 1
    assert dealt == Counter(rules.pack())
    state = played.state
    assert state.finished
    if not rules.hand_target:  # played out: every card ends in a trick (sixty-six's hands may end at 66)
        assert state.trick_no == rules.total_tricks
        assert all(not s.hand and not s.table and not s.unknown for s in state.seats.values())
        assert Counter(c for s in state.seats.values() for c in s.won) == dealt
    scores = state.scores()
    for key in rules.scorers:
        assert scores[key] == sum(e.points for e in played.events if rules.scorer(e.seat) == key)
    if round_trip:
        result = check_text(seeded_record(profile, options, played.lines), f"{profile}-{seed}.bzq")
        assert result.valid, [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics][:3]
        replayed = result.games[0].deals[0]
        assert replayed.scores == played.scores
        if rules.game_scoring is not None:
            assert replayed.game_scores == game_score(rules.game_scoring, played.scores)
        if rules.game_points:
            assert replayed.game_points == game_points(state)
    return played


def play(state: EngineState, *plays: str) -> Step:
    """Plays written 'N AS', 'S 7S' in order; strict (raises on a violation). Returns the last step."""
    step = Step(state)
    for text in plays:
        seat, card = text.split()
        step = apply_play(step.state, seat, C(card))
    return step


def position_of(
    state: EngineState,
    trick: int,
    stock: int | None = None,
    leader: str | None = None,
    hands: dict[str, str] | None = None,
    scores: dict[str, int] | None = None,
    trump: Suit | None = None,
) -> EngineState:
    """A book fragment of ``state``'s deal (its profile, options, dealer and trumps, or ``trump``), written with the
    notation's writer and read back by :func:`replayer.engine.from_position`: the position before trick ``trick`` with
    ``stock`` cards left to draw (the turn-up included; by default what the trick number leaves), ``state``'s hands
    (or ``hands``), its leader (or ``leader``) and each scorer's ``scores`` (0 when not given). The core checks the
    position as validate does (each hand as many cards as that trick leaves), so a test stages a position the way a
    record states it, never past the core's checks."""
    profile, rules = state.profile, state.rules
    defaults = load_profile(profile.name).default_options()
    changed = {k: v for k, v in state.options.items() if str(defaults.get(k)) != str(v)}
    held = hands or {seat: " ".join(map(str, seat_state.hand.elements())) for seat, seat_state in state.seats.items()}
    points = {name: (scores or {}).get(name, 0) for name in rules.scorers}
    lines = [write.header("profile", profile.name)]
    if changed:
        lines.append(write.options(changed))
    lines += [write.words(["deal", "1"]), write.header("dealer", state.dealer)]
    if stock is None:
        stock = DealState.position_stock(rules, trick)
    if stock and state.turnup is not None:
        lines.append(write.header("turnup", str(state.turnup)))  # (still beside the stock)
    elif (fixed := trump or state.trump) is not None:
        lines.append(write.header("trump", fixed.value))
    lines.append(write.header("leader", leader or state.leader))
    lines.append(write.position(trick, stock, points))
    lines += [write.hand(seat, cards(text)) for seat, text in held.items() if text]  # (a dealer sitting out: none)
    return from_position("\n".join(lines) + "\n")


def phase_two(state: EngineState, leader: str | None = None, trump: Suit | None = None) -> EngineState:
    """The same hands with the stock and the turn-up gone: the first of the last tricks (phase 2), with ``trump``
    fixed when the deal has none yet."""
    position = position_of(state, state.rules.phase1_tricks + 1, 0, leader, trump=trump)
    assert position.phase == 2
    return position
