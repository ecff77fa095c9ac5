#!/usr/bin/env python3
"""Prints the CUB matrix as a Markdown table from the JSON of tools/gpu-check.sh's matrix step.

  tools/cub_matrix.py DIR

DIR holds radix-KEY-N[-pairs][-descending].json (onesweep and cub-radix) and merge-....json (sample-det, merge
and cub-merge), one `sortscope bench --format json` run each. A row's ratio is the baseline's median time over the
faster of ours; a row whose output failed verification, or that did not run, says so instead of a ratio."""
import json
import os
import sys

KEYS = ["u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64", "i64", "f64"]


def medians(path):
    """{algorithm: median ms} of the verified rows of one bench run, and the algorithms that failed verification."""
    try:
        with open(path) as f:
            rows = json.load(f).get("results", [])
    except (OSError, ValueError):
        return None, []
    good = {r["algorithm"]: r["median_ms"] for r in rows if r.get("verified") and "median_ms" in r}
    bad = [r["algorithm"] for r in rows if "median_ms" in r and not r.get("verified")]
    return good, bad


def ratio(path, ours, baseline):
    """'1.083x (onesweep)' for one cell, or why there is none."""
    times, bad = medians(path)
    if times is None:
        return "-"
    if bad:
        return "WRONG: " + ", ".join(bad)
    ran = [a for a in ours if a in times]
    if baseline not in times or not ran:
        return "did not run"
    best = min(ran, key=lambda a: times[a])
    return f"{times[baseline] / times[best]:.3f}x ({best})"


def main():
    folder = sys.argv[1]
    sizes = sorted({int(f.removesuffix(".json").split("-")[2]) for f in os.listdir(folder) if f.endswith(".json")})
    low = []
    print("| key | items | order | n | radix vs cub-radix | comparison vs cub-merge |")
    print("|---|---|---|---:|---|---|")
    for n in sizes:
        for key in KEYS:
            for pairs in ("", "-pairs"):
                for order in ("", "-descending"):
                    name = f"{key}-{n}{pairs}{order}"
                    cells = []
                    for kind, ours, baseline in (("radix", ["onesweep", "hybrid-radix"], "cub-radix"),
                                                 ("merge", ["sample-det", "merge"], "cub-merge")):
                        path = os.path.join(folder, f"{kind}-{name}.json")
                        cells.append(ratio(path, ours, baseline) if os.path.exists(path) else "")
                    if not any(cells):
                        continue
                    for c in cells:
                        if c and (not c[0].isdigit() or float(c.split("x")[0]) < 1.0):
                            low.append(f"{name}: {c}")
                    print(f"| {key} | {'pairs' if pairs else 'keys'} | {'descending' if order else 'ascending'} "
                          f"| {n} | {cells[0]} | {cells[1]} |")
    print()
    print(f"Rows below 1.0x or wrong: {len(low)}")
    for line in low:
        print(f"- {line}")


if __name__ == "__main__":
    main()
