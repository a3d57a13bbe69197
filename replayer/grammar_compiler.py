"""The grammar compiler: grammar/bezique.lark made into the regular expressions of the runtime reader.

Run ``python -m replayer.grammar_compiler`` after editing the grammar: it writes ``replayer/grammar_tables.py``, which
:mod:`replayer.reader` imports, so that reading a record needs neither Lark nor the grammar file (a test fails while
the tables are stale). This module runs at development time and imports Lark; nothing at run time imports it.

Lark reads the grammar with its LALR parser and its contextual lexer, and the tables reproduce exactly what they
accept, statement by statement. For every statement rule (the alternatives of ``_statement``, one expression per
expansion, so ``unordered_trick`` has its own) the compiler writes a regular expression that matches a statement
where Lark's lexer and parser would read one, up to and including the line break that ends it:

- the expression follows the rule's EBNF, with the rules it uses (``play``, ``points`` ...) written in place; every
  token the tree keeps is a named group, and a repetition is one region (a group) that the reader reads again with
  the repeated part's own expression (an *element*), one match after another; the first iterations of the lists of
  the commonest statements (the plays of a trick, the draws, the scores) are unrolled into groups of their own, so
  that a two-handed line needs no second pass;
- each terminal is matched as Lark's lexer matches it: its own expression, committed (an atomic group: no
  backtracking into a token), with its flags; ``%ignore`` blanks are allowed between two tokens;
- the contextual lexer takes, at each position, the first terminal that matches among those the parser state allows,
  in Lark's order (priority, longest possible match, longest pattern, name). The allowed terminals of every position
  of a statement are taken from Lark's own parse table, by feeding the parser the statement's tokens (the parser
  state after each token fixes the lexer of the next one), and a terminal is only taken where no terminal tried
  before it in that state matches: each is preceded by negative lookaheads for the ones tried before it that can
  start with the same character (the others cannot match there and are left out, which keeps the expressions fast).

The compiler refuses a grammar it cannot reproduce exactly (two parser states with different lexers at one place of
a rule, a string retyped by Lark's lexer, a rule that does not end a statement): tests/test_reader.py then also
checks, on records and on texts generated from the grammar, that the reader accepts a text exactly when Lark does,
with the same statements and the same tokens.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["GrammarCompileError", "generate", "grammar_path", "grammar_sha256", "main", "tables_path"]

# A statement's lists whose first iterations are read into groups of their own (a two-handed trick, draws and
# scores, the cards of a hand of up to nine, of a marriage or a bezique): (rule, the repeated rule or terminal) ->
# how many iterations; the rest of a list is a region read by its element.
_UNROLL = {
    ("hand_header", "CARD"): 9,
    ("declare_stmt", "CARD"): 2,
    ("trick_stmt", "play"): 1,
    ("draws_stmt", "seat_card"): 1,
    ("score_stmt", "seat_points"): 1,
    ("brisques_stmt", "seat_points"): 1,
    ("result_stmt", "seat_points"): 1,
    ("total_stmt", "seat_points"): 1,
    ("game_score_stmt", "seat_points"): 1,
}

# The statements tried first for a line's first character: most lines of a record are these.
_FREQUENT = ("trick_stmt", "draws_stmt", "score_stmt", "declare_stmt", "exchange_stmt", "comment_stmt")

# Statements that usually follow one another, read with one match (a block) in their common shape: a trick, its
# draws and the running score (or draws and the score). The first is required, the others optional; each is its
# statement's expression with every repetition read no time (see _Compiler.lean), its groups' names prefixed: the
# groups of each are those of the statement's own expression, in the same order (a region read no time is an empty
# group), so that the reader builds a statement of a block as it builds the statement matched alone.
_BLOCKS = {
    "trick_block": (("trick_stmt", "t_"), ("draws_stmt", "d_"), ("score_stmt", "s_")),
    "draws_block": (("draws_stmt", "d_"), ("score_stmt", "s_")),
}

_STATEMENTS = "_statement"
_END_MARK = "\x00end\x00"
_NEWLINE = "_NL"
_END = "$END"


class GrammarCompileError(Exception):
    """The grammar uses something the compiler cannot reproduce exactly."""


def grammar_path() -> Path:
    """The grammar file the tables are compiled from."""
    from .notation import data_dir

    return data_dir("grammar") / "bezique.lark"


def tables_path() -> Path:
    """The generated module."""
    return Path(__file__).resolve().parent / "grammar_tables.py"


def grammar_sha256(text: str) -> str:
    """The hash the tables record of the grammar they were compiled from."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- terminals -------------------------------------------------------------------------------------------------

_ALL_CHARACTERS: str | None = None


def _all_characters() -> str:
    global _ALL_CHARACTERS
    if _ALL_CHARACTERS is None:
        _ALL_CHARACTERS = "".join(map(chr, range(sys.maxunicode + 1)))
    return _ALL_CHARACTERS


def _noncapturing(regex: str) -> str:
    """The expression with its capturing groups made non-capturing (the reader's groups are the named ones)."""
    out = []
    i = 0
    in_class = False
    while i < len(regex):
        char = regex[i]
        if char == "\\":
            out.append(regex[i : i + 2])
            i += 2
            continue
        if in_class:
            if char == "]" and not (out and out[-1] in ("[", "[^")):
                in_class = False
            out.append(char)
        elif char == "[":
            in_class = True
            if regex.startswith("[^", i):
                out.append("[^")
                i += 2
                if regex.startswith("]", i):  # a "]" first in a class is a character
                    out.append("]")
                    i += 1
                continue
            out.append(char)
            if regex.startswith("]", i + 1):
                out.append("]")
                i += 1
        elif char == "(" and not regex.startswith("(?", i):
            out.append("(?:")
        elif regex.startswith("(?P<", i):
            raise GrammarCompileError(f"a named group in a terminal: {regex}")
        else:
            out.append(char)
        i += 1
    result = "".join(out)
    if re.compile(result).groups:
        raise GrammarCompileError(f"capturing groups left in {result!r}")
    return result


def _parse(regex: str) -> Any:
    from re import _parser as p  # type: ignore[attr-defined]

    return p.parse(regex)


def _escape_char(code: int) -> str:
    char = chr(code)
    if char.isalnum() or char in " _":
        return char
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _first_alternatives(items: Any, flags: int) -> tuple[list[str], bool]:
    """The characters a parsed expression can start with, as one-character expressions (with their flags); and
    whether it can match the empty string. Zero-width assertions are passed over: the result may hold more
    characters than can start a match, never fewer."""
    from re import _constants as c  # type: ignore[attr-defined]

    firsts: list[str] = []

    def flagged(cls: str, at: int) -> str:
        return f"(?i:{cls})" if at & c.SRE_FLAG_IGNORECASE else cls

    for op, av in items:
        if op is c.LITERAL:
            return [*firsts, flagged(_escape_char(av), flags)], False
        if op is c.NOT_LITERAL:
            return [*firsts, flagged(f"[^{_escape_char(av)}]", flags)], False
        if op is c.ANY:
            return [*firsts, "(?s:.)" if flags & c.SRE_FLAG_DOTALL else "[^\\n]"], False
        if op is c.IN:
            parts = []
            negate = False
            for kind, value in av:
                if kind is c.NEGATE:
                    negate = True
                elif kind is c.LITERAL:
                    parts.append(_escape_char(value))
                elif kind is c.RANGE:
                    parts.append(f"{_escape_char(value[0])}-{_escape_char(value[1])}")
                elif kind is c.CATEGORY:
                    parts.append(_CATEGORIES[str(value)])
                else:
                    raise GrammarCompileError(f"a character class the compiler does not know: {kind}")
            return [*firsts, flagged(f"[{'^' if negate else ''}{''.join(parts)}]", flags)], False
        if op is c.BRANCH:
            nullable = False
            for branch in av[1]:
                more, empty = _first_alternatives(branch, flags)
                firsts.extend(more)
                nullable = nullable or empty
            if not nullable:
                return firsts, False
            continue
        if op is c.SUBPATTERN:
            _, add, remove, inner = av
            more, empty = _first_alternatives(inner, (flags | add) & ~remove)
            firsts.extend(more)
            if not empty:
                return firsts, False
            continue
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, _, inner = av
            more, empty = _first_alternatives(inner, flags)
            firsts.extend(more)
            if low > 0 and not empty:
                return firsts, False
            continue
        if op is c.ATOMIC_GROUP:
            more, empty = _first_alternatives(av, flags)
            firsts.extend(more)
            if not empty:
                return firsts, False
            continue
        if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
            continue
        raise GrammarCompileError(f"an expression the compiler does not know: {op}")
    return firsts, True


class _FirstCharacters:
    """The characters a terminal can start with: a set when it is small, else the expression that says so."""

    _LARGE = 200_000

    def __init__(self, regex: str) -> None:
        from re import _parser as p  # type: ignore[attr-defined]

        alternatives, _ = _first_alternatives(p.parse(regex), 0)
        self.pattern = re.compile("|".join(alternatives) or "(?!)")
        if any("^" in a or "." in a or "\\W" in a or "\\S" in a or "\\D" in a for a in alternatives):
            self.chars: frozenset[str] | None = None  # a negated class: most of Unicode
        else:
            found = frozenset(self.pattern.findall(_all_characters()))
            self.chars = found if len(found) < self._LARGE else None

    def overlaps(self, other: _FirstCharacters) -> bool:
        """Whether some character can start both terminals."""
        if self.chars is not None and other.chars is not None:
            return not self.chars.isdisjoint(other.chars)
        if self.chars is not None:
            return any(other.pattern.match(ch) for ch in self.chars)
        if other.chars is not None:
            return any(self.pattern.match(ch) for ch in other.chars)
        return True


_PREFIX = 4
"""How many characters of two terminals' matches are compared to tell whether both can match at one place."""

_char_sets: dict[str, frozenset[str] | None] = {}


def _char_set(pattern: str) -> frozenset[str] | None:
    """The characters a one-character expression matches; None for most of Unicode (a negated class)."""
    if pattern not in _char_sets:
        if "^" in pattern or "." in pattern or "\\W" in pattern or "\\S" in pattern or "\\D" in pattern:
            _char_sets[pattern] = None
        else:
            _char_sets[pattern] = frozenset(re.findall(pattern, _all_characters()))
    return _char_sets[pattern]


def _chars_meet(a: str, b: str) -> bool:
    """Whether two one-character expressions match a character in common."""
    set_a, set_b = _char_set(a), _char_set(b)
    if set_a is not None and set_b is not None:
        return not set_a.isdisjoint(set_b)
    if set_a is not None:
        return any(re.match(b, ch) for ch in set_a)
    if set_b is not None:
        return any(re.match(a, ch) for ch in set_b)
    return True


Starts = frozenset[tuple[tuple[str, ...], bool]]


def _starts(items: Any, flags: int) -> Starts:
    """The first characters of an expression's matches: each (up to _PREFIX one-character expressions, whether a
    match ends there); a sequence of _PREFIX characters stands for all the longer matches it begins. Zero-width
    assertions are passed over: there may be more sequences than matches, never fewer."""
    from re import _constants as c  # type: ignore[attr-defined]

    def flagged(cls: str, at: int) -> str:
        return f"(?i:{cls})" if at & c.SRE_FLAG_IGNORECASE else cls

    def join(left: Starts, right: Starts) -> Starts:
        joined = set()
        for seq, ended in left:
            if not ended:
                joined.add((seq, False))
                continue
            for more, done in right:
                whole = seq + more
                joined.add((whole[:_PREFIX], False) if len(whole) >= _PREFIX else (whole, done))
        return frozenset(joined)

    def single(pattern: str) -> Starts:
        return frozenset({((pattern,), _PREFIX > 1)})

    result: Starts = frozenset({((), True)})
    for op, av in items:
        if op is c.LITERAL:
            part = single(flagged(_escape_char(av), flags))
        elif op is c.NOT_LITERAL:
            part = single(flagged(f"[^{_escape_char(av)}]", flags))
        elif op is c.ANY:
            part = single("(?s:.)" if flags & c.SRE_FLAG_DOTALL else "[^\\n]")
        elif op is c.IN:
            (pattern,), _ = _first_alternatives([(op, av)], flags)
            part = single(pattern)
        elif op is c.BRANCH:
            part = frozenset().union(*(_starts(branch, flags) for branch in av[1]))
        elif op is c.SUBPATTERN:
            _, add, remove, inner = av
            part = _starts(inner, (flags | add) & ~remove)
        elif op is c.ATOMIC_GROUP:
            part = _starts(av, flags)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, high, inner = av
            once = _starts(inner, flags)
            current: Starts = frozenset({((), True)})
            gathered: set[tuple[tuple[str, ...], bool]] = set()
            for count in range(min(high, low + _PREFIX + 1) + 1):
                if count >= low:
                    gathered |= current
                current = join(current, once)
            part = frozenset(gathered)
        elif op in (c.ASSERT, c.ASSERT_NOT, c.AT):
            continue
        else:
            raise GrammarCompileError(f"an expression the compiler does not know: {op}")
        result = join(result, part)
    return result


def _atomic(regex: str) -> str:
    """A terminal's expression committed, as the lexer takes a token (no backtracking into it): ``(?>X)``, or, where
    X is one greedy repetition (``_NL``'s ``(?:\\r?\\n[\\t \\f]*)+``), X made possessive, which ``re`` documents as the
    same (``X++`` is ``(?>X+)``) and runs faster (a line break ends every statement)."""
    from re import _constants, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(regex, 0)
    if len(parsed) == 1 and parsed[0][0] is _constants.MAX_REPEAT and regex[-1] in "*+?}":
        return regex + "+"
    return f"(?>{regex})"


def _can_meet(a: Starts, b: Starts) -> bool:
    """Whether two terminals can both match at one place: some start of each agrees with the other's."""
    for seq_a, _ in a:
        for seq_b, _ in b:
            if all(_chars_meet(x, y) for x, y in zip(seq_a, seq_b, strict=False)):
                return True
    return False


@dataclass
class _Terminal:
    name: str
    regex: str
    literal: str | None
    """The string of a terminal written as a string (``":"``), else None."""
    key: tuple[Any, ...]
    """Lark's lexer tries the terminals in this order (lark/lexer.py BasicLexer)."""
    kept: bool
    """Whether the tree keeps its tokens (Lark filters out anonymous strings and names starting with ``_``)."""
    first: _FirstCharacters
    starts: Starts
    """The first characters of its matches (see _starts)."""


# --- the parser ------------------------------------------------------------------------------------------------

Stack = tuple[int, ...]


class _Grammar:
    """Lark's reading of the grammar: its terminals, its rules' EBNF and its LALR parse table."""

    def __init__(self, text: str) -> None:
        import lark
        from lark.grammar import Terminal as TerminalSymbol
        from lark.lexer import PatternStr, _create_unless
        from lark.load_grammar import GrammarBuilder
        from lark.parsers.lalr_analysis import Shift

        self.text = text
        self.lark = lark.Lark(text, parser="lalr", lexer="contextual", maybe_placeholders=False)
        builder = GrammarBuilder()
        builder.load_grammar(text, "bezique")
        self.definitions = {str(name): d for name, d in builder._definitions.items()}
        self.shift = Shift
        table = self.lark.parser.parser.parser.parse_table
        self.states: dict[int, dict[str, tuple[Any, Any]]] = table.states
        self.start: int = table.start_states["start"]
        self.end_state: int = table.end_states["start"]
        self.ignore = list(self.lark.lexer_conf.ignore)
        filtered: dict[str, bool] = {}
        for rule in self.lark.rules:
            for symbol in rule.expansion:
                if isinstance(symbol, TerminalSymbol):
                    previous = filtered.setdefault(symbol.name, symbol.filter_out)
                    if previous != symbol.filter_out:
                        raise GrammarCompileError(f"{symbol.name} is kept in some rules and not in others")
        self.terminals: dict[str, _Terminal] = {}
        for t in self.lark.terminals:
            literal = t.pattern.value if isinstance(t.pattern, PatternStr) else None
            regex = re.escape(literal) if literal is not None and not t.pattern.flags else t.pattern.to_regexp()
            self.terminals[t.name] = _Terminal(
                t.name,
                _noncapturing(regex),
                literal,
                (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
                not filtered.get(t.name, True) and not t.name.startswith("_") and t.name not in self.ignore,
                _FirstCharacters(t.pattern.to_regexp()),
                _starts(_parse(t.pattern.to_regexp()), 0),
            )
        self.literals = {t.literal: t.name for t in self.terminals.values() if t.literal is not None}
        # Lark's lexer retypes a string matched whole by a regular expression terminal of the same priority
        # (lark/lexer.py _create_unless); the tables do not reproduce that, so no lexer of the grammar may do it.
        for accepts in {frozenset(self.context_names(s)) for s in self.states}:
            defs = [t for t in self.lark.terminals if t.name in accepts]
            _, callbacks = _create_unless(defs, 0, re, False)
            if callbacks:
                raise GrammarCompileError(f"a lexer state retypes strings ({sorted(callbacks)}): not supported")
        self._contexts: dict[int, list[str]] = {}
        self._meet: dict[tuple[str, str], bool] = {}

    def context_names(self, state: int) -> list[str]:
        """The terminals the contextual lexer tries in a parser state, in its order (ignored ones included)."""
        names = [n for n in self.states[state] if n in self.terminals] + self.ignore
        return sorted(set(names), key=lambda n: self.terminals[n].key)

    def context(self, state: int) -> list[str]:
        if state not in self._contexts:
            self._contexts[state] = self.context_names(state)
        return self._contexts[state]

    def feed(self, stack: Stack, terminal: str) -> tuple[Stack | None, list[Any]]:
        """The parser's stack after a token (None when the parser rejects it), and the rules it reduced."""
        work = list(stack)
        reduced: list[Any] = []
        while True:
            actions = self.states[work[-1]]
            if terminal not in actions:
                return None, reduced
            action, arg = actions[terminal]
            if action is self.shift:
                work.append(arg)
                return tuple(work), reduced
            size = len(arg.expansion)
            if size:
                del work[-size:]
            reduced.append(arg)
            _, state = self.states[work[-1]][arg.origin.name]
            work.append(state)
            if terminal == _END and state == self.end_state:
                return tuple(work), reduced

    def statement_starts(self) -> frozenset[Stack]:
        """Every parser stack a statement can start from: the file's start, after a blank start, after a
        statement and its line break (found by running every statement rule through the parser)."""
        starts: set[Stack] = {(self.start,)}
        after_blank, _ = self.feed((self.start,), _NEWLINE)
        if after_blank is None:
            raise GrammarCompileError("a record cannot start with a line break")
        starts.add(after_blank)
        seen: set[Stack] = set()
        todo = list(starts)
        while todo:
            stack = todo.pop()
            if stack in seen:
                continue
            seen.add(stack)
            if len(stack) > 40:
                raise GrammarCompileError("the parser's stack grows without bound inside a statement")
            for name in self.context(stack[-1]):
                if name in self.ignore:
                    continue
                after, _ = self.feed(stack, name)
                if after is None:
                    continue
                if name == _NEWLINE:
                    starts.add(after)
                todo.append(after)
        return frozenset(starts)

    def guards(self, stack: Stack, name: str) -> tuple[str, ...]:
        """The terminals the lexer tries before ``name`` in this stack's state that can match where it starts."""
        order = self.context(stack[-1])
        if name not in order:
            raise GrammarCompileError(f"{name} is not allowed by the parser where the grammar puts it")
        return tuple(e for e in order[: order.index(name)] if self.meet(e, name))

    def meet(self, a: str, b: str) -> bool:
        """Whether two terminals can both match at one place (so the one tried first must be ruled out)."""
        key = (a, b) if a < b else (b, a)
        if key not in self._meet:
            first_a, first_b = self.terminals[a].first, self.terminals[b].first
            self._meet[key] = first_a.overlaps(first_b) and _can_meet(
                self.terminals[a].starts, self.terminals[b].starts
            )
        return self._meet[key]


# --- the expressions -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    name: str


@dataclass(frozen=True)
class _Seq:
    items: tuple[Any, ...]


@dataclass(frozen=True)
class _Alt:
    options: tuple[Any, ...]


@dataclass(frozen=True)
class _Opt:
    item: Any


@dataclass(frozen=True)
class _Star:
    item: Any
    unroll: int
    """Iterations still to unroll into groups of their own before the region."""


@dataclass(frozen=True)
class _Ref:
    rule: str


@dataclass(frozen=True)
class _Scope:
    """A rule written in place: the items after it are named with its prefix (``play1_``)."""

    item: Any
    prefix: str


@dataclass
class _Entry:
    """A named group of an expression: a token (``type``) or a region read by an element (``element``)."""

    name: str
    type: str | None = None
    element: str | None = None

    @property
    def target(self) -> str:
        """The token's terminal, or the region's element."""
        target = self.type if self.element is None else self.element
        assert target is not None
        return target


@dataclass
class _Pattern:
    """An expression and its named groups, in order."""

    key: str
    regex: str = ""
    entries: list[_Entry] = field(default_factory=list)


class _Inconsistent(GrammarCompileError):
    """Two parser states with different lexers at one place of an expression (the place is then split)."""


class _Names:
    """The names of an expression's groups: ``play1_SEAT`` is the seat of the first play."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.counts: dict[tuple[str, str], int] = {}

    def unique(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self.used:
            n += 1
            candidate = f"{name}_{n}"
        self.used.add(candidate)
        return candidate

    def rule(self, prefix: str, name: str) -> str:
        n = self.counts[(prefix, name)] = self.counts.get((prefix, name), 0) + 1
        return f"{prefix}{name}{n}_"

    def state(self) -> tuple[set[str], dict[tuple[str, str], int]]:
        return set(self.used), dict(self.counts)

    def restore(self, state: tuple[set[str], dict[tuple[str, str], int]]) -> None:
        self.used, self.counts = set(state[0]), dict(state[1])


class _Writer:
    """Writes one expression (a statement's or an element's) and registers its groups."""

    def __init__(
        self, compiler: _Compiler, pattern: _Pattern, rule: str, capture: bool = True, lean: bool = False
    ) -> None:
        self.c = compiler
        self.pattern = pattern
        self.rule = rule
        self.names = _Names()
        self.capture = capture
        self.lean = lean
        """Every repetition (after its unrolled iterations) read no time: the statement's common shape."""
        self.ends: list[str] = []

    def snapshot(self) -> tuple[Any, ...]:
        return self.names.state(), len(self.pattern.entries), dict(self.c.elements), len(self.ends)

    def rollback(self, snapshot: tuple[Any, ...]) -> None:
        names, entries, elements, ends = snapshot
        self.names.restore(names)
        del self.pattern.entries[entries:]
        del self.ends[ends:]
        self.c.elements.clear()
        self.c.elements.update(elements)

    def group(self, prefix: str, name: str) -> str | None:
        """The name of a token's group, or None where the token is not captured."""
        if not self.capture or not self.c.g.terminals[name].kept:
            return None
        return self.names.unique(prefix + name)

    # A part of an expression on its own, from a set of parser stacks: (its expression, the stacks after it).
    # Raises _Inconsistent when one place of it sees different lexers.

    def part(self, node: Any, stacks: frozenset[Stack], prefix: str) -> tuple[str, frozenset[Stack]]:
        if isinstance(node, _Tok):
            group = self.group(prefix, node.name)
            regex, after = self.c.token(node.name, stacks, self.rule, group)
            if group is not None:
                self.pattern.entries.append(_Entry(group, type=node.name))
            return regex, after
        if isinstance(node, _Seq):
            regex = ""
            for item in node.items:
                piece, stacks = self.part(item, stacks, prefix)
                regex += piece
            return regex, stacks
        if isinstance(node, _Alt):
            parts: list[str] = []
            joined: set[Stack] = set()
            for option in node.options:
                piece, out = self.part(option, stacks, prefix)
                parts.append(piece)
                joined |= out
            return (parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"), frozenset(joined)
        if isinstance(node, _Opt):
            piece, out = self.part(node.item, stacks, prefix)
            return f"(?:{piece})?", stacks | out
        if isinstance(node, _Star):
            if node.unroll and self.capture:
                return self.part(_Opt(_Seq((node.item, _Star(node.item, node.unroll - 1)))), stacks, prefix)
            if self.lean:
                return self.empty_region(node, stacks, prefix)
            return self.region(node, stacks, prefix)
        if isinstance(node, _Ref):
            inner = self.names.rule(prefix, node.rule) if self.capture else prefix
            return self.part(self.c.rules[node.rule], stacks, inner)
        if isinstance(node, _Scope):
            return self.part(node.item, stacks, node.prefix)
        raise GrammarCompileError(f"{self.rule}: {node!r}")

    def empty_region(self, node: _Star, stacks: frozenset[Stack], prefix: str) -> tuple[str, frozenset[Stack]]:
        """A repetition read no time (a statement's common shape): an empty group named as :meth:`region` names the
        region, so that the statement's groups are laid out as in its own expression."""
        if not self.capture:
            return "", stacks
        group = self.names.unique(f"{prefix}{self.c.label(node.item)}_rep")
        self.pattern.entries.append(_Entry(group, element=f"{self.pattern.key}.{group}"))
        return f"(?P<{group}>)", stacks

    def region(self, node: _Star, stacks: frozenset[Stack], prefix: str) -> tuple[str, frozenset[Stack]]:
        """A repetition read as a region: the parser stacks of any iteration's start, found by running the
        repeated part until they repeat, must all see the same lexers."""
        loop = set(stacks)
        for _ in range(50):
            dry = _Writer(self.c, _Pattern("(dry run)"), self.rule, capture=False)
            _, out = dry.part(node.item, frozenset(loop), prefix)
            if out <= loop:
                break
            loop |= out
        else:
            raise GrammarCompileError(f"{self.rule}: a repetition's parser states do not settle")
        heads = frozenset(loop)
        body, out = _Writer(self.c, _Pattern("(body)"), self.rule, capture=False).part(node.item, heads, prefix)
        after = heads | out
        if not self.capture:
            return f"(?:{body})*", after
        label = self.c.label(node.item)
        group = self.names.unique(f"{prefix}{label}_rep")
        key = f"{self.pattern.key}.{group}"
        element = _Pattern(key)
        writer = _Writer(self.c, element, self.rule)
        element.regex, _ = writer.part(node.item, heads, "")
        self.c.elements[key] = element
        self.pattern.entries.append(_Entry(group, element=key))
        return f"(?P<{group}>(?:{body})*)", after

    # A sequence to the end of the statement: where a part cannot be written on its own (its places see different
    # lexers depending on the way in), the rest of the statement is written after each way in separately.

    def rest(self, frames: tuple[_Scope, ...], stacks: frozenset[Stack]) -> str:
        if not frames:
            self.ends.append(self.c.end(stacks, self.rule))
            return _END_MARK
        head, more = frames[0], frames[1:]
        node, prefix = head.item, head.prefix
        if isinstance(node, _Seq):
            return self.rest(tuple(_Scope(i, prefix) for i in node.items) + more, stacks)
        if isinstance(node, _Scope):
            return self.rest((node, *more), stacks)
        if isinstance(node, _Ref):
            inner = self.names.rule(prefix, node.rule)
            return self.rest((_Scope(self.c.rules[node.rule], inner), *more), stacks)
        if isinstance(node, _Tok):
            regex, after = self.part(node, stacks, prefix)
            return regex + self.rest(more, after)
        snapshot = self.snapshot()
        try:
            regex, after = self.part(node, stacks, prefix)
            return regex + self.rest(more, after)
        except _Inconsistent:
            self.rollback(snapshot)
        if isinstance(node, _Alt):
            ways = [self.rest((_Scope(o, prefix), *more), stacks) for o in node.options]
        elif isinstance(node, _Opt):
            ways = [self.rest((_Scope(node.item, prefix), *more), stacks), self.rest(more, stacks)]
        elif isinstance(node, _Star):
            peeled = _Star(node.item, max(node.unroll - 1, 0))
            ways = [
                self.rest((_Scope(node.item, prefix), _Scope(peeled, prefix), *more), stacks),
                self.rest(more, stacks),
            ]
        else:
            raise GrammarCompileError(f"{self.rule}: {node!r}")
        return f"(?:{'|'.join(ways)})"


class _Compiler:
    """Writes the expressions of the statement rules."""

    def __init__(self, grammar: _Grammar) -> None:
        self.g = grammar
        self.starts = grammar.statement_starts()
        self.elements: dict[str, _Pattern] = {}
        if len(grammar.ignore) > 1:
            raise GrammarCompileError("more than one %ignore terminal")
        self.ignore = grammar.ignore[0] if grammar.ignore else None
        self.rules: dict[str, Any] = {
            name: self.ast(d.tree, name) for name, d in grammar.definitions.items() if not d.is_term
        }

    def ast(self, node: Any, rule: str) -> Any:
        """Lark's EBNF tree of a rule as the compiler's own nodes (repetitions marked with their unrolling)."""
        from lark import Token, Tree
        from lark.grammar import NonTerminal, Terminal

        if isinstance(node, Tree) and node.data == "expansions":
            options = tuple(self.ast(c, rule) for c in node.children)
            return options[0] if len(options) == 1 else _Alt(options)
        if isinstance(node, Tree) and node.data == "alias":
            return self.ast(node.children[0], rule)
        if isinstance(node, Tree) and node.data == "expansion":
            items = tuple(self.ast(c, rule) for c in node.children)
            return items[0] if len(items) == 1 else _Seq(items)
        if isinstance(node, Tree) and node.data == "value":
            (item,) = node.children
            if isinstance(item, Terminal):
                return _Tok(item.name)
            if isinstance(item, NonTerminal):
                return _Ref(str(item.name))
            if isinstance(item, Tree) and item.data == "literal":
                token: Any = item.children[0]
                if token.type != "STRING" or "\\" in token.value or not token.value.endswith('"'):
                    raise GrammarCompileError(f"{rule}: the literal {token.value} is not supported")
                return _Tok(self.g.literals[token.value[1:-1]])
        if isinstance(node, Tree) and node.data == "expr":
            item, op = node.children
            if not isinstance(op, Token) or op.type != "OP" or op.value not in ("?", "*", "+"):
                raise GrammarCompileError(f"{rule}: the repetition {op!r} is not supported")
            inner = self.ast(item, rule)
            if op.value == "?":
                return _Opt(inner)
            star = _Star(inner, 0)
            return _Seq((inner, star)) if op.value == "+" else star
        if isinstance(node, Tree) and node.data == "maybe":
            return _Opt(self.ast(node.children[0], rule))
        raise GrammarCompileError(f"{rule}: {node!r} is not supported")

    def unrolled(self, node: Any, rule: str) -> Any:
        """The statement's tree with the repetitions of _UNROLL marked to unroll."""
        if isinstance(node, _Star):
            count = _UNROLL.get((rule, self.label(node.item)), 0)
            return _Star(self.unrolled(node.item, rule), count)
        if isinstance(node, _Seq):
            return _Seq(tuple(self.unrolled(i, rule) for i in node.items))
        if isinstance(node, _Alt):
            return _Alt(tuple(self.unrolled(i, rule) for i in node.options))
        if isinstance(node, _Opt):
            return _Opt(self.unrolled(node.item, rule))
        return node

    def label(self, node: Any) -> str:
        """What a repeated part is called: the first rule or kept terminal in it."""
        if isinstance(node, _Ref):
            return node.rule
        if isinstance(node, _Tok) and self.g.terminals[node.name].kept:
            return node.name
        children: tuple[Any, ...] = ()
        if isinstance(node, _Seq):
            children = node.items
        elif isinstance(node, _Alt):
            children = node.options
        elif isinstance(node, (_Opt, _Star, _Scope)):
            children = (node.item,)
        for child in children:
            try:
                return self.label(child)
            except GrammarCompileError:
                continue
        raise GrammarCompileError(f"a repetition without a rule or a kept token: {node!r}")

    # The regular expression of one token at a set of parser stacks: the blanks the lexer ignores before it, the
    # lookaheads for the terminals tried before it, and the terminal's own expression, committed.

    def same(self, values: Iterable[Any], what: str) -> Any:
        found = set(values)
        if len(found) != 1:
            raise _Inconsistent(f"{what}: the lexer differs between the parser states ({sorted(found)})")
        return found.pop()

    def lookaheads(self, names: Iterable[str]) -> str:
        return "".join(f"(?!{self.g.terminals[n].regex})" for n in names)

    def blanks(self, stacks: frozenset[Stack], where: str) -> str:
        """The ignored blanks allowed before a token (none at a statement's start: the line break took them)."""
        if self.ignore is None or stacks <= self.starts:
            return ""
        if stacks & self.starts:
            raise GrammarCompileError(f"{where}: a statement's start mixed with its middle")
        guards = self.same((self.g.guards(s, self.ignore) for s in stacks), f"{where}: blanks")
        if not guards:
            return self.ignored()
        return f"(?:{self.lookaheads(guards)}{_atomic(self.g.terminals[self.ignore].regex)})?"

    def ignored(self) -> str:
        """The blanks, taken whole or not at all: ``[...]*+`` for a class repeated, as ``%ignore`` usually is (the
        same as an optional atomic group, and faster)."""
        assert self.ignore is not None
        regex = self.g.terminals[self.ignore].regex
        if re.fullmatch(r"\[[^\]\\]+\]\+", regex):
            return regex[:-1] + "*+"
        return f"(?:{_atomic(regex)})?"

    def token(self, name: str, stacks: frozenset[Stack], where: str, group: str | None) -> tuple[str, frozenset[Stack]]:
        terminal = self.g.terminals[name]
        guards = self.same((self.g.guards(s, name) for s in stacks), f"{where}: {name}")
        after = set()
        for stack in stacks:
            next_stack, _ = self.g.feed(stack, name)
            if next_stack is None:
                raise GrammarCompileError(f"{where}: the parser rejects {name} where the grammar puts it")
            after.add(next_stack)
        body = terminal.regex if terminal.literal is not None else _atomic(terminal.regex)
        if group is not None:
            body = f"(?P<{group}>{body})"
        return self.blanks(stacks, where) + self.lookaheads(guards) + body, frozenset(after)

    def end(self, stacks: frozenset[Stack], rule: str) -> str:
        """Where a statement ends: the blanks and the line break (or the end of the text) that the lexer reads
        next, as the group ``nl``."""
        for stack in stacks:
            after, reduced = self.g.feed(stack, _NEWLINE)
            made = {r.alias or r.origin.name for r in reduced}
            if after is None or rule not in made:
                raise GrammarCompileError(f"{rule}: a line break does not end the statement where the rule does")
            done, _ = self.g.feed(stack, _END)
            if done is None:
                raise GrammarCompileError(f"{rule}: the text cannot end where the rule does")
        guards = self.same((self.g.guards(s, _NEWLINE) for s in stacks), f"{rule}: the line break")
        newline = self.g.terminals[_NEWLINE].regex
        return f"{self.blanks(stacks, rule)}(?:{self.lookaheads(guards)}{_atomic(newline)}|\\Z)"

    def ends(self, regex: str, ends: list[str]) -> str:
        """A statement's expression with its ends (marked by ``_END_MARK``) written in: one group ``nl`` at the end
        when every way through the statement ends alike, else a lookahead at each end and a group that takes the
        blanks and the line break it allowed."""
        if len(set(ends)) == 1:
            return regex.replace(_END_MARK, "") + f"(?P<nl>{ends[0]})"
        for end in ends:
            regex = regex.replace(_END_MARK, f"(?={end})", 1)
        newline = self.g.terminals[_NEWLINE].regex
        blanks = self.ignored() if self.ignore is not None else ""
        return regex + f"(?P<nl>{blanks}(?:{_atomic(newline)})?)"

    def statements(self) -> list[_Pattern]:
        """Every statement rule's expansions, keyed by the name of the tree Lark makes (its alias, if any)."""
        from lark import Tree
        from lark.grammar import NonTerminal

        found: list[_Pattern] = []
        for alternative in self.g.definitions[_STATEMENTS].tree.children:
            (value,) = alternative.children
            (item,) = value.children
            if not isinstance(item, NonTerminal):
                raise GrammarCompileError(f"_statement holds {item!r}, not a rule")
            rule = str(item.name)
            for expansion in self.g.definitions[rule].tree.children:
                key = rule
                if isinstance(expansion, Tree) and expansion.data == "alias":
                    alias: Any = expansion.children[1]
                    key = str(alias.name)
                if any(key == p.key for p in found):
                    raise GrammarCompileError(f"{rule} has two expansions without an alias")
                pattern = _Pattern(key)
                writer = _Writer(self, pattern, key)
                tree = self.unrolled(self.ast(expansion, rule), key)
                regex = writer.rest((_Scope(tree, ""),), self.starts)
                pattern.regex = self.ends(regex, writer.ends)
                if _group_names(pattern.regex) != (*(e.name for e in pattern.entries), "nl"):
                    raise GrammarCompileError(f"{key}: its groups are not its layout's, then nl")
                found.append(pattern)
        return found

    def lean(self, rule: str) -> str:
        """A statement's expression in its common shape: each repetition read no time after the iterations it
        unrolls (its region an empty group, named as in the statement's expression). It matches a part of what the
        statement's expression matches, in the same way: that expression reads a text in one way only (the grammar
        is unambiguous, the lexer's choices are fixed), and this one is that expression with some of its ways out;
        its groups are that expression's, in the same order."""
        from lark import Tree

        expansions = [
            e for e in self.g.definitions[rule].tree.children if not (isinstance(e, Tree) and e.data == "alias")
        ]
        if len(expansions) != 1:
            raise GrammarCompileError(f"{rule}: a block's statement has one expansion without an alias")
        pattern = _Pattern(rule)
        writer = _Writer(self, pattern, rule, lean=True)
        tree = self.unrolled(self.ast(expansions[0], rule), rule)
        regex = writer.rest((_Scope(tree, ""),), self.starts)
        return self.ends(regex, writer.ends)

    def prelude(self) -> str:
        """The blanks and blank lines at the start of a record."""
        start = frozenset({(self.g.start,)})
        after, _ = self.g.feed((self.g.start,), _NEWLINE)
        assert after is not None
        regex = ""
        if self.ignore is not None:
            guards = self.same((self.g.guards(s, self.ignore) for s in start), "the start: blanks")
            regex = f"(?:{self.lookaheads(guards)}{_atomic(self.g.terminals[self.ignore].regex)})?"
        guards = self.same((self.g.guards(s, _NEWLINE) for s in start), "the start: a line break")
        return regex + f"(?:{self.lookaheads(guards)}{_atomic(self.g.terminals[_NEWLINE].regex)})?"

    def dispatch(self, statements: list[_Pattern]) -> dict[str, tuple[str, ...]]:
        """For each character a statement can start with, the statements to try, the commonest first."""
        firsts: dict[str, set[str]] = {}
        for pattern in statements:
            firsts[pattern.key] = set()
        for stack in self.starts:
            for name in self.g.context(stack[-1]):
                if name in self.g.ignore or name == _NEWLINE:
                    continue
                after, _ = self.g.feed(stack, name)
                if after is None:
                    continue
                chars = self.g.terminals[name].first.chars
                if chars is None:
                    raise GrammarCompileError(f"a statement may start with {name}, which starts with most characters")
                for key in self.rules_from(after) & firsts.keys():
                    firsts[key] |= chars
        order = [k for k in _FREQUENT if k in firsts] + [p.key for p in statements if p.key not in _FREQUENT]
        table: dict[str, list[str]] = {}
        for key in order:
            for char in sorted(firsts[key]):
                table.setdefault(char, []).append(key)
        return {char: tuple(keys) for char, keys in sorted(table.items())}

    def rules_from(self, stack: Stack) -> set[str]:
        """The statements that can end in some line reached from this stack."""
        seen: set[Stack] = set()
        todo = [stack]
        rules: set[str] = set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            for name in self.g.context(current[-1]):
                if name in self.g.ignore:
                    continue
                after, reduced = self.g.feed(current, name)
                if after is None:
                    continue
                if name == _NEWLINE:
                    rules |= {r.alias or r.origin.name for r in reduced}
                else:
                    todo.append(after)
        return rules


# --- the module ------------------------------------------------------------------------------------------------


def _string(value: str) -> str:
    """A Python string literal for the generated module, quoted as ruff format quotes it (double quotes unless
    single ones need fewer escapes), its control characters escaped."""
    quote = "'" if value.count('"') > value.count("'") else '"'
    out = []
    for char in value:
        if char in ("\\", quote):
            out.append("\\" + char)
        elif not char.isprintable() and char != " ":
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(char)
    return quote + "".join(out) + quote


def _pieces(value: str, width: int) -> list[str]:
    """The string cut into literals of at most ``width`` characters."""
    pieces: list[str] = []
    piece = ""
    for char in value:
        if piece and len(_string(piece + char)) > width:
            pieces.append(_string(piece))
            piece = ""
        piece += char
    return [*pieces, _string(piece)]


def _assignment(lines: list[str], head: str, value: str, indent: int = 0, suffix: str = "") -> None:
    """``head`` (``NAME = `` or ``"key": ``) and a string, on one line or in parentheses (as ruff format does)."""
    pad = " " * indent
    if len(pad + head + _string(value) + suffix) <= 120:
        lines.append(pad + head + _string(value) + suffix)
        return
    lines.append(pad + head + "(")
    lines.extend(pad + "    " + p for p in _pieces(value, 120 - indent - 4))
    lines.append(pad + ")" + suffix)


def _blocks(compiler: _Compiler, statements: list[_Pattern]) -> dict[str, str]:
    """The expressions of _BLOCKS: each statement's in its common shape, one after the other (a statement's
    expression ends where the next statement starts), its groups' names prefixed: each statement's groups are
    those of its own expression, in the same order."""
    blocks = {}
    own = {pattern.key: pattern.regex for pattern in statements}
    for key, parts in _BLOCKS.items():
        pieces = []
        expected: list[str] = []
        for index, (rule, prefix) in enumerate(parts):
            regex = compiler.lean(rule).replace("(?P<", f"(?P<{prefix}")
            pieces.append(regex if index == 0 else f"(?:{regex})?")
            expected.extend(prefix + name for name in _group_names(own[rule]))
        blocks[key] = "".join(pieces)
        if re.compile(blocks[key]).groups != len(re.compile(blocks[key]).groupindex):
            raise GrammarCompileError(f"{key}: a group that is not named")
        if _group_names(blocks[key]) != tuple(expected):
            raise GrammarCompileError(f"{key}: its statements' groups are not laid out as in their own expressions")
    return blocks


def _group_names(regex: str) -> tuple[str, ...]:
    """The names of an expression's groups, in the order of their numbers."""
    index = re.compile(regex).groupindex
    return tuple(sorted(index, key=index.__getitem__))


def generate(text: str | None = None) -> str:
    """The source of replayer/grammar_tables.py for the grammar ``text`` (the grammar file's when None)."""
    if text is None:
        text = grammar_path().read_text(encoding="utf-8")
    compiler = _Compiler(_Grammar(text))
    statements = compiler.statements()
    dispatch = compiler.dispatch(statements)
    lines = [
        '"""The tables of the runtime reader (replayer/reader.py): generated by python -m replayer.grammar_compiler',
        "from grammar/bezique.lark; do not edit (tests/test_reader.py fails while they are stale).",
        "",
        "STATEMENTS: for each statement rule (``unordered_trick`` for the trick's second expansion), the regular",
        "expression of one statement, from its first character to the blanks and line break after it (group ``nl``).",
        "ELEMENTS: the expressions of the repeated parts, matched one after another over their region. LAYOUT: the",
        "named groups of each expression in order, each (name, terminal or element, whether a region): a token's",
        "terminal, or the key of the element that reads a region. PRELUDE: the blanks and blank lines at a record's",
        "start. DISPATCH: the statements a line starting with a character may be, to try in this order. BLOCKS:",
        "statements that usually follow one another (a trick, its draws, the score), read with one match in their",
        "common shape (each statement's expression with its repetitions read no time, each region an empty group):",
        "the first statement, then the others (optional), each with its own expression's groups in the same order,",
        "their names prefixed (``t_``, ``d_``, ``s_``). TERMINALS: every terminal of the grammar in the order Lark's",
        "lexer tries them, each (its regular expression, its priority): what the Pygments lexer",
        "(replayer/highlight.py) colours.",
        '"""',
        "",
        f"GRAMMAR_SHA256 = {_string(grammar_sha256(text))}",
        "",
    ]
    _assignment(lines, "PRELUDE = ", compiler.prelude())
    lines.append("")
    for name, patterns in (("STATEMENTS", statements), ("ELEMENTS", list(compiler.elements.values()))):
        lines.append(f"{name}: dict[str, str] = {{")
        for pattern in patterns:
            _assignment(lines, f"{_string(pattern.key)}: ", pattern.regex, 4, ",")
        lines.extend(["}", ""])
    lines.append("BLOCKS: dict[str, str] = {")
    for key, block in _blocks(compiler, statements).items():
        _assignment(lines, f"{_string(key)}: ", block, 4, ",")
    lines.extend(["}", ""])
    lines.append("LAYOUT: dict[str, tuple[tuple[str, str, bool], ...]] = {")
    for pattern in [*statements, *compiler.elements.values()]:
        rows = [f"({_string(e.name)}, {_string(e.target)}, {e.element is not None})" for e in pattern.entries]
        one_line = f"    {_string(pattern.key)}: ({rows[0]},)," if len(rows) == 1 else ""
        if len(rows) == 1 and len(one_line) <= 120:
            lines.append(one_line)
        else:
            lines.extend([f"    {_string(pattern.key)}: (", *(f"        {r}," for r in rows), "    ),"])
    lines.extend(["}", ""])
    lines.append("TERMINALS: dict[str, tuple[str, int]] = {")
    for terminal in sorted(compiler.g.lark.terminals, key=lambda t: compiler.g.terminals[t.name].key):
        regex, priority = terminal.pattern.to_regexp(), terminal.priority
        one_line = f"    {_string(terminal.name)}: ({_string(regex)}, {priority}),"
        if len(one_line) <= 120:
            lines.append(one_line)
        else:
            lines.append(f"    {_string(terminal.name)}: (")
            _assignment(lines, "", regex, 8, ",")
            lines.extend([f"        {priority},", "    ),"])
    lines.extend(["}", ""])
    lines.append("DISPATCH: dict[str, tuple[str, ...]] = {")
    for char, keys in dispatch.items():
        names = [_string(k) for k in keys]
        one_line = f"    {_string(char)}: ({', '.join(names)}{',' if len(keys) == 1 else ''}),"
        if len(one_line) <= 120:
            lines.append(one_line)
        else:
            lines.extend([f"    {_string(char)}: (", *(f"        {n}," for n in names), "    ),"])
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Write replayer/grammar_tables.py from the grammar."""
    tables_path().write_text(generate(), encoding="utf-8")
    print(f"wrote {tables_path()}")


if __name__ == "__main__":
    main()
