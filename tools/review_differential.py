"""Step 2 of tools/review, the differential: every input replayed on both trees with the observation log,
the differences the suite does not declare kept, the most frequent minimised; and the known bugs' verdicts on
each side, which explain a difference where the trees differ on a bug (review_observe.py compares the logs)."""

import os
import subprocess

import review_observe
import review_report
import suite
from review_run import SIDES, StepFailed, first_error, run
from suite import ROOT, say

# How many distinct differences the differential minimises (each costs up to 150 replays on both trees).
MINIMISED = 5


class Differential:
    """Review's step 2 (a mixin of tools/review's Review: self.out, self.known_reports)."""

    def known_bug_verdicts(self, binary):
        """{known bug: "present" / "partly fixed" / "fixed" / "not applicable"} on a side, each decided by the
        binary running the inputs of the bug's forms (fuzz --known-bug=<name>, harness/known_bugs.h). A bug
        partly fixed is "partly fixed (still present: <forms>)"."""
        out = {}
        forms = {}
        for form in suite.known_bugs():
            forms.setdefault(form.name, []).append(form.form)
        for bug in suite.known_bug_names():
            text = run([binary, f"--known-bug={bug}"], f"deciding known bug {bug}")
            verdicts = {
                f"KNOWN BUG {bug} present": "present",
                f"KNOWN BUG {bug} partly fixed": "partly fixed",
                f"known bug {bug}: fixed": "fixed",
                f"known bug {bug}: not applicable": "not applicable",
            }
            said = [v for k, v in verdicts.items() if k in text]
            if len(said) != 1:
                raise StepFailed(f"fuzz --known-bug={bug} gave no verdict:\n{first_error(text)}")
            out[bug] = said[0]
            self.known_reports.setdefault(str(binary), {})[bug] = review_report.reports(text)
            if said[0] == "partly fixed":
                # "... still present: <form>: <what>; <form>: <what> (its checks ...); fixed: ..."
                still = text.split("still present: ", 1)[-1].split("; fixed: ", 1)[0]
                present = [f for f in forms[bug] if f"{f}: " in still]
                out[bug] += f" (still present: {', '.join(present)})"
        return out

    def explained_by_known_bug(self, binaries, known, target, path, logs):
        """The known bug that explains a difference on `path`: one whose verdict the trees differ on (present
        against fixed, or against partly fixed: other forms), where a side with a form of it skipped a step or
        check because of it (a `known bug skipped` record in its log: what follows is not comparable) or where
        the input, with the bug's checks on, fails one of the bug's forms' known ways there. Else None."""
        for bug in suite.known_bugs():
            if known["base"].get(bug.name) == known["head"].get(bug.name):
                continue
            # A side where the bug has some form: present, or partly fixed (with other forms than the other's).
            sides = [side for side in SIDES if known[side].get(bug.name, "").startswith(("present", "partly fixed"))]
            for side in sides:
                if f"known bug skipped: {bug.name}" in logs[side]:
                    return bug.name
            if bug.target != target:
                continue
            env = dict(
                os.environ,
                FUZZ=target,
                SUITE_CHECK_KNOWN_BUGS="1",
                SUITE_REPLAY_STOP_AT_FIRST="1",
                LLVM_PROFILE_FILE=str(self.out / "observe" / "known-bug.profraw"),
            )
            for side in sides:
                proc = subprocess.run(
                    [str(binaries[side]), str(path)],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    errors="replace",
                    timeout=review_observe.TIMEOUT_S,
                )
                if proc.returncode != 0 and bug.failure.search(proc.stdout):
                    return bug.name
        return None

    def inputs(self, target):
        files = {}
        for folder in (ROOT / "corpus" / target, self.out / "found" / target, self.out / "crashes" / target):
            if folder.is_dir():
                for f in sorted(folder.iterdir()):
                    if f.is_file():
                        files.setdefault(f.name, f)
        return [files[n] for n in sorted(files)]

    def differential(self, binaries, answers, known):
        targets = {side: set(suite.list_targets(b)) for side, b in binaries.items()}
        common = sorted(targets["base"] & targets["head"])
        one_sided = sorted(targets["base"] ^ targets["head"])
        differences, crashes, counts, explained = [], [], {}, {}
        by_change = {}  # {change row: {target: inputs whose records of that change differ}}
        for t in common:
            files = self.inputs(t)
            say(f"differential: {t}, {len(files)} inputs on both trees ...")
            # The head's replay leaves its coverage profile for step 4.
            logs = {
                side: review_observe.observe(
                    binaries[side],
                    t,
                    files,
                    self.out / "observe" / side,
                    self.out / "coverage" / t / "%p.profraw" if side == "head" else None,
                )
                for side in SIDES
            }
            counts[t] = len(files)
            for f in files:
                for change in review_observe.declared_changes(logs["base"][f.name], logs["head"][f.name], answers):
                    by_change.setdefault(change, {}).setdefault(t, 0)
                    by_change[change][t] += 1
                d = review_observe.first_difference(t, f.name, logs["base"][f.name], logs["head"][f.name], answers)
                if d and (
                    bug := self.explained_by_known_bug(
                        binaries, known, t, f, {side: logs[side][f.name] for side in SIDES}
                    )
                ):
                    explained[bug] = explained.get(bug, 0) + 1
                elif d:
                    differences.append((d, f))
        distinct = {}
        for d, f in differences:
            if d.key() not in distinct or f.stat().st_size < distinct[d.key()][1].stat().st_size:
                distinct[d.key()] = (d, f)
        minimised = []
        # The most frequent differences first; past MINIMISED of them the smallest input is shown as it is.
        ranked = sorted(distinct.items(), key=lambda kv: -sum(1 for x, _ in differences if x.key() == kv[0]))
        for rank, (key, (d, f)) in enumerate(ranked):
            data = f.read_bytes()
            if rank < MINIMISED:
                say(f"differential: minimising the smallest input of {d.target} differing at {d.base[:60]!r} ...")
                data = review_observe.minimise(
                    [binaries["base"], binaries["head"]], d.target, data, key, answers, self.out / "observe"
                )
            path = self.out / "differences" / d.target / f"min-{f.name}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            small = {
                side: review_observe.observe(binaries[side], d.target, [path], self.out / "observe" / "min" / side)
                for side in SIDES
            }
            dm = (
                review_observe.first_difference(
                    d.target, path.name, small["base"][path.name], small["head"][path.name], answers
                )
                or d
            )
            minimised.append(
                dict(
                    difference=dm,
                    inputs=sum(1 for x, _ in differences if x.key() == key),
                    input=path,
                    data=data,
                    minimised=rank < MINIMISED,
                )
            )
        return dict(
            counts=counts,
            one_sided=one_sided,
            distinct=minimised,
            total=len(differences),
            crashes=crashes,
            known_bugs=explained,
            by_change=by_change,
        )
