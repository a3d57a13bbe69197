"""Writing a completed record: the input's text with every unknown card filled in (``bezique infer``).

The output is the input itself, edited in place: a pattern such as ``Q?`` becomes the inferred card, a hand,
draws or a declaration's cards that the record left out are added as new statements, and every card that the
record leaves open (more than one completion exists) gets a comment naming the alternatives. The result is then
put in the canonical form (``bezique fmt``), so that ``fmt --check`` passes on what ``infer`` writes: the input's
comments are kept, its spacing made canonical.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from . import writer as write
from .cards import Card, CardPattern
from .infer import Inference
from .record import Deal, Declare, Draws, Exchange, Record, Trick
from .replay import DealResult, ReplayResult

__all__ = ["completed_text"]


class _Editor:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.replacements: list[tuple[int, int, int, str]] = []
        self.insertions: list[tuple[int, str]] = []
        self.notes: dict[int, list[str]] = {}

    def replace(self, line: int, column: int, length: int, new: str) -> None:
        self.replacements.append((line, column, length, new))

    def insert_after(self, line: int, new: str) -> None:
        self.insertions.append((line, new))

    def note(self, line: int, text: str) -> None:
        self.notes.setdefault(line, []).append(text)

    def statement_end(self, line: int) -> int:
        """The last line of the statement starting at ``line``, with any comment that opens on it."""
        depth = 0
        for k in range(line - 1, len(self.lines)):
            for ch in self.lines[k]:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
            if depth <= 0:
                return k + 1
        return line

    def text(self) -> str:
        lines = list(self.lines)
        for line, column, length, new in sorted(self.replacements, reverse=True):
            row = lines[line - 1]
            lines[line - 1] = row[: column - 1] + new + row[column - 1 + length :]
        for line, notes in self.notes.items():
            row = lines[line - 1]
            cut = row.rfind("{")
            opened = cut > row.rfind("}")
            comment = write.comment("inferred: " + "; ".join(notes))
            if opened and not row.startswith("{?", cut):
                # A comment that goes on over the next lines: the note goes just before it.
                lines[line - 1] = row[:cut] + comment + " " + row[cut:]
            elif opened:
                # A question over several lines stands before a play, inside the statement: the note goes after
                # the statement's last line.
                end = self.statement_end(line)
                lines[end - 1] = lines[end - 1].rstrip() + "  " + comment
            else:
                lines[line - 1] = row.rstrip() + "  " + comment
        # (the last first, so that earlier lines keep their numbers; two after one line in the order given)
        for _, line, new in sorted(
            ((i, line, new) for i, (line, new) in enumerate(self.insertions)), key=lambda x: (x[1], x[0]), reverse=True
        ):
            lines.insert(line, new)
        return "\n".join(lines)


def _in_order(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


def _alternatives(inference: Inference, tag: int, value: Card) -> list[Card]:
    others = inference.possible.get(tag, set()) - {value}
    return sorted(others, key=lambda c: c.sort_key)


def _describe(seat: str, value: Card, alternatives: list[Card]) -> str:
    return f"{seat} {value} (or {write.cards_text(alternatives)})"


def _patch_deal(editor: _Editor, original: Deal, inference: Inference, replayed: DealResult) -> None:
    completed = inference.deal
    assert completed is not None
    by_span = {(u.span.line, u.span.column): u for u in inference.unknowns if u.span is not None}

    def token(span: object, seat: str, value: Card, note_line: int) -> None:
        if span is None:
            return
        unknown = by_span.get((span.line, span.column))  # type: ignore[attr-defined]
        editor.replace(span.line, span.column, span.length, str(value))  # type: ignore[attr-defined]
        if unknown is not None and inference.analysed:
            alternatives = _alternatives(inference, unknown.tag, value)
            if alternatives:
                editor.note(note_line, _describe(seat, value, alternatives))

    last_header = max([s.line for s in original.spans.values()] + [original.span.line])
    seats = list(replayed.hands)  # (in the profile's order of seats)
    for seat, cards in completed.hands.items():
        if seat not in original.hands:
            # A hand left out is written in its seat's place: before the next seat's hand when the record has one.
            later = [original.hand_spans[s].line for s in seats[seats.index(seat) + 1 :] if s in original.hand_spans]
            after = later[0] - 1 if later else editor.statement_end(last_header)
            hand = inference.hands.get(seat)
            note = ""
            if hand is not None:
                certain = hand["certain"]
                guessed = Counter(cards) - certain
                said = [
                    f"{write.cards_text(_in_order(group.elements()))} {word}"
                    for group, word in ((certain, "certain"), (guessed, "chosen"))
                    if group
                ]
                note = "  " + write.comment(f"inferred: {'; '.join(said)}") if said else ""
            dealt = sorted((c for c in cards if isinstance(c, Card)), key=lambda c: c.sort_key)
            editor.insert_after(after, write.hand(seat, dealt) + note)
            continue
        spans = original.hand_card_spans.get(seat, [])
        for card, new, span in zip(original.hands[seat], cards, spans, strict=False):
            if isinstance(card, CardPattern) and isinstance(new, Card):
                token(span, seat, new, span.line)
    played = {t.n: t.plays for t in replayed.tricks}
    for trick, done in zip(original.tricks, completed.tricks, strict=True):
        by_seat = {p.seat: p.card for p in done.plays}
        if not trick.ordered and trick.plays:
            # Who led is known now: write the trick in playing order.
            first, last = trick.plays[0], trick.plays[-1]
            if first.seat_span.line == last.span.line:
                start = min(p.seat_span.column for p in trick.plays)
                end = max(p.span.column + p.span.length for p in trick.plays)
                # (in the order the replay played them: from the seat that led)
                in_order = write.plays(played.get(done.number, []))
                editor.replace(first.seat_span.line, start, end - start, in_order)
                for play in trick.plays:
                    value = by_seat.get(play.seat)
                    unknown = by_span.get((play.span.line, play.span.column))
                    if unknown is not None and isinstance(value, Card) and inference.analysed:
                        alternatives = _alternatives(inference, unknown.tag, value)
                        if alternatives:
                            editor.note(trick.span.line, _describe(play.seat, value, alternatives))
                trick = _without_plays(trick)
        for play in trick.plays:
            value = by_seat.get(play.seat)
            if isinstance(play.card, CardPattern) and isinstance(value, Card):
                token(play.span, play.seat, value, trick.span.line)
        last_line = trick.span.line
        added = [item for item in done.items if _added(item, done)]
        stated = [item for item in done.items if not _added(item, done)]
        for item, done_item in zip(trick.items, stated, strict=False):
            last_line = max(last_line, item.span.line)
            if isinstance(item, Exchange) and isinstance(item.card, CardPattern) and isinstance(done_item, Exchange):
                if isinstance(done_item.card, Card):
                    span = item.card_span
                    editor.replace(span.line, span.column, span.length, str(done_item.card))
            elif isinstance(item, Declare) and isinstance(done_item, Declare):
                values = [c for c in done_item.cards if isinstance(c, Card)]
                if not item.cards and item.kind_span is not None:
                    end = item.kind_span.column + item.kind_span.length
                    editor.replace(item.kind_span.line, end, 0, " " + write.cards_text(values))
                    remark = _declaration_alternatives(inference, done_item)
                    if remark:
                        editor.note(item.span.line, remark)
                else:
                    for card, value, span in zip(item.cards, values, item.card_spans, strict=False):
                        if isinstance(card, CardPattern):
                            token(span, item.seat, value, item.span.line)
            elif isinstance(item, Draws) and isinstance(done_item, Draws):
                for draw, done_draw in zip(item.draws, done_item.draws, strict=False):
                    if isinstance(draw.card, CardPattern) and isinstance(done_draw.card, Card):
                        token(draw.span, draw.seat, done_draw.card, item.span.line)
        for extra in added:
            if isinstance(extra, Draws):
                notes = []
                for d in extra.draws:
                    tag = next(
                        (
                            u.tag
                            for u in inference.unknowns
                            if u.role == "draw" and not u.recorded and u.trick == trick.number and u.seat == d.seat
                        ),
                        None,
                    )
                    if tag is not None and isinstance(d.card, Card) and inference.analysed:
                        alternatives = _alternatives(inference, tag, d.card)
                        if alternatives:
                            notes.append(_describe(d.seat, d.card, alternatives))
                note = write.comment(f"inferred: not in the record{'; ' + '; '.join(notes) if notes else ''}")
                # (where the completion put them: first where declaring goes on after the draws, else last)
                after = trick.span.line if done.items and done.items[0] is extra else last_line
                drawn = [(d.seat, d.card) for d in extra.draws]
                editor.insert_after(editor.statement_end(after), f"{write.draws(drawn)}  {note}")


def _added(item: object, trick: Trick) -> bool:
    """Draws the completion added (the record left them out): they stand at the trick's own position."""
    return isinstance(item, Draws) and bool(item.draws) and all(d.span == trick.span for d in item.draws)


def _without_plays(trick: Trick) -> Trick:
    """The trick with its plays already written (so they are not patched twice)."""
    import copy

    clone = copy.copy(trick)
    clone.plays = []
    return clone


def _declaration_alternatives(inference: Inference, item: Declare) -> str:
    tags = [
        u.tag for u in inference.unknowns if u.role == "declaration" and u.kind == item.kind and u.seat == item.seat
    ]
    open_tags = [t for t in tags if len(inference.possible.get(t, set())) > 1]
    if not open_tags or not inference.analysed:
        return ""
    return f"{item.seat}'s {item.kind} could also use other cards"


def completed_text(record: Record, result: ReplayResult) -> str:
    """The record's text with every deal that had unknowns completed (see the module docstring)."""
    from .errors import BeziqueError
    from .fmt import format_text

    editor = _Editor(record.text)
    for game, replayed in zip(record.games, result.games, strict=False):
        for deal, outcome in zip(game.deals, replayed.deals, strict=False):
            if outcome.inference is not None and outcome.inference.deal is not None:
                _patch_deal(editor, deal, outcome.inference, outcome)
    text = editor.text()
    try:
        return format_text(text, record.path)
    except BeziqueError:  # (a text the formatter cannot keep as the same record is written as edited)
        return text
