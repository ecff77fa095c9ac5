#!/usr/bin/env python3
"""Sets each algorithm's byte model against the DRAM bytes Nsight Compute counted for one timed sort.

  tools/dram_bytes.py DIR   (DIR holds CASE.json from `sortscope bench --format json --repeat 1` and
                             CASE.csv from `ncu --profile-from-start off --csv` over the same run)

Prints one Markdown row per case: the model's bytes per key, the measured DRAM bytes per key (read
and write, summed over every kernel of the sort), and the model over the measurement."""
import csv
import json
import pathlib
import sys

READ, WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"
UNIT = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9, "B": 1}


def dram_bytes(path):
    """Read and written DRAM bytes summed over every kernel in an ncu --csv dump, and the kernels."""
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    if not rows:
        return None
    head = rows[0]
    name, unit, value, launch = (head.index(k) for k in ("Metric Name", "Metric Unit", "Metric Value", "ID"))
    total = {READ: 0.0, WRITE: 0.0}
    launches = set()
    for r in rows[1:]:
        if r[name] in total:
            total[r[name]] += float(r[value].replace(",", "")) * UNIT.get(r[unit], 1)
            launches.add(r[launch])
    return total[READ], total[WRITE], len(launches)


def main():
    folder = pathlib.Path(sys.argv[1])
    print("| case | model B/key | DRAM read B/key | DRAM write B/key | measured B/key | model / measured | kernels |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for bench in sorted(folder.glob("*.json")):
        counters = dram_bytes(bench.with_suffix(".csv"))
        results = json.load(open(bench))["results"]
        if counters is None or not results:
            print(f"| {bench.stem} | no counters or no result | | | | | |")
            continue
        row = results[0]
        n = row["n"]
        read, write, kernels = counters
        measured = (read + write) / n
        print(f"| {bench.stem} | {row['bytes_per_key']:.1f} | {read / n:.1f} | {write / n:.1f} | {measured:.1f} "
              f"| {row['bytes_per_key'] / measured:.2f} | {kernels} |")


if __name__ == "__main__":
    main()
