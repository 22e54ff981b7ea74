"""The two Bitcoin Core trees tools/review compares: checking them out, what differs between them, and the one
scratch copy both are built from.

Both sides are built in one scratch tree (`materialize`), rewritten file by file: a file that differs gets a
new modification time, the others keep theirs, so the second side's build recompiles only what the change
touches (Ninja), and ccache, keyed on the scratch tree's fixed path, serves unchanged files across runs and
clones.
"""

import difflib
import filecmp
import os
import shutil
import subprocess
from pathlib import Path

import suite

# What of a Core checkout is not its source: version control (a folder, or in a worktree a file) and, below,
# in-tree build directories.
SKIP_DIRS = {".git"}


def is_build_dir(path):
    return (path / "CMakeCache.txt").is_file()


def source_files(tree):
    """{relative path: Path} of the tree's files (symlinks as such), without .git and build directories."""
    out = {}
    for folder, dirs, files in os.walk(tree):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not is_build_dir(here / d))
        for name in files:
            if name in SKIP_DIRS:
                continue  # a git worktree's .git is a file naming its repository
            path = here / name
            out[str(path.relative_to(tree))] = path
    return out


def same_file(a, b):
    if a.is_symlink() or b.is_symlink():
        return a.is_symlink() and b.is_symlink() and os.readlink(a) == os.readlink(b)
    return filecmp.cmp(a, b, shallow=False)


def changed_files(base, head):
    """{relative path: "modified" | "added" | "deleted"} between two trees."""
    a, b = source_files(base), source_files(head)
    out = {}
    for rel in sorted(a.keys() | b.keys()):
        if rel not in b:
            out[rel] = "deleted"
        elif rel not in a:
            out[rel] = "added"
        elif not same_file(a[rel], b[rel]):
            out[rel] = "modified"
    return out


def read_lines(path):
    try:
        return path.read_text(errors="replace").splitlines()
    except (FileNotFoundError, IsADirectoryError):
        return []


def changed_lines(base_file, head_file):
    """(the head's line numbers that are new or changed, the number of the base's lines removed without a
    replacement), from a line diff of the two versions of one file."""
    a, b = read_lines(base_file), read_lines(head_file)
    lines, removed = set(), 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            lines.update(range(j1 + 1, j2 + 1))
        elif tag == "delete":
            removed += i2 - i1
    return lines, removed


def materialize(tree, scratch):
    """Makes `scratch` a copy of `tree`, writing only the files that differ; returns how many it wrote or
    removed."""
    want = source_files(tree)
    scratch.mkdir(parents=True, exist_ok=True)
    have = source_files(scratch)
    touched = 0
    for rel in have.keys() - want.keys():
        have[rel].unlink()
        touched += 1
    for rel, src in want.items():
        dst = scratch / rel
        if rel in have and same_file(src, dst):
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        else:
            shutil.copyfile(src, dst)  # a new modification time: the build sees the change
            shutil.copymode(src, dst)
        touched += 1
    return touched


def check_tree(path, flag):
    """`path` resolved, or death when it is not a Bitcoin Core tree."""
    path = Path(path).expanduser().resolve()
    missing = [f for f in suite.CORE_TREE_FILES if not (path / f).is_file()]
    if missing:
        suite.die(
            f"{flag} {path}: not a Bitcoin Core source tree (no {missing[0]}); name the top of a checkout, "
            "the folder holding src/coins.h"
        )
    return path


def git_worktree(repo, rev, where):
    """Checks revision `rev` of the git repository `repo` out into `where` (git worktree, detached); returns
    (path, the commit's full id)."""

    def git(*args, cwd=repo):
        proc = subprocess.run(["git", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            suite.die(f"git {' '.join(args)} in {cwd}: {proc.stderr.strip()[:400]}")
        return proc.stdout.strip()

    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    if where.exists():
        if (where / ".git").exists() and git("rev-parse", "HEAD", cwd=where) == commit:
            return where, commit
        git("worktree", "remove", "--force", str(where))
    where.parent.mkdir(parents=True, exist_ok=True)
    git("worktree", "add", "--detach", str(where), commit)
    return where, commit


def touched_components(changed):
    """The components (seam/components.json) whose Bitcoin Core files `changed` ({file: status}) changes or adds."""
    touched = {f for f, status in changed.items() if status != "deleted"}
    return [c for c in suite.components().values() if touched & set(c.core_files)]
