"""The sources' own Russian terms: the names of the combinations, of the game's things and of the suits, with the
lines of the seeds that use them. They are data, not translations: the glossary and the rules pages set them beside
the lessons' words in either language (words.py holds those)."""

from __future__ import annotations

from ..cards import Suit

__all__ = ["GLOSSARY_GAME", "MELD_TERMS", "SUIT_WORDS_RU"]

# The sources' Russian names of the combinations (../shared/RULES.md §1.3, §2.a rule 13 and §4), with the lines of
# the seeds that use them. Kinds of profiles still to come are here too, so that their rules pages need no code.
MELD_TERMS: dict[str, tuple[str, str]] = {
    "sequence": ("секвенция, секвенция козырей", "000:L29, L99"),
    "plain_sequence": ("обычная секвенция, проста секвенция", "000:L293; 001:L61"),
    "four_aces": ("четыре туза, «любые 4 туза»", "000:L33, L141"),
    "four_kings": ("четыре короля", "000:L33, L179"),
    "four_queens": ("четыре дамы", "000:L33, L117"),
    "four_jacks": ("четыре валета", "000:L33"),
    "royal_marriage": ("королевский марьяж, козырный марьяж", "000:L37; 004:L301"),
    "marriage": ("простой марьяж, некозырный марьяж", "000:L41; 004:L299"),
    "double_marriage": ("двойной некозырный марьяж", "004:L303"),
    "bezique": ("безик", "000:L79, L109"),
    "double_bezique": ("двойной безик", "000:L175"),
    "triple_bezique": ("тройной безик", "000:L333, L409"),
    "quadruple_bezique": ("четверной безик", "000:L409, L477"),
    "carte_blanche": ("карт-бланш", "000:L285"),
    "trump_quint": ("козырный квинт", "004:L155"),
    "four_bezique_jacks": ("четыре безиковых валета", "004:L141"),
    "four_trump_queens": ("четыре козырных дамы, 4 козырные дамы", "004:L133; 000:L429"),
    "quintuple_bezique": ("пятерной безик, квінта", "000:L477; 001:L81"),
    "sextuple_bezique": ("шестерной безик", "000:L357"),
    "four_tens": ("любые 4 десятки", "000:L361"),
    "double_carte_blanche": ("двойной карт-бланш", "000:L353"),
    "four_trump_aces": ("4 козырных туза", "000:L417"),
    "four_trump_tens": ("4 козырные десятки", "000:L421"),
    "four_trump_kings": ("4 козырных короля", "000:L425"),
    "four_trump_jacks": ("4 козырных валета", "000:L433"),
    "five_trump_aces": ("5 козырных тузов", "000:L481; 001:L80"),
    "five_trump_tens": ("5 козырных десяток", "000:L485; 001:L79"),
    "five_trump_kings": ("5 козырных королей", "000:L489; 001:L78"),
    "five_trump_queens": ("5 козырных дам", "000:L493; 001:L77"),
    "five_trump_jacks": ("5 козырных валетов", "000:L497; 001:L76"),
}

# (anchor, English term, Russian terms of the sources, where); the meaning is the message gloss_<anchor> (words.py).
GLOSSARY_GAME: tuple[tuple[str, str, str, str], ...] = (
    ("pack", "pack", "колода", "000:L9, L15"),
    ("stock", "stock, talon", "магазин, колода, талон", "000:L19; 003; 004-E"),
    ("turn-up", "turn-up", "открытая карта, открытый козырь", "000:L83; 004:L11"),
    ("trumps", "trumps, the trump suit", "козыри, козырная масть, козырь", "000:L19"),
    ("plain-suit", "plain suit", "простая масть, некозырная масть", "000; 004-E"),
    ("deal", "deal, hand", "сдача, раздача, партия", "000:L73; 002:L16"),
    ("dealer", "dealer", "сдатчик, сдающий", "000:L19, L25"),
    ("trick", "trick", "взятка", "000:L25; 004:L55"),
    ("lead", "to lead", "ходить, заходить; ход, заход", "000:L25"),
    ("follow", "to follow suit", "отвечать в масть, играть в масть, следовать масти", "000:L61"),
    ("to-trump", "to trump", "бить козырем, крыть козырем", "000:L61"),
    ("declaration", "declaration, meld", "объявление, объявить; комбинация", "000:L49"),
    ("table-cards", "cards on the table", "открытые карты на столе", "000:L49, L457"),
    ("seven", "seven of trumps", "козырная семёрка", "000:L45"),
    ("brisque", "brisque", "бриск, бриски", "000:L53, L259"),
    ("last-trick", "last trick", "последняя взятка", "000:L61, L207"),
    ("last-tricks", "the last eight tricks", "последние восемь взяток", "000:L61"),
    ("points", "points", "очки", "000"),
)

# Russian suit words of the sources (RULES.md §1.2).
SUIT_WORDS_RU = {
    Suit.S: "пики, пиковая",
    Suit.H: "червы, черви, «чирвей»",
    Suit.D: "бубны, бубновая, бубен",
    Suit.C: "трефы, «треф», трефовая",
}
