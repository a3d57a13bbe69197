"""The rules pages and the glossary: each profile's rules in words and tables, generated from the profile itself,
and the lessons' terms beside the sources' Russian ones."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card, Rank, Suit
from ..profile import MeldSpec, RuleProfile
from .terms import GLOSSARY_GAME, MELD_TERMS, SUIT_WORDS_RU
from .views import CardView, card_view
from .words import Words, interface, profile_text

__all__ = [
    "GLOSSARY_PAGE",
    "GlossaryEntry",
    "GlossaryView",
    "MeldRule",
    "OptionRule",
    "RankRule",
    "RulesView",
    "SuitRule",
    "build_glossary",
    "build_rules",
    "rules_slug",
]

GLOSSARY_PAGE = "glossary.html"
"""The glossary's file name (one per language folder)."""


@functools.lru_cache(maxsize=256)  # (every lesson asks for its profile's)
def rules_slug(name: str) -> str:
    """The file name (without ``.html``) of a profile's rules page: ``rules-classic``."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower(), flags=re.ASCII).strip("-") or "profile"
    return f"rules-{base}"


@dataclass(frozen=True)
class MeldRule:
    """One line of a rules page's combination table."""

    kind: str
    anchor: str
    name: str
    russian: str
    """The sources' Russian names (an empty string for a kind the glossary does not know)."""
    where: str
    cards: list[CardView]
    pattern: str
    """"of trumps (shown with ♣ as trumps)", "of any suits", …"""
    points: int
    group: str


@dataclass(frozen=True)
class OptionRule:
    """A house rule of a profile."""

    name: str
    anchor: str
    default: str
    values: list[tuple[str, bool]]
    """(value, is the default)."""
    doc: str


@dataclass(frozen=True)
class RankRule:
    """One rank in the card order, in both languages."""

    card: CardView
    name: str
    english: str
    russian: str
    letter_ru: str


@dataclass(frozen=True)
class SuitRule:
    """A suit with its names."""

    glyph: str
    code: str
    red: bool
    name: str
    english: str
    russian: str


@dataclass
class RulesView:
    """A profile's rules page, generated from the profile object."""

    name: str
    slug: str
    title: str
    description: str
    source: str
    deal: list[str]
    play: list[str]
    melds: list[MeldRule]
    melds_intro: str
    other: list[tuple[str, str]]
    """(anchor, sentence) for the seven, the last trick and the brisques."""
    options: list[OptionRule]
    ranks: list[RankRule]
    suits: list[SuitRule]
    penalties: list[tuple[str, str, str]]
    """(kind, name, points) of the penalties the source lists."""


@dataclass(frozen=True)
class GlossaryEntry:
    """A term of the glossary: English, the sources' Russian words, what it means and where the books use it."""

    anchor: str
    english: str
    russian: str
    meaning: str
    where: str
    cards: list[CardView] = field(default_factory=list)
    href: str = ""


@dataclass
class GlossaryView:
    """The glossary page: sections of entries."""

    sections: list[tuple[str, list[GlossaryEntry]]]


# Trumps assumed when a rules page draws a trump combination: the worked deal's clubs.
_EXAMPLE_TRUMP = Suit.C


_VIEWS: dict[tuple[int, Suit, Rank], tuple[Words, CardView]] = {}
"""Each card's view by the identity of the words it is named in (kept with it, so that the id cannot be another's)."""


def _view(card: Card, t: Words) -> CardView:
    """The card's view in these words, made once: the rules pages of a render show the same few dozen cards again
    and again (views are frozen, and html.card_html then writes each one's markup once)."""
    key = (id(t), card.suit, card.rank)
    found = _VIEWS.get(key)
    if found is None or found[0] is not t:
        if len(_VIEWS) >= 1024:  # words made afresh by a long-lived caller must not make this grow without end
            _VIEWS.clear()
        found = _VIEWS[key] = (t, card_view(card, t))
    return found[1]


def _meld_pictures(spec: MeldSpec) -> list[Card]:
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        return sorted(spec.cards_for(_EXAMPLE_TRUMP), key=lambda c: c.sort_key)
    if spec.ranks:
        suit = {"trump": _EXAMPLE_TRUMP, "plain": Suit.H}.get(spec.suit or "", Suit.S)
        return [Card(suit, r) for r in spec.ranks]
    if spec.rank is not None:
        suits = list(Suit) * (spec.count // 4 + 1)
        return [Card(s, spec.rank) for s in suits[: spec.count]]
    return []


def _meld_pattern(spec: MeldSpec, t: Words) -> str:
    if spec.whole_hand:
        return t["pattern_side_hand"] if spec.hand == "no_court_side" else t["pattern_hand"]
    if spec.cards and spec.when_trump:
        # The six-pack bezique (RULES.md §2.h rule 10): other cards under some trump suits.
        other = spec.when_trump[0][1]
        suits = ", ".join(s.glyph for s, c in spec.when_trump if c == other)
        # The cards as the page names them (В♥ Д♣ in Russian), not as a record writes them.
        shown = " ".join(_view(c, t).glyph for c in sorted(set(other), key=lambda c: c.sort_key))
        return f"{t['pattern_cards']}; {t['pattern_when_trump'].format(cards=shown, suits=suits)}"
    if spec.trump_ranks or spec.partner_ranks:
        return t["pattern_partner"]
    if spec.cards:
        return t["pattern_cards"]
    if spec.ranks:
        return t.get(f"pattern_{spec.suit}", "")
    return t["pattern_distinct"] if spec.distinct else t["pattern_kind"]


def _choice_sentence(t: Words, key: str, value: str, what: str) -> str:
    return t.get(f"rule_{key}_{value}") or t["rule_fallback"].format(what=what, value=value)


def _penalty_name(t: Words, kind: str, hand_size: int) -> str:
    """A penalty in words; seed 001's table speaks of 8-card hands (001:L38-L41), read for the profile's hand size
    where it differs, marked inferred."""
    if hand_size != 8:
        adapted = t.get(f"penalty_{kind}_adapted")
        if adapted:
            return adapted.format(n=hand_size, more=hand_size + 1)
    return t.get(f"penalty_{kind}", kind.replace("_", " "))


def build_rules(profile: RuleProfile, lang: str = "en") -> RulesView:
    """The rules page of a profile in ``lang``: every number and switch comes from the profile itself."""
    t = interface(lang)
    n_cards = len(profile.ranks) * 4
    deal = [
        t["fact_deck"].format(
            packs=t.count("n_packs", profile.packs),
            cards=t.count("n_cards", n_cards),
            deck=t.count("n_cards", profile.deck_size),
        ),
        t["fact_hand"].format(
            cards=t.count("n_cards", profile.hand_size),
            packets=", ".join(str(p) for p in profile.deal_packets) or str(profile.hand_size),
        ),
        t["fact_stock"].format(cards=t.count("n_cards", profile.stock_size)),
    ]
    if profile.turnup:
        deal.append(t["fact_turnup"])
    elif profile.trump_fixing:
        fixing = [t.get(f"meldname_{kind}") or kind.replace("_", " ") for kind, _ in profile.trump_fixing]
        deal.append(t["fact_no_turnup"].format(melds=" / ".join(fixing)))
    guess, lift, count = profile.cut_bonus
    if count:
        deal.append(t["rule_cut"].format(guess=guess, lift=lift, count=count))
    phase2 = profile.total_tricks - profile.phase1_tricks
    deal.append(t["fact_tricks"].format(tricks=t.count("n_tricks", profile.phase1_tricks), p2=phase2))
    # With three or four players the winner is followed by the others, not by "the loser".
    draw = f"{profile.draw_order}_many" if profile.players > 2 and profile.draw_order == "winner_first" else None
    play = [
        _choice_sentence(t, "first_leader", profile.first_leader, "first_leader"),
        _choice_sentence(t, "draw_order", draw or profile.draw_order, "draw_order"),
        _choice_sentence(t, "phase1_play", profile.phase1_play, "phase1_play"),
        _choice_sentence(t, "phase2_play", profile.phase2_play, "phase2_play"),
        _choice_sentence(t, "declare_after", profile.declare_after, "declare"),
    ]
    if profile.sides:
        sides = ", ".join(" + ".join(t.get(f"seat_{seat}", seat) for seat in side) for side in profile.sides)
        play.insert(0, t["rule_sides"].format(sides=sides))
    if profile.declare_by == "winner_or_partner":
        play.append(t["rule_declare_by_winner_or_partner"])
    if profile.declare_joint:
        play.append(t["rule_declare_joint"])
    if profile.last_trick_to == "halves":
        play.append(t["rule_last_trick_halves"])
    if tuple(profile.declare_phases) == (1,):
        play.append(t["rule_declare_phase_1"])
    if profile.declare_lead_from:
        play.append(t["rule_lead_from"])
    if profile.table_cards_playable:
        play.append(t["rule_table_playable"])
    melds = []
    for spec in profile.melds:
        russian, where = MELD_TERMS.get(spec.kind, ("", ""))
        melds.append(
            MeldRule(
                kind=spec.kind,
                anchor=f"meld-{spec.kind}",
                name=t.get(f"meldname_{spec.kind}") or spec.label,
                russian=russian,
                where=where,
                cards=[_view(c, t) for c in _meld_pictures(spec)],
                pattern=_meld_pattern(spec, t),
                points=spec.points,
                group=t.get(f"group_{spec.klass}", spec.klass),
            )
        )
    other: list[tuple[str, str]] = []
    sevens = []
    if profile.seven_turnup:
        sevens.append(t["rule_seven_turnup"].format(n=profile.seven_turnup))
    if profile.seven_exchange and profile.seven_rank == Rank.SEVEN:
        sevens.append(t["rule_seven_exchange"].format(n=profile.seven_exchange))
    if profile.seven_played:
        key = "rule_seven_played_win" if profile.seven_played_must_win else "rule_seven_played"
        sevens.append(t[key].format(n=profile.seven_played))
    if profile.seven_rank != Rank.SEVEN:
        rank = t.get(f"rank_{profile.seven_rank.symbol}", profile.seven_rank.symbol)
        sevens.append(t["rule_card_exchange"].format(rank=rank, n=profile.seven_exchange))
    if sevens:
        other.append(("seven", " ".join(sevens)))
    if profile.hand_target:
        rows = "; ".join(t["rule_game_row"].format(points=p, lowest=low) for low, p in profile.game_points)
        target = profile.options["target"].default if "target" in profile.options else ""
        other.append(("hand-target", t["rule_hand_target"].format(n=profile.hand_target, rows=rows, target=target)))
    if profile.last_trick_points:
        other.append(("last-trick", t["rule_last_trick"].format(n=profile.last_trick_points)))
    if profile.brisque_points:
        ranks = ", ".join(t.get(f"rank_{r.symbol}", r.symbol) for r in profile.brisque_ranks)
        text = t["rule_brisques"].format(ranks=ranks, n=profile.brisque_points)
        if profile.brisques_when == "tie_or_rubicon":
            text += " " + t["rule_brisques_tie_or_rubicon"]
        other.append(("brisques", text))
    game = profile.game_scoring
    if game is not None:
        low = t["rule_game_low"].format(low_bonus=game.low_bonus, low_score=game.low_score) if game.low_bonus else ""
        other.append(
            (
                "game",
                t["rule_game_one_hand"].format(
                    bonus=game.game_bonus,
                    difference=t["rule_game_difference" if game.difference else "rule_game_own"],
                    rubicon=game.rubicon,
                    rubicon_bonus=game.rubicon_bonus,
                    low=low,
                ),
            )
        )
    options = []
    for name, option in profile.options.items():
        values = [(v, v == str(option.default)) for v in option.values] or [
            (f"{option.default} ({t['option_int']})", True)
        ]
        doc = profile_text(lang, profile.name, f"option {name}", " ".join(option.doc.split()))
        options.append(OptionRule(name, f"option-{name}", str(option.default), values, doc))
    penalties = [
        (
            kind,
            _penalty_name(t, kind, profile.hand_size),
            str(points) if isinstance(points, int) else t["penalty_all"],
        )
        for kind, points in profile.penalties
    ]
    ru = interface("ru")
    ranks_view = [
        RankRule(
            card=_view(Card(Suit.S, r), t),
            name=t.get(f"rank_{r.symbol}", r.symbol),
            english=r.english,
            russian=r.russian,
            letter_ru=ru.get(f"symbol_{r.symbol}", r.symbol),
        )
        for r in sorted(profile.ranks, reverse=True)
    ]
    suits = [
        SuitRule(
            s.glyph,
            s.value,
            s.red,
            s.english if lang == "en" else s.russian,
            s.english,
            SUIT_WORDS_RU.get(s, s.russian),
        )
        for s in Suit
    ]
    return RulesView(
        name=profile.name,
        slug=rules_slug(profile.name),
        title=profile_text(lang, profile.name, "title", profile.title),
        description=profile_text(lang, profile.name, "description", profile.description),
        source=profile_text(lang, profile.name, "source", profile.source),
        deal=deal,
        play=play,
        melds=melds,
        melds_intro=t["rules_melds_intro"].format(reuse=t["rules_reuse"]),
        other=other,
        options=options,
        ranks=ranks_view,
        suits=suits,
        penalties=penalties,
    )


def build_glossary(lang: str, profiles: Sequence[RuleProfile]) -> GlossaryView:
    """The glossary in ``lang``: the combinations of ``profiles`` (linked to the first profile that has each), the
    game's terms, and the ranks and suits, each beside the sources' Russian words."""
    t = interface(lang)
    melds: list[GlossaryEntry] = []
    seen: set[str] = set()
    for profile in profiles:
        for spec in profile.melds:
            if spec.kind in seen:
                continue
            seen.add(spec.kind)
            russian, where = MELD_TERMS.get(spec.kind, ("", ""))
            english = interface("en").get(f"meldname_{spec.kind}") or spec.label
            meaning = f"{_meld_pattern(spec, t)}: {spec.points}"
            melds.append(
                GlossaryEntry(
                    anchor=f"meld-{spec.kind}",
                    english=english,
                    russian=russian,
                    meaning=meaning,
                    where=where,
                    cards=[_view(c, t) for c in _meld_pictures(spec)],
                    href=f"{rules_slug(profile.name)}.html#meld-{spec.kind}",
                )
            )
    game = [
        GlossaryEntry(anchor, english, russian, t[f"gloss_{anchor}"], where)
        for anchor, english, russian, where in GLOSSARY_GAME
    ]
    ru = interface("ru")
    cards = [
        GlossaryEntry(
            anchor=f"rank-{r.symbol}",
            english=r.english,
            russian=f"{r.russian} ({letter})"
            if (letter := ru.get(f"symbol_{r.symbol}", r.symbol)) != r.symbol
            else r.russian,
            meaning=t.get(f"rank_{r.symbol}", r.english),
            where="000:L15",
            cards=[_view(Card(Suit.S, r), t)],
        )
        for r in sorted(Rank, reverse=True)
    ]
    cards.extend(
        GlossaryEntry(
            anchor=f"suit-{s.value}",
            english=s.english,
            russian=SUIT_WORDS_RU[s],
            meaning=s.english if lang == "en" else s.russian,
            where="000:L79, L83, L91",
            cards=[_view(Card(s, Rank.ACE), t)],
        )
        for s in Suit
    )
    return GlossaryView([(t["glossary_melds"], melds), (t["glossary_game"], game), (t["glossary_cards"], cards)])
