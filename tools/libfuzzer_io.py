"""What tools/fuzz and tools/versus-core both read from libFuzzer and from our fuzz binary: the files a failing
input is saved as, a target's dictionary and max_len, and the numbers in a fuzzing log."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Artifact names of an input that made a target fail (libFuzzer's -artifact_prefix files).
FAILURE_PREFIXES = ("crash-", "leak-", "timeout-", "oom-")
STATUS_RE = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?exec/s: (\d+) rss: (\d+)Mb")
STAT_RE = re.compile(r"^stat::(\w+):\s+(\d+)")


def dictionary(target):
    """corpus/<target>.dict, or None."""
    path = ROOT / "corpus" / f"{target}.dict"
    return path if path.is_file() else None


def target_max_len(binary, target):
    """The target's max_len from its generated .options, or None (engine default)."""
    out = subprocess.run([str(binary), f"--options={target}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    m = re.search(r"^max_len\s*=\s*(\d+)", out.stdout, re.M) if out.returncode == 0 else None
    return int(m[1]) if m else None


def last_status(path):
    """(execs, cov, ft, corpus, exec/s, rss) from a libFuzzer log's last status line, or None."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 65536))  # a long campaign's log is megabytes: its tail
            lines = f.read().decode(errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        m = STATUS_RE.match(line)
        if m:
            return tuple(int(x) for x in m.groups())
    return None


def final_stats(path):
    """Executions, exec/s, coverage and peak RSS of one libFuzzer process, from its log."""
    s = last_status(path) or (0, 0, 0, 0, 0, 0)
    out = {"execs": s[0], "exec_s": s[4], "cov": s[1], "rss": s[5]}
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return out
    stats = dict((m[1], int(m[2])) for m in map(STAT_RE.match, text.splitlines()) if m)
    out["execs"] = stats.get("number_of_executed_units", out["execs"])
    out["exec_s"] = stats.get("average_exec_per_sec", out["exec_s"])
    out["rss"] = stats.get("peak_rss_mb", out["rss"])
    return out
