"""Writing the HTML site: an index of games, one lesson page per game, rules pages and a glossary (``bezique render``).

This is the only module that imports jinja2. Templates and static files come from ``site_templates/`` (found with
:func:`replayer.notation.data_dir`); the pages refer to nothing outside the output folder, so they work opened
straight from the disk. Every file is written atomically, and a marker file tells a folder the renderer made from
one it must not write into without ``force``.

Several interface languages can be written in one run: the first at the top of the output folder, each other one
in a sub-folder named after it (``site/ru/``), all sharing one ``static/`` folder, every page linking to its
translations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup

from .collector import no_cycle_collection
from .distribute import run_tasks
from .files import write_atomic
from .lesson import (
    GLOSSARY_PAGE,
    LANGUAGES,
    Encoded,
    Lesson,
    build_glossary,
    build_lesson,
    build_rules,
    card_html,
    cards_html,
    data_json,
    interface,
    lesson_steps,
    page_bytes,
    profile_text,
    rules_slug,
)
from .lesson.build import Texts
from .lesson.citations import CITED, SOURCE_IDS, SOURCES_PAGE, cite, learner_text, set_records
from .lesson.sidecar import read_sidecar
from .notation import data_dir
from .profile import RuleProfile
from .profiles import load_profile, profile_names
from .replay import GameResult, ReplayResult

__all__ = [
    "DEFAULT_LANGUAGES",
    "MARKER",
    "STATIC_SUFFIXES",
    "lesson_slug",
    "make_environment",
    "parse_languages",
    "render_site",
]

MARKER = ".bezique-site"
"""Written into every output folder; a non-empty folder without it is not ours to write into."""

STATIC_SUFFIXES = (".css", ".js", ".svg")
"""The static files copied (the same suffixes the package installs)."""

DEFAULT_LANGUAGES = ("en", "ru")
"""What ``bezique render`` writes unless told otherwise: English at the top, Russian in ``ru/``."""

_MARKER_TEXT = "This folder was written by bezique render; it may be overwritten by the next render.\n"


def make_environment(templates: Path | None = None) -> Environment:
    """The Jinja environment of the site: HTML autoescaping, an error for any undefined name, compact JSON."""
    folder = templates if templates is not None else data_dir("site_templates")
    env = Environment(
        loader=FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # A lesson's data block (``tojson``) is read only by its script: written compactly, its keys in the order the
    # builder gives them rather than sorted.
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":")}
    # A card's markup, and a row of cards', is written in one place, replayer/lesson/html.py, for the templates as
    # for the steps.
    env.globals["card"] = card_html
    env.globals["cards"] = cards_html
    env.globals["sources_page"] = SOURCES_PAGE
    env.filters["cite"] = _cite
    env.filters["plain"] = _plain
    return env


def _cite(text: str, t: Any, here: str = "") -> Markup:
    """A text of a page in a learner's words (replayer/lesson/citations.py), in the language of the words ``t``:
    sources and rules named and linked (a rule of ``here``'s family to ``here``'s rules page)."""
    return Markup(cite(str(text), _lang_of(t), here))


def _plain(text: str, t: Any) -> str:
    """A title in a learner's words, without links (it is a link or a page title itself)."""
    return learner_text(str(text), _lang_of(t))


def _lang_of(t: Any) -> str:
    # A site page's words are a namespace (see _words); the puzzle page's are the interface's own Words.
    return str(t.lang_code if hasattr(t, "lang_code") else t.lang)


@dataclass(frozen=True)
class _Source:
    """A source text on the sources page: its name, what it is, and the lines the pages cite."""

    id: str
    name: str
    about: str
    lines: list[tuple[int, int, str]]


def _sources(lang: str) -> list[_Source]:
    t = interface(lang)
    out = []
    for source in SOURCE_IDS:
        lines = []
        for first, last in CITED.of(source):
            shown = str(first) if first == last else f"{first}–{last}"
            # (the plural agrees with "line" or "lines", not with the lines' number)
            lines.append((first, last, t.count("sources_line", 1 if first == last else 2, lines=shown)))
        # One entry per first line: the anchor a citation links to.
        unique = list({first: (first, last, label) for first, last, label in reversed(lines)}.values())[::-1]
        out.append(_Source(source, t[f"source_{source}_name"], t[f"source_{source}_about"], sorted(unique)))
    return out


def _environment(templates: Path) -> Environment:
    """The environment of a render: one per templates folder for the whole process, so that Jinja compiles each
    template once and a second render (the benchmark's, a long-lived caller's) does not compile them again; a new
    one when a template file changed since (its time or size), so that an edited template is still picked up."""
    stamp = tuple(
        (p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(templates.glob("*.html")) if p.is_file()
    )
    return _compiled(templates, stamp)


@functools.lru_cache(maxsize=4)
def _compiled(templates: Path, stamp: tuple[tuple[str, int, int], ...]) -> Environment:
    # The files are looked at once per render (``stamp``), not again at every page and template it includes, as
    # Jinja's auto_reload would.
    env = make_environment(templates)
    env.auto_reload = False
    return env


@functools.lru_cache(maxsize=4)
def _words(lang: str) -> SimpleNamespace:
    # The templates read the interface words as attributes (t.permalink), a few dozen times a step: a namespace
    # answers directly, where for a dict Jinja first tries, and fails, an attribute.
    return SimpleNamespace(**interface(lang), lang_code=lang)


def lesson_slug(path: str, index: int, taken: set[str] | None = None) -> str:
    """The lesson's file name without ``.html``: the record's file name and the game's number (``deal-2``).

    Only ASCII letters, digits and hyphens are kept, so that the links work from any disk and server; a name
    already in ``taken`` gets a suffix (two records may share a file name in different folders).
    """
    stem = Path(path).stem.lower()
    base = re.sub(r"[^a-z0-9]+", "-", stem, flags=re.ASCII).strip("-") or "game"
    # The rules pages share the folder: a record called rules-classic.bzq must not replace one. (The game's number
    # at the end keeps every slug apart from index.html and glossary.html.)
    if base.startswith("rules-"):
        base = f"game-{base}"
    slug = f"{base}-{index}"
    candidate, n = slug, 2
    while taken is not None and candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    if taken is not None:
        taken.add(candidate)
    return candidate


def parse_languages(text: str) -> list[str]:
    """``en,ru`` → ``["en", "ru"]``; raises ``ValueError`` for an unknown or repeated language."""
    langs = [part.strip() for part in text.split(",") if part.strip()]
    if not langs:
        raise ValueError(f"no language given (choose from {', '.join(LANGUAGES)})")
    for lang in langs:
        interface(lang)
    if len(set(langs)) != len(langs):
        raise ValueError(f"a language is given twice in {text!r}")
    return langs


def _check_output(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out} exists and is not a folder; choose another --out")
    if out.is_dir() and not force and not (out / MARKER).is_file() and any(out.iterdir()):
        raise FileExistsError(
            f"{out} is not empty and was not written by bezique render (no {MARKER} file in it); "
            "choose an empty or new folder, or use --force to write into it anyway"
        )


def _static_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in STATIC_SUFFIXES)


@dataclass(frozen=True)
class _Language:
    """One interface language of a render: where its pages go and how they reach the shared files."""

    code: str
    folder: Path
    root: str
    """The way from its pages to the top of the site: ``""`` or ``"../"``."""
    prefix: str
    """Its folder seen from the top of the site: ``""`` or ``"ru/"``."""


def _profiles(lessons_profiles: Iterable[RuleProfile]) -> list[RuleProfile]:
    """Every shipped profile and every profile a game uses, each once (by name), shipped ones first."""
    found: dict[str, RuleProfile] = {}
    # The base game first, then by number of players and name: the glossary links (and values) each combination
    # from the first profile that has it, and the many-pack variants (8p-000 sorts before classic) change the values
    # of classic's melds; the two-handed games lead the lists.
    for profile in sorted(
        (load_profile(n) for n in profile_names()), key=lambda p: (p.name != "classic", p.players, p.name)
    ):
        found[profile.name] = profile
    for profile in lessons_profiles:
        found.setdefault(profile.name, profile)
    return list(found.values())


def _index_groups(lessons: Sequence[Lesson], profiles: Sequence[RuleProfile]) -> list[tuple[str, list[Lesson]]]:
    """The index's groups: the published games first, then the constructed ones by profile (in the profiles'
    order), each as (the profile's name, or an empty string for the published games; its lessons)."""
    order = {p.name: i for i, p in enumerate(profiles)}
    # A complete record before the same game printed with its unknowns (worked-deal-000 before its -as-printed).
    published = sorted((lesson for lesson in lessons if lesson.published), key=lambda lesson: lesson.slug)
    groups: list[tuple[str, list[Lesson]]] = [("", published)] if published else []
    by_profile: dict[str, list[Lesson]] = {}
    for lesson in lessons:
        if not lesson.published:
            by_profile.setdefault(lesson.profile, []).append(lesson)
    for name in sorted(by_profile, key=lambda n: (order.get(n, len(order)), n)):
        groups.append((name, by_profile[name]))
    return groups


def render_site(
    results: Iterable[ReplayResult],
    out: Path,
    lang: str | Sequence[str] = "en",
    force: bool = False,
    warnings: list[str] | None = None,
    jobs: int = 1,
) -> list[Path]:
    """Write the site into ``out``; returns the files written (the marker file is not in the list).

    For each language of ``lang`` (one code, or several: the first at the top of ``out``, the others in
    sub-folders named after them) it writes ``index.html``, one lesson page per game, a rules page per profile
    (``rules-NAME.html``) and ``glossary.html``; the static files go once into ``out/static``.

    A record with a current sidecar (``deal.analysis.json`` beside ``deal.bzq``, replayer/lesson/sidecar.py) gets its
    sampled analysis in its lessons: every play's value, its mistakes, the book's judgments beside the analysis, the
    expected margin in the chart. A stale or unreadable sidecar is left out, with a line in ``warnings``.

    ``jobs``: the endgame analyses, then the lessons, the rules pages and the glossary, are worked out and written
    in that many forked processes (where the system forks), the index and the sources page here after them; the
    site is the same byte for byte whatever the number.

    Raises ``FileExistsError`` when ``out`` is a file, or a non-empty folder without the renderer's marker file
    (unless ``force``), and ``ValueError`` for an interface language other than ``en`` and ``ru``.
    """
    results = list(results)  # whatever replays them does so before the collector is paused
    # (a render allocates some ten thousand objects a page and makes no cycle: a test checks it)
    with no_cycle_collection():
        return _render_site(results, Path(out), lang, force, warnings if warnings is not None else [], jobs)


@dataclass
class _Written:
    """A page written (here or in a forked process): its file, the source lines it cites (for the sources page),
    and for a lesson, the lesson's facts (for the index)."""

    lesson: Lesson | None
    path: Path
    cited: frozenset[tuple[str, int, int]]


RENDER_BUDGET = 20_000
"""Nodes the solver may visit per deal of a lesson (past it, the deal's values are left out and the reason said).
Every two-scorer endgame of games/ needs far fewer; the three- and four-seat ones that do not finish within it did
not finish within 100,000 either, which cost the site about 2 s each."""


def _has_states(game: GameResult) -> bool:
    """The game was replayed with the core's states (the endgame analysis needs them)."""
    return any(t.state is not None for d in game.deals for t in d.tricks)


def _analyse(game: GameResult) -> list[dict[str, Any]]:
    """Each deal's endgame analysis, for a game replayed with the core's states."""
    from .analysis import analyse_deal

    return [analyse_deal(deal, RENDER_BUDGET) for deal in game.deals]


def _sampled(result: ReplayResult, warnings: list[str]) -> list[list[dict[str, Any]] | None]:
    """Each game's deals as the record's current sidecar analyses them (None for a game it does not give), each with
    the book's judgments of its plays; a sidecar that cannot be used is said in ``warnings`` and left out."""
    found, warning = read_sidecar(result.path)
    if warning:
        warnings.append(warning)
    if found is None:
        return [None] * len(result.games)
    games: list[list[dict[str, Any]] | None] = []
    for g, game in enumerate(found.get("games", ())[: len(result.games)], start=1):
        deals = []
        for d, deal in enumerate(game.get("deals", ()), start=1):
            judgments = [j for j in found.get("judgments", ()) if (j.get("game", 1), j.get("deal", 1)) == (g, d)]
            deals.append({**deal, "judgments": judgments})
        games.append(deals)
    return games + [None] * (len(result.games) - len(games))


def _render_site(
    results: Iterable[ReplayResult],
    out: Path,
    lang: str | Sequence[str],
    force: bool,
    warnings: list[str],
    jobs: int = 1,
) -> list[Path]:
    langs = [lang] if isinstance(lang, str) else list(lang)
    if not langs:
        raise ValueError("no interface language to render")
    for code in langs:
        interface(code)
    if len(set(langs)) != len(langs):
        raise ValueError("an interface language is given twice")
    _check_output(out, force)
    templates = data_dir("site_templates")
    env = _environment(templates)
    taken: set[str] = set()
    results = list(results)
    games = [
        (lesson_slug(result.path, index, taken), game)
        for result in results
        for index, game in enumerate(result.games, start=1)
    ]
    # A text that names a record's file (games/worked-deal-000.bzq) names its first game and links its lesson.
    records: dict[str, tuple[str, dict[str, str]]] = {}
    at = 0
    for result in results:
        if result.games:
            slug, game = games[at]
            titles = {code: Texts(code, "en").title(game).text for code in langs}
            records.setdefault(Path(result.path).stem, (f"{slug}.html", titles))
        at += len(result.games)
    # A record's sidecar gives its games' analysis, sampled at every play; the others get the endgame's, made here.
    sidecars = [deals for result in results for deals in _sampled(result, warnings)]
    profiles = _profiles(game.profile for _, game in games)
    # The endgame analysis of each game replayed with the core's states (bezique render does): once for every
    # language, each game a task of its own (one may take seconds, most take milliseconds).
    unsampled = [game for (_, game), sampled in zip(games, sidecars, strict=True) if sampled is None]
    to_solve = [game for game in unsampled if _has_states(game)]
    solved = run_tasks(_analyse, to_solve, jobs=jobs)
    analyses: dict[int, list[dict[str, Any]] | None] = {id(game): None for game in unsampled}
    analyses.update((id(game), deals) for game, deals in zip(to_solve, solved, strict=True))
    analyses.update(
        (id(game), sampled) for (_, game), sampled in zip(games, sidecars, strict=True) if sampled is not None
    )
    languages = [
        _Language(code, out if i == 0 else out / code, "" if i == 0 else "../", "" if i == 0 else f"{code}/")
        for i, code in enumerate(langs)
    ]

    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / MARKER, _MARKER_TEXT.encode("utf-8"))
    written: list[Path] = []

    loaded: dict[str, Template] = {}  # (each page's template looked up once a render)

    def page(language: _Language, name: str, template: str, **context: Any) -> Path:
        # Each page links to itself in the other languages: up to the top of the site, then down into theirs.
        translations = [
            (other.code, interface(other.code)[f"lang_name_{other.code}"], f"{language.root}{other.prefix}{name}")
            for other in languages
            if other is not language
        ]
        found = loaded.get(template)
        if found is None:
            found = loaded[template] = env.get_template(template)
        # (a lesson's steps and data block come encoded already: the page is written as bytes around them)
        pieces = found.generate(
            t=_words(language.code),
            lang=language.code,
            root=language.root,
            page=name,
            translations=translations,
            rules_pages=menus[language.code],
            glossary_page=GLOSSARY_PAGE,
            **context,
        )
        target = language.folder / name
        parts = [value for value in context.values() if isinstance(value, Encoded)]
        write_atomic(target, page_bytes(pieces, parts), durable=False)
        return target

    def write(language: _Language, name: str, template: str, **context: Any) -> None:
        written.append(page(language, name, template, **context))

    CITED.lines.clear()
    set_records(records)
    # The site's menu of rules pages, each profile's title in each language in a learner's words, without links (the
    # same on every page: written once, not once a page).
    menus = {
        code: [
            (f"{rules_slug(p.name)}.html", learner_text(profile_text(code, p.name, "title", p.title), code))
            for p in profiles
        ]
        for code in langs
    }

    def noted(make: Callable[[], tuple[Path, Lesson | None]]) -> _Written:
        # The lines a page cites, wherever it is built: the sources page, written last, lists those of every page.
        outer, CITED.lines = CITED.lines, set()
        try:
            path, lesson = make()
            return _Written(lesson, path, frozenset(CITED.lines))
        finally:
            CITED.lines = outer

    def lesson_page(language: _Language, slug: str, game: GameResult) -> tuple[Path, Lesson]:
        # Each lesson is written as soon as it is built, and the index, written after them, keeps only what it shows
        # of each (its facts, not its steps): a site of many games does not hold every step of every lesson at
        # once, which would also give the garbage collector's full passes all of them to go through.
        lesson = build_lesson(game, language.code, slug, analysis=analyses.get(id(game)))
        steps = Encoded(lesson_steps(lesson).text.encode("utf-8"))
        target = page(
            language, f"{lesson.slug}.html", "lesson.html", lesson=lesson, steps=steps, data=data_json(lesson)
        )
        # (the lesson itself with its steps let go: nothing else holds it, and dataclasses.replace would copy its
        # forty fields one by one)
        lesson.deals, lesson.cards, lesson.meld_states, lesson.data, lesson.data_shared = [], [], [], {}, {}
        return target, lesson

    def reference_page(language: _Language, profile: RuleProfile | None) -> tuple[Path, None]:
        # A profile's rules page, or (None) the glossary: neither depends on the lessons.
        if profile is None:
            glossary = build_glossary(language.code, profiles)
            return page(language, GLOSSARY_PAGE, "glossary.html", glossary=glossary), None
        rules = build_rules(profile, language.code)
        return page(language, f"{rules.slug}.html", "rules.html", rules=rules), None

    # Every lesson, rules page and glossary of every language is a task (in one set of processes when there are
    # several); the index of each language, which lists its lessons, and the sources page are written here after
    # them. Each process is given runs of neighbouring tasks, shorter towards the end (distribute.runs, no cap on
    # the first: a page takes milliseconds), so that the processes finish together.
    lessons = [(language, slug, game) for language in languages for slug, game in games]
    references = [(language, profile) for language in languages for profile in [*profiles, None]]

    def site_page(task: int) -> _Written:
        if task < len(lessons):
            return noted(lambda: lesson_page(*lessons[task]))
        return noted(lambda: reference_page(*references[task - len(lessons)]))

    tasks = len(lessons) + len(references)
    built = run_tasks(site_page, range(tasks), jobs=jobs, chunksize=tasks)
    for found in built:
        CITED.add(found.cited)
    per_language = len(profiles) + 1
    for at, language in enumerate(languages):
        listed: list[Lesson] = []
        for lesson_written in built[at * len(games) : (at + 1) * len(games)]:
            assert lesson_written.lesson is not None
            listed.append(lesson_written.lesson)
            written.append(lesson_written.path)
        write(language, "index.html", "index.html", groups=_index_groups(listed, profiles))
        first = len(lessons) + at * per_language
        written.extend(found.path for found in built[first : first + per_language])
    # Written last: it lists every line the pages of every language cite.
    for language in languages:
        write(language, SOURCES_PAGE, "sources.html", sources=_sources(language.code))
    static = templates / "static"
    for source in _static_files(static):
        target = out / "static" / source.relative_to(static)
        write_atomic(target, source.read_bytes(), durable=False)
        written.append(target)
    return written
