"""The notation's one writer (``replayer.writer``) spells each statement as ``bezique fmt`` does: what it writes is
canonical, reads back to the same statements, and the generated records of every profile are written with it."""

from __future__ import annotations

import pytest

from replayer import writer as write
from replayer.cards import Card
from replayer.fmt import format_text
from replayer.generate import generate_game
from replayer.profiles import profile_names
from replayer.reader import read_record


def _c(text: str) -> Card:
    return Card.parse(text)


def test_each_statement_is_canonical_and_reads_back() -> None:
    lines = [
        write.game("Writer"),
        "profile: classic",
        "",
        "deal 1",
        "dealer: N",
        write.hand("N", [_c("AS"), 13, _c("9C")]),
        "",
        write.trick(
            1,
            [("S", _c("9C")), ("N", 31)],
            "N",
            {1: " ".join([write.question("Which card?", "AC"), write.question("Какой картой?", "AC", "ru")])},
        ),
        write.comment("the ace wins", item=True),
        write.comment("туз берёт", "ru", item=True),
        write.exchange("N", _c("7C"), 10),
        write.declare("N", "marriage", [13, 12], 20),
        write.declare("N", "carte_blanche", (), 50),
        write.draws([("N", _c("KC")), ("S", 9)]),
        write.scores("score", {"N": 80, "S": 0}, item=True),
        "",
        write.scores("brisques", {"N": 60, "S": 100}),
        write.scores("result", {"N": 590, "S": 730}),
        write.scores("game score", {"N+S": 0, "E+W": 2370}),
    ]
    text = "\n".join(lines) + "\n"
    assert format_text(text) == text
    record = read_record(text)
    trick = record.games[0].deals[0].tricks[0]
    assert [(p.seat, str(p.card)) for p in trick.plays] == [("S", "9C"), ("N", "AC")]
    assert record.games[0].title == "Writer"
    asked = [(q.text, q.lang, [str(c) for c in q.answers]) for q in trick.plays[1].questions]
    assert asked == [("Which card?", None, ["AC"]), ("Какой картой?", "ru", ["AC"])]
    assert write.comment("A puzzle", "note") == "{ [note] A puzzle }"
    assert write.declare("N", "marriage", [13], 40, "S", [_c("QH")]) == "  N declares marriage KH with S QH = 40"
    assert write.trick(2, [("N", 0)]) == "trick 2: N 7S"


@pytest.mark.parametrize("profile", profile_names())
def test_generated_records_are_canonical(profile: str) -> None:
    text = generate_game(profile, 2, deals=2)
    assert format_text(text) == text


def test_what_fmt_and_the_completed_record_write_is_the_writers() -> None:
    # fmt spells each statement with the writer, cards partly unknown and questions included; the completed record
    # writes its added draws, plays in order and notes with it too.
    from replayer.cards import parse_card_like

    k, a = parse_card_like("K?"), parse_card_like("A?")
    assert write.plays([("N", k), ("S", a)], unordered=True) == "N K? / S A?"
    assert write.plays([("N", _c("KS")), ("S", 7)]) == "N KS, S AS"
    assert write.trick_parts(3, [("N", k)], "S") == ("trick 3:", ["N K?"], " -> S")
    assert write.position(12, None, [("N", 120)]) == "position: trick 12, N 120"
    lines = [
        write.header("profile", "classic"),
        write.options({"target": 1500, "reuse": "strict_text"}),
        "deal 1",
        write.header("dealer", "N"),
        write.header("trump", "S"),
        write.header("leader", "S"),
        write.position(10, 30, {"N": 150, "S": 130}),
        write.hand("N", [k, _c("QS")]),
        write.table("N", "marriage", [_c("KH"), _c("QH")]),
        "trick 1: S 9C, {? which? | AC } N AC -> N",
        write.show("N", None, [_c("KS"), _c("QS")]),
        write.goes_out("N", None),
        write.scores("score", [("N", 10), ("N", 20)], item=True),
        write.words(["winner", "N"]),
    ]
    text = "\n".join(lines) + "\n"
    assert format_text(text) == text
    assert write.comment("inferred: N AS") == "{ inferred: N AS }"
