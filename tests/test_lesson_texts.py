"""The lessons' words (issue 14): every label true against the replay, on a lesson of every profile; the record's
texts in each language with a visible fallback; the transcriber's notes apart; better-play questions; the new text
fields as inert as the old ones; English plurals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import cyrillic_share, visible_text

from replayer.check import check_text
from replayer.fmt import format_text
from replayer.generate import generate_game
from replayer.lesson import build_lesson, interface
from replayer.profiles import profile_names
from replayer.render import render_site
from replayer.replay import GameResult, ReplayResult

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.bzq"))


def _replay(text: str, name: str) -> ReplayResult:
    result = check_text(text, name)
    assert result.valid, [d.message for d in result.diagnostics]
    return result


_RECORDS: dict[str, GameResult] = {}


def _game_of(profile: str) -> GameResult:
    """The project's record of ``profile`` (games/ has one for every profile)."""
    if not _RECORDS:
        # The complete worked deal is classic's record (the one printed with its suits lost comes first by name).
        for path in sorted(GAMES, key=lambda p: p.name != "worked-deal-000.bzq"):
            for game in _replay(path.read_text(encoding="utf-8"), str(path)).games:
                _RECORDS.setdefault(game.profile.name, game)
    return _RECORDS[profile]


@pytest.mark.parametrize("profile", profile_names())
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_sentence_about_the_turn_up_the_stock_and_the_exchange_is_the_replays(profile: str, lang: str) -> None:
    """A lesson of every profile, step by step: the stock's count is the replay's, a game without a turn-up never
    speaks of one, and an exchange names the card given (of the profile's rank) and the turn-up taken."""
    game = _game_of(profile)
    t = interface(lang)
    lesson = build_lesson(game, lang)
    turnup_words = ("turn-up", "открыт") if lang == "ru" else ("turn-up",)
    exchanges = 0
    for deal_view, deal in zip(lesson.deals, game.deals, strict=True):
        for step, trick in zip(deal_view.steps[1:], deal.tricks, strict=True):
            after = trick.after
            if after.stock:
                key = "stock_left" if game.profile.turnup else "stock_count"
                assert step.stock_text == t.count(key, after.stock), (profile, trick.n)
                assert re.search(rf"\b{after.stock}\b", step.stock_text)
            else:
                assert step.stock_text == t["stock_empty"]
            assert step.board is not None and step.board.stock == trick.before.stock
            if not game.profile.turnup:
                said = " ".join([step.stock_text, lesson.stock_title, *(e.text for e in step.scoring)]).lower()
                assert not any(word in said for word in turnup_words), (profile, trick.n, said)
                assert step.turnup is None and step.board.turnup == -1
            else:
                assert (step.turnup.code if step.turnup else None) == (str(after.turnup) if after.turnup else None)
            turnup = trick.before.turnup
            for event, view in zip(trick.scoring, step.scoring, strict=True):
                if event.kind not in ("seven_exchange", "seven_shown"):
                    continue
                exchanges += 1
                given = event.cards[0]
                assert given.rank == game.profile.seven_rank and given.suit == deal.trump
                card = next(c for c in lesson.cards if c.code == str(given)).glyph
                if event.kind == "seven_exchange" and turnup is not None and turnup != given:
                    taken = next(c for c in lesson.cards if c.code == str(turnup)).glyph
                    assert view.lead == t["score_seven_exchange"].format(
                        seat=t[f"seat_{event.seat}"], card=card, turnup=taken
                    ), (profile, trick.n, view.lead)
                    turnup = given
                else:
                    assert view.lead == t["score_seven_shown"].format(seat=t[f"seat_{event.seat}"], card=card)
    if profile in ("classic", "ua2", "ru19", "ruwiki", "three-handed", "4h-three-001", "infuzorka", "sixty-six"):
        assert exchanges, f"the {profile} record exchanges nothing: the test would check nothing"


def test_an_exchange_names_both_cards_and_the_profile_s_card() -> None:
    worked = _game_of("classic")
    trick1 = build_lesson(worked).deals[0].steps[1]
    assert trick1.scoring[0].text == "North exchanges the 7♣ for the turn-up 10♣: 10"
    assert build_lesson(worked, "ru").deals[0].steps[1].scoring[0].text == "Север меняет 7♣ на открытую карту 10♣: 10"
    # Infuzorka exchanges the nine of trumps, sixty-six the ten.
    for profile, rank in (("infuzorka", "9"), ("sixty-six", "10")):
        lesson = build_lesson(_game_of(profile))
        leads = [e.lead for d in lesson.deals for s in d.steps for e in s.scoring if e.kind == "seven_exchange"]
        assert leads and all(re.search(rf"exchanges the {rank}[♠♥♦♣] for the turn-up", lead) for lead in leads)


def test_a_seven_shown_is_not_said_to_be_exchanged() -> None:
    lesson = build_lesson(_game_of("ua2"))
    trick6 = next(s for s in lesson.deals[0].steps if s.anchor == "trick-6")
    sevens = [e.lead for e in trick6.scoring if e.kind in ("seven_exchange", "seven_shown")]
    assert sevens == ["South shows the 7♥"]


def test_english_plurals() -> None:
    en, ru = interface("en"), interface("ru")
    assert [en.count("n_cards", n) for n in (0, 1, 2, 21)] == ["0 cards", "1 card", "2 cards", "21 cards"]
    assert en.count("stock_left", 21) == "21 cards left, turn-up included"
    assert en.count("unseen_text", 51, stock=43, hands=8) == "51 unknown cards: 43 in the stock, 8 in other hands."
    assert [ru.count("n_cards", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 карта",
        "2 карты",
        "5 карт",
        "11 карт",
        "21 карта",
        "22 карты",
        "25 карт",
    ]
    # The page's script picks forms by the catalogue's rule, given as one digit a number.
    assert ru.plural_table(26) == "20111222222222222222201112"
    assert en.plural_table(4) == "1011"


def test_each_language_shows_its_own_texts_and_marks_a_stand_in() -> None:
    worked = _game_of("classic")
    en, ru = build_lesson(worked, "en"), build_lesson(worked, "ru")
    assert en.title == "Illustrative deal: North and South" and ru.title == "Показательная партия: Север и Юг"
    start_en, start_ru = en.deals[0].steps[0], ru.deals[0].steps[0]
    assert start_en.comments[0].text.startswith("The following game") and start_en.comments[0].lang == "en"
    assert start_ru.comments[0].text.startswith("Следующая партия") and start_ru.comments[0].lang == "ru"
    assert not any(c.fallback for c in start_ru.comments)
    # The transcriber's notes are apart from the book's commentary, in each language.
    assert any(n.text.startswith("Choice: the 9C") for n in start_en.notes)
    assert any(n.text.startswith("Выбор: [♣] 9") for n in start_ru.notes)
    assert not any("Choice" in c.text or "Выбор" in c.text for c in [*start_en.comments, *start_ru.comments])
    assert ru.text_note == interface("ru")["text_original"] and en.text_note.startswith("The commentary is translated")
    # A record without Russian: its English texts stand in, marked.
    text = generate_game("classic", 3).replace(
        "trick 1:", "{ An English comment only. }\n{[note] An English note. }\ntrick 1:", 1
    )
    lesson = build_lesson(_replay(text, "only-en.bzq").games[0], "ru")
    start = lesson.deals[0].steps[0]
    assert [(c.text, c.lang, c.fallback) for c in start.comments] == [("An English comment only.", "en", True)]
    assert [(n.text, n.fallback) for n in start.notes] == [("An English note.", True)]
    assert lesson.title_fallback and lesson.title_lang == "en"


def test_a_better_play_question_shows_what_was_played(tmp_path: Path) -> None:
    text = generate_game("classic", 3)
    first = re.search(r"^trick 1: ([NS]) (\S+),", text, flags=re.M)
    assert first is not None
    seat, card = first.groups()
    better = next(c for c in ("AS", "AH", "AD", "AC", "10S", "10H") if c != card)
    text = text.replace(
        first.group(0), f"trick 1: {{?[better] Which card is the better lead? | {better} }} {seat} {card},", 1
    )
    result = _replay(text, "better.bzq")
    question = build_lesson(result.games[0]).deals[0].steps[1].questions[0]
    assert question.better and question.played is not None and question.played.code == card
    render_site([result], tmp_path / "site", lang=["en", "ru"])
    played = question.played.glyph
    wanted = next(c for c in build_lesson(result.games[0]).cards if c.code == better).glyph
    html = (tmp_path / "site" / "better-1.html").read_text(encoding="utf-8")
    assert f'data-better="The record plays {played}; {wanted} is the better play."' in html
    assert "Better play</span>" in html
    ru = (tmp_path / "site" / "ru" / "better-1.html").read_text(encoding="utf-8")
    assert "Лучший ход</span>" in ru and "В записи сыграно" in ru


def _hostile_texts() -> str:
    text = generate_game("classic", 3)
    text = text.replace(
        "profile: classic",
        "profile: classic\ntitle[ru]: <script>alert(1)</script> 7*7\nsource[ru]: javascript:alert(2)\n"
        "language: <b>ru</b>",
        1,
    )
    first = re.search(r"^trick 1: ([NS]) (\S+),(.*)$", text, flags=re.M)
    assert first is not None
    seat, card, rest = first.groups()
    return text.replace(
        first.group(0),
        f"trick 1: {{?[ru] <img src=x onerror=alert(3)> | {card} }} {seat} {card},{rest}\n"
        '  {[ru] <script>alert(4)</script> & "кавычки" }\n  {[note] <a href="javascript:alert(5)">x</a> }\n'
        "  {[note ru] </details><script>alert(6)</script> }",
        1,
    )


def test_the_new_text_fields_are_inert(tmp_path: Path) -> None:
    result = _replay(_hostile_texts(), "hostile.bzq")
    render_site([result], tmp_path / "site", lang=["en", "ru"])
    for page in ("hostile-1.html", "ru/hostile-1.html", "ru/index.html"):
        html = (tmp_path / "site" / page).read_text(encoding="utf-8")
        for raw in ("<script>alert", "<img src=x", 'href="javascript:', "</details><script>"):
            assert raw not in html.split('<script type="application/json"')[0], (page, raw)
        assert re.findall(r"<script[^>]*>", html) == [
            f'<script src="{"../" if page.startswith("ru/") else ""}static/boot.js">',
            *(
                ['<script type="application/json" id="lesson-data">', '<script src="../static/lesson.js">']
                if page == "ru/hostile-1.html"
                else []
            ),
            *(
                ['<script type="application/json" id="lesson-data">', '<script src="static/lesson.js">']
                if page == "hostile-1.html"
                else []
            ),
        ]
    ru = (tmp_path / "site" / "ru" / "hostile-1.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; 7*7" in ru
    assert "&lt;script&gt;alert(4)&lt;/script&gt; &amp; &#34;кавычки&#34;" in ru
    assert "&lt;/details&gt;&lt;script&gt;alert(6)&lt;/script&gt;" in ru
    assert "javascript:alert(2)" in ru and 'href="javascript:' not in ru
    en = (tmp_path / "site" / "hostile-1.html").read_text(encoding="utf-8")
    assert "&lt;a href=&#34;javascript:alert(5)&#34;&gt;x&lt;/a&gt;" in en


def test_fmt_keeps_the_language_and_note_tags() -> None:
    """The canonical form keeps every tag where it was (bezique fmt writes "{ [ru] ... }")."""
    for path in GAMES:
        text = path.read_text(encoding="utf-8")
        assert format_text(text, str(path)) == text
    record = (ROOT / "games" / "worked-deal-000.bzq").read_text(encoding="utf-8")
    assert "{ [note] Choice: the 9C." in record and "{ [note ru] Выбор: [♣] 9." in record
    assert "{? [ru] Югу надо выиграть взятку" in record and "title[ru]: Показательная партия" in record


def test_every_question_of_the_records_accepts_the_card_played_or_says_it_was_a_slip() -> None:
    """A quiz whose answers leave out the card the record plays tells a learner who picks it that he is wrong:
    each such question is a better-play one ({?[better] ...})."""
    for path in GAMES:
        for game in _replay(path.read_text(encoding="utf-8"), str(path)).games:
            for deal in game.deals:
                for trick in deal.tricks:
                    played = dict(trick.plays)
                    for seat, question in trick.questions:
                        if question.answers and not question.better:
                            assert played[seat] in question.answers, (path.name, trick.n, seat)
                    asked = {(seat, q.lang) for seat, q in trick.questions}
                    # Each question is asked in both languages.
                    assert {lang for _, lang in asked} in (set(), {None, "ru"}), (path.name, trick.n)


def test_the_stock_panel_of_a_game_without_a_turn_up(tmp_path: Path) -> None:
    game = _game_of("rubicon-000")
    assert build_lesson(game).stock_title == "Stock" and build_lesson(game, "ru").stock_title == "Колода"
    assert build_lesson(_game_of("classic")).stock_title == "Turn-up and stock"


def test_every_russian_page_is_russian(tmp_path: Path) -> None:
    """Every Russian page of the project's site, the glossary aside (it sets the English beside the Russian on
    purpose), has at least 85% Cyrillic words; and the English pages say next to nothing in Russian but the
    sources' terms and quotations."""
    results = [_replay(path.read_text(encoding="utf-8"), str(path)) for path in GAMES]
    written = render_site(results, tmp_path / "site", lang=["en", "ru"])
    pages = [p for p in written if p.suffix == ".html"]
    assert len(pages) == 2 * (len(GAMES) + 3 + len(profile_names()))  # (+ the index, glossary and sources)
    for page in pages:
        share = cyrillic_share(visible_text(page.read_text(encoding="utf-8")))
        if page.parent.name == "ru" and page.name != "glossary.html":
            assert share >= 0.85, f"{page.name}: {share:.0%} Cyrillic"
        elif page.parent.name != "ru" and page.name.startswith("constructed-"):
            assert share <= 0.15, f"{page.name}: {share:.0%} Cyrillic on an English page"
    assert cyrillic_share("Север ходит с [♣] 7, South last_trick") == 2 / 4
    # The index leads with the published games, the complete worked deal first; the constructed ones follow, each
    # under its profile and labelled.
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    order = [index.index(f'href="{name}-1.html"') for name in ("worked-deal-000", "worked-deal-000-as-printed")]
    constructed = index.index('<h2 class="constructed-title">Constructed games</h2>')
    assert order[0] < order[1] < constructed
    assert index.count('<span class="badge constructed">constructed</span>') == len(GAMES) - 2
    # (one heading per profile: the book fragments share theirs with the constructed deals)
    grouped = [r for r in results if not Path(r.path).name.startswith("worked-")]
    assert index.count('<h3 class="profile-title">') == len({r.games[0].profile.name for r in grouped})
