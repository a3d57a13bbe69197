"""Bezique game records: a notation, a rules engine that replays and validates them, and HTML lessons.

>>> from replayer import Card, load_rules
>>> load_rules("classic").meld("sequence").points
250
"""

from __future__ import annotations

from .cards import Card, Rank, Suit
from .errors import Diagnostic, NotationError, RuleProfileError, RuleViolation, Span
from .rules import RuleProfile, load_rules

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
    "load_rules",
]
