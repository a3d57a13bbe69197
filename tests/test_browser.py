"""The lessons in a real browser: Debian's Chromium (never a downloaded one) driven by playwright, every page
opened from file://, as a reader opens a rendered site from the disk.

Every test watches the page: a request to anything but a file, or an error in the console or a script, fails it.
Screenshots of a few steps go to test-artifacts/ (not committed) for a human to look at.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import cyrillic_share
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, expect, sync_playwright

from replayer.cards import Card, Suit
from replayer.check import check_text
from replayer.lesson import build_lesson, card_view, interface
from replayer.profiles import profile_names
from replayer.render import render_site

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "games" / "worked-deal-000.bzq"
LESSON = "worked-deal-000-1.html"
CHROMIUM = Path("/usr/bin/chromium")
# No sandbox (CI runs as root in a container), no GPU, and none of the browser's own traffic: the tests assert
# that the pages make no network request, so the browser must not make any either.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The worked game rendered in both languages, as ``bezique render`` does."""
    result = check_text(WORKED.read_text(encoding="utf-8"), str(WORKED))
    assert result.valid, [d.message for d in result.diagnostics]
    out = tmp_path_factory.mktemp("browser") / "site"
    render_site([result], out, lang=["en", "ru"])
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@dataclass
class Watch:
    """What a page did besides showing itself: its requests and its errors."""

    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def check(self) -> None:
        remote = [url for url in self.requests if not url.startswith("file://")]
        assert not remote, f"network requests: {remote}"
        assert self.requests, "the watch saw no request at all"
        assert not self.errors, self.errors


@dataclass
class Reader:
    """A page in a fresh browser context (nothing remembered from another test) and its watch."""

    page: Page
    watch: Watch
    site: Path

    def open(self, name: str = LESSON, anchor: str = "") -> Page:
        url = (self.site / name).as_uri() + (f"#{anchor}" if anchor else "")
        self.page.goto(url)
        return self.page

    def current(self) -> str:
        """The id of the step on show."""
        ids = self.page.locator(".step.current").evaluate_all("steps => steps.map(s => s.id)")
        assert len(ids) == 1, f"{len(ids)} steps on show"
        return str(ids[0])

    def score(self, seat: str) -> str:
        """The seat's score after the current step, as the page shows it."""
        value = self.page.locator(f".step.current .outcome .scores [data-seat='{seat}'] .value")
        expect(value).to_be_visible()
        return value.inner_text()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def _reader(browser: Browser, site: Path, javascript: bool = True) -> Iterator[Reader]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, java_script_enabled=javascript)
    page = context.new_page()
    watch = Watch()

    def request(req: Request) -> None:
        watch.requests.append(req.url)

    page.on("request", request)
    # Nothing may leave the machine even if a page asked for it: such a request is recorded (and fails the test),
    # then refused here rather than sent.
    context.route(re.compile(r"^(?!file:)"), lambda route: route.abort())
    page.on("console", watch.console)
    page.on("pageerror", lambda error: watch.errors.append(f"script: {error}"))
    try:
        yield Reader(page, watch, site)
    finally:
        context.close()
    watch.check()


@pytest.fixture
def reader(browser: Browser, site: Path) -> Iterator[Reader]:
    yield from _reader(browser, site)


@pytest.fixture
def reader_without_scripts(browser: Browser, site: Path) -> Iterator[Reader]:
    yield from _reader(browser, site, javascript=False)


def test_keys_step_to_trick_4(reader: Reader) -> None:
    page = reader.open()
    assert reader.current() == "start"
    expect(page).to_have_url(re.compile(r"#start$"))
    page.keyboard.press("ArrowLeft")  # nothing before the first step
    assert reader.current() == "start"
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert reader.current() == "trick-4"
    expect(page).to_have_url(re.compile(r"#trick-4$"))
    expect(page.locator(".player-bar .counter")).to_have_text("Step 5 of 34 · Trick 4")
    # Trick 4 asks a question: North's lead and what it brought are hidden until it is answered.
    expect(page.locator(".step.current .outcome")).to_be_hidden()
    expect(page.locator(".step.current .play[data-play='0']")).to_be_hidden()
    reader.shot("lesson-trick-4-question.png")
    page.locator(".step.current .reveal").click()
    expect(page.locator(".step.current .quiz-feedback")).to_have_text("The record plays Q♥.")
    assert reader.score("N") == "320"
    assert reader.score("S") == "0"
    reader.shot("lesson-trick-4-answered.png")
    page.keyboard.press("End")
    assert reader.current() == "end"
    result = page.locator(".step.current .result")
    expect(result.locator("[data-seat='N'] .value")).to_have_text("590")
    expect(result.locator("[data-seat='S'] .value")).to_have_text("730")
    page.keyboard.press("Home")
    assert reader.current() == "start"


def test_deep_link_to_trick_17(reader: Reader) -> None:
    page = reader.open(anchor="trick-17")
    assert reader.current() == "trick-17"
    assert reader.score("S") == "630"
    assert reader.score("N") == "420"
    expect(page.locator(".step.current .scoring")).to_contain_text("South declares double bezique")
    expect(page.locator(".step.current a.rule")).to_have_attribute("href", "rules-classic.html#meld-double_bezique")
    reader.shot("lesson-trick-17.png")
    # The long form of the link leads to the same step, and the address settles on the short one.
    page = reader.open(anchor="deal-1-trick-17")
    assert reader.current() == "trick-17"
    # The step list and the step's own link move there too.
    page.locator(".step-list a[href='#trick-9']").click()
    assert reader.current() == "trick-9"
    expect(page.locator(".step-list a[aria-current='step']")).to_have_text("9")
    expect(page.locator(".step.current .permalink")).to_have_attribute("href", "#trick-9")


def test_quiz_wrong_then_right(reader: Reader) -> None:
    page = reader.open(anchor="trick-1")
    step = page.locator(".step.current")
    quiz = step.locator(".quiz")
    expect(quiz.locator(".quiz-text")).to_contain_text("What should he lead?")
    expect(step.locator(".play[data-play='0']")).to_be_hidden()
    expect(step.locator(".commentary")).to_be_hidden()
    wrong = quiz.locator(".choice[data-card='QS']")
    expect(wrong).to_have_accessible_name("queen of spades")
    wrong.click()
    expect(quiz.locator(".quiz-feedback")).to_have_text("Not Q♠: try again.")
    expect(wrong).to_be_disabled()
    expect(step.locator(".play[data-play='0']")).to_be_hidden()
    expect(step.locator(".outcome")).to_be_hidden()
    quiz.locator(".choice[data-card='9C']").click()
    expect(quiz.locator(".quiz-feedback")).to_have_text("Right: 9♣.")
    # Answered: the trick, what it brought and the record's comment are revealed.
    expect(step.locator(".play[data-play='0'] .card")).to_have_accessible_name("nine of clubs")
    expect(step.locator(".play[data-play='1'] .card")).to_have_accessible_name("queen of clubs")
    expect(step.locator(".commentary")).to_contain_text("South leads the club nine.")
    assert reader.score("N") == "10"
    reader.shot("lesson-trick-1-answered.png")
    # Trick 12 asks about North's reply: South's lead stays in view, North's card does not.
    page = reader.open(anchor="trick-12")
    step = page.locator(".step.current")
    expect(step.locator(".play[data-play='0'] .card")).to_have_accessible_name("jack of hearts")
    expect(step.locator(".play[data-play='1']")).to_be_hidden()
    step.locator(".choice[data-card='8H']").click()
    expect(step.locator(".play[data-play='1'] .card")).to_have_accessible_name("eight of hearts")


def test_one_seats_view_hides_the_other_hand(reader: Reader) -> None:
    page = reader.open(anchor="trick-5")
    step = page.locator(".step.current")
    north, south = step.locator(".seat[data-seat='N']"), step.locator(".seat[data-seat='S']")
    expect(north.locator(".hand-cards")).to_be_visible()
    expect(south.locator(".hand-cards")).to_be_visible()
    page.locator(".player-bar [data-view-select]").select_option("N")
    expect(page.locator("html")).to_have_attribute("data-view", "N")
    expect(north.locator(".hand-cards")).to_be_visible()
    expect(south.locator(".hand-cards")).to_be_hidden()
    expect(south.locator(".hand-hidden [role='img']")).to_have_accessible_name("8 hidden cards")
    # Cards lying face up on the table stay in view, and so does the bookkeeping of the seat looked through.
    expect(north.locator(".on-table .card").first).to_be_visible()
    expect(step.locator(".book[data-seat='N']")).to_be_visible()
    expect(step.locator(".book[data-seat='S']")).to_be_hidden()
    reader.shot("lesson-north-view.png")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".step.current .seat[data-seat='S'] .hand-cards")).to_be_hidden()
    page.locator(".player-bar [data-view-select]").select_option("S")
    expect(page.locator(".step.current .seat[data-seat='N'] .hand-cards")).to_be_hidden()
    expect(page.locator(".step.current .seat[data-seat='S'] .hand-cards")).to_be_visible()
    # The choice is remembered for the next page opened.
    page.reload()
    expect(page.locator(".player-bar [data-view-select]")).to_have_value("S")
    expect(page.locator(".step.current .seat[data-seat='N'] .hand-cards")).to_be_hidden()
    page.locator(".player-bar [data-view-select]").select_option("all")
    expect(page.locator(".step.current .seat[data-seat='N'] .hand-cards")).to_be_visible()


def test_next_commented_step_and_the_film(reader: Reader) -> None:
    page = reader.open(anchor="trick-25")
    page.keyboard.press("c")  # tricks 26 to 32 have no comment: the deal's end has one
    assert reader.current() == "end"
    page.keyboard.press("Shift+C")
    assert reader.current() == "trick-25"
    page.locator(".player-bar [data-go='comment']").click()
    assert reader.current() == "end"
    # The film plays step after step and stops at the next question (trick 4), waiting for the learner.
    page = reader.open(anchor="trick-2")
    page.locator("[data-player]").evaluate("bar => bar.setAttribute('data-film-ms', '60')")
    page.locator(".player-bar [data-go='film']").click()
    expect(page).to_have_url(re.compile(r"#trick-4$"))
    expect(page.locator(".player-bar [data-go='film']")).to_have_attribute("aria-pressed", "false")


def test_four_colour_suits(reader: Reader) -> None:
    page = reader.open(anchor="start")
    diamond = page.locator(".step.current .card.s-D").first
    club = page.locator(".step.current .card.s-C").first
    expect(diamond).to_have_css("color", "rgb(192, 24, 43)")
    page.locator(".player-bar [data-colours]").click()
    # (Waited for: the page may redraw the step after the switch.)
    expect(diamond).to_have_css("color", "rgb(11, 95, 192)")
    expect(club).to_have_css("color", "rgb(23, 119, 58)")


def test_russian_lesson(reader: Reader) -> None:
    page = reader.open(f"ru/{LESSON}", "trick-17")
    assert reader.current() == "trick-17"
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".player-bar .counter")).to_have_text("Шаг 18 из 34 · Взятка 17")
    assert reader.score("S") == "630"
    expect(page.locator(".step.current .scoring")).to_contain_text("Юг объявляет двойной безик")
    expect(page.locator(".step.current .play .card").first).to_have_accessible_name("туз червей")
    # The table and the books the script draws speak Russian too.
    expect(page.locator(".step.current .seat[data-seat='S'] .hand .what")).to_have_text("На руке")
    expect(page.locator(".step.current .book[data-seat='S'] h4")).to_have_text("Учёт карт Юга")
    expect(page.locator(".step.current .book[data-seat='S'] .unseen-box summary")).to_contain_text(
        "Карты, которых Юг ещё не видел"
    )
    reader.shot("lesson-ru-trick-17.png")
    page.locator(".site-nav .languages a").click()
    # The page may already have put its first step in the address (#start) when the check runs.
    expect(page).to_have_url(re.compile(rf"/{re.escape(LESSON)}(#start)?$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_rules_and_glossary_pages(reader: Reader) -> None:
    page = reader.open(anchor="trick-4")
    page.locator(".step.current .reveal").click()
    page.locator(".step.current a.rule").click()
    expect(page).to_have_url(re.compile(r"rules-classic\.html#meld-sequence$"))
    row = page.locator("#meld-sequence")
    expect(row).to_contain_text("250")
    expect(row).to_contain_text("секвенция козырей")
    expect(row.locator(".card")).to_have_count(5)
    page = reader.open("glossary.html")
    expect(page.locator("#brisque")).to_contain_text("бриск")
    page = reader.open("ru/index.html")
    expect(page.locator(".published .game-title a")).to_have_text("Показательная партия: Север и Юг")


def test_the_whole_lesson_without_scripts(reader_without_scripts: Reader) -> None:
    page = reader_without_scripts.open(anchor="trick-4")
    expect(page.locator("[data-step]")).to_have_count(34)
    for anchor in ("start", "trick-1", "trick-17", "trick-32", "end"):
        expect(page.locator(f"#{anchor}")).to_be_visible()
    expect(page.locator(".player-bar")).to_be_hidden()
    # The answers are there to open by hand; every play and score is shown.
    expect(page.locator("#trick-4 details.answer")).to_be_visible()
    expect(page.locator("#trick-4 .play[data-play='0']")).to_be_visible()
    expect(page.locator("#trick-4 .outcome .scores [data-seat='N'] .value")).to_have_text("320")
    # The hands dealt are written out; each trick's table and the books need the script, and the page says so.
    expect(page.locator("#start .seat[data-seat='S'] .hand-cards .card")).to_have_count(8)
    expect(page.locator("#trick-4 .seat")).to_have_count(0)
    expect(page.get_by_text("drawn by the page's script")).to_be_visible()


def test_print_is_the_whole_lesson(reader: Reader) -> None:
    page = reader.open(anchor="trick-4")
    page.emulate_media(media="print")
    expect(page.locator(".player-bar")).to_be_hidden()
    expect(page.locator(".step-list")).to_be_hidden()
    for anchor in ("start", "trick-4", "trick-17", "end"):
        expect(page.locator(f"#{anchor}")).to_be_visible()
    # A question does not hide its play on paper.
    expect(page.locator("#trick-4 .play[data-play='0']")).to_be_visible()
    expect(page.locator("#trick-4 .outcome")).to_be_visible()
    # Printing draws every step's table and books, not only those of the steps shown so far.
    expect(page.locator("#trick-17 .book")).to_have_count(0)
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    expect(page.locator("#trick-17 .seat")).to_have_count(2)
    expect(page.locator("#trick-17 .book")).to_have_count(2)
    expect(page.locator("#trick-17 .book details[open]")).to_have_count(4)
    page.emulate_media(media="screen")
    assert reader.current() == "trick-4"


def test_the_watch_catches_requests_and_errors(browser: Browser, site: Path) -> None:
    """The checks every test relies on can fail: a remote image and a console error are both caught."""
    readers = _reader(browser, site)
    reader = next(readers)
    reader.open("index.html")
    reader.page.evaluate(
        "() => { const img = document.createElement('img'); img.src = 'https://example.com/card.png';"
        " document.body.append(img); console.error('broken'); }"
    )
    expect(reader.page.locator("img[src^='https:']")).to_have_count(1)
    reader.page.wait_for_timeout(100)
    with pytest.raises(AssertionError, match=r"network requests: \['https://example.com/card.png'\]"):
        next(readers)
    assert reader.watch.errors[0] == "console: broken"


@pytest.mark.parametrize("record", ["constructed-4h-six-000.bzq", "constructed-three-handed.bzq"])
def test_more_seats_keep_every_hand_in_rows(browser: Browser, tmp_path: Path, record: str) -> None:
    # Three or four seats around the cloth: no hand squeezed into a column of single cards, no seat over the trick.
    path = WORKED.parent / record
    result = check_text(path.read_text(encoding="utf-8"), str(path))
    assert result.valid
    render_site([result], tmp_path / "site", lang=["en"])
    page_name = f"{path.stem}-1.html"
    for reader in _reader(browser, tmp_path / "site"):
        page = reader.open(page_name, "trick-3")
        step = page.locator(".step.current")
        # One evaluation, so that the page cannot scroll between the measures.
        seats, centre = step.locator(".felt").first.evaluate(
            """felt => {
                const box = el => el.getBoundingClientRect().toJSON();
                const seats = [...felt.querySelectorAll('.seat')].map(seat => ({
                    seat: seat.dataset.seat,
                    box: box(seat),
                    rows: new Set([...seat.querySelectorAll('.hand-cards .card')]
                        .map(c => Math.round(c.getBoundingClientRect().top))).size,
                    cards: seat.querySelectorAll('.hand-cards .card').length,
                }));
                return [seats, box(felt.querySelector('.centre'))];
            }"""
        )
        assert len(seats) == (4 if "4h" in record else 3)
        for seat in seats:
            assert seat["cards"] < 3 or seat["rows"] * 2 <= seat["cards"] + 1, seat
            top, bottom = seat["box"]["top"], seat["box"]["bottom"]
            assert bottom <= centre["top"] + 1 or top >= centre["bottom"] - 1, (seat, centre)
        reader.shot(f"seats-{path.stem}.png")


# --- the tables and books drawn by the script --------------------------------------------------------------------

DRAWN = """step => {
    const names = el => el ? [...el.querySelectorAll('.card')].map(c => c.getAttribute('aria-label')) : [];
    const seats = {};
    for (const seat of step.querySelectorAll('.felt .seat')) {
        const played = seat.querySelector('.card.played');
        seats[seat.dataset.seat] = {
            hand: names(seat.querySelector('.hand-cards')),
            table: names(seat.querySelector('.on-table')),
            score: Number(seat.querySelector('.seat-score').textContent),
            played: played ? played.getAttribute('aria-label') : null,
        };
    }
    const books = {};
    for (const book of step.querySelectorAll('.book')) {
        books[book.dataset.seat] = {
            unseen: [...book.querySelectorAll('table.unseen tbody tr')]
                .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)),
            count: Number(book.querySelector('.unseen-box summary strong').textContent),
            known: names(book.querySelector('.known')),
            melds: [...book.querySelectorAll('table.chances tbody tr')]
                .map(tr => [...tr.querySelectorAll('td')].map(td => [td.className, td.textContent])),
        };
    }
    return {seats, books, stock: step.querySelector('.stock-text').textContent};
}"""


@pytest.mark.parametrize(
    ("record", "anchors"),
    [
        ("worked-deal-000.bzq", ["trick-1", "trick-6", "trick-17", "trick-25"]),
        ("constructed-three-handed.bzq", ["trick-2", "trick-9"]),
        ("constructed-4h-six-000.bzq", ["trick-3", "trick-12"]),
    ],
)
def test_the_drawn_tables_and_books_are_the_replays(
    browser: Browser, tmp_path: Path, record: str, anchors: list[str]
) -> None:
    """The script draws, for the step shown, each seat's hand and table before the trick, and each seat's books:
    they say what the replay says (the unseen cards counted again here from the replay) and what the lesson's
    bookkeeping says (the combinations still possible), in the same words."""
    path = WORKED.parent / record
    result = check_text(path.read_text(encoding="utf-8"), str(path))
    assert result.valid
    render_site([result], tmp_path / "site", lang=["en"])
    game = result.games[0]
    deal = game.deals[0]
    lesson = build_lesson(game, "en", books=True)
    steps = {s.anchor: s for s in lesson.deals[0].steps}
    seats = list(game.profile.seats)
    deck = Counter(game.profile.with_options(game.options).pack())
    ranks = sorted(game.profile.ranks, reverse=True)
    for reader in _reader(browser, tmp_path / "site"):
        for anchor in anchors:
            page = reader.open(f"{path.stem}-1.html", anchor)
            assert reader.current() == anchor
            drawn = page.locator(".step.current").evaluate(DRAWN)
            trick = next(t for t in deal.tricks if f"trick-{t.n}" == anchor)
            snap = trick.before
            played_before = Counter(c for t in deal.tricks if t.n < trick.n for _, c in t.plays)
            assert sorted(drawn["seats"]) == sorted(seats)
            for seat in seats:
                shown = drawn["seats"][seat]
                assert shown["hand"] == [c.english for c in snap.hands[seat]], (anchor, seat)
                assert shown["table"] == [c.english for c in snap.tables[seat]], (anchor, seat)
                assert shown["score"] == snap.scores[game.profile.scorer(seat)]
                assert shown["played"] == next(c.english for s, c in trick.plays if s == seat)
            # A game without a turn-up counts the stock's cards and never speaks of a turn-up.
            said = (
                f"{snap.stock} cards left, turn-up included"
                if game.profile.turnup
                else f"{snap.stock} cards in the stock"
            )
            assert drawn["stock"] == (said if snap.stock else "The stock is exhausted.")
            model = {b.seat: b for b in steps[anchor].books}
            for seat in seats:
                book = drawn["books"][seat]
                known = Counter(Card.parse(lesson.cards[c].code) for c in model[seat].known)
                assert book["known"] == [c.english for c in sorted(known.elements(), key=lambda c: c.sort_key)]
                seen = played_before + Counter(snap.hands[seat]) + Counter(snap.tables[seat]) + known
                seen += Counter(c for s in seats if s != seat for c in snap.tables[s])
                seen += Counter([snap.turnup] if snap.turnup is not None else [])
                unseen = deck - seen
                assert book["unseen"] == [[str(unseen[Card(suit, r)] or "·") for r in ranks] for suit in Suit], (
                    anchor,
                    seat,
                )
                assert book["count"] == sum(unseen.values())
                states = [lesson.meld_states[n] for n in model[seat].melds]
                assert [cell for row in book["melds"] for cell in row] == [
                    [f"state state-{state}", text] for state, text in states
                ]
            if anchor == "trick-6" and record.startswith("worked"):
                # South holds both Q♠ and the J♦: bezique is his; for North, double bezique is out of reach.
                assert ["state state-ready", "held"] in drawn["books"]["S"]["melds"][-2]
                assert drawn["books"]["S"]["melds"][-1][0] == [
                    "state state-impossible",
                    "both Q♠ seen, 1 of the 2 J♦ seen",
                ]
            if anchor == "trick-25":
                assert all(not b["melds"] for b in drawn["books"].values())


def test_the_page_needs_nothing_but_its_files(reader: Reader) -> None:
    """Opened from the disk, a lesson loads its stylesheet and its two scripts and nothing else: the data the
    script draws from is in the page (a file:// page may not fetch a JSON file)."""
    page = reader.open(anchor="trick-9")
    expect(page.locator(".step.current .book")).to_have_count(2)
    expect(page.locator(".step.current .seat")).to_have_count(2)
    names = sorted({url.split("#")[0].rsplit("/", 1)[-1] for url in reader.watch.requests})
    assert names == sorted([LESSON, "style.css", "boot.js", "lesson.js"])
    assert all(url.startswith("file://") for url in reader.watch.requests)


BOOKS = """() => {
    window.dispatchEvent(new Event('beforeprint'));
    const text = el => el ? el.textContent : null;
    const steps = {};
    for (const step of document.querySelectorAll('[data-step]')) {
        const books = {};
        for (const book of step.querySelectorAll('.book')) {
            books[book.dataset.seat] = {
                news: [...book.querySelectorAll('.news li')].map(li => li.textContent),
                unseen: [...book.querySelectorAll('table.unseen tbody tr')]
                    .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)),
                count: Number(book.querySelector('.unseen-box summary strong').textContent),
                text: text(book.querySelector('.unseen-text')),
                known: [...book.querySelectorAll('.known .card')].map(c => c.getAttribute('aria-label')),
                melds: [...book.querySelectorAll('table.chances tbody tr')]
                    .map(tr => [...tr.querySelectorAll('td')].map(td => [td.className, td.textContent])),
                over: book.querySelector(':scope > p.note') !== null,
            };
        }
        steps[step.id] = books;
    }
    return steps;
}"""


@pytest.mark.parametrize(
    ("record", "lang"),
    [
        ("worked-deal-000.bzq", "en"),
        ("worked-deal-000.bzq", "ru"),
        ("constructed-three-handed.bzq", "en"),
        ("constructed-4h-six-000.bzq", "en"),
    ],
)
def test_every_step_s_books_are_the_models(browser: Browser, tmp_path: Path, record: str, lang: str) -> None:
    """The page's script works out each seat's books from the boards and the scoring in the lesson's data; at every
    step they are, word for word, the books the renderer's model works out in Python from the replay (the news of
    combinations become impossible, the unseen cards and their sentence, the cards known, every combination's
    state)."""
    path = WORKED.parent / record
    result = check_text(path.read_text(encoding="utf-8"), str(path))
    assert result.valid
    render_site([result], tmp_path / "site", lang=[lang])
    lesson = build_lesson(result.games[0], lang, books=True)
    ranks = sorted(result.games[0].profile.ranks, reverse=True)
    index = {card.code: i for i, card in enumerate(lesson.cards)}
    grid = [[index[str(Card(suit, r))] for r in ranks] for suit in Suit]
    seats = len(lesson.seats)
    expected = {}
    for step in (s for d in lesson.deals for s in d.steps):
        expected[step.anchor] = {
            b.seat: {
                "news": b.news,
                "unseen": [[str(b.unseen[k] or "·") for k in row] for row in grid],
                "count": b.unseen_count,
                "text": b.unseen_text,
                "known": [lesson.cards[k].label for k in b.known],
                "melds": [
                    [
                        [f"state state-{state}", text]
                        for state, text in (lesson.meld_states[n] for n in b.melds[t : t + seats])
                    ]
                    for t in range(0, len(b.melds), seats)
                ],
                "over": not b.declaring,
            }
            for b in step.books
        }
    assert sum(len(books) for books in expected.values()) >= 2 * 30
    for reader in _reader(browser, tmp_path / "site"):
        drawn = reader.open(f"{path.stem}-1.html").evaluate(BOOKS)
        for anchor, books in expected.items():
            assert drawn[anchor] == books, anchor


# --- issue 14: the learner's language, true labels, phones, the toolbar, print ----------------------------------

GAMES = sorted(WORKED.parent.glob("*.bzq"))


@pytest.fixture(scope="module")
def full_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every record of games/ rendered in both languages, as the project's site is."""
    results = [check_text(path.read_text(encoding="utf-8"), str(path)) for path in GAMES]
    assert all(r.valid for r in results)
    out = tmp_path_factory.mktemp("full") / "site"
    render_site(results, out, lang=["en", "ru"])
    return out


def test_the_russian_worked_lesson_reads_in_russian(reader: Reader) -> None:
    """The book's deal in Russian: its own words from title to last comment, no English stand-in, the transcriber's
    notes folded apart and labelled."""
    page = reader.open(f"ru/{LESSON}", "trick-1")
    expect(page.locator("h1")).to_have_text("Показательная партия: Север и Юг")
    step = page.locator(".step.current")
    step.locator(".choice[data-card='9C']").click()
    expect(step.locator(".commentary")).to_contain_text("Юг ходит с «треф» 9")
    expect(step.locator(".commentary")).to_contain_text("Север меняет [♣] 7 на открытую карту")
    expect(step.locator(".commentary")).not_to_contain_text("Choice")
    notes = step.locator("details.notes")
    expect(notes.locator("summary")).to_have_text("Примечание составителя записи")
    expect(notes.locator("p").first).to_be_hidden()
    notes.locator("summary").click()
    expect(notes.locator("p").first).to_contain_text("Выбор: [♦] 9")
    expect(page.locator(".fallback")).to_have_count(0)
    page.keyboard.press("End")
    expect(page.locator(".step.current .commentary")).to_contain_text("Север играл хорошо")
    # Every step drawn, the whole page's words: Russian, but for the codes a rules page names.
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert cyrillic_share(page.locator("body").inner_text()) >= 0.85
    reader.shot("lesson-ru-trick-1-notes.png")


def test_a_game_without_a_turn_up_never_speaks_of_one(browser: Browser, full_site: Path) -> None:
    for reader in _reader(browser, full_site):
        page = reader.open("constructed-rubicon-000-1.html", "trick-5")
        stock = page.locator(".step.current .stock-box")
        expect(stock.locator("h4")).to_have_text("Stock")
        expect(stock.locator(".stock-text")).to_have_text(re.compile(r"^\d+ cards in the stock$"))
        page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
        # The interface's words on every step (the record's own texts aside: this one says "no turn-up").
        said = page.evaluate(
            "() => { const main = document.querySelector('main').cloneNode(true);"
            " main.querySelectorAll('.commentary, .introduction, .notes, .all-notes, .quiz-text')"
            ".forEach(e => e.remove()); return main.textContent.toLowerCase(); }"
        )
        assert "trick 5" in said and "turn-up" not in said
        page = reader.open("ru/constructed-rubicon-000-1.html", "trick-5")
        expect(page.locator(".step.current .stock-box h4")).to_have_text("Колода")
        expect(page.locator(".step.current .stock-text")).to_have_text(re.compile(r"^в колоде \d+ карт[аы]?$"))


PHONE_PAGES = ["index.html", "glossary.html", *(f"rules-{name}.html" for name in profile_names()), LESSON]


@pytest.mark.parametrize("lang", ["", "ru/"])
def test_a_phone_reads_every_page_without_sideways_scrolling(browser: Browser, full_site: Path, lang: str) -> None:
    """At 390 px no page is wider than the screen; a wide table scrolls inside itself."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        for name in PHONE_PAGES:
            page.goto((full_site / f"{lang}{name}").as_uri())
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"{lang}{name} is {width} px wide"
        page.goto((full_site / f"{lang}rules-infuzorka.html").as_uri())
        assert page.locator(".table-scroll").count() >= 3
    finally:
        context.close()


@pytest.mark.parametrize(
    "name", [LESSON, f"ru/{LESSON}", "constructed-4h-six-000-1.html", "ru/constructed-4h-six-000-1.html"]
)
def test_the_toolbar_keeps_its_place_on_one_row(browser: Browser, full_site: Path, name: str) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 800})
    try:
        page = context.new_page()
        page.goto((full_site / name).as_uri())
        rows = page.evaluate(
            "() => new Set([...document.querySelectorAll('.player-bar button, .player-bar select')]"
            ".map(e => { const r = e.getBoundingClientRect(); return Math.round(r.top + r.height / 2); })).size"
        )
        assert rows == 1, f"{name}: the toolbar wraps at 1,024 px"
        where = "() => document.querySelector(\"[data-go='next']\").getBoundingClientRect().left"
        places = set()
        for _ in range(12):
            places.add(round(page.evaluate(where)))
            page.keyboard.press("ArrowRight")
        assert len(places) == 1, f"{name}: Next moves between steps: {sorted(places)}"
    finally:
        context.close()


def test_play_on_a_quiz_says_to_answer_first(reader: Reader) -> None:
    page = reader.open(anchor="trick-1")
    note = page.locator(".film-note")
    expect(note).to_be_hidden()
    page.locator(".player-bar [data-go='film']").click()
    expect(note).to_be_visible()
    expect(note).to_have_text("Answer the question first: the film goes on after it.")
    assert reader.current() == "trick-1"
    expect(page.locator(".player-bar [data-go='film']")).to_have_attribute("aria-pressed", "false")
    page.locator(".step.current .choice[data-card='9C']").click()
    expect(note).to_be_hidden()
    page = reader.open(f"ru/{LESSON}", "trick-4")
    page.locator(".player-bar [data-go='film']").click()
    expect(page.locator(".film-note")).to_have_text("Сначала ответьте на вопрос: после ответа показ продолжится.")


def test_the_step_list_has_a_legend(reader: Reader) -> None:
    page = reader.open()
    legend = page.locator(".step-list .legend")
    legend.locator("summary").click()
    for css in ("scored", "noted", "quiz", "phase-2", "current"):
        expect(legend.locator(f".sample.{css}")).to_be_visible()
    # Each sample looks like the marks in the list: the scored one has the list's gold.
    colour = "element => getComputedStyle(element).backgroundColor"
    assert legend.locator(".sample.scored").evaluate(colour) == page.locator(".step-list a.scored").first.evaluate(
        colour
    )


def _pdf_text(pdf: bytes) -> tuple[int, str]:
    """A PDF's pages and its text, as a reader's PDF viewer extracts it."""
    import io

    from pypdf import PdfReader

    document = PdfReader(io.BytesIO(pdf))
    return len(document.pages), "\n".join(p.extract_text() for p in document.pages)


@pytest.mark.parametrize("lang", ["", "ru/"])
def test_the_handout_fits_eight_pages(browser: Browser, full_site: Path, lang: str) -> None:
    """The 32-trick deal printed on A4: several tricks a page, the hands as dealt and as the last tricks begin, the
    answers shown, the notes at the end; Chromium's own PDF counts the pages, and its text holds every dealt card."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto((full_site / f"{lang}{LESSON}").as_uri())
        page.emulate_media(media="print")
        expect(page.locator("#trick-4 .print-answer")).to_be_visible()
        expect(page.locator("#trick-4 .print-answer")).to_contain_text("Q♥" if not lang else "Д♥")
        expect(page.locator(".all-notes")).to_be_visible()
        expect(page.locator("#start .notes")).to_be_hidden()
        # The notes come after every step.
        assert page.evaluate(
            "() => document.querySelector('#end').compareDocumentPosition(document.querySelector('.all-notes'))"
            " & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        pdf = page.pdf(format="A4")
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 1 <= pages <= 8, f"{lang}{LESSON} prints on {pages} pages"
        counted, text = _pdf_text(pdf)
        assert counted == pages
        # Every card dealt, seat by seat, in the order the page lays the hand out (the replay's cards in the page's
        # language), and the hands as they stand when the last tricks begin (drawn by the script before printing).
        game = check_text(WORKED.read_text(encoding="utf-8"), str(WORKED)).games[0]
        lesson = build_lesson(game, "ru" if lang else "en")
        deal, view = game.deals[0], lesson.deals[0]
        dealt = view.steps[0].seats
        assert sum(len(seat.hand) for seat in dealt) == sum(len(h) for h in deal.hands.values()) == 16
        lines = [line.split(" ", 1)[-1] for line in text.splitlines()]
        for seat in dealt:
            assert sorted(c.code for c in seat.hand) == sorted(str(c) for c in deal.hands[seat.seat])
            assert " ".join(c.glyph for c in seat.hand) in lines, seat.seat
        last = next(t for t in deal.tricks if t.phase == 2)
        for seat, hand in last.before.hands.items():
            shown = page.locator(f"#trick-{last.n} .seat[data-seat='{seat}'] .hand-cards .card")
            glyphs = " ".join(shown.evaluate_all("cards => cards.map(c => c.textContent.replace('\\ufe0e', ''))"))
            assert len(hand) == shown.count() > 0 and glyphs in text, seat
        # No blank first page: nothing before the first step breaks the page.
        breaks = page.evaluate(
            "() => [...document.querySelectorAll('body *')].slice(0, 400).filter(e => e.closest('#start') === null"
            " && ['page', 'always'].includes(getComputedStyle(e).breakBefore)).length"
        )
        assert breaks == 0
        (ARTIFACTS / f"handout{'-ru' if lang else ''}.pdf").parent.mkdir(exist_ok=True)
        (ARTIFACTS / f"handout{'-ru' if lang else ''}.pdf").write_bytes(pdf)
    finally:
        context.close()


def test_puzzle_page_works_from_file(browser: Browser, tmp_path: Path) -> None:
    """bezique puzzles' page, opened from the disk: a wrong card gets its refutation, the answer its value."""
    from replayer.generate import generate_game
    from replayer.puzzles import mine_game, write_puzzles

    puzzles = []
    for seed in range(100, 140):
        puzzles.extend(mine_game(generate_game("classic", seed), f"seed-{seed}.bzq", 1, seed))
    assert puzzles
    folder = tmp_path / "puzzles"
    write_puzzles(puzzles, folder)
    readers = _reader(browser, folder)
    reader = next(readers)
    page = reader.open("index.html")
    first = page.locator(".puzzle").first
    answer = first.get_attribute("data-answer")
    wrong = puzzles[0].data["wrong"][0]
    first.locator(f".choices button[data-card='{wrong['card']}']").click()
    expect(first.locator(".feedback")).to_contain_text(f"{wrong['glyph']} loses {wrong['loss']}")
    expect(first.locator(".choices button.wrong")).to_have_count(1)
    first.locator(f".choices button[data-card='{answer}']").click()
    expect(first.locator(".feedback")).to_contain_text(f"Right: {puzzles[0].data['answer']['glyph']} is the best card")
    expect(first).to_have_class(re.compile(r"\bsolved\b"))
    reader.shot("puzzles.png")
    # The position as it stands: a card already played to the trick lies on the table, not in its player's hand.
    names = interface("en")
    for number, puzzle in enumerate(puzzles, 1):
        played = Counter(p["seat"] for p in puzzle.data["trick_so_far"])
        for seat, cards in puzzle.data["hands"].items():
            shown = page.locator(f"#puzzle-{number} .hand:has(strong:text-is('{names[f'seat_{seat}']}')) .card")
            expect(shown).to_have_count(len(cards) - played[seat])
    # The keys, as in the lessons: → to the next puzzle, End to the last, a digit chooses that card of the puzzle.
    page.keyboard.press("Home")
    expect(page.locator("#puzzle-1")).to_be_focused()
    last = len(puzzles)
    page.keyboard.press("End")
    expect(page.locator(f"#puzzle-{last}")).to_be_focused()
    page.keyboard.press("ArrowRight")  # (no puzzle after the last: it stays)
    expect(page.locator(f"#puzzle-{last}")).to_be_focused()
    choices = puzzles[-1].data["choices"]
    page.keyboard.press(str(len(choices)))
    chosen = page.locator(f"#puzzle-{last} .choices button").nth(len(choices) - 1)
    expect(chosen).to_have_attribute("data-card", choices[-1])
    expect(chosen).to_have_class(re.compile(r"\b(right|wrong)\b"))
    expect(page.locator(f"#puzzle-{last} .feedback")).not_to_be_empty()
    # The same page in Russian: its words, its seats and its cards' names, and a link to the other language.
    russian = interface("ru")
    page = reader.open("ru/index.html")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text(russian["puzzle_title"])
    first = page.locator(".puzzle").first
    seat = russian[f"seat_{puzzles[0].data['seat']}"]
    expect(first.locator("h2")).to_have_text(russian["puzzle_heading"].format(n=1, seat=seat))
    first.locator(f".choices button[data-card='{answer}']").click()
    glyph = card_view(Card.parse(str(answer)), russian).glyph
    expect(first.locator(".feedback")).to_contain_text(russian["puzzle_right"].format(card=glyph))
    expect(page.locator(".languages a[hreflang='en']")).to_have_attribute("href", "../index.html")
    with pytest.raises(StopIteration):
        next(readers)  # (closes the page and checks its watch: no network, no script error)


# --- accessibility ------------------------------------------------------------------------------------------------

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def _axe_violations(page: Page) -> list[str]:
    """axe-core's WCAG 2 A and AA violations on the page as shown, one line each: rule, impact, the elements."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'], preload: false})"
        ".then(r => r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ')).join(', ') + ' [' + v.nodes.length + ']'))",
        WCAG_A_AA,
    )
    return [str(line) for line in found]


@pytest.fixture(scope="module")
def puzzle_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A puzzle page of a few generated deals' puzzles, as ``bezique puzzles`` writes it."""
    from replayer.generate import generate_game
    from replayer.puzzles import mine_game, write_puzzles

    puzzles = []
    for seed in range(100, 140):
        puzzles.extend(mine_game(generate_game("classic", seed), f"seed-{seed}.bzq", 1, seed))
        if len(puzzles) >= 3:
            break
    assert puzzles
    folder = tmp_path_factory.mktemp("puzzles")
    write_puzzles(puzzles, folder)
    return folder


@pytest.mark.parametrize(
    "name",
    [
        "index.html",
        LESSON,
        f"ru/{LESSON}",
        "rules-classic.html",
        "glossary.html",
        "ru/glossary.html",
        "sources.html",
        "puzzles",
        "puzzles-ru",
    ],
)
def test_axe_finds_no_wcag_violation(browser: Browser, site: Path, puzzle_site: Path, name: str) -> None:
    """axe-core (vendored, run offline) reports no WCAG 2 A or AA violation on the index, a lesson in each
    language, a rules page, the glossary and the puzzle page, with the page's script run."""
    assert AXE.is_file()
    puzzle_page = {"puzzles": "index.html", "puzzles-ru": "ru/index.html"}
    folder, page_name = (puzzle_site, puzzle_page[name]) if name in puzzle_page else (site, name)
    readers = _reader(browser, folder)
    reader = next(readers)
    # Reduced motion: the page jumps to its step rather than scrolling smoothly, so that axe sees it at rest (a
    # link passing under the sticky toolbar mid-scroll is not a target too small).
    reader.page.emulate_media(reduced_motion="reduce")
    page = reader.open(page_name)
    assert _axe_violations(page) == []
    with pytest.raises(StopIteration):
        next(readers)


# --- words whole at every width -----------------------------------------------------------------------------------

# Every word (split where a line may break: spaces, hyphens and dashes, slashes) whose letters the browser laid out on
# more than one line: a word or number broken inside itself. Addresses and screen-reader-only text are left out.
BROKEN_WORDS = r"""
() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent;
    if (!text.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, .visually-hidden, svg, a[href^='http']")) continue;
    const re = /[^\s\-\u2010-\u2015\/·,;:(]+/g;
    let m;
    while ((m = re.exec(text))) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (rects.length > 1 && new Set(rects.map(r => Math.round(r.top))).size > 1) {
        found.push(m[0] + " in <" + parent.tagName.toLowerCase() + "." + parent.className + ">");
        if (found.length > 30) return found;
      }
    }
  }
  return found;
}
"""
NARROW, WIDTHS = 320, [390, 768, 1280, 1920]


def test_no_word_breaks_and_no_sideways_scroll(browser: Browser, full_site: Path, puzzle_site: Path) -> None:
    """Every page of the site (each lesson, rules page, glossary and index in both languages) at the narrowest
    width, 320 px, and one page of each kind at 390 to 1,920 px: no word or number breaks inside itself, and the page
    never scrolls sideways (a wide table scrolls inside itself)."""
    pages = sorted(full_site.rglob("*.html"))
    assert len(pages) > 60
    kinds = [
        full_site / LESSON,
        full_site / "ru" / LESSON,
        full_site / "constructed-4h-three-001-1.html",
        full_site / "rules-classic.html",
        full_site / "ru" / "rules-classic.html",
        full_site / "glossary.html",
        full_site / "ru" / "glossary.html",
        full_site / "index.html",
        puzzle_site / "index.html",
    ]
    readers = _reader(browser, full_site)
    reader = next(readers)
    page = reader.page
    problems: list[str] = []
    for path, widths in [*((p, [NARROW]) for p in pages), *((p, WIDTHS) for p in kinds)]:
        page.set_viewport_size({"width": widths[0], "height": 900})
        page.goto(path.as_uri())
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            broken = page.evaluate(BROKEN_WORDS)
            wide = page.evaluate("document.documentElement.scrollWidth")
            if broken or wide > width:
                problems.append(f"{path.relative_to(path.parent.parent)} at {width}px: {wide}px wide, {broken[:5]}")
    assert problems == []
    with pytest.raises(StopIteration):
        next(readers)


@pytest.mark.parametrize("width", [1280, 1024, 390])
def test_the_toolbar_never_covers_the_step(browser: Browser, site: Path, width: int) -> None:
    """Whichever way a step is reached (a link to it, the keys, the step list), its title shows whole below the
    sticky toolbar, and the toolbar's counter shows the step's title whole, the last step's too."""
    # (Reduced motion: the page scrolls at once, not smoothly, so that where it ends up can be measured.)
    context = browser.new_context(viewport={"width": width, "height": 800}, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto((site / LESSON).as_uri() + "#trick-17")
        counter = page.locator(".player-bar .counter")

        def check(anchor: str) -> None:
            expect(page.locator(f"#{anchor}.current")).to_be_visible()
            bar = page.locator(".player-bar").bounding_box()
            title = page.locator(f"#{anchor} h3").bounding_box()
            assert bar is not None and title is not None
            sticky = page.locator(".player-bar").evaluate("e => getComputedStyle(e).position") == "sticky"
            if sticky:
                assert title["y"] >= bar["y"] + bar["height"] - 0.5, (anchor, title, bar)
            whole = counter.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")
            assert whole, counter.inner_text()
            assert counter.inner_text().endswith(page.locator(f"#{anchor} h3").inner_text())

        check("trick-17")
        page.keyboard.press("ArrowRight")
        check("trick-18")
        page.keyboard.press("End")
        check("end")
        page.locator(".step-list a[href='#trick-5']").first.click()
        check("trick-5")
    finally:
        context.close()
