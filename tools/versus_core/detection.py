"""tools/versus-core --detection: how much fuzzing the suite's targets need to find each planted bug.

Per planted bug (and per known Bitcoin Core bug of harness/known_bugs.h, its check on), --repetitions rounds:
in round r every suite target of the bug's component fuzzes at once from an empty corpus with -seed=r, each
until one of them fails or each has used --bug-time seconds of CPU. The time to detection is the CPU time
of the target that failed first: the fuzzing it needed, whatever else shared the machine. A target that
runs threads (the overlay's fetchers) is charged for all of them.

The builds are --speed's (no coverage counters); Core's side is not run.
"""

import json
import os
import resource
import shutil
import signal
import subprocess
import threading
import time

import suite
from suite import say

# libFuzzer's wall-clock limit, only a backstop behind the CPU limit: a target sharing the machine with the
# others of its component gets a fraction of a core.
WALL_FACTOR = 8


def race(sides, targets, bug_time, work, seed, extra_env=None):
    """The targets fuzz at once from empty corpora (-seed=`seed`) until the first fails or every one has used
    `bug_time` CPU seconds. Returns {"found": CPU seconds of the first to fail, or None; and of it "target",
    "reason", "input_hex"}."""
    shutil.rmtree(work, ignore_errors=True)
    limit = max(1, round(bug_time))
    procs, lock, first, done = {}, threading.Lock(), {}, threading.Event()

    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    for t in targets:
        corpus, artifacts = work / t / "corpus", work / t / "artifacts"
        corpus.mkdir(parents=True)
        artifacts.mkdir()
        cmd = [
            *sides.fuzz_command("suite", t),
            corpus,
            f"-seed={seed}",
            f"-artifact_prefix={artifacts}/",
            "-timeout=20",
            "-rss_limit_mb=2048",
            f"-max_total_time={limit * WALL_FACTOR * len(targets)}",
        ]
        log = open(work / t / "fuzz.log", "w")
        log.write(f"FUZZ={t} {' '.join(map(str, cmd))}\n")
        log.flush()
        procs[t] = (
            subprocess.Popen(
                list(map(str, cmd)),
                env=dict(sides.env, FUZZ=t, **(extra_env or {})),
                stdout=log,
                stderr=log,
                preexec_fn=limit_cpu,
            ),
            log,
            artifacts,
        )

    def reap(t):
        proc, log, artifacts = procs[t]
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.close()
        crashes = suite.failure_artifacts(artifacts)
        # Spent its CPU time (SIGXCPU), stopped because another failed first (SIGKILL) or ran out of wall time
        # (exit 0): not found. Anything else is a failure, with or without an input saved (a target that
        # dies while it sets up fails too).
        failed = bool(crashes) or proc.returncode not in (0, -signal.SIGXCPU, -signal.SIGKILL)
        with lock:
            if failed and not first:
                text = (work / t / "fuzz.log").read_text(errors="replace")
                first.update(
                    found=round(usage.ru_utime + usage.ru_stime, 2),
                    target=t,
                    reason=suite.failure_summary(text),
                    input_hex=crashes[0].read_bytes()[:64].hex() if crashes else "",
                )
                done.set()

    threads = [threading.Thread(target=reap, args=(t,)) for t in targets]
    for th in threads:
        th.start()
    while not done.wait(0.2) and any(th.is_alive() for th in threads):
        pass
    with lock:
        for proc, _, _ in procs.values():
            if proc.returncode is None:
                try:
                    proc.send_signal(signal.SIGKILL)
                except ProcessLookupError:
                    pass
    for th in threads:
        th.join()
    return first or {"found": None}


def detection(builds, sides, tree, names, args, out, bugs_of, command, tree_name):
    """Runs every chosen component's control, planted bugs and known bugs; writes OUT/detection.{md,json}."""
    path = out / "detection.json"
    rows = json.loads(path.read_text()) if path.exists() else {}
    baseline = builds.text_hashes()
    for name in names:
        comp = suite.components()[name]
        targets = sides.targets("suite", comp)
        work = out / "detection" / name
        control = race(sides, targets, args.bug_time, work / "control", seed=1)
        if control["found"] is not None:
            say(
                f"detection: {name}: the unpatched tree fails ({control['target']}: {control['reason']}); its "
                "bugs are not run"
            )
            rows[f"{name}:control"] = {"component": name, "error": f"the unpatched tree fails: {control}"}
            continue
        for bug, form in bugs_of(name):
            if tree.apply(form).returncode != 0:
                suite.die(f"{form.name} does not apply to {tree.path}")
            try:
                builds.all()
                if builds.text_hashes() == baseline:
                    rows[bug.id] = {"component": name, "error": "the patch changes no compiled code"}
                    continue
                rows[bug.id] = measure(sides, targets, args, work / bug.id, name, bug.id, bug.description(form))
            finally:
                if tree.apply(form, reverse=True).returncode != 0:
                    suite.die(f"could not revert {form.name} in {tree.path}; delete it to start over")
            path.write_text(json.dumps(rows, indent=1) + "\n")
        builds.all()
        for known in suite.known_bugs():
            if known.target in targets:
                label = f"{known.name}.{known.form}"
                rows[f"known:{label}"] = measure(
                    sides,
                    [known.target],
                    args,
                    work / label,
                    name,
                    label,
                    "a form of a known Bitcoin Core bug, its checks on",
                    {"SUITE_CHECK_KNOWN_BUGS": "1"},
                )
        path.write_text(json.dumps(rows, indent=1) + "\n")
    report(out, rows, command, tree_name, args)


def measure(sides, targets, args, work, component, bug_id, description, extra_env=None):
    rounds = []
    for r in range(1, args.repetitions + 1):
        rec = race(sides, targets, args.bug_time, work / f"round-{r}", seed=r, extra_env=extra_env)
        rounds.append(rec)
        say(
            f"detection: {bug_id} round {r}: "
            + (f"{rec['found']:.2f} CPU s by {rec['target']}" if rec["found"] is not None else "not found")
        )
    return {"component": component, "description": description, "rounds": rounds}


def report(out, rows, command, tree_name, args):
    """OUT/detection.md: per bug its rounds' CPU seconds and finders; the median over every bug and round."""
    lines = [
        f"# Time to detection of the planted bugs, tree {tree_name}",
        "",
        f"`{command}` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, {os.uname().machine}). Per bug and "
        f"round r of {args.repetitions}: the component's suite targets fuzz at once (libFuzzer, ASan+UBSan, no "
        "coverage counters, the target's dictionary and .options) from an empty corpus with -seed=r, until one "
        f"fails or each has used {args.bug_time:g} CPU seconds. Cells: the CPU seconds the first target to "
        "fail had used, and which.",
        "",
        "| component | bug | " + " | ".join(f"round {r}" for r in range(1, args.repetitions + 1)) + " | median |",
        "|---|---|" + "---|" * (args.repetitions + 1),
    ]
    times, lost = [], []
    for bug_id, row in rows.items():
        if "error" in row:
            lines.append(f"| {row['component']} | {bug_id} | {row['error']} |" + " |" * args.repetitions)
            continue
        found = [r["found"] for r in row["rounds"]]
        if not bug_id.startswith("known:"):
            times += [f if f is not None else float("inf") for f in found]
            lost += [bug_id] if None in found else []
        cells = [f"{r['found']:.2f} ({r['target']})" if r["found"] is not None else "not found" for r in row["rounds"]]
        med = suite.median([f if f is not None else float("inf") for f in found])
        lines.append(f"| {row['component']} | {bug_id} | " + " | ".join(cells) + f" | {med:.2f} |")
    lines += [
        "",
        f"Planted bugs: {len(times)} runs; median {suite.median(times):.2f} CPU s; "
        + (f"not found in some round: {', '.join(lost)}." if lost else "every bug found in every round."),
    ]
    (out / "detection.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
