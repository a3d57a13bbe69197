"""The lessons' bookkeeping is kept step by step: what a deal's tricks add, not recomputed from the deal's start.

The lesson pages must not change (tests/test_render.py and tests/test_browser.py check what they show); these tests
guard the design that makes them quick to write: the knowledge kept trick by trick equals what a count from scratch
gives, and a book reuses the rows that did not change since the step before, so that their markup is made once.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from replayer.cards import Card
from replayer.generate import generate_game
from replayer.lesson import STRINGS, CardView, _Knowledge, build_lesson, card_view
from replayer.replay import GameResult, replay_text

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "games" / "worked-deal-000.bzq"


def _game(text: str, name: str) -> GameResult:
    result = replay_text(text, name)
    assert result.valid, [d.message for d in result.diagnostics]
    return result.games[0]


def _worked() -> GameResult:
    return _game(WORKED.read_text(encoding="utf-8"), str(WORKED))


@pytest.mark.parametrize("profile", ["classic", "sixty-six", "three-handed", "4h-three-001", "infuzorka"])
def test_knowledge_kept_trick_by_trick_equals_a_count_from_scratch(profile: str) -> None:
    game = _game(generate_game(profile, 5), f"{profile}.bzq")
    rules = game.profile.with_options(game.options)
    for deal in game.deals:
        knowledge = _Knowledge(rules, list(game.profile.seats))
        knowledge.add_scoring(0, deal.scoring)
        history = [(0, e) for e in deal.scoring]
        for trick in deal.tricks:
            knowledge.after_trick(trick)
            knowledge.add_scoring(trick.n, trick.scoring)
            history.extend((trick.n, e) for e in trick.scoring)
            assert knowledge.left == knowledge.deck - knowledge.dead, trick.n
            for (seat, kind), events in knowledge.scored.items():
                assert events == [(n, e) for n, e in reversed(history) if (e.seat, e.kind) == (seat, kind)]


def test_books_reuse_the_rows_that_did_not_change() -> None:
    lesson = build_lesson(_worked(), "en", "worked")
    books = [b for d in lesson.deals for s in d.steps for b in s.books]
    steps = sum(len(d.steps) for d in lesson.deals)
    assert len(books) == 2 * steps  # one book per seat and step: linear in the steps
    melds = [m for b in books for m in b.melds]
    unseen = [row for b in books for row in b.unseen]
    # The worked deal: 550 rows of combinations and 264 suits of unseen cards, of which fewer than a fifth (95 and
    # 87) differ from every row before; each distinct row is one object, whose markup is made once.
    assert len({id(m) for m in melds}) < len(melds) / 5
    assert len({id(row) for row in unseen}) < len(unseen) / 2
    assert len({id(m) for m in melds}) == len({(m.kind, m.name, tuple(m.states)) for m in melds})


def test_card_markup_is_escaped_like_the_templates() -> None:
    queen = card_view(Card.parse("QS"), STRINGS["en"])
    assert queen.html == (
        '<span class="card s-S" role="img" aria-label="queen of spades" title="queen of spades">'
        '<span class="rank">Q</span><span class="suit">♠&#xFE0E;</span></span>'
    )
    odd = CardView("10H", "10", "♥", True, 'ten <of> "hearts" & co', played=True, inferred="open", alternatives="<x>")
    assert odd.html == (
        '<span class="card s-H red played inferred open" role="img" aria-label="ten &lt;of&gt; &#34;hearts&#34; &amp; '
        'co" title="ten &lt;of&gt; &#34;hearts&#34; &amp; co" data-alternatives="&lt;x&gt;"><span class="rank">10'
        '</span><span class="suit">♥&#xFE0E;</span></span>'
    )


def test_the_same_cards_share_one_view_in_a_lesson() -> None:
    lesson = build_lesson(_worked(), "en", "worked")
    views = [c for d in lesson.deals for s in d.steps for seat in s.seats for c in seat.hand if not c.played]
    by_code = Counter(c.code for c in views)
    assert len({id(c) for c in views}) == len(by_code)
