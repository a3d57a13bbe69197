"""Puzzles mined from games (``bezique puzzles``): positions of the last tricks with one clearly best card.

As lichess mines its puzzles, a position is kept only when exactly one card (identical copies aside) keeps the
optimum and every other legal card loses at least :data:`MARGIN` points to it, with best play afterwards (the
solver's values, replayer/analysis.py); at most one per deal, the clearest (the largest smallest loss, then the
earliest). Each puzzle is written as a record that ends in a question: the game up to the puzzle's trick, then the
trick with the quiz before the play it asks for and the solver's best line to the end of the deal, so that it
validates and renders as a lesson. ``index.html`` shows every puzzle as a quiz that works from ``file://``: the
position, a button for each legal card, and after a click the answer's value or the refutation of the card chosen.
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
from .files import write_atomic
from .notation import data_dir
from .rules.deal import trick_winner
from .rules.endgame import move_card
from .solver import Solver

__all__ = ["MARGIN", "Puzzle", "mine_game", "mine_paths", "write_puzzles"]

MARGIN = 20
"""The points every other card must lose to the answer."""

BUDGET = 300_000
"""Nodes one deal's search may visit while mining (a deal past it gives no puzzle)."""


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


def mine_game(text: str, path: str, first_line: int = 1, game_number: int = 1) -> list[Puzzle]:
    """The puzzles of one game's text (a part of a file starting at line ``first_line``); none when it does not
    validate."""
    from .check import check_text

    result = check_text(text, path, states=True)
    if not result.valid or not result.games:
        return []
    game = result.games[0]
    lines = text.splitlines()
    found = []
    for deal in game.deals:
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
    line = best_line(state, before, solver, answer.index)
    if not line:
        return None
    wrong = []
    for option in play["options"]:
        if option["card"] == play["best"][0]:
            continue
        card = Card.parse(option["card"])
        refutation = best_line(state, before, solver, card.index) or []
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
        "source": path,
        "game": game_number,
        "deal": deal.number,
        "trick": trick.n,
        "seat": seat,
        "profile": game.profile.name,
        "trump": SUITS[state.trump].value if state.trump >= 0 else None,
        "trump_glyph": SUITS[state.trump].glyph if state.trump >= 0 else "",
        "double_dummy": rules.players > 2,
        "scores": dict(zip(rules.scorers, state.scores(), strict=True)),
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
    question_en = write.question(f"Which card should {seat} play? One card keeps the optimum.", play["best"][0])
    question_ru = write.question(
        f"Какой картой должен сыграть {seat}? Только одна сохраняет оптимум.", play["best"][0], "ru"
    )
    out = list(kept)
    out.append(
        write.comment(
            f"A puzzle mined by bezique puzzles from {path}, game {game_number}, deal {deal.number}, "
            f"trick {trick.n}: exactly one card keeps the optimum (the solver's values, with best play afterwards).",
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
            out.append(write.comment(f"{play['best'][0]} keeps the optimum: {points} from here. {refuted}.", item=True))
            out.append(
                write.comment(
                    f"{play['best'][0]} сохраняет оптимум: {points} отсюда до конца. {refuted_ru}.", "ru", True
                )
            )
    return Puzzle(data, "\n".join(out) + "\n")


def _mine_task(task: tuple[str, int, int, bytes]) -> list[Puzzle]:
    path, game_number, first, data = task
    return mine_game(data.decode("utf-8", errors="replace"), path, first, game_number)


def _tasks(paths: Iterable[Path]) -> Iterator[tuple[str, int, int, bytes]]:
    from .check import game_chunks

    for path in paths:
        with path.open("rb") as handle:
            for number, (first, data) in enumerate(game_chunks(handle), 1):
                yield str(path), number, first, data


def mine_paths(paths: Sequence[Path], jobs: int = 1, progress: bool = True) -> list[Puzzle]:
    """The puzzles of every game of the files, in file and game order; ``jobs`` processes; a progress bar on a
    terminal (stderr)."""
    tasks = list(_tasks(paths))
    bar = _Bar(len(tasks)) if progress else None
    found: list[Puzzle] = []
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for puzzles in pool.map(_mine_task, tasks, chunksize=8):
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
    return {
        "profile": profile_text(lang, profile.name, "title", profile.title),
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
            {**e, "shown": _position(e, lang), "file": up + e["file"], "house": _house_words(e, t)} for e in entries
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


def _house_words(entry: dict[str, Any], t: Any) -> str:
    """The house rules of a puzzle in the page's words (empty when there are none to say)."""
    rules = list(entry["options"])
    if entry["last_trick"]:
        trick, points = entry["last_trick"]
        rules.append(t["puzzle_last_trick"].format(n=trick, points=points))
    return t["puzzle_house"].format(rules="; ".join(rules)) if rules else ""
