#!/usr/bin/env python3
"""Prints an ncu --csv metrics dump as one line per kernel launch: short name, then metric=value.
With --sum, one line per kernel name instead: its launches and each metric summed over them."""
import collections
import csv
import re
import sys

args = [a for a in sys.argv[1:] if a != "--sum"]
summed = "--sum" in sys.argv[1:]
rows = [r for r in csv.reader(open(args[0])) if len(r) > 10]
if not rows:
    sys.exit(f"{args[0]}: no ncu rows")
head = rows[0]
kernel, metric, value, launch = (head.index(k) for k in ("Kernel Name", "Metric Name", "Metric Value", "ID"))
table = collections.OrderedDict()
for r in rows[1:]:
    name = re.sub(r"<.*", "", r[kernel]).replace("void ", "")
    shape = re.search(r"<(\d+), (\d+)", r[kernel])
    if shape:
        name += f"<{shape.group(1)},{shape.group(2)}>"
    table.setdefault((r[launch], name), {})[r[metric]] = r[value]


def short(m):
    return (m.replace("smsp__average_warps_issue_stalled_", "stall_").replace("_per_issue_active.ratio", "")
            .split(".")[0])


def number(v):
    return float(v.replace(",", ""))


if summed:
    sums = collections.OrderedDict()
    for (_, name), metrics in table.items():
        entry = sums.setdefault(name, [0, collections.Counter()])
        entry[0] += 1
        for m, v in metrics.items():
            entry[1][short(m)] += number(v)
    for name, (launches, metrics) in sums.items():
        print(f"{name[:48]:48} x{launches:<4} " + " ".join(f"{k}={v:.4g}" for k, v in metrics.items()))
    sys.exit(0)
print(args[0])
for (i, name), metrics in table.items():
    print(f"{i:>3} {name[:58]:58} " + " ".join(f"{short(m)}={v}" for m, v in metrics.items()))
