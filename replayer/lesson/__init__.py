"""Lessons, rules pages and the glossary, as values ready for the templates, and the lessons' HTML.

The package's parts, each with one job:

- :mod:`.words`: the interface's messages and their gettext catalogues (``locale/``), with the plural rules;
  :mod:`.terms`: the sources' own Russian terms;
- :mod:`.views`: the values the pages are made of (no HTML);
- :mod:`.books`: each seat's bookkeeping, worked out by the rules and written into each step's data (the page's
  script only shows it);
- :mod:`.citations`: a source or a rule cited, in a learner's words and linked (the sources page's lines);
- :mod:`.sidecar`: a record's sampled analysis stored beside it, used only while the record is unchanged;
- :mod:`.build`: a replayed game turned into a :class:`Lesson` (:func:`build_lesson`);
- :mod:`.rules_pages`: the rules pages and the glossary (:func:`build_rules`, :func:`build_glossary`);
- :mod:`.html`: the cards' markup and the lesson's steps as HTML (``replayer/render.py`` writes the pages);
- :mod:`.catalogue`: the translators' tool (extract, update and compile the catalogues; needs Babel).
"""

from __future__ import annotations

from .build import build_lesson
from .html import Encoded, card_html, cards_html, data_json, lesson_steps, page_bytes
from .rules_pages import (
    GLOSSARY_PAGE,
    GlossaryEntry,
    GlossaryView,
    MeldRule,
    RulesView,
    build_glossary,
    build_rules,
    rules_slug,
)
from .terms import MELD_TERMS
from .views import (
    Board,
    Book,
    CardView,
    DealView,
    Lesson,
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
    card_view,
    text_lang,
)
from .words import LANGUAGES, Words, interface, profile_text

__all__ = [
    "GLOSSARY_PAGE",
    "LANGUAGES",
    "MELD_TERMS",
    "Board",
    "Book",
    "CardView",
    "DealView",
    "Encoded",
    "GlossaryEntry",
    "GlossaryView",
    "Lesson",
    "MeldRule",
    "PlayView",
    "QuestionView",
    "RulesView",
    "ScoreView",
    "ScoringView",
    "SeatView",
    "SheetRow",
    "SourceItem",
    "Step",
    "TargetView",
    "TextView",
    "Words",
    "build_glossary",
    "build_lesson",
    "build_rules",
    "card_html",
    "card_view",
    "cards_html",
    "data_json",
    "interface",
    "lesson_steps",
    "page_bytes",
    "profile_text",
    "rules_slug",
    "text_lang",
]
