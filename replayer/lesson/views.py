"""The values a lesson page, a rules page and the glossary are made of: every text already written in the page's
language, every card a :class:`CardView`, nothing about HTML (``html.py`` writes the markup, the templates lay it
out)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from .words import Words

__all__ = [
    "Board",
    "Book",
    "CardView",
    "DealView",
    "Lesson",
    "LineView",
    "PlayView",
    "QuestionView",
    "ScoreView",
    "ScoringView",
    "SeatView",
    "SheetRow",
    "SourceItem",
    "Step",
    "TargetView",
    "TextView",
    "card_view",
    "first_sentence",
    "position",
    "text_lang",
]


def text_lang(text: str) -> str:
    """``ru`` for a text written mostly in Cyrillic, else ``en``.

    The record's commentary keeps its own language whatever the interface's; marking it lets a screen reader read
    an English comment on a Russian page with the right voice.
    """
    cyrillic = len(re.findall(r"[А-Яа-яЁё]", text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return "ru" if cyrillic > latin else "en"


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as a page shows it: rank, suit symbol, colour and an accessible name."""

    code: str
    """Canonical text (``QS``)."""
    rank: str
    """The rank as the interface language writes it (``Q``, or ``Д`` in Russian)."""
    suit: str
    """The suit symbol."""
    red: bool
    label: str
    """What a screen reader says: "queen of spades"."""
    played: bool = False
    """Marked in a hand: this is the card the seat plays to the trick."""
    inferred: str = ""
    """For a card the record left unknown: "forced" (the only possible one), "open" or "chosen"."""
    alternatives: str = ""
    """For an open card: the other cards it could be."""

    @property
    def glyph(self) -> str:
        """Rank and suit symbol: ``Q♠``."""
        return f"{self.rank}{self.suit}"

    @property
    def suit_code(self) -> str:
        """The suit letter (``S``), for the four-colour scheme's CSS class."""
        return self.code[-1]


@dataclass(frozen=True, slots=True)
class TextView:
    """A text of the record (a comment, a title) with the language it is written in."""

    text: str
    lang: str
    fallback: bool = False
    """Shown in another language than the page's, which the record has no text in (the page marks it)."""


@dataclass(frozen=True, slots=True)
class SourceItem:
    """A header of the record (source, page, url, …) with its interface label; ``href`` only for web links."""

    key: str
    label: str
    text: str
    href: str | None = None
    fallback: bool = False
    """The record has this header only in another language than the page's (the page marks it)."""
    lang: str = "en"


# The values a lesson makes for every step (plays, draws, scores, score sheet rows, boards, books) are plain
# dataclasses, not frozen ones: a frozen dataclass sets each field through object.__setattr__, five times slower, and a
# lesson makes some three hundred of them. Nothing changes them once made. Every view has slots: no dict of attributes
# made and freed with each of a lesson's thousands of objects.


@dataclass(slots=True)
class ScoreView:
    """A seat's score: the number and, during a deal, how much the last step added."""

    seat: str
    label: str
    value: int
    delta: int = 0

    @property
    def delta_text(self) -> str:
        """``+40``, or an empty string when nothing was added."""
        return f"{self.delta:+d}" if self.delta else ""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at the start of a step: its concealed hand and the declared cards lying face up before it."""

    seat: str
    label: str
    player: str
    """The player's name, or an empty string when the record names none."""
    hand: list[CardView]
    table: list[CardView]
    position: str = "top"
    """Where the seat sits on the drawn table: ``top``, ``bottom``, ``left`` or ``right``."""
    hidden_label: str = ""
    """What a screen reader hears for the hand when it is hidden: "8 hidden cards"."""
    scorer: str = ""
    """Whose score the seat adds to: the seat, or its side (``N+S``) in a partnership game."""


@dataclass(slots=True)
class PlayView:
    """A card played to a trick (or drawn from the stock) by a seat."""

    seat: str
    label: str
    card: CardView
    winning: bool = False
    value: str = ""
    """The card's value: in the last tricks as the solver finds it ("best", or what it loses: "−20"); with a sampled
    analysis (a sidecar, replayer/lesson/sidecar.py) at every play, its cost against the best card ("cost 12 ± 5")."""
    mistake: bool = False
    """The card played is a mistake: it loses points to the best play (with a sampled analysis, at least 10 points
    and at least twice its standard error)."""
    value_title: str = ""
    """What the value means, for its tooltip (the interface's default when empty)."""


@dataclass(slots=True)
class LineView:
    """A line of tricks shown under a step: the solver's best line, or a side line of the record (a variation)."""

    title: str
    tricks: list[str]
    """Each trick in words: "26. N A♠ S 10♠ → N"."""
    texts: list[TextView] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ScoringView:
    """A scoring event in words: ``text`` is the whole sentence, ``lead`` + ``cards`` + ``points`` its parts."""

    seat: str
    kind: str
    lead: str
    """The sentence without its cards and points: "North declares the royal marriage"."""
    cards: list[CardView]
    points: int
    text: str
    """"North declares the royal marriage K♣ Q♣: 40"."""
    rule_href: str = ""
    """The rules page's section that scores it (``rules-classic.html#meld-royal_marriage``)."""


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A quiz question asked before a seat's play, with the answers the record accepts."""

    seat: str
    prompt: str
    """"Question for North"."""
    text: str
    answers: list[CardView]
    play_index: int = 0
    """The index, in the trick's plays, of the play the question hides."""
    choices: list[CardView] = field(default_factory=list)
    """Every different card the seat may play at that moment (hand and table), for the learner to pick from."""
    choose: str = ""
    """"Choose the card North plays."."""
    lang: str = "en"
    """The language the record's question is written in."""
    fallback: bool = False
    """Written in another language than the page's (the record has no question in the page's language)."""
    better: bool = False
    """``{?[better] ...}``: the accepted answers are better than the card the record plays, which the lesson shows
    after the right answer."""
    played: CardView | None = None
    """The card the record plays (shown after the answer of a better-play question)."""

    @property
    def answer_codes(self) -> str:
        """The accepted answers as canonical codes separated by spaces (``9C QC``), for the page's script."""
        return " ".join(c.code for c in self.answers)

    @property
    def answers_text(self) -> str:
        """The accepted answers as symbols: ``9♣``, or ``9♣ / Q♣``."""
        return " / ".join(c.glyph for c in self.answers)


@dataclass(slots=True)
class SheetRow:
    """One line of a deal's score sheet."""

    anchor: str
    step: str
    winner: str
    events: list[str]
    scores: list[int]
    now: bool = False
    """In a step's running sheet: the row of the step itself (hidden while its quiz is unanswered)."""


@dataclass(frozen=True, slots=True)
class TargetView:
    """A combination a book follows (one suit of it, for a marriage): a row of its table of combinations, with what
    the page's script needs to tell its state (see :meth:`_Builder.open_state`, which it follows)."""

    kind: str
    name: str
    pictures: list[int]
    """The cards that picture it, as indices into :attr:`Lesson.cards`."""
    rule_href: str
    suit: str = ""
    """The suit letter of a plain or any-suit pattern (a scored one counts only in its suit); empty otherwise."""
    needed: list[tuple[int, int]] = field(default_factory=list)
    """The exact cards and how many of each, for fixed and same-suit patterns."""
    of_rank: list[int] = field(default_factory=list)
    """An n-of-a-kind pattern: its rank in every suit, of which it needs ``count`` cards."""
    count: int = 0
    left: str = ""
    """An n-of-a-kind's plural message for "only 3 kings left" (``kind_left_K``), whose forms the script has."""
    news_name: str = ""
    """Its name in the sentence that says it has become impossible."""


@dataclass(slots=True)
class Book:
    """The bookkeeping one seat keeps before a trick: the cards it has not seen and the combinations still open.

    Worked out by the builder (:mod:`.books`) and given to the page's script in the lesson's data, which only shows
    them (``static/lesson.js``). ``unseen`` counts every card
    of :attr:`Lesson.cards`, and ``melds`` gives, for each of the deal's :attr:`DealView.targets` in turn, each
    seat's state as an index into :attr:`Lesson.meld_states`.
    """

    seat: str
    unseen: bytes
    """How many copies of each card of :attr:`Lesson.cards` the seat has not seen (one byte a card)."""
    unseen_count: int
    unseen_text: str
    known: list[int]
    """Cards the seat knows lie in another's concealed hand (a turn-up taken, declared cards taken back)."""
    news: list[str]
    """Combinations that have just become impossible: "both Q♠ seen: double bezique is impossible for North."."""
    melds: list[int]
    declaring: bool
    """False once declarations are over (``melds`` is then empty)."""


@dataclass(slots=True)
class Board:
    """The table before a trick, as the page's script draws it; each list has one entry per seat, in seat order."""

    hands: list[list[int]]
    """The concealed hands, as indices into :attr:`Lesson.cards`."""
    tables: list[list[int]]
    """The declared cards lying face up."""
    played: list[int]
    """The card each seat plays to the trick (-1: none)."""
    scores: list[int]
    """Each seat's score (its side's, in a partnership game) as the trick begins."""
    turnup: int
    """The turn-up under the stock, or -1."""
    stock: int
    stock_text: str
    trump: str
    trump_red: bool
    sheet: int
    """How many of the deal's scored rows (the rows of :attr:`DealView.sheet` with events) the running score sheet
    shows: those up to this step's own."""
    marked: list[list[int]] = field(default_factory=list)
    """Where each seat's played card is marked: [position on its table, position in its hand], one of them -1 (the
    core plays a declared card from the table before one from the hand)."""


@dataclass(slots=True)
class Step:
    """One position of a lesson: the deal's start or one trick, with everything the page shows about it."""

    id: str
    """``deal-1-trick-4`` (``deal-1-start`` for the deal itself)."""
    anchor: str
    """The ``id`` the page puts on the step: the short ``trick-4`` in a single-deal game, else ``id``."""
    aliases: list[str]
    """Other ids that lead to the step (the long ``id`` when the short anchor is used)."""
    kind: str
    """``start`` or ``trick``."""
    title: str
    number: int
    """The trick number (0 for the deal's start)."""
    phase: int
    phase_note: str
    """Shown once, where a phase begins."""
    seats: list[SeatView]
    """The hands as dealt, for the deal's start (written into the page); a trick's table is its :attr:`board`."""
    leader: str
    """"North leads"."""
    plays: list[PlayView]
    winner: str
    """"North wins the trick", or an empty string."""
    scoring: list[ScoringView]
    draws: list[PlayView]
    stock: int
    """Cards left in the stock after the step, turn-up included."""
    stock_text: str
    turnup: CardView | None
    """The turn-up while it lies under the stock."""
    trump: str
    trump_red: bool
    scores_title: str
    scores: list[ScoreView]
    """Running scores of the deal after the step, with what the step added."""
    comments: list[TextView]
    questions: list[QuestionView]
    notes: list[TextView] = field(default_factory=list)
    """The transcriber's notes on the step (``{[note] ...}``), shown apart from the book's commentary."""
    before_scores: list[ScoreView] = field(default_factory=list)
    """The scores as the deal begins (the start's table; a trick's are on its :attr:`board`)."""
    before_stock: int = 0
    before_stock_text: str = ""
    before_turnup: CardView | None = None
    sheet: list[SheetRow] = field(default_factory=list)
    """The start's running score sheet (a trick's is drawn from the rows of :attr:`DealView.sheet` that score)."""
    board: Board | None = None
    """A trick's table before it is played, drawn by the page's script."""
    has_books: bool = False
    """The page's script draws each seat's bookkeeping before the trick, from :attr:`books` (a deal's start has it
    when the deal has a trick)."""
    declaring: bool = False
    """Declarations may be made in the step's phase (the books then follow the combinations)."""
    books: list[Book] = field(default_factory=list)
    """Each seat's bookkeeping before the trick, worked out in Python only when asked for (see
    :func:`build_lesson`): the page's script works them out from the lesson's data."""
    data: int = 0
    """The step's position in the lesson's data (:meth:`Lesson.data`)."""
    prev_anchor: str = ""
    prev_title: str = ""
    next_anchor: str = ""
    next_title: str = ""
    index: int = 0
    """The step's position in the whole lesson, from 1 (deal ends count as steps)."""
    values_note: str = ""
    """Where the values under the cards begin: what they mean (double-dummy in a game of more seats)."""
    judged: list[tuple[str, str]] = field(default_factory=list)
    """What the sampled analysis says of the step's plays, as (kind, sentence): ``mistake`` for a play it finds a
    mistake, with the better card and why; ``book`` for a judgment of the book's, beside what the analysis finds."""
    lines: list[LineView] = field(default_factory=list)
    """The solver's best line where the record's play loses points, and the record's side lines (variations)."""

    @property
    def has_scoring(self) -> bool:
        """True when points were scored in this step (the step list marks it)."""
        return bool(self.scoring)

    @property
    def quiz_from(self) -> int:
        """The index of the first play a question hides, or -1 when the step asks nothing."""
        return min((q.play_index for q in self.questions), default=-1)


@dataclass(slots=True)
class DealView:
    """One deal of a lesson: its steps and how it ended."""

    number: int
    id: str
    title: str
    summary: str
    """"South deals, North leads."."""
    trump: str
    trump_red: bool
    steps: list[Step]
    end_anchor: str
    end_title: str
    brisques: list[ScoreView]
    result: list[ScoreView]
    totals: list[ScoreView]
    """Game totals after this deal (only filled in when the game has several deals)."""
    totals_label: str
    """What the totals count: the game's points, or its game points (sixty-six)."""
    end_comments: list[TextView]
    end_notes: list[TextView]
    seat_labels: list[str]
    sheet: list[SheetRow]
    targets: list[TargetView] = field(default_factory=list)
    """The combinations the books follow in this deal (its trumps decide some)."""
    chart: str = ""
    """The deal's chart of the running scores (SVG markup, escaped; see :mod:`.chart`)."""
    end_prev_anchor: str = ""
    end_prev_title: str = ""
    end_next_anchor: str = ""
    end_next_title: str = ""
    end_index: int = 0
    """The deal end's position among the lesson's steps."""


@dataclass
class Lesson:
    """A whole game, ready for a template."""

    title: str
    profile: str
    """The rule profile's name (``classic``)."""
    profile_title: str
    players: list[tuple[str, str]]
    """(seat label, player name or an empty string) in seat order."""
    source: list[SourceItem]
    options: list[tuple[str, str]]
    result: str
    summary: str
    comments: list[TextView]
    deals: list[DealView]
    scores: list[ScoreView]
    winner: str
    lang: str = "en"
    title_lang: str = "en"
    title_fallback: bool = False
    """The record has no title in the page's language: the title is shown in another one (and marked)."""
    notes: list[TextView] = field(default_factory=list)
    """The transcriber's notes on the game as a whole."""
    text_note: str = ""
    """Which language the record's texts were first written in, and which is a translation ("The commentary is
    translated from Russian; ...")."""
    published: bool = False
    """The record is a published game (a book's), not one constructed for the project (its ``source`` says)."""
    turnup: bool = True
    """The profile turns a card up (a game without one never speaks of it)."""
    stock_title: str = ""
    """What the table's stock panel is called: "Turn-up and stock", or "Stock" in a game without a turn-up."""
    slug: str = ""
    """The page's file name without ``.html`` (set by the renderer)."""
    first_anchor: str = ""
    steps_count: int = 0
    rules_href: str = ""
    """The profile's rules page."""
    blurb: str = ""
    """One line about the game: the first sentence of the record's own introduction, if it has one."""
    blurb_lang: str = "en"
    blurb_fallback: bool = False
    optimum: str = ""
    """Each analysed deal's points lost to the optimum in its last tricks (an empty string when none is analysed)."""
    questions: int = 0
    questions_text: str = ""
    """"4 questions to answer", or an empty string."""
    seats: list[tuple[str, str, str]] = field(default_factory=list)
    """(seat, label, "Show only North's hand") for the view switch."""
    cards: list[CardView] = field(default_factory=list)
    """Every card of the pack once: the boards and books name cards by their index here."""
    meld_states: list[tuple[str, str]] = field(default_factory=list)
    """The (state, text) pairs the books' tables of combinations use: ``("impossible", "both Q♠ seen")``."""
    data_shared: dict[str, Any] = field(default_factory=dict)
    """The part of :attr:`data` every lesson of the profile and language shares (written into the page once
    encoded, see ``html.data_json``)."""
    data: dict[str, Any] = field(default_factory=dict)
    """What the page's script draws each step from (its board, and the scoring its books follow), as one JSON block
    (see ``lesson.html``)."""

    @property
    def players_named(self) -> bool:
        """True when the record names at least one player (else the seat names say it all)."""
        return any(name for _, name in self.players)


def card_view(card: Card, strings: Words, played: bool = False) -> CardView:
    """A card for a page, named in the interface language."""
    rank = card.rank.symbol
    if card.is_wild:
        # The wild card of 004-C has no suit: a star where the suit would be.
        return CardView(str(card), rank, "★", False, strings["rank_*"], played)
    label = strings["card_label"].format(rank=strings[f"rank_{rank}"], suit=strings[f"suit_of_{card.suit.value}"])
    return CardView(str(card), strings.get(f"symbol_{rank}", rank), card.suit.glyph, card.suit.red, label, played)


def position(seat: str) -> str:
    """Where a seat sits on the drawn table: ``top``, ``bottom``, ``left`` or ``right``."""
    return {"N": "top", "S": "bottom", "E": "right", "W": "left"}.get(seat, "top")


def first_sentence(text: str, limit: int = 180) -> str:
    """The first sentence of a text, cut at a word near ``limit`` characters: the index's one-line summary."""
    flat = " ".join(text.split())
    match = re.match(r"(.+?[.!?…])(\s|$)", flat)
    sentence = match.group(1) if match else flat
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return sentence
