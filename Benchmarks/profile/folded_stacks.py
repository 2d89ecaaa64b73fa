#!/usr/bin/env python3
"""Folded stacks from a worker profile, and the frames that took the most time.

    folded_stacks.py collapse < perf-script.txt > stacks.folded   # `perf script` output -> folded stacks
    folded_stacks.py top [--self] [N] < stacks.folded             # the N frames with most inclusive (or self) time

Folded stacks are Brendan Gregg's format: one line per distinct stack, root first (the thread's name, then
its frames), frames joined by `;`, then a space and the sample count. Any flame graph renderer reads them
(FlameGraph's flamegraph.pl, inferno-flamegraph); Debian packages none, so the repository keeps the folded
stacks and no renderer of its own. Folding here rather than with perf's own stackcollapse script keeps the
library's name for frames perf could not symbolize (`[libswiftCore.so]` instead of `[unknown]`).
"""
import argparse
import re
import sys
from collections import defaultdict


def collapse(lines):
    """Folds `perf script` output (a header line per sample, then one frame per line, leaf first)."""
    stacks = defaultdict(int)
    comm, frames = None, []

    def flush():
        if comm is not None:
            stacks[";".join([comm] + list(reversed(frames)))] += 1

    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            flush()
            comm, frames = None, []
        elif not line[0].isspace():
            flush()
            comm, frames = line.split(None, 1)[0], []
        else:
            match = re.match(r"^\s*[0-9a-f]+\s+(.*?)(?:\s+\(([^()]*)\))?$", line)
            symbol, dso = (match.group(1), match.group(2) or "") if match else (line.strip(), "")
            symbol = re.sub(r"\+0x[0-9a-f]+$", "", symbol)  # offsets would split one function into many
            if symbol.startswith("[unknown]"):
                symbol = "[%s]" % dso.rsplit("/", 1)[-1]
            frames.append(symbol.replace(";", ":"))
    flush()
    return stacks


def read_folded(stream):
    stacks = {}
    for line in stream:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if stack and count.isdigit():
            stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


def top(stacks, count, self_only):
    totals = defaultdict(int)
    grand = sum(stacks.values()) or 1
    for stack, samples in stacks.items():
        frames = stack.split(";")
        for frame in ([frames[-1]] if self_only else set(frames)):
            totals[frame] += samples
    for frame, samples in sorted(totals.items(), key=lambda kv: -kv[1])[:count]:
        print(f"{100.0 * samples / grand:6.2f}%  {samples:7d}  {frame}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("collapse")
    ranking = sub.add_parser("top")
    ranking.add_argument("--self", action="store_true", dest="self_only")
    ranking.add_argument("count", nargs="?", type=int, default=30)
    args = parser.parse_args()
    if args.command == "collapse":
        for stack, samples in sorted(collapse(sys.stdin).items()):
            print(f"{stack} {samples}")
    else:
        top(read_folded(sys.stdin), args.count, args.self_only)


if __name__ == "__main__":
    main()
