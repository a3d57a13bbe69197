"""Book fragments (issue 16, item 4): a record that starts from a stated position (``position:``, ``table``) and
ends before the deal does. The seeds' own examples (games/fragment-*.bzq) validate, and the position is checked:
its hands, stock, scores and leader, the melds on the tables under the re-use rules, and everything played after."""

from __future__ import annotations

import re

import pytest
from conftest import GAMES

from replayer.check import check_text
from replayer.fmt import format_text

FRAGMENTS = sorted(GAMES.glob("fragment-*.bzq"))
FOUR_KINGS = (GAMES / "fragment-ruwiki-four-kings.bzq").read_text(encoding="utf-8")
DISCARD = (GAMES / "fragment-sixty-six-discard.bzq").read_text(encoding="utf-8")
EXCHANGE = (GAMES / "fragment-sixty-six-exchange.bzq").read_text(encoding="utf-8")


def codes(text: str) -> list[str]:
    return [d.code for d in check_text(text).diagnostics]


def test_at_least_three_fragments_from_the_seeds() -> None:
    assert len(FRAGMENTS) >= 3
    for path in FRAGMENTS:
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^source: .*\(\d{3}:L\d+", text, re.MULTILINE), path.name  # its lines cited
        assert "{?" in text, path.name  # a question for the lesson
        assert "position:" in text


@pytest.mark.parametrize("path", FRAGMENTS, ids=lambda p: p.name)
def test_each_fragment_validates_and_is_canonical(path: object) -> None:
    text = path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    result = check_text(text, str(path))
    assert result.diagnostics == []
    assert result.valid
    assert format_text(text) == text


def test_the_stated_scores_carry_on_from_the_position() -> None:
    assert codes(FOUR_KINGS.replace("score N 230, S 130\n  {", "score N 240, S 130\n  {")) == ["BZ501"]
    # (once: the replay goes on from the score the record states)
    assert codes(FOUR_KINGS.replace("N 150, S 130", "N 140, S 130")) == ["BZ501"]


def test_the_position_is_checked() -> None:
    assert codes(FOUR_KINGS.replace("stock 30", "stock 28")) == ["BZ112"]
    assert codes(FOUR_KINGS.replace("hand N: KS KD KC 7D 8C 9H", "hand N: KS KD KC 7D 9H")) == ["BZ112"]
    assert codes(FOUR_KINGS.replace("leader: S\n", "")) == ["BZ107"]
    assert codes(FOUR_KINGS.replace(", N 150, S 130", ", N 150")) == ["BZ107"]
    assert codes(FOUR_KINGS.replace("table N: marriage KH QH", "table N: marriage KH QS")) == ["BZ304"]
    assert codes(FOUR_KINGS.replace("hand S: AD 10C", "hand S: AD K?")) == ["BZ112"]


def test_a_table_belongs_to_a_fragment() -> None:
    whole = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    assert "BZ112" in codes(whole.replace("hand N:", "table N: marriage KH QH\nhand N:", 1))


def test_the_re_use_rule_knows_the_melds_on_the_table() -> None:
    # 004:L181: the reverse of the fragment's declaration is refused (a marriage after four kings scores less).
    reverse = FOUR_KINGS.replace("table N: marriage KH QH", "table N: four_kings KH KS KD KC").replace(
        "hand N: KS KD KC 7D 8C 9H", "hand N: QH 7D 8C 9H"
    )
    reverse = reverse.replace("N declares four_kings KH KS KD KC = 80", "N declares marriage KH QH = 20").replace(
        "N 230", "N 170"
    )
    assert codes(reverse) == ["BZ307"]


def test_the_plays_after_the_position_follow_the_rules() -> None:
    # 003:L19: the marriage's declarer leads one of its cards next.
    led = DISCARD.replace("} S KS, N AS -> N", "} S JS, N AS -> N").replace("N 15, S 35", "N 13, S 35")
    assert codes(led)[0] == "BZ209"
    # Only the winner of a trick exchanges (RULES.md §2.k rule 6).
    lost = EXCHANGE.replace("} N QC -> N", "} N 9S -> S")
    assert "BZ309" in codes(lost)


def test_a_fragment_ends_before_the_deal_does_without_bz506() -> None:
    assert "BZ506" not in codes(FOUR_KINGS)
    whole = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    cut = whole[: whole.index("trick 5:")]
    assert "BZ506" in codes(cut)  # (a whole deal still must be played out)


def test_each_fragment_is_a_lesson(tmp_path: object) -> None:
    import html

    from replayer.render import render_site

    results = [check_text(p.read_text(encoding="utf-8"), str(p)) for p in FRAGMENTS]
    written = render_site(results, tmp_path / "site", lang="en")  # type: ignore[operator]
    for path in FRAGMENTS:
        page = next(p for p in written if p.name == f"{path.stem}-1.html")
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
        question = re.search(r"\{\?([^|}]*)", path.read_text(encoding="utf-8"))
        assert question is not None and " ".join(question.group(1).split()[:4]) in " ".join(text.split())
    # The position's scores are where the lesson starts, not points scored at its first step.
    four_kings = (tmp_path / "site" / "fragment-ruwiki-four-kings-1.html").read_text(encoding="utf-8")  # type: ignore[operator]
    assert "(+150)" not in html.unescape(re.sub(r"<[^>]+>", "", four_kings))
