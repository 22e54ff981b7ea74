#!/usr/bin/env python3
"""ctest replay.deterministic.<target>: a target keeps nothing across inputs.

Usage: check_deterministic.py FUZZ TARGET SEEDS WORK

One replay process (FUZZ, the replay binary) runs every seed of SEEDS in name order, then all of them again
until each seed's last run follows at least a thousand other inputs. Every seed's operation trace and
observation log (SUITE_OBSERVE: each step, each value a check compared) must be the same on its first run (the
first seed's is the first of the process) and on its last. On a difference, prints the seed and the first
record where the two runs part. WORK is a scratch folder for the log.

Where the replay binary can count allocations (a sanitizer build: SUITE_REPLAY_COUNT_ALLOCATIONS), no seed may
keep memory (allocate more than it frees) on every one of its runs after the first: an input that keeps memory
makes libFuzzer run it again and then scan the whole heap for leaks (up to a thousand times a run, after which
it stops looking), and memory kept per input grows for as long as a campaign runs. A run that keeps memory now
and then is allowed: state a target reuses on purpose and bounds (a scratch directory started over when full)
grows at some inputs, not at every run of one.

Exit 1 on a difference, 2 when the replay fails or observes nothing.
"""

import math
import os
import subprocess
import sys
from pathlib import Path

OTHERS = 1000


def segments(log):
    """{input name: [records of each run, in order]}."""
    runs = {}
    current = None
    for line in log.splitlines():
        if line.startswith("input "):
            current = []
            runs.setdefault(line[len("input ") :], []).append(current)
        elif current is not None:
            current.append(line)
    return runs


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    fuzz, target, seeds_dir, work = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
    seeds = sorted(p for p in seeds_dir.iterdir() if p.is_file())
    if not seeds:
        print(f"{seeds_dir} holds no seeds", file=sys.stderr)
        return 2
    rounds = 1 + math.ceil(OTHERS / len(seeds))
    work.mkdir(parents=True, exist_ok=True)
    log = work / "observed.log"
    env = dict(
        os.environ,
        FUZZ=target,
        SUITE_OBSERVE=str(log),
        SUITE_REPLAY_STOP_AT_FIRST="1",
        SUITE_REPLAY_COUNT_ALLOCATIONS="1",
    )
    proc = subprocess.run(
        [fuzz, *map(str, seeds * rounds)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    if proc.returncode != 0:
        print(proc.stdout[-4000:], f"\nthe replay failed (exit {proc.returncode})", file=sys.stderr)
        return 2
    kept = {}  # seed name: allocations minus frees, per run
    for line in proc.stdout.splitlines():
        if line.startswith("replay: allocations "):
            name, mallocs, frees = line.split()[2:5]
            kept.setdefault(name, []).append(int(mallocs) - int(frees))
    for seed in seeds:
        later = kept.get(seed.name, [])[1:]
        if later and all(k > 0 for k in later):
            print(
                f"{target}: {seed} allocates more than it frees on every run after its first ({later}): state "
                f"kept across inputs, or a leak the sanitizer was told to ignore; libFuzzer runs a whole-heap "
                f"leak scan after every such input",
                file=sys.stderr,
            )
            return 1
    runs = segments(log.read_text(errors="replace"))
    records = 0
    for seed in seeds:
        first, *_, last = runs.get(seed.name, [[], []])
        if first != last:
            i = next((i for i, (a, b) in enumerate(zip(first, last)) if a != b), min(len(first), len(last)))
            show = lambda r: r[i] if i < len(r) else "(no more records)"  # noqa: B023 (called in this iteration)
            print(
                f"{target}: {seed} observed differently on its last run (after at least {OTHERS} other inputs) "
                f"than on its first, at record {i}:\n  first: {show(first)}\n  last:  {show(last)}\n"
                f"(the whole log: {log})",
                file=sys.stderr,
            )
            return 1
        records += len(first)
    if records == 0:
        print(f"{target}: no seed observed anything: the comparison would prove nothing", file=sys.stderr)
        return 2
    print(
        f"{target}: {len(seeds)} seeds, {len(seeds) * rounds} inputs in one process: each seed observed the same "
        f"on its first run and after at least {OTHERS} others ({records} records)"
        + ("; no seed kept memory on every run" if kept else "; allocations not counted (no sanitizer)")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
