"""The notation: what parses into what, and syntax errors with their positions."""

from __future__ import annotations

import pytest

from replayer.errors import NotationError
from replayer.reader import read_record
from replayer.record import Declare, Draws, Exchange, ScoreCheck

HEAD = """game "Sample"
source: a test, page 3
players: N "Ann", S "Boris"
profile: classic
options: last_trick=final, reuse=strict_text
target: 1000

deal 1
dealer: N
turnup: 10C
hand N: 7C QC JC QD QH KH 9H AS
hand S: QS 9C 8C 7C 7H 9D 10D JS
{ deal comment }
"""


def parse(text: str):  # type: ignore[no-untyped-def]
    return read_record(text, "t.bzq")


def test_headers_and_deal() -> None:
    record = parse(HEAD + "trick 1: S 9C, N QC -> N\n")
    game = record.games[0]
    assert game.title == "Sample"
    assert game.headers == {"source": "a test, page 3"}
    assert game.players == {"N": "Ann", "S": "Boris"}
    assert game.options == {"last_trick": "final", "reuse": "strict_text"}
    assert game.target == 1000
    deal = game.deals[0]
    assert deal.dealer == "N" and str(deal.turnup) == "10C"
    assert [str(c) for c in deal.hands["N"]][:3] == ["7C", "QC", "JC"]
    assert [c.text for c in deal.comments] == ["deal comment"]


def test_trick_items_and_comments() -> None:
    text = HEAD + (
        "trick 1: S 9C, {? Which card wins? | QC JC } N QC -> N   { trick comment }\n"
        "  N exchanges 7C = 10\n"
        "  N declares royal_marriage KC QC = 40 { on the declaration }\n"
        "  draws N KC, S 9D\n"
        "  score N 10, S 0\n"
        "  { after the score,\n    on two lines }\n"
    )
    trick = parse(text).games[0].deals[0].tricks[0]
    assert [(p.seat, str(p.card)) for p in trick.plays] == [("S", "9C"), ("N", "QC")]
    assert trick.winner == "N"
    question = trick.plays[1].questions[0]
    assert question.text == "Which card wins?" and [str(c) for c in question.answers] == ["QC", "JC"]
    assert [c.text for c in trick.comments] == ["trick comment"]
    kinds = [type(i) for i in trick.items]
    assert kinds == [Exchange, Declare, Draws, ScoreCheck]
    declare = trick.items[1]
    assert isinstance(declare, Declare) and declare.kind == "royal_marriage" and declare.points == 40
    assert [c.text for c in declare.comments] == ["on the declaration"]
    assert [c.text for c in trick.items[3].comments] == ["after the score, on two lines"]


def test_russian_and_unicode_cards() -> None:
    text = HEAD.replace("hand S: QS 9C", "hand S: Д пики 9♣") + "взятка 1: Юг 9 треф, Север Д♣ -> Север\n"
    deal = parse(text).games[0].deals[0]
    assert [str(c) for c in deal.hands["S"]][:2] == ["QS", "9C"]
    trick = deal.tricks[0]
    assert [(p.seat, str(p.card)) for p in trick.plays] == [("S", "9C"), ("N", "QC")]
    assert trick.winner == "N"


def test_several_games_and_deals() -> None:
    text = HEAD + "trick 1: S 9C, N QC\nresult N 0, S 0\ndeal 2\ndealer: S\n" + HEAD
    record = parse(text)
    assert len(record.games) == 2
    assert len(record.games[0].deals) == 2
    assert record.games[0].deals[0].end[0].what == "result"


def errors(text: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(NotationError) as info:
        parse(text)
    return [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics if d.span]


def test_syntax_errors_are_all_reported_with_positions() -> None:
    text = HEAD + "trick 1: S 9C N QC -> N\n  draws N KC, S XZ\n  score N ten\n"
    found = errors(text)
    assert [(line, col, code) for line, col, code, _ in found] == [
        (14, 15, "BZ001"),
        (15, 17, "BZ003"),
        (16, 11, "BZ001"),
    ]
    assert "expected" in found[0][3] and "','" in found[0][3]
    assert found[1][3].startswith("not a card: 'XZ'")


def test_unterminated_comment() -> None:
    found = errors(HEAD + "trick 1: S 9C, N QC { oops\n")
    assert found[0][:3] == (14, 21, "BZ004")


def test_statement_out_of_place() -> None:
    found = errors(HEAD.replace("deal 1\n", "deal 1\n  draws N KC, S 9D\n"))
    assert found[0][2] == "BZ101" and "belongs after a trick" in found[0][3]
    found = errors(HEAD + "trick 1: S 9C, N QC\nhand N: 7C\n")
    assert found[0][2] == "BZ101" and "before the deal's first trick" in found[0][3]


def test_unknown_header_key() -> None:
    found = errors(HEAD.replace("source:", "sauce:"))
    assert found[0][:3] == (2, 1, "BZ001") and "unknown header 'sauce:'" in found[0][3]


def test_a_seat_the_profile_lacks_is_reported_where_the_players_header_names_it() -> None:
    from conftest import GAMES

    from replayer.check import check_text

    text = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    old = 'players: N "North", S "South"'
    assert old in text
    broken = check_text(text.replace(old, 'players: N "North", S "South", E "East"'), "p.bzq")
    line = text[: text.index(old)].count("\n") + 1
    assert [(d.code, d.span.line, d.span.column) for d in broken.diagnostics if d.span] == [
        ("BZ105", line, len('players: N "North", S "South", ') + 1)
    ]


def test_texts_in_two_languages_and_transcribers_notes() -> None:
    record = read_record(
        'game "x"\ntitle: Hello\ntitle[ru]: Привет\nlanguage: ru\ndeal 1\n{[ru] Русский текст}\n{[note] a choice}\n'
        "{[note ru] выбор}\n{ [7C] plain }\n"
        "trick 1: {?[ru] Что? | 9C} {?[better] Why? | 9C} N 9C, S 9D -> N\n"
    )
    game = record.games[0]
    assert game.headers == {"title": "Hello", "title[ru]": "Привет", "language": "ru"}
    assert game.title == "x"
    comments = [(c.text, c.lang, c.note) for c in game.deals[0].comments]
    assert comments[:2] == [("Русский текст", "ru", False), ("a choice", None, True)]
    assert comments[2:] == [("выбор", "ru", True), ("[7C] plain", None, False)]
    questions = game.deals[0].tricks[0].plays[0].questions
    assert [(q.text, q.lang, q.better) for q in questions] == [("Что?", "ru", False), ("Why?", None, True)]


def test_an_unknown_tag_is_a_syntax_error() -> None:
    with pytest.raises(NotationError) as info:
        read_record('game "x"\n{[nte] x}\n', whole=False)  # (a part of a record: no deal)
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.code, diagnostic.span.line) == ("BZ001", 2)
    assert "unknown tag 'nte'" in diagnostic.message
