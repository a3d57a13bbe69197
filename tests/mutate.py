"""Mutation testing of the validator: single-point changes to valid records, each breaking one rule or stated fact.

A validator is only worth what it catches. This tool takes valid records (games/ and records from
``replayer.generate``), walks each through the engine to learn what every player holds at every moment, and makes
one change at a time that must be rejected:

======================  =========================================================================  ==========
operator                the change                                                                 rule
======================  =========================================================================  ==========
card-not-held           a played card replaced by one the player holds no copy of                  BZ201
wrong-winner            a trick's stated winner replaced by the other player                       BZ206
changed-points          a declaration's, exchange's or claimed score's points changed              BZ305
meld-card-not-held      a declared card replaced so that the meld still forms but is not held      BZ303
redeclared              a declaration repeated after a later trick with the same cards             BZ306/307
second-declaration      a second declaration after the same trick                                  BZ308
loser-declares          a declaration made by the trick's loser                                    BZ301
phase-2-declaration     a declaration after a trick of the last eight                              BZ302
revoke                  a card of another suit when holding the suit led (where the rule obliges)  BZ203
not-winning             phase 2: a lower card of the suit led when holding a higher one            BZ204
not-trumping            phase 2: void in the suit led, a plain card when holding a trump           BZ205
swapped-draws           the two draws after a trick stated in the other order                      BZ401
draw-out-of-order       (stock given) two drawn cards swapped, or two cards of the stock swapped   BZ403
wrong-running-score     a stated running score changed                                             BZ501
wrong-brisques          the stated brisques changed                                                BZ502
wrong-result            the stated result changed                                                  BZ503
wrong-total             the stated game total changed                                              BZ504
trick-number            a trick numbered out of order                                              BZ106
exchange-not-seven      a card other than the trump seven exchanged                                BZ309
claim-by-other          an automatic score claimed for the player who did not score it            BZ310
======================  =========================================================================  ==========

Each mutant must be rejected with its rule on the changed line, and nothing may be reported before that line.
Changes that alter nothing (comments, spacing, the order of headers, other spellings, optional statements left
out, the stock written out) must be accepted and replay to the same events.

Run ``python tests/mutate.py [RECORD...] [--random N] [--profile NAME]`` for the counts (N generated records of each
profile are added to the records named, games/ by default); tests/test_mutations.py runs a sample in CI.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replayer.cards import Card, Suit, make_pack
from replayer.check import check_text
from replayer.engine import (
    EngineState,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_pass,
    apply_play,
    apply_show,
    matches,
    start_deal,
)
from replayer.errors import NotationError, RuleViolation, Span
from replayer.fmt import format_text
from replayer.profile import RuleProfile
from replayer.profiles import load_profile
from replayer.reader import read_record
from replayer.record import Claim, Declare, Draws, Exchange, GoesOut, Pass, Record, ScoreCheck, Trick
from replayer.replay import to_json

__all__ = ["Mutant", "NoOp", "Outcome", "Walk", "check", "check_no_op", "mutants", "no_ops", "walk"]


@dataclass(frozen=True)
class Mutant:
    """A record changed at one point, and what the validator must report."""

    operator: str
    text: str
    line: int
    column: int
    codes: frozenset[str]
    """The rule broken (two when either is right, e.g. a re-declaration breaks BZ306 or BZ307)."""
    description: str


@dataclass(frozen=True)
class NoOp:
    """A record changed in a way that alters nothing: it must stay valid and replay to the same events."""

    operator: str
    text: str
    description: str


@dataclass(frozen=True)
class Outcome:
    """What the validator made of a mutant."""

    mutant: Mutant
    status: str
    """``rejected`` (its rule on its line, nothing earlier), ``misplaced`` or ``accepted`` (a validator bug)."""
    found: tuple[tuple[str, int, int], ...]
    column_exact: bool
    """The rule was also reported at the changed token's column."""


# --- walking a valid record through the engine ------------------------------------------------------------------


class NotApplicable(Exception):
    """The record is not a valid, fully known record; it cannot be mutated."""


@dataclass
class DealWalk:
    """What the engine knows at each point of one deal of a valid record."""

    profile: RuleProfile
    trump: Suit | None
    before_play: dict[int, EngineState] = field(default_factory=dict)
    """id(play) -> the state before the card is played."""
    after_plays: dict[int, EngineState] = field(default_factory=dict)
    """id(trick) -> the state once the trick's cards are played."""
    before_item: dict[int, EngineState] = field(default_factory=dict)
    phase: dict[int, int] = field(default_factory=dict)
    winner: dict[int, str] = field(default_factory=dict)
    drawn: list[tuple[Any, Card]] = field(default_factory=list)
    """(Draw, card) in the order drawn."""


@dataclass
class Walk:
    """A parsed valid record and what the engine knows at each point of each deal."""

    text: str
    record: Record
    deals: list[tuple[Any, DealWalk]]
    """(Deal, DealWalk) for every deal of every game."""


def walk(text: str) -> Walk:
    """Parse a record and walk it through the engine, which raises on the first broken rule.

    Raises :class:`NotApplicable` for a record that is not valid or holds unknown cards.
    """
    try:
        record = read_record(text)
    except NotationError as exc:
        raise NotApplicable(str(exc)) from None
    if not check_text(text).valid:
        raise NotApplicable("the record is not valid")
    deals = []
    for game in record.games:
        named = load_profile(game.profile)
        options = named.resolve_options(game.options)
        if game.target is not None:
            options["target"] = game.target
        # The table as the options make it (no-trump players=3): its seats, and a dealer who sits the hand out.
        profile = named.with_options(options)
        dealer: str | None = None
        for deal in game.deals:
            dealer = deal.dealer or (
                profile.seats[(profile.seats.index(dealer) + 1) % profile.players] if dealer else None
            )
            served = {s for s in profile.seats if not (profile.sit_out == "dealer" and s == dealer)}
            if dealer is None or deal.stock is not None:
                raise NotApplicable("only records that state the dealer and no stock are mutated")
            cards = [c for hand in deal.hands.values() for c in hand]
            cards += [p.card for t in deal.tricks for p in t.plays]
            cards += [c for t in deal.tricks for i in t.items if isinstance(i, Declare) for c in i.cards]
            cards += [d.card for t in deal.tricks for i in t.items if isinstance(i, Draws) for d in i.draws]
            cards += [i.card for t in deal.tricks for i in t.items if isinstance(i, Exchange)]
            if not all(isinstance(c, Card) for c in cards) or set(deal.hands) != served:
                raise NotApplicable("the record holds unknown cards")
            try:
                deals.append((deal, _walk_deal(deal, named, profile, options, dealer)))
            except RuleViolation as exc:  # pragma: no cover - a valid record breaks no rule
                raise NotApplicable(f"the engine rejects the record: {exc}") from None
    return Walk(text, record, deals)


def _walk_deal(
    deal: Any, named: RuleProfile, profile: RuleProfile, options: dict[str, str | int], dealer: str
) -> DealWalk:
    """Walk a deal of ``named`` under ``options``; ``profile`` is the table they make, which the operators read."""
    state = start_deal(named, options, dealer, deal.trump, deal.turnup, deal.hands, None, deal.leader).state
    result = DealWalk(profile, state.trump)
    for trick in deal.tricks:
        result.phase[id(trick)] = state.phase
        for play in trick.plays:
            if not isinstance(play.card, Card):
                raise NotApplicable("the record holds unknown cards")
            result.before_play[id(play)] = state
            step = apply_play(state, play.seat, play.card)
            state = step.state
            if step.winner is not None:
                result.winner[id(trick)] = step.winner
        result.after_plays[id(trick)] = state
        for item in trick.items:
            result.before_item[id(item)] = state
            if isinstance(item, Exchange):
                state = apply_exchange(state, item.seat, item.card, item.points).state
            elif isinstance(item, Declare) and item.scored:
                partner_cards = item.partner_cards  # a declaration with the partner's cards (4h-six-000)
                state = apply_declare(
                    state, item.seat, item.kind, item.cards, item.points, partner_cards=partner_cards
                ).state
            elif isinstance(item, Pass):
                state = apply_pass(state, item.seat, item.partner).state
            elif isinstance(item, Declare):
                state = apply_show(state, item.seat, item.kind, item.cards).state
            elif isinstance(item, Draws):
                for draw in item.draws:
                    state = apply_draw(state, draw.seat, draw.card).state
                    result.drawn.append((draw, draw.card))
    return result


# --- editing text by position -----------------------------------------------------------------------------------


def _replace(text: str, span: Span, new: str, length: int | None = None) -> str:
    lines = text.split("\n")
    line = lines[span.line - 1]
    start = span.column - 1
    lines[span.line - 1] = line[:start] + new + line[start + (span.length if length is None else length) :]
    return "\n".join(lines)


def _insert_line(text: str, before: int, new: str) -> str:
    lines = text.split("\n")
    lines.insert(before - 1, new)
    return "\n".join(lines)


def _line_of_next(deal: Any, trick: Trick) -> int:
    """The line of the statement after a trick's last item: the next trick, or the deal's end."""
    tricks = deal.tricks
    index = next(i for i, t in enumerate(tricks) if t is trick)
    if index + 1 < len(tricks):
        return int(tricks[index + 1].span.line)
    if deal.end:
        return int(deal.end[0].span.line)
    raise NotApplicable("the deal has no statement after its last trick")


def _other(profile: RuleProfile, seat: str) -> str:
    return profile.seats[(profile.seats.index(seat) + 1) % profile.players]


def _pack(profile: RuleProfile) -> list[Card]:
    return sorted(set(make_pack(1, profile.ranks)), key=lambda c: c.sort_key)


def _card_list(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


# --- the mutation operators -------------------------------------------------------------------------------------

Operator = Callable[[Walk], Iterator[Mutant]]


def _mutant(operator: str, text: str, line: int, column: int, codes: str, description: str) -> Mutant:
    return Mutant(operator, text, line, column, frozenset(codes.split("/")), description)


def card_not_held(w: Walk) -> Iterator[Mutant]:
    """A played card replaced by the nearest card of which the player holds no copy."""
    for deal, dw in w.deals:
        for trick in deal.tricks:
            for play in trick.plays:
                held = dw.before_play[id(play)].seats[play.seat].held()
                original = play.card
                candidates = [c for c in _pack(dw.profile) if not held[c]]
                if not candidates:
                    continue
                x = min(candidates, key=lambda c: (c.suit != original.suit, abs(int(c.rank) - int(original.rank))))
                yield _mutant(
                    "card-not-held",
                    _replace(w.text, play.span, str(x)),
                    play.span.line,
                    play.span.column,
                    "BZ201",
                    f"trick {trick.number}: {play.seat} plays {x}, which he does not hold, instead of {original}",
                )


def wrong_winner(w: Walk) -> Iterator[Mutant]:
    """A trick's stated winner replaced by another player."""
    for deal, dw in w.deals:
        for trick in deal.tricks:
            if trick.winner is None or trick.winner_span is None:
                continue
            other = _other(dw.profile, trick.winner)
            yield _mutant(
                "wrong-winner",
                _replace(w.text, trick.winner_span, other),
                trick.winner_span.line,
                trick.winner_span.column,
                "BZ206",
                f"trick {trick.number}: won by {other} instead of {trick.winner}",
            )


def _points_after(text: str, span: Span) -> Span | None:
    """The position of the points (``= 10``) written after a token on its line."""
    line = text.split("\n")[span.line - 1]
    match = re.compile(r"\s*=\s*(\d+)").match(line, span.column - 1 + span.length)
    if match is None:
        return None
    return Span(span.line, match.start(1) + 1, len(match.group(1)))


def changed_points(w: Walk) -> Iterator[Mutant]:
    """The points of a declaration, a seven exchange or a claimed automatic score changed by 10."""
    for deal, _ in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if isinstance(item, Declare) and item.points_span is not None and item.points is not None:
                    span, points = item.points_span, item.points
                elif isinstance(item, Exchange) and item.points is not None:
                    span, points = _points_after(w.text, item.card_span), item.points  # type: ignore[assignment]
                elif isinstance(item, Claim) and item.points is not None:
                    span, points = _points_after(w.text, item.span), item.points  # type: ignore[assignment]
                else:
                    continue
                if span is None:
                    continue
                yield _mutant(
                    "changed-points",
                    _replace(w.text, span, str(points + 10)),
                    span.line,
                    span.column,
                    "BZ305",
                    f"trick {trick.number}: {type(item).__name__.lower()} claimed for {points + 10}, not {points}",
                )


def meld_card_not_held(w: Walk) -> Iterator[Mutant]:
    """A declared card replaced so that the cards still form the meld, but the player does not hold them all."""
    for deal, dw in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if not isinstance(item, Declare) or not item.scored:
                    continue
                state = dw.before_item[id(item)]
                held = state.seats[item.seat].held()
                spec = dw.profile.meld(item.kind) if item.kind else None
                if spec is None:
                    continue
                for i, original in enumerate(item.cards):
                    for y in _pack(dw.profile):
                        cards = [*item.cards[:i], y, *item.cards[i + 1 :]]
                        if y == original or not matches(dw.profile, spec, cards, state.trump):
                            continue
                        if not Counter(cards) - held:
                            continue  # still held: not this mutation
                        yield _mutant(
                            "meld-card-not-held",
                            _replace(w.text, item.card_spans[i], str(y)),
                            item.card_spans[i].line,
                            item.card_spans[i].column,
                            "BZ303",
                            f"trick {trick.number}: {item.seat} declares {spec.kind} {_card_list(cards)} "
                            f"without holding {y}",
                        )
                        break


def _declaration_line(item: Declare, seat: str | None = None) -> str:
    points = f" = {item.points}" if item.points is not None else ""
    joint = f" with {item.partner} {_card_list(item.partner_cards)}" if item.partner_cards else ""
    return f"  {seat or item.seat} declares {item.kind} {_card_list(item.cards)}{joint}{points}"


def redeclared(w: Walk) -> Iterator[Mutant]:
    """A declaration repeated, with the same cards still on the table, after a later trick its player wins."""
    for deal, dw in w.deals:
        declarations = [(t, i) for t in deal.tricks for i in t.items if isinstance(i, Declare) and i.scored and i.kind]
        for trick, item in declarations:
            same = [i for _, i in declarations if (i.seat, i.kind, i.cards) == (item.seat, item.kind, item.cards)]
            if len(same) > 1:
                continue  # declared before with like cards (a re-marriage): which card is re-used is not the first
            later = deal.tricks[deal.tricks.index(trick) + 1 :]
            for t2 in later:
                if dw.phase[id(t2)] != 1 or dw.winner.get(id(t2)) != item.seat or not t2.items:
                    continue
                if any(isinstance(i, (Declare, Exchange)) for i in t2.items):
                    continue
                seats = dw.after_plays[id(t2)].seats
                table = Counter(t.card for t in seats[item.seat].table)
                theirs = Counter(t.card for t in seats[item.partner].table) if item.partner else Counter()
                if Counter(item.cards) - table or Counter(item.partner_cards) - theirs:
                    continue  # a card of it has been played since
                if any(seats[item.seat].hand[c] for c in item.cards):
                    continue  # another copy in the hand (many packs) makes it a new declaration
                spec = dw.profile.meld(item.kind)
                trump = dw.after_plays[id(t2)].trump
                if (
                    spec is not None
                    and spec.when_trump
                    and not matches(dw.profile, spec, [*item.cards, *item.partner_cards], trump)
                ):
                    continue  # trumps fixed since changed its cards (the beziques of RULES.md §2.g.1 rule 5)
                line = t2.items[0].span.line
                new = _declaration_line(item)
                yield _mutant(
                    "redeclared",
                    _insert_line(w.text, line, new),
                    line,
                    new.index(str(item.cards[0]), len(f"  {item.seat} declares {item.kind}")) + 1,
                    "BZ306/BZ307",
                    f"after trick {t2.number}: {item.seat} declares {item.kind} {_card_list(item.cards)} again "
                    f"(scored after trick {trick.number})",
                )
                break


def second_declaration(w: Walk) -> Iterator[Mutant]:
    """A declaration repeated right after itself: a second declaration after the same trick."""
    for deal, _ in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if isinstance(item, Declare) and item.scored and item.kind:
                    after = trick.items[trick.items.index(item) + 1 :]
                    if any(isinstance(i, GoesOut) for i in after):
                        continue  # it ended the hand (sixty-six's 66): a second one is after the end (BZ208)
                    line = item.span.line + 1
                    yield _mutant(
                        "second-declaration",
                        _insert_line(w.text, line, _declaration_line(item)),
                        line,
                        3,
                        "BZ308",
                        f"after trick {trick.number}: {item.kind} declared twice",
                    )


def loser_declares(w: Walk) -> Iterator[Mutant]:
    """A declaration made by the player who lost the trick."""
    for deal, dw in w.deals:
        if dw.profile.declare_after != "won_trick":
            continue
        for trick in deal.tricks:
            for item in trick.items:
                if isinstance(item, Declare):
                    loser = _other(dw.profile, item.seat)
                    yield _mutant(
                        "loser-declares",
                        _replace(w.text, item.span, loser),
                        item.span.line,
                        item.span.column,
                        "BZ301",
                        f"after trick {trick.number}: {loser}, who lost the trick, declares {item.kind}",
                    )


def phase_2_declaration(w: Walk) -> Iterator[Mutant]:
    """A declaration, of a meld declared earlier in the deal, after a trick of the last eight."""
    for deal, dw in w.deals:
        earlier = [i for t in deal.tricks for i in t.items if isinstance(i, Declare) and i.scored and i.kind]
        for trick in deal.tricks:
            if dw.phase[id(trick)] != 2 or 2 in dw.profile.declare_phases or id(trick) not in dw.winner:
                continue
            winner = dw.winner[id(trick)]
            meld = next((d for d in earlier if d.seat == winner), earlier[0] if earlier else None)
            if meld is None:
                continue
            line = _line_of_next(deal, trick)
            yield _mutant(
                "phase-2-declaration",
                _insert_line(w.text, line, _declaration_line(meld, winner)),
                line,
                3,
                "BZ302",
                f"after trick {trick.number} (phase 2): {winner} declares {meld.kind}",
            )


def _obligations(rule: str) -> set[str]:
    """What a play rule obliges the second player to do: follow suit, win the trick, trump when void."""
    return {
        "follow_win_trump": {"follow", "win", "trump"},
        "follow_trump": {"follow", "trump"},
        "follow": {"follow"},
        "follow_suit": {"follow"},
    }.get(rule, set())


def phase_2_plays(w: Walk) -> Iterator[Mutant]:
    """The second player revokes, fails to win, or fails to trump, where the profile's play rule obliges it."""
    for deal, dw in w.deals:
        trump = dw.trump
        for trick in deal.tricks:
            phase = dw.phase[id(trick)]
            rule = dw.profile.phase2_play if phase == 2 else dw.profile.phase1_play
            obliged = _obligations(rule)
            if not obliged or len(trick.plays) != 2:
                continue
            lead, follow = trick.plays
            hand = sorted(dw.before_play[id(follow)].seats[follow.seat].held(), key=lambda c: c.sort_key)
            led = lead.card
            # (the wild card follows no suit: its suit field is a placeholder, RULES.md §2.l rule 10, 004:L157)
            same = [c for c in hand if c.suit == led.suit and not c.is_wild]
            choices: list[tuple[str, str, Card | None, str]] = []
            if same:
                other = [c for c in hand if c.suit != led.suit]
                higher = [c for c in same if c.rank > led.rank]
                why = f"holds the {led.suit.english} led" + (
                    f", among them {higher[0]} which beats it" if higher else ""
                )
                choices.append(("revoke", "BZ203", other[0] if other else None, why))
                lower = [c for c in same if c.rank <= led.rank and c != follow.card]
                if "win" in obliged and higher and lower:
                    choices.append(("not-winning", "BZ204", lower[0], f"holds {higher[0]} which beats {led}"))
            elif "trump" in obliged and trump is not None and led.suit != trump:
                # (the wild card has no suit, so it is no trump: RULES.md §2.l rule 10, 004:L157)
                trumps = [c for c in hand if c.suit == trump and not c.is_wild]
                plain = [c for c in hand if c.suit != trump and c != follow.card]
                if trumps and plain:
                    choices.append(("not-trumping", "BZ205", plain[0], f"void in {led.suit.english}, holds a trump"))
            for operator, code, x, why in choices:
                if x is None or x == follow.card:
                    continue
                yield _mutant(
                    operator,
                    _replace(w.text, follow.span, str(x)),
                    follow.span.line,
                    follow.span.column,
                    code,
                    f"trick {trick.number} (phase {phase}, {rule}): {follow.seat} plays {x} to {led} but {why}",
                )


def _draw_texts(text: str, draws: Draws) -> list[str]:
    line = text.split("\n")[draws.draws[0].span.line - 1]
    return [line[d.seat_span.column - 1 : d.span.column - 1 + d.span.length] for d in draws.draws]


def swapped_draws(w: Walk) -> Iterator[Mutant]:
    """The trick's loser draws before its winner."""
    for deal, _ in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if not isinstance(item, Draws) or len(item.draws) != 2:
                    continue
                first, second = item.draws
                if first.span.line != second.span.line:
                    continue
                parts = _draw_texts(w.text, item)
                start = Span(first.seat_span.line, first.seat_span.column)
                length = second.span.column + second.span.length - first.seat_span.column
                new = f"{parts[1]}, {parts[0]}"
                card_column = first.seat_span.column + (second.span.column - second.seat_span.column)
                yield _mutant(
                    "swapped-draws",
                    _replace(w.text, start, new, length),
                    first.span.line,
                    card_column,
                    "BZ401",
                    f"after trick {trick.number}: {second.seat} draws before {first.seat} (the other order)",
                )


def _stated(w: Walk, what: str, code: str, operator: str) -> Iterator[Mutant]:
    for deal, _ in w.deals:
        checks = [i for t in deal.tricks for i in t.items if isinstance(i, ScoreCheck)] + list(deal.end)
        for check in checks:
            if check.what != what:
                continue
            for value in check.values:
                yield _mutant(
                    operator,
                    _replace(w.text, value.span, str(value.value + 10)),
                    value.span.line,
                    value.span.column,
                    code,
                    f"line {value.span.line}: {what} {value.seat} {value.value + 10} instead of {value.value}",
                )


def wrong_running_score(w: Walk) -> Iterator[Mutant]:
    """A stated running score changed by 10."""
    yield from _stated(w, "score", "BZ501", "wrong-running-score")


def wrong_final_scores(w: Walk) -> Iterator[Mutant]:
    """The stated brisques, result or game total changed by 10."""
    yield from _stated(w, "brisques", "BZ502", "wrong-brisques")
    yield from _stated(w, "result", "BZ503", "wrong-result")
    yield from _stated(w, "total", "BZ504", "wrong-total")


def trick_number(w: Walk) -> Iterator[Mutant]:
    """A trick numbered one more than it is (the next trick then has the expected number again)."""
    for deal, _ in w.deals:
        for trick in deal.tricks[1:]:
            line = w.text.split("\n")[trick.span.line - 1]
            match = re.compile(r"\s*(\d+)").match(line, trick.span.column - 1 + trick.span.length)
            if match is None:
                continue
            number = Span(trick.span.line, match.start(1) + 1, len(match.group(1)))
            yield _mutant(
                "trick-number",
                _replace(w.text, number, str(trick.number + 1)),
                trick.span.line,
                trick.span.column,
                "BZ106",
                f"trick {trick.number} numbered {trick.number + 1}",
            )


def exchange_not_seven(w: Walk) -> Iterator[Mutant]:
    """The seven exchange made with the eight of trumps."""
    for deal, _ in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if isinstance(item, Exchange) and isinstance(item.card, Card):
                    eight = Card.parse(f"8{item.card.suit.value}")
                    yield _mutant(
                        "exchange-not-seven",
                        _replace(w.text, item.card_span, str(eight)),
                        item.card_span.line,
                        item.card_span.column,
                        "BZ309",
                        f"after trick {trick.number}: {item.seat} exchanges {eight}",
                    )


def claim_by_other(w: Walk) -> Iterator[Mutant]:
    """An automatic score claimed for the other player."""
    for deal, dw in w.deals:
        for trick in deal.tricks:
            for item in trick.items:
                if isinstance(item, Claim):
                    line = w.text.split("\n")[item.span.line - 1]
                    seat_column = len(line) - len(line.lstrip()) + 1
                    other = _other(dw.profile, item.seat)
                    yield _mutant(
                        "claim-by-other",
                        _replace(w.text, Span(item.span.line, seat_column, 1), other),
                        item.span.line,
                        item.span.column,
                        "BZ310",
                        f"after trick {trick.number}: {other} claims {item.kind}",
                    )


# --- the stock --------------------------------------------------------------------------------------------------


def with_stock(w: Walk) -> str:
    """The record with each deal's stock written out (top first): the cards drawn, the turn-up left out."""
    text = w.text
    for deal, dw in reversed(w.deals):  # from the end, so that earlier line numbers stay right
        drawn = [card for _, card in dw.drawn]
        face_down = drawn[:-1] if dw.profile.turnup else drawn
        if len(drawn) < dw.profile.stock_size:
            # A hand that ended early (sixty-six at 66) left cards undrawn: they follow, in any order.
            face_down = drawn + sorted(_undrawn(deal, dw.profile, drawn).elements(), key=lambda c: c.sort_key)
        last_hand = max(span.line for span in deal.hand_spans.values())
        text = _insert_line(text, last_hand + 1, f"stock: {_card_list(face_down)}")
    return text


def _undrawn(deal: Any, profile: RuleProfile, drawn: list[Card]) -> Counter[Card]:
    """The face-down cards nobody drew: the pack less the hands dealt, the cards drawn and the turn-up."""
    left = Counter(make_pack(profile.packs, profile.ranks))
    left -= Counter(c for hand in deal.hands.values() for c in hand)
    left -= Counter(drawn)
    if deal.turnup is not None:
        left[deal.turnup] -= 1
    return +left


def draw_out_of_order(w: Walk) -> Iterator[Mutant]:
    """With the stock written out: two drawn cards swapped, or two cards of the stock swapped."""
    if "\nposition:" in w.text:
        return  # (a book fragment: the stock written out is the pack less the cards seen, which a fragment lacks)
    stocked = walk_stocked(w)
    for _, dw in stocked.deals[:1]:  # the stock line is found by its text: the first deal only
        drawn = dw.drawn
        for k in range(len(drawn) - 2):  # the last draw takes the turn-up
            (d1, c1), (d2, c2) = drawn[k], drawn[k + 1]
            if c1 == c2:
                continue
            text = _replace(_replace(stocked.text, d2.span, str(c1)), d1.span, str(c2))
            yield _mutant(
                "draw-out-of-order",
                text,
                d1.span.line,
                d1.span.column,
                "BZ403",
                f"stock given: the draws of {c1} and {c2} swapped",
            )
        stock_line = next(i for i, line in enumerate(stocked.text.split("\n"), 1) if line.startswith("stock:"))
        # The stock as written (with a hand that ended early, the undrawn cards follow the drawn ones).
        cards = [Card.parse(t) for t in stocked.text.split("\n")[stock_line - 1].split(":", 1)[1].split()]
        for k in range(0, len(drawn) - 2, 7):
            if cards[k] == cards[k + 1]:
                continue
            swapped = [*cards[:k], cards[k + 1], cards[k], *cards[k + 2 :]]
            lines = stocked.text.split("\n")
            lines[stock_line - 1] = f"stock: {_card_list(swapped)}"
            d = drawn[k][0]
            yield _mutant(
                "draw-out-of-order",
                "\n".join(lines),
                d.span.line,
                d.span.column,
                "BZ403",
                f"stock given: stock cards {k + 1} and {k + 2} ({cards[k]}, {cards[k + 1]}) swapped",
            )


def walk_stocked(w: Walk) -> Walk:
    """The walk of the record with its stock written out (the record is re-parsed to find the new positions)."""
    text = with_stock(w)
    record = read_record(text)
    deals = []
    for (_, dw), deal in zip(w.deals, [d for g in record.games for d in g.deals], strict=True):
        drawn = [d for t in deal.tricks for i in t.items if isinstance(i, Draws) for d in i.draws]
        copy = DealWalk(dw.profile, dw.trump, drawn=[(d, d.card) for d in drawn])
        deals.append((deal, copy))
    return Walk(text, record, deals)


OPERATORS: tuple[Operator, ...] = (
    card_not_held,
    wrong_winner,
    changed_points,
    meld_card_not_held,
    redeclared,
    second_declaration,
    loser_declares,
    phase_2_declaration,
    phase_2_plays,
    swapped_draws,
    draw_out_of_order,
    wrong_running_score,
    wrong_final_scores,
    trick_number,
    exchange_not_seven,
    claim_by_other,
)


def mutants(w: Walk, per_operator: int | None = None, rng: random.Random | None = None) -> list[Mutant]:
    """The mutants of a record: all of them, or a random sample of at most ``per_operator`` of each kind."""
    result: list[Mutant] = []
    for operator in OPERATORS:
        found = list(operator(w))
        by_name: dict[str, list[Mutant]] = {}
        for m in found:
            by_name.setdefault(m.operator, []).append(m)
        for group in by_name.values():
            if per_operator is not None and len(group) > per_operator:
                group = (rng or random.Random(0)).sample(group, per_operator)
            result.extend(group)
    return result


def check(mutant: Mutant) -> Outcome:
    """Replay a mutant and classify what the validator reported."""
    result = check_text(mutant.text, "mutant.bzq")
    # (Warnings, such as a lesson's question that no longer accepts the card played, break no rule.)
    errors = [d for d in result.diagnostics if d.span is not None and d.severity == "error"]
    found = tuple((d.code, d.span.line, d.span.column) for d in errors)
    if result.valid:
        return Outcome(mutant, "accepted", found, False)
    on_line = {code for code, line, _ in found if line == mutant.line}
    earlier = [f for f in found if f[1] < mutant.line]
    status = "rejected" if on_line & mutant.codes and not earlier else "misplaced"
    exact = any(code in mutant.codes and (line, col) == (mutant.line, mutant.column) for code, line, col in found)
    return Outcome(mutant, status, found, exact)


# --- changes that alter nothing ---------------------------------------------------------------------------------

_RU_SUITS = {"S": "пики", "H": "червы", "D": "бубны", "C": "трефы"}
_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SEAT_WORDS = {"N": "North", "S": "South", "E": "East", "W": "West"}


def _spell(card: Card, style: int) -> str:
    if card.is_wild:
        return ("*", "инфузорка", "Инфузорка")[style % 3]  # the wild card has no suit to spell
    rank, suit = card.rank.symbol, card.suit.value
    if style == 0:
        return f"{rank}{_GLYPHS[suit]}"
    if style == 1:
        return f"{_GLYPHS[suit]}{rank}"
    ru_rank = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}.get(rank, rank)
    return f"{ru_rank} {_RU_SUITS[suit]}"


def _without_lines(text: str, numbers: set[int]) -> str:
    return "\n".join(line for i, line in enumerate(text.split("\n"), 1) if i not in numbers)


def _edit_lines(text: str, numbers: set[int], edit: Callable[[str], str]) -> str:
    return "\n".join(edit(line) if i in numbers else line for i, line in enumerate(text.split("\n"), 1))


def no_ops(w: Walk, rng: random.Random) -> Iterator[NoOp]:
    """Changes that must be accepted and replay to the same events.

    Statements are found by their positions in the parsed record, never by matching text, which could fall
    inside a comment.
    """
    text = w.text
    lines = text.split("\n")
    deals = [d for d, _ in w.deals]
    tricks = [t for d in deals for t in d.tricks]
    items = [i for t in tricks for i in t.items]
    plays = [p for t in tricks for p in t.plays]
    statement_lines = sorted({t.span.line for t in tricks} | {i.span.line for i in items})
    score_lines = {i.span.line for i in items if isinstance(i, ScoreCheck)}
    checks = [i for i in items if isinstance(i, ScoreCheck)] + [e for d in deals for e in d.end]

    # Comments: added on their own line, added after a statement, and every comment's words changed or removed.
    line = rng.choice(statement_lines)
    yield NoOp("comment-added", _insert_line(text, line, "  { a comment added by the mutation tool }"), f"line {line}")
    # Not on a line that ends inside a comment or question (a long question is wrapped onto the next line).
    closed = [n for n in statement_lines if lines[n - 1].count("{") == lines[n - 1].count("}")]
    line = rng.choice(closed)
    yield NoOp(
        "comment-added-inline", _edit_lines(text, {line}, lambda s: s + "  { an inline comment }"), f"line {line}"
    )
    yield NoOp("comments-changed", re.sub(r"\{(?!\?)[^}]*\}", "{ changed words }", text), "every comment's words")
    yield NoOp("comments-removed", re.sub(r"[ \t]*\{(?!\?)[^}]*\}", "", text), "every comment removed")

    # Spacing: indentation, blank lines, spaces around punctuation, line ends.
    spaced = "\n".join(("\t " if rng.random() < 0.5 else "") + s + ("   " if rng.random() < 0.3 else "") for s in lines)
    yield NoOp("indentation", spaced, "lines indented and trailing spaces added at random")
    blank = "\n".join(s + ("\n\n" if rng.random() < 0.2 else "") for s in lines)
    yield NoOp("blank-lines", blank, "blank lines added at random")
    yield NoOp("spaces-around-punctuation", _edit_lines(text, set(statement_lines), _respace), "',', ':', '->', '='")
    yield NoOp("crlf", text.replace("\n", "\r\n"), "CRLF line ends")
    yield NoOp("canonical-form", format_text(text), "bezique fmt")

    # The order of headers.
    for kind, block in _header_blocks(lines):
        shuffled = list(block)
        while shuffled == block:
            rng.shuffle(shuffled)
        new = list(lines)
        for index, source in zip(block, shuffled, strict=True):
            new[index] = lines[source]
        yield NoOp("header-order", "\n".join(new), f"{kind} headers reordered")

    # Spellings: cards, seats and keywords.
    spelled = text
    for play in sorted(plays, key=lambda p: (p.span.line, p.span.column), reverse=True):
        if isinstance(play.card, Card):
            spelled = _replace(spelled, play.span, _spell(play.card, rng.randrange(3)))
    yield NoOp("card-spellings", spelled, "played cards as Q♠, ♠Q or Д пики")
    seats = text
    for play in sorted(plays, key=lambda p: (p.seat_span.line, p.seat_span.column), reverse=True):
        seats = _replace(seats, play.seat_span, _SEAT_WORDS.get(play.seat, play.seat))
    yield NoOp("seat-words", seats, "players named North and South in the tricks")
    keywords = text
    for t in sorted(tricks, key=lambda t: t.span.line, reverse=True):
        keywords = _replace(keywords, t.span, "взятка")
    for item in sorted((i for i in items if isinstance(i, Draws)), key=lambda i: i.span.line, reverse=True):
        keywords = _replace(keywords, item.span, "DRAW")
    yield NoOp("keywords", keywords, "trick as взятка, draws as DRAW")

    # Optional statements and parts left out.
    yield NoOp("running-scores-removed", _without_lines(text, score_lines), "every running score left out")
    removed = text
    for t in sorted((t for t in tricks if t.winner_span), key=lambda t: t.span.line, reverse=True):
        span = t.winner_span
        assert span is not None
        arrow = text.split("\n")[span.line - 1].rindex("->", 0, span.column)
        removed = _replace(removed, Span(span.line, arrow + 1), "", span.column + span.length - arrow - 1)
    yield NoOp("winners-removed", removed, "every trick's stated winner left out")
    declarations = sorted(
        (i for i in items if isinstance(i, Declare)), key=lambda i: (i.span.line, i.span.column), reverse=True
    )
    removed = text
    for d in declarations:
        if d.points_span is not None:
            equals = text.split("\n")[d.points_span.line - 1].rindex("=", 0, d.points_span.column)
            length = d.points_span.column + d.points_span.length - equals - 1
            removed = _replace(removed, Span(d.points_span.line, equals + 1), "", length)
    yield NoOp("points-removed", removed, "the points of every declaration left out")
    removed = text
    for d in declarations:
        if d.kind_span is not None:
            removed = _replace(removed, d.kind_span, "")
    yield NoOp("kinds-removed", removed, "the kind of every declaration left out")
    swapped = text
    for c in checks:
        if len(c.values) == 2 and c.values[0].span.line == c.values[1].span.line == c.span.line:
            a, b = c.values
            swapped = _edit_lines(
                swapped,
                {c.span.line},
                lambda s, a=a, b=b: s.replace(
                    f"{a.seat} {a.value}, {b.seat} {b.value}", f"{b.seat} {b.value}, {a.seat} {a.value}", 1
                ),
            )
    yield NoOp("score-order", swapped, "the seats of each stated score in the other order")

    # The stock written out, and then the draws it makes redundant left out (not in a book fragment, whose
    # face-down cards are not the pack less the cards the record shows).
    if "\nposition:" in w.text:
        return
    stocked = with_stock(w)
    yield NoOp("stock-written", stocked, "each deal's stock written out")
    draws = {
        i.span.line
        for g in read_record(stocked).games
        for d in g.deals
        for t in d.tricks
        for i in t.items
        if isinstance(i, Draws)
    }
    yield NoOp("draws-from-stock", _without_lines(stocked, draws), "stock written out, every draws statement left out")


def _respace(line: str) -> str:
    head, brace, tail = line.partition("{")
    head = re.sub(r"\s*,\s*", " ,  ", head)
    head = re.sub(r"\s*->\s*", "->", head)
    head = re.sub(r"\s*=\s*", "=", head)
    return re.sub(r"\s*:\s*", " : ", head) + brace + tail


def _header_blocks(lines: list[str]) -> Iterator[tuple[str, list[int]]]:
    """Line indexes (0-based) of one-line headers that may be reordered: the first game's, the first deal's."""
    game = re.compile(
        r"(title|source|url|page|date|event|site|annotator|translator|note|language|round|players|profile"
        r"|options|target):"
    )
    deal = re.compile(r"(dealer|leader|trump|turnup|hand [NSEW]|stock):")
    for kind, pattern in (("game", game), ("deal", deal)):
        block: list[int] = []
        for i, line in enumerate(lines):
            if pattern.match(line) and ("{" not in line or "}" in line):
                block.append(i)
            elif line.startswith(("game", "deal", "trick")) and block:
                break
        if len(block) > 1:
            yield kind, block


def check_no_op(change: NoOp, original: str) -> str | None:
    """None when the change is accepted and replays to the same events, else what went wrong."""
    result = check_text(change.text, "no-op.bzq")
    if not result.valid:
        first = next(d for d in result.diagnostics if d.severity == "error")
        return f"rejected: {first.location()}: {first.code} {first.message}"
    if to_json(result)["games"] != to_json(check_text(original, "no-op.bzq"))["games"]:
        return "accepted, but replays to different events"
    return None


# --- the command line -------------------------------------------------------------------------------------------


def run(texts: list[tuple[str, str]], per_operator: int | None, seed: int) -> tuple[list[Outcome], list[str]]:
    """Mutate records, check each mutant and each change that alters nothing; returns outcomes and no-op failures."""
    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    no_op_failures: list[str] = []
    for name, text in texts:
        w = walk(text)
        outcomes.extend(check(m) for m in mutants(w, per_operator, rng))
        for change in no_ops(w, rng):
            problem = check_no_op(change, text)
            if problem is not None:
                no_op_failures.append(f"{name}: {change.operator} ({change.description}): {problem}")
    return outcomes, no_op_failures


def main(argv: list[str] | None = None) -> int:
    """Print the counts of mutants tried, rejected at the right place, misplaced and accepted."""
    from replayer.generate import generate_game

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="*", help="valid records (default: games/)")
    parser.add_argument("--random", type=int, default=10, help="generated records to add (seeds 0..N-1)")
    parser.add_argument("--profile", action="append", help="generate with this profile (default: every profile)")
    parser.add_argument("--per-operator", type=int, default=None, help="sample at most N mutants of each kind")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.records] or sorted((Path(__file__).parent.parent / "games").glob("*.bzq"))
    texts = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        try:
            walk(text)
        except NotApplicable as exc:
            print(f"{path}: skipped ({exc})")
            continue
        texts.append((str(path), text))
    from replayer.profiles import profile_names

    names = args.profile or profile_names()
    texts += [(f"{n} seed {s}", generate_game(n, s, 1 + s % 2)) for n in names for s in range(args.random)]
    outcomes, no_op_failures = run(texts, args.per_operator, 0)
    by_operator: dict[str, Counter[str]] = {}
    for o in outcomes:
        by_operator.setdefault(o.mutant.operator, Counter())[o.status] += 1
    print(f"{'operator':<22} {'tried':>6} {'rejected':>9} {'misplaced':>10} {'accepted':>9}")
    for name, counts in sorted(by_operator.items()):
        total = sum(counts.values())
        print(f"{name:<22} {total:>6} {counts['rejected']:>9} {counts['misplaced']:>10} {counts['accepted']:>9}")
    total = Counter(o.status for o in outcomes)
    exact = sum(o.column_exact for o in outcomes)
    print(
        f"{'total':<22} {len(outcomes):>6} {total['rejected']:>9} {total['misplaced']:>10} {total['accepted']:>9}"
        f"  ({exact} at the changed token's column)"
    )
    for o in outcomes:
        if o.status != "rejected":
            print(
                f"  {o.status}: {o.mutant.operator}: {o.mutant.description}: expected {sorted(o.mutant.codes)} "
                f"on line {o.mutant.line}, found {list(o.found)[:4]}"
            )
    print(f"no-op changes: {sum(1 for _ in _count_no_ops(texts))} tried, {len(no_op_failures)} wrongly rejected")
    for failure in no_op_failures:
        print(f"  {failure}")
    return 0 if total["rejected"] == len(outcomes) and not no_op_failures else 1


def _count_no_ops(texts: list[tuple[str, str]]) -> Iterator[NoOp]:
    rng = random.Random(0)
    for _, text in texts:
        yield from no_ops(walk(text), rng)


if __name__ == "__main__":
    sys.exit(main())
