#!/usr/bin/env python3
"""Prints an ncu --csv metrics dump as one line per kernel launch: short name, then metric=value."""
import collections
import csv
import re
import sys

rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit(f"{sys.argv[1]}: no ncu rows")
head = rows[0]
kernel, metric, value, launch = (head.index(k) for k in ("Kernel Name", "Metric Name", "Metric Value", "ID"))
table = collections.OrderedDict()
for r in rows[1:]:
    name = re.sub(r"<.*", "", r[kernel]).replace("void ", "")
    shape = re.search(r"<(\d+), (\d+)", r[kernel])
    if shape:
        name += f"<{shape.group(1)},{shape.group(2)}>"
    table.setdefault((r[launch], name), {})[r[metric]] = r[value]
print(sys.argv[1])
for (i, name), metrics in table.items():
    short = {m.replace("smsp__average_warps_issue_stalled_", "stall_").replace("_per_issue_active.ratio", "")
              .split(".")[0]: v for m, v in metrics.items()}
    print(f"{i:>3} {name[:58]:58} " + " ".join(f"{k}={v}" for k, v in short.items()))
