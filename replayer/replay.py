"""Replaying a record through the rules core: every play, winner, declaration, draw and stated score is checked.

A thin driver: the rules are the core's (:mod:`replayer.rules`, the game's between deals in its ``GameState``). This
module turns each statement into the core's action, on ints, and each breach the core reports into a diagnostic at
the statement's position (:mod:`replayer.explain` words it). The headers come first (:mod:`replayer.headers`: the
rules a game plays under, each deal's dealer and the core's state at its first trick), and a deal that leaves cards
unknown is completed before its replay by the :class:`~replayer.completion.Completer` check.py passes
(:mod:`replayer.completion`), so that this module does not depend on the inference. With ``views`` it also keeps
what a view shows of each trick (:class:`TrickResult`); a validation asks for none. The record is never changed.

A replay never stops at the first problem: an illegal action is carried out as written (the card leaves the hand if
it is there, a declaration scores what the rules give), and a stated score that disagrees is reported once, later
ones compared with the same discrepancy.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, SUITS, Card
from .completion import complete_deal, known
from .errors import Diagnostic, Span
from .explain import explain, scoring
from .headers import game_rules, seats_named, start_state, take_dealer
from .profile import RuleProfile
from .record import (
    Claim,
    ClaimGame,
    Deal,
    Declare,
    Draws,
    Exchange,
    Forfeit,
    Game,
    GoesOut,
    Pass,
    Penalty,
    Play,
    Record,
    ScoreCheck,
    Trick,
    Variation,
)
from .results import (
    DealResult,
    GameResult,
    ReplayResult,
    Snapshot,
    TrickResult,
    iter_tricks,
    sorted_cards,
    state_scores,
    to_json,
)
from .rules import Breach, DealState, GameState, Rules, compile_rules, game_score, redeal_problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .completion import Completer

    Checkpoint = Callable[[int, GameState, int], tuple[Sequence[DealResult], GameState] | None]
    """Called before each deal of a game replayed by :func:`replay_game` (see there)."""

__all__ = [
    "DealResult",
    "GameResult",
    "ReplayResult",
    "Snapshot",
    "TrickResult",
    "iter_tricks",
    "replay_deal",
    "replay_game",
    "replay_record",
    "to_json",
]


class _Replayer:
    def __init__(
        self, record: Record, complete: Completer | None = None, views: bool = True, states: bool = False
    ) -> None:
        self.record = record
        self.states = states
        self.result = ReplayResult(record.path, record.text)
        self.complete = complete
        self.views = views
        self.current_trick = 0.0
        self.problem_tricks: list[float] = []
        self.play: GameState
        """The game being replayed, between its deals: dealers, totals, claims, its end (the core's)."""
        self.offsets: list[int] = []
        self.unread: list[int] = []
        """The points of declarations left out on lines that did not read, per scorer (taken as the record writes)."""
        self.winners: list[int] = []
        """The winner of each trick of the deal being replayed (-1: a trick without one)."""
        self.repaired = False
        """The deal being replayed had a line that did not read (its unknown cards are that line's)."""

    def banked(self, scorer: int) -> int:
        """What the scorer has from the earlier deals of the game (a penalty of all points takes it too)."""
        return self.play.totals[scorer]

    def report(self, code: str, message: str, span: Span | None, severity: str = "error") -> None:
        """A problem at ``span``; a ``warning``, a likely slip that breaks no rule, leaves the record valid."""
        self.result.diagnostics.append(Diagnostic(code, message, span, self.record.path, severity))
        if severity == "error":
            self.problem_tricks.append(self.current_trick)

    def breaches(self, state: DealState, span: Span | None, seat_span: Span | None = None) -> None:
        """Report what the core found wrong with the last action (at ``span``; one out of turn at ``seat_span``)."""
        rules = state.rules
        for breach in state.breaches:
            code = breach[0]
            where = seat_span if (code == "BZ202" and seat_span is not None) else span
            self.report(code, explain(rules, breach), where)
        state.breaches.clear()

    def game(
        self,
        game: Game,
        first: int = 0,
        play: GameState | None = None,
        earlier: Sequence[DealResult] = (),
        checkpoint: Checkpoint | None = None,
    ) -> None:
        header = game_rules(game, self.report)
        if header is None:
            return
        rules, options = header
        profile, seats = rules.named, rules.seats
        result = GameResult(
            title=game.title or game.headers.get("title") or "Untitled game",
            headers=dict(game.headers),
            profile=profile,
            options=dict(options),
            players={s: game.players.get(s, s) for s in seats},
            comments=list(game.comments),
        )
        result._line = game.span.line
        self.result.games.append(result)
        result.deals.extend(earlier)
        play = self.play = play or GameState(rules)
        for index, deal in enumerate(game.deals, first):
            rest = checkpoint(index, play, len(self.result.diagnostics)) if checkpoint is not None else None
            if rest is not None:  # (the rest of the game as replayed before: the same from the same state)
                result.deals.extend(rest[0])
                play = self.play = rest[1]
                break
            outcome = self.deal(deal, rules, index + 1)
            if outcome is None:
                return
            result.deals.append(outcome)
            play.end_deal(
                [outcome.scores.get(name, 0) for name in rules.scorers],
                [outcome.game_points.get(seat, 0) for seat in rules.seats] if outcome.game_points else [],
                self.winners,
                outcome.redealt,
            )
            named_totals = dict(zip(rules.scorers, play.totals, strict=True))
            for check in deal.end:
                if check.what == "total":
                    self.check_values(check, named_totals, "BZ504", "game total after this deal", rules)
                elif check.what == "game" and outcome.game_scores:
                    self.check_values(check, outcome.game_scores, "BZ504", "game score", rules)
                elif check.what == "game":
                    self.report("BZ504", f"the {profile.name} profile plays to a target: no game score", check.span)
        else:
            if checkpoint is not None:  # (after the last deal: where the diagnostics of the game's end begin)
                checkpoint(len(result.deals), play, len(self.result.diagnostics))
        result.scores = dict(zip(rules.scorers, play.totals, strict=True))
        result.winner = rules.scorers[play.decided] if play.decided >= 0 else None
        if game.winner is not None:
            # The winner line is checked against the game as it stands there: after the deals written before it.
            line = game.winner_span.line if game.winner_span is not None else 1 << 30
            before = sum(1 for d in result.deals if not d.redealt and d._line < line)
            problem = play.winner_problem(rules.scorer_named(game.winner), game.winner, before)
            if problem is not None:
                self.report(problem[0], explain(rules, problem), game.winner_span)

    def deal(self, deal: Deal, rules: Rules, number: int, dealer_given: str | None = None) -> DealResult | None:
        """Deal ``number`` of the game replayed; None, reported, when it cannot be (its headers, seats or unknowns)."""
        self.unread = [0] * len(rules.scorers)
        ok, dealer = take_dealer(deal, rules, self.play, number, dealer_given, self.report)
        if not ok or not seats_named(deal, rules, self.report):
            return None
        if deal.redeal and dealer is not None:
            return self.redealt(deal, rules, number, dealer)
        completed = complete_deal(deal, rules, dealer, self.complete, self.report)
        if completed is None:
            return None
        deal, inference = completed
        position = deal.position
        state = start_state(deal, rules, number, dealer, position, self.report)
        if state is None:
            return None
        assert dealer is not None
        if deal.cut is not None:
            state.cut(deal.cut, deal.guess)
        self.winners = []
        self.offsets = [0] * len(rules.scorers)
        self.repaired = deal.repaired
        for item in deal.opening:
            self.item(item, state, [])
        outcome = DealResult(
            number=deal.number or number,
            dealer=dealer,
            leader=rules.seats[state.leader],
            trump=SUITS[state.trump] if state.trump >= 0 else None,
            turnup=CARDS[state.turnup] if state.turnup >= 0 else None,
            hands={s: sorted_cards(deal.hands.get(s, ())) for s in rules.seats},
            scoring=[scoring(rules, e) for e in state.events],
            comments=list(deal.comments),
            inference=inference,
        )
        state.events = []
        before = Snapshot.of(state) if self.views else None
        for trick in deal.tricks:
            state, before = self.trick(trick, state, outcome, before)
        self.current_trick = 1000.0
        outcome._line = deal.span.line
        if self.views:
            outcome._state = state.copy()
        self.finish(deal, state, outcome, rules, fragment=position is not None)
        return outcome

    def finish(self, deal: Deal, state: DealState, outcome: DealResult, rules: Rules, fragment: bool) -> None:
        """The end of a deal: the core counts the end of the hand; the deal's brisques, result and game points go
        into ``outcome``, and the record's end-of-deal lines are checked against them. A fragment may end before the
        deal does, and what was won before its position is not known: no end of the hand is counted (its result line
        checks the running scores)."""
        if fragment:
            outcome.scores = state_scores(state)
            self.end_lines(deal, outcome, rules, fragment=True)
            return
        state.finish()
        self.breaches(state, deal.end[0].span if deal.end else deal.tricks[-1].span if deal.tricks else deal.span)
        brisques = [(rules.scorer[seat], points) for seat, kind, _, points in state.events if kind == "brisques"]
        if brisques:
            outcome.brisques = dict.fromkeys(rules.scorers, 0)
            for scorer, points in brisques:
                outcome.brisques[rules.scorers[scorer]] += points
        state.events.clear()
        outcome.scores = state_scores(state)
        won = state.game_points()
        outcome.game_points = dict(zip(rules.seats, won, strict=True)) if won else {}
        if rules.game_scoring is not None:
            outcome.game_scores = game_score(rules.game_scoring, outcome.scores)
        self.end_lines(deal, outcome, rules)

    def redealt(self, deal: Deal, rules: Rules, number: int, dealer: str) -> DealResult:
        """A deal that says ``redeal``: a misdeal, dealt again by the same dealer (002:L18), which scores nothing.
        Whether the profile allows it here is the rules' (:func:`replayer.rules.redeal_problem`)."""
        problem = redeal_problem(rules, len(deal.tricks))
        if problem is not None:
            self.report(problem[0], explain(rules, problem), deal.redeal_span or deal.span)
        outcome = DealResult(
            number=deal.number or number,
            dealer=dealer,
            leader=deal.leader or dealer,
            trump=deal.trump,
            turnup=deal.turnup,
            hands={s: sorted_cards(c for c in deal.hands.get(s, ()) if isinstance(c, Card)) for s in rules.seats},
            comments=list(deal.comments),
        )
        outcome.redealt = True
        outcome.scores = dict.fromkeys(rules.scorers, 0)
        self.winners = []
        self.end_lines(deal, outcome, rules)
        return outcome

    def end_lines(self, deal: Deal, outcome: DealResult, rules: Rules, fragment: bool = False) -> None:
        """The record's lines at the end of a deal, its result and brisques, checked against ``outcome`` (a fragment
        counts no brisques: what was won before it is not known)."""
        for check in deal.end:
            outcome.end_comments.extend(check.comments)
            if check.what == "result":
                self.check_values(check, outcome.scores, "BZ503", "deal result", rules)
            elif check.what == "brisques" and fragment:
                self.report(
                    "BZ112", "a fragment does not count brisques: what was won before it is not known", check.span
                )
            elif check.what == "brisques":
                self.check_values(check, outcome.brisques, "BZ502", "brisques", rules)

    def no_scorer(self, value: Any) -> None:
        """A stated score that names no seat or side of this game."""
        self.report("BZ105", f"{value.seat} is not a seat or side of this game", value.span)

    def check_values(self, check: ScoreCheck, actual: dict[str, int], code: str, what: str, rules: Rules) -> None:
        for value in check.values:
            key = rules.scorer_named(value.seat)
            if key < 0:
                self.no_scorer(value)
                continue
            have = actual.get(rules.scorers[key], 0) + (self.unread[key] if code == "BZ503" else 0)
            if have != value.value:
                message = f"wrong {what}: the record says {value.seat} {value.value}, the rules give {have}"
                self.report(code, message, value.span)

    def trick(
        self, trick: Trick, state: DealState, outcome: DealResult, before: Snapshot | None
    ) -> tuple[DealState, Snapshot | None]:
        rules = state.rules
        previous, self.current_trick = self.current_trick, float(trick.number)
        expected = state.trick_no + 1
        if trick.number != expected and trick.number != previous + 1:  # (once, not at every trick numbered on from it)
            self.report("BZ106", f"trick {trick.number} is out of order: trick {expected} comes next", trick.span)
        if state.to_draw:  # (before the copy a variation starts from: its plays would report them again)
            state.close_draws()
            self.breaches(state, trick.span)
        phase = state.phase_now()  # (no draws are due now: see above)
        leader = state.leader
        seat_index = rules.seat_index
        kept = state.copy() if (self.states or trick.variations) else None
        for item in trick.items:
            if type(item) is Forfeit and item.seat in seat_index:
                # The record gives up what this trick wins a seat (002:L13): its plays are the forfeit's to settle.
                state.will_forfeit(seat_index[item.seat])
        plays = trick.plays
        if not trick.ordered:  # (the plays written without their order: sorted from the seat that leads)
            order = {rules.seats[seat]: k for k, seat in enumerate(state.order[state.leader])}
            plays = sorted(plays, key=lambda p: order.get(p.seat, len(order)))
        winner = -1
        for play in plays:
            done = state.trick_no
            state.play(seat_index[play.seat], play.card.index)
            if state.breaches:
                self.breaches(state, play.span, play.seat_span)
            if state.trick_no != done:
                winner = state.winner
            if play.questions:
                self.questions(play)
        if len(plays) != state.playing:
            self.report(
                "BZ207",
                f"trick {trick.number} has {len(plays)} plays; every one of the {state.playing} players plays a card",
                trick.span,
            )
        if trick.winner is not None and winner >= 0 and trick.winner != rules.seats[winner]:
            state.check_winner(trick.winner)
            self.breaches(state, trick.winner_span)
        self.winners.append(winner)
        draws: list[tuple[int, int]] = []
        items = trick.items
        unwritten = state.stock is not None and not any(type(item) is Draws for item in items)
        for item in items:
            if unwritten and state.to_draw and self.draws_first(item, state):
                draws.extend(state.draw_due())
                state.breaches.clear()  # (the stock's own order: a draw from it is the rules')
            self.item(item, state, draws)
        if state.stock is not None:
            draws.extend(state.draw_due())
            state.breaches.clear()
        events = state.events
        if state.trump >= 0 and outcome.trump_fixed is None and outcome.trump is None:
            outcome.trump_fixed = (trick.number, SUITS[state.trump])
        lines = [self.variation(v, kept, outcome) for v in trick.variations] if kept is not None else []
        if not self.views:
            events.clear()
            return state, None
        after = Snapshot.of(state)
        assert before is not None
        comments = [*trick.comments, *(comment for item in items for comment in item.comments)]
        outcome.tricks.append(
            shown := TrickResult(
                n=trick.number,
                leader=rules.seats[leader],
                phase=phase,
                plays=[(p.seat, known(p.card)) for p in plays],
                winner=rules.seats[winner] if winner >= 0 else None,
                scoring=[scoring(rules, e) for e in events],
                draws=[(rules.seats[s], CARDS[c]) for s, c in draws],
                scores=state_scores(state),
                before=before,
                after=after,
                comments=comments,
                questions=[(p.seat, q) for p in plays for q in p.questions],
                line=trick.span.line,
            )
        )
        shown.state, shown.variations = (kept if self.states else None), lines
        shown.variation_comments = [list(v.comments) for v in trick.variations]
        events.clear()
        return state, after

    def variation(self, variation: Variation, branch: DealState, outcome: DealResult) -> list[TrickResult]:
        """A what-if line, replayed and checked like the main line from a copy of the state before the trick it
        replaces; the main line's own bookkeeping is left as it was. Its tricks as replayed (with views)."""
        saved = (self.current_trick, self.winners, [*self.offsets], [*self.unread], outcome.tricks, outcome.trump_fixed)
        self.winners = list(self.winners)
        outcome.tricks = []
        state = branch.copy()
        before = Snapshot.of(state) if self.views else None
        for trick in variation.tricks:
            state, before = self.trick(trick, state, outcome, before)
        line = outcome.tricks
        self.current_trick, self.winners, self.offsets, self.unread, outcome.tricks, outcome.trump_fixed = saved
        return line

    def questions(self, play: Play) -> None:
        """A lesson's question before a play whose accepted answers leave out the card played: a learner who picks
        what the book plays would be told he is wrong, unless the question says the book's play was a slip."""
        for question in play.questions:
            if question.answers and not question.better and play.card not in question.answers:
                accepted = " ".join(str(c) for c in question.answers)
                self.report(
                    "BZ701",
                    f"the question accepts {accepted} but {play.seat} plays {play.card}: accept the card played too, "
                    f"or write {{?[better] ...}} where the book's play was a slip",
                    question.span,
                    "warning",
                )

    def item(self, item: Any, state: DealState, draws: list[tuple[int, int]]) -> None:
        """One statement after a trick (or a declaration before the first): carried out on ``state`` and checked."""
        kind = type(item)
        # The commonest statements first: the draws and the running score after every trick.
        if kind is Draws:
            seat_index = state.rules.seat_index
            for draw in item.draws:
                seat, card = seat_index[draw.seat], draw.card.index
                state.draw(seat, card)
                if state.breaches:
                    self.breaches(state, draw.span, draw.seat_span)
                draws.append((seat, card))
        elif kind is ScoreCheck:
            self.running_score(item, state)
        elif self.act(item, state):
            rules = state.rules
            for breach in state.breaches:
                message = explain(rules, breach)
                self.report(breach[0], message, _span(item, breach, message))
            state.breaches.clear()
        elif self.repaired:  # (on a line that did not read, already reported: its points are taken as written)
            self.unread[state.rules.scorer[state.rules.seat_index[item.seat]]] += item.points or 0
        else:  # An unknown card the completion does not fill: a declaration's before the first trick (it starts at
            # the deal), a partner's card, a whole hand's.
            first = state.trick_no == 0 and any(type(c) is not Card for c in item.cards)
            self.report("BZ603", _FIRST_UNKNOWN if first else _UNKNOWN, item.span)

    def act(self, item: Any, state: DealState) -> bool:
        """Carry out a statement other than draws and a running score as the core's action on ``state`` (its
        breaches left there); False for a declaration that leaves a card unknown, which is not carried out."""
        rules = state.rules
        seat = rules.seat_index[item.seat]
        kind = type(item)
        if kind is Declare:
            if any(type(c) is not Card for c in item.cards) or any(type(c) is not Card for c in item.partner_cards):
                return False
            cards = [c.index for c in item.cards]
            if not item.scored:
                state.show(seat, item.kind, cards)
            else:
                partner = rules.seat_index.get(item.partner, -2) if item.partner is not None else -1
                state.declare(seat, item.kind, cards, item.points, [c.index for c in item.partner_cards], partner)
        elif kind is Exchange:
            state.exchange(seat, item.card.index, item.points)
        elif kind is Pass:
            state.pass_to(seat, rules.seat_index.get(item.partner, -1))
        elif kind is GoesOut:
            state.go_out(seat, item.points)
        elif kind is Penalty:
            state.penalty(seat, item.kind, item.points, self.banked(rules.scorer[seat]))
        elif kind is Claim:
            state.check_claim(seat, item.kind, item.points)
        elif kind is ClaimGame:
            right = state.claim_game(seat, self.banked(rules.scorer[seat]))
            self.play.claim(rules.scorer[seat], right)
        elif kind is Forfeit:
            state.forfeit(seat, item.points)
        else:  # pragma: no cover - the reader makes only the types above
            raise TypeError(item)
        return True

    def draws_first(self, item: Any, state: DealState) -> bool:
        """Whether a declaration, show, exchange or pass that breaks a rule now breaks none after the draws due: a
        written stock lets the record leave the draws out, and where the rules let a player declare or exchange after
        drawing, a statement that only the cards drawn make legal comes after them. Tried on copies of ``state``."""
        kind = type(item)
        if kind not in (Declare, Exchange, Pass) or item.seat not in state.rules.seat_index:
            return False
        if kind is Exchange and type(item.card) is not Card:
            return False  # (an unknown card: nothing to try)
        trial = state.copy()
        if self.act(item, trial) and not trial.breaches:
            return False
        trial = state.copy()
        trial.draw_due()
        return self.act(item, trial) and not trial.breaches

    def running_score(self, check: ScoreCheck, state: DealState) -> None:
        rules = state.rules
        # (each seat its own scorer: the seats' scores, read where they are, not summed into a copy)
        scores = state.scores() if rules.has_sides else state.score
        offsets = self.offsets
        scorer_named = rules.scorer_named
        for value in check.values:
            key = scorer_named(value.seat)
            if key < 0:
                self.no_scorer(value)
                continue
            diff = value.value - scores[key]
            if diff != self.unread[key] and diff != offsets[key]:
                self.report(
                    "BZ501",
                    f"wrong running score: the record says {value.seat} {value.value}, the rules "
                    f"give {scores[key]} after trick {state.trick_no}",
                    value.span,
                )
            offsets[key] = diff


_FIRST_UNKNOWN = (
    "a declaration before the first trick names every card: unknown cards are completed only from the deal on"
)
_UNKNOWN = "this declaration leaves a card unknown where unknown cards are not completed: write its cards"

_SPANS: dict[type, tuple[str, dict[str, str]]] = {
    Exchange: ("card_span", {"BZ202": "span"}),
    Pass: ("partner_span", {"BZ202": "span"}),
    Penalty: ("kind_span", {"BZ314": "points_span"}),
    Forfeit: ("span", {"forfeit_points": "points_span"}),
    Declare: ("span", {"BZ305": "points_span", "BZ304": "kind_span", "BZ109": "kind_span"}),
}
"""Where a statement's breaches are reported: the field of its default span, and by a breach's code or key another
field (used when the record wrote it); a statement not listed, at its own span."""


def _span(item: Any, breach: Breach, message: str) -> Span:
    """Where a breach of the statement ``item`` is reported (``message``: its words, which name the cards)."""
    code = breach[0]
    if type(item) is Declare and code in ("BZ303", "BZ306", "BZ307"):
        named = message.split(",")[0].split()
        for card, span in zip(item.cards, item.card_spans, strict=False):
            if str(card) in named:
                return span
        if item.card_spans:
            return item.card_spans[0]
    default, fields = _SPANS.get(type(item), ("span", {}))
    field = fields.get(code) or fields.get(breach[1])
    return (getattr(item, field) if field else None) or getattr(item, default)


def replay_record(
    record: Record, complete: Completer | None = None, *, views: bool = True, states: bool = False
) -> ReplayResult:
    """Replay every game of a parsed record; problems are collected in ``result.diagnostics``.

    A deal that leaves cards unknown is completed by ``complete`` first (without one, it is replayed as it is, which
    reports its unknown cards); with ``views``, each trick's :class:`TrickResult` is kept for the views, and with
    ``states`` (and ``views``) the core's state before it (``TrickResult.state``, for the analysis).
    """
    replayer = _Replayer(record, complete, views, states)
    for game in record.games:
        replayer.game(game)
    return replayer.result


def replay_game(
    record: Record,
    complete: Completer | None = None,
    *,
    views: bool = True,
    first: int = 0,
    play: GameState | None = None,
    earlier: Sequence[DealResult] = (),
    checkpoint: Checkpoint | None = None,
) -> ReplayResult:
    """Replay the one game of ``record`` from its deal ``first`` (0-based), as :func:`replay_record` would replay it
    whole: ``record.games[0].deals`` holds the deals from ``first`` on, ``play`` is the game's state at the start of
    deal ``first`` (it is changed as the game goes on) and ``earlier`` the results of the deals before it.

    ``checkpoint(index, state, reported)`` is called before each deal (``index``: its 0-based index in the game) and
    once after the last (``index``: the number of deals), with the game's state then (the replay's own: copy it to
    keep it) and the number of diagnostics reported so far; before a deal it may answer the rest of the game as
    replayed before, from the same state (the results of that deal and the later ones, and the state after the
    last), which ends the replay of the deals there (its diagnostics are the caller's to add). Diagnostics of
    ``earlier`` are not reported again."""
    replayer = _Replayer(record, complete, views)
    (game,) = record.games
    replayer.game(game, first, play, earlier, checkpoint)
    return replayer.result


def replay_deal(deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> list[float]:
    """Replay one complete deal; the trick numbers at which problems occur (empty when it is valid)."""
    replayer = _Replayer(Record("<completion>", ""), views=False)
    rules = compile_rules(profile, options)
    replayer.play = GameState(rules)
    replayer.deal(deal, rules, 1, dealer_given=dealer)
    return sorted(replayer.problem_tricks)
