"""The lesson's HTML: every card's markup (:func:`card_html`, the one place it is written: the templates call it
and the page's script is given each card's), the step list and each deal's steps, which tell the whole game without
the page's script (the hands dealt; every trick's plays, winner, declarations with their points and rules, draws
and scores; the quizzes, the commentary, the transcriber's notes and the score sheets).

Written here rather than by Jinja macros (``lesson.html`` puts it in the page's frame) because a lesson has some
thirty steps of forty-odd values each: the templates spent more time calling macros and escaping values one at a
time than a page costs in all now. Each function writes one piece of the markup the stylesheet and
``static/lesson.js`` expect, in the order the page shows it. Every text is escaped: the interface's words once per
language (:func:`words`), the lesson's own texts where they are written; cards come from :func:`card_html`, made
once per card.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from markupsafe import escape

from .citations import cite
from .views import CardView, DealView, Lesson, LineView, QuestionView, ScoreView, SheetRow, Step, TextView
from .words import interface

__all__ = [
    "Encoded",
    "Written",
    "card_html",
    "cards_html",
    "data_json",
    "lesson_notes",
    "lesson_steps",
    "page_bytes",
    "words",
]

_BACK = '<span class="card back"></span>'


_LANG = "\0lang"
"""The key under which :func:`words` keeps its language (no message has it)."""


@functools.lru_cache(maxsize=4)
def words(lang: str) -> dict[str, str]:
    """The interface strings of a language, escaped for HTML (once per language rather than at every use); its
    language under :data:`_LANG`."""
    escaped = {key: str(escape(text)) for key, text in interface(lang).items()}
    escaped[_LANG] = lang
    return escaped


@functools.lru_cache(maxsize=4096)
def _e(text: str) -> str:
    # A page escapes some nine hundred texts, most of them the same few dozen (seat names, titles, anchors, "North
    # leads"): each is escaped once.
    return str(escape(text))


class Written:
    """HTML written here, every text in it escaped: a template puts it in as it is (``__html__``).

    Not a Markup, which a template's escaping would copy again, through ``str()``, character by character: a tenth
    of a millisecond for a lesson's steps.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __html__(self) -> str:
        """The HTML."""
        return self.text


_MARKUP: dict[int, tuple[CardView, Written]] = {}
"""Each card view's markup, by the view's identity (views are shared and never change; hashing one by its fields
would cost more than the lookup saves). The view is kept with it, so that its id cannot be taken by another."""


def card_html(card: CardView) -> Written:
    """A card as the pages write it: styled Unicode text (U+FE0E asks for the text form, never an emoji), red for
    hearts and diamonds, a class per suit for the four-colour scheme, named for screen readers.

    Made once per view: a lesson writes some ten thousand cards, most of them the same few dozen. The page's script
    is given each card's markup (``cards`` in the lesson's data) and only adds the class ``played``.
    """
    found = _MARKUP.get(id(card))
    if found is not None and found[0] is card:
        return found[1]
    if len(_MARKUP) >= 4096:  # a long-lived caller that makes views afresh must not make this grow without end
        _MARKUP.clear()
    classes = f"card s-{card.suit_code}"
    if card.red:
        classes += " red"
    if card.played:
        classes += " played"
    if card.inferred:
        classes += f" inferred {card.inferred}"
    label = escape(card.label)
    alternatives = f' data-alternatives="{escape(card.alternatives)}"' if card.alternatives else ""
    markup = Written(
        f'<span class="{escape(classes)}" role="img" aria-label="{label}" title="{label}"{alternatives}>'
        f'<span class="rank">{escape(card.rank)}</span><span class="suit">{escape(card.suit)}&#xFE0E;</span></span>'
    )
    _MARKUP[id(card)] = (card, markup)
    return markup


def _json(value: Any) -> bytes:
    # As Jinja's tojson: nothing in the block can close its element or start markup. (Escaped in the UTF-8, where no
    # byte of another character is one of these: bytes are searched with memchr, a text of Cyrillic letters is not.)
    data = _ENCODER.encode(value).encode("utf-8")
    return data.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026").replace(b"'", b"\\u0027")


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
"""``json.dumps``'s compact text. No list or dict of a lesson's data holds itself: not keeping a mark of every one
to check it saves a sixth of the encoding."""


_SHARED_JSON: dict[int, tuple[Mapping[str, Any], bytes]] = {}


def data_json(lesson: Lesson) -> Encoded:
    """The lesson's data block as JSON for its script. The part every lesson of the profile and language shares
    (:attr:`Lesson.data_shared`: the pack's cards and their markup, the texts) is encoded once, not once a page."""
    shared = lesson.data_shared
    found = _SHARED_JSON.get(id(shared))
    if found is None or found[0] is not shared:
        if len(_SHARED_JSON) >= 64:
            _SHARED_JSON.clear()
        found = _SHARED_JSON[id(shared)] = (shared, _json(dict(shared))[1:-1])
    rest = {key: value for key, value in lesson.data.items() if key not in shared}
    if not found[1]:
        return Encoded(_json(rest))
    return Encoded(b"{" + found[1] + (b"," + _json(rest)[1:] if rest else b"}"))


class Encoded:
    """HTML written here, every text in it escaped, and encoded as UTF-8: a page's steps and data block, most of its
    hundred thousand characters, go into the page as bytes (:func:`page_bytes`) rather than being copied into the
    page's text and encoded with it. A template writes the mark (``__html__``), a comment that no escaped text can
    be, and the page's writer puts the bytes in its place."""

    __slots__ = ("data", "mark")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.mark = f"<!--\0{id(self)}\0-->"

    def __html__(self) -> str:
        """The mark."""
        return self.mark


def page_bytes(pieces: Iterable[str], parts: Iterable[Encoded]) -> bytes:
    """A page as UTF-8: its text as a template writes it, piece by piece, each part's mark (a piece of its own) replaced
    by the part's bytes."""
    marks = {part.mark: part.data for part in parts}
    out: list[bytes] = []
    text: list[str] = []
    for piece in pieces:
        data = marks.pop(piece, None)
        if data is None:
            text.append(piece)
        else:
            out.append("".join(text).encode("utf-8"))
            out.append(data)
            text = []
    if marks:
        raise ValueError("a part's mark is not a piece of the page of its own (written inside a macro?)")
    out.append("".join(text).encode("utf-8"))
    return b"".join(out)


def _card(card: CardView) -> str:
    # A lesson writes some ten thousand cards: the cache is looked up here first, without a second call.
    found = _MARKUP.get(id(card))
    if found is not None and found[0] is card:
        return found[1].text
    return card_html(card).text


def lesson_steps(lesson: Lesson) -> Written:
    """The step list and every deal's steps, each deal's end with its score sheet."""
    t = words(lesson.lang)
    several = len(lesson.deals) > 1
    parts = [_step_list(lesson, t, several)]
    for deal in lesson.deals:
        _deal(deal, t, several, lesson, parts)
    parts.append(lesson_notes(lesson, t))
    return Written("".join(parts))


def lesson_notes(lesson: Lesson, t: dict[str, str]) -> str:
    """Every transcriber's note of the lesson, with the step it belongs to: on paper, at the end of the handout
    (on screen each note is folded up in its own step)."""
    places: list[tuple[str, str, Sequence[TextView]]] = [("", "", lesson.notes)]
    for deal in lesson.deals:
        places.extend((s.anchor, s.title, s.notes) for s in deal.steps)
        places.append((deal.end_anchor, deal.end_title, deal.end_notes))
    rows = [
        (f'<li><a href="#{_e(anchor)}">{_e(title)}</a>: ' if anchor else "<li>") + f"{_note_text(n, t)}</li>\n"
        for anchor, title, notes in places
        for n in notes
    ]
    if not rows:
        return ""
    return (
        '<section class="all-notes" aria-labelledby="all-notes-title">\n'
        f'<h2 id="all-notes-title">{t["notes_title"]}</h2>\n<p class="note">{t["notes_intro"]}</p>\n'
        f"<ol>\n{''.join(rows)}</ol>\n</section>\n"
    )


def _note_text(note: TextView, t: dict[str, str]) -> str:
    return f'<span lang="{_e(note.lang)}">{_say(note.text, t)}</span>{_fallback_mark(note, t)}'


def _fallback_mark(text: TextView, t: dict[str, str]) -> str:
    """The mark of a text shown in another language than the page's, for want of one in it ("EN")."""
    if not text.fallback:
        return ""
    hint = t.get(f"fallback_{text.lang}", "")
    tag = t.get(f"fallback_tag_{text.lang}", _e(text.lang.upper()))
    return f' <abbr class="fallback" title="{hint}">{tag}</abbr>'


def _step_list(lesson: Lesson, t: dict[str, str], several: bool) -> str:
    out = [f'<nav class="step-list" id="steps" aria-label="{t["steps"]}">\n<h2>{t["steps"]}</h2>\n']
    for deal in lesson.deals:
        out.append('<div class="deal-steps">\n')
        if several:
            out.append(f"<h3>{_e(deal.title)}</h3>")
        out.append("<ol>\n")
        for s in deal.steps:
            css = s.kind
            if s.scoring:
                css += " scored"
            if s.questions:
                css += " quiz"
            if s.comments:
                css += " noted"
            if s.phase == 2:
                css += " phase-2"
            title = _e(s.title)
            label = s.number if s.kind == "trick" else title
            out.append(f'<li><a href="#{_e(s.anchor)}" class="{css}" title="{title}">{label}</a></li>\n')
        noted = " noted" if deal.end_comments else ""
        out.append(
            f'<li><a href="#{_e(deal.end_anchor)}" class="end{noted}" title="{_e(deal.end_title)}">'
            f"{t['deal_result']}</a></li>\n</ol>\n</div>\n"
        )
    # What the step list's colours and marks mean, each shown on a sample of the list's own.
    legend = "".join(
        f'<li><span class="sample {css}" aria-hidden="true">{sample}</span> {t[key]}</li>'
        for css, sample, key in (
            ("scored", "7", "legend_scored"),
            ("noted", "7", "legend_noted"),
            ("quiz", "7", "legend_quiz"),
            ("phase-2", "27", "legend_phase_2"),
            ("current", "7", "legend_current"),
        )
    )
    out.append(
        f'<details class="legend"><summary>{t["legend_title"]}</summary><ul>{legend}</ul></details>\n'
        f'<p class="hint">{t["keys_hint"]}</p>\n</nav>\n'
    )
    return "".join(out)


def _deal(deal: DealView, t: dict[str, str], several: bool, lesson: Lesson, out: list[str]) -> None:
    """A deal's steps and end, appended to ``out``: the lesson's one list, joined once (a lesson's steps are some
    hundred thousand characters: each join would copy them again)."""
    deal_id = _e(deal.id)
    title = _e(deal.title)
    trump = ""
    if deal.trump:
        red = " red" if deal.trump_red else ""
        trump = f'{t["trumps"]}: <span class="trump{red}">{_e(deal.trump)}</span>.'
    out.append(
        f'<article class="deal" id="{deal_id}" aria-labelledby="{deal_id}-title">\n'
        f'<h2 id="{deal_id}-title">{title}</h2>\n'
        f'<p class="deal-summary">{_say(deal.summary, t)} {trump}</p>\n'
    )
    labels = [_e(label) for label in deal.seat_labels]
    context = f"{title} · " if several else ""
    for s in deal.steps:
        _step(s, labels, t, context, lesson, out)
    out.append(_deal_end(deal, labels, t))
    out.append("</article>\n")


def _step(s: Step, labels: Sequence[str], t: dict[str, str], context: str, lesson: Lesson, out: list[str]) -> None:
    """One step, appended to ``out``: the table (the hands dealt at a deal's start; a trick's is drawn by the
    script), the trick, the questions, what followed (winner, declarations, draws, stock, scores), the commentary
    and the books' place."""
    anchor = _e(s.anchor)
    title = _e(s.title)
    css = f"step step-{s.kind} phase-{s.phase}"
    if s.scoring:
        css += " has-scoring"
    flags = (" data-commented" if s.comments else "") + (" data-quiz" if s.questions else "")
    data_title = (context if s.kind != "start" else "") + title
    phase_tag = f' <span class="phase-tag">{t["phase_2_short"]}</span>' if s.phase == 2 else ""
    out.append(
        f'<section class="{css}" id="{anchor}" data-step data-index="{s.index}" data-title="{data_title}" '
        f'data-data="{s.data}"{flags} aria-labelledby="{anchor}-title">\n'
    )
    out.extend(f'<span class="alias" id="{_e(alias)}"></span>\n' for alias in s.aliases)
    out.append(
        f'<header class="step-head">\n<h3 id="{anchor}-title">{title}</h3>\n'
        f'<p class="leader">{_e(s.leader)}{phase_tag}</p>\n'
        f'<a class="permalink" href="#{anchor}" title="{t["permalink"]}" aria-label="{t["permalink"]}: {title}">#</a>\n'
        "</header>\n"
    )
    if s.phase_note:
        out.append(f'<p class="phase-note">{_say(s.phase_note, t)}</p>\n')
    seats = len(s.board.hands) if s.board else len(s.seats)
    felt = t["hand_dealt"] if s.kind == "start" else t["before_trick"]
    out.append(
        f'<div class="board"{" data-board" if s.board else ""}>\n'
        f'<div class="felt seats-{seats}" role="group" aria-label="{felt}">\n'
    )
    for seat in s.seats:
        before = next((v for v in s.before_scores if v.seat == seat.scorer), None)
        player = f' <span class="player">{_e(seat.player)}</span>' if seat.player else ""
        score = f' <span class="seat-score" title="{t["score_before"]}">{before.value}</span>' if before else ""
        out.append(
            f'<div class="seat pos-{_e(seat.position)}" data-seat="{_e(seat.seat)}">\n'
            f'<h4 class="seat-name">{_e(seat.label)}{player}{score}</h4>\n'
            f'<div class="hand"><span class="what">{t["hand_dealt"]}</span> <span class="hand-cards">'
            f'{_cards(seat.hand, t["nothing"])}</span><span class="hand-hidden"><span class="cards backs" '
            f'role="img" aria-label="{_e(seat.hidden_label)}">{_BACK * len(seat.hand)}</span></span></div>\n'
            "</div>\n"
        )
    out.append('<div class="centre">\n')
    if s.plays:
        out.append(f'<div class="trick">\n<h4>{t["trick"]}</h4>\n<ol class="plays">\n')
        for i, p in enumerate(s.plays):
            winning = " winning" if p.winning else ""
            mistake = " mistake" if p.mistake else ""
            tip = _e(p.value_title) if p.value_title else t["dd_value_title"]
            value = f' <span class="dd-value" title="{tip}">{_e(p.value)}</span>' if p.value else ""
            out.append(
                f'<li class="play{winning}{mistake}" data-play="{i}" data-seat="{_e(p.seat)}"><span class="who">'
                f"{_e(p.label)}</span> {_card(p.card)}{value}</li>\n"
            )
        out.append("</ol>\n</div>\n")
    if not s.board:
        turnup = f'<span class="turnup">{_card(s.before_turnup)}</span>' if s.before_turnup else ""
        pile = f'<span class="pile" aria-hidden="true">{_BACK}</span>' if s.before_stock > 0 else ""
        out.append(
            f'<div class="stock-box">\n<h4>{_e(lesson.stock_title)}</h4>\n<p class="stock">{turnup}{pile} '
            f'<span class="stock-text">{_e(s.before_stock_text)}</span></p>\n'
        )
        if s.trump:
            trump = _trump(s.trump, s.trump_red)
            out.append(f'<p class="trumps"><span class="what">{t["trumps"]}</span> {trump}</p>\n')
        out.append("</div>\n")
    out.append('</div>\n</div>\n<div class="side">\n')
    if not s.board:
        out.append(_running_sheet(s.sheet, labels, t))
        out.append("\n")
    out.append("</div>\n</div>\n")
    for q in s.questions:
        out.append(_quiz(q, t))
        out.append("\n")
    out.append(f'<div class="outcome">\n<h4 class="visually-hidden">{t["outcome"]}</h4>\n')
    if s.winner:
        out.append(f'<p class="winner">{_say(s.winner, t)}</p>\n')
    if s.scoring:
        out.append(f'<div class="scoring">\n<h4>{t["scoring"]}</h4>\n<ul>\n')
        for e in s.scoring:
            cards = f" {_cards(e.cards, '')}" if e.cards else ""
            points = f': <strong class="points">{e.points}</strong>' if e.kind != "goes_out" else ""
            rule = (
                f' <a class="rule" href="{_e(e.rule_href)}" title="{t["rule_link_title"]}">{t["rule_link"]}</a>'
                if e.rule_href
                else ""
            )
            out.append(f'<li class="event event-{_e(e.kind)}">{_say(e.lead, t)}{cards}{points}{rule}</li>\n')
        out.append("</ul>\n</div>\n")
    if s.draws:
        out.append(f'<div class="draws">\n<h4>{t["draws"]}</h4>\n<ul>\n')
        out.extend(f'<li><span class="who">{_e(d.label)}</span> {_card(d.card)}</li>\n' for d in s.draws)
        out.append("</ul>\n</div>\n")
    if s.kind != "start":
        if s.turnup:
            after = f' <span class="what">{t["turnup"]}</span> {_card(s.turnup)}'
        else:
            # Only a game with a turn-up can have drawn it (the stock's last card); without one, nothing to say.
            after = f" {t['turnup_taken']}" if s.stock > 0 and lesson.turnup else ""
        out.append(f'<p class="stock-after"><span class="what">{t["stock"]}</span> {_e(s.stock_text)}{after}</p>\n')
    out.append(f'<div class="running">\n<h4>{_e(s.scores_title)}</h4>\n{_score_line(s.scores)}\n</div>\n</div>\n')
    if s.values_note:
        out.append(f'<p class="dd-note">{_say(s.values_note, t)}</p>\n')
    if s.judged:
        # What the sampled analysis finds of the step's plays: its mistakes, and the book's judgments beside it.
        out.append('<div class="judged">\n')
        out.extend(f'<p class="judged-{_e(kind)}">{_e(text)}</p>\n' for kind, text in s.judged)
        out.append("</div>\n")
    for line in s.lines:
        out.append(_line(line, t))
    if s.comments:
        out.append(f'<div class="commentary">\n<h4 class="visually-hidden">{t["commentary"]}</h4>\n')
        out.append(_texts(s.comments, t))
        out.append("</div>\n")
    out.append(_notes(s.notes, t))
    if s.has_books:
        out.append('<div class="books" data-books></div>\n')
    out.append(_step_nav(s.prev_anchor, s.prev_title, s.next_anchor, s.next_title, t))
    out.append("\n</section>\n")


def _line(line: LineView, t: dict[str, str]) -> str:
    """A line under a step, folded as lichess folds a side line: its title, then its tricks in parentheses."""
    tricks = " ".join(f'<span class="line-trick">{_e(trick)}</span>' for trick in line.tricks)
    texts = _texts(line.texts, t) if line.texts else ""
    return (
        f'<details class="line"><summary>{_e(line.title)}</summary>\n'
        f'<p class="line-tricks">({tricks})</p>\n{texts}</details>\n'
    )


def _deal_end(deal: DealView, labels: Sequence[str], t: dict[str, str]) -> str:
    anchor = _e(deal.end_anchor)
    title = _e(deal.end_title)
    flags = " data-commented" if deal.end_comments else ""
    out = [
        f'<section class="step deal-end" id="{anchor}" data-step data-index="{deal.end_index}" data-title="{title}"'
        f'{flags} aria-labelledby="{anchor}-title">\n'
        f'<header class="step-head"><h3 id="{anchor}-title">{title}</h3><a class="permalink" href="#{anchor}" '
        f'title="{t["permalink"]}" aria-label="{t["permalink"]}: {title}">#</a></header>\n'
        '<div class="end-scores">\n'
    ]
    if deal.brisques:
        out.append(f'<div class="running"><h4>{t["brisques"]}</h4>{_score_line(deal.brisques)}</div>\n')
    out.append(f'<div class="running result"><h4>{t["deal_result"]}</h4>{_score_line(deal.result)}</div>\n')
    if deal.totals:
        out.append(f'<div class="running"><h4>{_e(deal.totals_label)}</h4>{_score_line(deal.totals)}</div>\n')
    out.append("</div>\n")
    if deal.end_comments:
        out.append('<div class="commentary">\n')
        out.append(_texts(deal.end_comments, t))
        out.append("</div>\n")
    out.append(_notes(deal.end_notes, t))
    if deal.chart:
        out.append(f'<figure class="chart">{deal.chart}</figure>\n')
    out.append(f'<div class="table-scroll">{_sheet(deal, labels, t)}</div>')
    out.append("\n")
    out.append(_step_nav(deal.end_prev_anchor, deal.end_prev_title, deal.end_next_anchor, deal.end_next_title, t))
    out.append("\n</section>\n")
    return "".join(out)


def _cards(cards: Sequence[CardView], empty: str) -> str:
    """A row of cards, or ``empty`` (already escaped) when there is none."""
    if not cards:
        return f'<span class="none">{empty}</span>'
    return f'<span class="cards">{"".join(_card(c) for c in cards)}</span>'


def cards_html(cards: Sequence[CardView], empty: str = "") -> Written:
    """A row of cards as every page writes it (the templates' ``cards``), or ``empty`` when there is none.

    Written here, the one place, rather than by a template macro: the rules pages show some four hundred rows of
    cards, and a macro's call costs more than its row."""
    return Written(_cards(cards, _e(empty)))


def _trump(text: str, red: bool) -> str:
    return f'<span class="trump{" red" if red else ""}">{_e(text)}</span>' if text else ""


def _texts(texts: Sequence[TextView], t: dict[str, str]) -> str:
    return "".join(f'<p lang="{_e(c.lang)}">{_say(c.text, t)}{_fallback_mark(c, t)}</p>\n' for c in texts)


def _say(text: str, t: dict[str, str]) -> str:
    """A text that may cite a source or a rule, escaped, in a learner's words (replayer/lesson/citations.py)."""
    return cite(text, t[_LANG])


def _notes(notes: Sequence[TextView], t: dict[str, str]) -> str:
    """The transcriber's notes of a step: apart from the book's commentary, labelled, folded up."""
    if not notes:
        return ""
    return (
        f'<details class="notes"><summary>{t["note_label"]}</summary>\n'
        + "".join(f"<p>{_note_text(n, t)}</p>\n" for n in notes)
        + "</details>\n"
    )


def _score_line(scores: Sequence[ScoreView]) -> str:
    rows = []
    for s in scores:
        delta = f' <span class="delta">({s.delta_text})</span>' if s.delta_text else ""
        rows.append(
            f'<div class="score" data-seat="{_e(s.seat)}"><dt>{_e(s.label)}</dt><dd><span class="value">{s.value}'
            f"</span>{delta}</dd></div>\n"
        )
    return f'<dl class="scores">\n{"".join(rows)}</dl>'


def _events(row: SheetRow, t: dict[str, str]) -> str:
    return "<br>".join(_say(e, t) for e in row.events)


def _running_sheet(rows: Sequence[SheetRow], labels: Sequence[str], t: dict[str, str]) -> str:
    head = "".join(f'<th scope="col" class="num">{label}</th>' for label in labels)
    out = [
        f'<table class="sheet running-sheet">\n<caption>{t["sheet_so_far"]}</caption>\n<thead><tr><th scope="col">'
        f'{t["sheet_step"]}</th><th scope="col">{t["sheet_events"]}</th>{head}</tr></thead>\n<tbody>\n'
    ]
    for row in rows:
        now = " now" if row.now else ""
        values = "".join(f'<td class="num">{v}</td>' for v in row.scores)
        out.append(
            f'<tr class="scored{now}"><th scope="row"><a href="#{_e(row.anchor)}">{_e(row.step)}</a></th>'
            f"<td>{_events(row, t)}</td>{values}</tr>\n"
        )
    if not rows:
        out.append(f'<tr><td colspan="{2 + len(labels)}" class="none">{t["sheet_empty"]}</td></tr>\n')
    out.append("</tbody>\n</table>")
    return "".join(out)


def _sheet(deal: DealView, labels: Sequence[str], t: dict[str, str]) -> str:
    head = "".join(f'<th scope="col" class="num">{label}</th>' for label in labels)
    out = [
        f'<table class="sheet">\n<caption>{t["score_sheet"]}</caption>\n<thead><tr><th scope="col">{t["sheet_step"]}'
        f'</th><th scope="col">{t["sheet_winner"]}</th><th scope="col">{t["sheet_events"]}</th>{head}</tr></thead>\n'
        "<tbody>\n"
    ]
    for row in deal.sheet:
        css = ("scored" if row.events else "") + (" now" if row.now else "")
        values = "".join(f'<td class="num">{v}</td>' for v in row.scores)
        out.append(
            f'<tr class="{css}"><th scope="row"><a href="#{_e(row.anchor)}">{_e(row.step)}</a></th>'
            f"<td>{_e(row.winner)}</td><td>{_events(row, t)}</td>{values}</tr>\n"
        )
    out.append("\n</tbody>\n<tfoot>\n")
    if deal.brisques:
        values = "".join(f'<td class="num">{s.value}</td>' for s in deal.brisques)
        out.append(f'<tr><th scope="row" colspan="3">{t["brisques"]}</th>{values}</tr>\n')
    values = "".join(f'<td class="num">{s.value}</td>' for s in deal.result)
    out.append(f'<tr class="total"><th scope="row" colspan="3">{t["deal_result"]}</th>{values}</tr>\n')
    if deal.totals:
        values = "".join(f'<td class="num">{s.value}</td>' for s in deal.totals)
        out.append(f'<tr class="total"><th scope="row" colspan="3">{_e(deal.totals_label)}</th>{values}</tr>\n')
    out.append("</tfoot>\n</table>")
    return "".join(out)


def _better(q: QuestionView, t: dict[str, str]) -> str:
    """A better-play question's sentence, said after the right answer: the card the record plays and the better."""
    if not q.better or q.played is None:
        return ""
    said = t["quiz_better"].replace("{card}", _e(q.played.glyph)).replace("{answers}", _e(q.answers_text))
    return f' data-better="{said}"'


def _quiz(q: QuestionView, t: dict[str, str]) -> str:
    tag = f' <span class="better-tag">{t["quiz_better_tag"]}</span>' if q.better else ""
    q_text = TextView(q.text, q.lang, q.fallback)
    out = [
        f'<aside class="quiz" data-play="{q.play_index}" data-seat="{_e(q.seat)}" data-answers="{_e(q.answer_codes)}" '
        f'data-answer-text="{_e(q.answers_text)}" data-right="{t["quiz_right"]}" data-wrong="{t["quiz_wrong"]}" '
        f'data-revealed="{t["quiz_revealed"]}"{_better(q, t)}>\n'
        f'<p class="quiz-prompt"><strong>{_e(q.prompt)}</strong>{tag}</p>\n'
        f'<p class="quiz-text" lang="{_e(q.lang)}">{_say(q.text, t)}{_fallback_mark(q_text, t)}</p>\n'
    ]
    if q.answers:
        choose = _e(q.choose)
        buttons = "".join(
            f'<button type="button" class="choice" data-card="{_e(c.code)}" data-glyph="{_e(c.glyph)}">'
            f"{_card(c)}</button>"
            for c in q.choices
        )
        out.append(
            f'<div class="quiz-choices" role="group" aria-label="{choose}">\n<p class="quiz-choose">{choose}</p>\n'
            f"{buttons}</div>\n"
        )
    else:
        out.append(f'<p class="quiz-open">{t["quiz_open"]}</p>\n')
    out.append(
        '<p class="quiz-feedback" role="status" aria-live="polite"></p>\n'
        f'<p class="quiz-hidden-note">{t["quiz_hidden"]}</p>\n'
        f'<p class="quiz-actions"><button type="button" class="reveal">{t["show_answer"]}</button></p>\n'
    )
    if q.answers:
        better = _better(q, t)
        played = f' <span class="better-note">{better[len(" data-better=") + 1 : -1]}</span>' if better else ""
        answer = f"{t['answer']}: {_cards(q.answers, t['nothing'])}{played}"
        # The same answer twice: to open by hand on screen, and always shown on paper (a details element prints
        # closed unless a script opened it).
        out.append(
            f'<details class="answer"><summary>{t["show_answer"]}</summary><p>{answer}</p></details>\n'
            f'<p class="print-answer">{answer}</p>\n'
        )
    out.append("</aside>")
    return "".join(out)


def _step_nav(prev_anchor: str, prev_title: str, next_anchor: str, next_title: str, t: dict[str, str]) -> str:
    prev = (
        f'<a class="prev" rel="prev" href="#{_e(prev_anchor)}">← {_e(prev_title)}</a>'
        if prev_anchor
        else '<span class="prev"></span>'
    )
    after = (
        f'<a class="next" rel="next" href="#{_e(next_anchor)}">{_e(next_title)} →</a>'
        if next_anchor
        else '<span class="next"></span>'
    )
    up = f'<a class="up" href="#steps">{t["steps"]}</a>'
    return f'<nav class="step-nav" aria-label="{t["steps"]}">\n{prev}{up}\n{after}</nav>'
