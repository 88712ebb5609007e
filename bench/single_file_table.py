#!/usr/bin/env python3
"""The table of bench/single_file_bench.sh from its hyperfine JSON files (rROUND-FILE.json): per row and
command, the median of each round's median, the range of every run of every round, and the ratio to vips.

    /usr/bin/python3 bench/single_file_table.py RESULTS_DIR
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: single_file_table.py RESULTS_DIR")
    medians = defaultdict(lambda: defaultdict(list))  # row -> command -> each round's median (s)
    times = defaultdict(lambda: defaultdict(list))  # row -> command -> every run (s)
    rounds = set()
    for path in sorted(Path(sys.argv[1]).glob("r*-*.json")):
        round_name, row = path.name[:-len(".json")].split("-", 1)
        rounds.add(round_name)
        for result in json.loads(path.read_text())["results"]:
            medians[row][result["command"]].append(result["median"])
            times[row][result["command"]].extend(result["times"])
    commands = list(dict.fromkeys(c for row in medians.values() for c in row))
    print(f"{len(rounds)} rounds; ms: median of the rounds' medians (fastest-slowest run); x vips")
    print("| row | " + " | ".join(commands) + " |")
    print("|---|" + "---:|" * len(commands))
    for row, by_command in medians.items():
        vips = statistics.median(by_command["vips"]) if "vips" in by_command else None
        cells = []
        for command in commands:
            if command not in by_command:
                cells.append("")
                continue
            median = statistics.median(by_command[command])
            span = times[row][command]
            ratio = f", {median / vips:.2f}x" if vips and command != "vips" else ""
            cells.append(f"{median * 1e3:.1f} ({min(span) * 1e3:.1f}-{max(span) * 1e3:.1f}){ratio}")
        print(f"| {row} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
