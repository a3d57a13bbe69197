"""The read form of a record: games, deals, tricks and the statements in them, each with its position.

Plain classes with slots rather than dataclasses (which import inspect and run generated code at import: this module
is loaded by every validation that reads a record). They compare equal field by field as dataclasses did, and list
their fields in ``__match_args__`` (:func:`replayer.fmt.record_shape` reads them). A record holds a position for
every card, seat and number it reads, and most are never looked at: the reader (replayer/reader.py) gives them as
``(line, column, length)`` tuples, which a position field turns into a :class:`~replayer.errors.Span` when it is
first asked for. Anything else may set a field to a ``Span`` as before.
"""

from __future__ import annotations

from .cards import Card, CardLike, CardPattern, Suit
from .errors import Span

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    import re
    from typing import Any

    from .profile import RuleProfile

__all__ = [
    "Claim",
    "ClaimGame",
    "Comment",
    "Deal",
    "Declare",
    "Draw",
    "Draws",
    "Exchange",
    "Forfeit",
    "Game",
    "GoesOut",
    "Item",
    "Pass",
    "Penalty",
    "Play",
    "Position",
    "Question",
    "Record",
    "ScoreCheck",
    "SeatValue",
    "TableMeld",
    "Trick",
    "Variation",
    "deal_has_unknowns",
]

Where = Span | tuple[int, int, int] | tuple[int, int, tuple[int, int]] | tuple[int, int, "re.Match[str]", int]
"""A position as a field holds it: a Span, or until it is first asked for ``(line, column, length)``,
``(line, base, (start, end))`` (the offsets of a token on one line of the text read, ``base`` the offset before the
line's first character) or ``(line, base, match, group)``: the group of a regular expression's match that holds the
token (the reader's commonest statements: no offsets are taken out of the match until a position is wanted). In the
last, ``line`` may be a line before the token's (the first line of the match, or an earlier one), ``base`` the offset
before that line's first character: the token's line is counted from there, and a token over several lines (a
comment) underlined on its first, when the position is asked for."""


def _made(value: Any) -> Span:
    """The Span of a position held as a tuple."""
    if len(value) == 4:
        line, base, match, group = value
        start, end = match.span(group)
        text = match.string
        below = text.count("\n", base + 1, start)
        if below:  # (a token on a later line than ``line``)
            line += below
            base = text.rfind("\n", 0, start)
        cut = text.find("\n", start, end)
        return Span(line, start - base, end - start if cut < 0 else max(1, cut - start))
    line, column, length = value
    if length.__class__ is tuple:
        start, end = length
        return Span(line, start - column, end - start)
    return Span(line, column, length)


class _Span:
    """A position field over a slot named with a leading underscore: a tuple in it (see ``Where``) is made a Span
    (and kept) when the field is first read."""

    __slots__ = ("slot",)

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = owner.__dict__["_" + name]

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = self.slot.__get__(obj)
        if value.__class__ is tuple:
            value = _made(value)
            self.slot.__set__(obj, value)
        return value

    def __set__(self, obj: object, value: Where | None) -> None:
        self.slot.__set__(obj, value)


def _spans(values: Any) -> list[Span]:
    """A list of positions with its tuples made Spans (in place: the list is the record's)."""
    for index, value in enumerate(values):
        if value.__class__ is tuple:
            values[index] = _made(value)
    return values  # type: ignore[no-any-return]


def _fixed(value: Any) -> Any:
    """A field's value with the positions that refer to a match made Spans (a match cannot be pickled)."""
    if value.__class__ is tuple and len(value) == 4:
        return _made(value)
    if value.__class__ is list and value and value[0].__class__ is tuple:
        return [_fixed(v) for v in value]
    if value.__class__ is dict and value and next(iter(value.values())).__class__ is list:
        return {k: _fixed(v) for k, v in value.items()}
    return value


class _Node:
    """Equality field by field, and a readable repr, as a dataclass has; pickled (and copied) with its positions
    made Spans where they refer to the reader's match."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        names = (name for cls in type(self).__mro__ for name in getattr(cls, "__slots__", ()))
        return None, {name: _fixed(getattr(self, name)) for name in names}

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__match_args__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"


class Comment(_Node):
    """Commentary ``{ ... }``; attached to the statement it follows.

    ``{[ru] ...}`` is written in another language than English (docs/notation.md, "Texts in two languages");
    ``{[note] ...}`` is the transcriber's own reasoning (a choice, a reconstruction, a source), not the book's.
    ``lang`` is the language tag (``ru``; None: English, the notation's own language), ``note`` whether it is the
    transcriber's note rather than the book's commentary.
    """

    __slots__ = ("_span", "lang", "note", "text")
    __match_args__ = ("text", "span", "lang", "note")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, text: str, span: Where, lang: str | None = None, note: bool = False) -> None:
        self.text = text
        self._span = span
        self.lang = lang
        self.note = note


class Question(_Node):
    """A quiz question ``{? text | answers }`` placed before a play (``{?[ru] ...}`` in another language).

    ``lang``: the language tag (None: English); ``better``: ``{?[better] ...}``, the accepted answers are better than
    the card the record plays (the lesson shows both).
    """

    __slots__ = ("_span", "answers", "better", "lang", "text")
    __match_args__ = ("text", "answers", "span", "lang", "better")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self, text: str, answers: list[Card], span: Where, lang: str | None = None, better: bool = False
    ) -> None:
        self.text = text
        self.answers = answers
        self._span = span
        self.lang = lang
        self.better = better


class Play(_Node):
    """One card played to a trick; ``span`` is the card's position."""

    __slots__ = ("_seat_span", "_span", "card", "questions", "seat")
    __match_args__ = ("seat", "card", "span", "seat_span", "questions")
    span: Span = _Span()  # type: ignore[assignment]
    seat_span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self, seat: str, card: CardLike, span: Where, seat_span: Where, questions: list[Question] | None = None
    ) -> None:
        self.seat = seat
        self.card = card
        self._span = span
        self._seat_span = seat_span
        self.questions = questions if questions is not None else []


class SeatValue(_Node):
    """A number stated for a seat (``N 320``)."""

    __slots__ = ("_span", "seat", "value")
    __match_args__ = ("seat", "value", "span")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, seat: str, value: int, span: Where) -> None:
        self.seat = seat
        self.value = value
        self._span = span


class Exchange(_Node):
    """``N exchanges 7C = 10``."""

    __slots__ = ("_card_span", "_span", "card", "comments", "points", "seat")
    __match_args__ = ("seat", "card", "points", "span", "card_span", "comments")
    span: Span = _Span()  # type: ignore[assignment]
    card_span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        seat: str,
        card: CardLike,
        points: int | None,
        span: Where,
        card_span: Where,
        comments: list[Comment] | None = None,
    ) -> None:
        self.seat = seat
        self.card = card
        self.points = points
        self._span = span
        self._card_span = card_span
        self.comments = comments if comments is not None else []


class Declare(_Node):
    """``N declares royal_marriage KC QC = 40`` (or ``shows`` when ``scored`` is False).

    ``partner`` and ``partner_cards``: partnership profiles, the partner whose cards complete the declaration
    (``with S JD``).
    """

    __slots__ = (
        "_card_spans",
        "_kind_span",
        "_partner_card_spans",
        "_points_span",
        "_span",
        "cards",
        "comments",
        "kind",
        "partner",
        "partner_cards",
        "points",
        "scored",
        "seat",
    )
    __match_args__ = (
        "seat",
        "kind",
        "cards",
        "points",
        "span",
        "kind_span",
        "points_span",
        "card_spans",
        "scored",
        "comments",
        "partner",
        "partner_cards",
        "partner_card_spans",
    )
    span: Span = _Span()  # type: ignore[assignment]
    kind_span: Span | None = _Span()  # type: ignore[assignment]
    points_span: Span | None = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        seat: str,
        kind: str | None,
        cards: list[CardLike],
        points: int | None,
        span: Where,
        kind_span: Where | None,
        points_span: Where | None,
        card_spans: list[Any],
        scored: bool = True,
        comments: list[Comment] | None = None,
        partner: str | None = None,
        partner_cards: list[CardLike] | None = None,
        partner_card_spans: list[Any] | None = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.cards = cards
        self.points = points
        self._span = span
        self._kind_span = kind_span
        self._points_span = points_span
        self._card_spans = card_spans
        self.scored = scored
        self.comments = comments if comments is not None else []
        self.partner = partner
        self.partner_cards = partner_cards if partner_cards is not None else []
        self._partner_card_spans = partner_card_spans if partner_card_spans is not None else []

    @property
    def card_spans(self) -> list[Span]:
        """The position of each card."""
        return _spans(self._card_spans)

    @card_spans.setter
    def card_spans(self, value: list[Span]) -> None:
        self._card_spans = value

    @property
    def partner_card_spans(self) -> list[Span]:
        """The position of each of the partner's cards."""
        return _spans(self._partner_card_spans)

    @partner_card_spans.setter
    def partner_card_spans(self, value: list[Span]) -> None:
        self._partner_card_spans = value


class Pass(_Node):
    """``N passes to S``: the trick's winner lets his partner declare instead."""

    __slots__ = ("_partner_span", "_span", "comments", "partner", "seat")
    __match_args__ = ("seat", "partner", "span", "partner_span", "comments")
    span: Span = _Span()  # type: ignore[assignment]
    partner_span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self, seat: str, partner: str, span: Where, partner_span: Where, comments: list[Comment] | None = None
    ) -> None:
        self.seat = seat
        self.partner = partner
        self._span = span
        self._partner_span = partner_span
        self.comments = comments if comments is not None else []


class Claim(_Node):
    """``S scores seven_played = 10``: a statement of an automatic score, checked."""

    __slots__ = ("_span", "comments", "kind", "points", "seat")
    __match_args__ = ("seat", "kind", "points", "span", "comments")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self, seat: str, kind: str, points: int | None, span: Where, comments: list[Comment] | None = None
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.points = points
        self._span = span
        self.comments = comments if comments is not None else []


class ClaimGame(_Node):
    """``N claims game``: the seat says it has reached the game's target (002:L16, 004:L333); the replay asks the
    rules whether the claim may be made now and whether it is right, and the game applies its effect."""

    __slots__ = ("_span", "comments", "seat")
    __match_args__ = ("seat", "span", "comments")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, seat: str, span: Where, comments: list[Comment] | None = None) -> None:
        self.seat = seat
        self._span = span
        self.comments = comments if comments is not None else []


class Forfeit(_Node):
    """``N forfeits = 15``: the seat gives up the points an illegal play of the trick just played won it, the earlier
    tricks standing (002:L13); ``points`` as the record states them, checked."""

    __slots__ = ("_points_span", "_span", "comments", "points", "seat")
    __match_args__ = ("seat", "points", "span", "points_span", "comments")
    span: Span = _Span()  # type: ignore[assignment]
    points_span: Span | None = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        seat: str,
        points: int | None,
        span: Where,
        points_span: Where | None = None,
        comments: list[Comment] | None = None,
    ) -> None:
        self.seat = seat
        self.points = points
        self._span = span
        self._points_span = points_span
        self.comments = comments if comments is not None else []


class GoesOut(_Node):
    """``N goes out = 71``: the seat has reached the hand's target (66 in sixty-six), which ends the hand."""

    __slots__ = ("_span", "comments", "points", "seat")
    __match_args__ = ("seat", "points", "span", "comments")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, seat: str, points: int | None, span: Where, comments: list[Comment] | None = None) -> None:
        self.seat = seat
        self.points = points
        self._span = span
        self.comments = comments if comments is not None else []


class Penalty(_Node):
    """``N penalty extra_card = 50``: a penalty of the profile's table, deducted from the offender's score
    (``points``: the points deducted as the record states them, checked against the profile)."""

    __slots__ = ("_kind_span", "_points_span", "_span", "comments", "kind", "points", "seat")
    __match_args__ = ("seat", "kind", "points", "span", "kind_span", "points_span", "comments")
    span: Span = _Span()  # type: ignore[assignment]
    kind_span: Span = _Span()  # type: ignore[assignment]
    points_span: Span | None = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        seat: str,
        kind: str,
        points: int | None,
        span: Where,
        kind_span: Where,
        points_span: Where | None = None,
        comments: list[Comment] | None = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.points = points
        self._span = span
        self._kind_span = kind_span
        self._points_span = points_span
        self.comments = comments if comments is not None else []


class Draw(_Node):
    """One card drawn; ``span`` is the card's position."""

    __slots__ = ("_seat_span", "_span", "card", "seat")
    __match_args__ = ("seat", "card", "span", "seat_span")
    span: Span = _Span()  # type: ignore[assignment]
    seat_span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, seat: str, card: CardLike, span: Where, seat_span: Where) -> None:
        self.seat = seat
        self.card = card
        self._span = span
        self._seat_span = seat_span


class Draws(_Node):
    """``draws N KC, S 9D``."""

    __slots__ = ("_span", "comments", "draws")
    __match_args__ = ("draws", "span", "comments")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, draws: list[Draw], span: Where, comments: list[Comment] | None = None) -> None:
        self.draws = draws
        self._span = span
        self.comments = comments if comments is not None else []


class ScoreCheck(_Node):
    """``score N 10, S 0``, ``brisques ...``, ``result ...`` or ``total ...``: stated numbers to check."""

    __slots__ = ("_span", "comments", "values", "what")
    __match_args__ = ("what", "values", "span", "comments")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, what: str, values: list[SeatValue], span: Where, comments: list[Comment] | None = None) -> None:
        self.what = what
        self.values = values
        self._span = span
        self.comments = comments if comments is not None else []


Item = Exchange | Declare | Claim | GoesOut | Penalty | Draws | ScoreCheck | Pass | ClaimGame | Forfeit


class Position(_Node):
    """``position: trick 12, stock 9, N 120, S 80``: a book fragment starts here (docs/notation.md). ``trick``: the
    trick played next; ``stock``: the cards left to draw, the turn-up included (None: not stated); ``scores``: the
    running scores at that moment."""

    __slots__ = ("_span", "scores", "stock", "trick")
    __match_args__ = ("trick", "stock", "scores", "span")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, trick: int, stock: int | None, scores: list[SeatValue], span: Where) -> None:
        self.trick = trick
        self.stock = stock
        self.scores = scores
        self._span = span


class TableMeld(_Node):
    """``table N: royal_marriage KC QC``: in a fragment, a meld declared before its position, its cards lying face
    up on the seat's table (they are part of the seat's hand, and the re-use rules know what they were scored in)."""

    __slots__ = ("_span", "cards", "kind", "seat")
    __match_args__ = ("seat", "kind", "cards", "span")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, seat: str, kind: str, cards: list[CardLike], span: Where) -> None:
        self.seat = seat
        self.kind = kind
        self.cards = cards
        self._span = span


class Trick(_Node):
    """A trick and what follows it until the next trick. ``ordered`` is False when the record gives the trick's
    cards without saying who led (``N K? / S A?``)."""

    __slots__ = ("_span", "_winner_span", "comments", "items", "number", "ordered", "plays", "variations", "winner")
    __match_args__ = ("number", "plays", "winner", "winner_span", "span", "comments", "items", "ordered", "variations")
    span: Span = _Span()  # type: ignore[assignment]
    winner_span: Span | None = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        number: int,
        plays: list[Play],
        winner: str | None,
        winner_span: Where | None,
        span: Where,
        comments: list[Comment] | None = None,
        items: list[Item] | None = None,
        ordered: bool = True,
    ) -> None:
        self.number = number
        self.plays = plays
        self.winner = winner
        self._winner_span = winner_span
        self._span = span
        self.comments = comments if comments is not None else []
        self.items = items if items is not None else []
        self.ordered = ordered
        self.variations: list[Variation] = []
        """What-if lines that replace this trick, each replayed from the state before it (``(`` ... ``)``)."""


class Variation(_Node):
    """A what-if line written ``(`` ... ``)`` after a trick: tricks (with their items and their own variations) that
    replace that trick and what follows it, replayed from the state before it. ``comments``: those written on its
    ``(`` line or before its first trick, and on its ``)`` line."""

    __slots__ = ("_span", "comments", "tricks")
    __match_args__ = ("span", "comments", "tricks")
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(self, span: Where, comments: list[Comment] | None = None) -> None:
        self._span = span
        self.comments = comments if comments is not None else []
        self.tricks: list[Trick] = []


class Deal(_Node):
    """One deal (hand) of a game.

    ``cut``: how many cards the dealer lifted off the pack (the six-pack deal bonus, RULES.md §2.h rule 3), ``guess``
    the non-dealer's guess of it; ``opening``: declarations before the first trick (a carte blanche, RULES.md §2.e
    rule 9); ``spans``: where each deal header was written; ``end``: the brisques, result, total and game score
    statements after the last trick; ``redeal``: the deal says it is a misdeal, dealt again (002:L18), at
    ``redeal_span``; ``position`` and ``table``: where a book fragment starts (None and empty for a whole deal).

    What the reader (replayer/reader.py) notes while it builds the deal, so that nothing needs to walk the deal
    again to know it (a deal made otherwise keeps the defaults, as if nothing were noted; a copy keeps them as they
    are, whatever is changed in it afterwards). They are not fields of the record: equality, the repr and
    ``__match_args__`` leave them out.

    - ``seats_named``: the seats (letters) that the tricks' plays and draws name, and the seat that makes each item
      after a trick (an exchange, a declaration or a show, a pass, a claim, goes out, a penalty). Not a pass's or a
      declaration's partner, nor the seat of a declaration before the first trick (``opening``), nor the seats of
      hands and scores.
    - ``repeated_seat``: True when some trick names one seat twice among its plays.
    - ``lossy``: True when a card of the deal is unknown (a :class:`~replayer.cards.CardPattern`, such as ``Q?``):
      in a hand, the stock, a fragment's table, a play, a draw, a declaration (its cards or its partner's,
      ``opening`` included) or an exchange; or when a trick is written without its order (``ordered`` False,
      ``N K? / S A?``).
    - ``repaired``: True when a line of the deal did not read and was read with unknown cards in its place, or
      skipped (:func:`replayer.reader.read_record_recovering`): its completion does not hold the record's stated
      facts to the cards made up there.
    """

    __slots__ = (
        "_hand_card_spans",
        "_redeal_span",
        "_span",
        "comments",
        "cut",
        "dealer",
        "end",
        "guess",
        "hand_spans",
        "hands",
        "leader",
        "lossy",
        "number",
        "opening",
        "position",
        "redeal",
        "repaired",
        "repeated_seat",
        "seats_named",
        "spans",
        "stock",
        "table",
        "tricks",
        "trump",
        "turnup",
    )
    __match_args__ = (
        "number",
        "span",
        "dealer",
        "leader",
        "trump",
        "turnup",
        "hands",
        "hand_spans",
        "hand_card_spans",
        "stock",
        "cut",
        "guess",
        "opening",
        "spans",
        "comments",
        "tricks",
        "end",
        "redeal",
        "position",
        "table",
    )
    span: Span = _Span()  # type: ignore[assignment]
    redeal_span: Span | None = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        number: int | None,
        span: Where,
        dealer: str | None = None,
        leader: str | None = None,
        trump: Suit | None = None,
        turnup: Card | None = None,
        hands: dict[str, list[CardLike]] | None = None,
        hand_spans: dict[str, Span] | None = None,
        hand_card_spans: dict[str, list[Span]] | None = None,
        stock: list[CardLike] | None = None,
        cut: int | None = None,
        guess: int | None = None,
        opening: list[Item] | None = None,
        spans: dict[str, Span] | None = None,
        comments: list[Comment] | None = None,
        tricks: list[Trick] | None = None,
        end: list[ScoreCheck] | None = None,
        seats_named: set[str] | None = None,
        repeated_seat: bool = False,
        lossy: bool = False,
        redeal: bool = False,
        redeal_span: Where | None = None,
        position: Position | None = None,
        table: list[TableMeld] | None = None,
    ) -> None:
        self.number = number
        self._span = span
        self.dealer = dealer
        self.leader = leader
        self.trump = trump
        self.turnup = turnup
        self.hands = hands if hands is not None else {}
        self.hand_spans = hand_spans if hand_spans is not None else {}
        self._hand_card_spans: dict[str, list[Any]] = hand_card_spans if hand_card_spans is not None else {}
        self.stock = stock
        self.cut = cut
        self.guess = guess
        self.opening = opening if opening is not None else []
        self.spans = spans if spans is not None else {}
        self.comments = comments if comments is not None else []
        self.tricks = tricks if tricks is not None else []
        self.end = end if end is not None else []
        self.seats_named = seats_named if seats_named is not None else set()
        self.repeated_seat = repeated_seat
        self.lossy = lossy
        self.redeal = redeal
        self._redeal_span = redeal_span
        self.repaired = False
        self.position = position
        self.table = table if table is not None else []

    @property
    def hand_card_spans(self) -> dict[str, list[Span]]:
        """The position of each card of each hand."""
        for spans in self._hand_card_spans.values():
            _spans(spans)
        return self._hand_card_spans  # type: ignore[return-value]

    @hand_card_spans.setter
    def hand_card_spans(self, value: dict[str, list[Span]]) -> None:
        self._hand_card_spans = value


class Game(_Node):
    """One game: headers and its deals. ``headers``: the free-text headers (title, source, url, page, …);
    ``player_spans``: where each seat of the ``players`` header is written."""

    __slots__ = (
        "_span",
        "comments",
        "deals",
        "headers",
        "option_spans",
        "options",
        "player_spans",
        "players",
        "profile",
        "profile_span",
        "target",
        "target_span",
        "title",
        "winner",
        "winner_span",
    )
    __match_args__ = (
        "span",
        "title",
        "headers",
        "players",
        "profile",
        "profile_span",
        "options",
        "option_spans",
        "player_spans",
        "target",
        "deals",
        "winner",
        "winner_span",
        "comments",
    )
    span: Span = _Span()  # type: ignore[assignment]

    def __init__(
        self,
        span: Where,
        title: str | None = None,
        headers: dict[str, str] | None = None,
        players: dict[str, str] | None = None,
        profile: str = "classic",
        profile_span: Span | None = None,
        options: dict[str, str] | None = None,
        option_spans: dict[str, Span] | None = None,
        player_spans: dict[str, Span] | None = None,
        target: int | None = None,
        deals: list[Deal] | None = None,
        winner: str | None = None,
        winner_span: Span | None = None,
        comments: list[Comment] | None = None,
        target_span: Span | None = None,
    ) -> None:
        self._span = span
        self.title = title
        self.headers = headers if headers is not None else {}
        self.players = players if players is not None else {}
        self.profile = profile
        self.profile_span = profile_span
        self.options = options if options is not None else {}
        self.option_spans = option_spans if option_spans is not None else {}
        self.player_spans = player_spans if player_spans is not None else {}
        self.target = target
        self.target_span = target_span
        """Where the ``target`` header's value is written."""
        self.deals = deals if deals is not None else []
        self.winner = winner
        self.winner_span = winner_span
        self.comments = comments if comments is not None else []


class Record(_Node):
    """A read file: one or more games."""

    __slots__ = ("games", "path", "text")
    __match_args__ = ("path", "text", "games")

    def __init__(self, path: str, text: str, games: list[Game] | None = None) -> None:
        self.path = path
        self.text = text
        self.games = games if games is not None else []


# Here rather than in infer.py: every replay asks, and only a deal with unknowns needs the inference.
def deal_has_unknowns(deal: Deal, profile: RuleProfile, dealer: str | None = None) -> bool:
    """True when the deal leaves anything unknown: a card pattern, a hand, phase-1 draws, or who led a trick.

    ``profile`` is the profile as the game plays it (its options merged in: the seats and the tricks of phase 1);
    a ``dealer`` who sits the hand out (``sit_out``) has no hand to give."""
    sitter = dealer if profile.sit_out == "dealer" else None
    if any(seat not in deal.hands and seat != sitter for seat in profile.seats):
        return True
    # The reader noted whether any card is unknown (``lossy``): most deals have none, and are not searched for any.
    patterns = deal.lossy
    if patterns and any(isinstance(c, CardPattern) for cards in deal.hands.values() for c in cards):
        return True
    ended = False
    # Plain loops, the commonest statements first: every replay asks this of every trick.
    for index, trick in enumerate(deal.tricks):
        if patterns:
            if not trick.ordered:
                return True
            for play in trick.plays:
                if isinstance(play.card, CardPattern):
                    return True
        has_draws = ended
        for item in trick.items:
            kind = type(item)
            if kind is Draws:
                has_draws = True
                if patterns:
                    for draw in item.draws:  # type: ignore[union-attr]
                        if isinstance(draw.card, CardPattern):
                            return True
            elif kind is Declare:
                # A carte blanche written without its cards shows what the hand already gives (RULES.md §2.e
                # rule 9).
                declared: Declare = item  # type: ignore[assignment]
                spec = profile.meld(declared.kind) if declared.kind is not None else None
                whole_hand = spec is not None and spec.whole_hand
                if not whole_hand and (
                    not declared.cards or (patterns and any(isinstance(c, CardPattern) for c in declared.cards))
                ):
                    return True
            elif kind is Exchange:
                if patterns and isinstance(item.card, CardPattern):  # type: ignore[union-attr]
                    return True
            elif kind is GoesOut:
                has_draws = ended = True  # a hand that ends at its target (sixty-six's 66) draws no more
        if not has_draws and index < profile.phase1_tricks and deal.stock is None:
            if profile.hand_target and index == len(deal.tricks) - 1:
                # A hand may end at its target after its last trick (003:L25, 66 "заканчивает игру"): no draws
                # follow; a missing 'goes out' is the replay's to report (BZ507), not a card left unknown.
                continue
            return True
    return False
