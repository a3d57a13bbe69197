"""The notation's one writer: the text of each statement a program writes, in the canonical form ``bezique fmt``
prints (docs/notation.md, "Canonical form").

The random and the better player (:mod:`replayer.generate`), the puzzles, the completed record of ``bezique infer``
and the analysis's variations write their records with these functions, so that a statement is spelt in one place;
:mod:`replayer.fmt` re-spells what a person wrote, keeping every comment where it was. Cards are :class:`Card`
objects or the core's ints (``Card.index``); seats and sides are their letters (``N``, ``N+S``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .cards import CARDS, Card

__all__ = [
    "ITEM",
    "cards_text",
    "declare",
    "draws",
    "exchange",
    "goes_out",
    "hand",
    "passes",
    "scores",
    "trick",
]

ITEM = "  "
"""The indentation of a statement that belongs to a trick (an exchange, a declaration, the draws, a score)."""


def _card(card: Card | int) -> str:
    return str(CARDS[card] if isinstance(card, int) else card)


def cards_text(cards: Iterable[Card | int]) -> str:
    """Cards separated by a space: ``KS QS``."""
    return " ".join(_card(c) for c in cards)


def hand(seat: str, cards: Iterable[Card | int]) -> str:
    """``hand N: AS 10S KS``."""
    return f"hand {seat}: {cards_text(cards)}"


def trick(
    number: int,
    plays: Sequence[tuple[str, Card | int]],
    winner: str | None = None,
    before: Mapping[int, str] | None = None,
) -> str:
    """``trick 4: N QS, S 9S -> N`` (the winner left out when None); ``before`` puts a text (a question) in front of
    the plays it numbers (from 0): ``trick 4: {? ... } N QS, S 9S``."""
    ahead = before or {}
    words = [f"{ahead[i] + ' ' if i in ahead else ''}{seat} {_card(card)}" for i, (seat, card) in enumerate(plays)]
    text = f"trick {number}: {', '.join(words)}"
    return f"{text} -> {winner}" if winner is not None else text


def draws(drawn: Sequence[tuple[str, Card | int]]) -> str:
    """``  draws N KC, S 9D``, in the order drawn."""
    return f"{ITEM}draws {', '.join(f'{seat} {_card(card)}' for seat, card in drawn)}"


def exchange(seat: str, card: Card | int, points: int | None = None) -> str:
    """``  N exchanges 7C = 10``."""
    return f"{ITEM}{seat} exchanges {_card(card)}{_points(points)}"


def declare(
    seat: str,
    kind: str,
    cards: Iterable[Card | int] = (),
    points: int | None = None,
    partner: str | None = None,
    partner_cards: Iterable[Card | int] = (),
) -> str:
    """``  N declares marriage KS QS = 20``; with a partner's cards, ``... with S QH = 40``; a carte blanche may
    name no card."""
    shown = cards_text(cards)
    text = f"{ITEM}{seat} declares {kind}{' ' + shown if shown else ''}"
    theirs = cards_text(partner_cards)
    if partner is not None and theirs:
        text += f" with {partner} {theirs}"
    return text + _points(points)


def passes(seat: str, partner: str) -> str:
    """``  N passes to S``: the trick's winner lets his partner declare."""
    return f"{ITEM}{seat} passes to {partner}"


def goes_out(seat: str, points: int) -> str:
    """``  N goes out = 66``."""
    return f"{ITEM}{seat} goes out = {points}"


def scores(keyword: str, values: Mapping[str, int], item: bool = False) -> str:
    """A line of stated scores: ``score N 330, S 0`` (``item``: indented under a trick), ``brisques ...``,
    ``result ...``, ``total ...``, ``game score ...``."""
    return f"{ITEM if item else ''}{keyword} {', '.join(f'{seat} {value}' for seat, value in values.items())}"


def _points(points: int | None) -> str:
    return f" = {points}" if points is not None else ""
