"""tools/versus-core --speed and --reach: each suite target against Core's nearest, exec/s and the edges of
the component's Core files reached."""

import json
import os
import re
import subprocess
import time

import core_files
import suite
from versus_core.builds import COMPONENTS, both_sides
from suite import die, say


def speed(sides, names, args, out):
    """--speed: each of the suite's targets and Core's target nearest to it (the manifest's core_nearest)
    fuzz from an empty corpus for --time seconds at the same time, one core each; --repetitions rounds, round r
    with -seed=r. With --reach, each side's corpus as it was after every --at second and at the end is then
    replayed by the same binary, counting the edges of the component's Core files it reaches. One row per pair
    with each round's exec/s, peak RSS and edges."""
    checkpoints = sorted({*(a for a in args.at if a < args.time), args.time}) if args.reach else []
    rows = []
    for name, mine, theirs, missing in pairs(sides, names, args):
        row = {"component": name, "suite": mine, "core": theirs, "at": checkpoints, "runs": []}
        rows.append(row)
        if missing:
            row["missing"] = missing
            continue
        targets = {"suite": mine, "core": theirs}
        for r in range(1, args.repetitions + 1):
            say(f"speed: {mine} against {theirs}, round {r} of {args.repetitions}, {args.time:g} s")
            work = {s: out / "speed" / s for s in targets}
            res = both_sides(
                lambda s, r=r, work=work, targets=targets: sides.fuzz(
                    s,
                    targets[s],
                    args.time,
                    work[s],
                    False,
                    seed=r,
                    snapshots=checkpoints[:-1],
                )
            )
            rec = {s: {k: res[s].get(k) for k in ("exec_s", "rss_mb", "crash", "error")} for s in res}
            for s in targets if args.reach else ():
                rec[s]["edges"] = {}
                for at in checkpoints:
                    corpus = work[s] / (f"corpus-at-{at:g}" if at < args.time else "corpus")
                    rec[s]["edges"][f"{at:g}"] = edges = core_edges(sides, s, targets[s], corpus, COMPONENTS[name])
                    say(f"reach: {targets[s]} after {at:g} s: {fmt_edges(edges)}")
            row["runs"].append(rec)
    return rows


# libFuzzer's -print_coverage=1: one line per instrumented function, its edges reached of all, and where it is.
FUNC_LINE = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) (.*) (\S+):\d+$", re.M)


def core_edges(sides, side, target, corpus, comp):
    """[edges reached, edges] of the component's Bitcoin Core files (the manifest's core_files; a file of
    core_functions only in the functions it names) when the side's fuzz binary replays `corpus`. The edges are
    SanitizerCoverage's, of the binary that fuzzed: both sides' Core code is compiled alike, and the suite's
    own instantiations of Core's templates in uninstrumented harness code count for nothing."""
    proc = subprocess.run(
        [str(sides.b.binaries[f"{side} fuzz"]), "-runs=0", "-print_coverage=1", str(corpus)],
        env=dict(sides.env, FUZZ=target),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    if proc.returncode != 0:
        die(f"replaying {side} {target} from {corpus} failed: {suite.failure_summary(proc.stdout)}")
    total = [0, 0]
    for hit, edges, func, path in FUNC_LINE.findall(proc.stdout):
        rel = core_files.label(path, sides.tree.path)  # by suffix: a ccache hit keeps its first tree's path
        needle = comp.core_functions.get(rel)
        if rel in comp.core_files and (needle is None or needle.rstrip("(") in func):
            total = [total[0] + int(hit), total[1] + int(edges)]
    return total


def fmt_edges(v):
    return f"{core_files.pct(v[0], v[1]):.1f}% ({v[0]}/{v[1]})"


def pairs(sides, names, args):
    """The manifest's (component, suite target, Core's nearest) of the chosen components and --target, and,
    for a pair whose Core target this tree lacks, why it is not run."""
    for name in names:
        comp = COMPONENTS[name]
        core_has = set(sides.targets("core", comp))
        for mine, theirs in comp.core_nearest.items():
            if not args.targets or mine in args.targets:
                yield (
                    name,
                    mine,
                    theirs,
                    (None if theirs in core_has else f"this tree's fuzz binary has no target {theirs}"),
                )


def reach_report(out, rows, command, tree_name):
    """OUT/reach.md: per pair and checkpoint, the edges of the component's Core files each side reached (the
    median over the rounds) and whether the suite's target reached at least as large a share as Core's."""
    at = rows[0]["at"] if rows else []
    lines = [
        f"# Reach: the suite's targets against Bitcoin Core's nearest, tree {tree_name}",
        "",
        f"`{command}` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {os.uname().machine}). The pairs "
        "fuzz as --speed runs them (libFuzzer, ASan+UBSan, the same compiled Core code, from an empty corpus, "
        "both at once, one core each); each side's corpus as it was after the seconds shown is then replayed "
        "by the same binary (-print_coverage=1). Cells: the edges of the component's Bitcoin Core files "
        "(seam/components.json, core_files) reached, of those the binary has; the median over the rounds.",
        "",
        "| component | suite target | Core's nearest | exec/s suite / Core | "
        + " | ".join(f"after {a:g} s: suite | Core" for a in at)
        + " | suite ≥ Core |",
        "|---|---|---|---|" + "---|---|" * len(at) + "---|",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(
                f"| {row['component']} | {row['suite']} | {row['core']} | {row['missing']} |" + " |" * (2 * len(at) + 1)
            )
            continue
        runs = row["runs"]
        cells, ahead = [], True
        for a in at:
            med = {
                s: [suite.median([r[s]["edges"][f"{a:g}"][i] for r in runs]) for i in (0, 1)] for s in ("suite", "core")
            }
            cells += [fmt_edges([round(x) for x in med["suite"]]), fmt_edges([round(x) for x in med["core"]])]
            ahead = ahead and core_files.pct(*med["suite"]) >= core_files.pct(*med["core"])
        ex = {s: suite.median([r[s]["exec_s"] for r in runs]) for s in ("suite", "core")}
        notes = [
            f"{s} crashed in round {i + 1}"
            for i, r in enumerate(runs)
            for s in ("suite", "core")
            if r[s].get("crash") or r[s].get("error")
        ]
        lines.append(
            f"| {row['component']} | {row['suite']} | {row['core']} | {ex['suite']:,.0f} / {ex['core']:,.0f} | "
            + " | ".join(cells)
            + f" | {'yes' if ahead else 'no'}"
            + (f" ({'; '.join(notes)})" if notes else "")
            + " |"
        )
    lines += [
        "",
        "suite ≥ Core: after every number of seconds shown, the suite's target reached at least Core's "
        "target's share of the edges.",
    ]
    (out / "reach.md").write_text("\n".join(lines) + "\n")
    (out / "reach.json").write_text(json.dumps(rows, indent=1) + "\n")
    print("\n".join(lines))


def speed_report(out, rows, command, tree_name):
    """OUT/speed.md: per pair, the median exec/s of each side and the median of the rounds' ratios."""
    lines = [
        f"# Speed: the suite's targets against Bitcoin Core's nearest, tree {tree_name}",
        "",
        f"`{command}` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {os.uname().machine}). Both fuzz "
        "binaries with libFuzzer and ASan+UBSan and no coverage counters, over the same compiled Core code; the "
        "two targets of a pair fuzz at the same time from an empty corpus, one core each; round r uses "
        "-seed=r.",
        "",
        "| component | suite target | exec/s | Core's nearest | exec/s | suite/Core | rounds | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['component']} | {row['suite']} | | {row['core']} | | {row['missing']} | 0 | |")
            continue
        runs = row["runs"]
        ex = {s: [r[s]["exec_s"] for r in runs] for s in ("suite", "core")}
        ratios = [r["suite"]["exec_s"] / r["core"]["exec_s"] for r in runs if r["core"]["exec_s"]]
        rss = {s: max((r[s]["rss_mb"] or 0) for r in runs) for s in ("suite", "core")}
        notes = [
            f"{s} crashed in round {i + 1}"
            for i, r in enumerate(runs)
            for s in ("suite", "core")
            if r[s].get("crash") or r[s].get("error")
        ]
        lines.append(
            f"| {row['component']} | {row['suite']} | {suite.median(ex['suite']):,.0f} | {row['core']} | "
            f"{suite.median(ex['core']):,.0f} | {suite.median(ratios):.2f} | {len(runs)} | {rss['suite']} / {rss['core']}"
            f"{' (' + '; '.join(notes) + ')' if notes else ''} |"
        )
    lines += [
        "",
        "exec/s: the median over the rounds; suite/Core: the median of the rounds' ratios (a ratio is "
        "measured in one round, both sides at once, so the machine's drift cancels). A crash ends a run early "
        "and is named beside its row.",
    ]
    (out / "speed.md").write_text("\n".join(lines) + "\n")
    (out / "speed.json").write_text(json.dumps(rows, indent=1) + "\n")
    print("\n".join(lines))
