"""The parsed form of a record: games, deals, tricks and the statements in them, each with its position."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Card, CardLike, CardPattern, Suit
from .errors import Span

if TYPE_CHECKING:
    from .profile import RuleProfile

__all__ = [
    "Claim",
    "Comment",
    "Deal",
    "Declare",
    "Draw",
    "Draws",
    "Exchange",
    "Game",
    "GoesOut",
    "Item",
    "Pass",
    "Penalty",
    "Play",
    "Question",
    "Record",
    "ScoreCheck",
    "SeatValue",
    "Trick",
    "deal_has_unknowns",
]


@dataclass
class Comment:
    """Commentary ``{ ... }``; attached to the statement it follows.

    ``{[ru] ...}`` is written in another language than English (docs/notation.md, "Texts in two languages");
    ``{[note] ...}`` is the transcriber's own reasoning (a choice, a reconstruction, a source), not the book's.
    """

    text: str
    span: Span
    lang: str | None = None
    """The language tag (``ru``); None: English, the notation's own language."""
    note: bool = False
    """The transcriber's note rather than the book's commentary."""


@dataclass
class Question:
    """A quiz question ``{? text | answers }`` placed before a play (``{?[ru] ...}`` in another language)."""

    text: str
    answers: list[Card]
    span: Span
    lang: str | None = None
    """The language tag (``ru``); None: English."""
    better: bool = False
    """``{?[better] ...}``: the accepted answers are better than the card the record plays (the lesson shows both)."""


@dataclass
class Play:
    """One card played to a trick."""

    seat: str
    card: CardLike
    span: Span
    """The card's position."""
    seat_span: Span
    questions: list[Question] = field(default_factory=list)


@dataclass
class SeatValue:
    """A number stated for a seat (``N 320``)."""

    seat: str
    value: int
    span: Span


@dataclass
class Exchange:
    """``N exchanges 7C = 10``."""

    seat: str
    card: CardLike
    points: int | None
    span: Span
    card_span: Span
    comments: list[Comment] = field(default_factory=list)


@dataclass
class Declare:
    """``N declares royal_marriage KC QC = 40`` (or ``shows`` when ``scored`` is False)."""

    seat: str
    kind: str | None
    cards: list[CardLike]
    points: int | None
    span: Span
    kind_span: Span | None
    points_span: Span | None
    card_spans: list[Span]
    scored: bool = True
    comments: list[Comment] = field(default_factory=list)
    partner: str | None = None
    """Partnership profiles: the partner whose cards complete the declaration (``with S JD``)."""
    partner_cards: list[CardLike] = field(default_factory=list)
    partner_card_spans: list[Span] = field(default_factory=list)


@dataclass
class Pass:
    """``N passes to S``: the trick's winner lets his partner declare instead."""

    seat: str
    partner: str
    span: Span
    partner_span: Span
    comments: list[Comment] = field(default_factory=list)


@dataclass
class Claim:
    """``S scores seven_played = 10``: a statement of an automatic score, checked."""

    seat: str
    kind: str
    points: int | None
    span: Span
    comments: list[Comment] = field(default_factory=list)


@dataclass
class GoesOut:
    """``N goes out = 71``: the seat has reached the hand's target (66 in sixty-six), which ends the hand."""

    seat: str
    points: int | None
    span: Span
    comments: list[Comment] = field(default_factory=list)


@dataclass
class Penalty:
    """``N penalty extra_card = 50``: a penalty of the profile's table, deducted from the offender's score."""

    seat: str
    kind: str
    points: int | None
    """The points deducted, as the record states them (checked against the profile)."""
    span: Span
    kind_span: Span
    points_span: Span | None = None
    comments: list[Comment] = field(default_factory=list)


@dataclass
class Draw:
    """One card drawn."""

    seat: str
    card: CardLike
    span: Span
    seat_span: Span


@dataclass
class Draws:
    """``draws N KC, S 9D``."""

    draws: list[Draw]
    span: Span
    comments: list[Comment] = field(default_factory=list)


@dataclass
class ScoreCheck:
    """``score N 10, S 0``, ``brisques ...``, ``result ...`` or ``total ...``: stated numbers to check."""

    what: str
    values: list[SeatValue]
    span: Span
    comments: list[Comment] = field(default_factory=list)


Item = Exchange | Declare | Claim | GoesOut | Penalty | Draws | ScoreCheck | Pass


@dataclass
class Trick:
    """A trick and what follows it until the next trick."""

    number: int
    plays: list[Play]
    winner: str | None
    winner_span: Span | None
    span: Span
    comments: list[Comment] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    ordered: bool = True
    """False when the record gives the trick's cards without saying who led (``N K? / S A?``)."""


@dataclass
class Deal:
    """One deal (hand) of a game."""

    number: int | None
    span: Span
    dealer: str | None = None
    leader: str | None = None
    trump: Suit | None = None
    turnup: Card | None = None
    hands: dict[str, list[CardLike]] = field(default_factory=dict)
    hand_spans: dict[str, Span] = field(default_factory=dict)
    hand_card_spans: dict[str, list[Span]] = field(default_factory=dict)
    """The position of each card of each hand."""
    stock: list[CardLike] | None = None
    cut: int | None = None
    """How many cards the dealer lifted off the pack (the six-pack deal bonus, RULES.md §2.h rule 3)."""
    guess: int | None = None
    """The non-dealer's guess of ``cut``."""
    opening: list[Item] = field(default_factory=list)
    """Declarations before the first trick (a carte blanche, RULES.md §2.e rule 9)."""
    spans: dict[str, Span] = field(default_factory=dict)
    """Where each deal header was written."""
    comments: list[Comment] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    end: list[ScoreCheck] = field(default_factory=list)
    """brisques, result, total and game score statements after the last trick."""


@dataclass
class Game:
    """One game: headers and its deals."""

    span: Span
    title: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    """Free-text headers: title, source, url, page, date, …"""
    players: dict[str, str] = field(default_factory=dict)
    profile: str = "classic"
    profile_span: Span | None = None
    options: dict[str, str] = field(default_factory=dict)
    option_spans: dict[str, Span] = field(default_factory=dict)
    player_spans: dict[str, Span] = field(default_factory=dict)
    """Where each seat of the ``players`` header is written."""
    target: int | None = None
    deals: list[Deal] = field(default_factory=list)
    winner: str | None = None
    winner_span: Span | None = None
    comments: list[Comment] = field(default_factory=list)


@dataclass
class Record:
    """A parsed file: one or more games."""

    path: str
    text: str
    games: list[Game] = field(default_factory=list)


# Here rather than in infer.py: every replay asks, and only a deal with unknowns needs the inference.
def deal_has_unknowns(deal: Deal, profile: RuleProfile) -> bool:
    """True when the deal leaves anything unknown: a card pattern, a hand, phase-1 draws, or who led a trick."""
    if any(seat not in deal.hands for seat in profile.seats):
        return True
    if any(isinstance(c, CardPattern) for cards in deal.hands.values() for c in cards):
        return True
    ended = False
    # Plain loops, the commonest statements first: every replay asks this of every trick.
    for index, trick in enumerate(deal.tricks):
        if not trick.ordered:
            return True
        for play in trick.plays:
            if isinstance(play.card, CardPattern):
                return True
        has_draws = ended
        for item in trick.items:
            if isinstance(item, Draws):
                has_draws = True
                for draw in item.draws:
                    if isinstance(draw.card, CardPattern):
                        return True
            elif isinstance(item, Declare):
                # A carte blanche written without its cards shows what the hand already gives (RULES.md §2.e
                # rule 9).
                spec = profile.meld(item.kind) if item.kind is not None else None
                whole_hand = spec is not None and spec.whole_hand
                if not whole_hand and (not item.cards or any(isinstance(c, CardPattern) for c in item.cards)):
                    return True
            elif isinstance(item, Exchange):
                if isinstance(item.card, CardPattern):
                    return True
            elif isinstance(item, GoesOut):
                has_draws = ended = True  # a hand that ends at its target (sixty-six's 66) draws no more
        if not has_draws and index < profile.phase1_tricks and deal.stock is None:
            return True
    return False
