#!/usr/bin/env python3
"""Prints one line per target of docs/performance.md's checklist from a `sortscope bench --format json` result.

  tools/target_rows.py ratio  FILE LABEL MINIMUM OURS BASELINE[,BASELINE...]
      each baseline's median time over ours, met when every ratio is at least MINIMUM (e.g. 1.00)
  tools/target_rows.py spread FILE LABEL MAXIMUM_PERCENT ALGORITHM
      the slowest of ALGORITHM's rows over its fastest (a --sweep dist=... run), met when at most MAXIMUM_PERCENT

A row is named by its algorithm, `name:param=value[,param=value]` for one setting of a sweep, or `best:name` for the
fastest of the algorithm's rows. The ladder's JSON (`bench --ladder`) is read the same way."""
import json
import sys


def rows_of(path):
    """The result rows of one bench run (a table's rows or the ladder's steps), or None when it left no JSON."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    rows = doc.get("results", doc.get("steps", []))
    return [r for r in rows if r.get("ran", True) and "median_ms" in r]


def pick(rows, spec):
    """The row that SPEC names, or None."""
    best = spec.startswith("best:")
    name, _, settings = spec.removeprefix("best:").partition(":")
    wanted = dict(s.split("=") for s in settings.split(",")) if settings else {}
    matches = [r for r in rows if r["algorithm"] == name and
               all(str(r.get("params", {}).get(k)) == v for k, v in wanted.items())]
    if not matches:
        return None
    return min(matches, key=lambda r: r["median_ms"]) if best else matches[0]


def shown(row):
    """A row's name with the settings that tell it apart, and its median."""
    params = ",".join(f"{k}={v}" for k, v in row.get("params", {}).items() if k in ("radix-bits", "range-map"))
    return f"{row['algorithm']}{' ' + params if params else ''} {row['median_ms']:.4f} ms"


def main():
    if len(sys.argv) < 6 or sys.argv[1] not in ("ratio", "spread") or (sys.argv[1] == "ratio" and len(sys.argv) < 7):
        print(__doc__)
        return 2
    mode, path, label, limit = sys.argv[1:5]
    rows = rows_of(path)
    if not rows:
        print(f"{label}: no result (the bench's message is above)")
        return 1
    unverified = "" if all(r.get("verified", False) for r in rows) else "  NOT VERIFIED"
    if mode == "ratio":
        ours = pick(rows, sys.argv[5])
        baselines = [pick(rows, spec) for spec in sys.argv[6].split(",")]
        if ours is None or None in baselines:
            print(f"{label}: a named row is missing from {path}")
            return 1
        ratios = [b["median_ms"] / ours["median_ms"] for b in baselines]
        met = all(r >= float(limit) for r in ratios)
        against = ", ".join(f"{shown(b)}: {r:.3f}x" for b, r in zip(baselines, ratios))
        print(f"{label}: {shown(ours)} against {against} (>= {limit}x) {'met' if met else 'MISSED'}{unverified}")
    else:
        mine = [r for r in rows if r["algorithm"] == sys.argv[5]]
        if not mine:
            print(f"{label}: no {sys.argv[5]} rows in {path}")
            return 1
        slow, fast = max(mine, key=lambda r: r["median_ms"]), min(mine, key=lambda r: r["median_ms"])
        spread = 100 * (slow["median_ms"] / fast["median_ms"] - 1)
        met = spread <= float(limit)
        print(f"{label}: {spread:.1f}% ({slow['dist']} {slow['median_ms']:.4f} ms, {fast['dist']} "
              f"{fast['median_ms']:.4f} ms) (<= {limit}%) {'met' if met else 'MISSED'}{unverified}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
