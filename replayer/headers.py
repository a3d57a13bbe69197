"""A game's and a deal's headers read against the rules: what the replay starts from.

Before the replay (:mod:`replayer.replay`) carries out a deal's statements, the headers say what they are played
under: the game's profile, options, target and seats (:func:`game_rules`); each deal's dealer and leader, the seats
its lines name (:func:`seats_named`), and its hands, trump, turn-up, stock and, for a fragment, its position (the
core's :class:`DealState` at the first trick, :func:`start_state`). The rules are the core's: this module reads the
headers, hands them to it, and reports each fault at the header that states it, through the replay's ``report``.
"""

from __future__ import annotations

from collections import Counter

from .cards import SUITS, Card
from .completion import known
from .errors import OptionError, RuleProfileError, Span
from .explain import explain
from .profiles import load_profile
from .record import Deal, Draws, Game, Position, ScoreCheck
from .rules import Breach, DealState, GameState, Rules, compile_rules

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from collections.abc import Callable

    Report = Callable[[str, str, Span | None], None]
    """The replay's report of a fault: its code, its words, where it is."""

__all__ = ["game_rules", "seats_named", "start_state", "take_dealer"]


def game_rules(game: Game, report: Report) -> tuple[Rules, dict[str, str | int]] | None:
    """The rules a game is played under, and its options: its profile, the options it gives (one the profile does
    not have left out, the others kept), its target header, and each seat it names checked; None, reported, when
    there is no such profile."""
    try:
        profile = load_profile(game.profile)
    except RuleProfileError as exc:
        report("BZ103", str(exc), game.profile_span or game.span)
        return None
    given = dict(game.options)
    while True:
        try:
            options = profile.resolve_options(given)
            break
        except OptionError as exc:
            culprit = exc.option
            report("BZ104", str(exc), game.option_spans.get(culprit or "", game.span))
            if culprit is None:
                options = profile.default_options()
                break
            # The other options still apply (a record of three players is not replayed as one of two).
            del given[culprit]
    if game.target is not None:
        where = game.target_span or game.span
        if "target" not in profile.options:
            report(
                "BZ104",
                f"the {profile.name} profile has no target (one hand is the game): a target header does not apply",
                where,
            )
        elif "target" in given and int(given["target"]) != game.target:
            report(
                "BZ104",
                f"the target is written twice: options target={given['target']} and target: {game.target}",
                where,
            )
        else:
            options["target"] = game.target
    rules = compile_rules(profile, options)
    # The seats as the game plays them: an option may change them (three or four players of no-trump).
    for seat in game.players:
        if seat not in rules.seat_index:
            report(
                "BZ105",
                f"seat {seat} is not used by the {profile.name} profile (seats: {' '.join(rules.seats)})",
                game.player_spans.get(seat, game.span),
            )
    return rules, options


def take_dealer(
    deal: Deal, rules: Rules, play: GameState, number: int, given: str | None, report: Report
) -> tuple[bool, str | None]:
    """The dealer of deal ``number`` (as written, else ``given``, else the core's choice, :meth:`GameState.dealer_of`),
    begun in ``play``; reports a dealer the rules do not expect, a seat the game does not have, and a deal after the
    game is over. False when the deal cannot be replayed."""
    index = rules.seat_index
    written, leader = deal.dealer or given, deal.leader
    chosen, breach = play.dealer_of(
        None if written is None else index.get(written, -1), index.get(leader or ""), number
    )
    where = deal.spans.get("dealer", deal.span)
    if breach is not None:
        report(breach[0], explain(rules, breach), where)
    for name, seat in (("dealer", written), ("leader", leader)):
        if seat is not None and seat not in index:
            report(
                "BZ105",
                f"{name} {seat} is not a seat of the {rules.named.name} profile ({' '.join(rules.seats)})",
                deal.spans.get(name, deal.span),
            )
            return False, None
    if chosen is None:
        return True, None
    over = play.begin_deal(chosen)
    if over is not None:
        report(over[0], explain(rules, over), where)
    return True, rules.seats[chosen]


def seats_named(deal: Deal, rules: Rules, report: Report) -> bool:
    """Whether every seat a deal names is the game's and no seat plays twice to a trick (checked before the deal is
    replayed or completed: a seat the game does not have can neither play nor draw)."""
    seats = rules.seat_index
    # The reader noted the seats each deal names: the deal is walked only to report a seat that is not the game's.
    if not deal.repeated_seat and all(seat in seats for seat in (*deal.seats_named, *deal.hands)):
        return True
    ok = True
    profile = rules.named

    def unknown(seat: str, span: Span | None) -> None:
        nonlocal ok
        report("BZ105", f"{seat} is not a seat of the {profile.name} profile ({' '.join(rules.seats)})", span)
        ok = False

    for trick in deal.tricks:
        plays = trick.plays
        for play in plays:
            if play.seat not in seats:
                unknown(play.seat, play.seat_span)
        if len(plays) > 1 and len({p.seat for p in plays}) != len(plays):
            report("BZ202", f"a seat plays twice to trick {trick.number}", trick.span)
            ok = False
        for item in trick.items:
            if type(item) is Draws:
                for draw in item.draws:
                    if draw.seat not in seats:
                        unknown(draw.seat, draw.seat_span)
            elif type(item) is not ScoreCheck:
                seat = getattr(item, "seat", None)
                if seat is not None and seat not in seats:
                    unknown(seat, item.span)
    for seat in deal.hands:
        if seat not in seats:
            report("BZ105", f"{seat} is not a seat of the {profile.name} profile", deal.hand_spans.get(seat))
            ok = False
    return ok


def start_state(
    deal: Deal, rules: Rules, number: int, dealer: str | None, position: Position | None, report: Report
) -> DealState | None:
    """The core's state after the deal (a fragment's: at its position), each fault of the deal reported at the
    header that states it; None, reported, when the record leaves out what a deal needs."""
    stock = deal.stock
    if stock is not None and not all(isinstance(c, Card) for c in stock):
        report(
            "BZ107",
            "a stated stock must list known cards (leave the stock out when it is unknown)",
            deal.spans.get("stock", deal.span),
        )
        stock = None
    missing = []
    if dealer is None:
        missing.append("dealer (or leader)")
    if rules.profile.turnup and deal.turnup is None and position is None:
        missing.append("turnup")
    sitter = dealer if rules.dealer_sits_out else None  # (the dealer who sits the hand out has none, 004:L117)
    missing.extend(f"hand {seat}" for seat in rules.seats if seat not in deal.hands and seat != sitter)
    if position is not None:
        missing.extend(_position_missing(deal, position, rules, report))
    elif deal.table:
        report("BZ112", "a table header belongs to a fragment: state its position first", deal.spans["table"])
        return None
    if missing:
        report("BZ107", f"deal {number} needs {', '.join(missing)} before its first trick", deal.span)
        return None
    assert dealer is not None
    seat_index = rules.seat_index
    hands = [[c.index for c in deal.hands.get(seat, ())] for seat in rules.seats]
    table = [
        (seat_index[m.seat], m.kind, [known(c).index for c in m.cards]) for m in deal.table if m.seat in seat_index
    ]
    # A card on the table is in its seat's hand; one card may lie in several melds (a king of a marriage and of four
    # kings), so a seat's table holds the most copies of each card that one meld names.
    tabled = [Counter[int]() for _ in rules.seats]
    for seat, _, cards in table:
        tabled[seat] |= Counter(cards)
    for seat, on_table in enumerate(tabled):
        hands[seat] += on_table.elements()
    stock_cards = [c.index for c in stock] if stock is not None else None
    state = DealState.start(
        rules,
        seat_index[dealer],
        SUITS.index(deal.trump) if deal.trump is not None else -1,
        deal.turnup.index if deal.turnup is not None else -1,
        hands,
        stock_cards if position is None else None,
        seat_index[deal.leader] if deal.leader is not None else None,
        DealState.position_hand_size(rules, position.trick) if position is not None else None,
    )
    if position is not None:
        scores = [(rules.scorer_named(v.seat), v.value) for v in position.scores]
        state.resume(position.trick, position.stock, scores, table, stock_cards)
    for breach in state.breaches:
        report(breach[0], explain(rules, breach), _start_span(deal, position, rules, breach) or deal.span)
    state.breaches.clear()
    return state


def _start_span(deal: Deal, position: Position | None, rules: Rules, breach: Breach) -> Span | None:
    """Where a fault of the deal as dealt is reported: at the header that states it (None: the deal's own line)."""
    code, key, args = breach
    if code == "BZ107":
        return deal.spans.get("turnup") or deal.spans.get("trump")
    if key in ("hand_size", "sits_out") or (key == "position_hand" and position is not None):
        return deal.hand_spans.get(rules.seats[int(args[0])])  # type: ignore[call-overload]
    if key == "stock_size" or (key == "position_listed" and position is not None):
        return deal.spans.get("stock")
    if code == "BZ112" and position is not None:
        return position.span
    if code in ("BZ109", "BZ304") and deal.table:
        return deal.spans.get("table")
    return None


def _position_missing(deal: Deal, position: Position, rules: Rules, report: Report) -> list[str]:
    """What a fragment's position leaves unstated (each named as the deal's missing headers are), and each score
    written for a seat or side that is not the game's (reported)."""
    missing = []
    if deal.leader is None:
        missing.append("leader")
    if deal.trump is None and deal.turnup is None and not rules.fixing:
        missing.append("trump")
    if position.stock is None:
        missing.append("the stock's count in its position")
    stated = set()
    for value in position.scores:
        scorer = rules.scorer_named(value.seat)
        if scorer < 0:
            report("BZ105", f"{value.seat} is not a seat or side of this game", value.span)
            missing.append(f"a score for {value.seat}")
        stated.add(scorer)
    missing.extend(f"a score for {name}" for i, name in enumerate(rules.scorers) if i not in stated)
    for meld in deal.table:
        if meld.seat not in rules.seat_index:
            report("BZ105", f"{meld.seat} is not a seat of this game", meld.span)
            missing.append("a table of a seat of the game")
    return missing
