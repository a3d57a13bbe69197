"""The core plays whole deals by itself (``replayer.rules.position``): legal moves, push and pop.

Every move a position offers is one the deal's own actions accept without a breach, in every profile; every card
it does not offer is one they refuse; and pop takes a push back exactly.
"""

from __future__ import annotations

import random

import pytest

from replayer.profiles import load_profile, profile_names
from replayer.rules import compile_rules
from replayer.rules.deal import DealState
from replayer.rules.melds import TabledCard
from replayer.rules.position import DECLARE, DRAW, PLAY, Move, Position, deal_pack, pack, shuffle


def _rules(profile: str):  # type: ignore[no-untyped-def]
    p = load_profile(profile)
    return compile_rules(p, p.default_options())


def _plain(value: object) -> object:
    """A value of a deal's state with its tabled cards as (uid, card, kinds): comparable by value."""
    if isinstance(value, TabledCard):
        return ("tabled", value.uid, value.card, repr(sorted(value.kinds, key=repr)))
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return repr(value)


def _fingerprint(deal: DealState) -> tuple[object, ...]:
    """Everything a deal's state holds, comparable."""
    return tuple(
        _plain(getattr(deal, name)) for name in DealState.__slots__ if name not in ("rules", "breaches", "events")
    )


@pytest.mark.parametrize("profile", profile_names())
def test_every_offered_move_is_legal_and_the_deal_ends(profile: str) -> None:
    rules = _rules(profile)
    rng = random.Random(7)
    for n in range(2):
        pos = Position.new(rules, n % rules.players, rng)
        moves = 0
        while not pos.over:
            legal = pos.legal_moves()
            assert legal, f"no legal move in a deal that is not over (after {moves} moves)"
            seat = pos.turn
            plays = [m for m in legal if m.kind == PLAY]
            if plays:
                # A card the position does not offer is one the deal refuses.
                held = {c for c in range(33) if pos.deal.held[seat][c]}
                for card in held - {m.card for m in plays}:
                    trial = pos.deal.copy()
                    trial.play(seat, card)
                    assert trial.breaches, f"{card} was refused by legal_moves but accepted by the deal"
            move = rng.choice(legal)
            pos.play_on(move)
            assert not pos.deal.breaches, (move, pos.deal.breaches)
            moves += 1
        end = pos.deal.copy()
        end.finish()
        assert not end.breaches, end.breaches
        assert pos.legal_moves() == []


@pytest.mark.parametrize("profile", ["classic", "sixty-six", "rubicon-000", "three-handed", "4h-six-000"])
def test_pop_takes_back_every_push(profile: str) -> None:
    rules = _rules(profile)
    rng = random.Random(3)
    pos = Position.new(rules, 0, rng)
    prints = []
    while not pos.over:
        prints.append(_fingerprint(pos.deal))
        pos.push(rng.choice(pos.legal_moves()))
    kinds = {m.kind for m in pos.move_stack}
    assert {PLAY, DRAW} <= kinds
    while pos.move_stack:
        pos.pop()
        assert _fingerprint(pos.deal) == prints.pop()
    assert not prints


def test_draws_are_forced_and_follow_the_stock() -> None:
    rules = _rules("classic")
    cards = pack(rules)
    random.Random(5).shuffle(cards)
    hands, turnup, stock = deal_pack(rules, 0, cards)
    assert [len(h) for h in hands] == [rules.hand_size] * 2
    assert turnup == cards[2 * rules.hand_size] and stock == cards[2 * rules.hand_size + 1 :]
    pos = Position.dealt(rules, 0, cards)
    drawn = []
    while not pos.over:
        legal = pos.legal_moves()
        draws = [m for m in legal if m.kind == DRAW]
        if draws:
            assert len(draws) == 1
            drawn.append(draws[0].card)
            pos.push(draws[0])
        else:
            pos.push(next(m for m in legal if m.kind != DECLARE))
    # Every face-down card is drawn in order, then the turn-up (or the seven exchanged for it).
    assert drawn[: len(stock)] == stock
    assert len(drawn) == len(stock) + 1


def test_the_dealer_sits_out_and_the_wild_card_is_never_turned_up() -> None:
    profile = load_profile("infuzorka")
    rules = compile_rules(profile, profile.resolve_options({"players": "4"}))
    assert rules.dealer_sits_out
    cards = sorted(pack(rules), key=lambda c: -c)  # the wild card (32) on top of what is left after the hands
    hands, turnup, _ = deal_pack(rules, 2, cards)
    assert hands[2] == [] and all(len(h) == rules.hand_size for i, h in enumerate(hands) if i != 2)
    assert turnup != 32


def test_move_text_names_the_cards() -> None:
    assert Move(PLAY, 0, 12).text(("N", "S")) == "N plays QH"
    assert Move(DECLARE, 1, -1, "marriage", (13, 12)).text(("N", "S")) == "S declares marriage KH QH"


@pytest.mark.parametrize("profile", profile_names())
def test_the_offered_plays_and_declarations_are_the_deals_own(profile: str) -> None:
    """The position's fast paths (the plays picked by the counts, "no declaration" answered before any enumeration)
    offer what the deal's questions answer: the legal plays in index order, each once, and its declarations."""
    rules = _rules(profile)
    rng = random.Random(11)
    for n in range(2):
        pos = Position.new(rules, n % rules.players, rng)
        while not pos.over:
            legal = pos.legal_moves()
            deal = pos.deal
            plays = [m.card for m in legal if m.kind == PLAY]
            if plays:
                seat = pos.turn
                assert plays == sorted(deal.legal_plays(seat)) == deal.legal_play_list(seat)
                held = [c for c in range(33) if deal.held[seat][c]]
                restriction = deal.play_restriction(seat)
                assert (restriction if restriction is not None else held) == plays
            declarations = [(m.meld, m.cards) for m in legal if m.kind == DECLARE]
            if deal.window_open and deal.winner >= 0:
                found = [(spec.kind, cards) for spec, cards in deal.legal_declarations(deal.winner)]
                assert declarations == found
                assert deal.can_declare(deal.winner) == bool(found)
            else:
                assert not declarations
            pos.play_on(rng.choice(legal))


def test_the_pack_is_a_new_list_at_each_deal() -> None:
    rules = _rules("classic")
    first = pack(rules)
    assert first == [c for c in range(33) for _ in range(rules.copies[c])]
    first.reverse()
    assert pack(rules) == sorted(first)


def test_a_copy_shares_nothing_changed_in_place() -> None:
    """A push keeps a copy of the state: every list or counter of it is the copy's own (``world_base`` and the
    seats' playing order are never changed in place, and are shared)."""
    rules = _rules("classic")
    pos = Position.new(rules, 0, random.Random(2))
    for _ in range(30):
        pos.play_on(pos.legal_moves()[-1])
    copied = pos.deal.copy()
    for name in DealState.__slots__:
        value = getattr(pos.deal, name)
        if isinstance(value, list | dict) and name not in ("next_seat", "order"):
            assert getattr(copied, name) is not value, name


@pytest.mark.parametrize("size", [1, 2, 5, 33, 64, 96, 214])
def test_shuffle_is_random_shuffle(size: int) -> None:
    # The pack's order and the numbers drawn are random.shuffle's, so every seeded deal stays the same.
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards, expected = list(range(size)), list(range(size))
        shuffle(cards, ours)
        theirs.shuffle(expected)
        assert cards == expected
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("profile", ["infuzorka", "8p-000", "chinese-000", "4h-six-000"])
def test_a_declaration_numbers_its_cards_as_when_every_choice_is_laid_out(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once copies leave a choice open, a declaration that is laid out under the choice kept first alone (the other
    choices of its cards are not laid out) leaves the state exactly as laying them all out does: the same tables,
    and the same uid to number the next cards from."""
    rules = _rules(profile)
    place = DealState._place

    def every_choice(self: DealState, *args: object) -> object:
        return place(self, *args[:6], True)  # type: ignore[arg-type]

    branched = 0
    for seed in range(3):
        moves: list[Move] = []
        fingerprints = []
        one = Position.new(rules, seed % rules.players, random.Random(seed))
        rng = random.Random(100 + seed)
        while not one.over and len(moves) < 400:
            legal = one.legal_moves()
            if not legal:
                break
            branched += one.deal.world_base is not None
            moves.append(rng.choice(legal))
            one.push(moves[-1])
            fingerprints.append(_fingerprint(one.deal))
        with monkeypatch.context() as patched:
            patched.setattr(DealState, "_place", every_choice)
            other = Position.new(rules, seed % rules.players, random.Random(seed))
            for move, fingerprint in zip(moves, fingerprints, strict=True):
                other.push(move)
                assert _fingerprint(other.deal) == fingerprint
    assert branched, "no deal left a choice of copies open: the test would prove nothing"
