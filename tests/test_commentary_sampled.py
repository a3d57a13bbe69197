"""The moments that matter by the sampled analysis (replayer/commentary.py ``sampled_comments``): every English claim
checked again against the analysis it was made from and the replay.

The analyses are the sidecars kept beside the records of games/ (``*.analysis.json``, the data of ``bezique analyse
--all --json``), so no test samples a deal here but the last, which makes a small analysis itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import GAMES

from replayer.cards import CARDS, SUITS, Card
from replayer.check import check_text
from replayer.commentary import _MATTERS, _MOMENTS, comment_record, sampled_comments
from replayer.generate import generate_game
from replayer.replay import DealResult, TrickResult
from replayer.rules.deal import trick_winner
from replayer.sampling import is_mistake, play_points

NAMES = {"North": "N", "South": "S", "East": "E", "West": "W"}
SIDECARS = sorted(p for p in GAMES.glob("*.analysis.json"))
# The constructed records the sampler made, with the command that makes them again.
SAMPLED = {"ru19": ("ru19", 3827), "ua2": ("ua2", 104), "ruwiki": ("ruwiki", 1461)}

HEAD_RIGHT = re.compile(
    r"(\w+)'s (\S+) is right by the sampled analysis: the (\S+) would have cost about (\d+) ± (\d+) points of the "
    r"difference between the sides to the end of the deal \((\d+) deals drawn from what (\w+) knows\)\."
)
HEAD_MISTAKE = re.compile(
    r"A mistake by the sampled analysis: (\w+)'s (\S+) costs about (\d+) ± (\d+) points of the difference between "
    r"the sides against the (\S+) \((\d+) deals drawn from what (\w+) knows\)\."
)


def _sidecar(record: str) -> dict[str, Any]:
    return json.loads((GAMES / f"{record}.analysis.json").read_text(encoding="utf-8"))


def _deals(text: str) -> list[tuple[int, DealResult]]:
    result = check_text(text, states=True)
    assert result.valid, result.diagnostics[:3]
    return [(g, deal) for g, game in enumerate(result.games, 1) for deal in game.deals]


def _judged(analysis: dict[str, Any], game: int, number: int) -> dict[str, Any]:
    return next(d for d in analysis["games"][game - 1]["deals"] if d["number"] == number)


def _difference(play: dict[str, Any], card: str) -> tuple[float, float]:
    option = next(o for o in play["options"] if o["card"] == card)
    own = play["seat"]
    return sum(v if s == own else -v for s, v in option["mean"].items()), option["stderr"]


def _glyph(name: str) -> str:
    return Card.parse(name).glyph


def _card(glyph: str) -> int:
    return next(c for c in range(len(CARDS)) if CARDS[c].glyph == glyph)


def _check_moment(deal: DealResult, trick: TrickResult, play: dict[str, Any], en: str) -> tuple[str, str, str]:
    """Checks one remark against the analysis's play and the replay; returns (head form, card played, other)."""
    sentences = re.split(r"(?<=\.) (?=[A-Z])", en)
    head = sentences[0] + (" " + sentences[1] if not sentences[0].endswith(").") else "")
    rest = sentences[1:] if sentences[0].endswith(").") else sentences[2:]
    if m := HEAD_RIGHT.fullmatch(head):
        seat, played, other, gap, err, n = NAMES[m[1]], m[2], m[3], int(m[4]), int(m[5]), int(m[6])
        assert seat == play["seat"] == NAMES[m[7]] and played == _glyph(play["played"]) and not is_mistake(play)
        mine, mine_err = _difference(play, play["played"])
        theirs, theirs_err = _difference(play, str(CARDS[_card(other)]))
        true_gap, true_err = mine - theirs, (mine_err**2 + theirs_err**2) ** 0.5
        assert true_gap >= _MATTERS and true_gap >= 2 * true_err
        assert (gap, err) == (round(true_gap), round(true_err))
        form, good, bad = "right", played, other
    elif m := HEAD_MISTAKE.fullmatch(head):
        seat, played, cost, err, other, n = NAMES[m[1]], m[2], int(m[3]), int(m[4]), m[5], int(m[6])
        assert seat == play["seat"] == NAMES[m[7]] and played == _glyph(play["played"]) and is_mistake(play)
        assert other == _glyph(play["best"][0])
        assert (cost, err) == (round(play["cost"]), round(play["cost_stderr"]))
        form, good, bad = "mistake", other, played
    else:
        raise AssertionError(f"a remark of no known form: {en!r}")
    assert n == play["samples"] and not play["exact"]
    _check_why(deal, trick, play, form == "right", good, bad, rest)
    return form, played, other


def _check_why(
    deal: DealResult, trick: TrickResult, play: dict[str, Any], right: bool, good: str, bad: str, sentences: list[str]
) -> None:
    before = next(
        state for t, seat, _c, state, _f in _points(deal) if t is trick and _seat(state, seat) == play["seat"]
    )
    rules = before.rules
    table = [c for _, c in before.plays]
    g, b = _card(good), _card(bad)
    assert sentences, "a remark says why"
    for sentence in sentences:
        last = len(table) == rules.players - 1
        wins_g = last and trick_winner([*table, g], before.trump) == len(table)
        wins_b = last and trick_winner([*table, b], before.trump) == len(table)
        if sentence in (
            f"The {good} wins the trick; the {bad} would not.",
            f"The {good} would have won the trick; the {bad} does not.",
        ):
            assert last and wins_g and not wins_b
            assert sentence.endswith("would not.") == right
        elif sentence in (
            f"The {good} gives the trick up; the {bad} would have won it.",
            f"The {good} would have given the trick up; the {bad} wins it.",
        ):
            assert last and wins_b and not wins_g
            assert sentence.endswith("have won it.") == right
        elif m := re.fullmatch(
            rf"The {re.escape(bad)} counts (\d+) to whoever wins it; the {re.escape(good)} (.+)\.", sentence
        ):
            values = rules.values(before.trump)
            worth = [values[c] or (rules.brisque_points if rules.brisque[c] else 0) for c in range(len(values))]
            assert int(m[1]) == worth[b] > worth[g]
            assert m[2] == (f"counts {worth[g]}" if worth[g] else "counts nothing")
        elif sentence in (f"The {good} keeps the {bad}, a trump.", f"The {good} would have kept the {bad}, a trump."):
            assert CARDS[b].suit == SUITS[before.trump] != CARDS[g].suit
            assert ("would have" not in sentence) == right
        elif m := re.fullmatch(
            rf"Kept, the {re.escape(bad)} is declared in the ([\w ]+) after trick (\d+) \((\d+)\)\.", sentence
        ):
            assert right
            later = next(t for t in deal.tricks if t.n == int(m[2]))
            events = [e for e in later.scoring if e.seat == play["seat"] and any(c.index == b for c in e.cards)]
            assert any(e.points == int(m[3]) for e in events), (sentence, events)
            # ... and no other copy of the card was drawn in between: the one declared is the one kept.
            between = [t for t in deal.tricks if trick.n <= t.n < later.n]
            assert not any(s == play["seat"] and c.index == b for t in between for s, c in t.draws)
        elif sentence == "The difference comes from the play that follows, not from this trick alone.":
            assert len(sentences) == 1
        else:
            raise AssertionError(f"a sentence of no known form: {sentence!r}")


def _points(deal: DealResult) -> list[Any]:
    tricks = [t for t in deal.tricks if t.state is not None]
    return list(play_points(tricks, tricks[0].state.rules.players))  # type: ignore[union-attr]


def _seat(state: Any, seat: int) -> str:
    return str(state.rules.seats[seat])


@pytest.mark.parametrize("sidecar", SIDECARS, ids=lambda p: p.name)
def test_every_moment_is_true_and_every_mistake_is_said(sidecar: Any) -> None:
    record = sidecar.name.removesuffix(".analysis.json")
    analysis = _sidecar(record)
    text = (GAMES / f"{record}.bzq").read_text(encoding="utf-8")
    for game, deal in _deals(text):
        judged = _judged(analysis, game, deal.number)
        if not judged.get("plays"):
            continue
        plays = {(p["trick"], p["seat"]): p for p in judged["plays"]}
        said = []
        for line, en, ru in sampled_comments(deal, judged):
            trick = next(t for t in deal.tricks if t.line == line)
            seat = NAMES[re.search(r"(\w+)'s ", en)[1]]  # type: ignore[index]
            form, _, _ = _check_moment(deal, trick, plays[(trick.n, seat)], en)
            said.append((form, trick.n, seat))
            assert ru and "±" in ru and en.count("±") == ru.count("±") == 1
        mistakes = {(p["trick"], p["seat"]) for p in judged["plays"] if not p["exact"] and is_mistake(p)}
        assert {(t, s) for f, t, s in said if f == "mistake"} == mistakes
        assert sum(f == "right" for f, _, _ in said) <= _MOMENTS


def test_the_clearest_moments_are_chosen() -> None:
    # The worked deal's analysis, with every mistake removed: the moments said are the plays whose other card would
    # have cost the most (cost less two errors), and no play left unsaid clears the bar by more.
    analysis = _sidecar("worked-deal-000")
    ((game, deal),) = _deals((GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8"))
    judged = _judged(analysis, game, deal.number)
    bounds = {}
    for play in judged["plays"]:
        if play["exact"] or is_mistake(play):
            continue
        mine, mine_err = _difference(play, play["played"])
        found = []
        for option in play["options"]:
            other, err = _difference(play, option["card"])
            gap, both = mine - other, (mine_err**2 + err**2) ** 0.5
            if option["card"] != play["played"] and gap >= _MATTERS and gap >= 2 * both:
                found.append(gap - 2 * both)
        if found:
            bounds[(play["trick"], play["seat"])] = max(found)
    said = set()
    for line, en, _ru in sampled_comments(deal, judged):
        if en.startswith("A mistake"):
            continue
        trick = next(t for t in deal.tricks if t.line == line)
        said.add((trick.n, NAMES[en.split("'s ", 1)[0]]))
    assert len(said) == min(_MOMENTS, len(bounds)) and len(bounds) > _MOMENTS
    assert min(bounds[k] for k in said) >= max(v for k, v in bounds.items() if k not in said)


def test_a_difference_below_the_bar_is_not_said() -> None:
    analysis = _sidecar("worked-deal-000")
    ((game, deal),) = _deals((GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8"))
    judged = _judged(analysis, game, deal.number)
    play = next(p for p in judged["plays"] if not p["exact"] and not is_mistake(p) and len(p["options"]) > 1)
    # Every option the same as the card played, but one 19 points of the difference worse, with no error at all.
    mine = next(o for o in play["options"] if o["card"] == play["played"])
    flat = {**play, "options": [{**o, "mean": dict(mine["mean"]), "stderr": 0} for o in play["options"]]}
    worse = next(o for o in flat["options"] if o["card"] != play["played"])
    worse["mean"] = {s: v - (_MATTERS - 1 if s == play["seat"] else 0) for s, v in worse["mean"].items()}
    only = {"plays": [flat], "choices": []}
    assert list(sampled_comments(deal, only)) == []
    worse["mean"] = {s: v - (1 if s == play["seat"] else 0) for s, v in worse["mean"].items()}
    (remark,) = sampled_comments(deal, only)
    assert f"the {_glyph(worse['card'])} would have cost about {_MATTERS} ± 0 points" in remark[1]


@pytest.mark.parametrize("name", sorted(SAMPLED))
def test_the_constructed_records_are_the_samplers_games(name: str) -> None:
    # The record is the sampler's game on its seed (its play: the generator's, with a small analysis for speed), and
    # its commentary is what the commentary makes from the sidecar, the analysis of the record kept beside it.
    profile, seed = SAMPLED[name]
    text = (GAMES / f"constructed-{name}.bzq").read_text(encoding="utf-8")
    source = next(line for line in text.splitlines() if line.startswith("source: "))
    assert source.count(f"--profile {profile} --seed {seed} --player sampler") == 1
    made = generate_game(profile, seed, player="sampler", samples=2)

    def play(record: str) -> str:
        # (the deals without their comments, each a bracketed block on lines of its own)
        return re.sub(r"\n[ \t]*\{[^{}]*\}(?=\n)", "", record[record.index("\ndeal 1\n") :])

    assert play(text) == play(made)
    bare = text[: text.index("\ndeal 1\n")] + play(text)
    assert comment_record(bare, analysis=_sidecar(f"constructed-{name}")) == text
