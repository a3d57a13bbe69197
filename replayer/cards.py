"""Cards: suits, ranks in bezique trick order, and the parsers for every card spelling a record may use.

The canonical text form is rank + suit letter: ``QS``, ``10C``, ``AH``. Input is lenient: Unicode suits
(``Q♠``, ``♠Q``), the Russian ranks of the source books (Т К Д В for ace, king, queen, jack) and Russian
suit words (``Д пики``, ``10 треф``, ``«пиковая» Д``).

The many-pack variant of seed 004-C adds a wild card, "инфузорка", which has no suit and no value of its own
(RULES.md §2.l rule 10). It is written ``*`` (input also ``инфузорка``) and is the one card whose rank is
:attr:`Rank.WILD`; its ``suit`` field is a placeholder that no rule reads (``Card.is_wild`` is asked first).

>>> Card.parse("10C").rank > Card.parse("KC").rank
True
>>> str(Card.parse("Д♠")), str(Card.parse("10 треф"))
('QS', '10C')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

__all__ = [
    "CARDS",
    "CARD_INDICES",
    "SUITS",
    "WILD",
    "WILD_INDEX",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "card_index",
    "display_key",
    "format_cards",
    "make_pack",
    "parse_rank",
    "parse_suit",
    "rank_of",
    "suit_of",
]


class CardParseError(ValueError):
    """Raised when a text is not a card, rank or suit in any spelling the notation accepts."""


class Suit(enum.Enum):
    """The four suits; the value is the canonical letter."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    # Members are singletons, equal only to themselves: the identity hash is right, and it is computed in C
    # (Enum's own hashes the member's name in Python, and the engine hashes cards in every Counter it keeps).
    __hash__ = object.__hash__

    @property
    def glyph(self) -> str:
        """The Unicode suit symbol."""
        return _GLYPHS[self]

    @property
    def english(self) -> str:
        """The English plural name ("spades")."""
        return _SUIT_NAMES_EN[self]

    @property
    def russian(self) -> str:
        """The Russian plural name ("пики")."""
        return _SUIT_NAMES_RU[self]

    @property
    def red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.H, Suit.D)

    def __str__(self) -> str:
        return self.value


class Rank(enum.IntEnum):
    """Ranks valued by trick order, so that ``>`` means "beats in the same suit"."""

    WILD = -1
    """The wild card (only in profiles whose pack adds it): below every rank, and of no suit."""
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    JACK = 3
    QUEEN = 4
    KING = 5
    TEN = 6
    ACE = 7

    @property
    def symbol(self) -> str:
        """The canonical rank symbol: A 10 K Q J 9 8 7."""
        return _RANK_SYMBOLS[self]

    @property
    def english(self) -> str:
        """The English name ("queen")."""
        return _RANK_NAMES_EN[self]

    @property
    def russian(self) -> str:
        """The Russian name ("дама")."""
        return _RANK_NAMES_RU[self]

    def __str__(self) -> str:
        return self.symbol


_SUIT_ORDER = {Suit.S: 0, Suit.H: 1, Suit.D: 2, Suit.C: 3}
SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)
"""The suits in the order of their index (``suit_index``): a card's ``index`` is ``suit index * 8 + rank``."""
WILD_INDEX = 32
"""The wild card's index: of a suit of its own, 4, that no real card has, so that it follows no suit and is never
trumps."""
CARD_INDICES = 33
"""How many card indices there are: the 32 cards of a piquet pack and the wild card."""


def suit_of(index: int) -> int:
    """The suit index (``SUITS``) of a card index; 4 for the wild card, which has no suit."""
    return index >> 3


def rank_of(index: int) -> int:
    """The rank of a card index, from 0 (the seven) to 7 (the ace), as ``Rank`` numbers them."""
    return index & 7


def card_index(suit: int, rank: int) -> int:
    """The index of the card of suit index ``suit`` and rank ``rank`` (``Card.index``)."""
    return suit * 8 + rank


def display_key(index: int) -> tuple[int, int]:
    """A card index's place in display order: spades, hearts, diamonds, clubs; high ranks first
    (``Card.sort_key``)."""
    return (index >> 3, -(index & 7))


_WILD_SORT_KEY = (len(_SUIT_ORDER), 0)
_GLYPHS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SUIT_NAMES_EN = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}
_SUIT_NAMES_RU = {Suit.S: "пики", Suit.H: "червы", Suit.D: "бубны", Suit.C: "трефы"}
_RANK_SYMBOLS = {
    Rank.WILD: "*",
    Rank.ACE: "A",
    Rank.TEN: "10",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.JACK: "J",
    Rank.NINE: "9",
    Rank.EIGHT: "8",
    Rank.SEVEN: "7",
}
_RANK_NAMES_EN = {
    Rank.WILD: "wild card",
    Rank.ACE: "ace",
    Rank.TEN: "ten",
    Rank.KING: "king",
    Rank.QUEEN: "queen",
    Rank.JACK: "jack",
    Rank.NINE: "nine",
    Rank.EIGHT: "eight",
    Rank.SEVEN: "seven",
}
_RANK_NAMES_RU = {
    Rank.WILD: "инфузорка",
    Rank.ACE: "туз",
    Rank.TEN: "десятка",
    Rank.KING: "король",
    Rank.QUEEN: "дама",
    Rank.JACK: "валет",
    Rank.NINE: "девятка",
    Rank.EIGHT: "восьмерка",
    Rank.SEVEN: "семерка",
}

# Latin T is the common ten of card notation; Cyrillic Т (туз) is the Russian books' ace.
_RANK_INPUT = {
    "A": Rank.ACE,
    "10": Rank.TEN,
    "T": Rank.TEN,
    "K": Rank.KING,
    "Q": Rank.QUEEN,
    "J": Rank.JACK,
    "9": Rank.NINE,
    "8": Rank.EIGHT,
    "7": Rank.SEVEN,
    "Т": Rank.ACE,
    "К": Rank.KING,
    "Д": Rank.QUEEN,
    "В": Rank.JACK,
}
_SUIT_INPUT = {
    "S": Suit.S,
    "H": Suit.H,
    "D": Suit.D,
    "C": Suit.C,
    "♠": Suit.S,
    "♤": Suit.S,
    "♥": Suit.H,
    "♡": Suit.H,
    "♦": Suit.D,
    "♢": Suit.D,
    "♣": Suit.C,
    "♧": Suit.C,
}
# Stems of the Russian (and Ukrainian) suit words seen in the sources: пики/пик/пиковая, червы/черви/чирвей,
# бубны/бубен/бубновая, трефы/треф/трефовая.
_SUIT_WORD_STEMS = (
    ("пик", Suit.S),
    ("пік", Suit.S),
    ("черв", Suit.H),
    ("чирв", Suit.H),
    ("бубн", Suit.D),
    ("бубен", Suit.D),
    ("треф", Suit.C),
)

RANK_PATTERN = r"(?:10|[AKQJT987ТКДВ])"
SUIT_LETTER_PATTERN = r"[SHDC♠♤♥♡♦♢♣♧]"
SUIT_WORD_PATTERN = r"[«\"]?(?:пик|пік|черв|чирв|бубн|бубен|треф)[а-яіїє]*[»\"]?"
WILD_PATTERN = r"(?:\*|инфузорк[а-я]*)"
"""The wild card: ``*``, or the Russian word "инфузорка" (any ending)."""
CARD_PATTERN = (
    rf"(?:{WILD_PATTERN}"
    rf"|{RANK_PATTERN}{SUIT_LETTER_PATTERN}"
    rf"|[♠♤♥♡♦♢♣♧]{RANK_PATTERN}"
    rf"|{RANK_PATTERN}[ \t]+{SUIT_WORD_PATTERN}"
    rf"|{SUIT_WORD_PATTERN}[ \t]+{RANK_PATTERN})"
)
"""A regular expression matching one card in any accepted spelling (used by the grammar too)."""


# The patterns are compiled when first needed: compiling them costs a command's start 2 ms, and the cards of most
# records are written in the canonical form, which a table reads (see Card.parse).
@cache
def _card_re() -> re.Pattern[str]:
    return re.compile(rf"^(?:{CARD_PATTERN})$", re.IGNORECASE)


@cache
def _wild_re() -> re.Pattern[str]:
    return re.compile(rf"^{WILD_PATTERN}$", re.IGNORECASE)


@cache
def _unknown_re() -> re.Pattern[str]:
    return re.compile(rf"^(?:{UNKNOWN_PATTERN})$", re.IGNORECASE)


UNKNOWN_PATTERN = rf"(?:\?\?|{RANK_PATTERN}\?|\?{SUIT_LETTER_PATTERN}|\?[ \t]*{RANK_PATTERN}(?![\w♠♤♥♡♦♢♣♧]))"
"""A card with an unknown suit (``Q?``, or ``? Q`` as the seeds print a lost suit symbol), unknown rank (``?S``)
or both (``??``)."""


def parse_rank(text: str) -> Rank:
    """Parse a rank symbol: ``A 10 K Q J 9 8 7``, Latin ``T`` for ten, or Russian ``Т К Д В``.

    >>> parse_rank("Д")
    <Rank.QUEEN: 4>
    """
    key = text.strip().upper()
    try:
        return _RANK_INPUT[key]
    except KeyError:
        raise CardParseError(f"not a rank: {text!r} (expected one of A 10 K Q J 9 8 7, or Т К Д В)") from None


def parse_suit(text: str) -> Suit:
    """Parse a suit letter (``S H D C``), a Unicode symbol, or a Russian suit word (``пики``, ``треф``)."""
    key = text.strip().strip('«»"').upper()
    if key in _SUIT_INPUT:
        return _SUIT_INPUT[key]
    lower = key.lower()
    for stem, suit in _SUIT_WORD_STEMS:
        if lower.startswith(stem):
            return suit
    raise CardParseError(f"not a suit: {text!r} (expected S H D C, ♠ ♥ ♦ ♣, or пики черви бубны трефы)")


class Card:
    """One card. Cards with the same rank and suit are equal: a replay tracks identity in its state. Immutable."""

    # A plain class, not a dataclass: see replayer/errors.py (every command imports this module).
    __slots__ = ("_hash", "index", "rank", "sort_key", "suit")

    suit: Suit
    rank: Rank
    _hash: int
    sort_key: tuple[int, int]
    """Display order: spades, hearts, diamonds, clubs; high ranks first; the wild card last."""
    index: int
    """The card as the rules core (:mod:`replayer.rules`) counts it: ``suit * 8 + rank`` (suits in the order S H D C,
    ranks from the seven, 0, to the ace, 7), and :data:`WILD_INDEX` for the wild card."""

    def __init__(self, suit: Suit, rank: Rank) -> None:
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)
        # Worked out once: the engine hashes cards in every Counter it keeps, and every snapshot of a replay sorts
        # every hand.
        object.__setattr__(self, "_hash", hash((suit, rank)))
        object.__setattr__(self, "sort_key", _WILD_SORT_KEY if rank is Rank.WILD else (_SUIT_ORDER[suit], -rank))
        object.__setattr__(self, "index", WILD_INDEX if rank is Rank.WILD else _SUIT_ORDER[suit] * 8 + rank)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.suit == other.suit and self.rank == other.rank

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return Card, (self.suit, self.rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card in any accepted spelling (see the module docstring)."""
        raw = text.strip()
        canonical = _CANONICAL.get(raw)
        if canonical is not None:
            return canonical
        if not _card_re().match(raw):
            raise CardParseError(f"not a card: {text!r} (write rank then suit, e.g. 'QS', '10C', 'Q♠')")
        if _wild_re().match(raw):
            return WILD
        if raw[0] in _SUIT_INPUT and raw[0] not in "SHDCshdc":
            return cls(_SUIT_INPUT[raw[0]], parse_rank(raw[1:]))
        parts = raw.split()
        if len(parts) == 2:
            first, second = parts
            if re.match(rf"^{RANK_PATTERN}$", first, re.IGNORECASE):
                return cls(parse_suit(second), parse_rank(first))
            return cls(parse_suit(first), parse_rank(second))
        return cls(parse_suit(raw[-1]), parse_rank(raw[:-1]))

    def __str__(self) -> str:
        return self.rank.symbol if self.is_wild else f"{self.rank.symbol}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def is_wild(self) -> bool:
        """The wild card ("инфузорка"): no suit, no value of its own."""
        return self.rank is Rank.WILD

    @property
    def glyph(self) -> str:
        """The card with a Unicode suit: ``Q♠`` (the wild card: ``★``)."""
        return "★" if self.is_wild else f"{self.rank.symbol}{self.suit.glyph}"

    @property
    def english(self) -> str:
        """An accessible name: "queen of spades"."""
        return self.rank.english if self.is_wild else f"{self.rank.english} of {self.suit.english}"


WILD = Card(Suit.S, Rank.WILD)
"""The wild card (its suit is a placeholder; see the module docstring)."""
CARDS: tuple[Card, ...] = (*(Card(suit, Rank(rank)) for suit in SUITS for rank in range(8)), WILD)
"""The card of each index (``CARDS[card.index] == card``)."""
_CANONICAL = {str(card): card for card in CARDS}
"""Every card by its canonical spelling (``QS``, ``10C``, ``*``)."""


def make_pack(packs: int = 1, ranks: Iterable[Rank] | None = None) -> list[Card]:
    """All cards of ``packs`` piquet packs (32 cards each), highest rank first within each suit."""
    chosen = sorted(ranks if ranks is not None else (r for r in Rank if r is not Rank.WILD), reverse=True)
    return [Card(suit, rank) for _ in range(packs) for suit in Suit for rank in chosen]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical form separated by spaces."""
    return " ".join(str(c) for c in cards)


def iter_cards(text: str) -> Iterator[Card]:
    """Parse a whitespace-separated list of canonical or lenient single-token cards."""
    for token in text.split():
        yield Card.parse(token)


class CardPattern:
    """A partly or wholly unknown card from a lossy record: ``Q?`` (suit lost), ``?S`` (rank lost), ``??``.
    Immutable; ``tag`` identifies one occurrence in a record while its value is inferred (not part of equality)."""

    __slots__ = ("rank", "suit", "tag")

    suit: Suit | None
    rank: Rank | None
    tag: int | None

    def __init__(self, suit: Suit | None, rank: Rank | None, tag: int | None = None) -> None:
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "tag", tag)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardPattern):
            return NotImplemented
        return (self.suit, self.rank) == (other.suit, other.rank)

    def __hash__(self) -> int:
        return hash((self.suit, self.rank))

    def __reduce__(self) -> tuple[type[CardPattern], tuple[Suit | None, Rank | None, int | None]]:
        return CardPattern, (self.suit, self.rank, self.tag)

    @classmethod
    def parse(cls, text: str) -> CardPattern:
        """Parse ``Q?``, ``? Q``, ``?S`` or ``??``."""
        raw = "".join(text.split())
        if raw == "??":
            return cls(None, None)
        if raw.startswith("?") and raw[1:] and raw[1:].upper() in _SUIT_INPUT:
            return cls(parse_suit(raw[1:]), None)
        if raw.endswith("?"):
            return cls(None, parse_rank(raw[:-1]))
        if raw.startswith("?"):
            return cls(None, parse_rank(raw[1:]))
        raise CardParseError(f"not an unknown card: {text!r} (write Q? for a lost suit, ?? for an unknown card)")

    @property
    def index(self) -> int:
        """An unknown card has no index in the rules core: only a completed record is replayed (raises
        ``TypeError``, as a known card's ``index`` would never)."""
        raise TypeError(f"unknown card {self} reached the replay")

    def matches(self, card: Card) -> bool:
        """True when ``card`` is a possible value of this pattern."""
        return (self.suit is None or card.suit == self.suit) and (self.rank is None or card.rank == self.rank)

    @property
    def specificity(self) -> int:
        """How much is known: 0 for ``??``, 1 for a rank or a suit."""
        return (self.suit is not None) + (self.rank is not None)

    def __str__(self) -> str:
        rank = self.rank.symbol if self.rank is not None else "?"
        suit = self.suit.value if self.suit is not None else "?"
        return f"{rank}{suit}"

    def __repr__(self) -> str:
        return f"CardPattern.parse({str(self)!r})"


CardLike = Card | CardPattern
"""A card as a record states it: known, or partly unknown."""


def parse_card_like(text: str) -> CardLike:
    """Parse a known card or an unknown one (``Q?``, ``??``)."""
    if "?" in text and _unknown_re().match(text.strip()):
        return CardPattern.parse(text)  # not cached: each unknown card is its own object (see CardPattern.tag)
    return _parse_card(text)


@lru_cache(maxsize=1024)
def _parse_card(text: str) -> Card:
    """Card.parse, cached: a record spells the same few cards thousands of times (cards are immutable)."""
    return Card.parse(text)
