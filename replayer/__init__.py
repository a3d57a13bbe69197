"""Bezique game records: a notation, a rules engine that replays and validates them, and HTML lessons.

>>> from replayer import Card, check_text, load_profile
>>> load_profile("classic").meld("sequence").points
250
>>> check_text(open("games/worked-deal-000.bzq").read()).valid
True

The names below are imported on first use, so that ``bezique validate`` starts without loading what it does not
need (the YAML reader, the lesson templates).
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Diagnostic",
    "NotationError",
    "Rank",
    "RuleProfile",
    "RuleProfileError",
    "RuleViolation",
    "Span",
    "Suit",
    "__version__",
    "check_text",
    "load_profile",
]

_WHERE = {
    "Card": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "Diagnostic": "errors",
    "NotationError": "errors",
    "RuleProfileError": "errors",
    "RuleViolation": "errors",
    "Span": "errors",
    "RuleProfile": "profile",
    "load_profile": "profiles",
    "check_text": "check",
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which no command needs at run time
if TYPE_CHECKING:
    from typing import Any

    from .cards import Card, Rank, Suit
    from .check import check_text
    from .errors import Diagnostic, NotationError, RuleProfileError, RuleViolation, Span
    from .profile import RuleProfile
    from .profiles import load_profile


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'replayer' has no attribute {name!r}")
