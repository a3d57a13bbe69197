"""A seeded random player: plays complete legal deals through the engine and writes them in the notation.

Used to test the engine and the replayer against each other (every generated record must re-validate to the same
scores) and to make corpora for the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from . import writer as write
from .cards import CARDS, Card
from .engine import (
    EngineState,
    Scoring,
    apply_carte_blanche,
    apply_cut,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_out,
    apply_pass,
    apply_play,
    finish_deal,
    game_points,
    legal_carte_blanche,
    legal_declarations,
    legal_exchanges,
    legal_joint_declarations,
    legal_plays,
    start_deal,
)
from .profile import MeldSpec, RuleProfile
from .profiles import load_profile
from .rules import GameState, compile_rules, game_score
from .rules.position import deal_pack
from .rules.position import served as served_order

__all__ = ["PLAYERS", "PlayedDeal", "generate_deal", "generate_game", "play_deal"]


@dataclass
class PlayedDeal:
    """A random deal as the engine played it: its notation, its hands and stock, and every score."""

    lines: list[str]
    """The deal in the notation, from ``deal N`` to ``result``."""
    hands: dict[str, list[Card]]
    turnup: Card | None
    stock: list[Card]
    """The face-down stock, top first, as shuffled."""
    state: EngineState
    """The state after the end-of-hand scoring."""
    events: list[Scoring] = field(default_factory=list)
    """Every score of the deal, in order (the deal's own scores, tricks, end of hand)."""
    trick_events: list[list[Scoring]] = field(default_factory=list)
    """The scores of each trick (plays, exchanges, declarations), trick by trick."""
    winners: list[int] = field(default_factory=list)
    """The seat (its index) that won each trick."""

    @property
    def scores(self) -> dict[str, int]:
        """The deal's final scores."""
        return self.state.scores()


PlayChooser = Callable[[EngineState, str, list[Card]], Card]
"""Chooses a card among the legal ones (sorted) for a seat: a scripted player for constructed deals."""
Offer = tuple[MeldSpec, tuple[Card, ...]]
DeclarationChooser = Callable[[EngineState, str, list[Offer]], Offer | None]
"""Chooses one of the declarations the trick's winner may score (None: none)."""


def play_deal(
    profile: RuleProfile,
    rng: random.Random,
    dealer: str,
    options: Mapping[str, str | int],
    number: int = 1,
    *,
    pack: Sequence[Card] | None = None,
    choose_play: PlayChooser | None = None,
    choose_declaration: DeclarationChooser | None = None,
    cut: tuple[int, int] | None = None,
    eager: bool = False,
) -> PlayedDeal:
    """Play one random legal deal through the engine (reproducible from the state of ``rng``).

    A constructed deal passes a stacked ``pack`` (the hands in seat order, then the stock top first), choosers for
    the plays and declarations (a scripted player; random ones otherwise), and the six-pack ``cut`` (lifted,
    guessed). ``eager``: every exchange and carte blanche the rules allow is taken, and declarations are made at
    once (the better player, replayer/player.py), rather than most of the time.
    """
    # The profile as the deal plays it: an option may change the seats or the packs (three players of no-trump).
    named, profile = profile, profile.with_options(options)
    if pack is None:
        pack = profile.pack()
        rng.shuffle(pack)
    pack = list(pack)
    seats = profile.seats
    rules = compile_rules(named, options)
    order = served_order(rules, rules.seat_index[dealer])
    served = [seats[s] for s in order]
    dealt_cards, turned_up, face_down = deal_pack(rules, rules.seat_index[dealer], [c.index for c in pack])
    hands = {seats[s]: [CARDS[c] for c in dealt_cards[s]] for s in order}
    turnup = CARDS[turned_up] if turned_up >= 0 else None
    stock = [CARDS[c] for c in face_down]
    dealt = {s: list(h) for s, h in hands.items()}
    shuffled_stock = list(stock)
    step = start_deal(named, options, dealer, turnup.suit if turnup else None, turnup, hands)
    all_events = list(step.events)
    per_trick: list[list[Scoring]] = []
    won_by: list[int] = []
    state: EngineState = step.state
    lines = [write.words(["deal", str(number)]), write.header("dealer", dealer)]
    if state.trump is not None:
        lines.append(write.header("trump", state.trump.value))
    if turnup is not None:
        lines.append(write.header("turnup", str(turnup)))
    lift_count = profile.cut_bonus[2]
    if lift_count:
        # The six-pack deal bonuses (RULES.md §2.h rule 3): the dealer lifts about 24 cards, the other guesses.
        lifted, guess = cut or (
            rng.randint(lift_count - 3, lift_count + 3),
            rng.randint(lift_count - 3, lift_count + 3),
        )
        lines.extend([write.header("cut", str(lifted)), write.header("guess", str(guess))])
        bonus = apply_cut(state, lifted, guess)
        all_events.extend(bonus.events)
        state = bonus.state
    for s in seats:
        if s in hands:
            ordered: list[Card] = sorted(hands[s], key=lambda c: c.sort_key)
            lines.append(write.hand(s, ordered))
    lines.append("")
    for s in served:
        state = _carte_blanche(state, s, rng, lines, all_events, eager)
    while not state.finished:
        plays = []
        events: list[Scoring] = []
        per_trick.append(events)
        for _ in served:
            seat = state.leader if not state.plays else state.next_seat(state.plays[-1][0])
            legal = sorted(legal_plays(state, seat), key=lambda c: c.sort_key)
            choice = choose_play(state, seat, legal) if choose_play else rng.choice(legal)
            step = apply_play(state, seat, choice)
            state = step.state
            events.extend(step.events)
            plays.append((seat, choice))
        winner = step.winner
        assert winner is not None
        won_by.append(state.profile.seats.index(winner))
        lines.append(write.trick(state.trick_no, plays, winner))
        if state.window_open:
            # Where the profile lets the winner act until his next lead, he sometimes declares after drawing.
            late = state.profile.declare_until == "lead" and not eager and rng.random() < 0.5
            state = _exchanges(state, rng, lines, events, eager)
            if not late:
                state = _declaration(state, winner, rng, lines, events, choose_declaration)
            draws = []
            for seat in list(state.to_draw):
                card = stock.pop(0) if stock else state.turnup
                assert card is not None
                state = apply_draw(state, seat, card).state
                draws.append((seat, card))
            if draws:
                lines.append(write.draws(draws))
            for seat in served:
                state = _carte_blanche(state, seat, rng, lines, events, eager)
            state = _exchanges(state, rng, lines, events, eager)
            if late:
                state = _declaration(state, winner, rng, lines, events, choose_declaration)
        if state.out is not None:
            # The seat that reached the hand's target (66) ends the hand, and the record says so.
            out = state.out
            step = apply_out(state, out, state.seats[out].score)
            state = step.state
            events.extend(step.events)
            lines.append(write.goes_out(out, state.seats[out].score))
        all_events.extend(events)
        lines.append(write.scores("score", state.scores(), item=True))
    final = finish_deal(state)
    all_events.extend(final.events)
    played = PlayedDeal(lines, dealt, turnup, shuffled_stock, final.state, all_events, per_trick, won_by)
    brisques = {e.seat: e.points for e in final.events if e.kind == "brisques"}
    counted = {e.seat: e.points for e in final.events if e.kind == "card_points"}
    lines.append("")
    if brisques:
        lines.append(write.scores("brisques", brisques))
    result = write.scores("result", played.scores)
    if counted:
        # The notation has no statement for card points added at the end: the comment says what the result holds.
        result += "  " + write.comment(write.scores("card points", counted))
    lines.append(result)
    if state.profile.game_scoring is not None:
        scored = game_score(state.profile.game_scoring, played.scores)
        lines.append(write.scores("game score", scored))
    return played


def generate_deal(
    profile: RuleProfile, rng: random.Random, dealer: str, options: Mapping[str, str | int], number: int = 1
) -> tuple[list[str], dict[str, int]]:
    """Play one random legal deal; returns the notation lines and the deal's scores."""
    played = play_deal(profile, rng, dealer, options, number)
    return played.lines, played.scores


def _exchanges(
    state: EngineState, rng: random.Random, lines: list[str], events: list[Scoring], eager: bool = False
) -> EngineState:
    """Exchange (or show) trump sevens where the rules allow, each offer taken four times in five (every time when
    ``eager``)."""
    declined: set[str] = set()
    while True:
        offers = [(seat, seven) for seat, seven in legal_exchanges(state) if seat not in declined]
        if not offers:
            return state
        seat, seven = offers[0]
        if not eager and rng.random() >= 0.8:
            declined.add(seat)
            continue
        step = apply_exchange(state, seat, seven)
        state = step.state
        events.extend(step.events)
        lines.append(write.exchange(seat, seven, step.events[0].points))


def _declaration(
    state: EngineState,
    winner: str,
    rng: random.Random,
    lines: list[str],
    events: list[Scoring],
    chooser: DeclarationChooser | None = None,
) -> EngineState:
    """Score one of the combinations the trick's winner may declare, six times in seven or so (or as ``chooser``
    decides).

    Where partners declare for and with each other, the random player sometimes lets the partner declare, and a
    declaration may join both partners' cards."""
    declarer = winner
    partner = state.profile.partner(winner)
    passing = chooser is None and state.profile.declare_by == "winner_or_partner" and partner is not None
    if passing and partner is not None and rng.random() < 0.3:
        step = apply_pass(state, winner, partner, force=True)
        if not step.violations:  # only while he may still declare
            state = step.state
            lines.append(write.passes(winner, partner))
            declarer = partner
    options_now = legal_declarations(state, declarer)
    offer: tuple[MeldSpec, tuple[Card, ...], tuple[Card, ...]] | None = None
    if chooser is not None:
        chosen = chooser(state, declarer, options_now) if options_now else None
        offer = (chosen[0], chosen[1], ()) if chosen is not None else None
    else:
        offers = [(spec, cards, ()) for spec, cards in options_now] + legal_joint_declarations(state, declarer)
        offer = rng.choice(offers) if offers and rng.random() < 0.85 else None
    if offer is not None:
        spec, cards, theirs = offer
        step = apply_declare(state, declarer, spec.kind, cards, partner_cards=theirs)
        events.extend(step.events)
        state = step.state
        # (the meld's value, what it scores when it fixes trumps, or a repeat's points: 004-C's progressions)
        points = step.events[-1].points
        lines.append(write.declare(declarer, spec.kind, cards, points, state.profile.partner(declarer), theirs))
    return state


def _carte_blanche(
    state: EngineState, seat: str, rng: random.Random, lines: list[str], events: list[Scoring], eager: bool = False
) -> EngineState:
    """Declare a carte blanche (or another, showing the non-court card just drawn) where the rules allow, nine
    times in ten (every time when ``eager``); the first is written without its cards (the dealt hand is in the
    record already)."""
    spec = next((m for m in state.profile.melds if m.whole_hand and m.hand == "no_court"), None)
    side = next((m for m in state.profile.melds if m.hand == "no_court_side" and m.points), None)
    if side is not None and legal_carte_blanche(state, seat, side):
        # Partners neither of whom was dealt a court card (RULES.md §2.g.1 rule 5): one of them declares it.
        step = apply_carte_blanche(state, seat, side, [])
        events.extend(step.events)
        lines.append(write.declare(seat, side.kind, (), side.points))
        state = step.state
    if spec is None or not legal_carte_blanche(state, seat, spec) or (not eager and rng.random() >= 0.9):
        return state
    repeat = state.seats[seat].blanche == 1
    card = state.seats[seat].blanche_card
    step = apply_carte_blanche(state, seat, spec, [card] if repeat and card else [])
    events.extend(step.events)
    lines.append(write.declare(seat, spec.kind, [card] if repeat and card else [], spec.points))
    return step.state


PLAYERS = ("random", "solver", "sampler")
"""The players ``bezique generate`` offers: the random legal player, the better player of replayer/player.py (a
heuristic while the stock lasts, the solver for the last tricks), and the sampler of replayer/match.py (each card
chosen by the sampled analysis, a few deals a card; two seats)."""

_TITLES = {"random": "Random", "solver": "Solver-played", "sampler": "Sampler-played"}


def generate_game(
    profile_name: str,
    seed: int,
    deals: int = 1,
    options: Mapping[str, str] | None = None,
    player: str = "random",
    jobs: int = 1,
    samples: int | None = None,
) -> str:
    """A record of ``deals`` legal deals of one game, reproducible from ``seed``, played by ``player`` (one of
    :data:`PLAYERS`); the sampler's record is commented from its sampled analysis (``samples`` deals a play,
    ``bezique analyse --all``'s default unless given, seed 0), made in ``jobs`` processes.

    ``options`` sets house rules by name, as a record's ``options:`` header does (raises ``ValueError`` for an
    unknown option or value, or an unknown player); the record states those that differ from the profile's
    defaults.
    """
    if player not in PLAYERS:
        raise ValueError(f"unknown player {player!r} (players: {', '.join(PLAYERS)})")
    profile = load_profile(profile_name)
    rng = random.Random(seed)
    given = dict(options or {})
    chosen = profile.resolve_options(given)
    # The options the record states: those given that the profile would not take without them (a default another
    # option implies, such as the target of three players, is not stated).
    changed = {}
    for name in given:
        without = profile.resolve_options({n: v for n, v in given.items() if n != name})
        if chosen[name] != without[name]:
            changed[name] = chosen[name]
    chooser: dict[str, object] = {}
    command = f"bezique generate --profile {profile.name} --seed {seed}"
    if player == "solver":
        from .player import choose_declaration, choose_play

        chooser = {"choose_play": choose_play, "choose_declaration": choose_declaration, "eager": True}
        command += " --player solver"
    elif player == "sampler":
        from .match import SamplerChooser
        from .player import choose_declaration

        chooser = {"choose_play": SamplerChooser(seed), "choose_declaration": choose_declaration, "eager": True}
        command += " --player sampler"
    lines = [
        write.game(f"{_TITLES[player]} {profile.name} game, seed {seed}"),
        write.header("source", f"generated by {command}"),
        write.header("profile", profile.name),
    ]
    if changed:
        lines.append(write.options(sorted(changed.items())))
    lines.append("")

    rules = compile_rules(profile, chosen)
    seats = rules.seats
    dealer = seats[seed % len(seats)]
    game = GameState(rules)
    for n in range(1, deals + 1):
        played = play_deal(profile, rng, dealer, chosen, n, **chooser)  # type: ignore[arg-type]
        lines.extend(played.lines)
        game.begin_deal(seats.index(dealer))
        # Where the profile counts game points (sixty-six), the game adds those up, not the hands' points.
        won = game_points(played.state)
        scores = played.scores
        game.end_deal(
            [scores.get(name, 0) for name in rules.scorers],
            [won.get(seat, 0) for seat in seats] if won else [],
            played.winners,
        )
        if deals > 1:
            lines.append(write.scores("total", dict(zip(rules.scorers, game.totals, strict=True))))
        lines.append("")
        if game.over:
            # No deal follows a won game (a one-hand game ends with its hand): ``deals`` is the most played.
            if game.decided >= 0 and rules.target is not None:
                lines.append(write.words(["winner", rules.scorers[game.decided]]))
                lines.append("")
            break
        expected = game.expected_dealer()
        assert expected is not None
        dealer = seats[expected]
    text = "\n".join(lines)
    if player in ("solver", "sampler"):
        from .commentary import comment_record
        from .sampling import DEFAULT_SAMPLES

        # The better players' games are meant to be read: each gets the commentary made from its replay, and the
        # sampler's the moments that matter by the sampled analysis (the numbers of ``bezique analyse --all``).
        if player == "sampler" and samples is None:
            samples = DEFAULT_SAMPLES
        text = comment_record(text, samples=samples if player == "sampler" else None, jobs=jobs)
    return text
