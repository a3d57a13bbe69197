"""The inference campaign run by hand, outside CI (issue 21): generated games of every profile, erased and completed.

    python bench/infer_campaign.py --games 4 --time-limit 20        # one line per profile, then the totals

Each game (``bezique generate``'s random player, seeds from 0) is erased once in each mode of
tests/test_infer_profiles.py (suits lost, whole cards lost, a hand left out, draws left out, a mix) and its first
deal completed with the analysis (:func:`replayer.infer.infer_deal`, stopped after ``--time-limit`` seconds). The
audit is the test's: every forced card the one erased, every erased card among the possible ones, every certain
card of a hand dealt there, the completion replayed without a problem. Per profile: the lossy records tried, those
completed, the unknown cards, the forced share of the cards placed in tricks (forced / (forced + open + undecided)),
the undecided ones (not settled within the limit), the mean and largest time, the records not completed and why,
and the soundness failures (which must be none). The exit status is 1 when any audit failed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_infer_profiles import MODES, audit, erase  # noqa: E402

from replayer.generate import generate_game  # noqa: E402
from replayer.profiles import profile_names  # noqa: E402


def main() -> int:
    """Run the campaign and print its table; 1 when the inference departed from the truth anywhere."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per profile (seeds 0 to N-1)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per deal's inference")
    parser.add_argument("--profiles", nargs="*", default=None, help="profiles (default: all)")
    parser.add_argument("--modes", nargs="*", default=sorted(MODES), help="erasure modes")
    args = parser.parse_args()
    failures = 0
    print("| profile | records | completed | unknown | forced | open | undecided | forced share | mean s | max s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    totals: Counter[str] = Counter()
    reasons: dict[str, Counter[str]] = {}
    for name in args.profiles or profile_names():
        row: Counter[str] = Counter()
        times: list[float] = []
        for seed in range(args.games):
            text = generate_game(name, seed)
            for mode in args.modes:
                erased = erase(text, random.Random(seed * 31 + len(mode)), **MODES[mode])  # type: ignore[arg-type]
                found = audit(text, erased, args.time_limit)
                if found.unknowns == 0:
                    continue
                row["records"] += 1
                row["unknown"] += found.unknowns
                times.append(found.seconds)
                if found.completed:
                    row["completed"] += 1
                    row["forced"] += found.forced
                    row["open"] += found.open
                    row["undecided"] += found.undecided
                else:
                    reasons.setdefault(name, Counter())[f"{mode}: {found.failure}"] += 1
                for wrong in found.wrong:
                    failures += 1
                    print(f"UNSOUND {name} seed {seed} {mode}: {wrong}", file=sys.stderr)
        placed = row["forced"] + row["open"] + row["undecided"]
        share = f"{row['forced'] / placed:.0%}" if placed else "-"
        mean = sum(times) / len(times) if times else 0.0
        print(
            f"| {name} | {row['records']} | {row['completed']} | {row['unknown']} | {row['forced']} | {row['open']} "
            f"| {row['undecided']} | {share} | {mean:.2f} | {max(times, default=0.0):.2f} |",
            flush=True,
        )
        totals.update(row)
    print(f"\ntotal: {totals['records']} records, {totals['completed']} completed, {failures} soundness failures")
    for name, counted in reasons.items():
        for reason, n in counted.most_common():
            print(f"not completed: {name}: {n} x {reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
