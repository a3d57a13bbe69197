"""The reader (replayer/reader.py) against Lark, and its tables (replayer/grammar_tables.py) against the grammar.

The reader reads a statement with the regular expressions that replayer/grammar_compiler.py makes from
grammar/bezique.lark. The property checked here on every text: the reader accepts it exactly when Lark does, and
then reads the same statements as Lark's tree, each with the same rule and the same tokens (terminal, text, line,
column). The texts: the records of games/ and tests/data/invalid/, generated games of every profile, lines at the
edges of the notation, edits of valid records (the strategies of tests/test_fuzz.py), and statements and records
generated from the grammar itself (hypothesis.extra.lark), with example counts as tests/test_fuzz.py sets them.

On every text it accepts, the reader's Record (or its diagnostics) is also checked against a reference built here
from the statements' tokens (:class:`Reference`: the reader builds its commonest statements from their matches'
groups, and reads several with one match), and each deal's flags against a walk over the deal.
"""

from __future__ import annotations

import pickle
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from conftest import DATA, GAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from test_fuzz import EXAMPLES, FUZZ, byte_edits, line_edits, records, token_edits

from replayer import grammar_tables, notation, reader
from replayer.cards import CardLike, CardPattern
from replayer.errors import NotationError
from replayer.generate import generate_game
from replayer.grammar_compiler import generate, grammar_path, grammar_sha256, tables_path
from replayer.profiles import profile_names
from replayer.record import (
    Deal,
    Declare,
    Draw,
    Draws,
    Exchange,
    Play,
    Question,
    Record,
    ScoreCheck,
    SeatValue,
    Trick,
    _made,
)


def test_the_tables_are_compiled_from_the_grammar_as_it_is() -> None:
    """The generated tables hold the grammar's hash and are what the compiler writes now (run
    `python -m replayer.grammar_compiler` if not)."""
    text = grammar_path().read_text(encoding="utf-8")
    stale = "stale replayer/grammar_tables.py: run python -m replayer.grammar_compiler"
    assert grammar_sha256(text) == grammar_tables.GRAMMAR_SHA256, stale
    assert tables_path().read_text(encoding="utf-8") == generate(text), stale


def _flat(node: Any) -> list[tuple[str, str, int, int]]:
    """The tokens under a node of Lark's tree, in order."""
    from lark import Tree

    found = []
    for child in node.children:
        if isinstance(child, Tree):
            found.extend(_flat(child))
        else:
            found.append((child.type, str(child), child.line, child.column))
    return found


def lark_statements(text: str) -> list[tuple[str, list[tuple[str, str, int, int]]]] | None:
    """Lark's statements of a text (rule and tokens), or None when Lark rejects it."""
    from lark.exceptions import UnexpectedInput

    try:
        tree = notation._parser().parse(text)
    except UnexpectedInput:
        return None
    return [(str(stmt.data), _flat(stmt)) for stmt in tree.children]


def reader_statements(text: str) -> list[tuple[str, list[tuple[str, str, int, int]]]] | None:
    """The reader's statements of a text, or None when it rejects it."""
    try:
        found = reader.statements(text)
    except NotationError:
        return None
    return [(s.rule, [(t.type, t.text, t.line, t.column) for t in s.tokens()]) for s in found]


def _outcome(text: str) -> object:
    """The Record of a text, or its diagnostics."""
    try:
        return reader.read_record(text, "p.bzq", whole=False)  # (statements, not necessarily a whole record)
    except NotationError as exc:
        return exc.diagnostics


Tok = tuple[str, str, int]


class Reference(reader._Builder):
    """The reference the reader is checked against: each statement read by :func:`replayer.reader.statements` (its
    own expression, never a block) and built from its tokens; the rules that the reader builds from their groups by
    the methods below (from tokens, as the reader built them before it had one builder per statement), the others
    by the reader's own builders (which read tokens)."""

    def build(self, first_line: int) -> bool:
        for statement in reader.statements(self.text, first_line):
            match = statement.match
            self.where = reader._Where(self.text, match.start(), statement.line, match.start("nl"))
            tokens = reader._raw_tokens(statement.rule, match, self.text)
            method = getattr(Reference, "ref_" + statement.rule, None) or reader._HANDLERS[statement.rule]
            method(self, statement.rule, tokens)
        return True

    def ref_trick_stmt(self, key: str, tokens: list[Tok]) -> None:
        comments = self.comments(tokens)
        span = self.span(tokens[0])
        deal = self.ensure_deal(span)
        if deal.end:
            self.error("BZ101", reader._NEW_DEAL, span)
        plays: list[Play] = []
        questions: list[Question] = []
        winner = winner_span = None
        for index in range(2, len(tokens)):
            type_, value, _ = token = tokens[index]
            if type_ == "QUESTION":
                questions.append(self.question(value, self.span(token)))
            elif type_ == "SEAT" and index + 1 < len(tokens) and tokens[index + 1][0] == "CARD":
                card_token = tokens[index + 1]
                card = self.card(card_token[1], self.span(card_token))
                if card is not None:
                    plays.append(Play(self.seat(value), card, self.span(card_token), self.span(token), questions))
                questions = []
            elif type_ == "SEAT":
                winner, winner_span = self.seat(value), self.span(token)
        self.trick = Trick(int(tokens[1][1]), plays, winner, winner_span, span, ordered=key == "trick_stmt")
        deal.tricks.append(self.trick)
        self.target = self.trick
        self.attach(comments)

    ref_unordered_trick = ref_trick_stmt

    def ref_draws_stmt(self, key: str, tokens: list[Tok]) -> None:
        comments = self.comments(tokens)
        trick = self.trick_item(self.span(tokens[0]))
        draws = []
        for seat, card_token in pairwise(tokens):
            if seat[0] == "SEAT" and card_token[0] == "CARD":
                card = self.card(card_token[1], self.span(card_token))
                if card is not None:
                    draws.append(Draw(self.seat(seat[1]), card, self.span(card_token), self.span(seat)))
        if trick is not None:
            trick.items.append(Draws(draws, self.span(tokens[0])))
            self.target = trick.items[-1]
        self.attach(comments)

    def values(self, tokens: list[Tok]) -> list[SeatValue]:
        return [
            SeatValue(self.seat(seat[1]), int(value[1]), self.span(value))
            for seat, value in pairwise(tokens)
            if seat[0] in ("SEAT", "SIDE") and value[0] == "SCORE_INT"
        ]

    def ref_score_stmt(self, key: str, tokens: list[Tok]) -> None:
        values = self.values(tokens)
        comments = self.comments(tokens)
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            trick.items.append(ScoreCheck("score", values, self.span(tokens[0])))
            self.target = trick.items[-1]
        self.attach(comments)

    def ref_end(self, key: str, tokens: list[Tok]) -> None:
        span = self.span(tokens[0])
        deal = self.ensure_deal(span)
        what = {"brisques_stmt": "brisques", "result_stmt": "result", "total_stmt": "total"}.get(key, "game")
        deal.end.append(ScoreCheck(what, self.values(tokens), span))
        self.target = deal.end[-1]
        self.attach(self.comments(tokens))

    ref_brisques_stmt = ref_result_stmt = ref_total_stmt = ref_game_score_stmt = ref_end

    def ref_hand_header(self, key: str, tokens: list[Tok]) -> None:
        deal = self.deal_header(tokens[0])
        seat, seat_span = self.seat(tokens[1][1]), self.span(tokens[1])
        cards = [(t[1], self.span(t)) for t in tokens[2:] if t[0] == "CARD"]
        read = [self.card(card, span) for card, span in cards]
        if deal is not None:
            if seat in deal.hands:
                self.error("BZ102", f"a second hand for {seat} in this deal", seat_span)
            deal.hands[seat] = [c for c in read if c is not None]
            deal.hand_spans[seat] = _made(seat_span)
            deal._hand_card_spans[seat] = [span for _, span in cards]
        self.attach(self.comments(tokens))

    def ref_declare_stmt(self, key: str, tokens: list[Tok]) -> None:
        opening = self.trick is None and self.deal is not None and not self.deal.tricks
        trick = None if opening else self.trick_item(self.span(tokens[0]))
        kind = kind_span = partner = points = None
        cards: list[CardLike] = []
        spans: list[Any] = []
        partner_cards: list[CardLike] = []
        partner_spans: list[Any] = []
        for token in tokens[2:]:
            if token[0] == "KIND":
                kind, kind_span = token[1], self.span(token)
            elif token[0] == "SEAT":
                partner = self.seat(token[1])
            elif token[0] == "INT":
                points = token
            elif token[0] == "CARD":
                card = self.card(token[1], self.span(token))
                if card is not None:
                    (partner_cards if partner is not None else cards).append(card)
                    (partner_spans if partner is not None else spans).append(self.span(token))
        if kind is None and not cards:
            self.error("BZ304", "a declaration names its kind, its cards, or both", self.span(tokens[0]))
        elif trick is not None or opening:
            item = Declare(
                self.seat(tokens[0][1]),
                kind,
                cards,
                None if points is None else int(points[1]),
                self.span(tokens[0]),
                kind_span,
                None if points is None else self.span(points),
                spans,
                partner=partner,
                partner_cards=partner_cards,
                partner_card_spans=partner_spans,
            )
            if trick is not None:
                trick.items.append(item)
            elif self.deal is not None:
                self.deal.opening.append(item)
            self.target = item
        self.attach(self.comments(tokens))


def read_by_reference(text: str) -> object:
    """The Record (or the diagnostics) of a text that the reader accepts, as :class:`Reference` builds it."""
    if text.startswith("\ufeff"):
        text = text[1:]
    builder = Reference("p.bzq", text)
    builder.build(1)
    builder.close_variations()  # (as read_record does after the last statement)
    return builder.diagnostics or builder.record


def walked_flags(deal: Deal) -> tuple[set[str], bool, bool]:
    """A deal's ``seats_named``, ``repeated_seat`` and ``lossy``, found by walking it (as the replay would)."""
    named: set[str] = set()
    repeated = lossy = False
    cards: list[Any] = [
        *(c for hand in deal.hands.values() for c in hand),
        *(deal.stock or []),
        *(c for meld in deal.table for c in meld.cards),
    ]
    for item in deal.opening:
        if isinstance(item, Declare):
            cards += [*item.cards, *item.partner_cards]
    for trick in deal.tricks:
        lossy = lossy or not trick.ordered
        seats = [play.seat for play in trick.plays]
        named.update(seats)
        repeated = repeated or len(set(seats)) < len(seats)
        cards += [play.card for play in trick.plays]
        for item in trick.items:
            if isinstance(item, Draws):
                named.update(draw.seat for draw in item.draws)
                cards += [draw.card for draw in item.draws]
            elif not isinstance(item, ScoreCheck):
                named.add(item.seat)
                if isinstance(item, Declare):
                    cards += [*item.cards, *item.partner_cards]
                elif isinstance(item, Exchange):
                    cards.append(item.card)
    return named, repeated, lossy or any(isinstance(card, CardPattern) for card in cards)


def agrees(text: str) -> bool:
    """Check the property for one text; True when both accept it. Also: the reader's Record (or diagnostics) is the
    reference's (positions included), its deals' flags are what a walk over them finds, and the Record pickles."""
    mine, lark = reader_statements(text), lark_statements(text)
    assert (mine is None) == (lark is None), "the reader accepts" if lark is None else "Lark accepts"
    assert mine == lark
    outcome = _outcome(text)
    if mine is None:
        return False
    assert outcome == read_by_reference(text)
    if isinstance(outcome, Record):  # (its positions may refer to the reader's matches until asked for)
        for game in outcome.games:
            for deal in game.deals:
                assert (deal.seats_named, deal.repeated_seat, deal.lossy) == walked_flags(deal)
        assert pickle.loads(pickle.dumps(outcome)) == outcome
    return True


RECORDS = sorted(GAMES.glob("*.bzq")) + sorted((DATA / "invalid").glob("*.bzq"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_records(path: Any) -> None:
    agrees(path.read_text(encoding="utf-8"))


def test_the_worked_games_are_read() -> None:
    for name in ("worked-deal-000.bzq", "worked-deal-000-as-printed.bzq"):
        assert agrees((GAMES / name).read_text(encoding="utf-8")), name


@pytest.mark.parametrize("profile", profile_names())
def test_generated_records_of_every_profile(profile: str) -> None:
    text = "\n".join(generate_game(profile, seed, deals) for seed, deals in ((1, 1), (2, 2), (3, 3)))
    assert agrees(text)


# Lines at the edges of the notation: other spellings, blanks, breaks, comments over lines, lexer contexts.
EDGES = [
    "N declares qs",
    "N declares marriage KH QH = 20 { c } {d}",
    "N declares = 40",
    "N shows marriage KS QS",
    "S scores seven_played = 10",
    "hand N: QSKS",
    "hand N:QS KS",
    "hand N:",
    "stock:",
    "hand N: ?? Q? ?S 10? T? ? Q",
    "hand N: QS with",
    "trick 1: S 9C / N QC -> N",
    "trick 1: S 9C, N QC / E 7C",
    "trick 1: S 9C",
    "trick 1: {? why | QC } S 9C, {?x} N QC ->N",
    "trick 1: S 9C, N QC -> N { a\n b } { c }",
    "trick 1: {? a\n b | 9C } S 9C, N QC",
    "trick 1: S 9C, N QC, E 7C, W 8C -> E",
    "trick 1: S 9C, N QC, {? q } E 7C -> E {c}",
    'game"x"',
    'game "x" { c }',
    'game "a{b"',
    "game",
    "note:   ",
    "note:  a } b { c }",
    "note: a { b } c",
    "note:{ only a comment }",
    "title: { only a comment }",
    "title::",
    "title:,",
    "title: x\r",
    "title[ru]: Привет",
    "options: a=1b=2",
    "options: a=1, b=x c=24",
    "option: last_trick = 24",
    "options: a=bc=d",
    "target: 1234567890",
    "target: 123456789",
    "target: ໖१",
    "deal 1 { c }",
    "deal",
    "deal1",
    "сдача 2",
    "trump: S",
    "trumps: s",
    "trump: SS",
    "trump: пики",
    "turnup: 10C",
    "turn-up: QS",
    "turnup: qs",
    "dealer: N{c}",
    "leader: South",
    'players: N "Ann", S',
    'players: N"Ann"',
    "draws N KC, S 9D",
    "draw N KC,S 9D",
    "draws N KC S 9D",
    "draws N KC, S 9D, E 7C {x}",
    "score N 10, S 0",
    "score N 10S",
    "ſcore N 10, S 0",
    "Score N 10, S 0",
    "brisques N 60, S 100",
    "result N 590, S 730",
    "total N 1240, S 980",
    "winner N",
    "{ a } { b }",
    "{ a\nb } trick 1: S 9C, N QC",
    "{ never closed",
    "{? a question alone }",
    "N exchanges 7C = 10",
    "N exchange 7C=10",
    "Nexchanges 7C",
    "TRICK 1: S 9C, N QC",
    "trick 1: s 9c, n qc",
    "trick 1: S 9C, N QC\r",
    "trick 1: S 9C, N QC\r\n",
    "\ttrick 1: S 9C, N QC",
    "\u00a0trick 1: S 9C, N QC",
    "\x0ctrick 1: S 9C, N QC",
    "",
    "\n\n",
    " \n \r\n\t\n",
    "game score N 1, S 0",
    "game score N+S 100, E+W 50 { c }",
    "game  score",
    "gamescore N 1",
    "score N+S 10, E+W 0",
    "score N+ S 10",
    "cut: 24",
    "guess:3",
    "cut 24",
    "N goes out",
    "N goes \t out = 10",
    "S penalty extra_card = 50",
    "S PENALTY extra_card",
    "S penalty  extra_card=50  { drew two }",
    "S penalty Extra = 50",
    "S penaltyextra_card = 50",
    "S штраф extra_card = 50",
    "N goesout",
    "N passes to S",
    "N pass to S { c }",
    "N passes S",
    "profile: 8p-000",
    "profile: 4h-three-001 { c }",
    "profile:8p",
    "profile: 8p-000x.1",
    "profile: 8p-",
    "profile: classic-2",
    "trick 3: N *, S QS -> N",
    "trick 3: N *,S *",
    "trick 3: N *x, S QS",
    "trick 3: N **, S QS",
    "trick 3: N инфузорка, S Д пики",
    "trick 3: Север Д♣, Юг 9 треф -> Север",
    "hand N: * * QS 9H",
    "draws N *, S 9C",
    "N declares four_wilds * * * * = 100",
    "N declares marriage KS*",
    "N exchanges *",
    "turnup: *",
    "winner N+S",
    "winner E+W { c }",
    "winner N+Sx",
    "winner N+",
    "N declares with",
    "N declares within QS",
    "N declares with S QS",
    "N declares four_queens QH QC with S QS QD = 600",
    "N declares bezique QS with S JD { c }",
    "N declares bezique QS with S",
    "N declares bezique QS with SJD",
    "N declares bezique QS withS JD",
    # Statements built from their groups, in their less common shapes: more cards, seats and plays than the groups
    # of their own, comments (over lines), questions, partners, unknown cards.
    "hand N: 7C 8C 9C JC QC KC 10C AC 7D 8D 9D { eleven\n cards } {[note] x}",
    "hand South: QS KS ?? { c }",
    "N declares four_kings KS KH KD KC = 100 { four }",
    "N declares four_queens QH Q? with S QS QD Q? = 600 {c}",
    "North declares royal_marriage",
    "N declares bezique QS with South JD = 40",
    "draws N KC, S 9D, E 7C, W 8C { four\n seats } { d }",
    "draws N KC",
    "draws N K?, S ?D",
    "score N 10, S 0, E 5, W 0 { c }",
    "score N 10",
    "brisques N 60, S 100, E 0 {c}",
    "result N+S 590 { c }",
    "total N 1240, S 980, E 0, W 1",
    "game score N 1, S 0, E 2 { c\n d }",
    "trick 1: S 9C, S QC -> S",
    "trick 1: {? a } {?[better] b | QC } S 9C, {? c\n d } N QC, {? e\n} E 7C, W 8C -> South { c }",
    "trick 1: S Q? / N ?C / E 7C / W 8C -> E",
    "trick 1: S 9C, N QC, {?[bad tag] q } S 7C",
    "trick 1: South 9C, Север QC -> Юг",
]


@pytest.mark.parametrize("line", EDGES)
def test_edges(line: str) -> None:
    head = 'game "g"\ndeal 1\ntrick 1: S 9C, N QC -> N\n'
    agrees(line)
    agrees(head + line + "\n")
    agrees(head + line)
    agrees(line + "\n" + head)


@settings(FUZZ, max_examples=EXAMPLES["bytes"])
@given(byte_edits())
def test_byte_edits(data: bytes) -> None:
    agrees(data.decode("utf-8", errors="replace"))


@settings(FUZZ, max_examples=EXAMPLES["tokens"])
@given(token_edits())
def test_token_edits(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["lines"])
@given(line_edits())
def test_line_edits(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(records())
def test_records_from_the_fuzz_strategy(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(
    st.lists(
        st.sampled_from([*EDGES, "trick 2: N QS, S KS -> N", "  draws N 7C, S 8C", "  score N 0, S 0", "{ x }"]),
        max_size=12,
    ),
    st.sampled_from(["\n", "\n\n", "\n  ", "\r\n", " \n"]),
)
def test_mixed_edges(lines: list[str], separator: str) -> None:
    agrees(separator.join(lines))


# --- texts generated from the grammar itself -----------------------------------------------------------------------

STATEMENT_RULES = sorted({key for key in grammar_tables.STATEMENTS if key != "unordered_trick"})


@cache
def _grammar_parser() -> Any:
    """Lark on the grammar with every statement rule as a start (for hypothesis to generate from)."""
    import lark

    text = grammar_path().read_text(encoding="utf-8")
    return lark.Lark(text, parser="lalr", lexer="contextual", start=["start", *STATEMENT_RULES])


@st.composite
def grammar_statements(draw: st.DrawFn, rule: str) -> str:
    return draw(from_lark(_grammar_parser(), start=rule))


@pytest.mark.parametrize("rule", STATEMENT_RULES)
def test_statements_from_the_grammar(rule: str) -> None:
    """Statements of each rule as the grammar makes them (any terminal text its expression allows), alone and among
    others: most are read, some are not (two terminals that lex otherwise side by side), and Lark agrees."""

    @settings(FUZZ, max_examples=max(10, EXAMPLES["grammar"] // 4))
    @given(grammar_statements(rule), st.lists(st.sampled_from(EDGES[:40]), max_size=3))
    def check(statement: str, others: list[str]) -> None:
        agrees(statement)
        agrees("\n".join([*others, statement, *others]))

    check()


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(st.lists(st.sampled_from(STATEMENT_RULES).flatmap(grammar_statements), min_size=1, max_size=8))
def test_records_of_statements_from_the_grammar(statements: list[str]) -> None:
    agrees("\n".join(statements))


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(st.deferred(lambda: from_lark(_grammar_parser(), start="start")))
def test_whole_records_from_the_grammar(text: str) -> None:
    agrees(text)


def test_the_deal_flags() -> None:
    """What the reader notes on each deal while building it (checked against a walk on every text above)."""
    head = 'game "g"\ndeal 1\nhand N: QS KS\nhand S: 7C 8C\n'
    cases = {
        "trick 1: S 9C, N QC -> N\n  N exchanges 7H\n  draws N KC, S 9D\n": ({"N", "S"}, False, False),
        "trick 1: S 9C, S QC\n": ({"S"}, True, False),
        "trick 1: S 9C / N QC\n": ({"N", "S"}, False, True),
        "trick 1: S 9C, N QC\n  draws N K?, S 9D\n": ({"N", "S"}, False, True),
        "trick 1: S 9C, N QC\n  E passes to W\n  W declares bezique QS with N JD\n": (
            {"N", "S", "E", "W"},
            False,
            False,
        ),
        "trick 1: S 9C, N QC\n  W declares bezique QS with N J?\n": ({"N", "S", "W"}, False, True),
        "N declares carte_blanche\ntrick 1: S 9C, N QC\n  brisques E 10\n": ({"N", "S"}, False, False),
    }
    for text, expected in cases.items():
        (deal,) = reader.read_record(head + text).games[0].deals
        assert (deal.seats_named, deal.repeated_seat, deal.lossy) == expected == walked_flags(deal), text
    (deal,) = reader.read_record(head.replace("KS", "K?")).games[0].deals
    assert (deal.seats_named, deal.repeated_seat, deal.lossy) == (set(), False, True)
    assert (Deal(None, (1, 0, 1)).seats_named, Deal(None, (1, 0, 1)).lossy) == (set(), False)


@pytest.mark.parametrize("sync", [0, 10**9])
def test_positions_counted_from_an_earlier_line(sync: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The statements built from their groups hold their positions from a line at or before them (the build brings
    that line up to the statement every ``_SYNC`` characters): the same positions, however far it is behind."""
    monkeypatch.setattr(reader, "_SYNC", sync)
    games = [generate_game(profile, 5, 2) for profile in profile_names()[:4]]
    assert agrees("\n".join(games))
    assert agrees("\n".join([*games, *EDGES[EDGES.index("hand South: QS KS ?? { c }") :]]))
