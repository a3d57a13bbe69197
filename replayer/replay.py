"""Replaying a record through the engine: every play, winner, declaration, draw and stated score is checked.

A replay never stops at the first problem. After an illegal action it carries the action out as written (the
card leaves the hand if it is there, the points claimed by a declaration are what the rules give), and it goes
on checking; a stated score that disagrees is reported once, and later statements are compared with the same
discrepancy so that one mistake is not reported again at every later score line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .cards import Card, CardLike, Suit
from .engine import (
    DealState,
    Scoring,
    Step,
    apply_cut,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_out,
    apply_pass,
    apply_penalty,
    apply_play,
    apply_show,
    finish_deal,
    game_points,
    next_dealer,
    start_deal,
)
from .errors import Diagnostic, NotationError, RuleProfileError, RuleViolation, Span
from .gamescore import game_score, game_winner
from .record import (
    Claim,
    Comment,
    Deal,
    Declare,
    Draws,
    Exchange,
    Game,
    GoesOut,
    Pass,
    Penalty,
    Play,
    Question,
    Record,
    ScoreCheck,
    Trick,
    deal_has_unknowns,
)
from .rules import RuleProfile, load_rules

__all__ = ["DealResult", "GameResult", "ReplayResult", "TrickResult", "replay_record", "to_json"]


def _sorted(cards: Any) -> list[Card]:
    return sorted(cards, key=_SORT_KEY)


_SORT_KEY = attrgetter("sort_key")  # in C: snapshots sort every hand after every trick


class Snapshot:
    """What lies in front of each seat at a moment: concealed hand and table cards, each sorted for display.

    The cards are sorted when first asked for: a lesson shows every snapshot, a validation none (sorting every hand
    after every trick took a fifth of a replay).
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
        seats = state.seats
        return cls(
            {s: tuple(v.hand.elements()) for s, v in seats.items()},
            {s: tuple(t.card for t in v.table) for s, v in seats.items()},
            state.scores(),
            state.stock_count,
            state.turnup if state.turnup_in_stock else None,
        )

    @property
    def hands(self) -> dict[str, list[Card]]:
        """Each seat's concealed hand, sorted."""
        if self._hands is None:
            self._hands = {s: _sorted(cards) for s, cards in self._in_hand.items()}
        return self._hands

    @property
    def tables(self) -> dict[str, list[Card]]:
        """Each seat's declared cards lying face up, sorted."""
        if self._tables is None:
            self._tables = {s: _sorted(cards) for s, cards in self._on_table.items()}
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


@dataclass
class TrickResult:
    """One trick as replayed."""

    n: int
    leader: str
    phase: int
    plays: list[tuple[str, Card]]
    winner: str | None
    scoring: list[Scoring]
    draws: list[tuple[str, Card]]
    scores: dict[str, int]
    before: Snapshot
    after: Snapshot
    comments: list[Comment] = field(default_factory=list)
    questions: list[tuple[str, Question]] = field(default_factory=list)
    """(seat whose play is asked, question)."""
    line: int = 0


@dataclass
class DealResult:
    """One deal as replayed."""

    number: int
    dealer: str
    leader: str
    trump: Suit | None
    turnup: Card | None
    hands: dict[str, list[Card]]
    tricks: list[TrickResult] = field(default_factory=list)
    scoring: list[Scoring] = field(default_factory=list)
    brisques: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    comments: list[Comment] = field(default_factory=list)
    end_comments: list[Comment] = field(default_factory=list)
    inference: Any = None
    """When the record left cards unknown: the :class:`~replayer.infer.Inference` that completed it."""
    game_points: dict[str, int] = field(default_factory=dict)
    """What the hand scores toward the game where the profile counts game points (sixty-six); else empty."""
    trump_fixed: tuple[int, Suit] | None = None
    """Without a turn-up: (trick after which, suit) when a declaration fixed trumps (RULES.md §2.e rule 4)."""
    game_scores: dict[str, int] = field(default_factory=dict)
    """A one-hand game's scores (Rubicon scoring, RULES.md §2.e rule 15); empty for games played to a target."""


@dataclass
class GameResult:
    """One game as replayed."""

    title: str
    headers: dict[str, str]
    profile: RuleProfile
    options: dict[str, str | int]
    players: dict[str, str]
    deals: list[DealResult] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    comments: list[Comment] = field(default_factory=list)


@dataclass
class ReplayResult:
    """A replayed record and every problem found in it."""

    path: str
    text: str
    games: list[GameResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True when no problem was found."""
        return not any(d.severity == "error" for d in self.diagnostics)


class _Replayer:
    def __init__(self, record: Record, infer: bool = True, analyse: bool = False) -> None:
        self.record = record
        self.result = ReplayResult(record.path, record.text)
        self.infer = infer
        self.analyse = analyse
        self.current_trick = 0.0
        self.problem_tricks: list[float] = []
        self.banked: dict[str, int] = {}
        """Each scorer's game total from the earlier hands of the game being replayed."""

    def report(self, code: str, message: str, span: Span | None) -> None:
        self.result.diagnostics.append(Diagnostic(code, message, span, self.record.path))
        self.problem_tricks.append(self.current_trick)

    def violations(self, step: Step, span: Span | None, seat_span: Span | None = None) -> None:
        for v in step.violations:
            where = seat_span if (v.code == "BZ202" and seat_span is not None) else span
            self.report(v.code, v.message, where)

    def run(self) -> ReplayResult:
        for game in self.record.games:
            self.game(game)
        return self.result

    def game(self, game: Game) -> None:
        try:
            profile = load_rules(game.profile)
        except RuleProfileError as exc:
            self.report("BZ103", str(exc), game.profile_span or game.span)
            return
        try:
            options = profile.resolve_options(game.options)
        except ValueError as exc:
            culprit = next(
                (n for n in game.options if n not in profile.options or str(exc).startswith(f"option {n} ")), None
            )
            self.report("BZ104", str(exc), game.option_spans.get(culprit or "", game.span))
            options = profile.default_options()
        if game.target is not None and "target" in options:
            options["target"] = game.target
        for seat in game.players:
            if seat not in profile.seats:
                self.report(
                    "BZ105",
                    f"seat {seat} is not used by the {profile.name} profile (seats: {' '.join(profile.seats)})",
                    game.player_spans.get(seat, game.span),
                )
        result = GameResult(
            title=game.title or game.headers.get("title") or "Untitled game",
            headers=dict(game.headers),
            profile=profile,
            options=dict(options),
            players={s: game.players.get(s, s) for s in profile.seats},
            comments=list(game.comments),
        )
        self.result.games.append(result)
        totals = dict.fromkeys(profile.scorers, 0)
        previous: DealResult | None = None
        decided: str | None = None
        for index, deal in enumerate(game.deals):
            expected = None
            if previous is not None:
                expected = next_dealer(profile.with_options(options), previous.dealer, previous.game_points)
            # What each scorer has from earlier hands: a penalty of all points takes it too.
            self.banked = dict(totals)
            outcome = self.deal(deal, profile, options, index + 1, expected)
            if outcome is None:
                return
            result.deals.append(outcome)
            previous = outcome
            # Where the profile counts game points (sixty-six), the game adds those up, not the hands' points.
            counted = outcome.game_points or outcome.scores
            for seat, points in counted.items():
                totals[seat] += points
            for check in deal.end:
                if check.what == "total":
                    self.check_values(check, totals, "BZ504", "game total after this deal", profile)
                elif check.what == "game":
                    if outcome.game_scores:
                        self.check_values(check, outcome.game_scores, "BZ504", "game score", profile)
                    else:
                        self.report("BZ504", f"the {profile.name} profile plays to a target: no game score", check.span)
            if decided is None:
                if profile.game_scoring is not None:
                    decided = game_winner(outcome.scores)
                else:
                    decided = self.decide(totals, options, outcome, profile)
        result.scores = totals
        result.winner = decided
        named = profile.resolve_scorer(game.winner) if game.winner is not None else None
        if game.winner is not None and named is None:
            self.report("BZ105", f"{game.winner} is not a seat or side of the {profile.name} profile", game.winner_span)
        elif game.winner is not None and named != decided:
            said = f"{decided} wins" if decided else "nobody has reached the target yet"
            self.report(
                "BZ505",
                f"the record names {game.winner} as the winner; by the rules {said} "
                f"(target {options.get('target')}, totals "
                f"{', '.join(f'{s} {v}' for s, v in totals.items())})",
                game.winner_span,
            )

    def decide(
        self, totals: dict[str, int], options: dict[str, str | int], deal: DealResult, profile: RuleProfile
    ) -> str | None:
        """The game's winner after this deal (None while nobody has reached the target)."""
        target = options.get("target")
        if not isinstance(target, int):
            return None
        over = [s for s, v in totals.items() if v >= target]
        if not over:
            return None
        if len(over) == 1:
            return over[0]
        if options.get("tie_rule") == "last_trick":
            last = str(options.get("last_trick", "final"))
            tricks = deal.tricks
            index = len(tricks) - 1
            if last == "24":
                index = next(
                    (
                        i
                        for i, t in enumerate(tricks)
                        if t.phase == 1 and (i + 1 == len(tricks) or tricks[i + 1].phase == 2)
                    ),
                    index,
                )
            # The winner of the last trick; when a third player (or side) took it, of those over the target the
            # one who won a trick last (001:L7, RULES.md §2.b rule 19).
            scorer = profile.scorer
            for trick in reversed(tricks[: index + 1]):
                if trick.winner is not None and scorer(trick.winner) in over:
                    return scorer(trick.winner)
        return max(over, key=lambda s: totals[s])

    def deal(
        self, deal: Deal, profile: RuleProfile, options: dict[str, str | int], number: int, expected_dealer: str | None
    ) -> DealResult | None:
        dealer = deal.dealer
        if dealer is None:
            dealer = expected_dealer
        elif expected_dealer is not None and dealer != expected_dealer and profile.next_dealer != "alternate":
            # Only a profile with a rule for the next dealer (sixty-six) checks it, under any value of its option;
            # the others let a record name any dealer.
            rule = profile.with_options(options).next_dealer
            said = "the deal passes in turn" if rule == "alternate" else f"the {rule} of the hand before deals next"
            self.report(
                "BZ110",
                f"{expected_dealer} deals hand {number}: under this profile {said}",
                deal.spans.get("dealer", deal.span),
            )
        if dealer is None and deal.leader is not None:
            dealer = _previous(profile, deal.leader)
        for name, seat in (("dealer", dealer), ("leader", deal.leader)):
            if seat is not None and seat not in profile.seats:
                self.report(
                    "BZ105",
                    f"{name} {seat} is not a seat of the {profile.name} profile ({' '.join(profile.seats)})",
                    deal.spans.get(name, deal.span),
                )
                return None
        # A seat the profile does not have can neither play nor draw: the deal is not replayed (nor completed).
        if not self.seats_ok(deal, profile):
            return None
        inference = None
        if self.infer and dealer is not None and deal_has_unknowns(deal, profile):
            from .infer import infer_deal, unsupported  # only a deal with unknown cards needs the inference

            why = unsupported(profile.with_options(options))
            if why is not None:
                self.report(
                    "BZ603",
                    f"this deal leaves cards unknown, which the replayer completes only for some profiles: {why}; "
                    f"write every card (hands, plays and draws)",
                    deal.span,
                )
                return None
            inference = infer_deal(deal, profile, options, dealer, analyse=self.analyse)
            if inference.deal is None:
                self.report(
                    "BZ601",
                    f"no completion of the {len(inference.unknowns)} unknown card(s) satisfies "
                    f"the record: {inference.failure}",
                    deal.span,
                )
                for statement in inference.conflict:
                    self.report("BZ602", f"conflicting statement: {statement.text}", statement.span)
                return None
            deal = inference.deal
        if deal.stock is not None and not all(isinstance(c, Card) for c in deal.stock):
            self.report(
                "BZ107",
                "a stated stock must list known cards (leave the stock out when it is unknown)",
                deal.spans.get("stock", deal.span),
            )
            deal.stock = None
        missing = []
        if dealer is None:
            missing.append("dealer (or leader)")
        if profile.turnup and deal.turnup is None:
            missing.append("turnup")
        for seat in profile.seats:
            if seat not in deal.hands:
                missing.append(f"hand {seat}")
        if missing:
            self.report("BZ107", f"deal {number} needs {', '.join(missing)} before its first trick", deal.span)
            return None
        assert dealer is not None
        step = start_deal(
            profile,
            options,
            dealer,
            deal.trump,
            deal.turnup,
            deal.hands,
            [_known(c) for c in deal.stock] if deal.stock is not None else None,
            deal.leader,
            force=True,
        )
        for v in step.violations:
            span = (deal.spans.get("turnup") or deal.spans.get("trump")) if v.code == "BZ107" else None
            if v.code == "BZ108":
                seat = v.message.split()[0]
                span = deal.hand_spans.get(seat) or deal.spans.get("stock")
            self.report(v.code, v.message, span or deal.span)
        state = step.state
        if deal.cut is not None:
            cut = apply_cut(state, deal.cut, deal.guess)
            step.events.extend(cut.events)
            state = cut.state
        opening: list[Scoring] = []
        for item in deal.opening:
            state = self.item(item, state, opening, [], None)
        step.events.extend(opening)
        # The replay keeps no earlier state (snapshots copy what they show): actions may change this one in place.
        state.in_place = True
        outcome = DealResult(
            number=deal.number or number,
            dealer=dealer,
            leader=state.leader,
            trump=state.trump,
            turnup=state.turnup,
            hands={s: _sorted(deal.hands[s]) for s in profile.seats},
            scoring=list(step.events),
            comments=list(deal.comments),
            inference=inference,
        )
        self.offsets = dict.fromkeys(profile.scorers, 0)
        for trick in deal.tricks:
            state = self.trick(trick, state, outcome)
        self.current_trick = 1000.0
        final = finish_deal(state, force=True)
        last_span = deal.tricks[-1].span if deal.tricks else deal.span
        for v in final.violations:
            self.report(v.code, v.message, deal.end[0].span if deal.end else last_span)
        for e in final.events:
            if e.kind == "brisques":
                key = profile.scorer(e.seat)
                outcome.brisques[key] = outcome.brisques.get(key, 0) + e.points
        outcome.scores = final.state.scores()
        outcome.game_points = game_points(final.state)
        if profile.game_scoring is not None:
            outcome.game_scores = game_score(profile.game_scoring, outcome.scores)
        for check in deal.end:
            outcome.end_comments.extend(check.comments)
            if check.what == "brisques":
                self.check_values(check, outcome.brisques, "BZ502", "brisques", profile)
            elif check.what == "result":
                self.check_values(check, outcome.scores, "BZ503", "deal result", profile)
        return outcome

    def seats_ok(self, deal: Deal, profile: RuleProfile) -> bool:
        """Before replaying a deal (and completing its unknown cards): every seat named is the profile's, and no seat
        plays twice to a trick."""
        ok = True
        seats = set(profile.seats)

        def unknown(seat: str, span: Span) -> None:
            nonlocal ok
            self.report(
                "BZ105", f"{seat} is not a seat of the {profile.name} profile ({' '.join(profile.seats)})", span
            )
            ok = False

        for trick in deal.tricks:
            named = [p.seat for p in trick.plays]
            for play in trick.plays:
                if play.seat not in seats:
                    unknown(play.seat, play.seat_span)
            if len(set(named)) != len(named):
                self.report("BZ202", f"a seat plays twice to trick {trick.number}", trick.span)
                ok = False
            for item in trick.items:
                if isinstance(item, Draws):
                    for draw in item.draws:
                        if draw.seat not in seats:
                            unknown(draw.seat, draw.seat_span)
                else:
                    seat = getattr(item, "seat", None)
                    if seat is not None and seat not in seats:
                        unknown(seat, item.span)
        for seat in deal.hands:
            if seat not in seats:
                self.report("BZ105", f"{seat} is not a seat of the {profile.name} profile", deal.hand_spans.get(seat))
                ok = False
        return ok

    def check_values(
        self, check: ScoreCheck, actual: dict[str, int], code: str, what: str, profile: RuleProfile
    ) -> None:
        for value in check.values:
            key = profile.resolve_scorer(value.seat)
            if key is None:
                self.report("BZ105", f"{value.seat} is not a seat or side of this game", value.span)
            elif actual.get(key, 0) != value.value:
                self.report(
                    code,
                    f"wrong {what}: the record says {value.seat} {value.value}, the rules give {actual.get(key, 0)}",
                    value.span,
                )

    def trick(self, trick: Trick, state: DealState, outcome: DealResult) -> DealState:
        profile = state.profile
        self.current_trick = float(trick.number)
        expected = state.trick_no + 1
        if trick.number != expected:
            self.report("BZ106", f"trick {trick.number} is out of order: trick {expected} comes next", trick.span)
        if state.to_draw:
            names = " and ".join(state.to_draw)
            self.report(
                "BZ402",
                f"no draws after trick {state.trick_no}: {names} must draw before the next trick "
                f"(the stock has {state.stock_count} cards)",
                trick.span,
            )
            state.to_draw = []
        # Nothing a snapshot shows changes between two tricks: the last trick's "after" is this one's "before".
        before = outcome.tricks[-1].after if outcome.tricks else Snapshot.of(state)
        phase = state.phase
        leader = state.leader
        events: list[Scoring] = []
        winner = None
        questions: list[tuple[str, Question]] = []
        if not trick.ordered:
            trick.plays = _in_playing_order(trick.plays, state)
        for play in trick.plays:
            step = apply_play(state, play.seat, _known(play.card), force=True)
            self.violations(step, play.span, play.seat_span)
            events.extend(step.events)
            state = step.state
            if step.winner is not None:
                winner = step.winner
            if play.questions:
                questions.extend((play.seat, q) for q in play.questions)
        if len(trick.plays) != profile.players:
            self.report(
                "BZ207",
                f"trick {trick.number} has {len(trick.plays)} plays; every one of the "
                f"{profile.players} players plays a card",
                trick.span,
            )
        if trick.winner is not None and winner is not None and trick.winner != winner:
            card = next((p.card for p in trick.plays if p.seat == winner), None)
            self.report(
                "BZ206",
                f"wrong trick winner: {winner} wins trick {trick.number} with {card} "
                f"({self.why_wins(trick, state.trump)}), not {trick.winner}",
                trick.winner_span,
            )
        draws: list[tuple[str, Card]] = []
        comments = list(trick.comments)
        # (Only a record that writes out the stock may leave the draws out.)
        stated_draws = state.stock is None or any(isinstance(item, Draws) for item in trick.items)
        for item in trick.items:
            pending = not stated_draws and state.to_draw and state.stock is not None
            # The record leaves the draws out (the stock is written out): where the rules let a player declare or
            # exchange after drawing, a statement that only the cards drawn make legal comes after them.
            if pending and not _legal(item, state) and _legal(item, _draw_from_stock(state.copy(), [])):
                state = _draw_from_stock(state, draws)
            state = self.item(item, state, events, draws, trick)
            comments.extend(item.comments)
        state = _draw_from_stock(state, draws)
        if state.trump is not None and outcome.trump_fixed is None and outcome.trump is None:
            outcome.trump_fixed = (trick.number, state.trump)
        outcome.tricks.append(
            TrickResult(
                n=trick.number,
                leader=leader,
                phase=phase,
                plays=[(p.seat, _known(p.card)) for p in trick.plays],
                winner=winner,
                scoring=events,
                draws=draws,
                scores=state.scores(),
                before=before,
                after=Snapshot.of(state),
                comments=comments,
                questions=questions,
                line=trick.span.line,
            )
        )
        return state

    def why_wins(self, trick: Trick, trump: Suit | None) -> str:
        cards = [p.card for p in trick.plays]
        if any(isinstance(c, Card) and c.is_wild for c in cards):
            return "the wild card wins no trick"
        if trump is not None and any(c.suit == trump for c in cards) and cards[0].suit != trump:
            return "the highest trump"
        if len(set(cards)) < len(cards):
            return "of identical cards the first played wins"
        return "the highest card of the suit led"

    def item(
        self,
        item: Any,
        state: DealState,
        events: list[Scoring],
        draws: list[tuple[str, Card]],
        trick: Trick | None,
    ) -> DealState:
        # The commonest statements first: the draws and the running score after every trick.
        if isinstance(item, Draws):
            for draw in item.draws:
                step = apply_draw(state, draw.seat, draw.card, force=True)
                self.violations(step, draw.span, draw.seat_span)
                state = step.state
                draws.append((draw.seat, _known(draw.card)))
            return state
        if isinstance(item, ScoreCheck):
            self.running_score(item, state)
            return state
        if isinstance(item, Exchange):
            step = apply_exchange(state, item.seat, _known(item.card), item.points, force=True)
            self.violations(step, item.card_span, item.span)
        elif isinstance(item, Pass):
            step = apply_pass(state, item.seat, item.partner, force=True)
            self.violations(step, item.partner_span, item.span)
        elif isinstance(item, Declare):
            if item.scored:
                step = apply_declare(
                    state,
                    item.seat,
                    item.kind,
                    [_known(c) for c in item.cards],
                    item.points,
                    force=True,
                    partner_cards=[_known(c) for c in item.partner_cards],
                    partner=item.partner,
                )
            else:
                step = apply_show(state, item.seat, item.kind, [_known(c) for c in item.cards], force=True)
            for v in step.violations:
                self.report(v.code, v.message, self.declare_span(item, v))
        elif isinstance(item, GoesOut):
            step = apply_out(state, item.seat, item.points, force=True)
            self.violations(step, item.span)
        elif isinstance(item, Penalty):
            banked = self.banked.get(state.profile.scorer(item.seat), 0)
            step = apply_penalty(state, item.seat, item.kind, item.points, banked, force=True)
            for v in step.violations:
                span = item.points_span if v.code == "BZ314" and item.points_span is not None else item.kind_span
                self.report(v.code, v.message, span)
        elif isinstance(item, Claim):
            self.claim(item, events, state.profile)
            return state
        else:  # pragma: no cover - the builder makes only the types above
            raise TypeError(item)
        events.extend(step.events)
        return step.state

    def declare_span(self, item: Declare, v: RuleViolation) -> Span:
        if v.code == "BZ305" and item.points_span is not None:
            return item.points_span
        if v.code in ("BZ304", "BZ109") and item.kind_span is not None:
            return item.kind_span
        if v.code in ("BZ303", "BZ306", "BZ307"):
            for card, span in zip(item.cards, item.card_spans, strict=False):
                if str(card) in v.message.split(",")[0].split():
                    return span
            if item.card_spans:
                return item.card_spans[0]
        return item.span

    def claim(self, item: Claim, events: list[Scoring], profile: RuleProfile) -> None:
        match = [e for e in events if e.seat == item.seat and e.kind == item.kind]
        if not match:
            happened = ", ".join(f"{e.seat} {e.kind.replace('_', ' ')} {e.points}" for e in events) or "none"
            self.report(
                "BZ310",
                f"{item.seat} scores no {item.kind.replace('_', ' ')} in this trick "
                f"(automatic scores here: {happened})",
                item.span,
            )
        elif item.points is not None and match[0].points != item.points:
            self.report(
                "BZ305",
                f"{item.kind.replace('_', ' ')} claimed for {item.points}, the {profile.name} "
                f"profile scores {match[0].points}",
                item.span,
            )

    def running_score(self, check: ScoreCheck, state: DealState) -> None:
        scores = state.scores()
        for value in check.values:
            key = state.profile.resolve_scorer(value.seat)
            if key is None:
                self.report("BZ105", f"{value.seat} is not a seat or side of this game", value.span)
                continue
            diff = value.value - scores[key]
            if diff and diff != self.offsets[key]:
                self.report(
                    "BZ501",
                    f"wrong running score: the record says {value.seat} {value.value}, the rules "
                    f"give {scores[key]} after trick {state.trick_no}",
                    value.span,
                )
            self.offsets[key] = diff


def _legal(item: Any, state: DealState) -> bool:
    """Whether a declaration, show or exchange breaks no rule in this state (other statements count as legal)."""
    state = state.copy()  # a trial: the replay's own state may be changed in place
    try:
        if isinstance(item, Declare):
            cards = [_known(c) for c in item.cards]
            if item.scored:
                partner_cards = [_known(c) for c in item.partner_cards]
                apply_declare(state, item.seat, item.kind, cards, item.points, partner_cards=partner_cards)
            else:
                apply_show(state, item.seat, item.kind, cards)
        elif isinstance(item, Exchange):
            apply_exchange(state, item.seat, _known(item.card), item.points)
        elif isinstance(item, Pass):
            apply_pass(state, item.seat, item.partner)
    except (RuleViolation, TypeError):
        return False
    return True


def _draw_from_stock(state: DealState, draws: list[tuple[str, Card]]) -> DealState:
    """The draws due after a trick, taken from a stock the record writes out (nothing when it does not)."""
    if not state.to_draw or state.stock is None:
        return state
    for seat in list(state.to_draw):
        card = state.stock[0] if state.stock else state.turnup
        if card is None:
            break
        state = apply_draw(state, seat, card, force=True).state
        draws.append((seat, card))
    return state


def _known(card: CardLike) -> Card:
    """A card of a completed record (the inference fills every unknown before a replay)."""
    if not isinstance(card, Card):
        raise TypeError(f"unknown card {card} reached the replay")
    return card


def _in_playing_order(plays: list[Play], state: DealState) -> list[Play]:
    """The plays of a trick written without their order, sorted from the seat that leads."""
    order = {state.leader: 0}
    seat = state.leader
    for k in range(1, len(state.profile.seats)):
        seat = state.next_seat(seat)
        order[seat] = k
    return sorted(plays, key=lambda p: order.get(p.seat, len(order)))


def _previous(profile: RuleProfile, seat: str) -> str:
    seats = profile.seats
    return seats[(seats.index(seat) - 1) % len(seats)]


def replay_record(record: Record, analyse: bool = False) -> ReplayResult:
    """Replay every game of a parsed record; problems are collected in ``result.diagnostics``.

    Deals that leave cards unknown are completed first (:mod:`replayer.infer`); with ``analyse`` the inference
    also establishes which unknown cards are forced and which stay open.
    """
    return _Replayer(record, analyse=analyse).run()


def replay_deal(deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> list[float]:
    """Replay one complete deal; the trick numbers at which problems occur (empty when it is valid)."""
    replayer = _Replayer(Record("<completion>", ""), infer=False)
    replayer.offsets = {s: 0 for s in profile.seats}
    if deal.dealer is None:
        deal.dealer = dealer
    replayer.deal(deal, profile, options, 1, None)
    return sorted(replayer.problem_tricks)


def replay_text(text: str, path: str = "<record>", analyse: bool = False) -> ReplayResult:
    """Parse and replay; syntax errors become diagnostics too (``analyse``: see :func:`replay_record`)."""
    from .reader import read_record

    try:
        record = read_record(text, path)
    except NotationError as exc:
        result = ReplayResult(path, text)
        result.diagnostics.extend(exc.diagnostics)
        return result
    return replay_record(record, analyse=analyse)


def _scoring_json(events: list[Scoring]) -> list[dict[str, Any]]:
    return [{"player": e.seat, "kind": e.kind, "cards": [str(c) for c in e.cards], "points": e.points} for e in events]


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
                    "tricks": [
                        {
                            "n": t.n,
                            "phase": t.phase,
                            "leader": t.leader,
                            "plays": [{"player": s, "card": str(c)} for s, c in t.plays],
                            "winner": t.winner,
                            "scoring": _scoring_json(t.scoring),
                            "draws": [{"player": s, "card": str(c)} for s, c in t.draws],
                            "scores": dict(t.scores),
                        }
                        for t in deal.tricks
                    ],
                    "brisques": dict(deal.brisques),
                    "scores": dict(deal.scores),
                }
            )
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
