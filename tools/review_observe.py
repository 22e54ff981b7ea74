"""The differential of tools/review: replaying inputs on two builds of the suite's fuzz binary with the
observation log on (harness/observe.h, SUITE_OBSERVE), comparing the logs input by input, and minimising an
input that shows a difference.

A log is a sequence of records per input; an input that ends its process (a failed check, a sanitizer
report) ends with a `crash: <signature>` record after what it logged before. Two sides agree on an
input when their records are equal, except records tied to a Bitcoin Core change (`[change] label: value`)
that the two trees answer differently (core/features.h): a difference the suite declares.
"""

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import suite

CHANGE_RE = re.compile(r"^\[([^\]]+)\] ")
# A per-input limit well above any corpus input's time under ASan.
TIMEOUT_S = 120


FAILING_RE = re.compile(r"^replay: the failing input is (.*)$", re.M)


def run_logged(binary, target, files, log, profile=None):
    """Replays `files` in order in one process with the log at `log`; returns ({input name: records} of the
    inputs it names, the index in `files` of the input that failed or None, the failure's text)."""
    # The review-test build is instrumented for coverage: its profile goes to `profile` (an LLVM_PROFILE_FILE
    # pattern), else beside the log, overwritten. SUITE_REPLAY_STOP_AT_FIRST=1: the replay stops at the first
    # failing input and its output is that input's report alone, which is what this function reads (observe()
    # goes on after it itself).
    env = dict(
        os.environ,
        FUZZ=target,
        SUITE_OBSERVE=str(log),
        SUITE_REPLAY_STOP_AT_FIRST="1",
        LLVM_PROFILE_FILE=str(profile or log.with_suffix(".profraw")),
    )
    proc = subprocess.run(
        [str(binary), *map(str, files)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        timeout=TIMEOUT_S * len(files),
    )
    inputs = dict(parse(log.read_text(errors="replace") if log.exists() else ""))
    if proc.returncode == 0:
        return inputs, None, ""
    # The replay driver names the input it was running when it died; else (killed from outside) it is the
    # first one the log does not name.
    m = FAILING_RE.search(proc.stderr)
    names = [str(f) for f in files]
    if m and m[1] in names:
        return inputs, names.index(m[1]), proc.stderr
    return inputs, next((i for i, f in enumerate(files) if f.name not in inputs), len(files) - 1), proc.stderr


def parse(text):
    """[(input name, [records])] of a log."""
    out = []
    for line in text.splitlines():
        if line.startswith("input "):
            out.append((line[6:], []))
        elif out:
            out[-1][1].append(line)
    return out


def failure_record(stderr):
    sig = suite.harness_signature(stderr)
    text = sig or suite.failure_summary(stderr, width=200)
    return "crash: " + re.sub(r"0x[0-9a-f]+", "0x?", text)  # addresses differ from build to build


def observe(binary, target, files, scratch, profile=None):
    """{input file name: [records]} for every file, continuing after an input that fails. A failing input's
    records end with its failure (the replay driver writes the log out before the process dies)."""
    out, at = {}, 0
    scratch.mkdir(parents=True, exist_ok=True)
    log = scratch / f"{target}.log"
    while at < len(files):
        inputs, failed, stderr = run_logged(binary, target, files[at:], log, profile)
        done = files[at:] if failed is None else files[at : at + failed]
        for path in done:
            out[path.name] = inputs.get(path.name, [])
        if failed is None:
            break
        name = files[at + failed].name
        out[name] = inputs.get(name, []) + [failure_record(stderr)]
        at += failed + 1
    return out


def declared(record, answers):
    """Whether `record` is tied to a change the two trees answer differently ({change: (base, head)}); a record
    tied to several (`[a+b]`) is when any of them is."""
    m = CHANGE_RE.match(record)
    return bool(m) and any(len(set(answers.get(c, (None, None)))) > 1 for c in m[1].split("+"))


# A change row of core/*_features.h: X(name, change, "<pull requests>", ...
CHANGE_ROW_RE = re.compile(r'X\((\w+),\s*change,\s*"([^"]*)"')


def change_rows():
    """{change row: the pull requests it names} from the suite's core/*_features.h."""
    return {
        m[1]: m[2]
        for f in sorted((suite.ROOT / "core").glob("*_features.h"))
        for m in CHANGE_ROW_RE.finditer(f.read_text())
    }


def declared_changes(base, head, answers):
    """The changes whose records differ between one input's two logs, among those the trees answer differently:
    what the input shows of each declared change."""

    def tagged(records):
        out = {}
        for r in records:
            m = CHANGE_RE.match(r)
            for change in m[1].split("+") if m else ():
                if len(set(answers.get(change, (None, None)))) > 1:
                    out.setdefault(change, []).append(r)
        return out

    b, h = tagged(base), tagged(head)
    return sorted(c for c in b.keys() | h.keys() if b.get(c) != h.get(c))


@dataclass
class Difference:
    target: str
    input: str
    index: int  # the first differing record's position in the input's log
    step: str  # the last step record before it ("" when before any step)
    base: str  # the records there ("<end>" when a side has none left)
    head: str

    def key(self):
        """What makes two differences the same one: the target, the step's operation and the record's label."""

        def label(r):
            return r.split(": ", 1)[0]

        op = self.step.split("(", 1)[0]
        return (self.target, op, label(self.base), label(self.head))


def first_difference(target, name, base, head, answers):
    """The first Difference of one input's records, or None."""
    b = [r for r in base if not declared(r, answers)]
    h = [r for r in head if not declared(r, answers)]
    step = ""
    for i in range(max(len(b), len(h))):
        rb = b[i] if i < len(b) else "<end>"
        rh = h[i] if i < len(h) else "<end>"
        if rb != rh:
            return Difference(target, name, i, step, rb, rh)
        if rb.startswith("step: "):
            step = rb[6:]
    return None


def differs_alike(binaries, target, data, key, answers, scratch):
    """Whether `data` as an input shows a difference with the same key on the two binaries."""
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        path = Path(tmp) / "input"
        path.write_bytes(data)
        logs = [observe(b, target, [path], Path(tmp) / side) for side, b in zip(("base", "head"), binaries)]
        d = first_difference(target, "input", logs[0].get("input", []), logs[1].get("input", []), answers)
        return d is not None and d.key() == key


def minimise(binaries, target, data, key, answers, scratch, budget=150):
    """A smaller input with the same difference: chunks removed while it persists (at most `budget` tries)."""
    tries, chunk = 0, max(1, len(data) // 2)
    while chunk >= 1 and tries < budget:
        at, shrunk = 0, False
        while at < len(data) and tries < budget:
            candidate = data[:at] + data[at + chunk :]
            tries += 1
            if candidate and differs_alike(binaries, target, candidate, key, answers, scratch):
                data, shrunk = candidate, True
            else:
                at += chunk
        if not shrunk:
            chunk //= 2
    return data
