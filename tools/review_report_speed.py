"""The speed section's parts of tools/review's report: the chain workload's tables (bench_chain) and the plots
(gnuplot) of the ratios, the flush sweep and the chain's phases."""

import statistics
import subprocess
import sys

import review_speed
from review_run import SIDES
from suite import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from report import CHAIN_PHASES  # noqa: E402  bench_chain's phases (CSV column, name), named once


def plot_ratios(png, rows):
    data = png.with_suffix(".dat")
    data.write_text("".join(f'"{w.name}" {w.ratio} {w.low} {w.high}\n' for w in rows))
    gnuplot(f"""set terminal pngcairo size 900,{200 + 30 * len(rows)}
set output '{png}'
set title 'head/base per operation (< 1: head faster); bar: range over repetitions'
set style fill solid 0.5
set yrange [*:*] reverse
set xlabel 'head/base'
set grid x
set arrow from 1, graph 0 to 1, graph 1 nohead dt 2
plot '{data}' using 2:0:3:4:($0-0.3):($0+0.3):yticlabels(1) with boxxyerror notitle, \\
     '' using 2:0 with points pt 7 notitle
""")


def plot_flush(png, flush):
    data = png.with_suffix(".dat")
    rows = []
    for mib, t in sorted(flush.items()):
        med = {s: (statistics.median(x for x, _ in t[s]), statistics.median(p for _, p in t[s])) for s in SIDES}
        rows.append(f"{mib} {med['base'][0]} {med['head'][0]} {med['base'][1]} {med['head'][1]}\n")
    data.write_text("".join(rows))
    gnuplot(f"""set terminal pngcairo size 1000,450
set output '{png}'
set multiplot layout 1,2 title "Flush of Core's CCoinsViewDB on disk against -dbbatchsize (medians)"
set logscale x 2
set xlabel '-dbbatchsize, MiB'
set key top left
set grid
set ylabel 'flush time, s'
plot '{data}' using 1:2 with linespoints title 'base', '' using 1:3 with linespoints title 'head'
set ylabel 'peak RSS, MiB'
plot '{data}' using 1:4 with linespoints title 'base', '' using 1:5 with linespoints title 'head'
unset multiplot
""")


# The counts bench_chain reports beside its phases (bench/report.py names the phases).
CHAIN_COUNTS = (
    ("flushes", "flushes (cache over its limit)"),
    ("syncs", "syncs (periodic)"),
    ("block_bytes", "block bytes written"),
    ("undo_bytes", "undo bytes written"),
    ("chainstate_bytes", "chainstate on disk, bytes"),
    ("peak_rss_mib", "peak RSS, MiB"),
)


def measured_phases(chain):
    """The (column, name) of CHAIN_PHASES that every run of both sides timed: a phase that took no time in
    a run (a short chain that never went over the cache's limit has no flushes) has no ratio."""
    return [
        (column, name)
        for column, name in CHAIN_PHASES
        if column in chain and all(t > 0 for side in SIDES for t in chain[column][side])
    ]


def chain_section(review, chain, rows):
    """The report's lines on the chain workload (bench_chain): time per phase, then the counts."""

    def med(column, side):
        return statistics.median(chain[column][side])

    def setting(column):
        return f"{med(column, 'head'):.0f}"

    md = [
        f"The suite's chain workload (bench_chain, core-bench preset): {setting('blocks')} blocks of a synthetic "
        f"chain ({setting('txs')} transactions each, spending earlier outputs) connected as a node does: each "
        f"block through an overlay (CoinsViewOverlay where the tree has it, {setting('workers')} fetching threads) "
        "over a CCoinsViewCache over CCoinsViewDB on disk, the cache flushed when over "
        f"{setting('dbcache_mib')} MiB and synced every {setting('sync_every')} blocks; the block and its undo "
        "data written and read back through BlockManager (obfuscated, 128 MiB files); a final flush at "
        f"-dbbatchsize {setting('dbbatch_mib')} MiB. One child process per run; wall time per phase (the "
        "adapters' conversions between the suite's types and Core's are in it, alike on both sides, so a "
        "ratio is diluted, never inflated). Instructions: callgrind's count of each phase (its function's "
        "inclusive count) in a shorter run, "
        + ", ".join(f"--{k} {v}" for k, v in review_speed.CHAIN_COUNTED.items())
        + f", {review_speed.INSTRUCTION_RUNS} runs per side; where a phase's count includes LevelDB's work (connect, "
        f"flushes, the final flush, the total), a difference under {review_speed.CHAIN_LEVELDB_FLOOR:.0%} is none: "
        "that work depends on how far LevelDB's background compaction has got:",
        "",
        "| phase | base | head | head/base | range | resolves | instructions base | head/base | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    md += [
        f"| {w.name[len('chain: ') :]} | {w.base:.3f} s | {w.head:.3f} s | {w.ratio:.3f} | {w.low:.3f}–{w.high:.3f} | "
        f"±{w.resolution:.1%} | "
        + (f"{w.instr_base:,.0f} | {w.instr_ratio:.4f} | " if w.instr_ratio else "not counted | — | ")
        + f"{w.verdict} |"
        for w in rows
    ]
    idle = [name for column, name in CHAIN_PHASES if column in chain and (column, name) not in measured_phases(chain)]
    if idle:
        md += ["", f"Not compared: {', '.join(idle)} (no time in some run: the workload had none of that work)."]
    md += ["", "| measured (median) | base | head | head/base |", "|---|---|---|---|"]
    md += [
        f"| {name} | {med(c, 'base'):,.0f} | {med(c, 'head'):,.0f} | {pct_ratio(med(c, 'head'), med(c, 'base'))} |"
        for c, name in CHAIN_COUNTS
        if c in chain
    ]
    md += ["", "![chain](chain.png)", ""]
    plot_chain(review.out / "chain.png", rows)
    return md


def pct_ratio(head, base):
    return f"{head / base:.3f}" if base else "—"


def plot_chain(png, rows):
    data = png.with_suffix(".dat")
    data.write_text("".join(f'"{w.name[len("chain: ") :]}" {w.base} {w.head}\n' for w in rows))
    gnuplot(f"""set terminal pngcairo size 1000,450
set output '{png}'
set title 'bench_chain: seconds per phase (medians over the repetitions)' noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.6
set ylabel 'seconds'
set grid y
set key top left
set xtics rotate by -20
plot '{data}' using 2:xtic(1) title 'base', '' using 3 title 'head'
""")


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
