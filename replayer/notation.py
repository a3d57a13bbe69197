"""Reading records: the Lark grammar (grammar/bezique.lark) and the builder that groups statements into games,
deals and tricks. This is the only module that imports lark.

A record is first read by the fast reader (:mod:`replayer.fastread`), which builds the same tree as Lark for the
common statements (and leaves the commonest, tricks, draws and running scores, as their matched lines, which the
builder reads straight); when it gives up, Lark reads the record (and reports its syntax errors). Lark is imported only
then, which keeps it out of a command's start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .cards import Card, CardLike, CardParseError, parse_card_like, parse_suit
from .errors import Diagnostic, NotationError, Span
from .fastread import Line, Spot, read_statements
from .record import (
    Claim,
    Comment,
    Deal,
    Declare,
    Draw,
    Draws,
    Exchange,
    Game,
    GoesOut,
    Pass,
    Penalty,
    Play,
    Question,
    Record,
    ScoreCheck,
    SeatValue,
    Trick,
)

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput
else:
    # The builder reads the trees of both readers: Lark's classes are registered as virtual subclasses of these
    # when Lark is loaded (see _parser), so its isinstance checks hold for either.
    from .fastread import Token, Tree

__all__ = ["SEAT_ALIASES", "data_dir", "parse_file", "parse_record", "read_fast"]

SEAT_ALIASES = {
    "NORTH": "N",
    "SOUTH": "S",
    "EAST": "E",
    "WEST": "W",
    "СЕВЕР": "N",
    "ЮГ": "S",
    "ВОСТОК": "E",
    "ЗАПАД": "W",
}

_MAX_SYNTAX_ERRORS = 20
_HEADER_NAMES = (
    "title, source, url, page, date, event, site, annotator, translator, note, language, round, players, "
    "profile, options, target, dealer, leader, trump, turnup, hand, stock"
)

# Friendly names for the grammar's terminals in "expected ..." messages.
_TERMINAL_NAMES = {
    "SEAT": "a seat (N, S, E, W)",
    "CARD": "a card (e.g. QS, 10C, Q♠)",
    "INT": "a number",
    "_NL": "the end of the line",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "__ANON_0": "'->'",
    "KIND": "a meld kind (e.g. royal_marriage)",
    "NAME": "a name",
    "PROFILE_NAME": "a profile name",
    "SUIT": "a suit (S, H, D, C)",
    "STRING": "a quoted string",
    "TEXT": "text",
    "COMMENT": "a comment",
    "QUESTION": "a question",
    "MINUSGT": "'->'",
    "SLASH": "'/'",
    "SIDE": "a side (e.g. N+S)",
}


def data_dir(name: str) -> Path:
    """Locate a data folder shipped beside the package (``grammar``, ``site_templates``).

    In a source checkout they sit at the top level, beside ``replayer/``; an installed wheel carries them inside
    the package (pyproject.toml maps them there).
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / name, here.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the {name} folder is missing from the installation ({here})")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    import lark

    from . import fastread

    fastread.Token.register(lark.Token)
    fastread.Tree.register(lark.Tree)
    grammar = (data_dir("grammar") / "bezique.lark").read_text(encoding="utf-8")
    # cache=True keeps the compiled parser in the temporary folder: a cold start skips compiling the grammar.
    return lark.Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False, cache=True)


def parse_file(path: str | Path) -> Record:
    """Read and parse a record file (UTF-8). Raises :class:`NotationError` or ``OSError``."""
    text = Path(path).read_text(encoding="utf-8")
    return parse_record(text, str(path))


def _span(token: Token) -> Span:
    return _text_span(token.line or 1, token.column or 1, token)


def _text_span(line: int, column: int, text: str) -> Span:
    end = text.find("\n")  # a comment may span lines: the span underlines its first line
    return Span(line, column, max(1, len(text) if end < 0 else end))


def _spot_span(line: Line, spot: Spot) -> Span:
    """The span of a piece of a matched line: the span of the token the tree would hold."""
    text, start = spot
    if line.one_line:  # nothing in it spans lines (the common case, a span per card, seat and number)
        return Span(line.line, start + 1, len(text) or 1)
    return _text_span(*line.where(start), text)


def _expected(names: set[str]) -> str:
    readable = sorted({_TERMINAL_NAMES.get(n, n.lower() if n.isupper() else n) for n in names})
    if len(readable) > 6:
        readable = [*readable[:6], "…"]
    return ", ".join(readable)


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line, column = exc.line, exc.column
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else ""
        if char == "{":
            return Diagnostic("BZ004", "unterminated comment: '{' has no closing '}'", Span(line, column), path)
        word = text[pos:].split(None, 1)[0] if text[pos:].strip() else char
        word = word.split(",")[0] or char
        if len(word) > 40:
            word = word[:40] + "…"
        expected = _expected(set(exc.allowed or ()))
        if "CARD" in (exc.allowed or ()):
            return Diagnostic(
                "BZ003",
                f"not a card: {word!r} (write rank then suit, e.g. QS, 10C, Q♠, Д пики); expected {expected}",
                Span(line, column, len(word)),
                path,
            )
        return Diagnostic("BZ002", f"unexpected {word!r}; expected {expected}", Span(line, column, len(word)), path)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if "CARD" in (exc.expected or ()) and token.type in (
            "NAME",
            "PROFILE_NAME",
            "KIND",
            "SEAT",
            "INT",
            "SUIT",
            "TEXT",
        ):
            word = str(token).split()[0].rstrip(",")
            return Diagnostic(
                "BZ003",
                f"not a card: {word!r} (write rank then suit, e.g. QS, 10C, Q♠, Д пики)",
                Span(token.line or line, token.column or column, len(word)),
                path,
            )
        rest = text[(token.end_pos or 0) :].lstrip(" \t")
        if token.type in ("NAME", "KIND", "SEAT") and rest.startswith(":"):
            return Diagnostic(
                "BZ001",
                f"unknown header {str(token) + ':'!r} (headers: {_HEADER_NAMES})",
                Span(token.line or line, token.column or column, len(str(token)) + 1),
                path,
            )
        if len(str(token)) > 40:
            token = token.update(value=str(token)[:40] + "…")
        shown = "end of line" if token.type == "_NL" else ("end of file" if token.type == "$END" else repr(str(token)))
        expected = _expected(set(exc.expected or ()))
        return Diagnostic(
            "BZ001",
            f"unexpected {shown}; expected {expected}",
            Span(token.line or line, token.column or column, max(1, len(str(token).strip()))),
            path,
        )
    if isinstance(exc, UnexpectedEOF):
        return Diagnostic(
            "BZ001",
            f"unexpected end of file; expected {_expected(set(exc.expected))}",
            Span(max(1, text.count("\n")), 1),
            path,
        )
    return Diagnostic("BZ001", "syntax error", Span(line, column), path)


def _blank_line(text: str, line: int) -> str:
    lines = text.split("\n")
    if 1 <= line <= len(lines):
        lines[line - 1] = " " * len(lines[line - 1])
    return "\n".join(lines)


def parse_record(text: str, path: str = "<record>") -> Record:
    """Parse a record. Every syntax error is reported (up to a limit) in one :class:`NotationError`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    # The fast reader's tree has the shape of Lark's (see replayer/fastread.py), which the builder reads alike.
    statements = read_statements(text, 1, _MATCHED)
    builder = _Builder(path, text)
    builder.build(statements if statements is not None else _lark_tree(text, path).children)
    if builder.diagnostics:
        raise NotationError(builder.diagnostics)
    return builder.record


def read_fast(text: str, path: str, first_line: int = 1) -> Record | None:
    """The record when the fast reader reads every statement and the builder finds no problem; None otherwise.

    ``first_line`` is the line number of the text's first line in the file (when the text is one game of a file
    read game by game); positions are the file's. On None, :func:`parse_record` of the whole file reports the
    problems exactly.
    """
    statements = read_statements(text, first_line, _MATCHED)
    if statements is None:
        return None
    builder = _Builder(path, text)
    builder.build(statements)
    return None if builder.diagnostics else builder.record


def syntax_errors(text: str, path: str = "<record>") -> list[Diagnostic]:
    """Lark's syntax errors of a text, each as a diagnostic (up to a limit); empty when Lark accepts it.

    Lark reports the first error; the line it is on is then blanked and the text parsed again, for the next one.
    """
    from lark.exceptions import UnexpectedInput

    diagnostics: list[Diagnostic] = []
    work = text
    while True:
        try:
            _parser().parse(work)
            break
        except UnexpectedInput as exc:
            diag = _syntax_diagnostic(exc, text, path)
            if diagnostics and diagnostics[-1].span == diag.span:
                break
            diagnostics.append(diag)
            if len(diagnostics) >= _MAX_SYNTAX_ERRORS or diag.code == "BZ004" or diag.span is None:
                break
            work = _blank_line(work, diag.span.line)
    return diagnostics


def _lark_tree(text: str, path: str) -> Tree:
    """Lark's tree of a record; every syntax error is reported (up to a limit) in one :class:`NotationError`."""
    from lark.exceptions import UnexpectedInput

    diagnostics: list[Diagnostic] = []
    work = text
    tree: Tree | None = None
    while True:
        try:
            tree = _parser().parse(work)
            break
        except UnexpectedInput as exc:
            diag = _syntax_diagnostic(exc, text, path)
            if diagnostics and diagnostics[-1].span == diag.span:
                break
            diagnostics.append(diag)
            if len(diagnostics) >= _MAX_SYNTAX_ERRORS or diag.code == "BZ004" or diag.span is None:
                break
            work = _blank_line(work, diag.span.line)
    if diagnostics or tree is None:
        raise NotationError(diagnostics)
    return tree


def _tok(item: object) -> Token:
    """A child that the grammar guarantees to be a token."""
    assert isinstance(item, Token)
    return item


def _card(token: Token | str, diags: list[Diagnostic], path: str, span: Span | None = None) -> CardLike | None:
    """The card a token spells; None (and a diagnostic at ``span``, else the token's) when it spells none."""
    try:
        return parse_card_like(str(token))
    except CardParseError as exc:
        diags.append(Diagnostic("BZ003", str(exc), span or _span(cast("Token", token)), path))
        return None


def _comment_text(token: str, strip: int) -> str:
    inner = str(token)[strip:-1]
    return " ".join(inner.split())


_COMMENT_TAGS = ("note",)
_QUESTION_TAGS = ("better",)


def _tags(body: str, allowed: tuple[str, ...]) -> tuple[str, str | None, set[str]] | str:
    """A comment's or question's body without its leading tags (``[ru]``, ``[note ru]``): (text, language, other
    tags); or, when a tag is not known, the message to report. A body not starting with ``[`` has no tags."""
    stripped = body.lstrip()
    if not stripped.startswith("["):
        return body, None, set()
    end = stripped.find("]")
    words = stripped[1:end].split() if end > 0 else []
    if end < 0 or not words or not all(w.isalpha() and w.islower() for w in words):
        return body, None, set()  # not tags: text that starts with a bracket, such as "[7C] ..."
    lang = None
    tags = set()
    for word in words:
        if word in allowed:
            tags.add(word)
        elif len(word) == 2 and lang is None:
            lang = word
        else:
            known = ", ".join(allowed)
            return f"unknown tag {word!r} (tags: a two-letter language such as ru, and {known})"
    return stripped[end + 1 :], None if lang == "en" else lang, tags


class _Builder:
    """Groups the flat statements into games, deals and tricks."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.record = Record(path, text)
        self.diagnostics: list[Diagnostic] = []
        self.game: Game | None = None
        self.deal: Deal | None = None
        self.trick: Trick | None = None
        self.target: Any = None  # where the next comment goes: the last game, deal, trick or statement
        self.preamble: list[Comment] = []

    def error(self, code: str, message: str, span: Span) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, self.path))

    def seat(self, token: Token | str) -> str:
        raw = str(token).upper()
        return SEAT_ALIASES.get(raw, raw)

    def ensure_game(self, span: Span) -> Game:
        if self.game is None:
            self.game = Game(span, comments=self.take_preamble())
            self.record.games.append(self.game)
            self.target = self.game
        return self.game

    def take_preamble(self) -> list[Comment]:
        comments, self.preamble = self.preamble, []
        return comments

    def ensure_deal(self, span: Span) -> Deal:
        game = self.ensure_game(span)
        if self.deal is None:
            self.deal = Deal(None, span)
            game.deals.append(self.deal)
            self.target = self.deal
        return self.deal

    def attach(self, comments: list[Comment]) -> None:
        if not comments:
            return
        if self.target is None:
            # Comments before the first statement (a file's preamble) go to the first game, whenever it starts.
            self.preamble.extend(comments)
            return
        self.target.comments.extend(comments)

    def comments_of(self, node: Tree) -> list[Comment]:
        result = []
        for child in node.children:
            if isinstance(child, Tree) and child.data == "comment":
                token = child.children[0]
                assert isinstance(token, Token)
                result.append(self.comment(str(token), _span(token)))
        return result

    def build(self, statements: Sequence[object]) -> None:
        """Add the statements of a record: Lark's or the fast reader's trees, or the fast reader's matched lines."""
        for stmt in statements:
            if isinstance(stmt, Line):
                _LINE_HANDLERS[stmt.kind](self, stmt)
            elif isinstance(stmt, Tree):
                getattr(self, f"on_{stmt.data}")(stmt)

    # --- the commonest statements, straight from the fast reader's match (see fastread.read_statements) ----------

    def line_comments(self, line: Line) -> list[Comment]:
        return [self.comment(spot[0], _spot_span(line, spot)) for spot in line.comment_spots()]

    def comment(self, raw: str, span: Span) -> Comment:
        """A comment ``{ ... }`` with its tags read (``{[ru] ...}``, ``{[note] ...}``)."""
        tagged = _tags(raw[1:-1], _COMMENT_TAGS)
        if isinstance(tagged, str):
            self.error("BZ001", tagged, span)
            return Comment(_comment_text(raw, 1), span)
        body, lang, tags = tagged
        return Comment(" ".join(body.split()), span, lang, "note" in tags)

    def line_trick(self, line: Line) -> None:
        match = line.match
        winner = match.group("winner")
        self.trick_statement(
            _spot_span(line, (match.group("kw"), match.start("kw"))),
            int(match.group("int")),
            [
                (
                    [(q[0], _spot_span(line, q)) for q in questions],
                    seat[0],
                    _spot_span(line, seat),
                    card[0],
                    _spot_span(line, card),
                )
                for questions, seat, card in line.plays()
            ],
            winner,
            None if winner is None else _spot_span(line, (winner, match.start("winner"))),
            line.kind == "trick_stmt",
            self.line_comments(line),
        )

    def line_draws(self, line: Line) -> None:
        match = line.match
        self.draws_statement(
            _spot_span(line, (match.group("kw"), match.start("kw"))),
            [(seat[0], _spot_span(line, seat), card[0], _spot_span(line, card)) for seat, card in line.seat_cards()],
            self.line_comments(line),
        )

    def line_score(self, line: Line) -> None:
        match = line.match
        self.score_statement(
            _spot_span(line, (match.group("kw"), match.start("kw"))),
            [
                SeatValue(self.seat(seat[0]), int(value[0]), _spot_span(line, value))
                for seat, value in line.seat_values()
            ],
            self.line_comments(line),
        )

    # --- statements -------------------------------------------------------------------------------------

    def on_comment_stmt(self, node: Tree) -> None:
        self.attach(self.comments_of(node))

    def on_game_stmt(self, node: Tree) -> None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        self.game = Game(_span(keyword), comments=self.take_preamble())
        self.record.games.append(self.game)
        self.deal = None
        self.trick = None
        for child in node.children[1:]:
            if isinstance(child, Token) and child.type == "STRING":
                self.game.title = str(child)[1:-1]
        self.target = self.game
        self.attach(self.comments_of(node))

    def _game_header(self, node: Tree) -> Game | None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        game = self.ensure_game(_span(keyword))
        if game.deals:
            self.error(
                "BZ101", f"the {str(keyword).lower()} header belongs before the first deal of the game", _span(keyword)
            )
            return None
        return game

    def on_text_header(self, node: Tree) -> None:
        game = self._game_header(node)
        key = str(node.children[0]).lower().replace("[en]", "")  # (English is the untagged header)
        value = ""
        for child in node.children[1:]:
            if isinstance(child, Token) and child.type == "TEXT":
                value = child.strip()
        if game is not None:
            if key in game.headers:
                self.error("BZ102", f"a second {key} header (the first is kept)", _span(_tok(node.children[0])))
            else:
                game.headers[key] = value
                if key == "title" and game.title is None:
                    game.title = value
        self.target = game or self.target
        self.attach(self.comments_of(node))

    def on_players_header(self, node: Tree) -> None:
        game = self._game_header(node)
        for child in node.children:
            if isinstance(child, Tree) and child.data == "player":
                seat_token = child.children[0]
                assert isinstance(seat_token, Token)
                name = str(child.children[1])[1:-1] if len(child.children) > 1 else ""
                if game is not None:
                    game.players[self.seat(seat_token)] = name
                    game.player_spans[self.seat(seat_token)] = _span(seat_token)
        self.attach(self.comments_of(node))

    def on_profile_header(self, node: Tree) -> None:
        game = self._game_header(node)
        if game is not None:
            game.profile = str(node.children[1])
            game.profile_span = _span(_tok(node.children[1]))
        self.attach(self.comments_of(node))

    def on_options_header(self, node: Tree) -> None:
        game = self._game_header(node)
        for child in node.children:
            if isinstance(child, Tree) and child.data == "option":
                name_token, value_token = (_tok(x) for x in child.children)
                assert isinstance(name_token, Token)
                if game is not None:
                    game.options[str(name_token)] = str(value_token)
                    game.option_spans[str(name_token)] = _span(name_token)
        self.attach(self.comments_of(node))

    def on_target_header(self, node: Tree) -> None:
        game = self._game_header(node)
        if game is not None:
            game.target = int(str(node.children[1]))
        self.attach(self.comments_of(node))

    def _deal_header(self, node: Tree) -> Deal | None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        deal = self.ensure_deal(_span(keyword))
        if deal.tricks:
            self.error(
                "BZ101",
                f"the {str(keyword).lower()} header belongs before the deal's first trick "
                f"(start a new deal with 'deal')",
                _span(keyword),
            )
            return None
        name = str(keyword).lower()
        if name in deal.spans and name != "hand":
            self.error("BZ102", f"a second {name} header in this deal", _span(keyword))
            return None
        deal.spans[name] = _span(keyword)
        return deal

    def on_dealer_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        if deal is not None:
            deal.dealer = self.seat(_tok(node.children[1]))
        self.attach(self.comments_of(node))

    def on_leader_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        if deal is not None:
            deal.leader = self.seat(_tok(node.children[1]))
        self.attach(self.comments_of(node))

    def on_trump_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        if deal is not None:
            deal.trump = parse_suit(str(node.children[1]))
        self.attach(self.comments_of(node))

    def on_turnup_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        card = _card(_tok(node.children[1]), self.diagnostics, self.path)
        if isinstance(card, Card) or card is None:
            if deal is not None:
                deal.turnup = card
        else:
            self.error("BZ107", "the turn-up must be known (it fixes trumps)", _span(_tok(node.children[1])))
        self.attach(self.comments_of(node))

    def on_hand_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        seat_token = node.children[1]
        assert isinstance(seat_token, Token)
        seat = self.seat(seat_token)
        cards = [
            _card(_tok(t), self.diagnostics, self.path)
            for t in node.children[2:]
            if isinstance(t, Token) and t.type == "CARD"
        ]
        if deal is not None:
            if seat in deal.hands:
                self.error("BZ102", f"a second hand for {seat} in this deal", _span(seat_token))
            deal.hands[seat] = [c for c in cards if c is not None]
            deal.hand_spans[seat] = _span(seat_token)
            deal.hand_card_spans[seat] = [
                _span(t) for t in node.children[2:] if isinstance(t, Token) and t.type == "CARD"
            ]
        self.attach(self.comments_of(node))

    def on_stock_header(self, node: Tree) -> None:
        deal = self._deal_header(node)
        cards = [
            _card(_tok(t), self.diagnostics, self.path)
            for t in node.children[1:]
            if isinstance(t, Token) and t.type == "CARD"
        ]
        if deal is not None:
            deal.stock = [c for c in cards if c is not None]
        self.attach(self.comments_of(node))

    def on_cut_header(self, node: Tree) -> None:
        self._number_header(node, "cut")

    def on_guess_header(self, node: Tree) -> None:
        self._number_header(node, "guess")

    def _number_header(self, node: Tree, name: str) -> None:
        """``cut: 24``, ``guess: 20``: a number stated for the deal (the six-pack deal bonuses)."""
        deal = self._deal_header(node)
        if deal is not None:
            setattr(deal, name, int(str(node.children[1])))
        self.attach(self.comments_of(node))

    def on_deal_stmt(self, node: Tree) -> None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        game = self.ensure_game(_span(keyword))
        number = None
        for child in node.children[1:]:
            if isinstance(child, Token) and child.type == "INT":
                number = int(child)
        self.deal = Deal(number, _span(keyword))
        game.deals.append(self.deal)
        self.trick = None
        self.target = self.deal
        self.attach(self.comments_of(node))

    def on_trick_stmt(self, node: Tree) -> None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        plays: list[_RawPlay] = []
        winner = None
        winner_span = None
        for child in node.children[2:]:
            if not isinstance(child, Tree):
                continue
            if child.data == "play":
                questions = []
                seat_token = card_token = None
                for part in child.children:
                    if isinstance(part, Tree) and part.data == "question":
                        question = _tok(part.children[0])
                        questions.append((str(question), _span(question)))
                    elif isinstance(part, Token) and part.type == "SEAT":
                        seat_token = part
                    elif isinstance(part, Token) and part.type == "CARD":
                        card_token = part
                assert seat_token is not None and card_token is not None
                plays.append((questions, str(seat_token), _span(seat_token), str(card_token), _span(card_token)))
            elif child.data == "winner":
                token = child.children[0]
                assert isinstance(token, Token)
                winner = str(token)
                winner_span = _span(token)
        self.trick_statement(
            _span(keyword),
            int(str(node.children[1])),
            plays,
            winner,
            winner_span,
            node.data == "trick_stmt",
            self.comments_of(node),
        )

    def on_unordered_trick(self, node: Tree) -> None:
        self.on_trick_stmt(node)

    def trick_statement(
        self,
        span: Span,
        number: int,
        plays: list[_RawPlay],
        winner: str | None,
        winner_span: Span | None,
        ordered: bool,
        comments: list[Comment],
    ) -> None:
        """A trick, from either reader: ``span`` is the keyword's, each play is read here."""
        deal = self.ensure_deal(span)
        if deal.end:
            self.error(
                "BZ101",
                "a trick after the end of the deal (brisques/result); start a new deal with 'deal'",
                span,
            )
        read: list[Play] = []
        for questions, seat, seat_span, card_text, card_span in plays:
            asked = [self.question(text, question_span) for text, question_span in questions]
            card = _card(card_text, self.diagnostics, self.path, card_span)
            if card is not None:
                read.append(Play(self.seat(seat), card, card_span, seat_span, asked))
        self.trick = Trick(
            number, read, None if winner is None else self.seat(winner), winner_span, span, ordered=ordered
        )
        deal.tricks.append(self.trick)
        self.target = self.trick
        self.attach(comments)

    def question(self, text: str, span: Span) -> Question:
        tagged = _tags(text[2:-1], _QUESTION_TAGS)
        if isinstance(tagged, str):
            self.error("BZ001", tagged, span)
            tagged = (text[2:-1], None, set())
        body, lang, tags = tagged
        answers: list[Card] = []
        if "|" in body:
            body, _, accepted = body.rpartition("|")
            for word in accepted.replace(",", " ").split():
                try:
                    answers.append(Card.parse(word))
                except CardParseError:
                    self.error("BZ003", f"the question's accepted answer {word!r} is not a card", span)
        return Question(" ".join(body.split()), answers, span, lang, "better" in tags)

    def _trick_item(self, node: Tree) -> Trick | None:
        return self.trick_item(_span(_tok(node.children[0])))

    def trick_item(self, span: Span) -> Trick | None:
        """The trick a statement after a trick belongs to (None, and a diagnostic at ``span``, when there is none)."""
        if self.trick is None or (self.deal is not None and self.deal.end):
            self.error("BZ101", "this statement belongs after a trick ('trick N: ...')", span)
            return None
        return self.trick

    def on_exchange_stmt(self, node: Tree) -> None:
        trick = self._trick_item(node)
        seat_token, _, card_token = (_tok(x) for x in node.children[:3])
        points = self.points(node)
        card = _card(card_token, self.diagnostics, self.path)
        if trick is not None and card is not None:
            item = Exchange(
                self.seat(seat_token),
                card,
                points,
                _span(seat_token),
                _span(card_token),
            )
            trick.items.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def points(self, node: Tree) -> int | None:
        for child in node.children:
            if isinstance(child, Tree) and child.data == "points":
                return int(str(child.children[0]))
        return None

    def points_span(self, node: Tree) -> Span | None:
        for child in node.children:
            if isinstance(child, Tree) and child.data == "points":
                return _span(_tok(child.children[0]))
        return None

    def _declaration(self, node: Tree, scored: bool) -> None:
        opening = scored and self.trick is None and self.deal is not None and not self.deal.tricks
        # A declaration before the deal's first trick (a carte blanche) belongs to the deal, not to a trick.
        trick = None if opening else self._trick_item(node)
        seat_token = node.children[0]
        assert isinstance(seat_token, Token)
        kind = None
        kind_span = None
        cards: list[CardLike] = []
        spans: list[Span] = []
        partner = None
        partner_cards: list[CardLike] = []
        partner_spans: list[Span] = []
        for child in node.children[2:]:
            if isinstance(child, Token) and child.type == "KIND":
                kind = str(child)
                kind_span = _span(child)
            elif isinstance(child, Token) and child.type == "CARD":
                card = _card(child, self.diagnostics, self.path)
                if card is not None:
                    cards.append(card)
                    spans.append(_span(child))
            elif isinstance(child, Tree) and child.data == "partner_cards":
                partner = self.seat(_tok(child.children[1]))
                for token in child.children[2:]:
                    card = _card(_tok(token), self.diagnostics, self.path)
                    if card is not None:
                        partner_cards.append(card)
                        partner_spans.append(_span(_tok(token)))
        if kind is None and not cards:
            self.error("BZ304", "a declaration names its kind, its cards, or both", _span(seat_token))
        elif trick is not None or opening:
            item = Declare(
                self.seat(seat_token),
                kind,
                cards,
                self.points(node),
                _span(seat_token),
                kind_span,
                self.points_span(node),
                spans,
                scored,
                partner=partner,
                partner_cards=partner_cards,
                partner_card_spans=partner_spans,
            )
            if trick is not None:
                trick.items.append(item)
            elif self.deal is not None:
                self.deal.opening.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def on_declare_stmt(self, node: Tree) -> None:
        self._declaration(node, scored=True)

    def on_show_stmt(self, node: Tree) -> None:
        self._declaration(node, scored=False)

    def on_pass_stmt(self, node: Tree) -> None:
        trick = self._trick_item(node)
        seat_token, _, _, partner_token = (_tok(x) for x in node.children[:4])
        if trick is not None:
            item = Pass(self.seat(seat_token), self.seat(partner_token), _span(seat_token), _span(partner_token))
            trick.items.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def on_claim_stmt(self, node: Tree) -> None:
        trick = self._trick_item(node)
        seat_token, _, kind_token = (_tok(x) for x in node.children[:3])
        if trick is not None:
            item = Claim(
                self.seat(seat_token),
                str(kind_token),
                self.points(node),
                _span(kind_token),
            )
            trick.items.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def on_out_stmt(self, node: Tree) -> None:
        trick = self._trick_item(node)
        seat_token = _tok(node.children[0])
        if trick is not None:
            item = GoesOut(self.seat(seat_token), self.points(node), _span(seat_token))
            trick.items.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def on_penalty_stmt(self, node: Tree) -> None:
        trick = self._trick_item(node)
        seat_token, _, kind_token = (_tok(x) for x in node.children[:3])
        if trick is not None:
            item = Penalty(
                self.seat(seat_token),
                str(kind_token),
                self.points(node),
                _span(seat_token),
                _span(kind_token),
                self.points_span(node),
            )
            trick.items.append(item)
            self.target = item
        self.attach(self.comments_of(node))

    def on_draws_stmt(self, node: Tree) -> None:
        draws = []
        for child in node.children:
            if isinstance(child, Tree) and child.data == "seat_card":
                seat_token, card_token = (_tok(x) for x in child.children)
                draws.append((str(seat_token), _span(seat_token), str(card_token), _span(card_token)))
        self.draws_statement(_span(_tok(node.children[0])), draws, self.comments_of(node))

    def draws_statement(self, span: Span, draws: list[tuple[str, Span, str, Span]], comments: list[Comment]) -> None:
        """``draws``, from either reader: each (seat, its span, card, its span) is read here."""
        trick = self.trick_item(span)
        read = []
        for seat, seat_span, card_text, card_span in draws:
            card = _card(card_text, self.diagnostics, self.path, card_span)
            if card is not None:
                read.append(Draw(self.seat(seat), card, card_span, seat_span))
        if trick is not None:
            item = Draws(read, span)
            trick.items.append(item)
            self.target = item
        self.attach(comments)

    def values(self, node: Tree) -> list[SeatValue]:
        result = []
        for child in node.children:
            if isinstance(child, Tree) and child.data == "seat_points":
                seat_token, value_token = (_tok(x) for x in child.children)
                result.append(
                    SeatValue(
                        self.seat(seat_token),
                        int(str(value_token)),
                        _span(value_token),
                    )
                )
        return result

    def on_score_stmt(self, node: Tree) -> None:
        self.score_statement(_span(_tok(node.children[0])), self.values(node), self.comments_of(node))

    def score_statement(self, span: Span, values: list[SeatValue], comments: list[Comment]) -> None:
        """``score``, from either reader."""
        trick = self.trick_item(span)
        if trick is not None:
            item = ScoreCheck("score", values, span)
            trick.items.append(item)
            self.target = item
        self.attach(comments)

    def _end_statement(self, node: Tree, what: str) -> None:
        keyword = node.children[0]
        assert isinstance(keyword, Token)
        deal = self.ensure_deal(_span(keyword))
        item = ScoreCheck(what, self.values(node), _span(keyword))
        deal.end.append(item)
        self.target = item
        self.attach(self.comments_of(node))

    def on_brisques_stmt(self, node: Tree) -> None:
        self._end_statement(node, "brisques")

    def on_result_stmt(self, node: Tree) -> None:
        self._end_statement(node, "result")

    def on_total_stmt(self, node: Tree) -> None:
        self._end_statement(node, "total")

    def on_game_score_stmt(self, node: Tree) -> None:
        self._end_statement(node, "game")

    def on_winner_stmt(self, node: Tree) -> None:
        keyword, seat_token = (_tok(x) for x in node.children[:2])
        game = self.ensure_game(_span(keyword))
        game.winner = self.seat(seat_token)
        game.winner_span = _span(seat_token)
        self.target = game
        self.attach(self.comments_of(node))


_RawPlay = tuple[list[tuple[str, Span]], str, Span, str, Span]
"""A play as read, before its card is: its questions (text, span), seat, the seat's span, card, the card's span."""

# The statements read straight from the fast reader's match: most lines of a record are one of these.
_LINE_HANDLERS: dict[str, Callable[[_Builder, Line], None]] = {
    "trick_stmt": _Builder.line_trick,
    "unordered_trick": _Builder.line_trick,
    "draws_stmt": _Builder.line_draws,
    "score_stmt": _Builder.line_score,
}
_MATCHED = frozenset(_LINE_HANDLERS)
