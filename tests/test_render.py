"""The HTML lessons: pages written, real content on them, the record's text inert, nothing remote, a safe output."""

from __future__ import annotations

import gc
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.lesson import Book, Lesson, build_lesson, interface
from replayer.lesson.build import Texts, record_seed
from replayer.lesson.citations import learner_html
from replayer.profiles import profile_names
from replayer.render import MARKER, render_site
from replayer.replay import ReplayResult

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.bzq"))
SEED = 3


def _replay(text: str, name: str) -> ReplayResult:
    result = check_text(text, name)
    assert result.valid, [d.message for d in result.diagnostics]
    return result


def _section(html: str, anchor: str) -> str:
    """The HTML of the step section with this id (up to the next section)."""
    start = html.index('<section class="step')
    match = re.search(rf'<section [^>]*id="{re.escape(anchor)}"', html[start:])
    assert match is not None, f"no section with id {anchor}"
    begin = start + match.start()
    end = html.find("</section>", begin)
    return html[begin:end]


def _lesson_data(html: str) -> dict[str, Any]:
    """The lesson's data block (each trick's table and each seat's books, drawn by lesson.js)."""
    match = re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', html, re.S)
    assert match is not None, "no lesson data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def _board(html: str, anchor: str) -> dict[str, Any]:
    """The table before a trick, as the page gives it to its script, cards as their codes."""
    data = _lesson_data(html)
    step = next(s for s in data["steps"] if s["anchor"] == anchor)
    board: dict[str, Any] = dict(step["board"])
    for key in ("hands", "tables"):
        board[key] = {
            seat["seat"]: [data["cards"][c][0] for c in cards]
            for seat, cards in zip(data["seats"], board[key], strict=True)
        }
    return board


def _stated_scores(text: str) -> dict[int, dict[str, int]]:
    """The running scores a generated record states after each trick, read straight from its text."""
    stated: dict[int, dict[str, int]] = {}
    trick = 0
    for line in text.splitlines():
        if m := re.match(r"trick (\d+):", line):
            trick = int(m.group(1))
        elif m := re.match(r"\s+score (.*)", line):
            stated[trick] = {seat: int(v) for seat, v in re.findall(r"([NS]) (\d+)", m.group(1))}
    return stated


@pytest.fixture(scope="module")
def generated() -> tuple[str, ReplayResult]:
    text = generate_game("classic", SEED)
    return text, _replay(text, f"seed{SEED}.bzq")


def test_a_render_leaves_no_reference_cycles(
    tmp_path: Path, worked: ReplayResult, generated: tuple[str, ReplayResult]
) -> None:
    """render_site pauses the collector of reference cycles (see render._no_cycle_collection): that is safe only as
    long as a render frees all it makes by reference counting. The collector is on again afterwards."""
    gc.collect()
    gc.disable()
    try:
        render_site([worked, generated[1]], tmp_path / "site", lang=["en", "ru"])
        assert not gc.isenabled()
        cycles = gc.collect()
    finally:
        gc.enable()
    assert cycles == 0
    render_site([worked], tmp_path / "again", lang="en")
    assert gc.isenabled()


def test_site_files_and_content(tmp_path: Path, generated: tuple[str, ReplayResult]) -> None:
    text, result = generated
    out = tmp_path / "site"
    written = render_site([result], out)

    index = out / "index.html"
    lesson_page = out / f"seed{SEED}-1.html"
    assert index in written and lesson_page in written
    assert (out / "static" / "style.css").is_file() and (out / MARKER).is_file()
    assert not list(out.rglob("*.tmp")), "temporary files left behind"

    index_html = index.read_text(encoding="utf-8")
    assert f'href="seed{SEED}-1.html"' in index_html
    assert f"Random classic game, seed {SEED}" in index_html
    assert "Two-handed bezique (classic)" in index_html

    html = lesson_page.read_text(encoding="utf-8")
    game = result.games[0]
    tricks = game.deals[0].tricks
    assert len(tricks) == 32
    # The deal, every trick, the deal's end.
    assert len(re.findall(r"<section [^>]*data-step[ >]", html)) == 1 + len(tricks) + 1
    for trick in tricks:
        assert f'id="trick-{trick.n}"' in html
        assert f'id="deal-1-trick-{trick.n}"' in html
        assert f'href="#trick-{trick.n}"' in html

    # A running score the record itself states, shown in that trick's section with the seat's name.
    stated = _stated_scores(text)
    scored = next(n for n, s in stated.items() if any(s.values()))
    section = _section(html, f"trick-{scored}")
    for seat, value in stated[scored].items():
        label = "North" if seat == "N" else "South"
        assert re.search(rf'data-seat="{seat}"><dt>{label}</dt><dd><span class="value">{value}</span>', section), (
            f"trick {scored}: {label} {value} not shown"
        )
    # The deal shows both hands as dealt, with accessible names; the first trick's table has them as dealt too.
    start = _section(html, "start")
    for card in game.deals[0].hands["N"]:
        assert f'aria-label="{card.english}"' in start
    assert _board(html, "trick-1")["hands"]["N"] == [str(c) for c in game.deals[0].hands["N"]]
    first = _section(html, "trick-1")
    lead_card = tricks[0].plays[0][1]
    face = f'<span class="rank">{lead_card.rank.symbol}</span><span class="suit">{lead_card.suit.glyph}&#xFE0E;</span>'
    assert face in first
    # The deal's result and brisques are on the page.
    deal = game.deals[0]
    end = _section(html, "end")
    for seat, value in deal.scores.items():
        assert f'data-seat="{seat}"' in end and f'<span class="value">{value}</span>' in end


def test_scoring_described_with_points(generated: tuple[str, ReplayResult]) -> None:
    _, result = generated
    lesson = build_lesson(result.games[0])
    steps = lesson.deals[0].steps
    assert steps[0].id == "deal-1-start" and steps[1].id == "deal-1-trick-1" and steps[1].anchor == "trick-1"
    assert steps[1].title == "Trick 1" and steps[1].prev_anchor == steps[0].anchor
    events = [e for s in steps for e in s.scoring]
    assert events, "the generated game scores something"
    for e in events:
        assert e.text.startswith(("North ", "South ")) and e.text.endswith(f": {e.points}")
    declared = [e for e in events if e.kind in ("marriage", "royal_marriage")]
    if declared:
        assert re.match(r"(North|South) declares (a|the royal) marriage K[♠♥♦♣] Q[♠♥♦♣]: (20|40)$", declared[0].text)
    # The hands before each trick are sorted the engine's way (spades, hearts, diamonds, clubs; high first).
    order = "♠♥♦♣"
    ranks = ["A", "10", "K", "Q", "J", "9", "8", "7"]
    hands = [[lesson.cards[c] for c in hand] for step in steps if step.board for hand in step.board.hands]
    hands += [seat.hand for seat in steps[0].seats]
    assert len(hands) == 2 * len(steps)
    for hand in hands:
        keys = [(order.index(c.suit), ranks.index(c.rank)) for c in hand]
        assert keys == sorted(keys)


def _hostile_record() -> str:
    text = generate_game("classic", SEED)
    text = re.sub(r'^game ".*"$', 'game "{{ 7*7 }} <b>bold</b>"', text, count=1, flags=re.M)
    text = text.replace(
        "profile: classic",
        'profile: classic\nurl: javascript:alert(2)\nplayers: N "</script><script>alert(3)</script>", S "South"',
        1,
    )
    first = re.search(r"^trick 1: ([NS]) (\S+),(.*)$", text, flags=re.M)
    assert first is not None
    seat, card, rest = first.groups()
    text = text.replace(
        first.group(0),
        f"trick 1: {{? Which card does {seat} lead? <i>x</i> | {card} }} {seat} {card},{rest}"
        ' { <script>alert(1)</script> & "quoted" }',
        1,
    )
    return text


def test_record_text_is_inert(tmp_path: Path) -> None:
    result = _replay(_hostile_record(), "hostile.bzq")
    assert result.games[0].title.startswith("{{ 7*7 }}")
    out = tmp_path / "site"
    render_site([result], out)
    for page in (out / "index.html", out / "hostile-1.html"):
        html = page.read_text(encoding="utf-8")
        assert "{{ 7*7 }} &lt;b&gt;bold&lt;/b&gt;" in html
        assert "<b>bold</b>" not in html
        assert "49 &lt;b&gt;" not in html and "49 <b>" not in html
        assert 'href="javascript:' not in html
    html = (out / "hostile-1.html").read_text(encoding="utf-8")
    # The url header is shown on the lesson, but only a web address becomes a link.
    assert "javascript:alert(2)" in html
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quoted&#34;" in html
    assert "Which card does" in html and "&lt;i&gt;x&lt;/i&gt;" in html
    # The only scripts are the site's own; the lesson's data is JSON, which the browser never runs, and nothing in
    # it can close its element (tojson writes <, > and & as escapes).
    assert re.findall(r"<script[^>]*>", html) == [
        '<script src="static/boot.js">',
        '<script type="application/json" id="lesson-data">',
        '<script src="static/lesson.js">',
    ]
    block = re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', html, re.S)
    assert block is not None and not re.search(r"[<>&]", block.group(1))
    assert _lesson_data(html)["seats"][0]["player"] == "</script><script>alert(3)</script>"


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if tag in ("link", "script", "img", "source", "iframe") and name in ("src", "href", "srcset"):
                self.refs.append((tag, value or ""))


def _records() -> list[ReplayResult]:
    records = [_replay(generate_game("classic", SEED), "one.bzq"), _replay(generate_game("classic", 5, 2), "two.bzq")]
    records.append(_replay(_hostile_record(), "hostile.bzq"))
    return records


def test_nothing_remote(tmp_path: Path) -> None:
    out = tmp_path / "site"
    written = render_site(_records(), out, lang=["en", "ru"])
    pages = [p for p in written if p.suffix == ".html"]
    # Per language: the index, the glossary, the sources, the three lessons and a rules page for every profile.
    assert len(pages) == 2 * (6 + len(profile_names()))
    for page in pages:
        parser = _Refs()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.refs, f"{page.name} links its stylesheet"
        for tag, ref in parser.refs:
            assert not re.match(r"\s*(https?:)?//", ref, re.I), f"{page.name}: <{tag}> refers to {ref}"
            assert (page.parent / ref).is_file(), f"{page}: <{tag}> refers to {ref}, which was not written"
    css = (out / "static" / "style.css").read_text(encoding="utf-8")
    assert "@import" not in css and not re.search(r"url\(\s*['\"]?(https?:)?//", css)
    assert "@media print" in css


def test_multi_deal_ids(tmp_path: Path) -> None:
    result = _replay(generate_game("classic", 5, 2), "two.bzq")
    render_site([result], tmp_path / "site")
    html = (tmp_path / "site" / "two-1.html").read_text(encoding="utf-8")
    for deal in (1, 2):
        assert f'id="deal-{deal}-start"' in html and f'id="deal-{deal}-trick-32"' in html
    assert 'id="trick-1"' not in html
    # The last trick of deal 1 leads on to the end of deal 1, and that to deal 2, named as such.
    assert '<a class="next" rel="next" href="#deal-1-end">End of deal 1 →</a>' in html
    assert '<a class="next" rel="next" href="#deal-2-start">Deal 2 →</a>' in html
    # The player's toolbar says which deal a trick belongs to.
    assert 'id="deal-2-trick-3" data-step data-index="38" data-title="Deal 2 · Trick 3"' in html
    total = sum(result.games[0].deals[i].scores["N"] for i in range(2))
    assert f'<span class="value">{total}</span>' in _section(html, "deal-2-end")


def test_output_folder_safety(tmp_path: Path, generated: tuple[str, ReplayResult]) -> None:
    _, result = generated
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(FileExistsError, match="--force"):
        render_site([result], out)
    assert not (out / "index.html").exists()
    written = render_site([result], out, force=True)
    assert (out / "index.html") in written and (out / MARKER).is_file()
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
    # The renderer's own folder can be written again without force.
    render_site([result], out)
    # An empty or missing folder needs no force either; a file in the way is refused even with it.
    render_site([result], tmp_path / "new" / "site")
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(FileExistsError):
        render_site([result], blocker, force=True)


def test_russian_interface(tmp_path: Path, generated: tuple[str, ReplayResult]) -> None:
    _, result = generated
    out = tmp_path / "ru"
    render_site([result], out, lang="ru")
    html = (out / f"seed{SEED}-1.html").read_text(encoding="utf-8")
    assert '<html lang="ru" data-view="all">' in html
    for word in ("Взятка 1", "Счёт после взятки", "Север", "Юг", "Раздача", "Козыри", "Колода"):
        assert word in html, word
    assert "Trick 1" not in html and "North" not in html
    assert 'aria-label="' + interface("ru")["rank_Q"] in html
    # Russian rank letters on the cards: the queen is Д.
    assert '<span class="rank">Д</span>' in html and '<span class="rank">Q</span>' not in html
    assert "Уроки безика" in (out / "index.html").read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        render_site([result], tmp_path / "de", lang="de")


def test_every_message_in_both_languages() -> None:
    """Every message has its Russian in the catalogue (and the compiled one says the same): a Russian page has no
    English interface word."""
    from replayer.lesson.catalogue import check

    assert check() == []
    en, ru = interface("en"), interface("ru")
    assert set(en) == set(ru) and set(en.forms) == set(ru.forms)
    same = ("nothing", "symbol_10", "lang_name_en", "lang_name_ru", "rule_fallback")  # the same in both
    assert [key for key in en if key not in same and en[key] == ru[key]] == []


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_project_games(tmp_path: Path, path: Path) -> None:
    result = check_text(path.read_text(encoding="utf-8"), str(path))
    if not result.valid:
        pytest.skip(f"{path.name} does not validate yet")
    written = render_site([result], tmp_path / "site", lang=["en", "ru"])
    pages = [p for p in written if p.suffix == ".html" and p.name != "index.html" and p.parent.name != "ru"]
    pages = [p for p in pages if not p.name.startswith("rules-") and p.name not in ("glossary.html", "sources.html")]
    assert len(pages) == len(result.games)
    for game, page in zip(result.games, pages, strict=True):
        html = page.read_text(encoding="utf-8")
        single = len(game.deals) == 1
        for d, deal in enumerate(game.deals, start=1):
            for trick in deal.tricks:
                assert f'id="deal-{d}-trick-{trick.n}"' in html
                if single:
                    assert f'id="trick-{trick.n}"' in html
        # Every comment and note of the record is on the page of its language.
        ru = (page.parent / "ru" / page.name).read_text(encoding="utf-8")
        placed = Texts("en", "en", record_seed(game)).placed
        for comment in (c for deal in game.deals for t in deal.tricks for c in t.comments):
            # (in a learner's words: a source or a rule it cites is named and linked, replayer/lesson/citations.py;
            # a bare line number as one of the record's source)
            shown = learner_html(placed(comment.text.strip()), "ru" if comment.lang == "ru" else "en").html
            assert shown in (ru if comment.lang == "ru" else html)


# --- both languages, rules and glossary pages, the index ---------------------------------------------------------

WORKED = ROOT / "games" / "worked-deal-000.bzq"


@pytest.fixture(scope="module")
def worked() -> ReplayResult:
    return _replay(WORKED.read_text(encoding="utf-8"), str(WORKED))


def test_both_languages_in_one_site(tmp_path: Path, worked: ReplayResult) -> None:
    out = tmp_path / "site"
    written = render_site([worked], out, lang=["en", "ru"])
    names = {p.relative_to(out).as_posix() for p in written}
    for page in ("index.html", "worked-deal-000-1.html", "rules-classic.html", "glossary.html"):
        assert page in names and f"ru/{page}" in names, page
    assert not (out / "ru" / "static").exists(), "one static folder serves both languages"
    en = (out / "worked-deal-000-1.html").read_text(encoding="utf-8")
    ru = (out / "ru" / "worked-deal-000-1.html").read_text(encoding="utf-8")
    # Each page links to its translation, and the Russian one reaches the shared static files one folder up.
    assert '<a href="ru/worked-deal-000-1.html" hreflang="ru" lang="ru">Русский</a>' in en
    assert '<a href="../worked-deal-000-1.html" hreflang="en" lang="en">English</a>' in ru
    assert 'href="../static/style.css"' in ru and '<script src="../static/lesson.js">' in ru
    assert "Взятка 17" in ru and "Trick 17" in en
    # Each page has the record's commentary in its own language, marked with it: the book's words on the Russian.
    comment = "North, who is beginning to suspect that South holds double bezique"
    assert f'<p lang="en">{comment}' in en and comment not in ru
    assert '<p lang="ru">Взятка 17. Север, который начинает подозревать, что у Юга двойной безик' in ru
    with pytest.raises(ValueError, match="twice"):
        render_site([worked], tmp_path / "twice", lang=["en", "en"])


def test_index_lists_every_game(tmp_path: Path, worked: ReplayResult, generated: tuple[str, ReplayResult]) -> None:
    out = tmp_path / "site"
    render_site([worked, generated[1]], out)
    index = (out / "index.html").read_text(encoding="utf-8")
    for expected in (
        'href="worked-deal-000-1.html"',
        f'href="seed{SEED}-1.html"',
        '<a href="rules-classic.html">Two-handed bezique (classic)</a>',
        "North 590, South 730",
        "Anonymous Russian card-game book",
        # The one-line summary: the first sentence of the record's own introduction.
        "The following game, played by two experienced players, shows some of the finer points of good play.",
        "4 questions to answer",
    ):
        assert expected in index, expected


def test_rules_page_comes_from_the_profile(tmp_path: Path, worked: ReplayResult) -> None:
    from replayer.lesson import build_rules
    from replayer.profiles import load_profile

    classic = load_profile("classic")
    out = tmp_path / "site"
    render_site([worked], out, lang=["en", "ru"])
    html = (out / "rules-classic.html").read_text(encoding="utf-8")
    for spec in classic.melds:
        row = re.search(rf'<tr id="meld-{spec.kind}">(.*?)</tr>', html, re.S)
        assert row is not None, spec.kind
        assert f'<td class="num points">{spec.points}</td>' in row.group(1)
        assert 'role="img" aria-label="' in row.group(1), "each combination is drawn with its cards"
        # Its re-use group in words (marriages and sequences), not the profile's letter (M).
        group = re.search(r'<td class="group">([^<]*)</td>', row.group(1))
        assert group is not None and group.group(1) == interface("en")[f"group_{spec.klass}"] != spec.klass
    for name, option in classic.options.items():
        assert f'<tr id="option-{name}">' in html
        assert str(escape(" ".join(option.doc.split())))[:40] in html
    for term in ("секвенция козырей", "королевский марьяж", "простой марьяж", "двойной безик", "четыре туза"):
        assert term in html, term
    assert 'id="seven"' in html and 'id="last-trick"' in html and 'id="brisques"' in html
    ru = (out / "ru" / "rules-classic.html").read_text(encoding="utf-8")
    assert "Комбинации" in ru and "Старшинство карт" in ru and '<html lang="ru"' in ru
    # A different profile gives a different page: nothing about the classic profile is written in the templates.
    variant = classic.replace(
        name="variant",
        title="A variant",
        melds=tuple(m.replace(points=m.points * 10) if m.kind == "bezique" else m for m in classic.melds),
        last_trick_points=0,
    )
    view = build_rules(variant, "en")
    assert view.slug == "rules-variant" and view.title == "A variant"
    assert next(m.points for m in view.melds if m.kind == "bezique") == 400
    assert all(anchor != "last-trick" for anchor, _ in view.other)


def test_glossary_has_the_sources_terms(tmp_path: Path, worked: ReplayResult) -> None:
    out = tmp_path / "site"
    render_site([worked], out, lang=["en", "ru"])
    for page in (out / "glossary.html", out / "ru" / "glossary.html"):
        html = page.read_text(encoding="utf-8")
        for english, russian in (
            ("bezique", "безик"),
            ("brisque", "бриск"),
            ("turn-up", "открытая карта"),
            ("trick", "взятка"),
            ("queen", "дама (Д)"),
            ("spades", "пики"),
        ):
            row = re.search(
                rf"<tr id=\"[^\"]*\"><th scope=\"row\" lang=\"en\">(?:<a [^>]*>)?{re.escape(english)}"
                rf"(?:</a>)?</th><td lang=\"ru\">([^<]*)</td>",
                html,
            )
            assert row is not None and russian in row.group(1), (page.name, english)
        assert 'href="rules-classic.html#meld-double_bezique"' in html


def test_every_rule_link_lands(tmp_path: Path, worked: ReplayResult) -> None:
    out = tmp_path / "site"
    render_site([worked], out)
    lesson = (out / "worked-deal-000-1.html").read_text(encoding="utf-8")
    rules = (out / "rules-classic.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'href="rules-classic\.html#([^"]+)"', lesson))
    assert {"meld-sequence", "meld-double_bezique", "seven", "last-trick"} <= anchors
    for anchor in anchors:
        assert f'id="{anchor}"' in rules, anchor
    # The declaration is named, with its cards, points and the rule that scores it.
    t17 = _section(lesson, "trick-17")
    assert "South declares double bezique" in t17 and '<strong class="points">500</strong>' in t17
    assert '<a class="rule" href="rules-classic.html#meld-double_bezique"' in t17


def test_slugs_never_replace_the_site_pages() -> None:
    from replayer.render import lesson_slug

    taken: set[str] = set()
    assert lesson_slug("rules-classic.bzq", 1, taken) == "game-rules-classic-1"
    assert lesson_slug("glossary.bzq", 1, taken) == "glossary-1"


# --- the bookkeeping and the quizzes -----------------------------------------------------------------------------


def test_bookkeeping_counts_add_up(worked: ReplayResult, generated: tuple[str, ReplayResult]) -> None:
    """At every step, what a seat has not seen is exactly the face-down stock and the unknown part of the other
    hand; a card it holds, has seen played, or sees on the table is never among them."""
    for result in (worked, generated[1]):
        game = result.games[0]
        deal = game.deals[0]
        lesson = build_lesson(game, books=True)
        steps = lesson.deals[0].steps
        for step, trick in zip(steps[1:], deal.tricks, strict=True):
            snap = trick.before
            played = Counter(c for t in deal.tricks if t.n < trick.n for _, c in t.plays)
            for book in step.books:
                other = next(s for s in game.profile.seats if s != book.seat)
                known = len(book.known)
                facedown = snap.stock - (1 if snap.turnup is not None else 0)
                other_holds = len(snap.hands[other]) + len(snap.tables[other])
                assert book.unseen_count == facedown + other_holds - len(snap.tables[other]) - known, (
                    trick.n,
                    book.seat,
                )
                unseen = {lesson.cards[i].code: n for i, n in enumerate(book.unseen)}
                own = Counter(snap.hands[book.seat]) + Counter(snap.tables[book.seat])
                for card in own | played | Counter(snap.tables[other]):
                    assert unseen[str(card)] <= 2 - own[card] - played[card], (trick.n, card)


def _chances(lesson: Lesson, book: Book) -> dict[str, list[tuple[str, str, str]]]:
    """A book's table of combinations (of the lesson's first deal): each combination's (seat, state, text) by seat,
    by kind (the first row of a kind: the trump suit's, for a marriage)."""
    seats = [seat for seat, _, _ in lesson.seats]
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for t, target in enumerate(lesson.deals[0].targets):
        states = book.melds[t * len(seats) : (t + 1) * len(seats)]
        rows.setdefault(target.kind, [(seat, *lesson.meld_states[n]) for seat, n in zip(seats, states, strict=True)])
    return rows


def test_bookkeeping_names_the_impossible(worked: ReplayResult) -> None:
    lesson = build_lesson(worked.games[0], books=True)
    steps = {s.anchor: s for s in lesson.deals[0].steps}
    start = {b.seat: b for b in steps["start"].books}["S"]
    # South is dealt one ♠Q: from the start he knows North cannot hold both, so no double bezique for North.
    assert "1 of the 2 Q♠ seen: double bezique is impossible for North." in start.news
    south = {b.seat: b for b in steps["trick-6"].books}["S"]
    # Before trick 6 South holds both ♠Q (the second drawn after trick 5): no bezique either, nor the spade marriage.
    assert "both Q♠ seen: bezique is impossible for North." in south.news
    assert "both Q♠ seen: common marriage ♠ is impossible for North." in south.news
    # Said once, where it becomes true, not again at every later step.
    assert not any("double bezique" in line for line in south.news)
    assert not any("bezique is impossible" in line for line in {b.seat: b for b in steps["trick-7"].books}["S"].news)
    double = _chances(lesson, south)["double_bezique"]
    assert [(seat, state) for seat, state, _ in double] == [("N", "impossible"), ("S", "possible")]
    # After the exchange at trick 1 South knows North holds the ♣10 that was the turn-up.
    book = {b.seat: b for b in steps["trick-2"].books}["S"]
    assert [lesson.cards[c].code for c in book.known] == ["10C"]
    # Scored combinations say when; in the last eight tricks there are no more declarations.
    north = {b.seat: b for b in steps["trick-5"].books}["N"]
    assert _chances(lesson, north)["sequence"][0] == ("N", "scored", "scored at trick 4")
    assert steps["trick-25"].books[0].melds == [] and not steps["trick-25"].books[0].declaring
    ru = build_lesson(worked.games[0], "ru", books=True)
    ru_south = {b.seat: b for b in {s.anchor: s for s in ru.deals[0].steps}["trick-6"].books}["S"]
    assert "обе карты Д♠ уже видны: Север уже не объявит безик." in ru_south.news


def test_quiz_data(worked: ReplayResult) -> None:
    lesson = build_lesson(worked.games[0])
    steps = {s.anchor: s for s in lesson.deals[0].steps}
    assert [a for a, s in steps.items() if s.questions] == ["trick-1", "trick-4", "trick-7", "trick-12"]
    q1 = steps["trick-1"].questions[0]
    assert (q1.seat, q1.play_index, q1.answer_codes) == ("S", 0, "9C")
    # The learner picks from every different card South could lead, each once.
    assert [c.code for c in q1.choices] == ["QS", "7H", "10D", "QD", "9D", "9C", "8C", "7C"]
    q12 = steps["trick-12"].questions[0]
    assert (q12.seat, q12.play_index, q12.answer_codes) == ("N", 1, "8H")
    assert steps["trick-12"].quiz_from == 1 and steps["trick-5"].quiz_from == -1
    html_quiz = 'data-play="1" data-seat="N" data-answers="8H" data-answer-text="8♥"'
    assert html_quiz in _render_one(worked)


def _render_one(result: ReplayResult) -> str:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        render_site([result], Path(tmp) / "site")
        return (Path(tmp) / "site" / "worked-deal-000-1.html").read_text(encoding="utf-8")


def test_cli_renders_both_languages_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from replayer.cli import main

    out = tmp_path / "site"
    assert main(["render", str(WORKED), "--out", str(out)]) == 0
    assert (out / "index.html").is_file() and (out / "ru" / "index.html").is_file()
    assert f"en in {out}, ru in {out / 'ru'}" in capsys.readouterr().out
    only = tmp_path / "ru-only"
    assert main(["render", str(WORKED), "--out", str(only), "--lang", "ru"]) == 0
    assert '<html lang="ru"' in (only / "index.html").read_text(encoding="utf-8") and not (only / "ru").exists()
    assert main(["render", str(WORKED), "--out", str(tmp_path / "de"), "--lang", "de"]) == 2
    assert "--lang" in capsys.readouterr().err


def test_open_question(tmp_path: Path) -> None:
    """A question without accepted answers asks the learner to think, then shows the play."""
    text = generate_game("classic", SEED)
    first = re.search(r"^trick 1: ([NS]) (\S+),", text, flags=re.M)
    assert first is not None
    text = text.replace(first.group(0), f"trick 1: {{? What would you lead? }} {first.group(1)} {first.group(2)},", 1)
    result = _replay(text, "open.bzq")
    question = build_lesson(result.games[0]).deals[0].steps[1].questions[0]
    assert question.answers == [] and question.answer_codes == "" and question.choices
    render_site([result], tmp_path / "site")
    section = _section((tmp_path / "site" / "open-1.html").read_text(encoding="utf-8"), "trick-1")
    assert 'data-answers="" data-answer-text=""' in section
    assert "Think it over, then show the answer." in section and 'class="choice"' not in section


# --- three and four seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "seats", "columns"),
    [
        ("constructed-three-handed.bzq", {"N": "top", "E": "right", "S": "bottom"}, ["North", "East", "South"]),
        (
            "constructed-4h-three-001.bzq",
            {"N": "top", "E": "right", "S": "bottom", "W": "left"},
            ["North &amp; South", "East &amp; West"],
        ),
        (
            "constructed-4h-six-000.bzq",
            {"N": "top", "E": "right", "S": "bottom", "W": "left"},
            ["North &amp; South", "East &amp; West"],
        ),
    ],
)
def test_three_and_four_seats_render(tmp_path: Path, record: str, seats: dict[str, str], columns: list[str]) -> None:
    """Every seat sits on its side of the table; the score sheet has a column per player, or per side of a
    partnership game, and a partner's seat shows his side's joint score."""
    path = ROOT / "games" / record
    result = _replay(path.read_text(encoding="utf-8"), str(path))
    written = render_site([result], tmp_path / "site", lang=["en"])
    page = next(p for p in written if p.name.startswith(record.removesuffix(".bzq")))
    html = page.read_text(encoding="utf-8")
    # The deal's start is written into the page; a trick's table is drawn from the lesson's data, which places the
    # seats alike (tests/test_browser.py draws them).
    step = _section(html, "start")
    found = dict(re.findall(r'<div class="seat pos-(\w+)" data-seat="(\w)">', step))
    assert {seat: pos for pos, seat in found.items()} == seats
    data = _lesson_data(html)
    assert {s["seat"]: s["position"] for s in data["seats"]} == seats
    header = re.search(r"<caption>[^<]*</caption>\s*<thead><tr>(.*?)</tr>", step, re.S)
    assert header is not None
    assert re.findall(r'class="num">([^<]*)</th>', header.group(1)) == columns
    assert [escape(label) for label in data["deals"][0]["labels"]] == columns
    game = result.games[0]
    before = game.deals[0].tricks[5].before.scores
    board = _board(html, "trick-6")
    for i, seat in enumerate(data["seats"]):
        assert board["scores"][i] == before[game.profile.scorer(seat["seat"])], seat


# --- the deal's chart ---------------------------------------------------------------------------------------------


def _charts(html: str) -> list[str]:
    return re.findall(r'<svg class="score-chart".*?</svg>', html, re.S)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_deal_has_a_chart_of_its_scores(lang: str) -> None:
    """Each deal's end shows its running scores as SVG written at render time: a line per scorer from the deal to
    the last trick, each ending at the deal's result, a mark at each declaration, and a text alternative that says
    the result and every declaration."""
    paths = [ROOT / "games" / "worked-deal-000.bzq", ROOT / "games" / "constructed-4h-three-001.bzq"]
    for path in paths:
        result = _replay(path.read_text(encoding="utf-8"), str(path))
        game = result.games[0]
        lesson = build_lesson(game, lang)
        t = interface(lang)
        for deal, view in zip(game.deals, lesson.deals, strict=True):
            [svg] = _charts(view.chart)
            scorers = list(game.profile.with_options(game.options).scorers)
            lines = re.findall(r'<polyline class="line" points="([^"]*)"', svg)
            assert len(lines) == len(scorers)
            for points in lines:
                xs = [float(p.split(",")[0]) for p in points.split()]
                assert xs == sorted(xs) and len(set(xs)) == len(deal.tricks) + 1
            for seat in scorers:
                label = {s.seat: s.label for s in view.result}[seat]
                assert f"{escape(label)} {deal.scores[seat]}</text>" in svg
            declared = [
                e for trick in deal.tricks for e in trick.scoring if game.profile.meld(e.kind) is not None and e.points
            ]
            declared += [e for e in deal.scoring if game.profile.meld(e.kind) is not None and e.points]
            assert svg.count('<circle class="mark"') == len(declared) > 0
            desc = re.search(r"<desc[^>]*>(.*?)</desc>", svg, re.S)
            assert desc is not None and desc.group(1).startswith(escape(t["chart_final"].split("{")[0]))
            assert all(f"{escape(s.label)} {s.value}" in desc.group(1) for s in view.result)
            assert desc.group(1).count(":") >= len(declared)
            assert 'class="margin"' not in svg  # no sampled analysis: no margin panel, and no value made up


def test_the_chart_draws_expected_margins_only_when_the_deal_has_them() -> None:
    """The hook for the sampled analysis: a deal whose analysis holds expected margins gets them drawn under the
    scores, one vertex per play given (and the polygon closed on the zero line)."""
    path = ROOT / "games" / "worked-deal-000.bzq"
    game = _replay(path.read_text(encoding="utf-8"), str(path)).games[0]
    margins = [[0.0, 0.0], [0.5, 12.5], [1.0, -30.0], [1.5, 4.0]]
    [svg] = _charts(build_lesson(game, "en", analysis=[{"expected_margins": margins}]).deals[0].chart)
    panel = re.search(r'<g class="margin">.*?<polygon points="([^"]*)"', svg, re.S)
    assert panel is not None
    assert len(panel.group(1).split()) == len(margins) + 2
    assert "North: expected margin (+0 … +4)." in svg  # and its words, for a screen reader
    ys = [float(p.split(",")[1]) for p in panel.group(1).split()[1:-1]]
    # Higher margins are drawn higher: y grows downwards.
    assert ys[1] < ys[3] < ys[0] < ys[2]


def test_a_puzzle_shows_the_led_card_on_the_table_not_in_the_hand() -> None:
    """The puzzle page's position is the one the player to move sees: the card led to the trick lies on the table,
    gone from its player's hand; every card is named as the lessons name it."""
    from replayer.puzzles import _position

    hands = {"N": ["AS", "10S", "KH"], "S": ["QS", "JD", "7C"]}
    data = {
        "profile": "classic",
        "seat": "S",
        "hands": hands,
        "trick_so_far": [{"seat": "N", "card": "10S"}],
        "choices": ["QS", "7C"],
        "answer": {"card": "QS", "points": {"N": 10, "S": 20}},
        "wrong": [{"card": "7C", "loss": 20, "points": {"N": 30, "S": 0}, "line": []}],
        "scores": {"N": 100, "S": 50},
    }
    shown = _position(data, "en")
    assert [c["code"] for c in shown["hands"]["North"]] == ["AS", "KH"]
    assert [c["code"] for c in shown["hands"]["South"]] == hands["S"]
    [led] = shown["trick"]
    assert (led["seat"], led["code"], led["glyph"], led["label"], led["red"]) == (
        "North",
        "10S",
        "10♠",
        "ten of spades",
        False,
    )
    assert [c["glyph"] for c in shown["choices"]] == ["Q♠", "7♣"]
    assert shown["scores"] == "North 100, South 50" and shown["wrong"][0]["glyph"] == "7♣"
    assert hands["N"] == ["AS", "10S", "KH"]  # the puzzle's own data is left as it was
    russian = _position(data, "ru")
    assert russian["seat"] == "Юг" and [c["glyph"] for c in russian["choices"]] == ["Д♠", "7♣"]
    assert russian["profile"] != "classic"


def test_a_puzzle_names_the_house_rules_its_values_depend_on() -> None:
    """A puzzle's page says which options its game was played with and which trick earns the last trick's points
    (with last_trick=final, the ten points that can make a margin of 30 between two cards)."""
    from replayer.puzzles import Puzzle, _house

    text = generate_game("classic", SEED)
    assert _house(Puzzle({"profile": "classic"}, text)) == ([], (24, 10))
    final = text.replace("profile: classic\n", "profile: classic\noptions: last_trick=final\n")
    assert _house(Puzzle({"profile": "classic"}, final)) == (["last_trick = final"], (32, 10))


def test_a_render_compiles_the_templates_once_and_picks_up_an_edited_one(tmp_path: Path) -> None:
    """The renderer keeps its compiled templates from one render to the next (Jinja no longer looks at the files
    at every page), but looks at the files once per render: an edited template is used by the next render."""
    from replayer.render import _environment

    (tmp_path / "page.html").write_text("first {{ n }}", encoding="utf-8")
    env = _environment(tmp_path)
    assert env.get_template("page.html").render(n=1) == "first 1"
    assert _environment(tmp_path) is env
    (tmp_path / "page.html").write_text("second, longer {{ n }}", encoding="utf-8")
    assert _environment(tmp_path).get_template("page.html").render(n=2) == "second, longer 2"


def test_a_site_written_over_several_processes_is_the_same_byte_for_byte(
    tmp_path: Path, worked: ReplayResult, generated: tuple[str, ReplayResult]
) -> None:
    """The lessons built in forked processes: every page, the index and the sources page (which lists the lines the
    lessons cite, gathered from each process) are those of a site written in one process, in the same order."""
    # (a comment citing a line that no rules page cites: only a lesson built in another process adds it)
    cites = generate_game("classic", SEED + 1).replace("trick 2:", "{ The lead follows 003:L2. }\ntrick 2:", 1)
    results = [worked, generated[1], _replay(cites, "cites.bzq")]
    one, three = tmp_path / "one", tmp_path / "three"
    written_one = render_site(results, one, lang=["en", "ru"])
    written_three = render_site(results, three, lang=["en", "ru"], jobs=3)
    assert [p.relative_to(one) for p in written_one] == [p.relative_to(three) for p in written_three]
    for path in written_one:
        assert path.read_bytes() == (three / path.relative_to(one)).read_bytes(), path.relative_to(one)
    for site in (one, three):
        assert 'id="src-003-L2"' in (site / "sources.html").read_text(encoding="utf-8")
        assert 'id="src-003-L2"' in (site / "ru" / "sources.html").read_text(encoding="utf-8")


def test_cli_render_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from replayer.cli import main

    assert main(["render", str(WORKED), "--out", str(tmp_path / "two"), "--jobs", "2", "--lang", "en"]) == 0
    assert (tmp_path / "two" / "worked-deal-000-1.html").is_file()
    assert main(["render", str(WORKED), "--out", str(tmp_path / "none"), "--jobs", "0"]) == 2
    assert "--jobs takes a whole number of at least 1" in capsys.readouterr().err
