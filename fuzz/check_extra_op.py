#!/usr/bin/env python3
"""ctest ops.extra_id: adding an operation changes only the stored inputs that use its id.

Usage: check_extra_op.py FUZZ FUZZ_EXTRA_OP CORPUS WORK TARGET...

FUZZ is the replay binary; FUZZ_EXTRA_OP the same built with SUITE_EXTRA_OP, where every operation list
(harness/op_list.h) has one more operation, `ExtraOp`, in its first reserved id. Each TARGET's stored inputs
(CORPUS/<target>/, its regression inputs among them) are replayed by both with the observation log
(SUITE_OBSERVE: every step and every value a check compared). An input's records must be the same in both,
unless the extra build applied an ExtraOp step to it (the input uses that id). A decoder that maps the op
byte through the count of operations (modulo) instead of the fixed id table gives most inputs another
meaning there, and fails this. WORK is a scratch folder for the logs.

Exit 1 on a difference, 2 when a replay fails or observes nothing.
"""

import os
import subprocess
import sys
from pathlib import Path

MARK = "ExtraOp"


def segments(log):
    """{input name: its records}."""
    runs, current = {}, None
    for line in log.splitlines():
        if line.startswith("input "):
            current = runs.setdefault(line[len("input ") :], [])
        elif current is not None:
            current.append(line)
    return runs


def replay(binary, target, inputs, log):
    log.unlink(missing_ok=True)
    env = dict(os.environ, FUZZ=target, SUITE_OBSERVE=str(log))
    proc = subprocess.run([binary, str(inputs)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0 or not log.exists():
        print(f"{target}: {binary} failed on {inputs} (exit {proc.returncode}):\n{proc.stdout[-3000:]}")
        sys.exit(2)
    return segments(log.read_text())


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    fuzz, extra, corpus, work = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
    work.mkdir(parents=True, exist_ok=True)
    differing = 0
    for target in sys.argv[5:]:
        inputs = corpus / target
        plain = replay(fuzz, target, inputs, work / f"{target}.log")
        extended = replay(extra, target, inputs, work / f"{target}.extra.log")
        if not plain:
            print(f"{target}: nothing observed in {inputs}")
            return 2
        using = [name for name, records in extended.items() if any(MARK in r for r in records)]
        changed = [name for name in sorted(plain) if extended.get(name) != plain[name] and name not in using]
        print(
            f"{target}: {len(plain)} inputs, {len(using)} using the extra operation's id, {len(changed)} changed "
            "without using it"
        )
        for name in changed[:3]:
            a, b = plain[name], extended.get(name, [])
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(
                f"  {inputs / name}: record {at}: {a[at] if at < len(a) else '(none)'!r} without the extra "
                f"operation, {b[at] if at < len(b) else '(none)'!r} with it"
            )
        differing += len(changed)
    if differing:
        print(
            f"{differing} stored inputs changed meaning when an operation was added: the op byte must map to an "
            "id through the list's fixed table (fuzz::ConsumeOp), never through the count"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
