"""The notation's one writer: the text of each statement a program writes, in the canonical form ``bezique fmt``
prints (docs/notation.md, "Canonical form").

The random and the better player (:mod:`replayer.generate`), the puzzles, the completed record of ``bezique infer``
and the analysis's variations write their records with these functions, so that a statement is spelt in one place;
:mod:`replayer.fmt` re-spells what a person wrote, keeping every comment where it was. Cards are :class:`Card`
objects or the core's ints (``Card.index``); seats and sides are their letters (``N``, ``N+S``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .cards import CARDS, Card, CardPattern

__all__ = [
    "ITEM",
    "cards_text",
    "comment",
    "declare",
    "draws",
    "exchange",
    "game",
    "goes_out",
    "hand",
    "header",
    "options",
    "passes",
    "plays",
    "position",
    "question",
    "scores",
    "show",
    "table",
    "trick",
    "trick_parts",
    "words",
]

CardText = Card | CardPattern | int
"""A card as the writer takes it: a card, a card partly unknown (``Q?``, in a record that a person wrote), or the
core's int."""


ITEM = "  "
"""The indentation of a statement that belongs to a trick (an exchange, a declaration, the draws, a score)."""


def _card(card: CardText) -> str:
    return str(CARDS[card] if isinstance(card, int) else card)


def cards_text(cards: Iterable[CardText]) -> str:
    """Cards separated by a space: ``KS QS``."""
    return " ".join(_card(c) for c in cards)


def header(keyword: str, *values: str) -> str:
    """``dealer: N``, ``trump: S``, ``turnup: 10C``, ``profile: classic``: a header and its values."""
    return words([f"{keyword}:", *values])


def options(values: Mapping[str, str | int] | Sequence[tuple[str, str | int]]) -> str:
    """``options: target=1500, reuse=strict_text``, in the order given."""
    pairs = values.items() if isinstance(values, Mapping) else values
    return header("options", ", ".join(f"{name}={value}" for name, value in pairs))


def position(trick: int, stock: int | None, values: Mapping[str, int] | Sequence[tuple[str, int]]) -> str:
    """``position: trick 12, stock 9, N 120, S 80``: a book fragment's position (the stock may be left out)."""
    pairs = values.items() if isinstance(values, Mapping) else values
    parts = [f"trick {trick}", *([f"stock {stock}"] if stock is not None else []), *(f"{k} {v}" for k, v in pairs)]
    return header("position", ", ".join(parts))


def hand(seat: str, cards: Iterable[CardText]) -> str:
    """``hand N: AS 10S KS`` (a hand dealt no card: ``hand N:``)."""
    shown = cards_text(cards)
    return f"hand {seat}:{' ' + shown if shown else ''}"


def table(seat: str, kind: str, cards: Iterable[CardText]) -> str:
    """``table N: marriage KH QH``: a meld declared before a book fragment's position, lying face up."""
    return f"table {seat}: {kind} {cards_text(cards)}"


def trick_parts(
    number: int, plays: Sequence[tuple[str, CardText]], winner: str | None = None
) -> tuple[str, list[str], str]:
    """A trick line in its parts, for a writer that puts something between them (``fmt``'s questions): the head
    ``trick 4:``, each play ``N QS``, and the tail `` -> N`` (empty when the winner is left out)."""
    return f"trick {number}:", [f"{seat} {_card(card)}" for seat, card in plays], _winner(winner)


def trick(
    number: int,
    plays: Sequence[tuple[str, CardText]],
    winner: str | None = None,
    before: Mapping[int, str] | None = None,
) -> str:
    """``trick 4: N QS, S 9S -> N`` (the winner left out when None); ``before`` puts a text (a question) in front of
    the plays it numbers (from 0): ``trick 4: {? ... } N QS, S 9S``."""
    head, played, tail = trick_parts(number, plays, winner)
    ahead = before or {}
    return f"{head} {', '.join(f'{ahead[i]} {p}' if i in ahead else p for i, p in enumerate(played))}{tail}"


def plays(played: Sequence[tuple[str, CardText]], unordered: bool = False) -> str:
    """The plays of a trick line alone: ``N QS, S 9S``; ``unordered``, where the record does not say who led,
    ``N K? / S A?``."""
    return (" / " if unordered else ", ").join(trick_parts(0, played)[1])


def _winner(winner: str | None) -> str:
    return f" -> {winner}" if winner is not None else ""


def draws(drawn: Sequence[tuple[str, CardText]]) -> str:
    """``  draws N KC, S 9D``, in the order drawn."""
    return f"{ITEM}draws {', '.join(f'{seat} {_card(card)}' for seat, card in drawn)}"


def exchange(seat: str, card: CardText, points: int | None = None) -> str:
    """``  N exchanges 7C = 10``."""
    return f"{ITEM}{seat} exchanges {_card(card)}{_points(points)}"


def declare(
    seat: str,
    kind: str | None,
    cards: Iterable[CardText] = (),
    points: int | None = None,
    partner: str | None = None,
    partner_cards: Iterable[CardText] = (),
) -> str:
    """``  N declares marriage KS QS = 20``; with a partner's cards, ``... with S QH = 40``; a carte blanche may
    name no card."""
    text = words([f"{ITEM}{seat}", "declares", kind, cards_text(cards)])
    theirs = cards_text(partner_cards)
    if partner is not None and theirs:
        text += f" with {partner} {theirs}"
    return text + _points(points)


def show(seat: str, kind: str | None, cards: Iterable[CardText]) -> str:
    """``  N shows marriage KS QS``: laid out, not scored (the kind may be left out)."""
    return words([f"{ITEM}{seat}", "shows", kind, cards_text(cards)])


def passes(seat: str, partner: str) -> str:
    """``  N passes to S``: the trick's winner lets his partner declare."""
    return f"{ITEM}{seat} passes to {partner}"


def goes_out(seat: str, points: int | None) -> str:
    """``  N goes out = 66`` (the points may be left out)."""
    return f"{ITEM}{seat} goes out{_points(points)}"


def scores(keyword: str, values: Mapping[str, int] | Sequence[tuple[str, int]], item: bool = False) -> str:
    """A line of stated scores: ``score N 330, S 0`` (``item``: indented under a trick), ``brisques ...``,
    ``result ...``, ``total ...``, ``game score ...``; the values by seat or side, or as (seat, value) pairs in the
    order written."""
    pairs = values.items() if isinstance(values, Mapping) else values
    return f"{ITEM if item else ''}{keyword} {', '.join(f'{seat} {value}' for seat, value in pairs)}"


def words(parts: Iterable[str | None], points: int | None = None) -> str:
    """A statement that is its words: one space between them (the empty and None left out), then `` = points``."""
    return " ".join(p for p in parts if p) + _points(points)


def game(title: str) -> str:
    """``game "Random classic game, seed 1"``: a game's title."""
    return words(["game", f'"{title}"'])


def comment(text: str, lang: str | None = None, item: bool = False) -> str:
    """``{ text }``: a comment a program adds (the completed record's notes); ``lang`` tags its language or kind
    (``{ [ru] ... }``); ``item``: indented under a trick."""
    return f"{ITEM if item else ''}{{ {f'[{lang}] ' if lang else ''}{text} }}"


def question(text: str, answer: str, lang: str | None = None) -> str:
    """``{? Which card should N play? | QS }``: a lesson's question and its answer, written in a trick line before
    the play it asks about; ``lang`` tags its language (``{? [ru] ... }``)."""
    return f"{{? {f'[{lang}] ' if lang else ''}{text} | {answer} }}"


def _points(points: int | None) -> str:
    return f" = {points}" if points is not None else ""
