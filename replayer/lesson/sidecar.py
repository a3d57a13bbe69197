"""A record's sampled analysis kept beside it, so that a lesson shows every play's value without a minute of
sampling at each render: ``games/worked-deal-000.analysis.json`` beside ``games/worked-deal-000.bzq``.

The sidecar is the JSON of ``bezique analyse RECORD --all --json`` (docs/analysis.md) with three keys added:
``record_sha256``, the SHA-256 of the record's bytes it was made from; ``command``, how it was made; and
``judgments``, the book's own judgments of some plays (the record's commentary in data: which card the book prefers
at a play, and against which), which the lesson sets beside what the analysis finds. A sidecar whose hash is not
the record's is stale: :func:`read_sidecar` says so and returns nothing, so that no value is ever shown against a
changed record.

    python -m replayer.lesson.sidecar games/worked-deal-000.bzq [--samples 64] [--seed 0] [--jobs 2]

writes it again (keeping the judgments of the sidecar it replaces).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..files import write_atomic

__all__ = ["SUFFIX", "main", "option_difference", "read_sidecar", "record_hash", "sidecar_path", "write_sidecar"]

SUFFIX = ".analysis.json"
"""A sidecar's name: the record's, with this in place of ``.bzq``."""


def sidecar_path(record: str | Path) -> Path:
    """Where the sidecar of ``record`` is: ``deal.bzq`` → ``deal.analysis.json``."""
    path = Path(record)
    return path.with_name(path.stem + SUFFIX)


def record_hash(data: bytes) -> str:
    """The hash a sidecar keeps of its record's bytes."""
    return hashlib.sha256(data).hexdigest()


def read_sidecar(record: str | Path) -> tuple[dict[str, Any] | None, str]:
    """The sidecar of ``record`` when there is one and it was made from the record as it is now; otherwise None,
    with a warning for a sidecar that cannot be used (an empty string when there is simply none)."""
    path = sidecar_path(record)
    if not path.is_file():
        return None, ""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return None, f"{path}: not read ({exc}); the lesson shows no sampled values"
    try:
        current = record_hash(Path(record).read_bytes())
    except OSError as exc:
        return None, f"{path}: its record cannot be read ({exc}); the lesson shows no sampled values"
    if not isinstance(found, dict) or found.get("record_sha256") != current:
        return None, (
            f"{path}: stale, made from another text of {Path(record).name} (its hash differs); the lesson shows no "
            f"sampled values: run python -m replayer.lesson.sidecar {record}"
        )
    return found, ""


def option_difference(play: Mapping[str, Any], card: str, side: str) -> tuple[float, float, Mapping[str, float]]:
    """A card of a judged play (the ``analyse --json`` data) as ``side`` sees it: its mean points less the other
    side's, the standard error of that difference, and the means."""
    found = next(o for o in play["options"] if o["card"] == card)
    mean = found["mean"]
    other = next(s for s in mean if s != side)
    return mean[side] - mean[other], float(found["stderr"]), mean


def write_sidecar(record: str | Path, analysis: dict[str, Any], command: str, judgments: list[Any]) -> Path:
    """Write the sidecar of ``record`` (atomically): the analysis, the record's hash, the command and the book's
    judgments."""
    path = sidecar_path(record)
    data = {
        "record_sha256": record_hash(Path(record).read_bytes()),
        "command": command,
        "judgments": judgments,
        **analysis,
    }
    write_atomic(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Analyse a record with every play sampled and write its sidecar."""
    from ..analysis import analyse
    from ..check import check_path

    parser = argparse.ArgumentParser(prog="python -m replayer.lesson.sidecar", description=main.__doc__)
    parser.add_argument("record", metavar="RECORD")
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    result = check_path(Path(args.record), states=True)
    if not result.valid:
        print(f"{args.record}: invalid; no sidecar written", file=sys.stderr)
        return 1
    old = sidecar_path(args.record)
    judgments: list[Any] = []
    if old.is_file():
        judgments = json.loads(old.read_text(encoding="utf-8")).get("judgments", [])
    found = analyse(result, samples=args.samples, seed=args.seed, jobs=args.jobs)
    command = f"bezique analyse {args.record} --all --json --samples {args.samples} --seed {args.seed}"
    print(write_sidecar(args.record, found, command, judgments))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
