"""Step 3 of tools/review, focused fuzzing: the targets of the components the change touches fuzz the head, in
parallel, one process each."""

import os
import subprocess
import time

import review_trees
import suite
from suite import ROOT, say

RSS_LIMIT_MB = 2048


class FocusedFuzzing:
    """Review's step 3 (a mixin of tools/review's Review: self.args, self.out, self.changed)."""

    def focused_targets(self):
        """The targets of the components whose Core files the change touches, and of the components that use
        those (the coins store's flush runs the coins cache's code)."""
        touched = {c.name for c in review_trees.touched_components(self.changed)}
        return [
            t for c in suite.components().values() if c.name in touched or touched & set(c.uses) for t in c.fuzz_targets
        ]

    def fuzz(self, binary, targets):
        jobs = max(1, min(self.args.parallel, len(targets)))
        say(f"head: focused fuzzing, {self.args.time} s per target, {jobs} at a time: {', '.join(targets) or 'none'}")
        results, running, queue = {}, [], list(targets)
        while queue or running:
            while queue and len(running) < jobs:
                t = queue.pop(0)
                found, crashes = self.out / "found" / t, self.out / "crashes" / t
                found.mkdir(parents=True, exist_ok=True)
                crashes.mkdir(parents=True, exist_ok=True)
                cmd = [
                    str(binary),
                    str(found),
                    str(ROOT / "corpus" / t),
                    f"-max_total_time={self.args.time}",
                    f"-artifact_prefix={crashes}/",
                    f"-rss_limit_mb={RSS_LIMIT_MB}",
                    "-timeout=60",
                    "-print_final_stats=1",
                    f"-seed={self.args.seed}",
                    *suite.libfuzzer_flags(binary, t),
                ]
                log = self.out / "logs" / f"fuzz-{t}.log"
                env = dict(os.environ, FUZZ=t)
                running.append(
                    (
                        t,
                        subprocess.Popen(
                            cmd,
                            env=env,
                            cwd=self.out,
                            stdout=subprocess.DEVNULL,
                            stderr=open(log, "w"),
                            start_new_session=True,
                        ),
                        log,
                    )
                )
            time.sleep(1)
            for entry in [e for e in running if e[1].poll() is not None]:
                running.remove(entry)
                t, _, log = entry
                stats = suite.run_stats(log)
                results[t] = dict(
                    stats,
                    found=len(list((self.out / "found" / t).iterdir())),
                    crashes=suite.failure_artifacts(self.out / "crashes" / t),
                )
        return results
