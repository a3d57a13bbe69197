"""Cards: every accepted spelling, the canonical form, ranks in trick order, packs."""

from __future__ import annotations

import pytest

from replayer.cards import Card, CardParseError, Rank, Suit, make_pack, parse_suit


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QS", "QS"),
        ("qs", "QS"),
        ("10C", "10C"),
        ("TC", "10C"),
        ("Q♠", "QS"),
        ("♠Q", "QS"),
        ("10♣", "10C"),
        ("A♥", "AH"),
        ("J♢", "JD"),
        ("Т♣", "AC"),  # Cyrillic Т is the Russian ace (туз)
        ("Д пики", "QS"),
        ("10 треф", "10C"),
        ("В бубен", "JD"),
        ("К червей", "KH"),
        ("«пиковая» Д", "QS"),
        ("7 «треф»", "7C"),
    ],
)
def test_parse_spellings(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(str(card)) == card
    assert repr(card) == f"Card.parse({canonical!r})"


@pytest.mark.parametrize("text", ["", "Q", "QX", "1S", "11C", "XS", "QSS", "пики"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_rank_order_is_bezique_trick_order() -> None:
    # RULES.md §1.1: A 10 K Q J 9 8 7, the ten above the king.
    order = [Card.parse(f"{r}H").rank for r in ["A", "10", "K", "Q", "J", "9", "8", "7"]]
    assert order == sorted(order, reverse=True)
    assert Rank.TEN > Rank.KING


def test_names() -> None:
    card = Card.parse("QS")
    assert card.english == "queen of spades"
    assert card.glyph == "Q♠"
    assert parse_suit("червы") is Suit.H
    assert Suit.D.red and not Suit.C.red


def test_two_packs() -> None:
    pack = make_pack(2)
    assert len(pack) == 64
    assert all(pack.count(c) == 2 for c in set(pack))


def test_the_canonical_spellings_read_by_table_as_by_the_patterns() -> None:
    """Card.parse reads the canonical spellings from a table (no regular expression): the same cards as the
    patterns read from the same spellings in lower case."""
    from replayer.cards import _CANONICAL, _card_re

    assert len(_CANONICAL) == 33  # 32 cards and the wild card
    for text, card in _CANONICAL.items():
        assert str(card) == text and _card_re().match(text)
        assert Card.parse(text.lower()) == card and Card.parse(f" {text} ") is card
