"""The sixty-six profile of seed 003 (RULES.md §2.k), rule by rule, and seeded random deals of it.

Every expected value comes from ../shared/RULES.md: each test names the section and rule it checks. Where seed 003 is
silent, RULES.md fills the numbers from [SA] (card values, marriages, the last trick); the tests say so.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from conftest import GAMES, C, cards, deal, draw, violation
from test_profiles import phase_two, play

from replayer.cards import Rank, make_pack
from replayer.cli import main
from replayer.engine import (
    DealState,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_out,
    apply_play,
    finish_deal,
    game_points,
    legal_exchanges,
    legal_plays,
)
from replayer.generate import generate_game, play_deal
from replayer.replay import replay_text
from replayer.rules import load_rules

SIXTY = "sixty-six"
# Trumps hearts (the JH turned up). North deals, so South leads (§2.k rule 4).
NORTH = "AS 10S KS QS 10H 9D"
SOUTH = "AH KH QH AD 10D KD"


def sixty(north: str = NORTH, south: str = SOUTH, turnup: str = "JH", **options: str) -> DealState:
    """A sixty-six deal: North deals, six cards each."""
    return deal(north, south, turnup, options=dict(options), profile=SIXTY)


def with_score(state: DealState, **scores: int) -> DealState:
    """The same state with the seats' scores set (to reach 66 in a test without playing a whole hand)."""
    state = state.copy()
    for seat, score in scores.items():
        state.seats[seat].score = score
    return state


# --- the profile's data -----------------------------------------------------------------------------------------


def test_sixty_six_values() -> None:
    rules = load_rules(SIXTY)
    # §2.k rule 1: one pack of 24 cards, A 10 K Q J 9; rule 3: six each, a talon of 12 with the turn-up, 6 + 6 tricks.
    assert (rules.packs, rules.deck_size, rules.hand_size, rules.stock_size) == (1, 24, 6, 12)
    assert [r.symbol for r in rules.ranks] == ["A", "10", "K", "Q", "J", "9"]
    assert (rules.phase1_tricks, rules.total_tricks) == (6, 12)
    # §2.k rules 3-5: the dealer serves himself first, the turn-up lies under the talon, the dealer's opponent leads,
    # the winner draws first.
    assert (rules.deal_order, rules.turnup, rules.first_leader, rules.draw_order) == (
        "dealer_first",
        True,
        "non_dealer",
        "winner_first",
    )
    # §2.k rule 2 ([SA], not 003): A 11, 10 10, K 4, Q 3, J 2, 9 0.
    assert dict((r.symbol, p) for r, p in rules.card_points) == {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    # §2.k rule 8 ([SA], not 003): marriages 20 and 40, no other meld; declared on lead after a won trick, one card
    # of it led next.
    assert {m.kind: m.points for m in rules.melds} == {"marriage": 20, "royal_marriage": 40}
    assert (rules.declare_after, rules.declare_until, rules.declare_lead_from) == ("won_trick", "lead", True)
    # §2.k rule 6: the trump TEN is exchanged for the turn-up; nothing scores for it.
    assert rules.seven_rank == Rank.TEN
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_played) == (0, 0, 0)
    # §2.k rules 7, 9: free while the talon lasts; then follow suit and beat, else trump.
    assert (rules.phase1_play, rules.phase2_play) == ("free", "follow_win_trump")
    # §2.k rules 10-13: 66 ends the hand; 1 / 2 / 3 game points; last trick 10 ([SA]); game to 7.
    assert rules.hand_target == 66
    assert rules.game_points == ((33, 1), (1, 2), (0, 3))
    assert rules.last_trick_points == 10 and rules.brisque_points == 0
    assert rules.default_options() == {
        "target": 7,
        "exchange_card": "10",
        "phase2_must_win": "yes",
        "exactly_33": "one",
        "last_trick_bonus": "10",
        "played_out": "no_game_points",
        "next_game": "loser_leads",
    }


def test_sixty_six_options_change_the_rules() -> None:
    rules = load_rules(SIXTY)
    assert rules.with_options({"exchange_card": "9"}).seven_rank == Rank.NINE  # §2.k rule 6, standard 66
    assert rules.with_options({"phase2_must_win": "no"}).phase2_play == "follow_trump"  # §2.k rule 9
    assert rules.with_options({"exactly_33": "two"}).game_points == ((34, 1), (1, 2), (0, 3))  # §2.k rule 11
    assert rules.with_options({"last_trick_bonus": "0"}).last_trick_points == 0  # §2.k rule 12
    assert rules.with_options({"next_game": "alternate"}).next_dealer == "alternate"  # §2.k rule 4
    assert rules.with_options({"next_game": "loser_deals"}).next_dealer == "loser"
    assert rules.next_dealer == "winner"


def test_the_pack_holds_120_card_points() -> None:
    # §2.k rule 2: "Total in the pack: 120 (inferred arithmetic)".
    rules = load_rules(SIXTY)
    assert sum(rules.card_value(c, None) for c in make_pack(rules.packs, rules.ranks)) == 120


def test_the_dealer_serves_himself_first() -> None:
    # §2.k rule 3: "Сначала сдающий кладет карту (две карты) себе, а затем — партнеру" (003:L11).
    rules = load_rules(SIXTY)
    for dealer in rules.seats:
        pack = make_pack(rules.packs, rules.ranks)
        random.Random(7).shuffle(pack)
        played = play_deal(rules, random.Random(7), dealer, rules.default_options())
        assert played.hands[dealer] == pack[:6]
        assert played.turnup == pack[12]


# --- play ---------------------------------------------------------------------------------------------------------


def test_the_dealers_opponent_leads_and_the_winner_draws_first() -> None:
    state = sixty()
    # §2.k rule 4: North dealt, so South leads; rule 5: the winner draws first.
    assert state.leader == "S"
    step = play(state, "S AD", "N 9D")
    assert step.winner == "S" and step.state.to_draw == ["S", "N"]
    assert step.state.seats["S"].score == 11  # §2.k rule 2: the ace 11, the nine 0
    assert violation(apply_draw, step.state, "N", C("JS")).code == "BZ401"


def test_no_obligation_while_the_talon_lasts() -> None:
    # §2.k rule 7: "разрешается отдавать любую карту" (003:L17): any card, even holding the suit or a trump.
    state = apply_play(sixty(), "S", C("AD")).state
    assert legal_plays(state, "N") == set(cards(NORTH))
    assert apply_play(state, "N", C("KS")).winner == "S"


def test_marriage_only_on_lead_after_a_won_trick() -> None:
    state = sixty()
    # §2.k rule 8: declared only by a player on lead after he has taken a trick: not before the first trick.
    assert violation(apply_declare, state, "S", "royal_marriage", [C("KH"), C("QH")]).code == "BZ301"
    step = play(state, "S AD", "N 9D")
    # The loser may not declare; the winner, now on lead, may: the trump marriage, 40 ([SA], not 003).
    assert violation(apply_declare, step.state, "N", "marriage", [C("KS"), C("QS")]).code == "BZ301"
    step = apply_declare(step.state, "S", "royal_marriage", [C("KH"), C("QH")])
    assert step.events[0].points == 40 and step.state.seats["S"].score == 51
    # Until he leads: after drawing too.
    state = draw(step.state, "S JS", "N 9S")
    # One marriage per lead (§2.k rule 8, inferred): its card must be led next.
    assert state.must_lead == (C("KH"), C("QH"))
    assert legal_plays(state, "S") == {C("KH"), C("QH")}
    # §2.k rule 8: "непременно должен сделать следующий заход, начиная с одной из карт марьяжа" (003:L19).
    problem = violation(apply_play, state, "S", C("AH"))
    assert problem.code == "BZ209" and "KH or QH" in problem.message
    state = apply_play(state, "S", C("QH")).state
    assert not state.must_lead and legal_plays(state, "N") == set(cards("AS 10S KS QS 10H 9S"))


def test_the_trump_ten_is_exchanged_for_the_turn_up() -> None:
    state = play(sixty(), "S 10D", "N 9D").state  # South wins with the ten
    assert legal_exchanges(state) == []  # South holds no trump ten
    state = play(draw(state, "S JS", "N 9S"), "S JS", "N QS").state  # North wins
    # §2.k rule 6: the holder of the trump ten exchanges it for the turn-up (the JH), after a won trick; no points.
    assert legal_exchanges(state) == [("N", C("10H"))]
    step = apply_exchange(state, "N", C("10H"), 0)
    assert step.state.turnup == C("10H") and step.state.seats["N"].hand[C("JH")] == 1
    assert step.events[0].points == 0
    # Not the nine (standard sixty-six) unless the option says so.
    nine = play(sixty(NORTH.replace("9D", "9H"), turnup="JD"), "S 10D", "N 9H").state
    nine = play(draw(nine, "S JS", "N 9D"), "S JS", "N QS").state
    assert violation(apply_exchange, nine, "N", C("9D")).code == "BZ309"
    nine9 = sixty(NORTH.replace("9D", "9H"), turnup="JD", exchange_card="9")
    nine9 = play(draw(play(nine9, "S 10D", "N 9H").state, "S JS", "N 9D"), "S JS", "N QS").state
    assert apply_exchange(nine9, "N", C("9D")).state.turnup == C("9D")


def test_after_the_talon_follow_suit_and_beat_else_trump() -> None:
    # §2.k rule 9: "отбивать карту противника только картой соответствующей масти ... Если же она отсутствует, то
    # отбиваться необходимо козырной картой" (003:L21); must_win by default (option phase2_must_win).
    state = phase_two(sixty())
    led = apply_play(state, "S", C("KD")).state
    assert legal_plays(led, "N") == {C("9D")}  # holds a diamond that does not beat: still must follow
    led = apply_play(state.copy(), "S", C("QH")).state
    assert violation(apply_play, led, "N", C("AS")).code == "BZ203"
    south = "AH KH QH AD 10D KD"
    north = "AS 10S KS QS 10H 9H"
    state = phase_two(sixty(north, south, turnup="JC"))
    led = apply_play(state, "S", C("KH")).state
    assert violation(apply_play, led, "N", C("9H")).code == "BZ204"  # the 10H beats the king
    free = phase_two(sixty(north, south, turnup="JC", phase2_must_win="no"))
    led = apply_play(free, "S", C("KH")).state
    assert apply_play(led, "N", C("9H")).winner == "S"


def test_void_in_the_suit_led_must_trump() -> None:
    # §2.k rule 9: no card of the suit led: a trump.
    state = phase_two(sixty("AS 10S KS QS 10H 9S", "AH KH QH AD 10D KD"))
    led = apply_play(state, "S", C("AD")).state
    assert legal_plays(led, "N") == {C("10H")}
    assert violation(apply_play, led, "N", C("AS")).code == "BZ205"


def test_marriages_go_on_after_the_talon() -> None:
    # Inferred (§2.k rule 8): 003 does not stop marriages when the talon is gone.
    state = phase_two(sixty())
    state = play(state, "S AD", "N 9D").state
    step = apply_declare(state, "S", "royal_marriage", [C("KH"), C("QH")])
    assert step.state.seats["S"].score == 51


def test_reaching_66_after_a_trick_ends_the_hand() -> None:
    # §2.k rule 10: "Игрок, которому начисляется 66 очков ... заканчивает игру" (003:L25).
    state = with_score(sixty(), S=60)
    step = play(state, "S AD", "N 9D")
    state = step.state
    assert state.out == "S" and state.finished and state.to_draw == []
    # Nothing more is drawn, declared or played.
    assert violation(apply_draw, state, "S", C("JS")).code == "BZ402"
    assert violation(apply_declare, state, "S", "royal_marriage", [C("KH"), C("QH")]).code == "BZ208"
    assert violation(apply_play, state, "S", C("AH")).code == "BZ208"
    # The record must say so: "S goes out", with his score.
    assert violation(finish_deal, state).code == "BZ507"
    assert violation(apply_out, state, "N").code == "BZ507"
    assert violation(apply_out, state, "S", 66).code == "BZ507"
    state = apply_out(state, "S", 71).state
    final = finish_deal(state)
    assert not final.violations
    assert game_points(final.state) == {"N": 0, "S": 3}  # North has no point at all


def test_a_marriage_can_reach_66() -> None:
    state = with_score(sixty(), S=20, N=10)
    state = play(state, "S AD", "N 9D").state  # 31
    step = apply_declare(state, "S", "royal_marriage", [C("KH"), C("QH")])  # 71
    assert step.state.out == "S" and step.state.to_draw == []
    assert violation(apply_out, sixty(), "S").code == "BZ507"  # nobody has 66 yet
    assert game_points(apply_out(step.state, "S").state) == {"N": 0, "S": 2}  # 10: less than 33


@pytest.mark.parametrize(
    ("loser", "option", "points"),
    [(60, "one", 1), (34, "one", 1), (33, "one", 1), (33, "two", 2), (32, "one", 2), (1, "one", 2), (0, "one", 3)],
)
def test_game_points(loser: int, option: str, points: int) -> None:
    # §2.k rule 11: 1 if the loser has "свыше 33", 2 if "меньше 33", 3 if "вовсе ни одного очка"; exactly 33 is
    # open: option exactly_33, 1 by default.
    state = with_score(sixty(exactly_33=option), N=loser, S=60)
    state = apply_out(play(state, "S AD", "N 9D").state, "S").state
    assert game_points(state) == {"N": 0, "S": points}


def test_a_hand_played_out_without_66() -> None:
    # Not in 003: nobody reaches 66 (65 each with the last trick): no game points, or by option the last trick's
    # winner scores as if he had.
    rules = load_rules(SIXTY)
    for option, expected in (("no_game_points", {"N": 0, "S": 0}), ("last_trick_wins", {"N": 2, "S": 0})):
        state = sixty(played_out=option)
        state.trick_no, state.stock_left, state.turnup_waiting = rules.total_tricks, 0, False
        state.winner = "N"
        state.seats["N"].score, state.seats["S"].score = 65, 30
        state.seats["N"].hand.clear()
        state.seats["S"].hand.clear()
        assert state.finished and game_points(finish_deal(state).state) == expected


def test_the_last_trick_scores_10() -> None:
    # §2.k rule 12: 10 for the last trick ([SA], not 003), option 0.
    for option, bonus in (("10", 10), ("0", 0)):
        state = phase_two(sixty(last_trick_bonus=option))
        state.trick_no = 11
        state.seats["N"].hand, state.seats["S"].hand = Counter([C("AD")]), Counter([C("9D")])
        step = play(state, "S 9D", "N AD")
        assert step.state.seats["N"].score == 11 + bonus


# --- records: game points, the game, the next dealer -------------------------------------------------------------

GAME = (GAMES / "constructed-sixty-six.bzq").read_text(encoding="utf-8")


def test_the_constructed_game_counts_game_points() -> None:
    # §2.k rules 11, 13: the game adds up game points to 7; the loser of a hand leads the next (option next_game).
    result = replay_text(GAME)
    assert result.valid, result.diagnostics[:3]
    game = result.games[0]
    assert [d.game_points for d in game.deals] == [
        {"N": 3, "S": 0},
        {"N": 0, "S": 3},
        {"N": 0, "S": 3},
        {"N": 0, "S": 1},
    ]
    assert game.scores == {"N": 3, "S": 7} and game.winner == "S"
    assert [d.dealer for d in game.deals] == ["N", "N", "S", "S"]
    kinds = Counter(e.kind for d in game.deals for t in d.tricks for e in t.scoring)
    assert kinds["seven_exchange"] == 2 and kinds["marriage"] + kinds["royal_marriage"] == 5


def test_a_wrong_total_or_dealer_is_reported() -> None:
    # Totals are game points (docs/notation.md): the hand's points in a total line are wrong.
    wrong = GAME.replace("total N 3, S 0\n", "total N 75, S 0\n")
    assert [d.code for d in replay_text(wrong).diagnostics] == ["BZ504"]
    # With the deal passing in turn, North may not deal twice.
    alternate = GAME.replace("profile: sixty-six\n", "profile: sixty-six\noptions: next_game=alternate\n")
    assert "BZ110" in [d.code for d in replay_text(alternate).diagnostics]
    # A game not yet won: the winner line is checked against target 8.
    eight = GAME.replace("profile: sixty-six\n", "profile: sixty-six\ntarget: 8\n")
    assert [d.code for d in replay_text(eight).diagnostics] == ["BZ505"]


def test_cli_lists_and_generates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    assert SIXTY in capsys.readouterr().out
    assert main(["rules", SIXTY]) == 0
    assert "royal marriage" in capsys.readouterr().out
    assert main(["generate", "--profile", SIXTY, "--seed", "3", "--deals", "3"]) == 0
    text = capsys.readouterr().out
    assert "goes out" in text and replay_text(text).valid


# --- seeded random deals --------------------------------------------------------------------------------------------


def _check_deal(seed: int, options: dict[str, str], round_trip: bool) -> None:
    rules = load_rules(SIXTY)
    chosen = rules.resolve_options(options)
    effective = rules.with_options(chosen)
    played = play_deal(rules, random.Random(seed), rules.seats[seed % 2], chosen)
    pack = Counter(make_pack(rules.packs, rules.ranks))
    dealt = Counter(c for hand in played.hands.values() for c in hand) + Counter(played.stock)
    dealt[played.turnup] += 1
    assert dealt == pack
    state = played.state
    assert state.finished
    # Card conservation: every card is in a won trick, a hand (or on the table), the talon or the turn-up.
    held = sum((s.held() for s in state.seats.values()), Counter())
    won = Counter(c for s in state.seats.values() for c in s.won)
    undrawn = Counter(played.stock[len(played.stock) - state.stock_left :])
    turnup = Counter([state.turnup] if state.turnup_in_stock and state.turnup is not None else [])
    assert sum(won.values()) == 2 * state.trick_no
    assert won + held + undrawn + turnup == pack
    # Every point is an event, and the events add up to the scores.
    for seat in rules.seats:
        assert state.scores()[seat] == sum(e.points for e in played.events if e.seat == seat)
    card_points = sum(e.points for e in played.events if e.kind == "card_points")
    assert card_points <= 120 and card_points == sum(effective.card_value(c, None) for c in won.elements())
    # §2.k rule 10: the hand ends when a seat reaches 66, and only then (or when it is played out).
    scores = state.scores()
    if state.out is not None:
        assert scores[state.out] >= 66 and state.out_stated
        assert max(scores[s] for s in rules.seats if s != state.out) < 66
    else:
        assert state.trick_no == 12 and max(scores.values()) < 66
    # One marriage per lead at most, each followed by a lead of one of its cards.
    meld_kinds = {m.kind for m in rules.melds}
    assert all(len([e for e in ev if e.kind in meld_kinds]) <= 1 for ev in played.trick_events)
    points = game_points(state)
    decided = state.out is not None or effective.played_out == "last_trick_wins"
    assert sum(points.values()) in ((1, 2, 3) if decided else (0,))
    if round_trip:
        header = f'game "seeded deal"\nprofile: {SIXTY}\n'
        if options:
            header += "options: " + ", ".join(f"{k}={v}" for k, v in options.items()) + "\n"
        result = replay_text(header + "\n" + "\n".join(played.lines) + "\n", f"sixty-{seed}.bzq")
        assert result.valid, [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics][:3]
        assert result.games[0].deals[0].scores == played.scores
        assert result.games[0].deals[0].game_points == points


def test_random_deals() -> None:
    start = time.perf_counter()
    for seed in range(200):
        _check_deal(seed, {}, round_trip=seed % 8 == 0)
    assert time.perf_counter() - start < 15


@pytest.mark.parametrize(
    "options",
    [
        {"exchange_card": "9", "phase2_must_win": "no"},
        {"last_trick_bonus": "0", "played_out": "last_trick_wins", "exactly_33": "two"},
    ],
)
def test_random_deals_under_options(options: dict[str, str]) -> None:
    for seed in range(40):
        _check_deal(1000 + seed, options, round_trip=seed % 4 == 0)


def test_generated_games_revalidate_to_the_same_totals() -> None:
    for seed in range(6):
        text = generate_game(SIXTY, seed, deals=5, options={"next_game": ("alternate", "loser_deals")[seed % 2]})
        result = replay_text(text)
        assert result.valid, result.diagnostics[:3]
        totals = [line for line in text.splitlines() if line.startswith("total ")]
        game = result.games[0]
        assert totals[-1] == "total " + ", ".join(f"{s} {v}" for s, v in game.scores.items())
