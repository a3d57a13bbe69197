"""A readable step-by-step trace of a replay for the terminal (``bezique replay FILE``)."""

from __future__ import annotations

import textwrap

from .cards import Card
from .explain import Scoring
from .replay import ReplayResult, TrickResult

__all__ = ["describe_scoring", "trace"]


def _cards(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


_PHRASES = {
    "seven_exchange": "exchanges {cards} for the turn-up {turnup}",
    "seven_shown": "shows {cards}, the other seven of trumps",
    "seven_played": "plays the seven of trumps {cards}",
    "turnup_seven": "deals with a seven turned up {cards}",
    "last_trick": "wins the last trick",
    "brisques": "brisques",
    "card_points": "card points {cards}",
    "cut_guess": "guessed the cut",
    "cut_lift": "lifted exactly the cut",
    "goes_out": "goes out",
}


def describe_scoring(event: Scoring, turnup: Card | None = None) -> str:
    """One line for a scoring event: ``N declares royal marriage KC QC +40``; ``turnup`` is the turn-up an
    exchange takes (the one before it)."""
    cards = _cards(list(event.cards)) if event.cards else ""
    phrase = _PHRASES.get(event.kind)
    if phrase is None and event.kind.startswith("penalty_"):
        phrase = f"penalty {event.kind[len('penalty_') :]}"
    elif phrase is None:
        phrase = f"declares {event.kind.replace('_', ' ')} {{cards}}"
    words = phrase.format(cards=cards, turnup=turnup or "").strip()
    return f"{event.seat} {words} {event.points:+d}"


def _comment(text: str, indent: str) -> list[str]:
    return textwrap.wrap(f"{{{text}}}", width=110, initial_indent=indent, subsequent_indent=indent + " ")


def _trick_lines(trick: TrickResult, show_hands: bool) -> list[str]:
    lines = []
    plays = ", ".join(f"{s} {c}" for s, c in trick.plays)
    phase = "" if trick.phase == 1 else "  [last tricks: follow suit and win]"
    lines.append(f"Trick {trick.n}: {plays} -> {trick.winner or '?'}{phase}")
    if show_hands:
        for seat, cards in trick.before.hands.items():
            table = trick.before.tables.get(seat) or []
            extra = f"   table: {_cards(table)}" if table else ""
            lines.append(f"    {seat} held {_cards(cards)}{extra}")
    for event in trick.scoring:
        lines.append(f"    {describe_scoring(event, trick.before.turnup)}")
    if trick.draws:
        lines.append("    draws " + ", ".join(f"{s} {c}" for s, c in trick.draws) + f"   (stock {trick.after.stock})")
    lines.append("    score " + ", ".join(f"{s} {v}" for s, v in trick.scores.items()))
    for comment in trick.comments:
        lines.extend(_comment(comment.text, "    "))
    return lines


def trace(result: ReplayResult, show_hands: bool = True) -> str:
    """The whole replay as text."""
    out: list[str] = []
    for game in result.games:
        out.append(f"== {game.title} ({game.profile.name}) ==")
        for key in ("source", "url", "page"):
            if key in game.headers:
                out.append(f"{key}: {game.headers[key]}")
        for deal in game.deals:
            trump = deal.trump.english if deal.trump else "none"
            out.append("")
            out.append(
                f"-- Deal {deal.number}: dealer {deal.dealer}, {deal.leader} leads, trumps {trump}, "
                f"turn-up {deal.turnup or '-'}"
            )
            for seat, cards in deal.hands.items():
                out.append(f"   {seat} dealt {_cards(cards)}")
            for event in deal.scoring:
                out.append(f"   {describe_scoring(event)}")
            for comment in deal.comments:
                out.extend(_comment(comment.text, "   "))
            for trick in deal.tricks:
                out.extend(_trick_lines(trick, show_hands))
            if deal.brisques:
                out.append("Brisques: " + ", ".join(f"{s} {v}" for s, v in deal.brisques.items()))
            out.append("Deal result: " + ", ".join(f"{s} {v}" for s, v in deal.scores.items()))
            for comment in deal.end_comments:
                out.extend(_comment(comment.text, "   "))
        if len(game.deals) > 1 or game.winner:
            out.append(
                "Game totals: "
                + ", ".join(f"{s} {v}" for s, v in game.scores.items())
                + (f"; winner {game.winner}" if game.winner else "")
            )
        out.append("")
    verdict = "valid" if result.valid else f"{len(result.diagnostics)} problem(s)"
    out.append(f"{result.path}: {verdict}")
    return "\n".join(out)
