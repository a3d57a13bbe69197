"""Puzzles from the first tricks (issue 22): positions where one card is best by 20 points at 95% confidence under
the sampled analysis; the claim holds when the position is judged again on other samples."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from replayer.cards import CARDS
from replayer.check import check_text
from replayer.cli import main
from replayer.generate import generate_game
from replayer.puzzles import EARLY_SAMPLES, MARGIN, early_play, mine_game, write_puzzles
from replayer.replay import DealResult
from replayer.sampling import judge, play_points, seed_for

# A generated classic deal of the better player whose trick 23 (the stock still lasting) holds such a position;
# the tricks searched are cut to keep the test fast (a whole deal's first tricks take some 10 s of CPU).
SEED = 6
TRICKS = range(22, 24)


@cache
def _game() -> str:
    return generate_game("classic", SEED, player="solver")


@cache
def _deal() -> DealResult:
    result = check_text(_game(), states=True)
    assert result.valid
    return result.games[0].deals[0]


def test_an_early_puzzle_is_found_and_its_margin_holds_on_other_samples() -> None:
    deal = _deal()
    play = early_play(deal, 0, tricks=TRICKS)
    assert play is not None
    assert play["trick"] in TRICKS and play["samples"] == EARLY_SAMPLES and not play["exact"]
    assert play["bound"] >= MARGIN
    assert play["best"] == [play["answer"]]
    # Judged again from other seeds: the same card is best, by at least the margin over every other card.
    tricks = [t for t in deal.tricks if t.state is not None]
    rules = tricks[0].state.rules
    found = [
        (state, seat, facts)
        for trick, seat, _, state, facts in play_points(tricks, 2)
        if trick.n == play["trick"] and rules.seats[seat] == play["seat"]
    ]
    assert len(found) == 1
    state, seat, facts = found[0]
    side = rules.scorer[seat]
    for other in (1, 2):
        again = judge(state, seat, facts, EARLY_SAMPLES, seed_for(other, "recheck"))
        means = {
            str(CARDS[card]): sum(p[side] - p[1 - side] for p in row) / len(row)
            for card, row in zip(again.cards, again.points, strict=True)
        }
        best = means.pop(play["answer"])
        assert all(best - m >= MARGIN for m in means.values()), (other, best, means)


def test_the_early_puzzle_says_it_is_sampled_and_its_record_validates(tmp_path: Path) -> None:
    puzzles = mine_game(_game(), "seed-6.bzq", 1, 1, early=True, tricks=TRICKS)
    early = [p for p in puzzles if "sampled" in p.data]
    assert len(early) == 1
    puzzle = early[0]
    assert puzzle.data["trick"] in TRICKS
    assert list(puzzle.data["hands"]) == [puzzle.data["seat"]]  # (the other hand is not shown: it is not known)
    assert all("±" in w["loss"] for w in puzzle.data["wrong"])
    replayed = check_text(puzzle.record, "puzzle.bzq")
    assert replayed.valid and not replayed.diagnostics, [d.message for d in replayed.diagnostics]
    # (the game played A♠, the answer is another card: the question says that its answer is better than the play)
    assert "{?[better] Which card" in puzzle.record and "{?[better ru]" in puzzle.record
    assert "sampled" in puzzle.record and "{?" in puzzle.record
    write_puzzles(puzzles, tmp_path / "out")
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert f"Sampled, not exact: {EARLY_SAMPLES} deals" in page
    assert f"По выборке, не точно: {EARLY_SAMPLES} раскладов" in (tmp_path / "out" / "ru" / "index.html").read_text(
        encoding="utf-8"
    )


def test_early_takes_a_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.bzq"
    record.write_text(_game(), encoding="utf-8")
    assert main(["puzzles", str(record), "--out", str(tmp_path / "out"), "--early", "-1"]) == 2
    assert "--early" in capsys.readouterr().err
