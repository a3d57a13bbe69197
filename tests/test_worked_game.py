"""The worked North/South deal of seed 000, replayed end to end.

Expected values come from ../shared/RULES.md §2.a.9 (the validation fixture) and the seed's narrative
(000:L73-L263): running totals N 10/50/70/320/420/500/520/530 -> 590 and S 40/50/110/130/630 -> 730.
"""

from __future__ import annotations

import pytest
from conftest import GAMES

from replayer.check import check_record
from replayer.reader import read_file
from replayer.record import ScoreCheck
from replayer.replay import to_json

WORKED = GAMES / "worked-deal-000.bzq"

# RULES.md §2.a.9: trick -> (seat, kind, points) scored after it.
SCORING = {
    1: [("N", "seven_exchange", 10)],
    2: [("N", "royal_marriage", 40)],
    3: [("N", "marriage", 20)],
    4: [("N", "sequence", 250)],
    6: [("S", "bezique", 40)],
    7: [("S", "seven_played", 10)],
    8: [("S", "four_queens", 60)],
    12: [("S", "marriage", 20)],
    13: [("N", "four_aces", 100)],
    17: [("S", "double_bezique", 500)],
    18: [("N", "four_kings", 80)],
    22: [("N", "marriage", 20)],
    24: [("N", "last_trick", 10)],
}
# RULES.md §2.a.9: trick winners; South wins 6, 8, 11, 12, 17 and, in the last eight, all but trick 31.
SOUTH_WINS = {6, 8, 11, 12, 17, 25, 26, 27, 28, 29, 30, 32}


@pytest.fixture(scope="module")
def replayed():  # type: ignore[no-untyped-def]
    record = read_file(WORKED)
    return record, check_record(record)


def test_valid(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    assert result.valid, [f"{d.location()} {d.message}" for d in result.diagnostics]


def test_final_scores_and_brisques(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    deal = result.games[0].deals[0]
    assert deal.scores == {"N": 590, "S": 730}
    assert deal.brisques == {"N": 60, "S": 100}
    assert deal.turnup is not None and str(deal.turnup) == "10C"
    assert deal.dealer == "N" and deal.leader == "S"


def test_every_scoring_event(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    tricks = result.games[0].deals[0].tricks
    assert len(tricks) == 32
    found = {t.n: [(e.seat, e.kind, e.points) for e in t.scoring] for t in tricks if t.scoring}
    assert found == SCORING


def test_trick_winners(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    winners = {t.n: t.winner for t in result.games[0].deals[0].tricks}
    assert {n for n, w in winners.items() if w == "S"} == SOUTH_WINS


def test_running_totals(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    tricks = result.games[0].deals[0].tricks
    north = sorted({t.scores["N"] for t in tricks})
    south = sorted({t.scores["S"] for t in tricks})
    assert north == [10, 50, 70, 320, 420, 500, 520, 530]
    assert south == [0, 40, 50, 110, 130, 630]
    by_trick = {t.n: (t.scores["N"], t.scores["S"]) for t in tricks}
    assert by_trick[4] == (320, 0)  # 000:L99
    assert by_trick[11] == (320, 110)  # 000:L135
    assert by_trick[17] == (420, 630)  # 000:L175
    assert by_trick[24] == (530, 630)  # 000:L207


def test_record_states_the_narratives_scores(replayed) -> None:  # type: ignore[no-untyped-def]
    record, _ = replayed
    deal = record.games[0].deals[0]
    stated = [i for t in deal.tricks for i in t.items if isinstance(i, ScoreCheck)]
    assert len(stated) >= 24
    assert [(c.what, [(v.seat, v.value) for v in c.values]) for c in deal.end] == [
        ("brisques", [("N", 60), ("S", 100)]),
        ("result", [("N", 590), ("S", 730)]),
    ]


def test_every_card_has_a_suit_and_two_packs_are_played(replayed) -> None:  # type: ignore[no-untyped-def]
    _, result = replayed
    data = to_json(result)
    plays = [p["card"] for t in data["games"][0]["deals"][0]["tricks"] for p in t["plays"]]
    assert len(plays) == 64
    assert all(plays.count(c) == 2 for c in plays)


def test_strict_text_rejects_trick_22(replayed) -> None:  # type: ignore[no-untyped-def]
    # RULES.md §2.a rule 14f: the option strict_text forbids the re-marriage of trick 22.
    from replayer.check import check_text

    text = WORKED.read_text(encoding="utf-8")
    text = text.replace("options: last_trick=24", "options: last_trick=24, reuse=strict_text")
    result = check_text(text, "strict.bzq")
    codes = [(d.code, d.span.line if d.span else 0) for d in result.diagnostics]
    line22 = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("trick 22:")) + 1
    assert ("BZ307", line22) in codes


def test_last_trick_final_moves_the_bonus(replayed) -> None:  # type: ignore[no-untyped-def]
    # RULES.md §2.a rule 20: under last_trick=final the bonus goes to trick 32 (South), and the stated 530 is wrong.
    from replayer.check import check_text

    text = WORKED.read_text(encoding="utf-8").replace("options: last_trick=24", "options: last_trick=final")
    result = check_text(text, "final.bzq")
    assert result.games[0].deals[0].scores == {"N": 580, "S": 740}
    assert any(d.code == "BZ310" for d in result.diagnostics)  # "N scores last_trick" no longer happens


def test_snapshots_keep_their_moment(replayed) -> None:  # type: ignore[no-untyped-def]
    """A snapshot sorts its cards only when asked (the replay changes its state in place meanwhile): each trick's
    "before" still holds the cards then played, its "after" no longer does, and the hands shrink by one a trick in
    the last eight."""
    _, result = replayed
    tricks = result.games[0].deals[0].tricks
    for trick in tricks:
        for seat, card in trick.plays:
            assert card in trick.before.hands[seat] or card in trick.before.tables[seat]
    for trick in tricks[24:]:
        for seat in trick.before.hands:
            held = len(trick.before.hands[seat]) + len(trick.before.tables[seat])
            assert len(trick.after.hands[seat]) + len(trick.after.tables[seat]) == held - 1
    assert tricks[-1].after.hands == {"N": [], "S": []}
    assert tricks[0].before == tricks[0].before and tricks[0].before != tricks[0].after
