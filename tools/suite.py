"""What the tools share: the repository root, the error exit and the step runner (one exit-status rule), the
flags every tool spells alike, the component manifest (seam/components.json), and what they read from
libFuzzer and from the suite's fuzz binary.

A tool imports it with `sys.path.insert(0, <tools/>)` and `import suite`. Python 3 standard library only.
"""

import argparse
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "seam" / "components.json"
# The running tool's name, the prefix of everything it prints about itself ("fuzz: ...").
TOOL = Path(sys.argv[0]).name


def die(message, status=2):
    """Prints "<tool>: message" on stderr and exits with `status` (2: a usage, set-up or build error)."""
    print(f"{TOOL}: {message}", file=sys.stderr)
    sys.exit(status)


def say(message):
    """Prints "<tool>: message" on stdout, at once."""
    print(f"{TOOL}: {message}", flush=True)


# ---- Running the steps of a tool: one helper, one exit-status rule.
#
# Every tool exits 0 when what it checks holds, 1 when it does not (a crash found, a gate missed, a review's
# head failing), and 2 on a usage or set-up error: a bad argument, a missing tool, a failed configure or
# build (EXIT_SETUP).

# Folders that builds, campaigns, reviews and CI write into a checkout: none of them is the repository's.
GENERATED_DIRS = {"build", "fuzz-out", "review-out", "versus-out", "bench-out", ".git"}

EXIT_FAILED = 1  # the thing the tool checks failed
EXIT_SETUP = 2  # usage or set-up, a failed build included


class StepFailed(Exception):
    """A step that failed, for a caller that goes on (e.g. tools/review answers its other sections)."""


# The lines of a build's output that say what went wrong first (a compiler's or a linker's error).
ERROR_LINE = re.compile(r"error[: ]|FAILED:|undefined reference|CMake Error", re.I)
# A compiler's command line as Ninja echoes it for a failed step: long, and full of this machine's paths.
COMMAND_LINE = re.compile(r"^\S*/(?:ccache|clang\+\+-\d+|clang-\d+|c\+\+|g\+\+) ")


def first_error(output, lines=6):
    """The first error line of a step's output and a few after it; else the output's last lines."""
    text = [line for line in output.splitlines() if not COMMAND_LINE.match(line)]
    at = next((i for i, line in enumerate(text) if ERROR_LINE.search(line)), max(0, len(text) - lines))
    return "\n".join(line[:200] for line in text[at : at + lines])


@dataclass
class Done:
    status: int
    output: str  # standard output, and error output unless the step kept it apart (`stderr`)


def step(
    cmd,
    what,
    *,
    log=None,
    env=None,
    cwd=None,
    capture=True,
    stdout=None,
    stderr=True,
    on_failure="stop",
    status=EXIT_SETUP,
):
    """Runs one step of a tool, `cmd`, which messages call `what`, and returns a Done.

    Output: captured (`capture`), its standard and error output together unless `stderr` is False (then
    the error output is shown, and only standard output is kept, for a caller that parses it); appended to
    `log`, after a `$ <command>` line, when a log is named; not captured, it goes to the terminal, or the
    standard output to `stdout` (an open file). A failure (a non-zero exit):
      on_failure="stop": the output's tail is shown, then "<tool>: <what> failed" and exit `status`
                         (EXIT_SETUP for configure, build and other set-up; EXIT_FAILED for a step whose
                         failure is the answer);
      on_failure="raise": StepFailed, with the output's first error lines and where the log is;
      on_failure="return": the Done, for the caller to judge."""
    cmd = [str(c) for c in cmd]
    if capture:
        proc = subprocess.run(
            cmd,
            cwd=cwd or ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if stderr else None,
            text=True,
            errors="replace",
        )
    else:
        proc = subprocess.run(cmd, cwd=cwd or ROOT, env=env, stdout=stdout)
    done = Done(proc.returncode, proc.stdout or "")
    if log:
        Path(log).parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}\n{done.output}\n")
    if done.status == 0 or on_failure == "return":
        return done
    if on_failure == "raise":
        where = f"; the whole output: {Path(log).parent.name}/{Path(log).name}" if log else ""
        raise StepFailed(f"{what} failed (exit {done.status}){where}:\n{first_error(done.output)}")
    sys.stderr.write(done.output[-6000:])
    die(f"{what} failed: {' '.join(cmd)}", status)


# ---- Flags: one spelling per idea. An old spelling stays accepted as a hidden alias of the same dest.


def add_alias(parser, old, dest, **kw):
    """Accepts `old` as a spelling of `dest` without showing it in --help."""
    parser.add_argument(old, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kw)


def add_time(parser, default, help, aliases=(), flag="--time", whole=False):
    """A duration in seconds: --time (also -t) for a tool's main one, --<what>-time for another. `whole`: an
    integer number of seconds (what libFuzzer's -max_total_time takes)."""
    names = ["-t", flag] if flag == "--time" else [flag]
    dest = flag[2:].replace("-", "_")
    kind = whole_seconds if whole else seconds
    parser.add_argument(*names, dest=dest, type=kind, default=default, metavar="SECONDS", help=help)
    for old in aliases:
        add_alias(parser, old, dest, type=kind)


def seconds(text):
    """argparse type of a duration: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"needs a positive number of seconds, got '{text}'")
    return value


def whole_seconds(text):
    """argparse type of a duration in whole seconds, at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of seconds, at least 1, got '{text}'")
    return int(text)


class ListAction(argparse.Action):
    """A repeatable flag whose values may also be comma-separated: --target a --target b,c -> [a, b, c]."""

    def __call__(self, parser, namespace, values, option_string=None):
        items = list(getattr(namespace, self.dest, None) or [])
        items += [v for v in values.split(",") if v]
        setattr(namespace, self.dest, items)


def add_list(parser, flag, dest, help, metavar, aliases=()):
    """A ListAction flag, [] when not given."""
    parser.add_argument(flag, dest=dest, action=ListAction, default=[], metavar=metavar, help=help)
    for old in aliases:
        add_alias(parser, old, dest, action=ListAction)


def add_targets(parser, help="a fuzz target (repeatable, or comma-separated; default: every target)"):
    add_list(parser, "--target", "targets", help, "NAME")


# ---- How recorded results name what a run used: never by this machine's paths.


def shown_path(path):
    """A path as a recorded result shows it: relative to the repository inside it, else `<its last part>`."""
    path = Path(path).expanduser().resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return f"<{path.name}>"


def shown_command(tool, argv):
    """The command as run, each absolute path argument (alone or as a flag's `=` value) shown by shown_path."""

    def show(arg):
        flag, eq, value = arg.partition("=") if arg.startswith("-") else ("", "", arg)
        return flag + eq + (shown_path(value) if Path(value).is_absolute() else value)

    return " ".join([f"tools/{tool}", *map(show, argv)])


def tree_name(path):
    """A Bitcoin Core tree as a recorded result names it: by its commit (a git checkout; "+ local changes" when
    its files differ from it), else by a digest of its src/ files, so that the name says what was built on any
    machine."""
    path = Path(path).expanduser().resolve()
    git = lambda *a: subprocess.run(
        ["git", "-C", str(path), *a],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    if (path / ".git").exists() and (head := git("rev-parse", "HEAD")).returncode == 0:
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
        return f"{shown_path(path)} (commit {head.stdout.strip()[:12]}{' + local changes' if dirty else ''})"
    digest = hashlib.sha256()
    for f in sorted(p for p in (path / "src").rglob("*") if p.is_file()):
        digest.update(str(f.relative_to(path)).encode() + b"\0" + f.read_bytes())
    return f"{shown_path(path)} (no git history; sha256 of its src/ files {digest.hexdigest()[:12]})"


# ---- The subject: the embedded one in src/ (default) or Bitcoin Core's classes from a source tree (--core).

# What makes a folder a Bitcoin Core source tree the kernel library can be built from (cmake/BitcoinCore.cmake
# checks the same files); which classes it has is the feature probe's business.
CORE_TREE_FILES = ("CMakeLists.txt", "src/kernel/CMakeLists.txt")


def add_core(parser):
    """--core DIR, or --core alone for $BITCOIN_CORE_DIR; read back with flavor(args)."""
    parser.add_argument(
        "--core",
        nargs="?",
        const=os.environ.get("BITCOIN_CORE_DIR", ""),
        metavar="DIR",
        help="run against Bitcoin Core's classes from the source tree DIR (default: $BITCOIN_CORE_DIR)",
    )


class Flavor:
    """Which subject a tool builds and runs. Against Core the tool uses the core-<preset> presets, whose
    builds compile Core's kernel library from core_dir, and keeps its output apart from the embedded one's."""

    def __init__(self, core_dir=None):
        self.core_dir = core_dir

    @property
    def core(self):
        return self.core_dir is not None

    def preset(self, name):
        """The preset that builds `name` (test, libfuzzer, coverage, ...) for this subject."""
        return f"core-{name}" if self.core else name

    def env(self):
        """The environment for cmake: BITCOIN_CORE_DIR set for Core, left alone otherwise."""
        return dict(os.environ, BITCOIN_CORE_DIR=str(self.core_dir)) if self.core else dict(os.environ)

    def describe(self):
        return f"Bitcoin Core at {self.core_dir}" if self.core else "the embedded subject (src/)"


def flavor(args):
    """The Flavor that --core asks for; dies when the directory is not a Bitcoin Core tree."""
    if args.core is None:
        return Flavor()
    if args.core == "":
        die("--core needs a directory: give --core DIR or set BITCOIN_CORE_DIR")
    path = Path(args.core).expanduser().resolve()
    missing = [f for f in CORE_TREE_FILES if not (path / f).is_file()]
    if missing:
        die(
            f"--core {args.core} is not a Bitcoin Core source tree: expected {path / missing[0]} "
            f"(name the top of a checkout, the folder holding src/coins.h)"
        )
    return Flavor(path)


# ---- The component manifest.

# The keys of a component (and of "shared") that list files of this repository.
FILE_KEYS = ("seam", "embedded", "core_adapters", "harness")


@dataclass(frozen=True)
class Component:
    """One entry of the manifest's "components". A list the entry omits is empty."""

    name: str
    summary: str = ""
    seam: tuple = ()
    embedded: tuple = ()
    core_adapters: tuple = ()
    harness: tuple = ()
    uses: tuple = ()
    fuzz_targets: tuple = ()
    unit_suites: tuple = ()
    extra_tests: tuple = ()  # ctest -R regexes of the component's tests beyond replay.* and unit.*
    core_files: tuple = ()  # relative to the top of a Bitcoin Core tree
    core_functions: dict = field(default_factory=dict)  # core file -> the function counted alone
    core_fuzz_targets: tuple = ()
    core_nearest: dict = field(default_factory=dict)  # fuzz target -> Core's fuzz target nearest to it
    core_test_suites: tuple = ()
    core_benchmarks: str = ""  # a bench_bitcoin -filter regex of Core's benchmarks of the component
    suite_benchmarks: tuple = ()  # the suite's programs on disk (bench/, core-bench preset) that time it
    note: str = ""

    def files(self):
        return [f for key in FILE_KEYS for f in getattr(self, key)]

    def suite_tests(self):
        """The ctest -R regex of the component's tests in a build: each target's corpus replay, each unit
        suite, and its extra_tests."""
        parts = [rf"replay\.{re.escape(t)}" for t in self.fuzz_targets]
        parts += [rf"unit\.{re.escape(s)}" for s in self.unit_suites]
        return "^(" + "|".join(parts + list(self.extra_tests)) + ")$"


@functools.cache
def manifest():
    """seam/components.json as parsed JSON; dies when it is missing or malformed."""
    name = MANIFEST.relative_to(ROOT)
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError) as e:
        die(f"{name}: cannot read the component manifest: {e}")
    if not isinstance(data, dict) or not isinstance(data.get("components"), list):
        die(f'{name}: the component manifest needs a "components" list')
    data.setdefault("shared", {})
    return data


@functools.cache
def components():
    """{name: Component} in manifest order."""
    known = Component.__dataclass_fields__
    out = {}
    for entry in manifest()["components"]:
        if not isinstance(entry, dict) or "name" not in entry:
            die(f"{MANIFEST.relative_to(ROOT)}: a component entry without a name: {str(entry)[:80]}")
        kw = {k: (tuple(v) if isinstance(v, list) else v) for k, v in entry.items() if k in known}
        out[entry["name"]] = Component(**kw)
    return out


def shared():
    """The manifest's "shared": {key: [files]} of what every component uses (plus its "about")."""
    return manifest()["shared"]


def target_components():
    """{fuzz target: component name}."""
    return {t: c.name for c in components().values() for t in c.fuzz_targets}


def check_target_names(names):
    """Dies naming any of `names` that is no fuzz target of the manifest: before a tool builds anything, so a
    typo costs no build. (A target the manifest has may still be off for a Core tree; the binary says.)"""
    known = target_components()
    unknown = [n for n in names if n not in known]
    if unknown:
        die(f"unknown target(s): {', '.join(unknown)}; known targets: {', '.join(known)}")


# A row of harness/known_bugs.h, one form of a bug:
# X(kEnumerator, "bug", "form", "target", "input hex", "failure regex", ...).
KNOWN_BUG_ROW = re.compile(
    r'X\(k[A-Za-z]+, "([a-z_]+)", "([a-z_]+)", "([a-z_]+)",[\s\\]*"[0-9a-f]*",[\s\\]*'
    r'"((?:[^"\\]|\\.)*)"'
)


@dataclass
class KnownBug:
    name: str  # the bug's
    form: str
    target: str
    failure: re.Pattern  # what the form's input's failure prints


@functools.cache
def known_bugs():
    """The forms of the known Bitcoin Core bugs of harness/known_bugs.h, in its order."""
    text = (ROOT / "harness" / "known_bugs.h").read_text()
    forms = [
        KnownBug(m[1], m[2], m[3], re.compile(m[4].encode().decode("unicode_escape")))
        for m in KNOWN_BUG_ROW.finditer(text)
    ]
    if len(forms) != len(re.findall(r"^\s*X\(k", text, re.M)):
        die("harness/known_bugs.h: a row of HARNESS_KNOWN_BUGS is not in the form tools/suite.py reads")
    return forms


def known_bug_names():
    """The known bugs' names, each once, in harness/known_bugs.h's order."""
    return list(dict.fromkeys(form.name for form in known_bugs()))


def core_file_components():
    """{Bitcoin Core file: component name}, the files in manifest order."""
    return {f: c.name for c in components().values() for f in c.core_files}


def core_functions():
    """{Bitcoin Core file: the function (a demangled-name substring) that alone is counted of it}."""
    return {f: needle for c in components().values() for f, needle in c.core_functions.items()}


def median(values):
    """The median of `values` (the mean of the middle two of an even count); 0 for none."""
    v = sorted(values)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2 if v else 0


# ---- libFuzzer's output, and our fuzz binary's.

# Artifact names of an input that made a target fail (libFuzzer's -artifact_prefix files).
FAILURE_PREFIXES = ("crash-", "leak-", "timeout-", "oom-")
# An input slower than -report_slow_units: saved beside the failures, not one itself.
SLOW_PREFIX = "slow-unit-"
# "#1234  NEW    cov: 310 ft: 987 corp: 45/2301b lim: 48 exec/s: 617 rss: 41Mb ..."
STATUS_RE = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?exec/s: (\d+) rss: (\d+)Mb")
# -print_final_stats=1: "stat::number_of_executed_units: 5120"
STAT_RE = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
# What the suite's HARNESS_CHECK prints first: "signature: <target>:<op>:<file>:<line>".
SIGNATURE_RE = re.compile(r"^signature: (\S.*?)\s*$", re.M)


@dataclass(frozen=True)
class Status:
    """One libFuzzer status line."""

    execs: int
    event: str  # INITED, NEW, REDUCE, pulse, DONE, ...
    cov: int
    ft: int
    corpus: int
    exec_s: int
    rss: int


def statuses(text):
    """Every status line of a libFuzzer log, in order."""
    return [Status(int(m[1]), m[2], *map(int, m.groups()[2:])) for m in map(STATUS_RE.match, text.splitlines()) if m]


def read_tail(path, size=65536):
    """The last `size` bytes of a file as text ("" if unreadable): a long campaign's log is megabytes."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - size))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def last_status(path):
    """The last status line of a libFuzzer log file, or None."""
    found = statuses(read_tail(path))
    return found[-1] if found else None


def final_stats(text):
    """{name: value} of the stat:: lines -print_final_stats=1 prints."""
    return {m[1]: int(m[2]) for m in STAT_RE.finditer(text)}


def run_stats(path):
    """Executions, exec/s, coverage, peak RSS and new inputs of one libFuzzer process, from its log file:
    the final stat:: lines where it printed them (it does not when killed), else its last status line. Reads
    the last MiB: a failure's operation trace may push the last status line far from the end."""
    text = read_tail(path, 1 << 20)
    found = statuses(text)
    last = found[-1] if found else Status(0, "", 0, 0, 0, 0, 0)
    stats = final_stats(text)
    return {
        "execs": stats.get("number_of_executed_units", last.execs),
        "exec_s": stats.get("average_exec_per_sec", last.exec_s),
        "cov": last.cov,
        "rss": stats.get("peak_rss_mb", last.rss),
        "new": stats.get("new_units_added"),
    }


def failure_artifacts(folder, skip=(), slow=False):
    """The inputs libFuzzer saved in `folder` as failing (with slow=True also the slow ones), sorted, except
    the names in `skip`."""
    prefixes = FAILURE_PREFIXES + ((SLOW_PREFIX,) if slow else ())
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.startswith(prefixes) and p.name not in skip)


def harness_signature(report):
    """The "<target>:<op>:<file>:<line>" of the first harness failure in a report, or None (no harness
    check failed: a sanitizer, the C++ runtime or the engine stopped the run)."""
    m = SIGNATURE_RE.search(report)
    return m[1] if m else None


# A report's line that says what went wrong, most telling first: a sanitizer's, a harness check's, UBSan's,
# an assert's or an uncaught exception's, then the engine's own verdict (which for all of those but the
# sanitizers' is only "libFuzzer: deadly signal").
REPORT_LINES = (
    r"ERROR: \w+Sanitizer: .*",
    r"HARNESS_CHECK failed at .*",
    r"^signature: .*",
    r"\S+: runtime error: .*",
    r".*Assertion .* failed.*",
    r"terminate called after throwing .*",
    r"ERROR: libFuzzer: .*",
)
# Without such a report: anything that says it failed (a Boost.Test or ctest summary).
FALLBACK_LINES = (r".*\b(?:error|failed|Failed|FAILED)\b.*",)


def failure_report(text, width=160, patterns=REPORT_LINES):
    """The line of a sanitizer, harness or engine report that best says why a run failed, without the
    sanitizer's "==pid==ERROR: " prefix and cut to `width`; None when the text holds no such report."""
    for pattern in patterns:
        m = re.search(pattern, text, re.M)
        if m:
            return m[0].strip().removeprefix("ERROR: ")[:width]
    return None


def failure_summary(text, width=160):
    """failure_report(), else the first line that says something failed, else "no message"."""
    return failure_report(text, width) or failure_report(text, width, FALLBACK_LINES) or "no message"


def dictionary(target):
    """corpus/<target>.dict, or None."""
    path = ROOT / "corpus" / f"{target}.dict"
    return path if path.is_file() else None


def engine_options(binary, target):
    """The [libfuzzer] section the fuzz binary's --options=<target> prints, as {name: value}. Dies when the
    binary cannot answer."""
    proc = subprocess.run(
        [str(binary), f"--options={target}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    if proc.returncode != 0:
        die(f"`{binary} --options={target}` failed ({proc.returncode}): {proc.stderr.strip()[:300]}")
    return dict(re.findall(r"^(\w+)\s*=\s*(\S+)\s*$", proc.stdout, re.M))


def max_len(binary, target):
    """The target's max_len (engine_options); 0 when every length matters."""
    return int(engine_options(binary, target).get("max_len", 0))


def libfuzzer_flags(binary, target):
    """What a libFuzzer run of the target takes as OSS-Fuzz gives it: -dict= with corpus/<target>.dict and
    every other option of its .options file (max_len, the schedule) as -name=value."""
    flags = [f"-dict={d}"] if (d := dictionary(target)) else []
    flags += [f"-{name}={value}" for name, value in engine_options(binary, target).items() if name != "dict"]
    return flags


def list_targets(binary):
    """The targets a fuzz binary hosts (`fuzz --list`); dies when it cannot say."""
    proc = subprocess.run([str(binary), "--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        die(f"`{binary} --list` failed ({proc.returncode}): {proc.stderr.strip()[:300]}")
    return proc.stdout.split()
