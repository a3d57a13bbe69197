"""The better player's commentary (replayer/commentary.py): every English claim checked again against the replay.

Each sentence of a comment is matched to one of the forms the commentary writes and its facts are read off the
replayed record (the trick's winner and cards, the scores booked, the hands, the solver's values of the replayed
position); a sentence of no known form fails the test, so that no claim goes unchecked.
"""

from __future__ import annotations

import re

import pytest
from conftest import GAMES

from replayer.analysis import analyse_deal
from replayer.cards import CARDS, Card
from replayer.check import check_text
from replayer.commentary import comment_record
from replayer.explain import meld_label
from replayer.generate import generate_game
from replayer.replay import DealResult, TrickResult

NAMES = {"North": "N", "South": "S", "East": "E", "West": "W"}
# The constructed records the better player made, with the command that makes them again.
REBUILT = {"ru19": ("ru19", 3827), "ua2": ("ua2", 104), "ruwiki": ("ruwiki", 1461), "infuzorka": ("infuzorka", 87)}
FIXED = {
    "Only the winner of a trick may declare: holding a combination, the player plays to win.",
    "The stock is empty and every card is known: the solver values each card played from here.",
    "The stock is empty.",
    "The solver's values are worked out with every hand face up, each side playing for its own points.",
    "Every card played keeps that best result.",
    # (the same two in the words of records made before the commentary said them plainly)
    "The solver's values are double-dummy: all hands open, each side playing for its own points.",
    "Every card played keeps that optimum.",
}


def _sentences(text: str) -> list[str]:
    return [s if s.endswith(".") else s + "." for s in re.split(r"(?<=\.) (?=[A-Z])", text.strip()) if s]


def _card_of(trick: TrickResult, seat: str) -> str:
    return next(card.glyph for s, card in trick.plays if s == seat)


def _check_trick(deal: DealResult, trick: TrickResult, sentence: str) -> str:
    """Checks one sentence against the replay; returns the form it had."""
    state = trick.state
    assert state is not None
    rules = state.rules
    if sentence in FIXED:
        if sentence.startswith("Every card"):
            endgame = analyse_deal(deal, 100_000)["endgame"]
            assert endgame is not None and not any(endgame["lost"].values())
        return "fixed"
    if m := re.fullmatch(r"(\w+) wins the trick with the (\S+) and declares the ([\w ]+) \((\d+)\)\.", sentence):
        seat = NAMES[m[1]]
        assert trick.winner == seat and _card_of(trick, seat) == m[2]
        booked = [(meld_label(e.kind), e.points) for e in trick.scoring if e.seat == seat]
        assert (m[3], int(m[4])) in booked, (sentence, booked)
        return "declares"
    if m := re.fullmatch(r"(\w+) exchanges the (\S+) for the turn-up, the (\S+) \((\d+)\)\.", sentence):
        seat = NAMES[m[1]]
        booked = [(e.cards[0].glyph, e.points) for e in trick.scoring if e.seat == seat and e.kind == "seven_exchange"]
        assert (m[2], int(m[4])) in booked and state.turnup >= 0
        assert CARDS[state.turnup].glyph == m[3]
        return "exchange"
    if m := re.fullmatch(r"(\w+) shows the (\S+), the other seven of trumps \((\d+)\); .*", sentence):
        seat = NAMES[m[1]]
        assert any(e.kind == "seven_shown" and e.seat == seat and e.points == int(m[3]) for e in trick.scoring)
        return "shown"
    if m := re.fullmatch(
        r"(\w+) gives up the trick with the (\S+), which counts nothing, and keeps ([^:]+): cards that count for "
        r"whoever wins them are kept for a trick worth winning\.",
        sentence,
    ):
        seat = NAMES[m[1]]
        assert trick.winner != seat and _card_of(trick, seat) == m[2]
        values = rules.values(state.trump)
        played = next(card.index for s, card in trick.plays if s == seat)
        assert values[played] == 0 and not rules.brisque[played]
        held = state.held[rules.seat_index[seat]]
        counting = {CARDS[c].glyph for c in range(32) if held[c] and (values[c] or rules.brisque[c])}
        assert set(m[3].split()) == counting
        return "kept"
    if m := re.fullmatch(r"With best play by both from trick (\d+) on, the points still to take go (.+)\.", sentence):
        endgame = analyse_deal(deal, 100_000)["endgame"]
        assert endgame is not None and endgame["first_trick"] == int(m[1]) == trick.n
        said = {NAMES[p.rsplit(" ", 1)[0]]: int(p.rsplit(" ", 1)[1]) for p in m[2].split(", ")}
        assert said == endgame["value"]
        return "optimum"
    if m := re.fullmatch(r"The play takes (.+)\.", sentence):
        endgame = analyse_deal(deal, 100_000)["endgame"]
        assert endgame is not None and endgame["actual"] != endgame["value"]
        said = {NAMES[p.rsplit(" ", 1)[0]]: int(p.rsplit(" ", 1)[1]) for p in m[1].split(", ")}
        assert said == endgame["actual"]
        return "taken"
    if m := re.fullmatch(r"At trick (\d+) (\w+)'s (\S+) keeps it; the (\S+) would lose (\d+)\.", sentence):
        endgame = analyse_deal(deal, 100_000)["endgame"]
        assert endgame is not None
        play = next(p for p in endgame["plays"] if p["trick"] == int(m[1]) and p["seat"] == NAMES[m[2]])
        assert Card.parse(play["played"]).glyph == m[3] and play["cost"] == 0
        option = next(o for o in play["options"] if Card.parse(o["card"]).glyph == m[4])
        assert option["delta"] == -int(m[5])
        return "decisive"
    if m := re.fullmatch(r"The stock is empty; the last tricks are not solved here: (.+)\.", sentence):
        assert analyse_deal(deal, 100_000)["reason"] == m[1]
        return "reason"
    raise AssertionError(f"a sentence of no known form: {sentence!r}")


def _check_record(text: str) -> set[str]:
    result = check_text(text, states=True)
    assert result.valid, result.diagnostics[:3]
    forms = set()
    for game in result.games:
        for deal in game.deals:
            for trick in deal.tricks:
                for comment in trick.comments:
                    if comment.lang is None:
                        forms.update(_check_trick(deal, trick, s) for s in _sentences(comment.text))
    return forms


@pytest.mark.parametrize("name", sorted(REBUILT))
def test_the_constructed_records_claims_are_true(name: str) -> None:
    forms = _check_record((GAMES / f"constructed-{name}.bzq").read_text(encoding="utf-8"))
    assert {"declares", "optimum"} <= forms, forms


@pytest.mark.parametrize("profile", ["classic", "ru19", "sixty-six", "chinese-000"])
def test_generated_commentary_claims_are_true(profile: str) -> None:
    forms = _check_record(generate_game(profile, 11, player="solver"))
    assert "declares" in forms and forms & {"optimum", "reason"}, forms


@pytest.mark.parametrize("name", sorted(REBUILT))
def test_the_constructed_records_are_the_players_games(name: str) -> None:
    # The record's play and commentary are what the generator makes from its seed: only the headers and the rules
    # comment before the first deal were written by hand.
    profile, seed = REBUILT[name]
    text = (GAMES / f"constructed-{name}.bzq").read_text(encoding="utf-8")
    source = next(line for line in text.splitlines() if line.startswith("source: "))
    assert source.startswith("source: constructed for this project by the better player (bezique generate ")
    assert source.count(f"--profile {profile} --seed {seed} --player solver") == 1
    made = generate_game(profile, seed, player="solver")
    assert text[text.index("\ndeal 1\n") :] == made[made.index("\ndeal 1\n") :]


def test_the_commentary_refuses_an_invalid_record() -> None:
    broken = generate_game("classic", 3, player="solver").replace("trick 1:", "trick 2:", 1)
    with pytest.raises(ValueError, match="trick"):
        comment_record(broken)
