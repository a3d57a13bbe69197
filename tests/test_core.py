"""The rules core answers the same wherever it is asked: what the random player and the lessons are told may be
played (``legal_plays``) is what the replay of a record accepts, and its winner is the one the replay finds.

The core decides each rule once (replayer/rules/); these tests check the layers above it read it alike: the
Card-object API (replayer/engine.py, through tests/mutate.py's walk) and the replay (through ``check_text``).
"""

from __future__ import annotations

import pytest
from conftest import TABLES
from mutate import walk

from replayer.cards import CARDS
from replayer.check import check_text
from replayer.engine import legal_plays
from replayer.generate import generate_game

OBLIGATIONS = {"BZ203", "BZ204", "BZ205"}

# Every play rule of the last tricks, and more than two seats (a third hand after an earlier trump).
CASES = [
    ("classic", {}),
    ("ru19", {}),
    ("ruwiki", {}),
    ("ruwiki", {"phase2_play": "follow_win_trump"}),
    ("infuzorka", {"phase2_play": "follow_trump"}),
    ("sixty-six", {}),
    ("three-handed", {"phase2_play": "follow_win_trump"}),
    ("4h-three-001", {}),
    ("4h-six-000", {}),
    *TABLES,  # the tables of issue 17, chosen by option
]


def _errors_on(text: str, line: int) -> set[str]:
    result = check_text(text, "edited.bzq")
    return {d.code for d in result.diagnostics if d.span is not None and d.span.line == line and d.severity == "error"}


@pytest.mark.parametrize(("profile", "options"), CASES, ids=[f"{p}-{'-'.join(o.values())}" for p, o in CASES])
def test_a_card_the_core_allows_is_accepted_by_the_replay_and_no_other(profile: str, options: dict[str, str]) -> None:
    """Each play after the lead in the last eight tricks of a generated game, replaced by every other card its seat
    holds: the replay reports an obligation on that line exactly when the card is not among ``legal_plays``."""
    text = generate_game(profile, 2, options=options)
    walked = walk(text)
    lines = text.split("\n")
    judged = refused = 0
    for deal, known in walked.deals:
        for trick in deal.tricks[-8:]:
            if known.phase[id(trick)] != 2:
                continue
            line = trick.span.line
            for play in trick.plays[1:]:
                state = known.before_play[id(play)]
                allowed = legal_plays(state, play.seat)
                assert play.card in allowed
                held = state.seats[play.seat].held_kinds()
                for card in held - {play.card}:
                    column = play.span.column - 1
                    edited = lines[line - 1][:column] + str(card) + lines[line - 1][column + len(str(play.card)) :]
                    codes = _errors_on("\n".join([*lines[: line - 1], edited, *lines[line:]]), line)
                    judged += 1
                    if card in allowed:
                        assert not codes & OBLIGATIONS, (line, card, codes)
                    else:
                        refused += 1
                        assert codes & OBLIGATIONS, (line, card, codes)
    assert judged >= 8 and refused >= 1, (judged, refused)


WINNERS = [
    ("classic", {}),
    ("three-handed", {}),
    ("4h-six-000", {}),
    ("infuzorka", {}),
    ("infuzorka", {"players": "4"}),
    ("no-trump", {"players": "3"}),
    ("4h-three-004", {}),
]


@pytest.mark.parametrize(("profile", "options"), WINNERS, ids=[f"{p}-{'-'.join(o.values())}" for p, o in WINNERS])
def test_the_winner_the_engine_gives_is_the_winner_the_record_states(profile: str, options: dict[str, str]) -> None:
    """The random player writes each trick's winner from the engine's step; the replay finds the same, trick by
    trick, and a different stated winner is BZ206 on its line."""
    text = generate_game(profile, 3, options=options)
    walked = walk(text)
    lines = text.split("\n")
    for deal, known in walked.deals:
        for trick in deal.tricks[:3]:
            assert trick.winner == known.winner[id(trick)]
            other = next(p.seat for p in trick.plays if p.seat != trick.winner)
            line = trick.span.line
            edited = lines[line - 1].rsplit("-> ", 1)[0] + f"-> {other}"
            assert "BZ206" in _errors_on("\n".join([*lines[: line - 1], edited, *lines[line:]]), line)


def test_cards_are_ints_in_one_order() -> None:
    # The core's int of a card is its index in CARDS (suits S H D C, ranks from the seven up; the wild card last).
    assert [str(c) for c in CARDS[:8]] == ["7S", "8S", "9S", "JS", "QS", "KS", "10S", "AS"]
    assert all(card.index == i for i, card in enumerate(CARDS)) and str(CARDS[-1]) == "*"
