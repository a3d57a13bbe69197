"""A fast reader for the common statements of the notation, used before the Lark parser (replayer/notation.py).

Lark's LALR parser with its contextual lexer spends most of a validation's time on a record's text. Almost every
line of a record is one of a few simple shapes (``trick 1: S 9C, N QC -> N``, ``draws N KC, S 9D``,
``score N 10, S 0``), so this module matches each line with one compiled regular expression and builds the tree
that Lark would build, in the same shape (the same rule names and the same named tokens, with their positions), for
the same builder to turn into a record.

It is deliberately partial: every pattern accepts only a subset of what the grammar (grammar/bezique.lark) accepts
for that statement, and a line that matches none of them (another spelling, a comment over several lines, a
statement added to the grammar later, a syntax error) makes :func:`read_tree` give up and return None, so that the
Lark parser reads the record and reports its errors exactly as before. tests/test_fastread.py checks that whatever
this reader accepts, Lark accepts with the same tree.

Most lines of a record are tricks, draws and running scores: :func:`read_statements` can leave those as their matched
:class:`Line`, which the builder reads without making tokens or a tree (a validation's largest cost was making them).
The tree's tokens and the builder's values come from the same pieces of the match (:meth:`Line.plays` and its
siblings), and the tests build every record they check both ways, to the same record and the same diagnostics.
"""

from __future__ import annotations

import re
from abc import ABCMeta
from collections.abc import Callable
from functools import cache
from typing import cast

__all__ = ["Line", "Token", "Tree", "read_statements", "read_tree"]


class Token(str, metaclass=ABCMeta):
    """A token with Lark's attributes: its terminal's name and its 1-based line and column.

    Lark's own Token is registered as a virtual subclass when Lark is loaded, so that the builder's
    ``isinstance(x, Token)`` holds for the tokens of either reader.
    """

    type: str
    line: int
    column: int

    def __new__(cls, type_: str, value: str, line: int, column: int) -> Token:
        token = super().__new__(cls, value)
        token.type = type_
        token.line = line
        token.column = column
        return token


class Tree(metaclass=ABCMeta):  # noqa: B024 - an ABC for its register(), not for abstract methods
    """A rule's node with Lark's attributes: the rule's name and its children (trees and tokens)."""

    __slots__ = ("children", "data")

    def __init__(self, data: str, children: list[Tree | Token]) -> None:
        self.data = data
        self.children = children

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"


# Pieces of the patterns. Each is a subset of the grammar's terminal of the same name: ASCII spellings only, upper
# case cards and seats, lower case keywords, and one space at least wherever the grammar's lexer would need a word
# boundary (a card, seat or number followed directly by a letter or digit is left to Lark).
_WS = r"[ \t\f]*"
_GAP = r"[ \t\f]+"
_SEAT = r"[NSEW]"
# The wild card "*" (the infuzorka profile) needs no look-ahead: every pattern puts a blank, a comma, "->", "="
# or the end of the line after a card, where Lark's CARD asks for a character that is not a word one.
_CARD = r"(?:\*|(?:10|[AKQJT987?])[SHDC?])"
_INT = r"\d{1,9}(?!\d)"
# A meld kind of at least three characters: a two-letter lower case word such as "qs" might be read as a card.
_KIND = r"(?=[a-z_]{3})[a-z]+(?:_[a-z]+)*"
_STRING = r'"[^"\n]*"'
_NAME = r"[A-Za-z][\w.-]*(?![\w.-])"
# The grammar's PROFILE_NAME: a profile's name that starts with a digit (8p-000, 4h-three-001) holds a hyphen.
_PROFILE_NAME = r"\d[\w.]*-[\w.-]*(?![\w.-])"
# Comments and questions may span lines: the reader joins the lines of a brace left open.
_COMMENT = r"\{(?!\?)[^}]*\}"
_QUESTION = r"\{\?[^}]*\}"
# Comments after a statement, to the end of the line.
_TAIL = rf"(?P<tail>(?:{_WS}{_COMMENT})*){_WS}$"
_POINTS = rf"(?:{_WS}={_WS}(?P<points>{_INT}))?"
_TEXT_KEYS = "title|source|url|page|date|event|site|annotator|translator|note|language|round"


def _line(pattern: str) -> str:
    return pattern + _TAIL


_CARDS_AFTER = rf"(?:{_WS}{_CARD}(?:{_GAP}{_CARD})*)?"
_SIDE = r"[NSEW]\+[NSEW]"
_SEAT_OR_SIDE = rf"(?:{_SIDE}|{_SEAT})"
_SEAT_VALUES = rf"{_SEAT_OR_SIDE}{_GAP}{_INT}(?:{_WS},{_WS}{_SEAT_OR_SIDE}{_GAP}{_INT})*"
_PLAY = rf"(?:{_QUESTION}{_WS})*{_SEAT}{_GAP}{_CARD}"

# Compiled on first use (see _pattern): a short record needs few of them, and a command starts sooner.
_PATTERNS: dict[str, str] = {
    "game_stmt": _line(rf"(?P<kw>game)(?:{_GAP}(?P<string>{_STRING}))?"),
    "text_header": _line(rf"(?P<kw>(?:{_TEXT_KEYS})(?:\[[a-z]{{2}}\])?){_WS}:(?P<text>[^\n{{]*)"),
    "players_header": _line(
        rf"(?P<kw>players){_WS}:{_WS}(?P<list>{_SEAT}(?:{_GAP}{_STRING})?(?:{_WS},{_WS}{_SEAT}(?:{_GAP}{_STRING})?)*)"
    ),
    "profile_header": _line(rf"(?P<kw>profile){_WS}:{_WS}(?:(?P<name>{_NAME})|(?P<numbered>{_PROFILE_NAME}))"),
    "options_header": _line(
        rf"(?P<kw>options?){_WS}:{_WS}(?P<list>{_NAME}{_WS}={_WS}(?:{_INT}|{_NAME})"
        rf"(?:{_WS},?{_WS}{_NAME}{_WS}={_WS}(?:{_INT}|{_NAME}))*)"
    ),
    "target_header": _line(rf"(?P<kw>target){_WS}:{_WS}(?P<int>{_INT})"),
    "dealer_header": _line(rf"(?P<kw>dealer){_WS}:{_WS}(?P<seat>{_SEAT})"),
    "leader_header": _line(rf"(?P<kw>leader){_WS}:{_WS}(?P<seat>{_SEAT})"),
    "trump_header": _line(rf"(?P<kw>trumps?){_WS}:{_WS}(?P<suit>[SHDC])"),
    "turnup_header": _line(rf"(?P<kw>turn-?up){_WS}:{_WS}(?P<card>{_CARD})"),
    "hand_header": _line(rf"(?P<kw>hand){_GAP}(?P<seat>{_SEAT}){_WS}:(?P<cards>{_CARDS_AFTER})"),
    "stock_header": _line(rf"(?P<kw>stock){_WS}:(?P<cards>{_CARDS_AFTER})"),
    "deal_stmt": _line(rf"(?P<kw>deal)(?:{_GAP}(?P<int>{_INT}))?"),
    "trick_stmt": _line(
        rf"(?P<kw>trick){_GAP}(?P<int>{_INT}){_WS}:{_WS}"
        rf"(?P<list>{_PLAY}(?:(?:{_WS},{_WS}{_PLAY})*|(?P<slash>(?:{_WS}/{_WS}{_PLAY})+)))"
        rf"(?:{_WS}->{_WS}(?P<winner>{_SEAT}))?"
    ),
    "exchange_stmt": _line(rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>exchanges?){_GAP}(?P<card>{_CARD}){_POINTS}"),
    "declare_stmt": _line(
        # After "declares" Lark's contextual lexer reads "with" as the keyword WITH, never as a kind.
        rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>declares?)(?:{_GAP}(?!with\b)(?P<kind>{_KIND}))?"
        rf"(?P<cards>(?:{_GAP}{_CARD})*)"
        rf"(?:{_GAP}(?P<with>with){_GAP}(?P<partner>{_SEAT})(?P<partner_cards>(?:{_GAP}{_CARD})+))?{_POINTS}"
    ),
    "show_stmt": _line(
        rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>shows?)(?:{_GAP}(?P<kind>{_KIND}))?(?P<cards>(?:{_GAP}{_CARD})+)"
    ),
    "claim_stmt": _line(rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>scores){_GAP}(?P<kind>{_KIND}){_POINTS}"),
    "penalty_stmt": _line(rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>penalty){_GAP}(?P<kind>{_KIND}){_POINTS}"),
    "draws_stmt": _line(rf"(?P<kw>draws?){_GAP}(?P<list>{_SEAT}{_GAP}{_CARD}(?:{_WS},{_WS}{_SEAT}{_GAP}{_CARD})*)"),
    "score_stmt": _line(rf"(?P<kw>score){_GAP}(?P<list>{_SEAT_VALUES})"),
    "brisques_stmt": _line(rf"(?P<kw>brisques){_GAP}(?P<list>{_SEAT_VALUES})"),
    "result_stmt": _line(rf"(?P<kw>result){_GAP}(?P<list>{_SEAT_VALUES})"),
    "total_stmt": _line(rf"(?P<kw>total){_GAP}(?P<list>{_SEAT_VALUES})"),
    "winner_stmt": _line(rf"(?P<kw>winner){_GAP}(?:(?P<side>{_SIDE})|(?P<seat>{_SEAT}))"),
    "game_score_stmt": _line(rf"(?P<kw>game){_GAP}(?P<kw2>score){_GAP}(?P<list>{_SEAT_VALUES})"),
    "cut_header": _line(rf"(?P<kw>cut){_WS}:{_WS}(?P<int>{_INT})"),
    "guess_header": _line(rf"(?P<kw>guess){_WS}:{_WS}(?P<int>{_INT})"),
    "out_stmt": _line(rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>goes[ \t]+out){_POINTS}"),
    "pass_stmt": _line(rf"(?P<seat>{_SEAT}){_GAP}(?P<kw>passes|pass){_GAP}(?P<kw2>to){_GAP}(?P<partner>{_SEAT})"),
    "comment_stmt": rf"(?P<tail>{_COMMENT}(?:{_WS}{_COMMENT})*){_WS}$",
}


@cache
def _pattern(kind: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[kind])


# The statements a line may hold, by its first word (a seat starts the statements of a trick's winner).
_BY_WORD: dict[str, tuple[str, ...]] = {
    "game": ("game_stmt", "game_score_stmt"),
    "cut": ("cut_header",),
    "guess": ("guess_header",),
    **{key: ("text_header",) for key in _TEXT_KEYS.split("|")},
    "players": ("players_header",),
    "profile": ("profile_header",),
    "option": ("options_header",),
    "options": ("options_header",),
    "target": ("target_header",),
    "dealer": ("dealer_header",),
    "leader": ("leader_header",),
    "trump": ("trump_header",),
    "trumps": ("trump_header",),
    "turnup": ("turnup_header",),
    "turn-up": ("turnup_header",),
    "hand": ("hand_header",),
    "stock": ("stock_header",),
    "deal": ("deal_stmt",),
    "trick": ("trick_stmt",),
    "draw": ("draws_stmt",),
    "draws": ("draws_stmt",),
    "score": ("score_stmt",),
    "brisques": ("brisques_stmt",),
    "result": ("result_stmt",),
    "total": ("total_stmt",),
    "winner": ("winner_stmt",),
    **{
        seat: (
            "exchange_stmt",
            "declare_stmt",
            "show_stmt",
            "claim_stmt",
            "penalty_stmt",
            "out_stmt",
            "pass_stmt",
        )
        for seat in "NSEW"
    },
}
_FIRST_WORD = re.compile(r"[ \t\f]*([a-z-]+|[NSEW](?=[ \t\f])|\{)")

_FIND_CARD = re.compile(_CARD)
_FIND_SEAT_STRING = re.compile(rf"(?P<seat>{_SEAT})(?:{_GAP}(?P<string>{_STRING}))?")
_FIND_OPTION = re.compile(rf"(?P<name>{_NAME}){_WS}={_WS}(?:(?P<int>{_INT})|(?P<value>{_NAME}))")
_FIND_PLAY = re.compile(rf"(?P<questions>(?:{_QUESTION}{_WS})*)(?P<seat>{_SEAT}){_GAP}(?P<card>{_CARD})")
_FIND_QUESTION = re.compile(_QUESTION)
_FIND_SEAT_CARD = re.compile(rf"(?P<seat>{_SEAT}){_GAP}(?P<card>{_CARD})")
_FIND_SEAT_INT = re.compile(rf"(?:(?P<side>{_SIDE})|(?P<seat>{_SEAT})){_GAP}(?P<int>{_INT})")
_FIND_COMMENT = re.compile(_COMMENT)

_KEYWORD_TYPES = {
    "game_stmt": "GAME",
    "text_header": "TEXT_KEY",
    "players_header": "PLAYERS",
    "profile_header": "PROFILE",
    "options_header": "OPTIONS",
    "target_header": "TARGET",
    "dealer_header": "DEALER",
    "leader_header": "LEADER",
    "trump_header": "TRUMP",
    "turnup_header": "TURNUP",
    "hand_header": "HAND",
    "stock_header": "STOCK",
    "deal_stmt": "DEAL",
    "trick_stmt": "TRICK",
    "exchange_stmt": "EXCHANGES",
    "declare_stmt": "DECLARES",
    "show_stmt": "SHOWS",
    "claim_stmt": "SCORES",
    "penalty_stmt": "PENALTY",
    "draws_stmt": "DRAWS",
    "score_stmt": "SCORE",
    "brisques_stmt": "BRISQUES",
    "result_stmt": "RESULT",
    "total_stmt": "TOTAL",
    "winner_stmt": "WINNER",
    "game_score_stmt": "GAME",
    "cut_header": "CUT",
    "guess_header": "GUESS",
    "out_stmt": "GOES_OUT",
    "pass_stmt": "PASSES",
}


Spot = tuple[str, int]
"""A token's text and where it starts in a line's text."""


class Line:
    """One matched line (or lines, when a comment spans several): its statement's kind and its regular expression's
    match, from which the tokens are made at their line and column."""

    __slots__ = ("kind", "line", "match", "one_line", "text")

    def __init__(self, text: str, line: int, match: re.Match[str], kind: str) -> None:
        self.text = text
        self.line = line
        self.match = match
        self.kind = kind  # the statement's rule: "unordered_trick" for a trick written with slashes
        self.one_line = "\n" not in text

    def where(self, start: int) -> tuple[int, int]:
        """The 1-based line and column of the offset ``start`` in the text."""
        if self.one_line:
            return self.line, start + 1
        before = self.text.rfind("\n", 0, start)
        return self.line + self.text.count("\n", 0, start), start - before

    def token(self, type_: str, value: str, start: int) -> Token:
        """A token starting at ``start`` in the text (which spans several lines when a comment does)."""
        line, column = self.where(start)
        return Token(type_, value, line, column)

    def group(self, type_: str, name: str) -> Token | None:
        """The token of a named group, or None when the group did not take part."""
        start = self.match.start(name)
        if start < 0:
            return None
        return self.token(type_, self.match.group(name), start)

    def found(self, type_: str, match: re.Match[str], name: str | int = 0) -> Token:
        """The token of a group of a match found inside this line."""
        return self.token(type_, match.group(name), match.start(name))

    def each(self, pattern: re.Pattern[str], name: str) -> list[re.Match[str]]:
        """The matches of ``pattern`` within a named group of the line."""
        return list(pattern.finditer(self.text, self.match.start(name), self.match.end(name)))

    def cards(self, name: str = "cards") -> list[Tree | Token]:
        if self.match.start(name) < 0:
            return []
        return [self.found("CARD", m) for m in self.each(_FIND_CARD, name)]

    def points(self) -> list[Tree | Token]:
        token = self.group("INT", "points")
        return [] if token is None else [Tree("points", [token])]

    def comments(self) -> list[Tree | Token]:
        return [Tree("comment", [self.token("COMMENT", *spot)]) for spot in self.comment_spots()]

    # The pieces of the commonest statements, each as (text, offset in the line's text): the tree's tokens are made
    # from them, and the builder reads them straight (see read_statements).

    def comment_spots(self) -> list[Spot]:
        """The comments after the statement."""
        if self.match.start("tail") == self.match.end("tail"):  # (most statements have none)
            return []
        return [(m.group(), m.start()) for m in self.each(_FIND_COMMENT, "tail")]

    def plays(self) -> list[tuple[list[Spot], Spot, Spot]]:
        """A trick's plays: the questions before each, its seat and its card."""
        text = self.text
        return [
            (
                [
                    (q.group(), q.start())
                    for q in _FIND_QUESTION.finditer(text, m.start("questions"), m.end("questions"))
                ],
                (m.group("seat"), m.start("seat")),
                (m.group("card"), m.start("card")),
            )
            for m in self.each(_FIND_PLAY, "list")
        ]

    def seat_cards(self) -> list[tuple[Spot, Spot]]:
        """The draws of a ``draws`` statement: each seat and its card."""
        return [
            ((m.group("seat"), m.start("seat")), (m.group("card"), m.start("card")))
            for m in self.each(_FIND_SEAT_CARD, "list")
        ]

    def seat_values(self) -> list[tuple[Spot, Spot]]:
        """The numbers of a ``score`` (``brisques``, ``result`` …) statement: each seat or side and its number."""
        return [
            (
                (m.group("side"), m.start("side")) if m.start("side") >= 0 else (m.group("seat"), m.start("seat")),
                (m.group("int"), m.start("int")),
            )
            for m in self.each(_FIND_SEAT_INT, "list")
        ]


def _keyword(line: Line, kind: str) -> Token:
    token = line.group(_KEYWORD_TYPES[kind], "kw")
    assert token is not None
    return token


def _seat(line: Line) -> Token:
    token = line.group("SEAT", "seat")
    assert token is not None
    return token


def _children_game(line: Line, kind: str) -> list[Tree | Token]:
    string = line.group("STRING", "string")
    return [_keyword(line, kind), *([string] if string is not None else [])]


def _children_text(line: Line, kind: str) -> list[Tree | Token]:
    # Lark's TEXT takes the rest of the line up to a comment, blanks included (the builder strips it).
    text = line.group("TEXT", "text")
    return [_keyword(line, kind), *([text] if text else [])]


def _children_players(line: Line, kind: str) -> list[Tree | Token]:
    players: list[Tree | Token] = []
    for m in line.each(_FIND_SEAT_STRING, "list"):
        parts: list[Tree | Token] = [line.found("SEAT", m, "seat")]
        if m.start("string") >= 0:
            parts.append(line.found("STRING", m, "string"))
        players.append(Tree("player", parts))
    return [_keyword(line, kind), *players]


def _children_profile(line: Line, kind: str) -> list[Tree | Token]:
    name = line.group("NAME", "name") or line.group("PROFILE_NAME", "numbered")
    assert name is not None
    return [_keyword(line, kind), name]


def _children_options(line: Line, kind: str) -> list[Tree | Token]:
    options: list[Tree | Token] = []
    for m in line.each(_FIND_OPTION, "list"):
        value = line.found("INT", m, "int") if m.start("int") >= 0 else line.found("NAME", m, "value")
        options.append(Tree("option", [line.found("NAME", m, "name"), value]))
    return [_keyword(line, kind), *options]


def _children_int(line: Line, kind: str) -> list[Tree | Token]:
    number = line.group("INT", "int")
    return [_keyword(line, kind), *([number] if number is not None else [])]


def _children_seat_header(line: Line, kind: str) -> list[Tree | Token]:
    return [_keyword(line, kind), _seat(line)]


def _children_winner(line: Line, kind: str) -> list[Tree | Token]:
    side = line.group("SIDE", "side")
    return [_keyword(line, kind), side if side is not None else _seat(line)]


def _children_trump(line: Line, kind: str) -> list[Tree | Token]:
    suit = line.group("SUIT", "suit")
    assert suit is not None
    return [_keyword(line, kind), suit]


def _children_turnup(line: Line, kind: str) -> list[Tree | Token]:
    card = line.group("CARD", "card")
    assert card is not None
    return [_keyword(line, kind), card]


def _children_hand(line: Line, kind: str) -> list[Tree | Token]:
    return [_keyword(line, kind), _seat(line), *line.cards()]


def _children_stock(line: Line, kind: str) -> list[Tree | Token]:
    return [_keyword(line, kind), *line.cards()]


def _children_trick(line: Line, kind: str) -> list[Tree | Token]:
    children: list[Tree | Token] = [_keyword(line, kind)]
    number = line.group("INT", "int")
    assert number is not None
    children.append(number)
    for questions, seat, card in line.plays():
        parts: list[Tree | Token] = [Tree("question", [line.token("QUESTION", *q)]) for q in questions]
        children.append(Tree("play", [*parts, line.token("SEAT", *seat), line.token("CARD", *card)]))
    winner = line.group("SEAT", "winner")
    if winner is not None:
        children.append(Tree("winner", [winner]))
    return children


def _children_exchange(line: Line, kind: str) -> list[Tree | Token]:
    card = line.group("CARD", "card")
    assert card is not None
    return [_seat(line), _keyword(line, kind), card, *line.points()]


def _children_declare(line: Line, kind: str) -> list[Tree | Token]:
    meld = line.group("KIND", "kind")
    children = [_seat(line), _keyword(line, kind), *([meld] if meld is not None else []), *line.cards()]
    with_ = line.group("WITH", "with")
    if with_ is not None:
        partner = line.group("SEAT", "partner")
        assert partner is not None
        children.append(Tree("partner_cards", [with_, partner, *line.cards("partner_cards")]))
    return [*children, *line.points()]


def _children_show(line: Line, kind: str) -> list[Tree | Token]:
    meld = line.group("KIND", "kind")
    return [_seat(line), _keyword(line, kind), *([meld] if meld is not None else []), *line.cards()]


def _children_claim(line: Line, kind: str) -> list[Tree | Token]:
    meld = line.group("KIND", "kind")
    assert meld is not None
    return [_seat(line), _keyword(line, kind), meld, *line.points()]


def _children_draws(line: Line, kind: str) -> list[Tree | Token]:
    draws: list[Tree | Token] = [
        Tree("seat_card", [line.token("SEAT", *seat), line.token("CARD", *card)]) for seat, card in line.seat_cards()
    ]
    return [_keyword(line, kind), *draws]


def _seat_values(line: Line) -> list[Tree | Token]:
    return [
        Tree("seat_points", [line.token("SIDE" if "+" in seat[0] else "SEAT", *seat), line.token("INT", *value)])
        for seat, value in line.seat_values()
    ]


def _children_values(line: Line, kind: str) -> list[Tree | Token]:
    return [_keyword(line, kind), *_seat_values(line)]


def _children_game_score(line: Line, kind: str) -> list[Tree | Token]:
    score = line.group("SCORE", "kw2")
    assert score is not None
    return [_keyword(line, kind), score, *_seat_values(line)]


def _children_out(line: Line, kind: str) -> list[Tree | Token]:
    return [_seat(line), _keyword(line, kind), *line.points()]


def _children_pass(line: Line, kind: str) -> list[Tree | Token]:
    to, partner = line.group("TO", "kw2"), line.group("SEAT", "partner")
    assert to is not None and partner is not None
    return [_seat(line), _keyword(line, kind), to, partner]


def _children_comments(line: Line, kind: str) -> list[Tree | Token]:
    return []


_CHILDREN: dict[str, Callable[[Line, str], list[Tree | Token]]] = {
    "game_stmt": _children_game,
    "text_header": _children_text,
    "players_header": _children_players,
    "profile_header": _children_profile,
    "options_header": _children_options,
    "target_header": _children_int,
    "dealer_header": _children_seat_header,
    "leader_header": _children_seat_header,
    "trump_header": _children_trump,
    "turnup_header": _children_turnup,
    "hand_header": _children_hand,
    "stock_header": _children_stock,
    "deal_stmt": _children_int,
    "trick_stmt": _children_trick,
    "exchange_stmt": _children_exchange,
    "declare_stmt": _children_declare,
    "show_stmt": _children_show,
    "claim_stmt": _children_claim,
    "penalty_stmt": _children_claim,
    "draws_stmt": _children_draws,
    "score_stmt": _children_values,
    "brisques_stmt": _children_values,
    "result_stmt": _children_values,
    "total_stmt": _children_values,
    "winner_stmt": _children_winner,
    "game_score_stmt": _children_game_score,
    "cut_header": _children_int,
    "guess_header": _children_int,
    "out_stmt": _children_out,
    "pass_stmt": _children_pass,
    "comment_stmt": _children_comments,
}


def _statement(text: str, number: int, matched: frozenset[str]) -> Tree | Line | None:
    """The tree of one line's statement (its matched :class:`Line` when its kind is in ``matched``); None when the
    line is not one of the shapes read here."""
    first = _FIRST_WORD.match(text)
    if first is None:
        return None
    word = first.group(1)
    kinds = ("comment_stmt",) if word == "{" else _BY_WORD.get(word, ())
    for kind in kinds:
        match = _pattern(kind).match(text, first.start(1))
        if match is not None:
            data = "unordered_trick" if kind == "trick_stmt" and match.start("slash") >= 0 else kind
            line = Line(text, number, match, data)
            if kind in matched:
                return line
            children = _CHILDREN[kind](line, kind)
            children.extend(line.comments())
            return Tree(data, children)
    return None


def read_tree(text: str, first_line: int = 1) -> Tree | None:
    """Lark's tree for a record, when every line is a statement this reader knows; None otherwise.

    ``first_line`` is the line number of the text's first line (when the text is a part of a file).
    """
    statements = read_statements(text, first_line)
    return None if statements is None else Tree("start", cast("list[Tree | Token]", statements))


def read_statements(text: str, first_line: int = 1, matched: frozenset[str] = frozenset()) -> list[Tree | Line] | None:
    """The statements of :func:`read_tree`'s tree; None when it gives up.

    The statements of the kinds in ``matched`` are left as their :class:`Line`, without tokens or a tree: the
    builder reads the commonest statements straight from the match (replayer/notation.py).
    """
    statements: list[Tree | Line] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        number, line = index + first_line, lines[index]
        # A comment left open goes on over the next lines: they are read as one.
        while line.rfind("{") > line.rfind("}") and index + 1 < len(lines):
            index += 1
            line += "\n" + lines[index]
        index += 1
        if not line or line.isspace():
            if line.strip(" \t\f"):  # other white space (a stray carriage return, …) is for Lark to judge
                return None
            continue
        statement = _statement(line, number, matched)
        if statement is None:
            return None
        statements.append(statement)
    return statements
