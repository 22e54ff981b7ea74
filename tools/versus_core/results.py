"""tools/versus-core: the latest table of each measurement, versus/results/latest-<topic>.md."""

import shutil

from suite import ROOT, say


def record_latest(report_md, topic, whole):
    """versus/results/latest-<topic>.md, which docs/versus-core.md links to, becomes this run's report when the
    run measured the whole topic; a dated copy worth keeping is the user's to add."""
    latest = ROOT / "versus" / "results" / f"latest-{topic}.md"
    if not whole:
        say(f"a part of the {topic} measurement: {latest.relative_to(ROOT)} is left as it is")
        return
    shutil.copyfile(report_md, latest)
    say(f"{report_md} is now {latest.relative_to(ROOT)} (commit it, with a dated copy, to keep it)")
