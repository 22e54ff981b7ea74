"""What the steps of tools/review share: the two sides, and running one step of a section."""

import suite
from suite import ROOT

SIDES = ("base", "head")

# A step of a section that fails leaves the section unanswered, and the review goes on (Review.attempt).
StepFailed, first_error = suite.StepFailed, suite.first_error


def run(cmd, what, log=None, env=None, cwd=ROOT):
    """Runs a step, its output into `log` (a fresh one) or captured; raises StepFailed when it fails."""
    if log:
        log.unlink(missing_ok=True)
    return suite.step(cmd, what, log=log, env=env, cwd=cwd, on_failure="raise").output
