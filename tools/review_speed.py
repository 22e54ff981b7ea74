"""The speed verdict of tools/review: the smallest change this run can resolve, and what the head changed.

Wall time. Base and head alternate over the repetitions. The noise of a benchmark in this run is the largest
relative difference between two consecutive runs of the same code (a base run after a base run, a head run
after a head run): a change no larger than that cannot be told from what the machine does anyway, so it is
the smallest change the run resolves. A ratio head/base is beyond noise when its median is farther from 1
than that and its range over the repetitions excludes 1.

Instructions. `valgrind --tool=callgrind` counts the instructions of one iteration of a benchmark
(bench_bitcoin -sanity-check; only inside nanobench's run, so the benchmark's set-up is not counted), on each
side INSTRUCTION_RUNS times. The count repeats exactly whatever else the machine does, unless the code itself
varies (salted hash maps, random data): the spread of the counts is their noise, and no difference under
INSTRUCTION_FLOOR is called a change.

The verdict is based on both: a change is "slower/faster, beyond noise" when the instruction counts and the
wall time agree on it. Where the counts say which way, a single outlying run per side (a repetition that a
burst of other work on the machine slowed by half) need not hide the wall time's agreement: the wall time is
judged again without each side's run farthest from that side's median (and without the repetitions those
runs were in), its resolution and range recomputed, and agreement then is reported as beyond noise with
that said. Wall time alone is never trimmed: with nothing exact behind it, the outlier may be the change's
only sign and the whole series decides. A wall-time difference with equal instruction counts is the machine (or time outside
the instructions, such as waiting for the disk: the wall ratio stays in the table); instructions that change
without the wall time following are said as such. Where callgrind did not count (no symbol to count in, or
the flush sweep, whose cost is disk I/O), wall time alone decides.
"""

import re
import shutil
import statistics
import subprocess
from dataclasses import dataclass

SIDES = ("base", "head")
INSTRUCTION_RUNS = 2
INSTRUCTION_FLOOR = 0.001
# nanobench's Bench::run<Op>, the template that runs the measured operation (the benchmark's own function
# also builds its set-up: a TestingSetup, threads, random data).
COUNTED = "*ankerl::nanobench::Bench::run<*"
# The chain workload's counted run (bench_chain options): shorter than the timed one, under callgrind about a
# minute, with a cache small enough to flush and sync several times, and no fetching threads (threads
# interleave differently in each run; the connecting thread then fetches itself).
CHAIN_COUNTED = {"blocks": 150, "dbcache-mib": 4, "sync-every": 40, "workers": 0}
CHAIN_PHASE_PREFIX = "bench_chain_phase_"
# The phases whose count includes LevelDB's reads and writes, and the floor their differences must pass: how
# much work a Get or a Write does depends on how far the background compaction has got, which differs from
# run to run (the connect phase's count was seen to vary by 0.5 % between runs of the same code).
CHAIN_LEVELDB_PHASES = ("connect_s", "flush_s", "final_flush_s", "total_s")
CHAIN_LEVELDB_FLOOR = 0.01


def noise(series):
    """The largest relative difference between consecutive values of each series (runs of the same code)."""
    steps = [abs(b / a - 1) for xs in series for a, b in zip(xs, xs[1:]) if a > 0]
    return max(steps, default=0.0)


def outlier(xs):
    """The index of the value of `xs` farthest (relatively) from their median; None for fewer than 4 values,
    where one value is too large a share of the series to be called an outlier."""
    if len(xs) < 4:
        return None
    m = statistics.median(xs)
    return max(range(len(xs)), key=lambda i: abs(xs[i] - m) / m if m else 0)


def direction(ratio, limit, low=None, high=None):
    """+1 (head slower or more), -1, or 0 when the ratio is within `limit` of 1 or its range includes 1."""
    if abs(ratio - 1) <= limit or (low is not None and low <= 1.0 <= high):
        return 0
    return 1 if ratio > 1 else -1


@dataclass
class Row:
    name: str
    base: float  # median seconds per operation
    head: float
    ratio: float  # median of head/base over the repetitions
    low: float
    high: float
    resolution: float  # the smallest relative change this run resolves (noise)
    instr_ratio: float = None  # head/base instruction counts, median; None where not counted
    instr_noise: float = None
    instr_base: float = None
    trimmed: tuple = None  # (ratio, low, high, resolution) without each side's outlying run; None: too few runs

    @property
    def verdict(self):
        changed = {1: "slower, beyond noise", -1: "faster, beyond noise"}
        wall = direction(self.ratio, self.resolution, self.low, self.high)
        if self.instr_ratio is None:
            return changed.get(wall, "within noise")
        instr = direction(self.instr_ratio, self.instr_noise)
        if instr == 0:
            return "within noise" if wall == 0 else "within noise (wall time moved, instruction counts equal)"
        if wall == instr:
            return changed[instr]
        if self.trimmed and direction(self.trimmed[0], self.trimmed[3], *self.trimmed[1:3]) == instr:
            return f"{changed[instr]} (one outlying run per side left out)"
        more = "more" if instr > 0 else "fewer"
        return f"{more} instructions, wall time {'within noise' if wall == 0 else 'the other way'}"


def row(name, times, instructions=None, floor=INSTRUCTION_FLOOR):
    """The Row of one benchmark: `times` {side: [seconds]} per repetition, `instructions` {side: [count]}; a
    difference of instructions under `floor` is none."""
    base, head = times["base"], times["head"]
    ratios = [h / b for b, h in zip(base, head)]
    out = Row(
        name,
        statistics.median(base),
        statistics.median(head),
        statistics.median(ratios),
        min(ratios),
        max(ratios),
        noise([base, head]),
    )
    drop = {side: outlier(xs) for side, xs in (("base", base), ("head", head))}
    kept = [i for i in range(len(ratios)) if i not in drop.values()]
    if None not in drop.values() and len(kept) >= 3:
        trim = [[x for i, x in enumerate(xs) if i != drop[side]] for side, xs in (("base", base), ("head", head))]
        kept_ratios = [ratios[i] for i in kept]
        out.trimmed = (statistics.median(kept_ratios), min(kept_ratios), max(kept_ratios), noise(trim))
    if instructions and all(instructions.get(s) for s in SIDES):
        b, h = statistics.median(instructions["base"]), statistics.median(instructions["head"])
        out.instr_ratio, out.instr_base = h / b, b
        out.instr_noise = max(floor, noise([instructions["base"], instructions["head"]]))
    return out


def without_debug_info(binary):
    """A copy of `binary` without its DWARF, which valgrind 3.19 cannot read from clang 19 (it gives up on the
    whole run); the symbol table, which the count needs, stays."""
    out = binary.with_name(binary.name + ".nodebug")
    subprocess.run(["llvm-objcopy-19", "--strip-debug", str(binary), str(out)], check=True)
    return out


def count_phase_instructions(program, args, prefix, out_dir, log):
    """{function suffix: instructions} of the functions named `prefix`* in a run of `program` (and of the child
    processes it forks), each function's inclusive count (callgrind_annotate); {} when the run failed."""
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_dir}/callgrind.%p", str(program), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log.write_text(proc.stdout)
    counts = {}
    if proc.returncode == 0:
        for dump in sorted(out_dir.glob("callgrind.*")):
            text = subprocess.run(
                ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(dump)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            ).stdout
            for m in re.finditer(rf"^\s*([\d,]+) .*?\b{re.escape(prefix)}(\w+)", text, re.M):
                counts[m[2]] = counts.get(m[2], 0) + int(m[1].replace(",", ""))
    shutil.rmtree(out_dir, ignore_errors=True)
    return counts


def count_instructions(bench_bitcoin, benchmark, out_file, log):
    """Instructions of one iteration of `benchmark`, counted by callgrind inside nanobench's run; None when
    nothing was counted there (the template inlined away)."""
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--toggle-collect={COUNTED}",
            f"--callgrind-out-file={out_file}",
            str(bench_bitcoin),
            f"-filter=^{re.escape(benchmark)}$",
            "-sanity-check",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log.write_text(proc.stdout)
    if proc.returncode != 0:
        return None
    m = re.search(r"^(?:totals|summary): (\d+)", out_file.read_text(errors="replace"), re.M)
    out_file.unlink(missing_ok=True)
    return int(m[1]) if m and int(m[1]) > 0 else None
