"""The endgame analysis of a replayed record (``bezique analyse``): the exact value of every card in the last tricks.

For each deal, from the first trick played with the stock empty, the solver (replayer/solver.py) values every legal
card at every play: the points each side takes from that play to the end of the deal, this trick included, if that
card is played and everyone plays best afterwards. A play is a mistake when it takes its side fewer points than the
best card would; its cost is the difference. Games of three or four seats are valued double-dummy (all hands open,
each side playing for its own points), and say so. A deal the solver does not cover, or cannot solve within its
budget, gets a one-line reason instead of values: never a guess.

The data is the ``analyse --json`` format (docs/analysis.md); :func:`text` prints it for a terminal, and
:func:`variations_text` writes a record with the solver's best line at each mistake (``--write-variations``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import writer as write
from .cards import CARDS, SUITS, Card, display_key
from .replay import DealResult, ReplayResult, TrickResult
from .rules.deal import DealState, trick_winner
from .rules.endgame import Endgame, NotCovered, move_card, move_offer
from .solver import DEFAULT_BUDGET, OverBudget, Solver

__all__ = ["analyse", "analyse_deal", "best_line", "canonical", "endgame_tricks", "text", "variations_text"]

DOUBLE_DUMMY = "double-dummy: all hands open, each side playing for its own points"
"""What a value of a game of three or four seats means (said wherever one is shown)."""


def _card(move: int) -> str:
    return str(CARDS[move_card(move)])


def endgame_tricks(deal: DealResult) -> list[TrickResult]:
    """The deal's tricks from the first played with the stock empty (each with the core's state before it)."""
    tricks = deal.tricks
    for i, trick in enumerate(tricks):
        if trick.phase == 2 and trick.state is not None:
            return tricks[i:]
    return []


def analyse_deal(deal: DealResult, budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """One deal's analysis: ``{"number", "endgame"}``, the endgame None with a ``reason`` when there is none to
    give (no last tricks, a profile or position the solver does not cover, the budget exceeded)."""
    tricks = endgame_tricks(deal)
    if not tricks:
        return {"number": deal.number, "endgame": None, "reason": "the deal has no trick played with the stock empty"}
    start = tricks[0].state
    assert start is not None
    rules = start.rules
    names = list(rules.scorers)
    try:
        pos = Endgame.of(start)
    except NotCovered as exc:
        return {"number": deal.number, "endgame": None, "reason": str(exc)}
    solver = Solver(budget)
    try:
        value = solver.value(pos)
        plays = list(_plays(tricks, solver, names))
    except OverBudget as exc:
        return {"number": deal.number, "endgame": None, "reason": str(exc)}
    baseline = start.copy()
    baseline.finish()  # what the cards won before the last tricks count at the end (brisques, card points)
    before = baseline.scores()
    actual = {name: deal.scores[name] - before[i] for i, name in enumerate(names)}
    lost = dict.fromkeys(names, 0)
    for play in plays:
        lost[play["side"]] += play["cost"]
    endgame = {
        "first_trick": tricks[0].n,
        "trump": SUITS[start.trump].value if start.trump >= 0 else None,
        "double_dummy": rules.players > 2,
        "value": dict(zip(names, value, strict=True)),
        "actual": actual,
        "lost": lost,
        "plays": plays,
    }
    return {"number": deal.number, "endgame": endgame}


def _plays(tricks: list[TrickResult], solver: Solver, names: list[str]) -> Iterator[dict[str, Any]]:
    """Each play of the last tricks with the value of every legal card (a new position at each trick: the record's
    declarations between tricks are in the core's state)."""
    for trick in tricks:
        state = trick.state
        assert state is not None
        pos = Endgame.of(state)
        if pos.declarable or pos.target:
            solver = Solver(solver.budget)  # (their table keys count points from the position's start)
        rules = state.rules
        for seat_name, card in trick.plays:
            if pos.over:
                return
            seat = rules.seat_index[seat_name]
            side = rules.scorer[seat]
            # In display order (spades, hearts, diamonds, clubs; high cards first), as a hand is shown.
            options = sorted(solver.options(pos), key=lambda o: (*display_key(move_card(o[0])), o[0]))
            own = [_own(points, side) for _, points in options]
            top = max(own)
            chosen = next(
                (i for i, (m, _) in enumerate(options) if move_card(m) == card.index and move_offer(m) < 0), None
            )
            if chosen is None:  # a card the position does not offer (cannot happen in a valid record)
                return
            first = own.index(top)
            kept = options[first][1][side]
            best = [_card(m) for (m, _), o in zip(options, own, strict=True) if o == top]
            yield {
                "trick": trick.n,
                "seat": seat_name,
                "side": names[side],
                "played": str(card),
                "options": [
                    {
                        "card": _card(m),
                        "points": dict(zip(names, p, strict=True)),
                        "delta": 0 if o == top else p[side] - kept,
                        **_declared(pos, m),
                    }
                    for (m, p), o in zip(options, own, strict=True)
                ],
                "best": list(dict.fromkeys(best)),
                "cost": 0 if own[chosen] == top else max(kept - options[chosen][1][side], 0),
            }
            pos.make(options[chosen][0])


def _declared(pos: Endgame, move: int) -> dict[str, Any]:
    """A move that declares first (sixty-six, on lead): the declaration it makes."""
    if move_offer(move) < 0:
        return {}
    _, cards, points, kind = pos.offers[move_offer(move)]
    return {"declares": {"kind": kind, "cards": [_card(c) for c in cards], "points": points}}


def _own(points: tuple[int, ...], side: int) -> int:
    """What a side makes of a line: its points, less the other's where two sides share the points."""
    if len(points) == 2:
        return points[side] - points[1 - side]
    return points[side]


def analyse(
    result: ReplayResult,
    budget: int = DEFAULT_BUDGET,
    samples: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    cluster: str | None = None,
) -> dict[str, Any]:
    """The analysis of every deal of a valid replay (made with ``states=True``): the ``analyse --json`` data. With
    ``samples`` (``--all``), each deal also gets every play judged by the sampled analysis (replayer/sampling.py):
    ``plays``, or ``plays`` None and ``plays_reason`` where it does not cover the deal; in ``jobs`` processes, or on
    the Dask scheduler at ``cluster``."""
    games = []
    for game in result.games:
        games.append({"deals": [analyse_deal(deal, budget) for deal in game.deals]})
    if samples is not None:
        from .sampling import judge_deals

        pairs = [(g, deal) for g, game in enumerate(result.games, 1) for deal in game.deals]
        judged = iter(judge_deals(pairs, samples, seed, jobs, cluster))
        for found in games:
            for deal in found["deals"]:
                sampled = next(judged)
                deal["plays"] = sampled["plays"]
                if sampled["plays"] is None:
                    deal["plays_reason"] = sampled["reason"]
                else:
                    deal["choices"] = sampled["choices"]
    return {"path": result.path, "games": games}


def _signed(points: int) -> str:
    return "=" if points == 0 else f"−{-points}" if points < 0 else f"+{points}"


def text(analysis: dict[str, Any]) -> str:
    """The analysis for a terminal: per deal the optimum against the points taken, then every play of the last
    tricks with each legal card's value beside the best ("=" keeps the optimum, "−20" loses 20), and the mistakes."""
    out = []
    path = analysis["path"]
    for g, game in enumerate(analysis["games"], 1):
        for deal in game["deals"]:
            head = f"{path}: game {g}, deal {deal['number']}"
            if "plays" in deal:
                out.extend(_sampled_text(head, deal))
            endgame = deal["endgame"]
            if endgame is None:
                out.append(f"{head}: not analysed: {deal['reason']}")
                continue
            trump = f", trumps {endgame['trump']}" if endgame["trump"] else ""
            out.append(f"{head}: the last tricks from trick {endgame['first_trick']}{trump}")
            if endgame["double_dummy"]:
                out.append(f"  values are {DOUBLE_DUMMY}")
            out.append(f"  optimum {_points(endgame['value'])}; taken {_points(endgame['actual'])}")
            out.append(f"  points lost to the optimum: {_points(endgame['lost'])}")
            mistakes = []
            for play in endgame["plays"]:
                values = "  ".join(f"{o['card']}{_decl(o)} {_signed(o['delta'])}" for o in play["options"])
                mark = "" if play["cost"] == 0 else f"  ← loses {play['cost']}"
                out.append(f"  trick {play['trick']} {play['seat']} {play['played']}: {values}{mark}")
                if play["cost"]:
                    mistakes.append(play)
            if mistakes:
                for play in mistakes:
                    best = " or ".join(play["best"])
                    out.append(
                        f"  mistake: trick {play['trick']}, {play['seat']} plays {play['played']}; "
                        f"best {best}; costs {play['cost']}"
                    )
            else:
                out.append("  no mistake: every play keeps the optimum")
    return "\n".join(out) + "\n"


def _sampled_text(head: str, deal: dict[str, Any]) -> list[str]:
    """The sampled analysis of a deal's plays for a terminal: how many were judged, and the mistakes."""
    from .sampling import MISTAKE_POINTS, is_mistake

    plays = deal["plays"]
    if plays is None:
        return [f"{head}: plays not judged: {deal['plays_reason']}"]
    exact = sum(1 for p in plays if p["exact"])
    samples = max((p["samples"] for p in plays if not p["exact"]), default=0)
    out = [
        f"{head}: every play judged: {len(plays)} plays, {len(plays) - exact} on {samples} sampled deals each, "
        f"{exact} exact"
    ]
    mistakes = [p for p in plays if is_mistake(p)]
    for play in mistakes:
        best = " or ".join(play["best"])
        error = f" ± {play['cost_stderr']}" if not play["exact"] else ""
        out.append(
            f"  mistake: trick {play['trick']}, {play['seat']} plays {play['played']}; best {best}; "
            f"costs {play['cost']}{error} points of the difference"
        )
    choices = deal.get("choices", [])
    out.append(f"  declarations judged: {len(choices)} (each offer, and none, on the same sampled deals)")
    for choice in filter(is_mistake, choices):
        mistakes.append(choice)
        out.append(
            f"  mistake: after trick {choice['trick']}, {choice['seat']} declares {choice['made']}; best "
            f"{' or '.join(choice['best'])}; costs {choice['cost']} ± {choice['cost_stderr']} points of the difference"
        )
    if not mistakes:
        out.append(f"  no mistake (a cost of at least {MISTAKE_POINTS} points and two standard errors)")
    return out


def _decl(option: dict[str, Any]) -> str:
    declared = option.get("declares")
    return f" (declaring {declared['kind']} {declared['points']})" if declared else ""


def _points(points: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in points.items())


# --- the record with the best lines ---------------------------------------------------------------------------------


def best_line(
    state: DealState, played: list[int], solver: Solver, best: int
) -> list[tuple[int, list[tuple[int, int]]]] | None:
    """The solver's line from the state before a trick: the trick's first ``played`` cards as the record plays
    them, ``best`` instead of the next, then best play to the end. Tricks as (number, [(seat, move), ...]), a move
    being a card or a declaration with its lead (sixty-six). None when the line declares on its first lead, which
    the notation writes after the trick before the branch point."""
    pos = Endgame.of(state)
    for card in played:
        pos.make(card)
    pos.make(best)
    rest = solver.line(pos)
    for _ in range(len(played) + 1):
        pos.unmake()
    moves = [*played, best, *rest]
    if move_offer(moves[0]) >= 0:
        return None
    tricks: list[tuple[int, list[tuple[int, int]]]] = []
    seat = state.leader
    current: list[tuple[int, int]] = []
    number = state.trick_no + 1
    for move in moves:
        current.append((seat, move))
        if len(current) == state.playing:
            winner = current[trick_winner([move_card(m) for _, m in current], state.trump)][0]
            tricks.append((number, current))
            number += 1
            current = []
            seat = winner
        else:
            seat = state.next_seat[seat]
    return tricks


def variations_text(record_text: str, result: ReplayResult, analysis: dict[str, Any]) -> str:
    """The record's text with, after each trick holding a mistake, the solver's best line from that play as a
    variation ``( ... )`` with a comment giving its value. Everything else is kept as written."""
    lines = record_text.splitlines()
    inserts: dict[int, list[str]] = {}
    for game, found in zip(result.games, analysis["games"], strict=True):
        for deal, info in zip(game.deals, found["deals"], strict=True):
            endgame = info["endgame"]
            if endgame is None:
                continue
            by_trick = {t.n: t for t in deal.tricks}
            for play in endgame["plays"]:
                if not play["cost"]:
                    continue
                trick = by_trick[play["trick"]]
                state = trick.state
                assert state is not None
                index = next(i for i, (s, _) in enumerate(trick.plays) if s == play["seat"])
                before = [c.index for _, c in trick.plays[:index]]
                option = next(o for o in play["options"] if o["card"] == play["best"][0])
                if "declares" in option:
                    continue  # (a declaration on lead belongs to the trick before the branch point)
                line = best_line(state, before, Solver(), Card.parse(option["card"]).index)
                if line is None:
                    continue
                seats = state.rules.seats
                points = _points(option["points"])
                lost = play["cost"]
                block = [
                    f"  (  {{ [note] The solver's best line: {play['best'][0]} instead of {play['played']} "
                    f"takes {points} from here ({play['seat']} keeps {lost} more). }}"
                ]
                offers = Endgame.of(state).offers
                for number, plays in line:
                    lead = plays[0][1]
                    if move_offer(lead) >= 0:
                        _, meld, _, kind = offers[move_offer(lead)]
                        # (a variation's statements are indented one step more than the trick they follow)
                        block.append(write.ITEM + write.declare(seats[plays[0][0]], kind, meld))
                    winner = plays[trick_winner([move_card(m) for _, m in plays], state.trump)][0]
                    written = write.trick(number, [(seats[s], move_card(m)) for s, m in plays], seats[winner])
                    block.append(write.ITEM + written)
                block.append("  )")
                end = _trick_end(lines, trick.line)
                inserts.setdefault(end, []).extend(block)
    out: list[str] = []
    for number, written in enumerate(lines, 1):
        out.append(written)
        out.extend(inserts.get(number, []))
    return "\n".join(out) + "\n"


def _trick_end(lines: list[str], first: int) -> int:
    """The last line (1-based) of the trick starting at line ``first``: its items and comments, up to the next
    trick, variation, deal or end statement."""
    end = first
    depth = 0
    for number in range(first + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped.startswith("("):
            depth += 1
        if depth == 0 and (
            stripped.split(" ", 1)[0].lower()
            in ("trick", "deal", "game", "brisques", "result", "total", "winner", "взятка", "сдача", "партия")
            or stripped.lower().startswith("game score")
        ):
            break
        if stripped.startswith(")"):
            depth -= 1
        if stripped:
            end = number
    return end


def canonical(text: str) -> str:
    """A written record in the canonical form (``bezique fmt``), as the project keeps its records."""
    from .errors import BeziqueError
    from .fmt import format_text

    try:
        return format_text(text)
    except BeziqueError:  # (not for a record that validated: the text is then kept as it is)
        return text
