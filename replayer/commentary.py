"""The commentary of a game of the better player (``bezique generate --player solver``), in English and Russian.

Every sentence is made from the replay of the record, never from what the player meant: a declaration is said to
follow a won trick because the replay booked it to the trick's winner, a card is said to count nothing because the
profile's values say so, and the endgame's figures are the solver's values of the replayed position
(replayer/analysis.py). So each factual claim is true by the replay. What it points out is the player's strategy
(replayer/player.py): the trump seven exchanged, tricks won to declare, cards that count kept while a trick is given
up with a card that counts nothing, and what the endgame values show.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .analysis import analyse_deal
from .cards import CARDS, display_key
from .explain import meld_label
from .lesson.terms import MELD_TERMS
from .replay import DealResult, TrickResult

__all__ = ["comment_record", "deal_comments"]

_NAMES = {
    "en": {"N": "North", "S": "South", "E": "East", "W": "West"},
    "ru": {"N": "Север", "S": "Юг", "E": "Восток", "W": "Запад"},
}
_BUDGET = 100_000
"""The solver's nodes for a deal's endgame (as in a lesson): past it, the commentary says so."""
_KEPT_NOTES = 2
"""At most this many remarks per deal on the cards kept (the rest would repeat them)."""


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


def comment_record(text: str, path: str = "<record>") -> str:
    """``text`` (a valid record) with the commentary after the tricks it speaks of, in the canonical form; raises
    ``ValueError`` naming the first problem when the record does not validate."""
    from .check import check_text
    from .fmt import format_text

    result = check_text(text, path, states=True)
    if not result.valid:
        raise ValueError(result.diagnostics[0].message if result.diagnostics else "the record does not validate")
    lines = text.splitlines()
    after: dict[int, list[str]] = {}
    for game in result.games:
        for deal in game.deals:
            for trick_line, en, ru in deal_comments(deal):
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
