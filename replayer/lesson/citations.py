"""A citation in a learner's words: the one place a developer's reference (``000:L349``, ``seed 004, part C``,
``RULES.md §2.e rule 10``) becomes what a reader knows.

The profiles, the terms and the records cite the five source texts by file number and line, and the project's
rules digest by section, because a developer checks a rule against them. A learner knows neither: on every page a
source is named by its title (each source's title and description are messages of words.py, ``source_*``), with the
exact lines one click away on the site's sources page (:data:`SOURCES_PAGE`, an anchor per cited line), and a rule of
the digest becomes a link to that rule on the site's own rules page of the profile it describes. The texts keep
their precise citations (``bezique rules --source``, the error messages): only what a page shows is changed, here.

:func:`learner_html` gives escaped HTML with the links; :func:`learner_text` the same words without links, for a
title, a menu or an attribute. Every line a page cites is noted in a :class:`CitedLines` while the site is written,
so that the sources page lists exactly those.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from markupsafe import escape

from .words import interface

__all__ = [
    "CITED",
    "RECORDS",
    "SOURCES_PAGE",
    "SOURCE_IDS",
    "CitedLines",
    "LearnerText",
    "cite",
    "learner_html",
    "learner_text",
    "rule_link",
    "set_records",
    "source_key",
]

SOURCES_PAGE = "sources.html"
"""The sources page's file name (one per language folder)."""

SOURCE_IDS = ("000", "001", "002", "003", "004")
"""The five source texts, by the number the citations give them."""

PARTS = ("A", "B", "C", "D", "E")
"""The five texts the source 004 is made of (its parts)."""

# The digest's section of each profile (its rules pages); the first profile of a family is linked unless the page
# is about another of it.
_SECTIONS: dict[str, tuple[str, ...]] = {
    "1": ("classic",),
    "2.a": ("classic",),
    "2.b": ("ua2",),
    "2.c": ("ru19",),
    "2.d": ("ruwiki",),
    "2.e": ("rubicon-000", "rubicon-001"),
    "2.f": ("three-handed",),
    "2.g": ("4h-six-000", "4h-three-001", "4h-three-004"),
    "2.g.1": ("4h-six-000",),
    "2.g.2": ("4h-three-001", "4h-three-004"),
    "2.h": ("chinese-000", "chinese-001"),
    "2.i": ("8p-000", "8p-001"),
    "2.j": ("no-trump",),
    "2.k": ("sixty-six",),
    "2.l": ("infuzorka",),
}

# Where each numbered rule of a profile's section is shown on its rules page (the page's section ids): the deal,
# the play, the combinations, the other scores, the house rules. A rule not listed goes to the page's top.
_RULE_ANCHORS: dict[str, dict[int, str]] = {
    "1": dict.fromkeys(range(1, 10), "play"),
    "2.a": {
        **dict.fromkeys(range(1, 6), "deal"),
        **dict.fromkeys(range(6, 13), "play"),
        13: "melds",
        14: "melds",
        15: "seven",
        16: "brisques",
        **dict.fromkeys(range(17, 20), "play"),
        20: "last-trick",
        21: "other",
        22: "options",
    },
    "2.b": {
        **dict.fromkeys(range(1, 5), "deal"),
        **dict.fromkeys(range(5, 12), "play"),
        12: "melds",
        13: "melds",
        14: "seven",
        15: "other",
        16: "last-trick",
        17: "play",
        18: "play",
        19: "options",
        20: "penalties",
    },
    "2.c": {
        **dict.fromkeys(range(1, 5), "deal"),
        5: "seven",
        **dict.fromkeys(range(6, 14), "play"),
        14: "melds",
        15: "melds",
        16: "other",
        17: "last-trick",
        18: "options",
        19: "penalties",
    },
    "2.d": {
        **dict.fromkeys(range(1, 4), "deal"),
        **dict.fromkeys(range(4, 12), "play"),
        12: "melds",
        13: "melds",
        14: "seven",
        15: "last-trick",
        16: "options",
        17: "penalties",
        18: "play",
    },
    "2.e": {
        **dict.fromkeys(range(1, 6), "deal"),
        6: "play",
        7: "play",
        **dict.fromkeys(range(8, 13), "melds"),
        13: "brisques",
        14: "game",
        15: "game",
    },
    "2.f": {1: "deal", 2: "melds", 3: "deal", 4: "deal", 5: "play", 6: "play", 7: "play", 8: "melds"},
    "2.g.1": {1: "deal", 2: "deal", 3: "deal", 4: "play", 5: "melds", 6: "game", 7: "play"},
    "2.g.2": {1: "deal", 2: "play", 3: "play", 4: "melds", 5: "last-trick", 6: "play", 7: "play"},
    "2.h": {
        **dict.fromkeys(range(1, 5), "deal"),
        **dict.fromkeys(range(5, 9), "play"),
        9: "melds",
        10: "melds",
        11: "play",
        12: "last-trick",
        13: "game",
    },
    "2.i": {1: "deal", 2: "deal", 3: "play", 4: "melds", 5: "melds", 6: "game"},
    "2.j": {1: "deal", 2: "deal", 3: "play", 4: "melds", 5: "melds", 6: "seven", 7: "melds"},
    "2.k": {1: "deal", 2: "other"},
    "2.l": {**dict.fromkeys(range(1, 5), "deal"), 5: "play", 6: "play", 7: "play", 8: "melds", 9: "melds"},
}

# The page's section that holds each anchor above, when the page has no such line (no last-trick bonus, say).
_FALLBACK = {
    "seven": "other",
    "brisques": "other",
    "last-trick": "other",
    "game": "other",
    "hand-target": "other",
    "other": "play",
    "options": "play",
    "penalties": "play",
}

# The heading (a words.py key) of each section a rule link goes to, said in the link.
_PART_WORDS = {
    "deal": "rules_deal",
    "play": "rules_play",
    "melds": "rules_melds",
    "options": "rules_options",
    "penalties": "rules_penalties",
    "ranks": "rules_ranks",
}

_RANGE = r"L\d+(?:\s?[-–]\s?L?\d+)?"
_LINES = rf"{_RANGE}(?:(?:,\s|\sand\s|\sи\s){_RANGE})*"
_SEC = r"§\s?\d+(?:\.[a-z0-9]+)*"
_RULE_NO = r"\d+[a-z]?(?:(?:\s?[-–]\s?|,\s|\sand\s|\sи\s)\d+[a-z]?(?!\.\d|\d|:L))*"
_REF = rf"{_SEC}(?:,?\s(?:rules?|правил[оа]|row)\s[A-Z]?{_RULE_NO}|\s[A-Z]\d+\b)?"
_JOIN = r"(?:[,;]\s(?:with\s|а также\s)?|\swith\s)"
_SEED = r"(?:seeds?|источник(?:а|и|ов|е|ом|у|ам|ами|ах)?)"


def _seed(n: int) -> str:
    """The word "seed" of a citation, kept as ``w<n>``: a Russian text's "источника" keeps its case."""
    return rf"(?P<w{n}>{_SEED})"


_QUALIFIER = r"(?:,\s(?P<q>[^(),;:\d]+)(?=\)))?"
_PATTERN = re.compile(
    "|".join(
        (
            rf"(?P<rules>(?:RULES\.md(?:'s)?\s*)?{_REF}(?:{_JOIN}(?:RULES\.md\s)?{_REF})*)",
            r"(?P<digest>RULES\.md(?:'s)?)",
            rf"(?P<seedlines>{_seed(1)}\s(?P<s1>\d{{3}})(?:-(?P<p1>[A-E])|,\s(?:part|часть)\s(?P<p1b>[A-E]))?\s\("
            rf"(?:\d{{3}}(?:-[A-E])?[:\s])?(?P<l1>{_LINES})\))",
            rf"(?P<seedline>{_seed(2)}\s(?P<s2>\d{{3}}),\s(?:line|строка)\s(?P<n2>\d+))",
            rf"(?P<partlines>\b(?P<s8>\d{{3}})-(?P<p8>[A-E]),\s(?P=s8):(?P<l8>{_LINES}))",
            rf"(?P<lines>\b(?P<s3>\d{{3}})(?:-(?P<p3>[A-E]))?(?::|\s(?=L\d))(?P<l3>{_LINES}))",
            rf"(?P<srclines>\b(?P<s4>\d{{3}})\s\((?P<l4>{_LINES})\))",
            rf"(?P<seeds>{_seed(3)}\s(?P<list>\d{{3}}(?:(?:,\s|\sand\s|\sи\s|/)\d{{3}})+))",
            rf"(?P<seed>{_seed(4)}\s(?P<s5>\d{{3}})(?:-(?P<p5>[A-E])|,\s(?:part|часть)\s(?P<p5b>[A-E]))?{_QUALIFIER})",
            r"(?P<slashes>\b(?P<slist>\d{3}(?:/\d{3})+)\b)",
            r"(?P<part>\b(?P<s6>\d{3})-(?P<p6>[A-E])\b)",
            r"(?P<bare>(?<![-\w.])(?P<s7>00[0-4])(?![-\w]|:L))",
            r"(?P<tag>\[(?P<tg>EW|PW\d|FO|HO|BI|CM|SP|WK|WT|CH|BR9|SA|DE)\])",
            r"(?P<issue>\s?\((?:issue|issues)\s\d+[^()]*\))",
            r"(?P<term>\b(?:optimum|double-dummy|class(?:es)?)\b|оптимум)",
            r"(?P<record>(?<![\w/.-])(?:games/)?(?P<stem>[\w-]+)\.bzq\b)",
        )
    )
)
_MAY_CITE = re.compile(r"\d{3}|[§\[]|RULES\.md|\(issue|optimum|double-dummy|class|оптимум|\.bzq")
"""What every kind of :data:`_PATTERN` has in it (a source's number, a section sign, a tag's bracket, a word): a
text without any, most of a lesson's, is only escaped, without trying each kind at every character."""
_TITLE_SOURCES = re.compile(rf"\s*\({_SEED}\s[^)]*\)")
# A solver's words in the records' generated commentary, in plain words (whatever the page's language: the words
# are those of the text's own).
_TERMS = {
    "optimum": "best result",
    "double-dummy": "worked out with every hand face up",
    "оптимум": "лучший результат",
    # A profile's meld classes are its re-use groups (``bezique rules`` and the rules pages name them so).
    "class": "re-use group",
    "classes": "re-use groups",
}
_NUMBER = re.compile(r"\d+")
_REF_PARTS = re.compile(r"§\s?(?P<sec>\d+(?:\.[a-z0-9]+)*)(?:,?\s(?:rules?|правил[оа])\s(?P<rule>\d+))?")


def source_key(source: str, part: str | None = None) -> str:
    """The words.py key part of a source or of one of 004's parts: ``000``, ``004C``."""
    return f"{source}{part or ''}"


@dataclass
class CitedLines:
    """The lines of each source the pages of a site cite, for its sources page: (source, first, last)."""

    lines: set[tuple[str, int, int]] = field(default_factory=set)

    def add(self, found: Iterable[tuple[str, int, int]]) -> None:
        """Note lines cited."""
        self.lines.update(found)

    def of(self, source: str) -> list[tuple[int, int]]:
        """The lines of ``source`` cited, in order: (first, last)."""
        return sorted((a, b) for s, a, b in self.lines if s == source)


@dataclass(frozen=True)
class LearnerText:
    """A text in a learner's words: escaped HTML with its links, and the source lines it cites."""

    html: str
    cited: tuple[tuple[str, int, int], ...]

    def __html__(self) -> str:
        """The HTML (a template puts it in as it is)."""
        return self.html

    def __str__(self) -> str:
        return self.html


def _ranges(text: str) -> list[tuple[int, int]]:
    """``L107-L117, L321`` → [(107, 117), (321, 321)]."""
    out = []
    for piece in text.split(","):
        numbers = [int(n) for n in _NUMBER.findall(piece)]
        if numbers:
            out.append((numbers[0], numbers[-1]))
    return out


def _name(lang: str, source: str, part: str | None = None) -> str:
    t = interface(lang)
    return t.get(f"source_{source_key(source, part)}_name") or t[f"source_{source}_name"]


def _stems(text: str) -> set[str]:
    return {w[:4].lower() for w in re.findall(r"\w+", text)}


@functools.cache
def _profile_title(lang: str, name: str) -> str:
    from ..profiles import load_profile
    from .words import profile_text

    # The title without its sources in brackets: the link names the rules, the page says where they come from.
    title = _TITLE_SOURCES.sub("", profile_text(lang, name, "title", load_profile(name).title))
    return learner_text(title, lang)


@functools.cache
def _anchors(name: str) -> frozenset[str]:
    """The section ids of a profile's rules page."""
    from ..profiles import load_profile
    from .rules_pages import build_rules

    rules = build_rules(load_profile(name))
    anchors = {"deal", "play", "melds", "ranks"}
    if rules.other:
        anchors.add("other")
        anchors.update(anchor for anchor, _ in rules.other)
    if rules.options:
        anchors.add("options")
    if rules.penalties:
        anchors.add("penalties")
    return frozenset(anchors)


def rule_link(section: str, rule: int | None, here: str = "") -> tuple[str, str, str]:
    """(profile, page, anchor) of a rule of the digest's ``section`` (``2.e``) and number: the page of the profile it
    describes (``here`` when the page is about one of its family) and the section of the page that shows the rule."""
    family = _SECTIONS.get(section) or _SECTIONS.get(section.rsplit(".", 1)[0]) or _SECTIONS["2.a"]
    if section.startswith(("3", "4")):
        family = (here,) if here else ("classic",)
    profile = here if here in family else family[0]
    anchor = _RULE_ANCHORS.get(section, {}).get(rule or 0, "") if rule is not None else ""
    if section.startswith("3"):
        anchor = "options"
    if section.startswith("4"):
        return profile, "glossary.html", ""
    have = _anchors(profile)
    while anchor and anchor not in have:
        anchor = _FALLBACK.get(anchor, "")
    from .rules_pages import rules_slug

    return profile, f"{rules_slug(profile)}.html", anchor


def _rules(match: str, lang: str, here: str, links: bool) -> str:
    t = interface(lang)
    seen: list[tuple[str, str, str]] = []
    for ref in _REF_PARTS.finditer(match):
        target = rule_link(ref["sec"], int(ref["rule"]) if ref["rule"] else None, here)
        if ref["sec"].startswith(("3", "4")) and seen:
            continue
        if target not in seen:
            seen.append(target)
    words = []
    for profile, page, anchor in seen:
        part = t[_PART_WORDS.get(anchor, "rules_other_points")] if anchor else ""
        label = t["cite_rules"].format(title=_profile_title(lang, profile))
        if part:
            label = t["cite_rules_part"].format(rules=label, part=part)
        if links:
            href = f"{page}#{anchor}" if anchor else page
            words.append(f'<a class="cite rule" href="{escape(href)}">{escape(label)}</a>')
        else:
            words.append(label)
    return ", ".join(words)


def _source(lang: str, source: str, part: str | None, spans: list[tuple[int, int]], links: bool) -> str:
    name = _name(lang, source, part)
    if not links:
        return name
    t = interface(lang)
    anchor = f"src-{source}" + (f"-L{spans[0][0]}" if spans else "")
    if spans:
        shown = ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)
        several = len(spans) > 1 or spans[0][0] != spans[0][1]
        title = t.count("cite_lines", 2 if several else 1, lines=shown, source=_name(lang, source))
    else:
        title = t["cite_source_title"].format(source=_name(lang, source))
    return f'<a class="cite source" href="{SOURCES_PAGE}#{escape(anchor)}" title="{escape(title)}">{escape(name)}</a>'


def _join(lang: str, names: list[str]) -> str:
    t = interface(lang)
    if len(names) < 2:
        return "".join(names)
    return t["cite_and"].format(first=", ".join(names[:-1]), last=names[-1])


def _russian(word: str | None, names: str) -> str:
    """A Russian text's "источника 004" keeps its word, in its case, and quotes the name after it."""
    return f"{word} «{names}»" if word and word.startswith("источник") else names


def _convert(text: str, lang: str, here: str, links: bool) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    if _MAY_CITE.search(text) is None:
        return (str(escape(text)) if links else text), ()
    out: list[str] = []
    cited: list[tuple[str, int, int]] = []
    at = 0
    for m in _PATTERN.finditer(text):
        out.append(str(escape(text[at : m.start()])) if links else text[at : m.start()])
        at = m.end()
        kind = m.lastgroup
        if kind is None or kind == "rules":
            out.append(_rules(m.group(0), lang, here, links))
            continue
        if kind == "tag":
            tag = interface(lang)[f"source_tag_{m['tg'][:2]}"]
            out.append(str(escape(tag)) if links else tag)
            continue
        if kind == "issue":  # the project's own bookkeeping, nothing a reader can open
            continue
        if kind == "term":
            plain = _TERMS[m.group(0)]
            out.append(str(escape(plain)) if links else plain)
            continue
        if kind == "record":
            out.append(_record(m["stem"], lang, links))
            continue
        if kind == "digest":
            digest = interface(lang)["cite_digest"]
            out.append(str(escape(digest)) if links else digest)
            continue
        if kind == "seedlines":
            source, part, spans = m["s1"], m["p1"] or m["p1b"], _ranges(m["l1"])
        elif kind == "seedline":
            source, part, spans = m["s2"], None, [(int(m["n2"]), int(m["n2"]))]
        elif kind == "partlines":  # "004-B, 004:L55": the part named, linked to its lines
            source, part, spans = m["s8"], m["p8"], _ranges(m["l8"])
        elif kind == "lines":
            source, part, spans = m["s3"], m["p3"], _ranges(m["l3"])
        elif kind == "srclines":
            source, part, spans = m["s4"], None, _ranges(m["l4"])
        elif kind in ("seeds", "slashes"):
            numbers = _NUMBER.findall(m["list"] or m["slist"])
            names = [_source(lang, n, None, [], links) for n in numbers if n in SOURCE_IDS]
            joined = _join(lang, names) if kind == "seeds" else "/".join(names)
            out.append(_russian(m["w3"], joined) if kind == "seeds" else joined)
            continue
        elif kind == "seed":
            source, part, spans = m["s5"], m["p5"] or m["p5b"], []
            qualifier = m["q"]
            if source in SOURCE_IDS:
                out.append(_russian(m["w4"], _source(lang, source, part, spans, links)))
                if qualifier and not _stems(qualifier) <= _stems(_name(lang, source, part)):
                    out.append(", " + (str(escape(qualifier)) if links else qualifier))
                continue
        elif kind == "bare":
            source, part, spans = m["s7"], None, []
        else:  # part
            source, part, spans = m["s6"], m["p6"], []
        if source not in SOURCE_IDS:
            out.append(str(escape(m.group(0))) if links else m.group(0))
            continue
        cited.extend((source, a, b) for a, b in spans)
        word = m["w1"] if kind == "seedlines" else m["w2"] if kind == "seedline" else None
        out.append(_russian(word, _source(lang, source, part, spans, links)))
    out.append(str(escape(text[at:])) if links else text[at:])
    return "".join(out), tuple(cited)


RECORDS: dict[str, tuple[str, dict[str, str]]] = {}
"""The records of the site being written, by their file's stem: (their lesson's page, their title in each language),
so that a text that names a record's file (``games/worked-deal-000.bzq``) names and links its lesson instead. Set
with :func:`set_records`."""


def set_records(records: Mapping[str, tuple[str, Mapping[str, str]]]) -> None:
    """The records a site's texts may name (see :data:`RECORDS`); the texts written before for other records are
    forgotten."""
    given = {stem: (page, dict(titles)) for stem, (page, titles) in records.items()}
    if given != RECORDS:
        RECORDS.clear()
        RECORDS.update(given)
        learner_html.cache_clear()
        learner_text.cache_clear()


def _record(stem: str, lang: str, links: bool) -> str:
    """A record's file named as a reader knows it: its game's title, quoted, linked to its lesson; a record the site
    has no lesson of, by its name without the file's suffix."""
    page, titles = RECORDS.get(stem, ("", {}))
    title = titles.get(lang) or titles.get("en")
    if not title:
        return str(escape(stem)) if links else stem
    quoted = interface(lang)["cite_record"].format(title=title)
    if not links:
        return quoted
    if not page:
        return str(escape(quoted))
    return f'<a class="cite record" href="{escape(page)}">{escape(quoted)}</a>'


CITED = CitedLines()
"""The lines cited by what :func:`cite` wrote since the site's writer last cleared it."""


def cite(text: str, lang: str, here: str = "") -> str:
    """:func:`learner_html`'s HTML of ``text``, its cited lines noted in :data:`CITED` for the sources page."""
    said = learner_html(text, lang, here)
    if said.cited:
        CITED.add(said.cited)
    return said.html


@functools.lru_cache(maxsize=8192)
def learner_html(text: str, lang: str, here: str = "") -> LearnerText:
    """``text`` as a learner reads it, escaped HTML: each source named by its title and linked to its cited lines on
    the sources page, each rule of the digest linked to the rules page that shows it (``here``: the profile the page
    is about, whose page a rule of its family links to)."""
    html, cited = _convert(text, lang, here, links=True)
    return LearnerText(html, cited)


@functools.lru_cache(maxsize=8192)
def learner_text(text: str, lang: str, here: str = "") -> str:
    """``text`` in a learner's words without links: for a title, a menu, an attribute."""
    return _convert(text, lang, here, links=False)[0]
