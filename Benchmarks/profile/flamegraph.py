#!/usr/bin/env python3
"""Folded stacks and flame graphs without dependencies (no FlameGraph checkout on this machine).

    flamegraph.py collapse < perf-script.txt > stacks.folded   # `perf script` output -> folded stacks
    flamegraph.py svg --title T < stacks.folded > graph.svg    # folded stacks -> a flame graph SVG
    flamegraph.py top [--self] [N] < stacks.folded             # the N frames with most inclusive (or self) time

Folded stacks are Brendan Gregg's format: one line per distinct stack, root first, frames joined by `;`,
then a space and the sample count. The SVG is static (a <title> per frame shows name, samples and percent).
"""
import argparse
import html
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


def tree(stacks):
    root = {"name": "all", "value": 0, "children": {}}
    for stack, count in stacks.items():
        root["value"] += count
        node = root
        for frame in stack.split(";"):
            node = node["children"].setdefault(frame, {"name": frame, "value": 0, "children": {}})
            node["value"] += count
    return root


def color(name):
    """Warm colours, stable per name; our Swift modules in orange, C libraries in red, the kernel in grey."""
    h = sum(ord(c) * (i + 1) for i, c in enumerate(name[:40]))
    if "[kernel" in name or name.startswith(("__x64_sys", "entry_SYSCALL", "do_syscall")):
        return "rgb(%d,%d,%d)" % (170 + h % 40, 170 + h % 40, 170 + h % 40)
    if any(m in name for m in ("QueryWorker", "JSONLogging", "Kafka", "ArcGISEngine", "CurlHTTP", "EngineExecution")):
        return "rgb(240,%d,%d)" % (140 + h % 60, 40 + h % 40)
    return "rgb(%d,%d,%d)" % (200 + h % 55, 60 + h % 90, 40 + h % 30)


def svg(stacks, title, width=1600, row=16, min_width=0.3):
    root = tree(stacks)
    total = max(root["value"], 1)
    depth = [0]
    rects = []

    def walk(node, x, level):
        w = node["value"] / total * (width - 20)
        if w < min_width:
            return
        depth[0] = max(depth[0], level)
        rects.append((x, level, w, node))
        child_x = x
        for child in sorted(node["children"].values(), key=lambda n: n["name"]):
            walk(child, child_x, level + 1)
            child_x += child["value"] / total * (width - 20)

    walk(root, 10, 0)
    height = (depth[0] + 1) * row + 50
    out = [
        '<?xml version="1.0" standalone="no"?>',
        f'<svg version="1.1" width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg" '
        'font-family="Verdana, sans-serif" font-size="11">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="rgb(248,248,238)"/>',
        f'<text x="{width // 2}" y="20" text-anchor="middle" font-size="15">{html.escape(title)}</text>',
    ]
    for x, level, w, node in rects:
        y = height - 10 - (level + 1) * row
        name = node["name"]
        percent = 100.0 * node["value"] / total
        label = name if len(name) * 6.5 < w - 4 else (name[: max(int((w - 4) / 6.5) - 2, 0)] + ".." if w > 25 else "")
        out.append(
            f'<g><title>{html.escape(name)} ({node["value"]} samples, {percent:.2f}%)</title>'
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" fill="{color(name)}" rx="2"/>'
            + (f'<text x="{x + 3:.1f}" y="{y + row - 4}">{html.escape(label)}</text>' if label else "")
            + "</g>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
    render = sub.add_parser("svg")
    render.add_argument("--title", default="Flame graph")
    render.add_argument("--width", type=int, default=1600)
    ranking = sub.add_parser("top")
    ranking.add_argument("--self", action="store_true", dest="self_only")
    ranking.add_argument("count", nargs="?", type=int, default=30)
    args = parser.parse_args()
    if args.command == "collapse":
        for stack, samples in sorted(collapse(sys.stdin).items()):
            print(f"{stack} {samples}")
    elif args.command == "svg":
        sys.stdout.write(svg(read_folded(sys.stdin), args.title, args.width))
    else:
        top(read_folded(sys.stdin), args.count, args.self_only)


if __name__ == "__main__":
    main()
