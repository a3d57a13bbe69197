"""A learner's words (issue 24 item 3): no page of the site names a file, a line number or an internal term; each
source is named by its title with its cited lines one click away on the sources page, each rule of the digest is a
link to the rule on the site's rules page; ``bezique rules`` speaks the same words unless asked for the sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import visible_text

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.lesson.build import Texts, record_seed
from replayer.lesson.citations import learner_html, learner_text, rule_link
from replayer.profiles import load_profile, profile_names
from replayer.render import render_site
from replayer.rulebook import describe

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.bzq"))

# What a learner must never meet: the digest's file, a seed's line, a seed's number, a solver's and a profile's
# internal words.
FORBIDDEN = re.compile(r"RULES\.md|\b\d{3}:L\d+|seed 0|double-dummy|optimum| class M|sets \{")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    results = [check_text(p.read_text(encoding="utf-8"), str(p)) for p in GAMES]
    render_site([r for r in results if r.valid], out, lang=["en", "ru"])
    return out


def _pages(site: Path) -> list[Path]:
    return sorted([*site.glob("*.html"), *(site / "ru").glob("*.html")])


def test_no_page_names_a_file_a_line_or_an_internal_term(site: Path) -> None:
    pages = _pages(site)
    assert len(pages) > 2 * len(GAMES)  # the lessons, rules pages, glossary, index and sources of both languages
    found = {p.relative_to(site).as_posix(): FORBIDDEN.findall(p.read_text(encoding="utf-8")) for p in pages}
    assert {page: hits for page, hits in found.items() if hits} == {}


# What a learner must not read on a page either (its visible text): a file's name, a line number without its book,
# a profile's meld classes, a solver's words, in English or Russian.
UNSEEN = re.compile(
    r"\.bzq\b|\.txt\b|(?<![\w:])L\d+|\bclass(?:es)?\b|\bкласс(?:ы|а|ов)?\b|optimum|оптимум|double-dummy|"
    r"\bsets\b(?! them)"
)


def test_no_page_shows_a_file_a_bare_line_or_a_class(site: Path) -> None:
    found = {}
    for page in _pages(site):
        hits = UNSEEN.findall(visible_text(page.read_text(encoding="utf-8")))
        if hits:
            found[page.relative_to(site).as_posix()] = hits
    assert found == {}
    # The worked deal as printed names the complete record by its game, linked to its lesson, in both languages.
    for page, title in (
        (site / "worked-deal-000-as-printed-1.html", "“Illustrative deal: North and South”"),
        (site / "ru" / "worked-deal-000-as-printed-1.html", "«Показательная партия: Север и Юг»"),
    ):
        assert f'<a class="cite record" href="worked-deal-000-1.html">{title}</a>' in page.read_text(encoding="utf-8")


def test_a_records_bare_lines_are_of_its_one_source() -> None:
    game = check_text(generate_game("classic", 3)).games[0]
    assert record_seed(game) == ""  # (a generated record names no source text)
    game.headers["source"] = "Anonymous Russian card-game book, seed 000 lines 73–263"
    assert record_seed(game) == "000"
    texts = Texts("en", "en", record_seed(game))
    assert texts.placed("L79: as printed (L79, L83). See 004:L89–L91, L345 and 001:L5, L7.") == (
        "000:L79: as printed (000:L79, L83). See 004:L89–L91, L345 and 001:L5, L7."
    )
    said = learner_text(texts.placed("L79: as printed (L79, L83)"), "en")
    assert said == "the book with the worked deal: as printed (the book with the worked deal)"
    game.headers["source[ru]"] = "источник 004"
    assert record_seed(game) == ""  # two sources: a bare line could be either's


def test_a_rule_cited_with_a_source_line_keeps_the_line_apart() -> None:
    # "rule 11, 000:L319" once read 000 as a second rule number and left ":L319" on the page.
    for text, lang in (
        ("the marriage swap (RULES.md §2.e rule 11, 000:L319).", "en"),
        ("перестановка марьяжей (RULES.md §2.e, правило 11, 000:L319).", "ru"),
    ):
        said = learner_html(text, lang).html
        assert ":L" not in said and 'href="sources.html#src-000-L319"' in said
        assert 'href="rules-rubicon-000.html#melds"' in said


def test_every_citation_lands(site: Path) -> None:
    """A source's link goes to its cited lines on the sources page of the same language; a rule's to an id of the
    rules page."""
    links = 0
    for page in _pages(site):
        html = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a class="cite [a-z]+" href="([^"]+)"', html):
            target, _, anchor = href.partition("#")
            landing = (page.parent / target).read_text(encoding="utf-8")
            assert not anchor or f'id="{anchor}"' in landing, (page.name, href)
            links += 1
    assert links > 500


def test_the_sources_page_describes_each_source_and_its_lines(site: Path) -> None:
    for page, words in ((site / "sources.html", "worked deal"), (site / "ru" / "sources.html", "разобранной сдачей")):
        html = page.read_text(encoding="utf-8")
        for source in ("000", "001", "002", "003", "004"):
            assert f'id="src-{source}"' in html
        assert words in html
    # The worked deal's lines, cited by its record's header and the classic profile, are listed.
    assert 'id="src-000-L73"' in (site / "sources.html").read_text(encoding="utf-8")


def test_a_citation_in_a_learners_words() -> None:
    said = learner_html("higher total (004:L63). RULES.md §2.a rule 22, §3 row G2.", "en")
    assert 'href="sources.html#src-004-L63"' in said.html and "line 63" in said.html
    assert "the Russian collection of articles" in said.html
    assert 'href="rules-classic.html#options"' in said.html
    assert said.cited == (("004", 63, 63),)
    assert learner_text("Eight-pack bezique (seed 001, Ukrainian)", "en") == "Eight-pack bezique (the Ukrainian rules)"
    assert learner_text("seed 004, part C (004:L99-L165)", "ru") == "игра с «инфузоркой» из русского сборника"
    # Russian keeps the word "источник" in its case, with the name quoted after it.
    assert learner_text("правила источника 002 (002:L6-L19)", "ru") == "правила источника «русские правила XIX века»"
    assert learner_text("как в источнике 003", "ru") == "как в источнике «правила «шестидесяти шести»»"
    # A rule of a profile's family links to the page the reader is on.
    assert rule_link("2.e", 10, "rubicon-001") == ("rubicon-001", "rules-rubicon-001.html", "melds")
    assert rule_link("2.e", 10) == ("rubicon-000", "rules-rubicon-000.html", "melds")


@pytest.mark.parametrize("name", profile_names())
def test_bezique_rules_speaks_a_users_words(name: str) -> None:
    profile = load_profile(name)
    assert not FORBIDDEN.findall(describe(profile, sources=False))
    assert re.search(r"\d{3}:L\d+", describe(profile, sources=True))


def _settings(change: object) -> set[str]:
    """The profile settings an option's value changes (its ``sets``), nested ones included."""
    if not isinstance(change, dict):
        return set()
    return {str(k) for k in change} | {s for v in change.values() for s in _settings(v)}


@pytest.mark.parametrize("name", profile_names())
def test_bezique_rules_tells_an_options_effect_in_plain_words(name: str) -> None:
    """Each option value's effect is said as the rules then read, not by the profile's settings (``last_trick_at``),
    which a user neither reads nor types; the option's own name and values, which he types, may be said."""
    profile = load_profile(name)
    typed = set(profile.options) | {v for o in profile.options.values() for v in o.values}
    typed |= {m.kind for m in profile.melds} | {k for k, _ in profile.penalties}
    settings = {s for o in profile.options.values() for c in o.sets.values() for s in _settings(c)} - typed
    text = describe(profile, sources=False)
    option = None
    said = []
    for line in text[text.index("\nOptions") :].splitlines():
        if m := re.match(r"  (\S+) = ", line):
            option = profile.options[m[1]]
        elif option is not None and line.startswith("      "):
            value, _, effect = line.strip().partition(": ")
            if value in option.sets:
                said.append(value)
                assert effect and "changes " not in effect, line
                assert not [s for s in settings if "_" in s and re.search(rf"\b{re.escape(s)}\b", effect)], line
    assert len(said) == sum(len(o.sets) for o in profile.options.values())


def test_the_rules_command_prints_a_users_words_unless_asked_for_the_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from replayer.cli import main

    assert main(["rules", "classic"]) == 0
    plain = capsys.readouterr().out
    assert not FORBIDDEN.findall(plain) and "the book with the worked deal" in plain
    assert main(["rules", "classic", "--source"]) == 0
    assert "000:L207" in capsys.readouterr().out


def test_a_text_passed_over_as_citing_nothing_cites_nothing() -> None:
    """A text in which the quick look finds none of what a citation has in it (most texts of a lesson) is only
    escaped: every text the full pattern finds something in must be one the quick look lets through."""
    from replayer.lesson.citations import _MAY_CITE, _PATTERN

    texts = [line for path in GAMES for line in path.read_text(encoding="utf-8").splitlines()]
    texts += [
        "§2.e rule 10",
        "RULES.md's digest",
        "seed 000 (000:L73-L263)",
        "источника 002, строка 6",
        "004-B, 004:L55",
        "001 (L5, L7)",
        "seeds 000, 001 and 002",
        "000/001",
        "004-C",
        "as in 003.",
        "[PW1]",
        "(issue 25 item 14)",
        "the optimum, double-dummy, classes; оптимум",
        "games/worked-deal-000.bzq",
    ]
    found = [text for text in texts if _PATTERN.search(text)]
    assert len(found) > 100
    assert [text for text in found if not _MAY_CITE.search(text)] == []
    assert learner_html("North wins the trick: 40 & more", "en").html == "North wins the trick: 40 &amp; more"


@pytest.mark.parametrize(
    "text",
    [
        '<script>alert(1)</script> seed 000 (000:L1-L3) "RULES.md §2.a rule 10" & 004-C',
        "<b onmouseover=x>RULES.md §2.e, правило 10</b> источника 004 <i>",
        "[SA] (issue 25 item 14) optimum <zq>",
    ],
)
def test_a_citation_keeps_the_text_inert(text: str) -> None:
    """Whatever the text around a citation, only the links it makes are markup."""
    html = learner_html(text, "en").html
    assert (
        re.sub(r'<a class="cite (?:source|rule)" href="[^"<>]*"(?: title="[^"<>]*")?>|</a>', "", html).count("<") == 0
    )


def test_the_puzzle_page_names_a_puzzles_game_not_its_file(tmp_path: Path) -> None:
    """The puzzle page says which game a puzzle comes from by its title, in the page's language where the game has
    one; the file it was mined from is named nowhere a learner reads."""
    from replayer.puzzles import Puzzle, write_puzzles

    data = {
        "source": "/home/someone/mined/secret-file.bzq",
        "titles": {"en": "A game to learn from", "ru": "Партия для урока"},
        "game": 1,
        "deal": 1,
        "trick": 30,
        "seat": "S",
        "profile": "classic",
        "trump": "H",
        "trump_glyph": "♥",
        "scores": {"N": 100, "S": 50},
        "double_dummy": False,
        "hands": {"N": ["AS", "10S", "KH"], "S": ["QS", "JD", "7C"]},
        "trick_so_far": [{"seat": "N", "card": "10S", "glyph": "10♠"}],
        "answer": {"card": "QS", "glyph": "Q♠", "points": {"N": 10, "S": 20}},
        "line": [],
        "wrong": [{"card": "7C", "glyph": "7♣", "loss": 20, "points": {"N": 30, "S": 0}, "line": []}],
        "choices": ["QS", "7C"],
    }
    english_only = {**data, "titles": {"en": "A game to learn from"}}
    record = generate_game("classic", 3)
    write_puzzles([Puzzle(data, record), Puzzle(english_only, record)], tmp_path)
    english = visible_text((tmp_path / "index.html").read_text(encoding="utf-8"))
    russian = visible_text((tmp_path / "ru" / "index.html").read_text(encoding="utf-8"))
    assert english.count("A game to learn from") == 2
    assert "Партия для урока" in russian and "A game to learn from" in russian  # (the one without a Russian title)
    for text in (english, russian):
        assert "secret-file" not in text and not UNSEEN.findall(text)
    # On the Russian page the English title is marked as English (for a screen reader), the Russian one is not.
    page = (tmp_path / "ru" / "index.html").read_text(encoding="utf-8")
    assert '<span lang="en">A game to learn from</span>' in page and '<span lang="en">Партия' not in page
    assert '<span lang="en">' not in (tmp_path / "index.html").read_text(encoding="utf-8").split("<h1>", 1)[1]
