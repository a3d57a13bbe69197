"""What a replay shows: each trick, deal and game as replayed, the core's state as a view sees it, and the JSON of
``bezique replay --json``.

:mod:`replayer.replay` fills these in as it replays a record; the trace, the lessons, the analysis and the completed
record read them. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter

from .cards import CARDS, Card, Suit
from .errors import Diagnostic
from .explain import Scoring
from .profile import RuleProfile
from .rules import DealState

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from typing import Any

    from .record import Comment, Question

__all__ = [
    "DealResult",
    "GameResult",
    "ReplayResult",
    "Snapshot",
    "TrickResult",
    "iter_tricks",
    "sorted_cards",
    "state_scores",
    "to_json",
]


def sorted_cards(cards: Any) -> list[Card]:
    """Cards in display order (``Card.sort_key``)."""
    return sorted(cards, key=_SORT_KEY)


_SORT_KEY = attrgetter("sort_key")  # in C: snapshots sort every hand after every trick


class Snapshot:
    """What lies in front of each seat at a moment: concealed hand and table cards, each sorted for display.

    The cards are sorted when first asked for: a lesson shows every snapshot, a validation none.
    """

    __slots__ = ("_hands", "_in_hand", "_on_table", "_tables", "scores", "stock", "turnup")

    scores: dict[str, int]
    stock: int
    turnup: Card | None

    def __init__(
        self,
        in_hand: dict[str, tuple[Card, ...]],
        on_table: dict[str, tuple[Card, ...]],
        scores: dict[str, int],
        stock: int,
        turnup: Card | None,
    ) -> None:
        self._in_hand = in_hand  # unsorted, until asked for
        self._on_table = on_table
        self._hands: dict[str, list[Card]] | None = None
        self._tables: dict[str, list[Card]] | None = None
        self.scores = scores
        self.stock = stock
        self.turnup = turnup

    @classmethod
    def of(cls, state: DealState) -> Snapshot:
        """What the state shows now (copied: the replay changes its state in place)."""
        rules = state.rules
        in_hand = {}
        on_table = {}
        for seat, name in enumerate(rules.seats):
            table = state.tables[seat]
            on_table[name] = tuple(CARDS[t.card] for t in table)
            counts = state.hand(seat) if table else state.held[seat]
            in_hand[name] = tuple(CARDS[c] for c, n in enumerate(counts) for _ in range(n))
        turnup = CARDS[state.turnup] if state.turnup >= 0 and state.turnup_waiting else None
        return cls(in_hand, on_table, state_scores(state), state.stock_count, turnup)

    @property
    def hands(self) -> dict[str, list[Card]]:
        """Each seat's concealed hand, sorted."""
        if self._hands is None:
            self._hands = {s: sorted_cards(cards) for s, cards in self._in_hand.items()}
        return self._hands

    @property
    def in_hand(self) -> dict[str, tuple[Card, ...]]:
        """Each seat's concealed hand, in no order: for a caller that numbers the cards and sorts the numbers (a
        lesson's board), which costs less than sorting the cards."""
        return self._in_hand

    @property
    def on_table(self) -> dict[str, tuple[Card, ...]]:
        """Each seat's declared cards lying face up, in no order (see :attr:`in_hand`)."""
        return self._on_table

    @property
    def tables(self) -> dict[str, list[Card]]:
        """Each seat's declared cards lying face up, sorted."""
        if self._tables is None:
            self._tables = {s: sorted_cards(cards) for s, cards in self._on_table.items()}
        return self._tables

    def _fields(self) -> tuple[object, ...]:
        return (self.hands, self.tables, self.scores, self.stock, self.turnup)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # (mutable, as the dataclass it was)

    def __repr__(self) -> str:
        hands, tables, scores, stock, turnup = self._fields()
        return f"Snapshot(hands={hands!r}, tables={tables!r}, scores={scores!r}, stock={stock!r}, turnup={turnup!r})"


def state_scores(state: DealState) -> dict[str, int]:
    """The core's running scores by scorer name."""
    return dict(zip(state.rules.scorers, state.scores(), strict=True))


class _Result:
    """Base of the replay's results: plain classes rather than dataclasses, which would load ``dataclasses``
    (and with it ``inspect``) on the start of every validation; compared and printed field by field."""

    __slots__: tuple[str, ...] = ()

    # A slot named with an underscore is the replay's working state kept for a tool (the language server), not a
    # field of the result: left out of comparisons and of the repr.
    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__ if name[0] != "_")

    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__ if name[0] != "_")
        return f"{type(self).__name__}({fields})"


class TrickResult(_Result):
    """One trick as replayed: who led, the plays, the winner, the scores booked (``scoring``), the draws, the
    running scores after it, what lay in front of each seat before and after it, and the record's comments and
    questions (each question with the seat whose play it asks about)."""

    __slots__ = (
        "after",
        "before",
        "comments",
        "draws",
        "leader",
        "line",
        "n",
        "phase",
        "plays",
        "questions",
        "scores",
        "scoring",
        "state",
        "variation_comments",
        "variations",
        "winner",
    )

    def __init__(
        self,
        n: int,
        leader: str,
        phase: int,
        plays: list[tuple[str, Card]],
        winner: str | None,
        scoring: list[Scoring],
        draws: list[tuple[str, Card]],
        scores: dict[str, int],
        before: Snapshot,
        after: Snapshot,
        comments: list[Comment] | None = None,
        questions: list[tuple[str, Question]] | None = None,
        line: int = 0,
    ) -> None:
        self.n = n
        self.leader = leader
        self.phase = phase
        self.plays = plays
        self.winner = winner
        self.scoring = scoring
        self.draws = draws
        self.scores = scores
        self.before = before
        self.after = after
        self.comments = comments if comments is not None else []
        self.questions = questions if questions is not None else []
        self.line = line
        self.state: DealState | None = None
        """The core's state before the trick, kept when the replay is asked for states (the analysis)."""
        self.variations: list[list[TrickResult]] = []
        """The record's what-if lines from this trick: each a list of tricks replayed from its branch point."""
        self.variation_comments: list[list[Comment]] = []
        """Each what-if line's own comments (on its ``(`` and ``)`` lines)."""


class DealResult(_Result):
    """One deal as replayed.

    ``inference``: when the record left cards unknown, what the :class:`Completer` made of it
    (``replayer.infer.Inference``). ``game_points``: what the hand scores toward the game where the profile counts
    game points (sixty-six); else empty. ``trump_fixed``: without a turn-up, (trick after which, suit) when a
    declaration fixed trumps (RULES.md §2.e rule 4). ``game_scores``: a one-hand game's scores (Rubicon scoring,
    RULES.md §2.e rule 15); empty for games played to a target. ``tricks`` is empty unless the replay kept its
    views.
    """

    __slots__ = (
        "_line",
        "_state",
        "brisques",
        "comments",
        "dealer",
        "end_comments",
        "game_points",
        "game_scores",
        "hands",
        "inference",
        "leader",
        "number",
        "redealt",
        "scores",
        "scoring",
        "tricks",
        "trump",
        "trump_fixed",
        "turnup",
    )

    def __init__(
        self,
        number: int,
        dealer: str,
        leader: str,
        trump: Suit | None,
        turnup: Card | None,
        hands: dict[str, list[Card]],
        scoring: list[Scoring] | None = None,
        comments: list[Comment] | None = None,
        inference: Any = None,
    ) -> None:
        self.number = number
        self.dealer = dealer
        self.leader = leader
        self.trump = trump
        self.turnup = turnup
        self.hands = hands
        self.tricks: list[TrickResult] = []
        self.scoring = scoring if scoring is not None else []
        self.brisques: dict[str, int] = {}
        self.scores: dict[str, int] = {}
        self.comments = comments if comments is not None else []
        self.end_comments: list[Comment] = []
        self.inference = inference
        self.game_points: dict[str, int] = {}
        self.trump_fixed: tuple[int, Suit] | None = None
        self.game_scores: dict[str, int] = {}
        self.redealt = False
        """The deal is a misdeal, dealt again (``redeal``, 002:L18): it scores nothing and has no tricks."""
        self._line = 0
        """The line of the deal in the record."""
        self._state: DealState | None = None
        """With views: the core's state after the deal's last trick (before the end of the hand is scored)."""


class GameResult(_Result):
    """One game as replayed: its headers, profile (as the record names it), options and players, its deals, the
    totals and the winner (None while nobody has won)."""

    __slots__ = (
        "_line",
        "comments",
        "deals",
        "headers",
        "options",
        "players",
        "profile",
        "scores",
        "title",
        "winner",
    )

    def __init__(
        self,
        title: str,
        headers: dict[str, str],
        profile: RuleProfile,
        options: dict[str, str | int],
        players: dict[str, str],
        comments: list[Comment] | None = None,
    ) -> None:
        self.title = title
        self.headers = headers
        self.profile = profile
        self.options = options
        self.players = players
        self.deals: list[DealResult] = []
        self.scores: dict[str, int] = {}
        self.winner: str | None = None
        self.comments = comments if comments is not None else []
        self._line = 0
        """The line of the game in the record."""


class ReplayResult(_Result):
    """A replayed record and every problem found in it."""

    __slots__ = ("diagnostics", "games", "path", "recovered", "text")

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.games: list[GameResult] = []
        self.diagnostics: list[Diagnostic] = []
        self.recovered: list[Any] = []
        """The lines that did not read and how the record was read past them (replayer.reader.Recovered)."""

    @property
    def valid(self) -> bool:
        """True when no problem was found (warnings aside)."""
        return not any(d.severity == "error" for d in self.diagnostics)


def _scoring_json(events: list[Scoring]) -> list[dict[str, Any]]:
    return [{"player": e.seat, "kind": e.kind, "cards": [str(c) for c in e.cards], "points": e.points} for e in events]


def _trick_json(t: TrickResult) -> dict[str, Any]:
    """A trick object of ``replay --json``; its ``variations`` are lines of trick objects of the same shape."""
    return {
        "n": t.n,
        "phase": t.phase,
        "leader": t.leader,
        "plays": [{"player": s, "card": str(c)} for s, c in t.plays],
        "winner": t.winner,
        "scoring": _scoring_json(t.scoring),
        "draws": [{"player": s, "card": str(c)} for s, c in t.draws],
        "scores": dict(t.scores),
        "variations": [[_trick_json(v) for v in line] for line in t.variations],
    }


def to_json(result: ReplayResult) -> dict[str, Any]:
    """The replay as JSON-ready data (the ``replay --json`` format)."""
    games = []
    for game in result.games:
        deals = []
        for deal in game.deals:
            deals.append(
                {
                    "number": deal.number,
                    "dealer": deal.dealer,
                    "leader": deal.leader,
                    "trump": deal.trump.value if deal.trump else None,
                    "turnup": str(deal.turnup) if deal.turnup else None,
                    "hands": {s: [str(c) for c in cards] for s, cards in deal.hands.items()},
                    "scoring": _scoring_json(deal.scoring),
                    "tricks": [_trick_json(t) for t in deal.tricks],
                    "brisques": dict(deal.brisques),
                    "scores": dict(deal.scores),
                }
            )
            if deal.redealt:  # (only where it happened: the other records' JSON is unchanged)
                deals[-1]["redeal"] = True
        games.append(
            {
                "title": game.title,
                "headers": game.headers,
                "profile": game.profile.name,
                "options": game.options,
                "players": game.players,
                "deals": deals,
                "scores": game.scores,
                "winner": game.winner,
            }
        )
    return {
        "path": result.path,
        "valid": result.valid,
        "errors": [d.to_json() for d in result.diagnostics],
        "games": games,
    }


def iter_tricks(result: ReplayResult) -> Iterator[tuple[GameResult, DealResult, TrickResult]]:
    """Every trick of every deal of every game, in order."""
    for game in result.games:
        for deal in game.deals:
            for trick in deal.tricks:
                yield game, deal, trick
