"""The commentary of a game of the better player (``bezique generate --player solver``), in English and Russian.

Every sentence is made from the replay of the record, never from what the player meant: a declaration is said to
follow a won trick because the replay booked it to the trick's winner, a card is said to count nothing because the
profile's values say so, and the endgame's figures are the solver's values of the replayed position
(replayer/analysis.py). So each factual claim is true by the replay. What it points out is the player's strategy
(replayer/player.py): the trump seven exchanged, tricks won to declare, cards that count kept while a trick is given
up with a card that counts nothing, and what the endgame values show.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .analysis import analyse_deal
from .cards import CARDS, SUITS, display_key
from .explain import meld_label
from .lesson.sidecar import option_difference
from .lesson.terms import MELD_TERMS
from .lesson.words import interface
from .replay import DealResult, TrickResult
from .rules import DealState
from .rules.deal import end_worth, trick_winner, trick_worth
from .sampling import is_mistake, play_points

__all__ = ["comment_record", "deal_comments", "sampled_comments"]

_NAMES = {
    "en": {"N": "North", "S": "South", "E": "East", "W": "West"},
    "ru": {"N": "Север", "S": "Юг", "E": "Восток", "W": "Запад"},
}
_BUDGET = 100_000
"""The solver's nodes for a deal's endgame (as in a lesson): past it, the commentary says so."""
_KEPT_NOTES = 2
"""At most this many remarks per deal on the cards kept (the rest would repeat them)."""
_MOMENTS = 3
"""At most this many plays a deal, besides the mistakes, where the sampled analysis finds that another card would
have cost much: the clearest (the largest cost less two standard errors)."""
_MATTERS = 20
"""Another card "would have cost" only when its cost is at least this many points of the difference between the
sides and at least twice its standard error (the bar of a puzzle's answer, docs/analysis.md)."""


def _name(seat: str, lang: str) -> str:
    if "+" in seat:  # (a side of a partnership game)
        return (" и " if lang == "ru" else " and ").join(_name(s, lang) for s in seat.split("+"))
    return _NAMES[lang].get(seat, seat)


def _meld(kind: str, lang: str) -> str:
    return MELD_TERMS[kind][0].split(",")[0] if lang == "ru" and kind in MELD_TERMS else meld_label(kind)


def _list(cards: list[int]) -> str:
    return " ".join(CARDS[c].glyph for c in cards)


def deal_comments(deal: DealResult) -> Iterator[tuple[int, str, str]]:
    """The remarks on one replayed deal (replayed with its states): (the line of the trick they follow, English,
    Russian)."""
    kept_notes = 0
    declared: set[str] = set()
    endgame_said = False
    for trick in deal.tricks:
        state = trick.state
        if state is None:
            continue
        en: list[str] = []
        ru: list[str] = []
        if trick.phase == 1:
            _trick_scores(trick, declared, en, ru)
            if kept_notes < _KEPT_NOTES and _kept(trick, en, ru):
                kept_notes += 1
        elif not endgame_said:
            endgame_said = True
            _endgame(deal, trick, en, ru)
        if en:
            yield trick.line, " ".join(en), " ".join(ru)


def _trick_scores(trick: TrickResult, declared: set[str], en: list[str], ru: list[str]) -> None:
    """The exchange and the declarations booked to the trick: each kind of combination the first time the deal has
    it (``declared``, updated: the kinds said so far), so that a long deal does not say the same thing each trick."""
    state = trick.state
    assert state is not None
    rules = state.rules
    kinds = {m.kind for m in rules.melds}
    winning = next((card for seat, card in trick.plays if seat == trick.winner), None)
    for event in trick.scoring:
        who_en, who_ru = _name(event.seat, "en"), _name(event.seat, "ru")
        if event.kind == "seven_exchange" and event.cards and state.turnup >= 0:
            card, turnup = event.cards[0].glyph, CARDS[state.turnup].glyph
            en.append(f"{who_en} exchanges the {card} for the turn-up, the {turnup} ({event.points}).")
            ru.append(f"{who_ru} меняет {card} на открытую карту, {turnup} ({event.points}).")
        elif event.kind == "seven_shown" and event.cards:
            card = event.cards[0].glyph
            en.append(
                f"{who_en} shows the {card}, the other seven of trumps ({event.points}); the record writes it as an "
                "exchange, the notation's only form for it."
            )
            ru.append(
                f"{who_ru} показывает {card}, вторую козырную семёрку ({event.points}); запись пишет это как обмен — "
                "другой формы для этого в нотации нет."
            )
        elif event.kind in kinds and event.kind not in declared and event.seat == trick.winner and winning is not None:
            label_en, label_ru = _meld(event.kind, "en"), _meld(event.kind, "ru")
            en.append(f"{who_en} wins the trick with the {winning.glyph} and declares the {label_en} ({event.points}).")
            ru.append(f"{who_ru} берёт взятку картой {winning.glyph} и объявляет {label_ru} ({event.points}).")
            if not declared:
                en.append("Only the winner of a trick may declare: holding a combination, the player plays to win.")
                ru.append("Объявлять может только взявший взятку: с комбинацией на руках игрок играет на взятку.")
            declared.add(event.kind)


def _kept(trick: TrickResult, en: list[str], ru: list[str]) -> bool:
    """A remark on a trick given up with a card that counts nothing while cards that count are kept."""
    state = trick.state
    assert state is not None
    rules = state.rules
    values = rules.values(state.trump)
    for seat, card in trick.plays:
        if seat == trick.winner or card.index >= 32:
            continue
        index = card.index
        if values[index] or rules.brisque[index]:
            continue
        held = state.held[rules.seat_index[seat]]
        counting = [c for c in range(32) if held[c] and (values[c] or rules.brisque[c])]
        if len(counting) < 2:
            continue
        counting.sort(key=lambda c: display_key(c))
        cards = _list(counting)
        en.append(
            f"{_name(seat, 'en')} gives up the trick with the {card.glyph}, which counts nothing, and keeps {cards}: "
            "cards that count for whoever wins them are kept for a trick worth winning."
        )
        ru.append(
            f"{_name(seat, 'ru')} отдаёт взятку картой {card.glyph}, которая ничего не стоит, и бережёт {cards}: "
            "карты, которые идут в счёт взявшему, берегут для взятки, которую стоит взять."
        )
        return True
    return False


def _endgame(deal: DealResult, trick: TrickResult, en: list[str], ru: list[str]) -> None:
    """What the solver's values say of the last tricks, from the first of them (this trick included)."""
    analysis = analyse_deal(deal, _BUDGET)
    endgame = analysis["endgame"]
    if endgame is None:
        en.append(f"The stock is empty; the last tricks are not solved here: {analysis['reason']}.")
        ru.append(f"Колода кончилась; последние взятки здесь не решены (причина: {analysis['reason']}).")
        return
    value, actual, lost = endgame["value"], endgame["actual"], endgame["lost"]
    sides = list(value)
    best_en = ", ".join(f"{_name(s, 'en')} {value[s]}" for s in sides)
    best_ru = ", ".join(f"{_name(s, 'ru')} {value[s]}" for s in sides)
    if endgame["double_dummy"]:
        en.append("The stock is empty. The solver's values are worked out with every hand face up, each side playing")
        en.append("for its own points.")
        ru.append("Колода кончилась. Оценки решателя даны в открытую: все руки видны, каждая сторона играет на свои")
        ru.append("очки.")
    else:
        en.append("The stock is empty and every card is known: the solver values each card played from here.")
        ru.append("Колода кончилась, и все карты известны: решатель оценивает каждую карту отсюда.")
    en.append(f"With best play by both from trick {endgame['first_trick']} on, the points still to take go {best_en}.")
    ru.append(f"При лучшей игре обеих сторон с взятки {endgame['first_trick']} оставшиеся очки: {best_ru}.")
    if not any(lost.values()):
        en.append("Every card played keeps that best result.")
        ru.append("Каждая сыгранная карта сохраняет этот лучший результат.")
    if actual != value:
        # (also where no card lost points: in sixty-six a declaration made at once may end the hand early)
        taken_en = ", ".join(f"{_name(s, 'en')} {actual[s]}" for s in sides)
        taken_ru = ", ".join(f"{_name(s, 'ru')} {actual[s]}" for s in sides)
        en.append(f"The play takes {taken_en}.")
        ru.append(f"Сыграно: {taken_ru}.")
    decisive = _decisive(endgame["plays"])
    if decisive is not None:
        play, card, loss = decisive
        who_en, who_ru = _name(play["seat"], "en"), _name(play["seat"], "ru")
        played, other = CARDS[_index(play["played"])].glyph, CARDS[_index(card)].glyph
        en.append(f"At trick {play['trick']} {who_en}'s {played} keeps it; the {other} would lose {loss}.")
        ru.append(f"Во взятке {play['trick']} {who_ru} картой {played} сохраняет его; {other} потеряла бы {loss}.")


def _index(card: str) -> int:
    return next(c for c in range(len(CARDS)) if str(CARDS[c]) == card)


def _decisive(plays: list[dict[str, Any]]) -> tuple[dict[str, Any], str, int] | None:
    """The play of a best card beside which another legal card loses the most (at least 10 points; the first of
    equals)."""
    found: tuple[dict[str, Any], str, int] | None = None
    for play in plays:
        if play["cost"]:
            continue
        worst = min(play["options"], key=lambda o: o["delta"])
        if worst["delta"] <= -10 and (found is None or -worst["delta"] > found[2]):
            found = (play, worst["card"], -worst["delta"])
    return found


def comment_record(
    text: str,
    path: str = "<record>",
    analysis: Mapping[str, Any] | None = None,
    samples: int | None = None,
    jobs: int = 1,
) -> str:
    """``text`` (a valid record) with the commentary after the tricks it speaks of, in the canonical form; raises
    ``ValueError`` naming the first problem when the record does not validate. With ``analysis`` (the data of
    ``bezique analyse --all --json`` of the same record), or with ``samples`` (that analysis made here, seed 0, in
    ``jobs`` processes: the numbers of ``bezique analyse --all --samples N --seed 0``), the moments that matter by
    the sampled analysis are said too (:func:`sampled_comments`)."""
    from .check import check_text
    from .fmt import format_text

    result = check_text(text, path, states=True)
    if not result.valid:
        raise ValueError(result.diagnostics[0].message if result.diagnostics else "the record does not validate")
    if analysis is None and samples is not None:
        from .analysis import analyse

        analysis = analyse(result, samples=samples, seed=0, jobs=jobs)
    lines = text.splitlines()
    after: dict[int, list[str]] = {}
    judged = {(g, d["number"]): d for g, game in enumerate((analysis or {}).get("games", []), 1) for d in game["deals"]}
    for g, game in enumerate(result.games, 1):
        for deal in game.deals:
            remarks = list(deal_comments(deal))
            found = judged.get((g, deal.number))
            if found is not None and found.get("plays"):
                remarks.extend(sampled_comments(deal, found))
            remarks.sort(key=lambda r: r[0])  # (stable: at one trick, the replay's remarks first)
            for trick_line, en, ru in remarks:
                end = trick_line  # (1-based: the index of the line after the trick statement)
                while end < len(lines) and lines[end].startswith("  "):
                    end += 1
                after.setdefault(end, []).extend([f"  {{ {en} }}", f"  {{[ru] {ru} }}"])
    out: list[str] = []
    for i, line in enumerate(lines):
        out.extend(after.get(i, []))
        out.append(line)
    out.extend(after.get(len(lines), []))
    return format_text("\n".join(out) + "\n")


# --- the moments that matter, by the sampled analysis ------------------------------------------------------------


def sampled_comments(deal: DealResult, judged: Mapping[str, Any]) -> Iterator[tuple[int, str, str]]:
    """The moments that matter in one replayed deal (replayed with its states) by its sampled analysis (``judged``:
    the deal's object of ``bezique analyse --all --json``): every sampled play that is a mistake, with the better
    card, and the plays (at most :data:`_MOMENTS`) where another legal card would have cost the most, with that card;
    each with what the card played keeps or wins against the other, read off the replay, and the analysis's cost with
    its standard error. The last tricks (exact) are left to the endgame's remark. Yields (the line of the trick they
    follow, English, Russian)."""
    tricks = [t for t in deal.tricks if t.state is not None]
    if not tricks:
        return
    rules = tricks[0].state.rules  # type: ignore[union-attr]
    plays = {(p["trick"], p["seat"]): p for p in judged.get("plays") or () if not p["exact"]}
    # (order in the deal, trick, state before the play, the play, the other card, its cost, the error, right)
    Moment = tuple[int, TrickResult, DealState, dict[str, Any], str, float, float, bool]
    mistakes: list[Moment] = []
    moments: list[tuple[float, Moment]] = []
    for order, (trick, seat, card, state, _facts) in enumerate(play_points(tricks, rules.players)):
        play = plays.get((trick.n, rules.seats[seat]))
        if play is None or play["played"] != str(CARDS[card]):
            continue
        if is_mistake(play):
            cost, err = float(play["cost"]), float(play["cost_stderr"])
            mistakes.append((order, trick, state, play, play["best"][0], cost, err, False))
            continue
        side = rules.scorers[rules.scorer[seat]]
        own, err_own, _ = option_difference(play, play["played"], side)
        worst: tuple[float, str, float, float] | None = None
        for option in play["options"]:
            if option["card"] == play["played"]:
                continue
            other, err_other, _ = option_difference(play, option["card"], side)
            # Two options' own errors combined: never below the paired error of the shared samples, so the claim
            # errs on the side of silence.
            gap, err = own - other, (err_own**2 + err_other**2) ** 0.5
            if gap >= _MATTERS and gap >= 2 * err and (worst is None or gap - 2 * err > worst[0]):
                worst = (gap - 2 * err, option["card"], gap, err)
        if worst is not None:
            moments.append((worst[0], (order, trick, state, play, worst[1], worst[2], worst[3], True)))
    moments.sort(key=lambda m: -m[0])
    chosen = sorted([*mistakes, *(m for _, m in moments[:_MOMENTS])], key=lambda m: m[0])
    for _, trick, state, play, card_name, gap, err, right in chosen:
        en, ru = _moment(deal, trick, state, play, card_name, gap, err, right)
        yield trick.line, en, ru


def _moment(
    deal: DealResult,
    trick: TrickResult,
    state: DealState,
    play: Mapping[str, Any],
    other: str,
    gap: float,
    err: float,
    right: bool,
) -> tuple[str, str]:
    """One moment in words. ``right``: the card played was right and ``other`` would have cost ``gap``; otherwise
    the card played was a mistake and ``other`` the better card, ``gap`` its cost."""
    rules = state.rules
    seat = play["seat"]
    who_en, who_ru = _name(seat, "en"), _name(seat, "ru")
    played, alternative = _index(play["played"]), _index(other)
    c, a = CARDS[played].glyph, CARDS[alternative].glyph
    n = play["samples"]
    cost_en, cost_ru = f"{gap:.0f} ± {err:.0f}", f"{gap:.0f} ± {err:.0f}"
    if right:
        en = [f"{who_en}'s {c} is right by the sampled analysis: the {a} would have cost about {cost_en} points of the"]
        en.append(f"difference between the sides to the end of the deal ({n} deals drawn from what {who_en} knows).")
        ru = [f"По выборочному анализу карта {c} ({who_ru}) верна: {a} стоила бы около {cost_ru} очков разницы между"]
        ru.append(f"сторонами до конца сдачи ({n} {_deals_ru(n)}, согласных с тем, что знает {who_ru}).")
    else:
        en = [f"A mistake by the sampled analysis: {who_en}'s {c} costs about {cost_en} points of the difference"]
        en.append(f"between the sides against the {a} ({n} deals drawn from what {who_en} knows).")
        ru = [f"Ошибка по выборочному анализу: карта {c} ({who_ru}) стоит около {cost_ru} очков разницы между"]
        ru.append(f"сторонами против карты {a} ({n} {_deals_ru(n)}, согласных с тем, что знает {who_ru}).")
    good, bad = (played, alternative) if right else (alternative, played)
    _why(deal, trick, state, rules.seat_index[seat], good, bad, right, en, ru)
    return " ".join(en), " ".join(ru)


def _why(
    deal: DealResult,
    trick: TrickResult,
    state: DealState,
    seat: int,
    good: int,
    bad: int,
    right: bool,
    en: list[str],
    ru: list[str],
) -> None:
    """What the better card ``good`` wins or keeps against ``bad``, each claim read off the replay and the core:
    the trick it wins or gives up (when it is the trick's last card), the card that counts, the trump it keeps, and
    the combination the kept card is declared in later. ``right``: ``good`` is the card played (else ``bad`` is)."""
    rules = state.rules
    g, b = CARDS[good].glyph, CARDS[bad].glyph
    said = False
    table = [card for _, card in state.plays]
    if len(table) == rules.players - 1:
        wins_good = trick_winner([*table, good], state.trump) == len(table)
        wins_bad = trick_winner([*table, bad], state.trump) == len(table)
        if wins_good != wins_bad:
            said = True
            if right and wins_good:
                en.append(f"The {g} wins the trick; the {b} would not.")
                ru.append(f"Карта {g} берёт взятку, а {b} не взяла бы.")
            elif right:
                en.append(f"The {g} gives the trick up; the {b} would have won it.")
                ru.append(f"Карта {g} отдаёт взятку, а {b} взяла бы её.")
            elif wins_good:
                en.append(f"The {g} would have won the trick; the {b} does not.")
                ru.append(f"Карта {g} взяла бы взятку, а {b} её не берёт.")
            else:
                en.append(f"The {g} would have given the trick up; the {b} wins it.")
                ru.append(f"Карта {g} отдала бы взятку, а {b} её берёт.")
    worth = _worth(state)
    if worth[bad] > worth[good]:
        en.append(f"The {b} counts {worth[bad]} to whoever wins it; the {g} {_counts_en(worth[good])}.")
        ru.append(f"Карта {b} приносит взявшему {worth[bad]}; {g} — {_counts_ru(worth[good])}.")
        said = True
    if state.trump >= 0 and CARDS[bad].suit == SUITS[state.trump] != CARDS[good].suit:
        en.append(f"The {g} {'keeps' if right else 'would have kept'} the {b}, a trump.")
        ru.append(f"Карта {g} {'сохраняет' if right else 'сохранила бы'} {b}, козырь.")
        said = True
    later = _declared_later(deal, trick, rules.seats[seat], bad) if right else None
    if later is not None:
        at, kind, points = later
        en.append(f"Kept, the {b} is declared in the {_meld(kind, 'en')} after trick {at} ({points}).")
        ru.append(f"Сохранённая карта {b} входит в {_meld(kind, 'ru')}, объявленный после взятки {at} ({points}).")
        said = True
    if not said:
        en.append("The difference comes from the play that follows, not from this trick alone.")
        ru.append("Разница складывается из дальнейшей игры, а не из одной этой взятки.")


def _deals_ru(n: int) -> str:
    return ("расклад", "расклада", "раскладов")[interface("ru").plural(n)]


def _worth(state: DealState) -> list[int]:
    """What each card counts to whoever wins it in a trick: what the core books at the trick and at the end."""
    rules, trump = state.rules, state.trump
    return [a + b for a, b in zip(trick_worth(rules, trump), end_worth(rules, trump), strict=True)]


def _counts_en(points: int) -> str:
    return f"counts {points}" if points else "counts nothing"


def _counts_ru(points: int) -> str:
    return str(points) if points else "ничего"


def _declared_later(deal: DealResult, trick: TrickResult, seat: str, card: int) -> tuple[int, str, int] | None:
    """The first combination ``seat`` declares with ``card`` from ``trick`` on, before he draws another copy of it
    (so that the copy declared is one he holds now): (after which trick, kind, points)."""
    rules = trick.state.rules  # type: ignore[union-attr]
    for later in deal.tricks:
        if later.n < trick.n:
            continue
        for event in later.scoring:
            if event.seat == seat and event.kind in rules.meld_by_kind and any(c.index == card for c in event.cards):
                return later.n, event.kind, event.points
        if any(s == seat and c.index == card for s, c in later.draws):
            return None  # (another copy drawn: the one declared may not be the one kept)
    return None
