"""View-models for the HTML lessons: a replayed game turned into steps with every text already formatted.

Nothing here knows about HTML or Jinja (``replayer/render.py`` does the writing): a :class:`Lesson` holds strings,
numbers and :class:`CardView` values that a template only has to lay out. The interface wording of both languages
lives in :data:`STRINGS`; the record's own words (titles, commentary, questions) are passed through unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .cards import Card, Suit
from .engine import Scoring
from .record import Comment
from .replay import DealResult, GameResult, Snapshot, TrickResult

__all__ = [
    "LANGUAGES",
    "STRINGS",
    "CardView",
    "DealView",
    "Lesson",
    "PlayView",
    "QuestionView",
    "ScoreView",
    "ScoringView",
    "SeatView",
    "SheetRow",
    "SourceItem",
    "Step",
    "build_lesson",
    "card_view",
    "interface",
    "plural",
]

# Every interface string of the site, English and Russian side by side, so that a translator edits one place.
# Keys ending in _one/_few/_many are plural forms (see plural()); English uses the same word for few and many.
STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "site_title": "Bezique lessons",
        "index_intro": "Annotated bezique games, replayed and checked card by card.",
        "no_games": "No games were rendered.",
        "open_lesson": "Open the lesson",
        "back_to_index": "All lessons",
        "rules": "Rules",
        "players": "Players",
        "result": "Result",
        "source": "Source",
        "options": "House rules",
        "steps": "Steps",
        "introduction": "Introduction",
        "prev": "Previous",
        "next": "Next",
        "top": "Top",
        "keys_hint": "Keys ← and → move between steps.",
        "seat_N": "North",
        "seat_S": "South",
        "seat_E": "East",
        "seat_W": "West",
        "deal_title": "Deal {n}",
        "deal_start": "The deal",
        "deal_end": "End of deal {n}",
        "trick_title": "Trick {n}",
        "dealer": "Dealer",
        "leads": "{seat} leads",
        "dealer_leader": "{dealer} deals, {leader} leads.",
        "trumps": "Trumps",
        "hand": "Hand",
        "hand_dealt": "Dealt",
        "on_table": "On the table",
        "nothing": "—",
        "trick": "The trick",
        "wins_trick": "{seat} wins the trick",
        "no_winner": "no winner recorded",
        "scoring": "Scores",
        "no_scoring": "No points scored.",
        "draws": "Draws",
        "stock": "Stock",
        "stock_left": "{n} {cards} left, turn-up included",
        "stock_empty": "The stock is exhausted.",
        "turnup": "Turn-up",
        "turnup_taken": "The turn-up has been drawn.",
        "card_one": "card",
        "card_few": "cards",
        "card_many": "cards",
        "score_after": "Score after the trick",
        "score_start": "Score",
        "commentary": "Commentary",
        "question_for": "Question for {seat}",
        "answer": "Answer",
        "show_answer": "Show the answer",
        "phase_1": "While the stock lasts: any card may be played.",
        "phase_2": "The last {n} tricks: follow suit and win the trick if you can; trump if void.",
        "phase_2_short": "End play",
        "brisques": "Brisques",
        "deal_result": "Deal result",
        "game_total": "Game total",
        "score_sheet": "Score sheet",
        "sheet_step": "Step",
        "sheet_winner": "Won by",
        "sheet_events": "Points",
        "wins_game": "{seat} wins",
        "undecided": "No winner yet (the game is played to {target})",
        "undecided_no_target": "No winner",
        "deal_one": "deal",
        "deal_few": "deals",
        "deal_many": "deals",
        "trick_one": "trick",
        "trick_few": "tricks",
        "trick_many": "tricks",
        "card_label": "{rank} of {suit}",
        "suit_of_S": "spades",
        "suit_of_H": "hearts",
        "suit_of_D": "diamonds",
        "suit_of_C": "clubs",
        "rank_A": "ace",
        "rank_10": "ten",
        "rank_K": "king",
        "rank_Q": "queen",
        "rank_J": "jack",
        "rank_9": "nine",
        "rank_8": "eight",
        "rank_7": "seven",
        "symbol_A": "A",
        "symbol_10": "10",
        "symbol_K": "K",
        "symbol_Q": "Q",
        "symbol_J": "J",
        "header_source": "Source",
        "header_url": "Link",
        "header_page": "Page",
        "header_date": "Date",
        "header_event": "Event",
        "header_site": "Place",
        "header_annotator": "Annotator",
        "header_translator": "Translator",
        "header_note": "Note",
        "header_language": "Language",
        "header_round": "Round",
        "score_declares": "{seat} declares {meld}",
        "score_seven_exchange": "{seat} exchanges the seven of trumps for the turn-up",
        "score_seven_played": "{seat} plays the seven of trumps",
        "score_turnup_seven": "{seat}, the dealer, turns up a seven",
        "score_last_trick": "{seat} wins the last trick",
        "score_brisques": "{seat} counts brisques",
        "score_other": "{seat} scores {kind}",
        "meld_sequence": "the sequence",
        "meld_royal_marriage": "the royal marriage",
        "meld_marriage": "a marriage",
        "meld_bezique": "bezique",
        "meld_double_bezique": "double bezique",
        "meld_four_aces": "four aces",
        "meld_four_kings": "four kings",
        "meld_four_queens": "four queens",
        "meld_four_jacks": "four jacks",
        "generated_by": "Made with the bezique replayer.",
    },
    "ru": {
        "site_title": "Уроки безика",
        "index_intro": "Партии в безик с комментариями, проверенные ход за ходом.",
        "no_games": "Нет ни одной партии.",
        "open_lesson": "Открыть урок",
        "back_to_index": "Все уроки",
        "rules": "Правила",
        "players": "Игроки",
        "result": "Итог",
        "source": "Источник",
        "options": "Договорённости",
        "steps": "Ход партии",
        "introduction": "Вступление",
        "prev": "Назад",
        "next": "Далее",
        "top": "Наверх",
        "keys_hint": "Клавиши ← и → переходят между шагами.",
        "seat_N": "Север",
        "seat_S": "Юг",
        "seat_E": "Восток",
        "seat_W": "Запад",
        "deal_title": "Сдача {n}",
        "deal_start": "Раздача",
        "deal_end": "Конец сдачи {n}",
        "trick_title": "Взятка {n}",
        "dealer": "Сдаёт",
        "leads": "Ходит {seat}",
        "dealer_leader": "Сдаёт {dealer}, первым ходит {leader}.",
        "trumps": "Козыри",
        "hand": "На руке",
        "hand_dealt": "Роздано",
        "on_table": "На столе",
        "nothing": "—",
        "trick": "Взятка",
        "wins_trick": "Взятку берёт {seat}",
        "no_winner": "взявший не указан",
        "scoring": "Очки",
        "no_scoring": "Очков нет.",
        "draws": "Добор",
        "stock": "Колода",
        "stock_left": "осталось {n} {cards}, включая открытую",
        "stock_empty": "Колода кончилась.",
        "turnup": "Открытая карта",
        "turnup_taken": "Открытая карта взята.",
        "card_one": "карта",
        "card_few": "карты",
        "card_many": "карт",
        "score_after": "Счёт после взятки",
        "score_start": "Счёт",
        "commentary": "Комментарий",
        "question_for": "Вопрос: ходит {seat}",
        "answer": "Ответ",
        "show_answer": "Показать ответ",
        "phase_1": "Пока есть колода, можно ходить любой картой.",
        "phase_2": "Последние {n} взяток: надо отвечать в масть и бить, если можно; без масти — козырять.",
        "phase_2_short": "Конец игры",
        "brisques": "Бриски",
        "deal_result": "Итог сдачи",
        "game_total": "Счёт партии",
        "score_sheet": "Запись счёта",
        "sheet_step": "Шаг",
        "sheet_winner": "Взял",
        "sheet_events": "Очки",
        "wins_game": "Победитель: {seat}",
        "undecided": "Победитель не определён (игра до {target})",
        "undecided_no_target": "Победителя нет",
        "deal_one": "сдача",
        "deal_few": "сдачи",
        "deal_many": "сдач",
        "trick_one": "взятка",
        "trick_few": "взятки",
        "trick_many": "взяток",
        "card_label": "{rank} {suit}",
        "suit_of_S": "пик",
        "suit_of_H": "червей",
        "suit_of_D": "бубен",
        "suit_of_C": "треф",
        "rank_A": "туз",
        "rank_10": "десятка",
        "rank_K": "король",
        "rank_Q": "дама",
        "rank_J": "валет",
        "rank_9": "девятка",
        "rank_8": "восьмёрка",
        "rank_7": "семёрка",
        # The Russian books' letters: туз, король, дама, валет.
        "symbol_A": "Т",
        "symbol_10": "10",
        "symbol_K": "К",
        "symbol_Q": "Д",
        "symbol_J": "В",
        "header_source": "Источник",
        "header_url": "Ссылка",
        "header_page": "Страница",
        "header_date": "Дата",
        "header_event": "Событие",
        "header_site": "Место",
        "header_annotator": "Комментатор",
        "header_translator": "Переводчик",
        "header_note": "Примечание",
        "header_language": "Язык",
        "header_round": "Тур",
        "score_declares": "{seat} объявляет {meld}",
        "score_seven_exchange": "{seat} меняет козырную семёрку на открытую карту",
        "score_seven_played": "{seat} играет козырную семёрку",
        "score_turnup_seven": "{seat} сдаёт и открывает семёрку",
        "score_last_trick": "{seat} берёт последнюю взятку",
        "score_brisques": "{seat}: бриски",
        "score_other": "{seat}: {kind}",
        # Accusative forms: they only ever follow "объявляет".
        "meld_sequence": "козырную последовательность",
        "meld_royal_marriage": "козырной марьяж",
        "meld_marriage": "марьяж",
        "meld_bezique": "безик",
        "meld_double_bezique": "двойной безик",
        "meld_four_aces": "четыре туза",
        "meld_four_kings": "четыре короля",
        "meld_four_queens": "четыре дамы",
        "meld_four_jacks": "четыре валета",
        "generated_by": "Сделано программой проверки записей безика.",
    },
}

LANGUAGES = tuple(STRINGS)

# Free-text headers shown on the pages, in this order; any other header follows under its own name.
_HEADER_ORDER = (
    "source",
    "page",
    "url",
    "date",
    "event",
    "site",
    "round",
    "annotator",
    "translator",
    "language",
    "note",
)


def interface(lang: str) -> dict[str, str]:
    """The interface strings of a language; raises ``ValueError`` for a language the site is not written in."""
    try:
        return STRINGS[lang]
    except KeyError:
        raise ValueError(f"no interface language {lang!r} (choose one of {', '.join(LANGUAGES)})") from None


def plural(strings: Mapping[str, str], key: str, n: int) -> str:
    """The form of ``key`` (``card``, ``trick``, ``deal``) that agrees with the number ``n``.

    The three-way split is the Russian rule (1 карта, 2 карты, 5 карт, 21 карта); English has the same word for
    "few" and "many", so the one rule serves both languages.
    """
    if n % 10 == 1 and n % 100 != 11:
        form = "one"
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        form = "few"
    else:
        form = "many"
    return strings[f"{key}_{form}"]


@dataclass(frozen=True)
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

    @property
    def glyph(self) -> str:
        """Rank and suit symbol: ``Q♠``."""
        return f"{self.rank}{self.suit}"


@dataclass(frozen=True)
class SourceItem:
    """A header of the record (source, page, url, …) with its interface label; ``href`` only for web links."""

    key: str
    label: str
    text: str
    href: str | None = None


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class SeatView:
    """One seat at the start of a step: its concealed hand and the declared cards lying face up before it."""

    seat: str
    label: str
    player: str
    """The player's name, or an empty string when the record names none."""
    hand: list[CardView]
    table: list[CardView]


@dataclass(frozen=True)
class PlayView:
    """A card played to a trick (or drawn from the stock) by a seat."""

    seat: str
    label: str
    card: CardView
    winning: bool = False


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class QuestionView:
    """A quiz question asked before a seat's play, with the answers the record accepts."""

    seat: str
    prompt: str
    """"Question for North"."""
    text: str
    answers: list[CardView]


@dataclass
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
    """Hands and tables before the trick (as dealt, for the start)."""
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
    comments: list[str]
    questions: list[QuestionView]
    prev_anchor: str = ""
    prev_title: str = ""
    next_anchor: str = ""
    next_title: str = ""

    @property
    def has_scoring(self) -> bool:
        """True when points were scored in this step (the step list marks it)."""
        return bool(self.scoring)


@dataclass(frozen=True)
class SheetRow:
    """One line of a deal's score sheet."""

    anchor: str
    step: str
    winner: str
    events: list[str]
    scores: list[int]


@dataclass
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
    end_comments: list[str]
    seat_labels: list[str]
    sheet: list[SheetRow]
    end_prev_anchor: str = ""
    end_prev_title: str = ""
    end_next_anchor: str = ""
    end_next_title: str = ""


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
    comments: list[str]
    deals: list[DealView]
    scores: list[ScoreView]
    winner: str
    lang: str = "en"
    slug: str = ""
    """The page's file name without ``.html`` (set by the renderer)."""
    first_anchor: str = ""
    steps_count: int = 0

    @property
    def players_named(self) -> bool:
        """True when the record names at least one player (else the seat names say it all)."""
        return any(name for _, name in self.players)


def card_view(card: Card, strings: Mapping[str, str], played: bool = False) -> CardView:
    """A card for a page, named in the interface language."""
    rank = card.rank.symbol
    label = strings["card_label"].format(rank=strings[f"rank_{rank}"], suit=strings[f"suit_of_{card.suit.value}"])
    return CardView(str(card), strings.get(f"symbol_{rank}", rank), card.suit.glyph, card.suit.red, label, played)


class _Builder:
    """Turns one GameResult into a Lesson in one language."""

    def __init__(self, game: GameResult, lang: str) -> None:
        self.game = game
        self.lang = lang
        self.t = interface(lang)
        self.seats = list(game.profile.seats)
        self.used_ids: set[str] = set()

    # --- small formatters -------------------------------------------------------------------------------

    def seat(self, seat: str | None) -> str:
        if seat is None:
            return ""
        return self.t.get(f"seat_{seat}", seat)

    def player(self, seat: str) -> str:
        name = self.game.players.get(seat, "").strip()
        # The replay fills in the seat letter for a game without a players header, and a record may "name" the
        # players North and South: neither says more than the seat, so neither is shown twice.
        seat_names = {seat.casefold()} | {STRINGS[lang].get(f"seat_{seat}", seat).casefold() for lang in STRINGS}
        return "" if name.casefold() in seat_names else name

    def cards(self, cards: Iterable[Card]) -> list[CardView]:
        return [card_view(c, self.t) for c in cards]

    def scores(self, after: Mapping[str, int], before: Mapping[str, int] | None = None) -> list[ScoreView]:
        return [
            ScoreView(s, self.seat(s), after.get(s, 0), after.get(s, 0) - (before or after).get(s, 0))
            for s in self.seats
        ]

    def trump(self, suit: Suit | None) -> tuple[str, bool]:
        if suit is None:
            return "", False
        name = suit.english if self.lang == "en" else suit.russian
        return f"{suit.glyph} {name}", suit.red

    def unique(self, wanted: str) -> str:
        # A record that numbers two tricks alike would give two sections one id; the second gets a suffix.
        candidate, n = wanted, 2
        while candidate in self.used_ids:
            candidate, n = f"{wanted}-{n}", n + 1
        self.used_ids.add(candidate)
        return candidate

    def stock_text(self, count: int) -> str:
        if count <= 0:
            return self.t["stock_empty"]
        return self.t["stock_left"].format(n=count, cards=plural(self.t, "card", count))

    def scoring(self, event: Scoring) -> ScoringView:
        who = self.seat(event.seat)
        if event.kind in ("seven_exchange", "seven_played", "turnup_seven", "last_trick", "brisques"):
            lead = self.t[f"score_{event.kind}"].format(seat=who)
        elif self.game.profile.meld(event.kind) is not None or f"meld_{event.kind}" in self.t:
            spec = self.game.profile.meld(event.kind)
            meld = self.t.get(f"meld_{event.kind}") or (spec.label if spec else event.kind.replace("_", " "))
            lead = self.t["score_declares"].format(seat=who, meld=meld)
        else:
            lead = self.t["score_other"].format(seat=who, kind=event.kind.replace("_", " "))
        # Brisques are every ace and ten won: a list of cards would say nothing more than the points.
        cards = [] if event.kind == "brisques" else self.cards(event.cards)
        shown = " ".join(c.glyph for c in cards)
        text = f"{lead}{' ' + shown if shown else ''}: {event.points}"
        return ScoringView(event.seat, event.kind, lead, cards, event.points, text)

    def seat_views(
        self, hands: Mapping[str, list[Card]], tables: Mapping[str, list[Card]], plays: Sequence[tuple[str, Card]]
    ) -> list[SeatView]:
        played = {seat: card for seat, card in plays}
        views = []
        for s in self.seats:
            hand = self.cards(hands.get(s, []))
            table = self.cards(tables.get(s, []))
            if s in played:
                # A card may be played from the hand or from the table (declared cards stay playable); mark
                # one copy only, since the two packs hold two of each card.
                code = str(played[s])
                for row in (hand, table):
                    index = next((i for i, c in enumerate(row) if c.code == code), None)
                    if index is not None:
                        row[index] = replace(row[index], played=True)
                        break
            views.append(SeatView(s, self.seat(s), self.player(s), hand, table))
        return views

    def comments(self, comments: Iterable[Comment]) -> list[str]:
        return [text for c in comments if (text := c.text.strip())]

    # --- steps ---------------------------------------------------------------------------------------------

    def start_step(self, deal: DealResult, index: int, single: bool) -> Step:
        long_id = f"deal-{index}-start"
        anchor = self.unique("start" if single else long_id)
        trump, red = self.trump(deal.trump)
        first = deal.tricks[0].before if deal.tricks else None
        totals: Counter[str] = Counter()
        for event in deal.scoring:
            totals[event.seat] += event.points
        scores = first.scores if first is not None else {s: totals.get(s, 0) for s in self.seats}
        stock = first.stock if first is not None else self.game.profile.stock_size
        turnup = card_view(deal.turnup, self.t) if deal.turnup is not None else None
        return Step(
            id=long_id,
            anchor=anchor,
            aliases=[long_id] if anchor != long_id else [],
            kind="start",
            # In a game of several deals the previous/next links must say which deal's start they lead to.
            title=self.t["deal_start"] if single else self.t["deal_title"].format(n=deal.number),
            number=0,
            phase=1,
            phase_note="",
            seats=self.seat_views(deal.hands, {}, []),
            leader=self.t["leads"].format(seat=self.seat(deal.leader)),
            plays=[],
            winner="",
            scoring=[self.scoring(e) for e in deal.scoring],
            draws=[],
            stock=stock,
            stock_text=self.stock_text(stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_start"],
            scores=self.scores(scores, dict.fromkeys(self.seats, 0)),
            comments=self.comments(deal.comments),
            questions=[],
        )

    def trick_step(self, deal: DealResult, index: int, trick: TrickResult, single: bool, phase_note: str) -> Step:
        long_id = f"deal-{index}-trick-{trick.n}"
        anchor = self.unique(f"trick-{trick.n}" if single else long_id)
        trump, red = self.trump(deal.trump)
        before: Snapshot = trick.before
        after: Snapshot = trick.after
        winner_seen = False
        plays = []
        for seat, card in trick.plays:
            # With two packs the same card can be played twice in a trick; the first one played wins.
            winning = seat == trick.winner and not winner_seen
            winner_seen = winner_seen or winning
            plays.append(PlayView(seat, self.seat(seat), card_view(card, self.t), winning))
        questions = [
            QuestionView(seat, self.t["question_for"].format(seat=self.seat(seat)), q.text, self.cards(q.answers))
            for seat, q in trick.questions
        ]
        turnup = card_view(after.turnup, self.t) if after.turnup is not None else None
        return Step(
            id=long_id,
            anchor=anchor,
            aliases=[long_id] if anchor != long_id else [],
            kind="trick",
            title=self.t["trick_title"].format(n=trick.n),
            number=trick.n,
            phase=trick.phase,
            phase_note=phase_note,
            seats=self.seat_views(before.hands, before.tables, trick.plays),
            leader=self.t["leads"].format(seat=self.seat(trick.leader)),
            plays=plays,
            winner=self.t["wins_trick"].format(seat=self.seat(trick.winner)) if trick.winner else "",
            scoring=[self.scoring(e) for e in trick.scoring],
            draws=[PlayView(s, self.seat(s), card_view(c, self.t)) for s, c in trick.draws],
            stock=after.stock,
            stock_text=self.stock_text(after.stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_after"],
            scores=self.scores(trick.scores, before.scores),
            comments=self.comments(trick.comments),
            questions=questions,
        )

    def deal(self, deal: DealResult, index: int, single: bool, totals: dict[str, int]) -> DealView:
        profile = self.game.profile
        steps = [self.start_step(deal, index, single)]
        sheet = [
            SheetRow(steps[0].anchor, steps[0].title, "", _sheet_events(steps[0]), [v.value for v in steps[0].scores])
        ]
        seen_phase_2 = False
        for trick in deal.tricks:
            note = ""
            if trick.phase == 2 and not seen_phase_2:
                note = self.t["phase_2"].format(n=profile.total_tricks - profile.phase1_tricks)
                seen_phase_2 = True
            step = self.trick_step(deal, index, trick, single, note)
            steps.append(step)
            sheet.append(
                SheetRow(
                    step.anchor,
                    str(trick.n),
                    self.seat(trick.winner),
                    _sheet_events(step),
                    [v.value for v in step.scores],
                )
            )
        for seat, points in deal.scores.items():
            totals[seat] = totals.get(seat, 0) + points
        trump, red = self.trump(deal.trump)
        end_anchor = self.unique("end" if single else f"deal-{index}-end")
        last = deal.tricks[-1].scores if deal.tricks else {}
        return DealView(
            number=deal.number,
            id=f"deal-{index}",
            title=self.t["deal_title"].format(n=deal.number),
            summary=self.t["dealer_leader"].format(dealer=self.seat(deal.dealer), leader=self.seat(deal.leader)),
            trump=trump,
            trump_red=red,
            steps=steps,
            end_anchor=end_anchor,
            end_title=self.t["deal_end"].format(n=deal.number),
            brisques=[ScoreView(s, self.seat(s), deal.brisques.get(s, 0)) for s in self.seats] if deal.brisques else [],
            result=self.scores(deal.scores, last or None),
            totals=[ScoreView(s, self.seat(s), totals.get(s, 0)) for s in self.seats]
            if len(self.game.deals) > 1
            else [],
            end_comments=self.comments(deal.end_comments),
            seat_labels=[self.seat(s) for s in self.seats],
            sheet=sheet,
        )

    # --- the lesson ----------------------------------------------------------------------------------------

    def source(self) -> list[SourceItem]:
        headers = {k: v for k, v in self.game.headers.items() if k != "title" and v.strip()}
        keys = [k for k in _HEADER_ORDER if k in headers] + sorted(k for k in headers if k not in _HEADER_ORDER)
        items = []
        for key in keys:
            text = headers[key].strip()
            # Only web addresses become links: a javascript: or data: "url" header must stay inert text.
            href = text if key == "url" and text.lower().startswith(("http://", "https://")) else None
            items.append(SourceItem(key, self.t.get(f"header_{key}", key.capitalize()), text, href))
        return items

    def result(self) -> tuple[str, str]:
        game = self.game
        if game.winner:
            return self.t["wins_game"].format(seat=self.seat(game.winner)), self.seat(game.winner)
        target = game.options.get("target")
        if target is not None:
            return self.t["undecided"].format(target=target), ""
        return self.t["undecided_no_target"], ""

    def build(self) -> Lesson:
        game = self.game
        single = len(game.deals) == 1
        totals: dict[str, int] = {}
        deals = [self.deal(d, i + 1, single, totals) for i, d in enumerate(game.deals)]
        _link_steps(deals)
        result, winner = self.result()
        tricks = sum(len(d.tricks) for d in game.deals)
        scores = self.scores(game.scores or totals)
        count = len(game.deals)
        summary = " · ".join(
            [
                f"{count} {plural(self.t, 'deal', count)}, {tricks} {plural(self.t, 'trick', tricks)}",
                ", ".join(f"{s.label} {s.value}" for s in scores),
                result,
            ]
        )
        defaults = game.profile.default_options()
        options = [(k, str(v)) for k, v in game.options.items() if defaults.get(k) != v]
        return Lesson(
            title=game.title,
            profile=game.profile.name,
            profile_title=game.profile.title,
            players=[(self.seat(s), self.player(s)) for s in self.seats],
            source=self.source(),
            options=options,
            result=result,
            summary=summary,
            comments=self.comments(game.comments),
            deals=deals,
            scores=scores,
            winner=winner,
            lang=self.lang,
            first_anchor=deals[0].steps[0].anchor if deals else "",
            steps_count=sum(len(d.steps) for d in deals),
        )


def _sheet_events(step: Step) -> list[str]:
    """The step's scores in the score sheet's short form: "North declares bezique Q♠ J♦ +40"."""
    return [" ".join([e.lead, *(c.glyph for c in e.cards), f"{e.points:+d}"]) for e in step.scoring]


def _link_steps(deals: Sequence[DealView]) -> None:
    """Fill in the previous/next links: every step in order, each deal's end section after its last trick."""
    chain: list[tuple[str, str, object]] = []
    for deal in deals:
        chain.extend((s.anchor, s.title, s) for s in deal.steps)
        chain.append((deal.end_anchor, deal.end_title, deal))
    for i, (_, _, item) in enumerate(chain):
        prev_anchor, prev_title = chain[i - 1][:2] if i > 0 else ("", "")
        next_anchor, next_title = chain[i + 1][:2] if i + 1 < len(chain) else ("", "")
        if isinstance(item, Step):
            item.prev_anchor, item.prev_title = prev_anchor, prev_title
            item.next_anchor, item.next_title = next_anchor, next_title
        elif isinstance(item, DealView):
            item.end_prev_anchor, item.end_prev_title = prev_anchor, prev_title
            item.end_next_anchor, item.end_next_title = next_anchor, next_title


def build_lesson(game: GameResult, lang: str = "en", slug: str = "") -> Lesson:
    """The lesson view of a replayed game, with the interface text in ``lang`` (``en`` or ``ru``)."""
    lesson = _Builder(game, lang).build()
    lesson.slug = slug
    return lesson
