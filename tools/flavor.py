"""Which subject a tool builds and runs: the embedded one in src/ (default) or Bitcoin Core's own classes.

`--core DIR` (or `--core` alone, taking $BITCOIN_CORE_DIR) selects Bitcoin Core: the tool then uses the
core-<preset> presets, whose builds compile Core's kernel library from DIR, and keeps its output apart
from the embedded subject's.
"""
import os
from pathlib import Path

# What a Bitcoin Core source tree holds (cmake/BitcoinCore.cmake checks the same files, then whether the
# tree is in the supported range).
CORE_TREE_FILES = ("CMakeLists.txt", "src/coins.h", "src/txdb.h", "src/kernel/CMakeLists.txt")


def add_argument(parser):
    parser.add_argument(
        "--core", nargs="?", const=os.environ.get("BITCOIN_CORE_DIR", ""), metavar="DIR",
        help="run against Bitcoin Core's classes from the source tree DIR (default: $BITCOIN_CORE_DIR)")


class Flavor:
    def __init__(self, core_dir):
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


def from_args(args, die):
    """The Flavor the parsed arguments ask for; calls die(message) for a directory that is not Core's."""
    if args.core is None:
        return Flavor(None)
    if args.core == "":
        die("--core needs a directory: give --core DIR or set BITCOIN_CORE_DIR")
    path = Path(args.core).expanduser().resolve()
    missing = [f for f in CORE_TREE_FILES if not (path / f).is_file()]
    if missing:
        die(f"--core {args.core} is not a Bitcoin Core source tree: expected {path / missing[0]} "
            f"(name the top of a checkout, the folder holding src/coins.h)")
    return Flavor(path)
