#!/usr/bin/env python3
"""Change points against a known truth: benchdeck history beside Apache Otava.

Seeded nightly series of mean TTFT (60 nights each, a level of 100 ms, night-to-night noise of
2% or 4%, zero to three level shifts of 8% to 30% at least six nights apart and not in the last
three nights, and in a third of the series one bad night of +40% away from any shift) are
written as one `vllm bench serve` result per night and configuration, read by `benchdeck
history --json --metric ttft:mean`, and given as numbers to Apache Otava's
`compute_change_points` (Hunter's windowed E-Divisive with t-tests, its defaults: window 50,
p 0.001) and to its original E-Divisive (`compute_change_points_orig`, a permutation test).

A reported change point is right when a true shift lies within one night of it (each shift
counted once); a bad night reported as a change is wrong. Precision = right / reported, recall
= found shifts / true shifts. Also the time each takes.

Not part of `cargo xtask test` (it needs Python, numpy and Otava from PyPI):

    python3 -m venv /tmp/otava && /tmp/otava/bin/pip install apache-otava
    cargo build --release -p benchdeck
    /tmp/otava/bin/python xtask/bench/change_points.py target/release/benchdeck
"""

import json
import random
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from otava.analysis import compute_change_points, compute_change_points_orig

NIGHTS = 60
SERIES = 200
START = date(2026, 1, 1)


def make_series(rng):
    """One series: its values, its true shifts (indices) and its bad night (or None)."""
    noise = rng.choice([0.02, 0.04])
    shifts = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        for _attempt in range(50):
            at = rng.randrange(6, NIGHTS - 3)
            if all(abs(at - s) >= 6 for s in shifts):
                shifts.append(at)
                break
    shifts.sort()
    level, levels = 100.0, []
    for night in range(NIGHTS):
        if night in shifts:
            level *= 1 + rng.choice([-1, 1]) * rng.uniform(0.08, 0.30)
        levels.append(level)
    values = [l * (1 + noise * rng.gauss(0, 1)) for l in levels]
    bad = None
    if rng.random() < 1 / 3:
        for _attempt in range(50):
            at = rng.randrange(3, NIGHTS - 3)
            if all(abs(at - s) >= 3 for s in shifts):
                bad = at
                values[at] *= 1.4
                break
    return values, shifts, bad


def write(root, i, values):
    for night, value in enumerate(values):
        day = START + timedelta(days=night)
        folder = root / f"s{i:03}" / day.isoformat()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "r.json").write_text(json.dumps({
            "date": day.strftime("%Y%m%d") + "-020000",
            "backend": "vllm", "label": f"s{i:03}", "model_id": "synthetic/m",
            "request_rate": 4.0, "duration": 100.0, "completed": 400, "failed": 0,
            "mean_ttft_ms": round(value, 4),
        }))


def score(reported, truth):
    """(right, reported, found, true) for one series."""
    unmatched = list(truth)
    right = 0
    for r in reported:
        match = next((t for t in unmatched if abs(t - r) <= 1), None)
        if match is not None:
            unmatched.remove(match)
            right += 1
    return right, len(reported), len(truth) - len(unmatched), len(truth)


def summary(name, totals, seconds):
    right, reported, found, true = (sum(t[k] for t in totals) for k in range(4))
    precision = right / reported if reported else 1.0
    recall = found / true if true else 1.0
    print(f"| {name} | {precision:.3f} ({right}/{reported}) | {recall:.3f} ({found}/{true}) "
          f"| {seconds:.2f} s |")


def main():
    benchdeck = sys.argv[1] if len(sys.argv) > 1 else "target/release/benchdeck"
    rng = random.Random(20261207)
    cases = [make_series(rng) for _ in range(SERIES)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i, (values, _, _) in enumerate(cases):
            write(root, i, values)
        started = time.perf_counter()
        out = subprocess.run([benchdeck, "history", str(root), "--json", "--metric",
                              "ttft:mean"], check=True, capture_output=True, text=True)
        ours_seconds = time.perf_counter() - started
    history = json.loads(out.stdout)
    ours = {f"s{i:03}": [] for i in range(SERIES)}
    for cp in history["change_points"]:
        ours[cp["config"]].append((date.fromisoformat(cp["date"]) - START).days)
    outliers = {(o["config"], (date.fromisoformat(o["date"]) - START).days)
                for o in history["outliers"]}
    totals = {"benchdeck history": [], "Otava (Hunter, defaults)": [],
              "Otava (original E-Divisive, p 0.05)": []}
    seconds = {"benchdeck history": ours_seconds}
    reported = {"Otava (Hunter, defaults)": [], "Otava (original E-Divisive, p 0.05)": []}
    for name, detect in [
        ("Otava (Hunter, defaults)", lambda v: compute_change_points(v)[0]),
        ("Otava (original E-Divisive, p 0.05)",
         lambda v: compute_change_points_orig(v, max_pvalue=0.05, seed=1)[0]),
    ]:
        started = time.perf_counter()
        for values, _, _ in cases:
            reported[name].append([cp.index for cp in detect(values)])
        seconds[name] = time.perf_counter() - started
    bad_found = 0
    bad_as_change = {name: 0 for name in totals}
    for i, (values, shifts, bad) in enumerate(cases):
        key = f"s{i:03}"
        totals["benchdeck history"].append(score(ours[key], shifts))
        for name in reported:
            totals[name].append(score(reported[name][i], shifts))
        if bad is not None:
            bad_found += (key, bad) in outliers
            bad_as_change["benchdeck history"] += any(abs(c - bad) <= 1 for c in ours[key])
            for name in reported:
                bad_as_change[name] += any(abs(c - bad) <= 1 for c in reported[name][i])
    bad_nights = sum(1 for _, _, b in cases if b is not None)
    print(f"{SERIES} series of {NIGHTS} nights, {sum(len(s) for _, s, _ in cases)} true shifts, "
          f"{bad_nights} bad nights\n")
    print("| detector | precision | recall | time |\n|---|--:|--:|--:|")
    for name in totals:
        summary(name, totals[name], seconds[name])
    print(f"\nBad nights benchdeck names as outliers: {bad_found} of {bad_nights}. "
          "Bad nights reported as a change (within a night): "
          + ", ".join(f"{name} {n}" for name, n in bad_as_change.items()) + ".")


if __name__ == "__main__":
    main()
