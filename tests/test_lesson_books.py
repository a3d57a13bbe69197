"""The lessons' bookkeeping in Python (``build_lesson(..., books=True)``), the model that the books the page's script
works out are held to (tests/test_browser.py), is kept step by step: what a deal's tricks add, not recomputed from the
deal's start.

These tests guard that model: the knowledge kept trick by trick, as counts of numbered cards, equals what a count from
scratch gives; the books are compact (states named by number, each once) and do not depend on the lessons before.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from replayer.cards import SUITS, Card, Suit
from replayer.check import check_text
from replayer.generate import generate_game
from replayer.lesson import CardView, build_lesson, card_html, card_view, interface
from replayer.lesson.books import KITS, Knowledge, Pack, targets_of
from replayer.lesson.books import kit as kit_of
from replayer.lesson.build import Builder
from replayer.profiles import load_profile
from replayer.render import render_site
from replayer.replay import GameResult
from replayer.rules.compiled import compile_rules
from replayer.rules.melds import matches, trumps_to_try

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "games" / "worked-deal-000.bzq"


def _game(text: str, name: str) -> GameResult:
    result = check_text(text, name)
    assert result.valid, [d.message for d in result.diagnostics]
    return result.games[0]


def _worked() -> GameResult:
    return _game(WORKED.read_text(encoding="utf-8"), str(WORKED))


PROFILES = ["classic", "sixty-six", "three-handed", "4h-three-001", "infuzorka"]


@pytest.mark.parametrize("profile", PROFILES)
def test_knowledge_kept_trick_by_trick_equals_a_count_from_scratch(profile: str) -> None:
    game = _game(generate_game(profile, 5), f"{profile}.bzq")
    rules = game.profile.with_options(game.options)
    pack = Pack(rules)
    assert sum(pack.deck) == len(rules.pack())
    for deal in game.deals:
        knowledge = Knowledge(rules, list(game.profile.seats), pack)
        knowledge.add_scoring(0, deal.scoring)
        history = [(0, e) for e in deal.scoring]
        played: Counter[Card] = Counter()
        for trick in deal.tricks:
            knowledge.after_trick(trick)
            knowledge.add_scoring(trick.n, trick.scoring)
            history.extend((trick.n, e) for e in trick.scoring)
            played.update(c for _, c in trick.plays)
            assert knowledge.dead == [played[c] for c in pack.cards], trick.n
            assert knowledge.left == [n - played[c] for c, n in zip(pack.cards, pack.deck, strict=True)], trick.n
            for (seat, kind), events in knowledge.scored.items():
                assert events == [(n, e) for n, e in reversed(history) if (e.seat, e.kind) == (seat, kind)]


@pytest.mark.parametrize("profile", PROFILES)
def test_books_equal_a_count_from_scratch(profile: str) -> None:
    """What a book says a seat has not seen is, at every step, the deck less the cards played so far, the seat's own,
    those on the others' tables, those it knows lie in their hands and the turn-up, counted again with Counters."""
    game = _game(generate_game(profile, 5), f"{profile}.bzq")
    lesson = build_lesson(game, "en", "x", books=True)
    deck = Counter(game.profile.with_options(game.options).pack())
    codes = [c.code for c in lesson.cards]
    for deal, view in zip(game.deals, lesson.deals, strict=True):
        played: Counter[Card] = Counter()
        for trick, step in zip(deal.tricks, view.steps[1:], strict=True):
            snap = trick.before
            assert len(step.books) == len(game.profile.seats)
            for book in step.books:
                known = Counter(Card.parse(codes[c]) for c in book.known)
                others = [s for s in game.profile.seats if s != book.seat]
                seen = played + Counter(snap.hands[book.seat]) + Counter(snap.tables[book.seat]) + known
                seen += Counter(c for s in others for c in snap.tables[s])
                seen += Counter([snap.turnup] if snap.turnup is not None else [])
                unseen = deck - seen
                assert {code: n for code, n in zip(codes, book.unseen, strict=True) if n} == {
                    str(c): n for c, n in unseen.items()
                }, (trick.n, book.seat)
                assert book.unseen_count == sum(unseen.values())
            played.update(c for _, c in trick.plays)


def test_books_name_each_state_once() -> None:
    lesson = build_lesson(_worked(), "en", "worked", books=True)
    books = [b for d in lesson.deals for s in d.steps for b in s.books]
    steps = sum(len(d.steps) for d in lesson.deals)
    assert len(books) == 2 * steps  # one book per seat and step: linear in the steps
    # Each book's table of combinations is a state per combination and seat, each state a number into the lesson's
    # table of (state, text) pairs, which holds each pair once.
    targets = len(lesson.deals[0].targets)
    assert all(len(b.melds) == 2 * targets for b in books if b.declaring)
    cells = sum(len(b.melds) for b in books)
    assert len(set(lesson.meld_states)) == len(lesson.meld_states) < cells / 10
    assert {n for b in books for n in b.melds} == set(range(len(lesson.meld_states)))


def test_a_page_holds_its_boards_and_books_as_data(tmp_path: Path) -> None:
    """The tables and books of some thirty steps are data for the page's script, not markup: the worked deal's page
    was 628 KB when they were written out in HTML."""
    render_site([check_text(WORKED.read_text(encoding="utf-8"), str(WORKED))], tmp_path / "site", lang="en")
    page = (tmp_path / "site" / "worked-deal-000-1.html").read_text(encoding="utf-8")
    assert len(page.encode("utf-8")) < 250_000
    assert not re.search(r'class="book[ "]', page) and page.count('<div class="seat ') == 2  # the hands dealt


def test_card_markup_is_escaped_like_the_templates() -> None:
    """Cards are written in one place (html.card_html), for the templates, the steps and the page's script."""
    queen = card_view(Card.parse("QS"), interface("en"))
    assert card_html(queen).text == (
        '<span class="card s-S" role="img" aria-label="queen of spades" title="queen of spades">'
        '<span class="rank">Q</span><span class="suit">♠&#xFE0E;</span></span>'
    )
    odd = CardView("10H", "10", "♥", True, 'ten <of> "hearts" & co', played=True, inferred="open", alternatives="<x>")
    assert card_html(odd).text == (
        '<span class="card s-H red played inferred open" role="img" aria-label="ten &lt;of&gt; &#34;hearts&#34; &amp; '
        'co" title="ten &lt;of&gt; &#34;hearts&#34; &amp; co" data-alternatives="&lt;x&gt;"><span class="rank">10'
        '</span><span class="suit">♥&#xFE0E;</span></span>'
    )


def test_the_same_cards_share_one_view_in_a_lesson() -> None:
    lesson = build_lesson(_worked(), "en", "worked")
    steps = [s for d in lesson.deals for s in d.steps]
    views = [p.card for s in steps for p in [*s.plays, *s.draws]] + [
        c for s in steps for seat in s.seats for c in seat.hand
    ]
    views = [c for c in views if not c.inferred]
    by_code = Counter(c.code for c in views)
    assert len({id(c) for c in views}) == len(by_code)
    assert {c.code: id(c) for c in views} == {c.code: id(c) for c in lesson.cards if c.code in by_code}


def test_lessons_of_one_profile_share_the_pack_views_and_combinations() -> None:
    """What depends only on the profile and the language is made once for all the lessons of a site: two games of
    one profile share their card views and each trump's combinations; another language or profile gets its own."""
    first, second = (_game(generate_game("classic", seed), f"classic-{seed}.bzq") for seed in (1, 2))
    a, b = build_lesson(first, "en", "a"), build_lesson(second, "en", "b")
    assert a.cards and all(x is y for x, y in zip(a.cards, b.cards, strict=True))
    kit = kit_of(first.profile, "en")
    assert kit.targets(Suit.H) is kit.targets(Suit.H) and kit.targets(Suit.H) != kit.targets(Suit.S)
    ru = build_lesson(first, "ru", "a")
    assert [c.code for c in ru.cards] == [c.code for c in a.cards]
    assert [c.label for c in ru.cards] != [c.label for c in a.cards]
    eight = _game(generate_game("8p-000", 1), "8p.bzq")
    assert kit_of(eight.profile, "en") is not kit and kit_of(eight.profile, "en").pack.deck != kit.pack.deck


@pytest.mark.parametrize("profile", PROFILES)
def test_books_are_the_same_whatever_lessons_came_before(profile: str) -> None:
    """The states of combinations that lessons of a profile share (see ``Kit.states``) give a lesson the books and
    the numbering of states it gets when it is the first of its profile."""
    game = _game(generate_game(profile, 5), f"{profile}.bzq")
    KITS.clear()
    alone = build_lesson(game, "en", "x", books=True)
    for seed in range(6, 9):
        build_lesson(_game(generate_game(profile, seed), f"{profile}-{seed}.bzq"), "en", "y", books=True)
    after = build_lesson(game, "en", "x", books=True)
    assert after.meld_states == alone.meld_states and len(alone.meld_states) > 1
    books = [[(b.melds, b.news) for s in d.steps for b in s.books] for d in alone.deals]
    assert [[(b.melds, b.news) for s in d.steps for b in s.books] for d in after.deals] == books


@pytest.mark.parametrize("profile", ["classic", "rubicon-000", "no-trump", "8p-001", "infuzorka"])
@pytest.mark.parametrize("trump", [None, Suit.H])
def test_the_books_combinations_are_the_cores(profile: str, trump: Suit | None) -> None:
    """The books list the combinations the core lets a seat declare (rules/melds.py's enumeration): every
    combination's cards form its meld under the trumps, or, before trumps are fixed, under the suit it would fix;
    no combination is listed twice."""
    rules_profile = load_profile(profile)
    rules = compile_rules(rules_profile, rules_profile.default_options())
    pack = Pack(rules_profile)
    targets = targets_of(rules_profile, trump, pack)
    fixed = SUITS.index(trump) if trump is not None else -1
    assert targets
    listed = Counter((g.spec.kind, g.pictures) for g in targets)
    assert max(listed.values()) == 1
    for target in targets:
        if target.count:
            continue  # n cards of one rank in any suits: counted by rank, not as one card set
        cards = [pack.cards[k].index for k in target.pictures]
        suits = trumps_to_try(rules, target.spec, fixed)
        assert any(matches(rules, target.spec, cards, t) for t in suits), (target.spec.kind, cards)
    kinds = Counter(g.spec.kind for g in targets)
    fixing = dict(rules_profile.trump_fixing)
    for spec in rules_profile.melds:
        if spec.ranks and spec.suit == "plain":
            # A plain combination needs trumps to be plain against: none before they are fixed.
            assert kinds[spec.kind] == (3 if trump is not None else 0), spec.kind
        if spec.ranks and spec.suit == "trump":
            assert kinds[spec.kind] == (4 if trump is None and spec.kind in fixing else int(trump is not None))


@pytest.mark.parametrize("profile", [*PROFILES, "rubicon-000", "ua2", "4h-six-000"])
def test_tables_worked_out_cell_by_cell_equal_whole_tables(profile: str) -> None:
    """From one step to the next a seat's table of combinations works out again only the cells whose cards changed,
    or whose kind somebody scored: at every step it equals the table worked out whole, and says the same news."""
    game = _game(generate_game(profile, 7, deals=2), f"{profile}.bzq")

    def tables(incremental: bool) -> list[tuple[list[tuple[str, str]], list[str]]]:
        KITS.clear()
        builder = Builder(game, "en")
        builder.incremental = incremental
        lesson = builder.build()
        states = lesson.meld_states
        return [([states[m] for m in b.melds], b.news) for d in lesson.deals for s in d.steps for b in s.books]

    whole = tables(False)
    assert any(melds for melds, _ in whole) and any(news for _, news in whole)
    assert tables(True) == whole
