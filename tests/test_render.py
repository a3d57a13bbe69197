"""The HTML lessons: pages written, real content on them, the record's text inert, nothing remote, a safe output."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape

from replayer.generate import generate_game
from replayer.lesson import STRINGS, build_lesson
from replayer.render import MARKER, render_site
from replayer.replay import ReplayResult, replay_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.bzq"))
SEED = 3


def _replay(text: str, name: str) -> ReplayResult:
    result = replay_text(text, name)
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
    assert html.count("data-step") == 1 + len(tricks) + 1  # the deal, every trick, the deal's end
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
    # The first trick shows both hands before it: North's cards as dealt, with accessible names.
    first = _section(html, "trick-1")
    for card in game.deals[0].hands["N"]:
        assert f'aria-label="{card.english}"' in first
    lead_card = tricks[0].plays[0][1]
    assert f'<span class="rank">{lead_card.rank.symbol}</span><span class="suit">{lead_card.suit.glyph}</span>' in first
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
    for step in steps:
        for seat in step.seats:
            keys = [(order.index(c.suit), ranks.index(c.rank)) for c in seat.hand]
            assert keys == sorted(keys)


def _hostile_record() -> str:
    text = generate_game("classic", SEED)
    text = re.sub(r'^game ".*"$', 'game "{{ 7*7 }} <b>bold</b>"', text, count=1, flags=re.M)
    text = text.replace("profile: classic", "profile: classic\nurl: javascript:alert(2)", 1)
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
        assert "49" not in html
        # The url header is shown, but only a web address becomes a link.
        assert "javascript:alert(2)" in html and 'href="javascript:' not in html
    html = (out / "hostile-1.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quoted&#34;" in html
    assert "Which card does" in html and "&lt;i&gt;x&lt;/i&gt;" in html
    # The only scripts are the site's own.
    assert re.findall(r"<script[^>]*>", html) == ['<script src="static/lesson.js">']


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
    written = render_site(_records(), out)
    pages = [p for p in written if p.suffix == ".html"]
    assert len(pages) == 4
    for page in pages:
        parser = _Refs()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.refs, f"{page.name} links its stylesheet"
        for tag, ref in parser.refs:
            assert not re.match(r"\s*(https?:)?//", ref, re.I), f"{page.name}: <{tag}> refers to {ref}"
            assert (out / ref).is_file(), f"{page.name}: <{tag}> refers to {ref}, which was not written"
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
    assert '<html lang="ru">' in html
    for word in ("Взятка 1", "Счёт после взятки", "Север", "Юг", "Раздача", "Козыри", "Колода"):
        assert word in html, word
    assert "Trick 1" not in html and "North" not in html
    assert 'aria-label="' + STRINGS["ru"]["rank_Q"] in html
    # Russian rank letters on the cards: the queen is Д.
    assert '<span class="rank">Д</span>' in html and '<span class="rank">Q</span>' not in html
    assert "Уроки безика" in (out / "index.html").read_text(encoding="utf-8")
    with pytest.raises(ValueError):
        render_site([result], tmp_path / "de", lang="de")


def test_every_key_in_both_languages() -> None:
    assert set(STRINGS["en"]) == set(STRINGS["ru"])


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_project_games(tmp_path: Path, path: Path) -> None:
    result = replay_text(path.read_text(encoding="utf-8"), str(path))
    if not result.valid:
        pytest.skip(f"{path.name} does not validate yet")
    written = render_site([result], tmp_path / "site")
    pages = [p for p in written if p.suffix == ".html" and p.name != "index.html"]
    assert len(pages) == len(result.games)
    for game, page in zip(result.games, pages, strict=True):
        html = page.read_text(encoding="utf-8")
        single = len(game.deals) == 1
        for d, deal in enumerate(game.deals, start=1):
            for trick in deal.tricks:
                assert f'id="deal-{d}-trick-{trick.n}"' in html
                if single:
                    assert f'id="trick-{trick.n}"' in html
        for comment in (c for deal in game.deals for t in deal.tricks for c in t.comments):
            assert str(escape(comment.text.strip())) in html
