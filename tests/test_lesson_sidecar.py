"""The worked deal's lesson with its sampled analysis (issue 22 item 4, issue 24 item 4): read from the record's
sidecar, every play shows its value as the sidecar gives it, a mistake is marked exactly where the rule holds, the
book's judgments stand beside what the analysis finds, the chart draws the expected margin; a stale sidecar is
never shown."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from replayer.check import check_text
from replayer.lesson.sidecar import read_sidecar, record_hash, sidecar_path
from replayer.render import render_site

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "games" / "worked-deal-000.bzq"
SIDECAR = sidecar_path(WORKED)


@pytest.fixture(scope="module")
def sidecar() -> dict[str, Any]:
    found, warning = read_sidecar(WORKED)
    assert found is not None, warning
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    out = tmp_path_factory.mktemp("site")
    result = check_text(WORKED.read_text(encoding="utf-8"), str(WORKED))
    warnings: list[str] = []
    render_site([result], out, lang=["en", "ru"], warnings=warnings)
    return out, warnings


def _plays(html: str) -> dict[tuple[int, str], tuple[str, bool]]:
    """(trick, seat) → (the value shown under the card, marked a mistake) of every play of a lesson page."""
    found = {}
    for section in re.finditer(r'<section class="step step-trick[^"]*" id="trick-(\d+)".*?</section>', html, re.S):
        for li in re.finditer(r'<li class="play([^"]*)" data-play="\d+" data-seat="(\w+)">(.*?)</li>', section[0]):
            value = re.search(r'<span class="dd-value"[^>]*>([^<]*)</span>', li[3])
            found[int(section[1]), li[2]] = (unescape(value[1]) if value else "", "mistake" in li[1])
    return found


def _expected(play: dict[str, Any]) -> str:
    if play["played"] in play["best"]:
        return "best (exact)" if play["exact"] else "best"
    cost, err = f"{play['cost']:.0f}", f"{play['cost_stderr']:.0f}"
    return f"cost {cost} (exact)" if play["exact"] else f"cost {cost} ± {err}"


def test_the_sidecar_is_the_records(sidecar: dict[str, Any]) -> None:
    assert sidecar["record_sha256"] == record_hash(WORKED.read_bytes())
    plays = sidecar["games"][0]["deals"][0]["plays"]
    assert len(plays) == 64 and {p["samples"] for p in plays if not p["exact"]} == {64}


def test_every_play_shows_the_sidecar_s_value_and_mistakes_where_the_rule_holds(
    site: tuple[Path, list[str]], sidecar: dict[str, Any]
) -> None:
    out, warnings = site
    assert warnings == []
    shown = _plays((out / "worked-deal-000-1.html").read_text(encoding="utf-8"))
    plays = sidecar["games"][0]["deals"][0]["plays"]
    assert len(shown) == len(plays)
    marked = 0
    for play in plays:
        value, mistake = shown[play["trick"], play["seat"]]
        assert value == _expected(play), play
        rule = play["cost"] >= 10 and play["cost"] >= 2 * play["cost_stderr"]
        assert mistake == rule, play
        marked += rule
    assert marked > 0
    html = (out / "worked-deal-000-1.html").read_text(encoding="utf-8")
    assert html.count('<p class="judged-mistake">') == marked
    # The Russian lesson shows the same numbers.
    ru = _plays((out / "ru" / "worked-deal-000-1.html").read_text(encoding="utf-8"))
    for play in plays:
        assert ru[play["trick"], play["seat"]][1] == shown[play["trick"], play["seat"]][1]


def test_the_book_s_judgments_beside_the_analysis(site: tuple[Path, list[str]], sidecar: dict[str, Any]) -> None:
    out, _ = site
    plays = {(p["trick"], p["seat"]): p for p in sidecar["games"][0]["deals"][0]["plays"]}
    for lang, book, verdicts in (
        ("", "The book: ", ("agrees", "disagrees", "cannot tell")),
        ("ru", "Книга: ", ("согласен", "не согласен", "не может решить")),
    ):
        html = (out / lang / "worked-deal-000-1.html").read_text(encoding="utf-8")
        for judgment in sidecar["judgments"]:
            section = re.search(rf'id="trick-{judgment["trick"]}".*?</section>', html, re.S)
            assert section is not None
            said = re.search(r'<p class="judged-book">([^<]*)</p>', section[0])
            assert said is not None and unescape(said[1]).startswith(book), judgment
            text = unescape(said[1])
            assert any(v in text for v in verdicts)
            play = plays[judgment["trick"], judgment["seat"]]
            # Where the book's card is the analysis's best, the page says they agree; elsewhere that they disagree
            # or that the analysis cannot tell.
            if judgment["prefers"][0] in play["best"]:
                assert verdicts[0] in text and verdicts[1] not in text, text
            else:
                assert verdicts[1] in text or verdicts[2] in text, text


def test_the_chart_draws_the_expected_margin(site: tuple[Path, list[str]]) -> None:
    out, _ = site
    html = (out / "worked-deal-000-1.html").read_text(encoding="utf-8")
    assert '<g class="margin">' in html


def test_a_stale_sidecar_is_not_shown(tmp_path: Path) -> None:
    record = tmp_path / "worked-deal-000.bzq"
    text = WORKED.read_text(encoding="utf-8").replace("finer points of good play", "finer points of play", 1)
    record.write_text(text, encoding="utf-8")
    shutil.copy(SIDECAR, sidecar_path(record))
    found, warning = read_sidecar(record)
    assert found is None and "stale" in warning
    warnings: list[str] = []
    render_site([check_text(text, str(record))], tmp_path / "site", lang="en", warnings=warnings)
    assert len(warnings) == 1 and "stale" in warnings[0]
    html = (tmp_path / "site" / "worked-deal-000-1.html").read_text(encoding="utf-8")
    assert "judged" not in html and "± " not in html and '<g class="margin">' not in html
    values = {v for v, _ in _plays(html).values()}
    assert not any(v.startswith("cost") for v in values)


def test_an_unreadable_sidecar_is_said_and_left_out(tmp_path: Path) -> None:
    record = tmp_path / "deal.bzq"
    record.write_text(WORKED.read_text(encoding="utf-8"), encoding="utf-8")
    sidecar_path(record).write_text("{not json", encoding="utf-8")
    found, warning = read_sidecar(record)
    assert found is None and "not read" in warning
    assert read_sidecar(tmp_path / "none.bzq") == (None, "")
    assert json.loads(SIDECAR.read_text(encoding="utf-8"))["command"].startswith("bezique analyse")
