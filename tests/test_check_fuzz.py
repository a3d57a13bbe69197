"""What the fuzz campaign (bench/fuzz_campaign.py) found in the pipeline of replayer/check.py: a coded error, never a
traceback."""

from __future__ import annotations

import re

from replayer.check import check_text
from replayer.generate import generate_game


def test_a_wild_card_declared_where_the_pack_has_none_is_no_completion_not_a_crash() -> None:
    # (seed 23, case 2199: a game of a profile with wild cards lost its profile line, and a card became unknown;
    # the inference looked the wild card up among the classic pack's copies)
    text = generate_game("infuzorka", 8)
    assert "profile: infuzorka\n" in text and " * " in text
    text = text.replace("profile: infuzorka\n", "", 1)
    text = re.sub(r"(trick 1: [NS]) \S+,", r"\1 ??,", text, count=1)
    assert [d.code for d in check_text(text).diagnostics] == ["BZ601"]
