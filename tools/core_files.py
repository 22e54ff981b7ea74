"""How to read the coverage of Bitcoin Core's files that hold what the suite tests, from llvm-cov.

Shared by tools/coverage (the core flavor's report) and tools/versus-core (the head-to-head comparison), so
both count the same lines the same way. Which files those are, per component, is the manifest's
core_files; a file listed in a component's core_functions is counted by that function only.
"""

import json
import subprocess
from pathlib import Path

import suite

FILES = tuple(suite.core_file_components())
FUNCTIONS = suite.core_functions()
SUITE_ROOT = suite.ROOT


def label(filename, core_dir):
    """The Core file `filename` is (one of FILES), or None. By suffix: a ccache hit may carry the path of the
    tree it was first compiled in. A file of this repository outside `core_dir` is never Core's: the
    embedded subject has its own src/prevector.h."""
    path = Path(filename).resolve()
    if SUITE_ROOT in path.parents and Path(core_dir).resolve() not in path.parents:
        return None
    return next((f for f in FILES if str(path).endswith("/" + f)), None)


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def file_summaries(export_json, core_dir):
    """{Core file: [lines covered, lines, branches covered, branches]} from `llvm-cov export -summary-only`,
    without the files counted by function (FUNCTIONS)."""
    out = {}
    for f in json.loads(export_json)["data"][0]["files"]:
        name = label(f["filename"], core_dir)
        if name and name not in FUNCTIONS:
            s = f["summary"]
            out[name] = add(
                out.get(name, [0, 0, 0, 0]),
                [s["lines"]["covered"], s["lines"]["count"], s["branches"]["covered"], s["branches"]["count"]],
            )
    return out


def function_summary(objects, profdata, filename, needle):
    """[lines covered, lines, branches covered, branches] of the functions of `filename` whose demangled name
    contains `needle`, from `llvm-cov report -show-functions`."""
    text = subprocess.run(
        [
            "llvm-cov-19",
            "report",
            "-show-functions",
            "-Xdemangler=c++filt",
            *map(str, objects),
            f"-instr-profile={profdata}",
            str(filename),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    ).stdout
    t = [0, 0, 0, 0]
    for line in text.splitlines():
        if needle in line:
            # ... Regions Miss Cover Lines Miss Cover Branches Miss Cover
            c = line.split()[-9:]
            lines, lmiss, branches, bmiss = int(c[3]), int(c[4]), int(c[6]), int(c[7])
            t = add(t, [lines - lmiss, lines, branches - bmiss, branches])
    return t


def pct(covered, count):
    return 100.0 * covered / count if count else 100.0


def source_path(export_json, name, core_dir):
    """The path llvm-cov knows Core's file `name` by, or None if the data has no such file."""
    return next(
        (
            Path(f["filename"])
            for f in json.loads(export_json)["data"][0]["files"]
            if label(f["filename"], core_dir) == name
        ),
        None,
    )
