"""Building a lesson: one replayed game turned into a :class:`Lesson` in one language, every text written.

A lesson has a step for each deal's start and each trick: the table before it (as numbers into the lesson's pack,
which the page's script draws), the plays, who won, every declaration and exchange in words with its rule, the draws,
the stock, the running score and the record's commentary in the page's language, the transcriber's notes apart. The
bookkeeping each seat keeps is :mod:`.books`' (the builder is a :class:`BookKeeper`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..cards import CARDS, Card, Suit
from ..explain import Scoring
from ..record import Comment, Question
from ..replay import DealResult, GameResult, Snapshot, TrickResult
from ..rules.deal import trick_winner
from ..rules.endgame import move_card
from .books import BookKeeper, Knowledge, Memory, Target
from .chart import ChartMark, ScoreChart, chart_svg
from .html import card_html
from .rules_pages import rules_slug
from .sidecar import option_difference
from .views import (
    Board,
    Book,
    CardView,
    DealView,
    Lesson,
    LineView,
    PlayView,
    QuestionView,
    ScoreView,
    ScoringView,
    SeatView,
    SheetRow,
    SourceItem,
    Step,
    TargetView,
    TextView,
    first_sentence,
    position,
)
from .words import LANGUAGES, Words, interface, profile_text

__all__ = ["HEADER_ORDER", "Builder", "Texts", "build_lesson", "is_published", "trump_at"]

# Free-text headers shown on the pages, in this order; any other header follows under its own name.
HEADER_ORDER = (
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

SCRIPT_TEXTS = (
    "hand",
    "on_table",
    "nothing",
    "before_trick",
    "trumps",
    "score_before",
    "sheet_so_far",
    "sheet_step",
    "sheet_events",
    "sheet_empty",
    "melds_title",
    "rules_melds",
    "meld_col",
    "no_declarations",
)
"""The interface texts a lesson's script uses (the books' sentences are written here, by the builder)."""


def is_published(game: GameResult) -> bool:
    """True for a game a book printed; a record constructed for the project says so first in its ``source:``
    header ("constructed for this project; ..."), and so does one without a source."""
    source = game.headers.get("source", "").strip().lower()
    return bool(source) and not source.startswith("constructed")


def trump_at(deal: DealResult, trick: int) -> Suit | None:
    """Trumps after ``trick``: the turn-up's, or the suit a declaration fixed (RULES.md §2.e rule 4), or none yet."""
    if deal.trump is None and deal.trump_fixed is not None and trick >= deal.trump_fixed[0]:
        return deal.trump_fixed[1]
    return deal.trump


_RANGE = r"L\d+(?:\s?[-–]\s?L?\d+)?"
_BARE_LINES = re.compile(rf"(?<![\w:§./–-])(?<!,\s)(?<!\sand\s)(?<!\sи\s){_RANGE}(?:(?:,\s|\sand\s|\sи\s){_RANGE})*\b")
"""Line numbers a record's text gives without their source (``L79``, ``L79, L83``); not those that go on a list of
a source's lines (``001:L5, L7``)."""
_SEED_NUMBER = re.compile(r"(?:seed|источник)\s(\d{3})\b")


def record_seed(game: GameResult) -> str:
    """The one source text (``000``) a record's ``source:`` headers name, or an empty string for none or several."""
    found = {
        n
        for key, value in game.headers.items()
        if key.partition("[")[0] == "source"
        for n in _SEED_NUMBER.findall(value)
    }
    return found.pop() if len(found) == 1 else ""


class Texts:
    """The record's own texts in a lesson's language: each place (the game, a deal, a trick, a deal's end) shows its
    texts in that language; where the record has none in it, those of the other language, marked as such.

    ``{[note] ...}`` comments are the transcriber's, shown apart (:meth:`notes`); ``language:`` names the language
    the record was first written in, the other one's texts being translations (:meth:`origin`).
    """

    def __init__(self, lang: str, original: str, seed: str = "") -> None:
        self.lang = lang
        self.original = original
        self.seed = seed
        """The one source text the record says it comes from (``source: ... seed 000 lines 73–263``), whose lines its
        texts may cite bare (``L79``); empty when it names none or several."""

    def placed(self, text: str) -> str:
        """``text`` with its bare line numbers (``L79``, ``(L79, L83)``) given the record's source (``000:L79``), so
        that a learner reads which book they are lines of, and the link leads there (replayer/lesson/citations.py)."""
        if not self.seed or "L" not in text:
            return text
        return _BARE_LINES.sub(lambda m: f"{self.seed}:{m.group(0)}", text)

    def pick(self, items: Iterable[Comment]) -> list[TextView]:
        """The texts of one place in the lesson's language, or (marked) in another when it has none."""
        texts = [(self.placed(c.text.strip()), c.lang or "en") for c in items if c.text.strip()]
        own = [TextView(text, lang) for text, lang in texts if lang == self.lang]
        return own or [TextView(text, lang, fallback=True) for text, lang in texts]

    def comments(self, comments: Sequence[Comment]) -> list[TextView]:
        """The book's commentary of one place."""
        return self.pick(c for c in comments if not c.note) if comments else []

    def notes(self, comments: Sequence[Comment]) -> list[TextView]:
        """The transcriber's notes of one place."""
        return self.pick(c for c in comments if c.note) if comments else []

    def question(self, asked: Sequence[Question]) -> tuple[Question, bool]:
        """Of the record's versions of one question (one per language), the lesson's; and whether it is another
        language's, for want of one."""
        for q in asked:
            if (q.lang or "en") == self.lang:
                return q, False
        return next((q for q in asked if (q.lang or "en") == self.original), asked[0]), True

    def title(self, game: GameResult) -> TextView:
        """The game's title: ``game "..."`` (or ``title:``) in English, ``title[ru]:`` in Russian."""
        if self.lang == "en":
            return TextView(game.title, "en")
        own = game.headers.get(f"title[{self.lang}]", "").strip()
        return TextView(own, self.lang) if own else TextView(game.title, "en", fallback=True)

    def headers(self, headers: Mapping[str, str]) -> dict[str, tuple[str, bool]]:
        """The free-text headers (but the title) in the lesson's language: ``source[ru]:`` rather than ``source:``
        on a Russian page; (text, shown in another language)."""
        found: dict[str, tuple[str, bool]] = {}
        for key, value in headers.items():
            base, _, tag = key.partition("[")
            lang = tag.rstrip("]") or "en"
            if base == "title" or not value.strip():
                continue
            if lang == self.lang:
                found[base] = (self.placed(value.strip()), False)
            elif base not in found:
                # A header in another language stands in until (unless) the page's own is met.
                found[base] = (self.placed(value.strip()), True)
        return found

    def origin(self, t: Words) -> str:
        """Which language the commentary was written in and which is a translation, for a record that says
        (``language:``); an empty string otherwise."""
        if self.original == self.lang:
            return t["text_original"]
        return t.get(f"text_translated_from_{self.original}", "")


class Builder(BookKeeper):
    """Turns one GameResult into a Lesson in one language."""

    def __init__(
        self, game: GameResult, lang: str, books: bool = True, analysis: Sequence[Mapping[str, Any]] | None = None
    ) -> None:
        self.game = game
        self.lang = lang
        self.analysis = list(analysis) if analysis is not None else []
        """Each deal's endgame analysis (replayer.analysis.analyse_deal), when the renderer made one."""
        self._plays: dict[tuple[int, str], Mapping[str, Any]] = {}
        """The analysed plays of the deal being built, by (trick, seat)."""
        self._double_dummy = False
        self.with_books = books
        """Work out each step's books (the page's script shows them; see :func:`build_lesson`)."""
        # The profile as the game's options make it (infuzorka's option packs changes the deck, no-trump's option
        # players the seats and the melds).
        effective = game.profile.with_options(game.options)
        super().__init__(effective, effective.seats, lang)
        self.scorers = list(effective.scorers)
        """Who keeps a score: the seats, or the sides (``N+S``) of a partnership game."""
        self.used_ids: set[str] = set()
        self.rules_page = f"{rules_slug(game.profile.name)}.html"
        self.ranks = sorted(self.profile.ranks, reverse=True)
        self.hidden_labels: list[str] = []
        """What a screen reader hears for a hidden hand of n cards, by n (the page's script draws the hands)."""
        self._seat_sentences: dict[tuple[str, str], str] = {}
        self._stock_texts = self.kit.stock_texts  # (the kit's lessons say the same)
        self._trumps: dict[Suit | None, tuple[str, bool]] = {}
        self.texts = Texts(lang, game.headers.get("language", "").strip().lower()[:2] or "en", record_seed(game))

    # --- small formatters -------------------------------------------------------------------------------

    def seat_says(self, key: str, seat: str) -> str:
        """An interface sentence about a seat ("North leads"), made once per lesson: every step says a few."""
        found = self._seat_sentences.get((key, seat))
        if found is None:
            found = self._seat_sentences[key, seat] = self.t[key].format(seat=self.seat(seat))
        return found

    def seat_gen(self, seat: str) -> str:
        return self.t.get(f"seat_gen_{seat}", self.seat(seat))

    def player(self, seat: str) -> str:
        name = self.game.players.get(seat, "").strip()
        # The replay fills in the seat letter for a game without a players header, and a record may "name" the
        # players North and South: neither says more than the seat, so neither is shown twice.
        seat_names = {seat.casefold()} | {interface(lang).get(f"seat_{seat}", seat).casefold() for lang in LANGUAGES}
        return "" if name.casefold() in seat_names else name

    def cards(self, cards: Iterable[Card]) -> list[CardView]:
        return [self.view(c) for c in cards]

    def scores(self, after: Mapping[str, int], before: Mapping[str, int] | None = None) -> list[ScoreView]:
        return [
            ScoreView(s, self.seat(s), after.get(s, 0), after.get(s, 0) - (before or after).get(s, 0))
            for s in self.scorers
        ]

    def trump(self, suit: Suit | None) -> tuple[str, bool]:
        if suit is None:
            return "", False
        name = suit.english if self.lang == "en" else suit.russian
        return f"{suit.glyph} {name}", suit.red

    def trump_at(self, deal: DealResult, trick: int) -> tuple[str, bool]:
        """:meth:`trump` of the trumps after ``trick`` (see :func:`trump_at`)."""
        suit = trump_at(deal, trick)
        found = self._trumps.get(suit)
        if found is None:
            found = self._trumps[suit] = self.trump(suit)
        return found

    def unique(self, wanted: str) -> str:
        # A record that numbers two tricks alike would give two sections one id; the second gets a suffix.
        candidate, n = wanted, 2
        while candidate in self.used_ids:
            candidate, n = f"{wanted}-{n}", n + 1
        self.used_ids.add(candidate)
        return candidate

    def stock_text(self, count: int) -> str:
        found = self._stock_texts.get(count)
        if found is None:
            if count <= 0:
                found = self.t["stock_empty"]
            else:
                # Without a turn-up (Rubicon, the many-pack games, no-trump) the stock is all face down.
                found = self.t.count("stock_left" if self.profile.turnup else "stock_count", count)
            self._stock_texts[count] = found
        return found

    def rule_href(self, kind: str) -> str:
        """The rules page's section that scores ``kind``, or an empty string."""
        if self.profile.meld(kind) is not None:
            return f"{self.rules_page}#meld-{kind}"
        if kind.startswith("penalty_"):
            return f"{self.rules_page}#penalty-{kind.removeprefix('penalty_')}"
        anchor = {
            "seven_exchange": "seven",
            "seven_shown": "seven",
            "seven_played": "seven",
            "turnup_seven": "seven",
            "last_trick": "last-trick",
            "brisques": "brisques",
            "goes_out": "hand-target",
        }.get(kind)
        return f"{self.rules_page}#{anchor}" if anchor else ""

    def scoring(self, event: Scoring, turnup: Card | None = None) -> ScoringView:
        """A scoring event in words; ``turnup``: the turn-up the event's seat finds under the stock (an exchange
        names both cards)."""
        who = self.seat(event.seat)
        if event.kind == "goes_out":
            lead = self.t["score_goes_out"].format(seat=who, n=self.profile.hand_target)
            return ScoringView(event.seat, event.kind, lead, [], 0, lead, self.rule_href(event.kind))
        if event.kind in ("seven_exchange", "seven_shown") and event.cards:
            # The card the profile exchanges (a seven, a nine, a ten) and the turn-up it takes. A seven that finds
            # the other seven of trumps turned up (exchanged before) is only shown, and scores all the same (ua2's
            # option seven_holder, the games of more seats): the record writes both "exchanges".
            card = self.view(event.cards[0]).glyph
            if event.kind == "seven_shown" or turnup is None or turnup == event.cards[0]:
                lead = self.t["score_seven_shown"].format(seat=who, card=card)
            else:
                lead = self.t["score_seven_exchange"].format(seat=who, card=card, turnup=self.view(turnup).glyph)
            text = f"{lead}: {event.points}"
            return ScoringView(event.seat, event.kind, lead, [], event.points, text, self.rule_href(event.kind))
        if event.kind in ("seven_played", "turnup_seven", "last_trick", "brisques"):
            lead = self.t[f"score_{event.kind}"].format(seat=who)
        elif self.profile.meld(event.kind) is not None or f"meld_{event.kind}" in self.t:
            spec = self.profile.meld(event.kind)
            meld = (
                self.t.get(f"meld_{event.kind}")
                or self.t.get(f"meldname_{event.kind}")
                or (spec.label if spec else event.kind.replace("_", " "))
            )
            lead = self.t["score_declares"].format(seat=who, meld=meld)
        elif event.kind.startswith("penalty_"):
            offence = event.kind.removeprefix("penalty_")
            penalty = self.t.get(f"penalty_{offence}", offence.replace("_", " "))
            lead = self.t["score_penalty"].format(seat=who, penalty=penalty)
        elif f"score_{event.kind}" in self.t:
            lead = self.t[f"score_{event.kind}"].format(seat=who)
        else:
            lead = self.t["score_other"].format(seat=who, kind=event.kind.replace("_", " "))
        # Brisques are every ace and ten won: a list of cards would say nothing more than the points.
        cards = [] if event.kind == "brisques" else self.cards(event.cards)
        shown = " ".join(c.glyph for c in cards)
        text = f"{lead}{' ' + shown if shown else ''}: {event.points}"
        return ScoringView(event.seat, event.kind, lead, cards, event.points, text, self.rule_href(event.kind))

    def mark(self, view: CardView, deal: DealResult, where: tuple[int, str, str]) -> CardView:
        """Mark a card the record left unknown (see replayer.infer), with its alternatives when it is open."""
        inference = deal.inference
        if inference is None:
            return view
        for unknown in inference.unknowns:
            if (unknown.trick, unknown.seat, unknown.role) == where:
                status, others = inference.status(unknown)
                alternatives = " ".join(self.view(c).glyph for c in others)
                label = self.t[f"inferred_{status}"].format(cards=alternatives)
                return replace(view, inferred=status, alternatives=alternatives, label=f"{view.label} ({label})")
        return view

    def mark_dealt(self, deal: DealResult, seats: list[SeatView]) -> list[SeatView]:
        """Mark the dealt cards the record left unknown: those every completion deals, and those chosen."""
        inference = deal.inference
        if inference is None or not inference.hands:
            return seats
        marked = []
        for view in seats:
            hand = inference.hands.get(view.seat)
            if hand is None:
                marked.append(view)
                continue
            certain = Counter(hand["certain"])
            cards = []
            for card in view.hand:
                key = Card.parse(card.code)
                status = "forced" if certain[key] > 0 else "open"
                certain[key] -= 1
                label = self.t[f"inferred_{status}"].format(cards="…")
                cards.append(replace(card, inferred=status, label=f"{card.label} ({label})"))
            marked.append(replace(view, hand=cards))
        return marked

    def hidden_label(self, n: int) -> str:
        """What a screen reader hears for a hidden hand of ``n`` cards (every shorter one's is written too, for the
        page's script, which draws the hands of the tricks)."""
        labels, made = self.hidden_labels, self.kit.hidden_labels
        while len(labels) <= n:
            k = len(labels)
            found = made.get(k)
            if found is None:
                found = made[k] = self.t.count("hidden_cards", k)
            labels.append(found)
        return labels[n]

    def dealt(self, hands: Mapping[str, list[Card]]) -> list[SeatView]:
        """The seats with their hands as dealt (nothing lies on the table yet)."""
        views = []
        for s in self.seats:
            hand = self.cards(hands.get(s, []))
            hidden = self.hidden_label(len(hand))
            views.append(
                SeatView(s, self.seat(s), self.player(s), hand, [], position(s), hidden, self.profile.scorer(s))
            )
        return views

    def question(self, trick: TrickResult, seat: str, asked: Sequence[Question]) -> QuestionView:
        """The question asked before ``seat``'s play, in the lesson's language (``asked``: the record's, one per
        language)."""
        q, fallback = self.texts.question(asked)
        index = next((i for i, (s, _) in enumerate(trick.plays) if s == seat), 0)
        snap = trick.before
        held = sorted({*snap.hands.get(seat, ()), *snap.tables.get(seat, ())}, key=lambda c: c.sort_key)
        played = next((c for s, c in trick.plays if s == seat), None)
        return QuestionView(
            seat,
            self.t["question_for"].format(seat=self.seat(seat)),
            q.text,
            self.cards(q.answers),
            play_index=index,
            choices=self.cards(held),
            choose=self.t["quiz_choose"].format(seat=self.seat(seat)),
            lang=q.lang or "en",
            fallback=fallback,
            better=any(a.better for a in asked),
            played=self.view(played) if played is not None else None,
        )

    # --- steps ---------------------------------------------------------------------------------------------

    def start_step(self, deal: DealResult, index: int, single: bool) -> Step:
        long_id = f"deal-{index}-start"
        anchor = self.unique("start" if single else long_id)
        trump, red = self.trump(deal.trump)
        first = deal.tricks[0].before if deal.tricks else None
        totals: Counter[str] = Counter()
        for event in deal.scoring:
            totals[self.profile.scorer(event.seat)] += event.points
        scores = first.scores if first is not None else {s: totals.get(s, 0) for s in self.scorers}
        stock = first.stock if first is not None else self.profile.stock_size
        turnup = self.view(deal.turnup) if deal.turnup is not None else None
        # What each side had before the deal's own opening scores: nothing in a whole deal, the stated scores of a
        # book fragment's position (its first step shows them, not as points just scored).
        zero = {s: scores.get(s, 0) - totals.get(s, 0) for s in self.scorers}
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
            seats=self.mark_dealt(deal, self.dealt(deal.hands)),
            leader=self.t["leads"].format(seat=self.seat(deal.leader)),
            plays=[],
            winner="",
            scoring=[self.scoring(e, deal.turnup) for e in deal.scoring],
            draws=[],
            stock=stock,
            stock_text=self.stock_text(stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_start"],
            scores=self.scores(scores, zero),
            comments=self.texts.comments(deal.comments),
            notes=self.texts.notes(deal.comments),
            questions=[],
            before_scores=self.scores(zero),
            before_stock=stock,
            before_stock_text=self.stock_text(stock),
            before_turnup=turnup,
        )

    def trick_step(
        self, deal: DealResult, index: int, trick: TrickResult, single: bool, phase_note: str, scored_rows: int
    ) -> Step:
        """A trick's step; ``scored_rows`` is how many rows of the running score sheet stand before it."""
        long_id = f"deal-{index}-trick-{trick.n}"
        anchor = self.unique(f"trick-{trick.n}" if single else long_id)
        trump, red = self.trump_at(deal, trick.n)
        before: Snapshot = trick.before
        after: Snapshot = trick.after
        view, seat_name = self.view, self.seat
        winner_seen = False
        plays = []
        draws = []
        lines: list[LineView] = []
        judged: list[tuple[str, str]] = []
        for seat, card in trick.plays:
            # With two packs the same card can be played twice in a trick; the first one played wins.
            winning = seat == trick.winner and not winner_seen
            winner_seen = winner_seen or winning
            play = PlayView(seat, seat_name(seat), view(card), winning)
            valued = self._plays.get((trick.n, seat))
            sampled = self._sampled.get((trick.n, seat))
            if sampled is not None:
                self.sampled_value(play, sampled, judged)
                if play.mistake and valued is not None and valued["cost"]:
                    lines.append(self.best_line(trick, seat, valued))
                judgment = self._judgments.get((trick.n, seat))
                if judgment is not None:
                    suit = trump_at(deal, trick.n)
                    judged.append(("book", self.judgment(seat, sampled, judgment, suit.value if suit else "")))
            elif valued is not None:
                cost = valued["cost"]
                play.value = self.t["dd_best"] if not cost else f"−{cost}"
                play.mistake = bool(cost)
                if cost:
                    lines.append(self.best_line(trick, seat, valued))
            plays.append(play)
        for seat, card in trick.draws:
            draws.append(PlayView(seat, seat_name(seat), view(card)))
        if deal.inference is not None:
            plays = [replace(p, card=self.mark(p.card, deal, (trick.n, p.seat, "card"))) for p in plays]
            draws = [replace(p, card=self.mark(p.card, deal, (trick.n, p.seat, "draw"))) for p in draws]
        asked: dict[str, list[Question]] = {}
        for seat, q in trick.questions:
            asked.setdefault(seat, []).append(q)
        questions = [self.question(trick, seat, qs) for seat, qs in asked.items()]
        turnup = view(after.turnup) if after.turnup is not None else None
        return Step(
            id=long_id,
            anchor=anchor,
            aliases=[long_id] if anchor != long_id else [],
            kind="trick",
            title=self.t["trick_title"].format(n=trick.n),
            number=trick.n,
            phase=trick.phase,
            phase_note=phase_note,
            seats=[],
            leader=self.seat_says("leads", trick.leader),
            plays=plays,
            winner=self.seat_says("wins_trick", trick.winner) if trick.winner else "",
            scoring=self.trick_scoring(trick),
            draws=draws,
            stock=after.stock,
            stock_text=self.stock_text(after.stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_after"],
            scores=self.scores(trick.scores, before.scores),
            comments=self.texts.comments(trick.comments),
            notes=self.texts.notes(trick.comments),
            questions=questions,
            board=self.board(trick, trump, red, scored_rows + (1 if trick.scoring else 0)),
            lines=lines,
            judged=judged,
        )

    # --- the sampled analysis of every play (a sidecar's) ------------------------------------------------------------

    def _sure(self, play: Mapping[str, Any]) -> str:
        """How sure a sampled value is: exact, or over how many sampled deals."""
        if play["exact"]:
            return self.t["sure_exact"]
        return self.t.count("sure_sampled", int(play["samples"]))

    def _difference(self, play: Mapping[str, Any], card: str) -> tuple[float, float, Mapping[str, float]]:
        """An option's mean difference for the acting side (its points less the other's), its standard error and its
        means."""
        return option_difference(play, card, self.profile.scorer(play["seat"]))

    def sampled_value(self, view: PlayView, play: Mapping[str, Any], judged: list[tuple[str, str]]) -> None:
        """A play's value from the sampled analysis, and, for a mistake (cost at least 10 and at least twice its
        standard error, docs/analysis.md), the better card and why, in the analysis's own numbers."""
        t = self.t
        cost, err = float(play["cost"]), float(play["cost_stderr"])
        exact = bool(play["exact"])
        if play["played"] in play["best"]:
            view.value = t["value_best_exact" if exact else "value_best"]
        else:
            view.value = t["value_cost_exact" if exact else "value_cost"].format(cost=f"{cost:.0f}", err=f"{err:.0f}")
        view.value_title = t["value_sampled_title"]
        view.mistake = cost >= 10 and cost >= 2 * err
        if not view.mistake:
            return
        best = play["best"][0]
        _, _, with_best = self._difference(play, best)
        _, _, with_played = self._difference(play, play["played"])
        own = self.profile.scorer(play["seat"])
        other = next(s for s in with_best if s != own)
        judged.append(
            (
                "mistake",
                t["mistake_why"].format(
                    seat=self.seat(play["seat"]),
                    card=self.view(Card.parse(play["played"])).glyph,
                    best=self.view(Card.parse(best)).glyph,
                    cost=f"{cost:.0f}",
                    err=f"{err:.0f}",
                    own=self.seat(own),
                    other=self.seat(other),
                    own_best=f"{with_best[own]:.0f}",
                    other_best=f"{with_best[other]:.0f}",
                    own_played=f"{with_played[own]:.0f}",
                    other_played=f"{with_played[other]:.0f}",
                    sure=self._sure(play),
                ),
            )
        )

    def judgment(self, seat: str, play: Mapping[str, Any], judgment: Mapping[str, Any], trump: str) -> str:
        """A judgment of the book's at a play, and what the sampled analysis finds of it, said plainly: whether the
        two agree, disagree, or the analysis cannot tell (its numbers within the noise)."""
        t = self.t
        glyph = self.view
        says = judgment.get("says_ru" if self.lang == "ru" else "says") or judgment["says"]
        options = {o["card"] for o in play["options"]}
        preferred = next((c for c in judgment["prefers"] if c in options), play["played"])
        best = play["best"][0]
        d_pref, se_pref, _ = self._difference(play, preferred)
        d_best, se_best, _ = self._difference(play, best)
        sure = self._sure(play)
        card = glyph(Card.parse(preferred)).glyph
        if preferred in play["best"]:
            verdict, found = "agree", t["judged_agrees"].format(card=card, sure=sure)
        else:
            if preferred == play["played"]:
                cost, err = float(play["cost"]), float(play["cost_stderr"])
            else:
                cost, err = d_best - d_pref, (se_best**2 + se_pref**2) ** 0.5
            values = {"card": card, "best": glyph(Card.parse(best)).glyph, "cost": f"{cost:.0f}", "err": f"{err:.0f}"}
            if cost >= 10 and cost >= 2 * err:
                verdict, found = "disagree", t["judged_disagrees"].format(sure=sure, **values)
            else:
                verdict, found = "unsettled", t["judged_unsettled"].format(sure=sure, **values)
        sentences = [found]
        for against in judgment.get("against", ()):
            cards = [c for c in options if (Card.parse(c).suit.value == trump if against == "trumps" else c == against)]
            if not cards:
                continue
            # The best of them (for "trumps": the best trump lead), against the book's card.
            other = max(cards, key=lambda c: self._difference(play, c)[0])
            d_other, se_other, _ = self._difference(play, other)
            diff, err = d_pref - d_other, (se_pref**2 + se_other**2) ** 0.5
            name = glyph(Card.parse(other)).glyph
            if against == "trumps":
                name = t["judged_trumps"].format(card=name)
            values = {"card": card, "other": name, "diff": f"{abs(diff):.0f}", "err": f"{err:.0f}"}
            values["ahead"] = card if diff >= 0 else name
            if diff >= 10 and diff >= 2 * err:
                sentences.append(t["judged_against_confirmed"].format(**values))
            elif -diff >= 10 and -diff >= 2 * err:
                sentences.append(t["judged_against_refuted"].format(**values))
                verdict = "disagree"
            else:
                sentences.append(t["judged_against_unsettled"].format(**values))
                if verdict == "agree":
                    verdict = "partly"
        head = t[f"verdict_{verdict}"]
        return t["judged_book"].format(seat=self.seat(seat), says=says, verdict=head, found=" ".join(sentences))

    def expected_margins(self, deal: DealResult) -> list[list[float]]:
        """The expected final margin of the first scorer over the second after every sampled play: the scores
        before its trick plus the played card's mean points from there to the end of the deal (the analysis's own
        numbers), at the play's place in the trick (trick 3's second card of two at 2.5)."""
        first, second = self.scorers[0], self.scorers[1]
        found = []
        for trick in deal.tricks:
            for i, (seat, _card) in enumerate(trick.plays):
                play = self._sampled.get((trick.n, seat))
                if play is None:
                    continue
                option = next(o for o in play["options"] if o["card"] == play["played"])
                base = trick.before.scores.get(first, 0) - trick.before.scores.get(second, 0)
                margin = base + option["mean"][first] - option["mean"][second]
                found.append([trick.n - 1 + i / len(trick.plays), round(margin, 1)])
        return found

    def line_trick(self, number: int, plays: Sequence[tuple[str, Card]], winner: str | None) -> str:
        """A trick of a line in words: "26. N A♠ S 10♠ → N"."""
        cards = " ".join(f"{self.seat(s)} {self.view(c).glyph}" for s, c in plays)
        return f"{number}. {cards}" + (f" → {self.seat(winner)}" if winner else "")

    def best_line(self, trick: TrickResult, seat: str, valued: Mapping[str, Any]) -> LineView:
        """The solver's best line from a play that loses points: the best card, then best play to the end."""
        from ..analysis import best_line
        from ..solver import Solver

        state = trick.state
        best = Card.parse(valued["best"][0])
        option = next(o for o in valued["options"] if o["card"] == valued["best"][0])
        points = ", ".join(f"{self.seat(k)} {v}" for k, v in option["points"].items())
        title = self.t["dd_best_line"].format(
            seat=self.seat(seat), card=self.view(best).glyph, cost=valued["cost"], points=points
        )
        tricks: list[str] = []
        if state is not None:
            index = next(i for i, (s, _) in enumerate(trick.plays) if s == seat)
            played = [c.index for _, c in trick.plays[:index]]
            line = best_line(state, played, Solver(), best.index)
            seats = state.rules.seats
            for number, moves in line or []:
                plays = [(seats[s], CARDS[move_card(m)]) for s, m in moves]
                winner = plays[trick_winner([move_card(m) for _, m in moves], state.trump)][0]
                tricks.append(self.line_trick(number, plays, winner))
        return LineView(title, tricks)

    def sidelines(self, trick: TrickResult) -> list[LineView]:
        """The record's side lines from this trick (its variations), with their comments in the page's language."""
        found = []
        for k, line in enumerate(trick.variations):
            comments = trick.variation_comments[k] if k < len(trick.variation_comments) else []
            texts = self.texts.comments(comments) + self.texts.notes(comments)
            for t in line:
                texts.extend(self.texts.comments(t.comments))
            tricks = [self.line_trick(t.n, t.plays, t.winner) for t in line]
            found.append(LineView(self.t["sideline"], tricks, texts))
        return found

    def trick_scoring(self, trick: TrickResult) -> list[ScoringView]:
        """The trick's scoring in words, each exchange with the turn-up it takes (the one before it in the trick)."""
        turnup = trick.before.turnup
        views = []
        for event in trick.scoring:
            views.append(self.scoring(event, turnup))
            if event.kind == "seven_exchange" and event.cards:
                turnup = event.cards[0]
        return views

    def board(self, trick: TrickResult, trump: str, trump_red: bool, sheet: int) -> Board:
        """The table before a trick, its cards numbered for the page's script."""
        before = trick.before
        # (the pack numbers cards in display order: its numbers sorted are the sorted hand's, at less cost)
        ids = self.pack.ids
        in_hand, tabled = before.in_hand, before.on_table
        hands = [sorted(ids(in_hand.get(s, ()))) for s in self.seats]
        played = dict(trick.plays)
        number = self.pack.number
        self.hidden_label(max(map(len, hands), default=0))
        scorer = self.profile.scorer
        tables = [sorted(ids(tabled.get(s, ()))) for s in self.seats]
        cards = [number(played[s]) if s in played else -1 for s in self.seats]
        marked = []
        for card, hand, table in zip(cards, hands, tables, strict=True):
            # The core plays a declared card from the table before one from the hand: the mark goes on that copy.
            on_table = table.index(card) if card in table else -1
            marked.append([on_table, hand.index(card) if on_table < 0 and card in hand else -1])
        return Board(
            hands=hands,
            tables=tables,
            played=cards,
            marked=marked,
            scores=[before.scores.get(scorer(s), 0) for s in self.seats],
            turnup=number(before.turnup) if before.turnup is not None else -1,
            stock=before.stock,
            stock_text=self.stock_text(before.stock),
            trump=trump,
            trump_red=trump_red,
            sheet=sheet,
        )

    def deal(self, deal: DealResult, index: int, single: bool, totals: dict[str, int]) -> DealView:
        profile = self.profile
        knowledge = Knowledge(profile, self.seats, self.pack)
        targets = self.kit.targets(deal.trump)
        knowledge.add_scoring(0, deal.scoring)
        memory: dict[str, Memory] = {}
        start = self.start_step(deal, index, single)
        start.has_books = bool(deal.tricks)
        if deal.tricks:
            start.declaring = 1 in profile.declare_phases
        if deal.tricks and self.with_books:
            start.books = self.books(deal.tricks[0].before, 1, knowledge, targets, memory)
        steps = [start]
        sheet = [SheetRow(start.anchor, start.title, "", sheet_events(start), [v.value for v in start.scores])]
        start.sheet = running(sheet)
        scored_rows = 1 if sheet[0].events else 0
        seen_phase_2 = False
        found = self.analysis[index - 1] if index - 1 < len(self.analysis) else None
        endgame = found.get("endgame") if found else None
        self._plays = {(p["trick"], p["seat"]): p for p in endgame["plays"]} if endgame else {}
        # The sampled analysis of every play and the book's judgments, from the record's sidecar when the renderer
        # found a current one (replayer/lesson/sidecar.py).
        self._sampled = {(p["trick"], p["seat"]): p for p in (found or {}).get("plays") or ()}
        self._judgments = {(j["trick"], j["seat"]): j for j in (found or {}).get("judgments") or ()}
        if self._sampled and len(self.scorers) == 2:
            found = {**(found or {}), "expected_margins": self.expected_margins(deal)}
        self._double_dummy = bool(endgame and endgame["double_dummy"])
        first_valued = endgame["first_trick"] if endgame else -1
        # The trick before, whose showings the books take in with the next board (its cards already numbered).
        taken: TrickResult | None = None
        for trick in deal.tricks:
            note = ""
            if trick.phase == 2 and not seen_phase_2:
                note = self.t["phase_2"].format(n=profile.total_tricks - profile.phase1_tricks)
                seen_phase_2 = True
            step = self.trick_step(deal, index, trick, single, note, scored_rows)
            if self._sampled and trick is deal.tricks[0]:
                step.values_note = self.t["sampled_note"].format(
                    samples=max(int(p["samples"]) for p in self._sampled.values())
                )
            elif trick.n == first_valued and not self._sampled:
                step.values_note = self.t["dd_note_double" if self._double_dummy else "dd_note"]
            step.lines.extend(self.sidelines(trick))
            step.has_books = True
            step.declaring = trick.phase in profile.declare_phases
            if self.with_books:
                if taken is not None:
                    # (the replay's snapshot after a trick is the one before the next: its board numbers its cards)
                    knowledge.after_trick(taken, step.board if trick.before is taken.after else None)
                    knowledge.add_scoring(taken.n, taken.scoring)
                step.books = self.books(trick.before, trick.phase, knowledge, targets, memory, step.board)
                taken = trick
            steps.append(step)
            events = sheet_events(step)
            scored_rows += 1 if events else 0
            sheet.append(
                SheetRow(step.anchor, str(trick.n), self.seat(trick.winner), events, [v.value for v in step.scores])
            )
        # Where the profile counts game points (sixty-six), the game's totals add those up.
        for seat, points in (deal.game_points or deal.scores).items():
            totals[seat] = totals.get(seat, 0) + points
        trump, red = self.trump(trump_at(deal, len(deal.tricks)))
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
            brisques=[ScoreView(s, self.seat(s), deal.brisques.get(s, 0)) for s in self.scorers]
            if deal.brisques
            else [],
            result=self.scores(deal.scores, last or None),
            totals=[ScoreView(s, self.seat(s), totals.get(s, 0)) for s in self.scorers]
            if len(self.game.deals) > 1
            else [],
            totals_label=self.t["game_points_total"] if deal.game_points else self.t["game_total"],
            end_comments=self.texts.comments(deal.end_comments),
            end_notes=self.texts.notes(deal.end_comments),
            seat_labels=[self.seat(s) for s in self.scorers],
            sheet=sheet,
            targets=self.target_views(deal.trump),
            chart=self.chart(f"deal-{index}-chart", steps, sheet, [deal.scores.get(s, 0) for s in self.scorers], found),
        )

    def chart(
        self,
        chart_id: str,
        steps: Sequence[Step],
        sheet: Sequence[SheetRow],
        final: list[int],
        found: Mapping[str, Any] | None,
    ) -> str:
        """The deal's chart: each scorer's running score step by step, its declarations marked (SVG markup).

        ``found`` is the deal's analysis; when it holds ``expected_margins`` (the sampled analysis of every play: a
        list of ``[position in tricks, expected final margin of the first scorer over the second]``), the chart draws
        them under the scores, as lichess draws its evaluation. Nothing here estimates them.
        """
        t = self.t
        labels = [self.seat(s) for s in self.scorers]
        scores = [[row.scores[i] for row in sheet] for i in range(len(labels))]
        marks: list[ChartMark] = []
        profile = self.profile
        for x, step in enumerate(steps):
            for event in step.scoring:
                if profile.meld(event.kind) is not None and event.points:
                    line = self.scorers.index(profile.scorer(event.seat))
                    text = t["chart_at"].format(n=x, text=event.text) if x else event.text
                    marks.append(ChartMark(x, line, text))
        ended = ", ".join(f"{label} {value}" for label, value in zip(labels, final, strict=True))
        said = t["chart_declared"].format(items="; ".join(m.text for m in marks)) if marks else t["chart_none"]
        summary = f"{t['chart_final'].format(scores=ended, tricks=t.count('n_tricks', len(steps) - 1))} {said}"
        margin = [(float(x), float(v)) for x, v in (found or {}).get("expected_margins", ())]
        if margin and labels:
            # The panel's words for a screen reader: where the expected margin starts and ends.
            summary += f" {t['chart_margin'].format(seat=labels[0])} ({margin[0][1]:+g} … {margin[-1][1]:+g})."
        return chart_svg(
            ScoreChart(
                id=chart_id,
                title=t["chart_title"],
                labels=labels,
                scores=scores,
                marks=marks,
                final=final,
                axis=t["chart_axis"],
                summary=summary,
                margin=margin,
                margin_label=t["chart_margin"].format(seat=labels[0]) if margin and labels else "",
            )
        )

    def target_views(self, trump: Suit | None) -> list[TargetView]:
        """The rows of the tables of combinations of a deal with these trumps (made once per kit and trumps; the list
        is shared: not to be changed)."""
        found = self.kit.target_views.get(trump)
        if found is None:
            found = self.kit.target_views[trump] = [self.target_view(g) for g in self.kit.targets(trump)]
        return found

    def target_view(self, target: Target) -> TargetView:
        spec = target.spec
        rank = target.rank.symbol if target.rank else ""
        return TargetView(
            spec.kind,
            self.meld_name(spec, target.suit),
            list(target.pictures),
            self.rule_href(spec.kind),
            suit=target.suit.value if target.suit is not None else "",
            needed=list(target.needed),
            of_rank=list(target.of_rank),
            count=target.count,
            left=f"kind_left_{rank}" if target.count else "",
            news_name=self.meld_name(spec, target.suit, form=self.t["news_meld_form"]),
        )

    def data(self, deals: Sequence[DealView]) -> dict[str, Any]:
        """What the page's script needs to draw each step's board and work out each seat's books
        (``static/lesson.js`` reads it).

        Cards are numbers (indices into ``cards``); every text is written here, in the lesson's language (the books'
        as templates the script fills in), so that the script only counts and lays things out.
        """
        t = self.t
        steps: list[dict[str, Any]] = []
        for d, deal in enumerate(deals):
            for step in deal.steps:
                step.data = len(steps)
                board = step.board
                entry: dict[str, Any] = {
                    "deal": d,
                    "anchor": step.anchor,
                    "n": step.number,
                    "phase": step.phase,
                    "books": step.has_books,
                    "board": None
                    if board is None
                    else {
                        "hands": board.hands,
                        "tables": board.tables,
                        "played": board.played,
                        "marked": board.marked,
                        "scores": board.scores,
                        "turnup": board.turnup,
                        "stock": board.stock,
                        "stock_text": board.stock_text,
                        "trump": board.trump,
                        "trump_red": board.trump_red,
                        "sheet": board.sheet,
                    },
                }
                if step.has_books:
                    entry["declaring"] = step.declaring
                if step.books:
                    entry["book"] = [_book_data(b) for b in step.books]
                steps.append(entry)
        others = {v: ", ".join(self.seat_gen(s) for s in self.seats if s != v) for v in self.seats}
        return {
            **self.page_data(),
            "seats": [
                {"seat": s, "label": self.seat(s), "player": self.player(s), "position": position(s)}
                for s in self.seats
            ],
            "hidden": self.hidden_labels,
            "books": [
                {
                    "title": t["book_title"].format(seat_gen=self.seat_gen(v), seat=self.seat(v)),
                    "unseen": t["unseen_title"].format(seat=self.seat(v)),
                    "known": t["known_in_hand"].format(seat_gen=others[v]),
                }
                for v in self.seats
            ],
            "deals": [
                {
                    "labels": deal.seat_labels,
                    "sheet": [[r.anchor, r.step, r.events, r.scores] for r in deal.sheet if r.events],
                    "targets": self.targets_data(deal.targets),
                }
                for deal in deals
            ],
            "steps": steps,
            # The books number their states as they first come, book by book in the order the steps list them
            # (see BookKeeper.numbered): their numbers are the data's as they are.
            "states": [list(state) for state in self.state_list],
        }

    def page_data(self) -> dict[str, Any]:
        """The part of the data block that depends only on the profile and the language (made once per kit)."""
        found = self.kit.page_data
        if found:
            return found
        t = self.t
        found.update(
            {
                # code, rank, suit symbol, red, label, suit letter,
                # and the card's markup (html.py's, the one place it is written)
                "cards": [
                    [v.code, v.rank, v.suit, v.red, v.label, c.suit.value, card_html(v).text]
                    for c, v in zip(self.pack.cards, map(self.view, self.pack.cards), strict=True)
                ],
                "deck": self.pack.deck,
                "ranks": [self.view(Card(Suit.S, r)).rank for r in self.ranks],
                # The table of unseen cards, suit by suit: the profile's ranks (not the extra cards of some packs).
                "grid": [[self.pack.index[Card(s, r)] for r in self.ranks] for s in Suit],
                "suits": [[s.value, s.glyph, s.red, s.english if self.lang == "en" else s.russian] for s in Suit],
                "rules": self.rules_page,
                "text": {key: t[key] for key in SCRIPT_TEXTS},
                "stock_title": t["turnup_and_stock" if self.profile.turnup else "stock"],
            }
        )
        return found

    @staticmethod
    def targets_data(targets: Sequence[TargetView]) -> list[dict[str, Any]]:
        """The rows of a deal's table of combinations, as its books show them (their states are the books')."""
        return [{"name": g.name, "pictures": g.pictures} for g in targets]

    # --- the lesson ----------------------------------------------------------------------------------------

    def source(self) -> list[SourceItem]:
        """The record's headers, each in the lesson's language where the record has it (``source[ru]:``)."""
        headers = self.texts.headers(self.game.headers)
        keys = [k for k in HEADER_ORDER if k in headers] + sorted(k for k in headers if k not in HEADER_ORDER)
        items = []
        for key in keys:
            text, fallback = headers[key]
            # Only web addresses become links: a javascript: or data: "url" header must stay inert text.
            href = text if key == "url" and text.lower().startswith(("http://", "https://")) else None
            if key == "language":
                text, fallback = self.t.get(f"language_{text.lower()[:2]}", text), False
            # Addresses, pages and dates read the same in every language: only a text left untranslated is marked.
            fallback = fallback and key not in ("url", "page", "date")
            lang = self.lang if not fallback else ("en" if self.lang != "en" else self.texts.original)
            items.append(SourceItem(key, self.t.get(f"header_{key}", key.capitalize()), text, href, fallback, lang))
        return items

    def result(self) -> tuple[str, str]:
        game = self.game
        scored = game.deals[-1].game_scores if game.deals else {}
        if game.winner and scored:
            # A one-hand game (Rubicon, six- and eight-pack): the game score, not only the hand's, decides.
            scores = ", ".join(f"{self.seat(s)} {v}" for s, v in scored.items())
            return self.t["wins_game_score"].format(seat=self.seat(game.winner), scores=scores), self.seat(game.winner)
        if game.winner:
            return self.t["wins_game"].format(seat=self.seat(game.winner)), self.seat(game.winner)
        target = game.options.get("target")
        if target is not None:
            return self.t["undecided"].format(target=target), ""
        return self.t["undecided_no_target"], ""

    def blurb(self) -> TextView | None:
        """The first sentence of the record's introduction in the lesson's language (the index's one line)."""
        game = self.game
        for comments in [game.comments, *(d.comments for d in game.deals)]:
            for comment in self.texts.comments(comments):
                return replace(comment, text=first_sentence(comment.text))
        return None

    def build(self) -> Lesson:
        game = self.game
        single = len(game.deals) == 1
        totals: dict[str, int] = {}
        deals = [self.deal(d, i + 1, single, totals) for i, d in enumerate(game.deals)]
        link_steps(deals)
        data = self.data(deals)
        result, winner = self.result()
        tricks = sum(len(d.tricks) for d in game.deals)
        scores = self.scores(game.scores or totals)
        summary = " · ".join(
            [
                f"{self.t.count('n_deals', len(game.deals))}, {self.t.count('n_tricks', tricks)}",
                ", ".join(f"{s.label} {s.value}" for s in scores),
                result,
            ]
        )
        defaults = game.profile.default_options()
        options = [(k, str(v)) for k, v in game.options.items() if defaults.get(k) != v]
        questions = sum(len(s.questions) for d in deals for s in d.steps)
        title = self.texts.title(game)
        lost = [
            ", ".join(f"{self.seat(k)} {v}" for k, v in found["endgame"]["lost"].items())
            for found in self.analysis
            if found.get("endgame")
        ]
        optimum = self.t["dd_lost"].format(points="; ".join(lost)) if lost else ""
        blurb = self.blurb()
        return Lesson(
            title=title.text,
            title_lang=title.lang,
            title_fallback=title.fallback,
            profile=game.profile.name,
            profile_title=profile_text(self.lang, game.profile.name, "title", game.profile.title),
            players=[(self.seat(s), self.player(s)) for s in self.seats],
            source=self.source(),
            options=options,
            result=result,
            summary=summary,
            optimum=optimum,
            comments=self.texts.comments(game.comments),
            notes=self.texts.notes(game.comments),
            text_note=self.texts.origin(self.t),
            published=is_published(game),
            turnup=self.profile.turnup,
            stock_title=self.t["turnup_and_stock" if self.profile.turnup else "stock"],
            deals=deals,
            scores=scores,
            winner=winner,
            lang=self.lang,
            first_anchor=deals[0].steps[0].anchor if deals else "",
            steps_count=sum(len(d.steps) + 1 for d in deals),
            rules_href=self.rules_page,
            blurb=blurb.text if blurb else "",
            blurb_lang=blurb.lang if blurb else self.lang,
            blurb_fallback=blurb.fallback if blurb else False,
            questions=questions,
            questions_text=self.t.count("lesson_questions", questions) if questions else "",
            seats=[(s, self.seat(s), self.t["view_only"].format(seat_gen=self.seat_gen(s))) for s in self.seats],
            cards=[self.view(c) for c in self.pack.cards],
            meld_states=self.state_list,
            data_shared=self.page_data(),
            data=data,
        )


def sheet_events(step: Step) -> list[str]:
    """The step's scores in the score sheet's short form: "North declares bezique Q♠ J♦ +40"."""
    return [
        " ".join([e.lead, *(c.glyph for c in e.cards), *([f"{e.points:+d}"] if e.kind != "goes_out" else [])])
        for e in step.scoring
    ]


def running(sheet: Sequence[SheetRow]) -> list[SheetRow]:
    """A step's running score sheet: the rows so far where something was scored, the step's own row marked."""
    rows = [row for row in sheet[:-1] if row.events]
    if sheet and sheet[-1].events:
        last = sheet[-1]
        # (made directly: dataclasses.replace looks the fields up again for each of a lesson's thirty steps)
        rows.append(SheetRow(last.anchor, last.step, last.winner, last.events, last.scores, now=True))
    return rows


def link_steps(deals: Sequence[DealView]) -> None:
    """Fill in the previous/next links and positions: every step in order, each deal's end after its last trick."""
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
            item.index = i + 1
        elif isinstance(item, DealView):
            item.end_prev_anchor, item.end_prev_title = prev_anchor, prev_title
            item.end_next_anchor, item.end_next_title = next_anchor, next_title
            item.end_index = i + 1


_DIGITS = bytes.maketrans(bytes(range(36)), b"0123456789abcdefghijklmnopqrstuvwxyz")
"""A count of unseen copies of a card as one base-36 character (a pack of ten holds at most ten of one card)."""


def _book_data(book: Book) -> list[Any]:
    """A seat's book as the page's script shows it: the unseen copies of each card as one character each, their
    number and sentence, the cards known in another hand, the news, and each combination's state."""
    unseen = book.unseen.translate(_DIGITS).decode("ascii")
    return [unseen, book.unseen_count, book.unseen_text, book.known, book.news, book.melds]


def build_lesson(
    game: GameResult,
    lang: str = "en",
    slug: str = "",
    books: bool = True,
    analysis: Sequence[Mapping[str, Any]] | None = None,
) -> Lesson:
    """The lesson view of a replayed game, with the interface text in ``lang`` (``en`` or ``ru``).

    Each seat's books are worked out here, by the rules (:mod:`.books`), into :attr:`Step.books` and
    :attr:`Lesson.meld_states`, and given to the page's script in the lesson's data (``book`` of each step), which
    only shows them; ``books=False`` leaves them out (a lesson without its bookkeeping). ``analysis``: each deal's
    endgame analysis (:func:`replayer.analysis.analyse_deal`), whose values the last tricks show under their cards.
    """
    lesson = Builder(game, lang, books, analysis).build()
    lesson.slug = slug
    return lesson
