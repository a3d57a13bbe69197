"""The replay's side of completing unknown cards: what a completer answers, and a deal completed before its replay.

The replay does not know the inference (:mod:`replayer.infer`): :mod:`replayer.check` hands it a :class:`Completer`.
This module says what one answers, and asks it for a deal that leaves cards unknown (:func:`complete_deal`),
reporting what stops a completion at the record's lines: a fragment with unknown cards (BZ112), a trick's winner that
is no seat of the game (BZ105), no completion that fits the record (BZ601, each statement in conflict BZ602).
What the replay then reads is known, every card of it (:func:`known`).
"""

from __future__ import annotations

from .cards import Card, CardLike
from .record import Deal, deal_has_unknowns
from .rules import Rules

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Protocol

    from .errors import Span
    from .profile import RuleProfile

    class Completion(Protocol):
        """What a :class:`Completer` makes of a deal that leaves cards unknown."""

        @property
        def deal(self) -> Deal | None:
            """The completed deal (a copy of the record's), or None when no completion exists."""

        @property
        def unknowns(self) -> Sequence[object]:
            """The unknown cards."""

        @property
        def failure(self) -> str:
            """Why there is no completion."""

        @property
        def conflict(self) -> Sequence[Any]:
            """When there is none: statements (each with ``text`` and ``span``) that cannot all hold."""

    class Completer(Protocol):
        """Completes the unknown cards of a deal (check.py hands the replay one that calls replayer.infer)."""

        def __call__(self, deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> Completion:
            """Complete ``deal``, dealt by ``dealer`` under ``profile`` and ``options``."""

    Report = Callable[[str, str, Span | None], None]

__all__ = ["complete_deal", "known"]


def complete_deal(
    deal: Deal, rules: Rules, dealer: str | None, complete: Completer | None, report: Report
) -> tuple[Deal, Completion | None] | None:
    """The deal to replay, and its completion: ``deal`` itself when it leaves no card unknown, has no dealer, is a
    fragment or there is no ``complete`` (its unknown cards are then reported where the replay meets them); else its
    completion by ``complete``. None, reported, when no completion can be tried or none fits."""
    position = deal.position
    if position is not None and deal.lossy:
        if not deal.repaired:  # (else the unknown cards are those of a line that did not read, already reported)
            report(
                "BZ112",
                "a fragment's position states every card (hands, table, plays and draws): the inference completes "
                "only whole deals",
                position.span,
            )
        return None
    if complete is None or dealer is None or position is not None or not deal_has_unknowns(deal, rules.profile, dealer):
        return deal, None
    profile, seats = rules.named, rules.seats
    # The completion encodes the profile's seats: a trick's winner that is none of them is reported here.
    strangers = [t for t in deal.tricks if t.winner is not None and t.winner not in seats]
    for trick in strangers:
        report(
            "BZ105",
            f"{trick.winner} is not a seat of the {profile.name} profile ({' '.join(seats)})",
            trick.winner_span or trick.span,
        )
    if strangers:
        return None
    inference = complete(deal, profile, dict(rules.options), dealer)
    if inference.deal is None:
        report(
            "BZ601",
            f"no completion of the {len(inference.unknowns)} unknown card(s) satisfies the record: {inference.failure}",
            deal.span,
        )
        for statement in inference.conflict:
            report("BZ602", f"conflicting statement: {statement.text}", statement.span)
        return None
    return inference.deal, inference


def known(card: CardLike) -> Card:
    """A card of a completed record (the inference fills every unknown before a replay)."""
    if not isinstance(card, Card):
        raise TypeError(f"unknown card {card} reached the replay")
    return card
