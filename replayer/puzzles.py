"""Puzzles mined from games (``bezique puzzles``): positions with one clearly best card, in the last tricks (exact)
and in the first ones (sampled).

As lichess mines its puzzles, a position is kept only when exactly one card (identical copies aside) keeps the
optimum and every other legal card loses at least :data:`MARGIN` points to it, with best play afterwards (the
solver's values, replayer/analysis.py); at most one per deal, the clearest (the largest smallest loss, then the
earliest). Each puzzle is written as a record that ends in a question: the game up to the puzzle's trick, then the
trick with the quiz before the play it asks for and the solver's best line to the end of the deal, so that it
validates and renders as a lesson. ``index.html`` shows every puzzle as a quiz that works from ``file://``: the
position, a button for each legal card, and after a click the answer's value or the refutation of the card chosen.

The first tricks (while the stock lasts; tricks 1 to 24 in classic) are mined from the sampled analysis
(replayer/sampling.py), in the first ``early`` games of a run (``--early N``; each costs some seconds of CPU): every
play with two legal cards or more is screened on :data:`EARLY_SCREEN` sampled deals a card; a play where one card
leads every other by :data:`MARGIN` points is judged again on :data:`EARLY_SAMPLES` other sampled deals, and kept
when that card is best again and its lead over every other card, less 1.96 standard errors of the paired
differences, is still at least :data:`MARGIN` (best by 20 points at 95% confidence). At most one such puzzle a deal,
the one with the largest such bound. Its record is the whole game with the question before the play (the game's own
play follows: there is no single best line to show), and it says that it is sampled: the deals drawn, each card's
mean and the standard error of its loss. Only the acting seat's hand is shown: it does not see the other.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from . import writer as write
from .analysis import analyse_deal, best_line, canonical
from .cards import CARDS, SUITS, Card, display_key
from .distribute import run_tasks
from .files import write_atomic
from .notation import data_dir
from .rules.deal import trick_winner
from .rules.endgame import move_card
from .solver import OverBudget, Solver

__all__ = [
    "EARLY_DEALS",
    "EARLY_SAMPLES",
    "EARLY_SCREEN",
    "MARGIN",
    "Puzzle",
    "early_play",
    "mine_game",
    "mine_paths",
    "write_puzzles",
]

MARGIN = 20
"""The points every other card must lose to the answer."""

BUDGET = 300_000
"""Nodes one deal's search may visit while mining (a deal past it gives no puzzle)."""

EARLY_DEALS = 4
"""Games whose first tricks a run mines by default (``--early``): each takes about 10 seconds of CPU (8 to 11
measured on a loaded machine)."""

EARLY_SCREEN = 6
"""Sampled deals a card when screening a play of the first tricks."""

EARLY_SAMPLES = 48
"""Sampled deals a card (other ones) when judging again a play the screen kept."""

_Z95 = 1.96


class Puzzle:
    """One puzzle: where it comes from, the position, the answer, every wrong card with its refutation, and the
    record that poses it."""

    def __init__(self, data: dict[str, Any], record: str) -> None:
        self.data = data
        self.record = record


def _glyph(card: Card) -> str:
    return f"{card.rank.symbol}{card.suit.glyph}" if not card.is_wild else "★"


def _trick_words(plays: Sequence[tuple[str, int]], winner: str | None) -> str:
    cards = ", ".join(f"{s} {_glyph(CARDS[move_card(c)])}" for s, c in plays)
    return f"{cards} → {winner}" if winner else cards


def _line_tricks(state: Any, moves: list[tuple[int, list[tuple[int, int]]]]) -> list[str]:
    seats = state.rules.seats
    words = []
    for number, plays in moves:
        winner = plays[trick_winner([move_card(m) for _, m in plays], state.trump)][0]
        words.append(f"{number}. " + _trick_words([(seats[s], m) for s, m in plays], seats[winner]))
    return words


def mine_game(
    text: str,
    path: str,
    first_line: int = 1,
    game_number: int = 1,
    early: bool = False,
    seed: int = 0,
    tricks: range | None = None,
) -> list[Puzzle]:
    """The puzzles of one game's text (a part of a file starting at line ``first_line``); none when it does not
    validate. ``early``: its first tricks are mined too (sampled, from ``seed``; only those numbered in ``tricks``,
    when given)."""
    from .check import check_text

    result = check_text(text, path, states=True)
    if not result.valid or not result.games:
        return []
    game = result.games[0]
    lines = text.splitlines()
    found = []
    for deal in game.deals:
        if early:
            play = early_play(deal, seed, (path, game_number), tricks=tricks)
            if play is not None:
                found.append(_early_puzzle(play, deal, game, lines, path, game_number))
        analysis = analyse_deal(deal, BUDGET)
        endgame = analysis["endgame"]
        if endgame is None:
            continue
        chosen = None
        for play in endgame["plays"]:
            if len(play["best"]) != 1 or len(play["options"]) < 2:
                continue
            losses = [-o["delta"] for o in play["options"] if o["card"] != play["best"][0]]
            if min(losses) < MARGIN:
                continue
            if chosen is None or min(losses) > chosen[0]:
                chosen = (min(losses), play)
        if chosen is None:
            continue
        puzzle = _puzzle(chosen[1], deal, game, lines, first_line, path, game_number)
        if puzzle is not None:
            found.append(puzzle)
    return found


def _title(game: Any, path: str) -> str:
    """The game's title as its record gives it (``game "..."``), which a learner reads rather than its file's name;
    the file's stem for a record with no title."""
    return str(game.title or Path(path).stem)


def _where(path: str, game_number: int, deal: Any, game: Any, trick: Any, seat: str) -> dict[str, Any]:
    """A puzzle's source and position as the page shows them: the file (for the record's note, never shown to a
    learner), the game's title in each language it has one (``game "..."``, ``title[ru]:``), the game, deal and
    trick, the seat asked, the profile, the trumps and the scores before the trick."""
    state = trick.state
    rules = state.rules
    titles = {"en": _title(game, path)}
    titles.update(
        (key[6:-1], value.strip())
        for key, value in game.headers.items()
        if key.startswith("title[") and key.endswith("]") and value.strip()
    )
    return {
        "source": path,
        "titles": titles,
        "game": game_number,
        "deal": deal.number,
        "trick": trick.n,
        "seat": seat,
        "profile": game.profile.name,
        "trump": SUITS[state.trump].value if state.trump >= 0 else None,
        "trump_glyph": SUITS[state.trump].glyph if state.trump >= 0 else "",
        "scores": dict(zip(rules.scorers, state.scores(), strict=True)),
    }


def _puzzle(
    play: dict[str, Any], deal: Any, game: Any, lines: list[str], first_line: int, path: str, game_number: int
) -> Puzzle | None:
    trick = next(t for t in deal.tricks if t.n == play["trick"])
    state = trick.state
    if state is None:
        return None
    rules = state.rules
    index = next(i for i, (s, _) in enumerate(trick.plays) if s == play["seat"])
    before = [c.index for _, c in trick.plays[:index]]
    answer = Card.parse(play["best"][0])
    solver = Solver(BUDGET)
    try:
        line = best_line(state, before, solver, answer.index)
    except OverBudget:
        return None  # (the deal was solved within the budget, its line was not: no puzzle without its answer's line)
    if not line:
        return None
    wrong = []
    for option in play["options"]:
        if option["card"] == play["best"][0]:
            continue
        card = Card.parse(option["card"])
        try:
            refutation = best_line(state, before, solver, card.index) or []
        except OverBudget:
            refutation = []  # (shown without its line)
        wrong.append(
            {
                "card": option["card"],
                "glyph": _glyph(card),
                "loss": -option["delta"],
                "points": option["points"],
                "line": _line_tricks(state, refutation[:2]),
            }
        )
    best = next(o for o in play["options"] if o["card"] == play["best"][0])
    seat = play["seat"]
    hands: dict[str, list[str]] = {}
    for s in range(rules.players):
        held = state.held[s]
        ordered = sorted((c for c in range(33) if held[c]), key=lambda c: display_key(c))
        hands[rules.seats[s]] = [str(CARDS[c]) for c in ordered for _ in range(held[c])]
    points = ", ".join(f"{k} {v}" for k, v in best["points"].items())
    data = {
        **_where(path, game_number, deal, game, trick, seat),
        "double_dummy": rules.players > 2,
        "hands": hands,
        "trick_so_far": [{"seat": s, "card": str(c), "glyph": _glyph(c)} for s, c in trick.plays[:index]],
        "answer": {"card": play["best"][0], "glyph": _glyph(answer), "points": best["points"]},
        "line": _line_tricks(state, line),
        "wrong": wrong,
        "choices": [o["card"] for o in play["options"]],
    }
    # The record: the game as written up to the puzzle's trick, then the quiz and the solver's line to the end.
    cut = trick.line - 1  # (the game was replayed alone: its lines count from 1)
    kept = lines[:cut]
    while kept and not kept[-1].strip():
        kept.pop()
    seats = rules.seats
    question_en = write.question(f"Which card should {seat} play? One card keeps the best result.", play["best"][0])
    question_ru = write.question(
        f"Какой картой должен сыграть {seat}? Только одна сохраняет лучший результат.", play["best"][0], "ru"
    )
    out = list(kept)
    out.append(
        write.comment(
            f'A puzzle mined by bezique puzzles from "{_title(game, path)}", game {game_number}, deal {deal.number}, '
            f"trick {trick.n}: exactly one card keeps the best result (the solver's values, with best play "
            "afterwards).",
            "note",
        )
    )
    for n, (number, plays) in enumerate(line):
        winner = plays[trick_winner([move_card(m) for _, m in plays], state.trump)][0]
        ahead = {index: f"{question_en} {question_ru}"} if n == 0 else None
        out.append(write.trick(number, [(seats[s], move_card(m)) for s, m in plays], seats[winner], ahead))
        if n == 0:
            refuted = "; ".join(f"{w['card']} loses {w['loss']}" for w in wrong)
            refuted_ru = "; ".join(f"{w['card']} теряет {w['loss']}" for w in wrong)
            out.append(
                write.comment(f"{play['best'][0]} keeps the best result: {points} from here. {refuted}.", item=True)
            )
            out.append(
                write.comment(
                    f"{play['best'][0]} сохраняет лучший результат: {points} отсюда до конца. {refuted_ru}.",
                    "ru",
                    True,
                )
            )
    return Puzzle(data, "\n".join(out) + "\n")


def early_play(
    deal: Any,
    seed: int,
    place: tuple[object, ...] = (),
    screen: int = EARLY_SCREEN,
    samples: int = EARLY_SAMPLES,
    tricks: range | None = None,
) -> dict[str, Any] | None:
    """The play of a replayed deal's first tricks (those numbered in ``tricks``, when given) where one card is best by
    :data:`MARGIN` points at 95% confidence (see the module docstring), as the sampled analysis's summary of the
    second judgement with ``trick``, ``seat``, ``played``, ``answer`` and ``bound`` (the smallest lead less 1.96
    standard errors); None where there is none. ``place`` goes into each play's seed."""
    from .rules.knowledge import Inconsistent
    from .sampling import judge, not_covered, play_points, seed_for, summary

    replayed = [t for t in deal.tricks if t.state is not None]
    if not replayed or not_covered(replayed[0].state) is not None:
        return None
    rules = replayed[0].state.rules
    names = list(rules.scorers)
    chosen: dict[str, Any] | None = None
    try:
        for trick, seat, card, state, facts in play_points(replayed, rules.players):
            if trick.phase != 1 or (tricks is not None and trick.n not in tricks):
                continue
            if len(state.legal_plays(seat)) < 2:
                continue
            side = rules.scorer[seat]
            where = (*place, deal.number, trick.n, seat)
            first = judge(state, seat, facts, screen, seed_for(seed, "early-screen", *where))
            best, lead = _lead(first.points, side)
            # (a loose screen, one standard error: most plays end here, and the second judgement costs eight times)
            if lead < MARGIN or _bound(first.points, best, side, 1.0) < MARGIN:
                continue
            again = judge(state, seat, facts, samples, seed_for(seed, "early", *where))
            best_again, _ = _lead(again.points, side)
            if again.cards[best_again] != first.cards[best]:
                continue
            bound = _bound(again.points, best_again, side)
            if bound < MARGIN or (chosen is not None and bound <= chosen["bound"]):
                continue
            found = summary(again, seat, card, names, side)
            chosen = {
                "trick": trick.n,
                "seat": rules.seats[seat],
                "played": str(CARDS[card]),
                "answer": str(CARDS[again.cards[best_again]]),
                "bound": round(bound, 2),
                **found,
                "losses": _losses(again.points, best_again, side),
            }
    except Inconsistent:  # (a record whose cards a seat cannot place: no early puzzle past that point)
        return chosen
    return chosen


def _differences(points: list[list[list[int]]], side: int) -> list[list[int]]:
    return [[p[side] - p[1 - side] for p in row] for row in points]


def _lead(points: list[list[list[int]]], side: int) -> tuple[int, float]:
    """The option with the best mean difference for ``side``, and its lead over the next best."""
    means = [sum(d) / len(d) for d in _differences(points, side)]
    best = max(range(len(means)), key=lambda i: means[i])
    others = [m for i, m in enumerate(means) if i != best]
    return best, means[best] - max(others)


def _paired(points: list[list[list[int]]], best: int, side: int) -> list[tuple[int, float, float]]:
    """Each other option: its index, the best option's mean lead over it and the lead's standard error (of the
    paired differences: the samples are shared)."""
    diffs = _differences(points, side)
    found = []
    for i, row in enumerate(diffs):
        if i == best:
            continue
        d = [b - o for b, o in zip(diffs[best], row, strict=True)]
        n = len(d)
        mean = sum(d) / n
        spread = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        found.append((i, mean, (spread / n) ** 0.5))
    return found


def _bound(points: list[list[list[int]]], best: int, side: int, z: float = _Z95) -> float:
    """The smallest lead of the best option over another, less ``z`` standard errors (1.96: the 95% bound)."""
    return min(mean - z * se for _, mean, se in _paired(points, best, side))


def _losses(points: list[list[list[int]]], best: int, side: int) -> dict[int, tuple[float, float]]:
    return {i: (round(mean, 1), round(se, 1)) for i, mean, se in _paired(points, best, side)}


_SAMPLED_WORDS = {
    # (the puzzle page's other words are the lessons' catalogue, replayer/lesson/words.py; these few stay here
    # until it has them)
    "en": (
        "Sampled, not exact: {n} deals drawn from what {seat} knows, each card played out on the same ones; a "
        "card's loss is its mean ± the standard error. The game's own play follows in the record.",
        "none exact (sampled); the record goes on with the game's own play",
    ),
    "ru": (
        "По выборке, не точно: {n} раскладов, согласных с тем, что знает {seat}, каждая карта разыграна на одних "
        "и тех же; проигрыш карты — среднее ± стандартная ошибка. Дальше в записи — игра, как она шла.",
        "точной нет (по выборке); дальше в записи — игра, как она шла",
    ),
}


def _early_puzzle(play: dict[str, Any], deal: Any, game: Any, lines: list[str], path: str, game_number: int) -> Puzzle:
    """The puzzle of a play of the first tricks (:func:`early_play`): the whole game with the question before the
    play, and the page's data (the acting seat's hand only)."""
    trick = next(t for t in deal.tricks if t.n == play["trick"])
    state = trick.state
    rules = state.rules
    seat = play["seat"]
    index = next(i for i, (s, _) in enumerate(trick.plays) if s == seat)
    answer = Card.parse(play["answer"])
    means = {o["card"]: o["mean"] for o in play["options"]}
    cards = [o["card"] for o in play["options"]]
    wrong = []
    for i, (loss, se) in play["losses"].items():
        card = Card.parse(cards[i])
        wrong.append(
            {"card": cards[i], "glyph": _glyph(card), "loss": f"{loss} ± {se}", "points": means[cards[i]], "line": []}
        )
    held = state.held[rules.seat_index[seat]]
    ordered = sorted((c for c in range(33) if held[c]), key=lambda c: display_key(c))
    data = {
        **_where(path, game_number, deal, game, trick, seat),
        "double_dummy": False,
        "sampled": {"samples": play["samples"], "bound": play["bound"]},
        "hands": {seat: [str(CARDS[c]) for c in ordered for _ in range(held[c])]},
        "trick_so_far": [{"seat": s, "card": str(c), "glyph": _glyph(c)} for s, c in trick.plays[:index]],
        "answer": {"card": play["answer"], "glyph": _glyph(answer), "points": means[play["answer"]]},
        "line": [],
        "wrong": wrong,
        "choices": cards,
    }
    refuted = "; ".join(f"{w['card']} loses {w['loss']}" for w in wrong)
    refuted_ru = "; ".join(f"{w['card']} теряет {w['loss']}" for w in wrong)
    n = play["samples"]
    # (where the game played another card, the question says that its answer is better than the play: a lesson then
    # shows the card played after the answer, docs/notation.md)
    better = "better" if play["played"] != play["answer"] else ""
    question_en = (
        f"{{?{f'[{better}]' if better else ''} Which card should {seat} play? One card is best by at least {MARGIN} "
        f"points (sampled). | {play['answer']} }}"
    )
    question_ru = (
        f"{{?[{f'{better} ' if better else ''}ru] Какой картой должен сыграть {seat}? Одна карта лучше прочих не "
        f"меньше чем на {MARGIN} очков (по выборке). | {play['answer']} }}"
    )
    # The record: the game as written, the trick's line written again with the question before the play.
    out = list(lines)
    at = trick.line - 1
    question = write.trick(
        trick.n, [(s, c) for s, c in trick.plays], trick.winner, {index: f"{question_en} {question_ru}"}
    )
    out[at : at + 1] = [
        f'{{ [note] A puzzle mined by bezique puzzles from "{_title(game, path)}", game {game_number}, deal '
        f"{deal.number}, trick "
        f"{trick.n}, sampled: on {n} deals drawn from what {seat} knows, {play['answer']} leads every other card by "
        f"at least {MARGIN} points at 95% confidence. {refuted}. }}",
        f"{{[ru] По выборке из {n} раскладов {play['answer']} лучше каждой другой карты не меньше чем на {MARGIN} "
        f"очков с доверием 95%. {refuted_ru}. }}",
        question,
    ]
    return Puzzle(data, "\n".join(out) + "\n")


def _mine_task(task: tuple[str, int, int, bytes, bool, int]) -> list[Puzzle]:
    path, game_number, first, data, early, seed = task
    return mine_game(data.decode("utf-8", errors="replace"), path, first, game_number, early, seed)


def _tasks(paths: Iterable[Path]) -> Iterator[tuple[str, int, int, bytes]]:
    from .check import game_chunks

    for path in paths:
        with path.open("rb") as handle:
            for number, (first, data) in enumerate(game_chunks(handle), 1):
                yield str(path), number, first, data


def mine_paths(
    paths: Sequence[Path],
    jobs: int = 1,
    progress: bool = True,
    early: int = EARLY_DEALS,
    seed: int = 0,
    cluster: str | None = None,
) -> list[Puzzle]:
    """The puzzles of every game of the files, in file and game order; ``jobs`` processes, or the workers of the
    Dask scheduler at ``cluster``; a progress bar on a terminal (stderr; not with a cluster). The first tricks of
    the first ``early`` games are mined too, sampled from ``seed`` (the same puzzles for any ``jobs`` and on a
    cluster)."""
    tasks = [(*task, n < early, seed) for n, task in enumerate(_tasks(paths))]
    if cluster is not None:
        return [p for puzzles in run_tasks(_mine_task, tasks, cluster) for p in puzzles]
    bar = _Bar(len(tasks)) if progress else None
    found: list[Puzzle] = []
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(jobs) as pool:
            # (one game a time while the early ones, seconds each, are being mined; then eight)
            for puzzles in pool.map(_mine_task, tasks, chunksize=1 if early else 8):
                found.extend(puzzles)
                if bar:
                    bar.advance(len(found))
    else:
        for task in tasks:
            found.extend(_mine_task(task))
            if bar:
                bar.advance(len(found))
    if bar:
        bar.close()
    return found


class _Bar:
    """A progress bar on stderr, only on a terminal: games mined of all, puzzles found."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.enabled = sys.stderr.isatty()
        self.width = 0

    def advance(self, puzzles: int) -> None:
        self.done += 1
        if not self.enabled:
            return
        filled = 30 * self.done // self.total
        line = f"mining [{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} games, {puzzles} puzzle(s)"
        self.width = max(self.width, len(line))
        sys.stderr.write("\r" + line)
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def _position(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """The position as a player sees it, in the page's language: each hand without the cards already played to the
    trick (those lie on the table), every card and seat as the lessons name them (Д♠, "дама пик"; Север)."""
    from .lesson import card_view, interface
    from .lesson.words import profile_text
    from .profiles import load_profile

    words = interface(lang)

    def view(code: str) -> dict[str, Any]:
        card = card_view(Card.parse(code), words)
        return {"code": code, "glyph": card.glyph, "label": card.label, "red": card.red, "view": card}

    def seat(name: str) -> str:
        return " & ".join(words.get(f"seat_{s}", s) for s in name.split("+"))

    hands = {s: list(cards) for s, cards in data["hands"].items()}
    for played in data["trick_so_far"]:
        hand = hands.get(played["seat"], [])
        if played["card"] in hand:
            hand.remove(played["card"])
    profile = load_profile(data["profile"])
    titles = data.get("titles") or {}
    return {
        "profile": profile_text(lang, profile.name, "title", profile.title),
        # The game as a reader knows it: its title in the page's language, else in English (marked as such).
        "title": titles.get(lang) or titles.get("en", ""),
        "title_lang": lang if lang in titles else "en",
        "seat": seat(data["seat"]),
        "hands": {seat(s): [view(c) for c in cards] for s, cards in hands.items()},
        "trick": [{"seat": seat(p["seat"]), **view(p["card"])} for p in data["trick_so_far"]],
        "choices": [view(c) for c in data["choices"]],
        "answer": view(data["answer"]["card"]),
        "answer_points": ", ".join(f"{seat(s)} {v}" for s, v in data["answer"]["points"].items()),
        "wrong": [
            {
                **w,
                "glyph": view(w["card"])["glyph"],
                "points": ", ".join(f"{seat(s)} {v}" for s, v in w["points"].items()),
            }
            for w in data["wrong"]
        ],
        "scores": ", ".join(f"{seat(s)} {v}" for s, v in data["scores"].items()),
    }


def _house(puzzle: Puzzle) -> tuple[list[str], tuple[int, int] | None]:
    """The rules of the puzzle's game that its values depend on: the options its record sets (``name = value``), and
    the last trick's number and points (often the margin between two cards), or None."""
    from .profiles import load_profile
    from .reader import read_record

    game = read_record(puzzle.record).games[0]
    profile = load_profile(puzzle.data["profile"])
    rules = profile.with_options({**profile.default_options(), **game.options})
    options = [f"{name} = {value}" for name, value in game.options.items()]
    if not rules.last_trick_points:
        return options, None
    trick = rules.phase1_tricks if rules.last_trick_at == "stock_end" else rules.total_tricks
    return options, (trick, rules.last_trick_points)


LANGUAGES = ("en", "ru")
"""The puzzle page's languages: English at the top of the folder, Russian in ``ru/``."""


def write_puzzles(puzzles: Sequence[Puzzle], out: Path) -> list[Path]:
    """Write each puzzle's record (``puzzle-0001.bzq``, ...) and the puzzle page, ``index.html`` in English and
    ``ru/index.html`` in Russian, into ``out``."""
    from .lesson import interface
    from .render import make_environment

    out.mkdir(parents=True, exist_ok=True)
    written = []
    entries = []
    for n, puzzle in enumerate(puzzles, 1):
        name = f"puzzle-{n:04d}.bzq"
        write_atomic(out / name, canonical(puzzle.record), durable=False)
        written.append(out / name)
        options, last = _house(puzzle)
        entries.append({**puzzle.data, "number": n, "file": name, "options": options, "last_trick": last})
    env = make_environment()
    # The lessons' stylesheet, so that the puzzles' cards and quizzes look as the lessons' do.
    style = data_dir("site_templates") / "static" / "style.css"
    (out / "static").mkdir(exist_ok=True)
    write_atomic(out / "static" / "style.css", style.read_text(encoding="utf-8"), durable=False)
    written.append(out / "static" / "style.css")
    for lang in LANGUAGES:
        t = interface(lang)
        folder = out if lang == LANGUAGES[0] else out / lang
        folder.mkdir(exist_ok=True)
        up = "" if folder == out else "../"
        pages = [
            {**e, "shown": _position(e, lang), "file": up + e["file"], **_sampled(e, lang, _house_words(e, t))}
            for e in entries
        ]
        others = [
            (
                other,
                interface(other)[f"language_{other}"],
                ("../" if up else "") + ("" if o == 0 else f"{other}/") + "index.html",
            )
            for o, other in enumerate(LANGUAGES)
            if other != lang
        ]
        page = env.get_template("puzzles.html").render(
            puzzles=pages, margin=MARGIN, t=t, lang=lang, others=others, root=up
        )
        write_atomic(folder / "index.html", page, durable=False)
        written.append(folder / "index.html")
    return written


def _sampled(entry: dict[str, Any], lang: str, house: str) -> dict[str, Any]:
    """The page's house rules line (``house``) and, for a sampled puzzle, what it says of it: the note after the
    house rules, and no best line."""
    if "sampled" not in entry:
        return {"house": house}
    note, line = _SAMPLED_WORDS[lang]
    said = note.format(n=entry["sampled"]["samples"], seat=_position(entry, lang)["seat"])
    return {"house": f"{house} {said}" if house else said, "line": [line]}


def _house_words(entry: dict[str, Any], t: Any) -> str:
    """The house rules of a puzzle in the page's words (empty when there are none to say)."""
    rules = list(entry["options"])
    if entry["last_trick"]:
        trick, points = entry["last_trick"]
        rules.append(t["puzzle_last_trick"].format(n=trick, points=points))
    return t["puzzle_house"].format(rules="; ".join(rules)) if rules else ""
