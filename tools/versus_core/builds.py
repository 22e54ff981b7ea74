"""tools/versus-core: the builds both sides run from (Bitcoin Core's fuzz binary and tests, the suite's presets
over the same Core libraries), the copy of the user's tree they are built from, and running each side's
fuzz targets and tests."""

import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import suite
from suite import ROOT

COMPONENTS = suite.components()
COVERAGE_FLAGS = "-fprofile-instr-generate -fcoverage-mapping"


# Core's fuzz binary and test_bitcoin from one build, so a planted bug recompiles Core's libraries once, not
# twice. -DBUILD_FOR_FUZZING=ON would switch the tests off; what it changes in the fuzz binary is only that
# the fuzz determinism and aborting Assume() are compile-time constants, and Core's fuzz main turns on the
# same determinism at run time in a build with ABORT_ON_FAILED_ASSUME (util/check.h, test/fuzz/fuzz.cpp).
# Release (-O2, assertions kept) with line tables only: full debug info would slow Core's long build by a
# good part and adds nothing to a sanitizer's file:line report. Coverage instrumentation is in the same
# build (as Core's contrib/devtools/deterministic-fuzz-coverage does it) rather than in a second build of
# everything: on 2 cores that second build would double the hours a cold run takes; both sides pay its
# run-time cost alike, and the counts of lines and branches run do not depend on the sanitizers.
CORE_FUZZ = [
    "-DBUILD_FUZZ_BINARY=ON",
    "-DBUILD_TESTS=ON",
    "-DSANITIZERS=fuzzer,address,undefined",
    "-DAPPEND_CPPFLAGS=-DABORT_ON_FAILED_ASSUME",
    "-DCMAKE_BUILD_TYPE=Release",
    f"-DCMAKE_C_FLAGS=-gline-tables-only {COVERAGE_FLAGS}",
    f"-DCMAKE_CXX_FLAGS=-gline-tables-only {COVERAGE_FLAGS}",
    "-DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate",
]


# --speed: the same build without coverage counters (they cost both sides run time, unequally), and without
# test_bitcoin; the suite's side is the core-libfuzzer preset over it.
CORE_SPEED = [f for f in CORE_FUZZ if "profile-instr" not in f and f != "-DBUILD_TESTS=ON"] + [
    "-DBUILD_TESTS=OFF",
    "-DCMAKE_C_FLAGS=-gline-tables-only",
    "-DCMAKE_CXX_FLAGS=-gline-tables-only",
]


# Core's build targets the suite links (cmake/BitcoinCore.cmake, SUITE_CORE_LIBS_DIR).
CORE_LIBS = [
    "bitcoin_node",
    "bitcoin_common",
    "bitcoin_consensus",
    "bitcoin_util",
    "bitcoin_clientversion",
    "bitcoin_crypto",
    "secp256k1",
    "minisketch",
    "leveldb",
    "crc32c",
    "univalue",
]


# The suite's presets, each linking Core's build (SUITE_CORE_LIBS_DIR): its tests as in core-test, its fuzz
# binary with coverage counters in our code as well (Core's templates instantiated there).
PRESETS = {"libfuzzer": "versus-libfuzzer", "test": "core-test", "speed": "core-libfuzzer"}


# Core's tests draw a new random seed on every run unless RANDOM_CTX_SEED names one. A fixed one (the user's
# own RANDOM_CTX_SEED wins) makes a control's or a bug's verdict reproducible.
CORE_TEST_SEED = os.environ.get("RANDOM_CTX_SEED", "0x5eed")


# Seconds a side's tests may run: a planted bug can make a test loop or deadlock, which counts as failing.
TEST_TIMEOUT = 900


# Switched off in Core's build: what neither side needs (the GUI, wallet, IPC, ZMQ, daemons).
CORE_OFF = [
    "-DENABLE_WALLET=OFF",
    "-DENABLE_IPC=OFF",
    "-DWITH_ZMQ=OFF",
    "-DENABLE_EXTERNAL_SIGNER=OFF",
    "-DBUILD_GUI=OFF",
    "-DINSTALL_MAN=OFF",
    "-DBUILD_BENCH=OFF",
    "-DBUILD_DAEMON=OFF",
    "-DBUILD_CLI=OFF",
    "-DBUILD_TX=OFF",
    "-DBUILD_UTIL=OFF",
    "-DBUILD_WALLET_TOOL=OFF",
    "-DBUILD_BITCOIN_BIN=OFF",
    "-DBUILD_UTIL_CHAINSTATE=OFF",
    "-DBUILD_KERNEL_LIB=OFF",
    "-DBUILD_KERNEL_TEST=OFF",
]


def run(cmd, what, cwd=ROOT, env=None, log=None):
    """Runs a set-up step; its output goes to `log` (or is shown when it fails), and a failure stops the tool."""
    return suite.step(cmd, what, log=log, env=env, cwd=cwd).output


class Tree:
    """OUT/src: the copy of the user's tree that is built and patched (the user's checkout is never edited)."""

    def __init__(self, source, copy):
        self.source, self.path = source, copy

    def sync(self):
        """Makes the copy equal to the source. A file whose content differs is copied with a new time stamp,
        so Ninja rebuilds it (a restored older time stamp would leave a patched object in place); an equal
        one is left alone. Top-level build*/ and .git are not copied."""
        wanted = set()
        for top, dirs, files in os.walk(self.source):
            rel = Path(top).relative_to(self.source)
            if rel == Path("."):
                dirs[:] = [d for d in dirs if not d.startswith("build") and d != ".git"]
            for name in files:
                src, dst = Path(top) / name, self.path / rel / name
                wanted.add(dst)
                if not dst.exists() or dst.stat().st_size != src.stat().st_size or dst.read_bytes() != src.read_bytes():
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dst)
                    shutil.copymode(src, dst)
        for top, _, files in os.walk(self.path):
            for name in files:
                if Path(top) / name not in wanted:
                    (Path(top) / name).unlink()

    def apply(self, patch, reverse=False, check=False):
        cmd = ["git", "apply", *(["--check"] if check else []), *(["-R"] if reverse else []), str(patch)]
        # Outside any repository, so paths are the tree's own even when OUT lies inside a git checkout.
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(self.path.parent))
        return subprocess.run(cmd, cwd=self.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


class Builds:
    """Core's build and the suite's two, all of OUT/src."""

    def __init__(self, out, tree, env, speed=False, suite_only=False):
        self.out, self.tree, self.env, self.speed, self.suite_only = out, tree, env, speed, suite_only
        self.log = out / "logs" / "build.log"
        b = out / "build"
        self.core_fuzz = b / ("core-fuzz-speed" if speed else "core-fuzz")
        self.suite = {p: b / f"suite-{p}" for p in ("libfuzzer", "test", "speed")}
        fuzz_preset = "speed" if speed else "libfuzzer"
        self.binaries = {
            "core fuzz": self.core_fuzz / "bin" / "fuzz",
            "core test_bitcoin": self.core_fuzz / "bin" / "test_bitcoin",
            "suite fuzz": self.suite[fuzz_preset] / "fuzz" / "fuzz",
            "suite unit_tests": self.suite["test"] / "unit" / "unit_tests",
        }
        if suite_only:
            self.binaries = {"suite fuzz": self.binaries["suite fuzz"]}

    def core(self, build, args, targets):
        cmd = [
            "cmake",
            "-S",
            self.tree.path,
            "-B",
            build,
            "-G",
            "Ninja",
            "-DCMAKE_C_COMPILER=clang-19",
            "-DCMAKE_CXX_COMPILER=clang++-19",
            "-DWITH_CCACHE=ON",
            *CORE_OFF,
            *args,
        ]
        stamp = build / "versus-configure.txt"  # configured once per set of options (Core's configure is slow)
        if (
            not (build / "CMakeCache.txt").exists()
            or not stamp.exists()
            or stamp.read_text() != " ".join(map(str, cmd))
        ):
            shutil.rmtree(build, ignore_errors=True)
            run(cmd, f"configuring Bitcoin Core ({build.name})", env=self.env, log=self.log)
            stamp.write_text(" ".join(map(str, cmd)))
        run(
            ["cmake", "--build", build, "--target", *targets],
            f"building Bitcoin Core ({build.name})",
            env=self.env,
            log=self.log,
        )

    def suite_preset(self, preset):
        build = self.suite[preset]
        cache = build / "CMakeCache.txt"
        # A build configured from another checkout of the suite would go on compiling that one's sources.
        if cache.exists() and f"CMAKE_HOME_DIRECTORY:INTERNAL={ROOT}\n" not in cache.read_text(errors="replace"):
            shutil.rmtree(build)
        if not cache.exists():
            run(
                [
                    "cmake",
                    "--preset",
                    PRESETS[preset],
                    "-B",
                    build,
                    f"-DBITCOIN_CORE_DIR={self.tree.path}",
                    f"-DSUITE_CORE_LIBS_DIR={self.core_fuzz}",
                ],
                f"configuring the suite's {PRESETS[preset]} preset",
                env=self.env,
                log=self.log,
            )
        run(["cmake", "--build", build], f"building the suite's {PRESETS[preset]} preset", env=self.env, log=self.log)

    def all(self):
        """Both fuzz binaries and both sides' tests, of the tree as it is now; with --speed the fuzz binaries;
        suite_only: Core's libraries and the suite's fuzz binary."""
        if self.speed:
            self.core(self.core_fuzz, CORE_SPEED, CORE_LIBS if self.suite_only else ["fuzz"])
            self.suite_preset("speed")
            return
        self.core(self.core_fuzz, CORE_FUZZ, ["fuzz", "test_bitcoin"])
        self.suite_preset("libfuzzer")
        self.suite_preset("test")

    def text_hashes(self):
        """{binary: SHA-256 of its .text section}: what a patch must change (debug info moves with any edit)."""
        out = {}
        for name, path in self.binaries.items():
            dump = self.out / "logs" / "text.bin"
            run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", path, dump], f"reading {path}'s code")
            out[name] = hashlib.sha256(dump.read_bytes()).hexdigest()
            dump.unlink()
        return out


class Sides:
    """How to run each side's fuzz targets and tests."""

    def __init__(self, builds, tree, core_seeds):
        self.b, self.tree, self.core_seeds = builds, tree, core_seeds
        supp = tree.path / "test" / "sanitizer_suppressions"
        # Core's own suppressions (as its CI uses them) for both sides: both run Core's code.
        self.env = dict(
            os.environ,
            UBSAN_OPTIONS=f"suppressions={supp / 'ubsan'}:print_stacktrace=1:halt_on_error=1:report_error_type=1",
            LSAN_OPTIONS=f"suppressions={supp / 'lsan'}",
            # The suite's binaries default to OSS-Fuzz's fake-stack and quarantine sizes
            # (harness/check.cpp); named here, Core's binaries run with the same.
            ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:"
            "max_uar_stack_size_log=16:quarantine_size_mb=10",
            # Every binary here is coverage-instrumented; only coverage() keeps what a run writes.
            LLVM_PROFILE_FILE=str(builds.out / "logs" / "discarded.profraw"),
            RANDOM_CTX_SEED=CORE_TEST_SEED,
        )

    def fuzz_command(self, side, target):
        if side == "core":
            return [self.b.binaries["core fuzz"]]
        binary = self.b.binaries["suite fuzz"]
        return [binary, *suite.libfuzzer_flags(binary, target)]

    def targets(self, side, comp):
        """The component's targets of `side` that this tree's binary has: Core's grow with its tree (the
        overlay's targets exist from Core #34165 on), so a pairing may name targets an older tree lacks."""
        names = comp.fuzz_targets if side == "suite" else comp.core_fuzz_targets
        if side == "core":
            if not hasattr(self, "_core_targets"):
                proc = subprocess.run(
                    [str(self.b.binaries["core fuzz"])],
                    env=dict(self.env, PRINT_ALL_FUZZ_TARGETS_AND_ABORT="1"),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
                self._core_targets = set(proc.stdout.split())
            names = tuple(t for t in names if t in self._core_targets)
        return names

    def seeds(self, side, target):
        d = ROOT / "corpus" / target if side == "suite" else (self.core_seeds / target if self.core_seeds else None)
        return d if d and d.is_dir() and any(d.iterdir()) else None

    def fuzz(self, side, target, seconds, work, seeded, seed=1, snapshots=()):
        """Fuzzes one target; returns its record (crash or not, seconds, executions, exec/s, the crash). At each
        of `snapshots` (seconds from the start, below `seconds`) the corpus so far is copied to
        WORK/corpus-at-<s>."""
        corpus, artifacts = work / "corpus", work / "artifacts"
        shutil.rmtree(work, ignore_errors=True)
        corpus.mkdir(parents=True)
        artifacts.mkdir()
        dirs = [corpus] + ([seeds] if seeded and (seeds := self.seeds(side, target)) else [])
        cmd = [
            *self.fuzz_command(side, target),
            *dirs,
            f"-max_total_time={max(1, round(seconds))}",
            f"-seed={seed}",
            "-print_final_stats=1",
            f"-artifact_prefix={artifacts}/",
            "-timeout=20",
            "-rss_limit_mb=2048",
        ]
        log = work / "fuzz.log"
        start = time.monotonic()
        with open(log, "w") as f:
            f.write(f"FUZZ={target} {' '.join(map(str, cmd))}\n")
            f.flush()
            proc = subprocess.Popen(list(map(str, cmd)), env=dict(self.env, FUZZ=target), stdout=f, stderr=f)
            for at in sorted(snapshots):
                try:
                    proc.wait(timeout=max(0.0, start + at - time.monotonic()))
                except subprocess.TimeoutExpired:
                    pass
                snapshot(corpus, work / f"corpus-at-{at:g}")
            proc.wait()
        elapsed = time.monotonic() - start
        text = log.read_text(errors="replace")
        crashes = suite.failure_artifacts(artifacts)
        stats = suite.run_stats(log)
        execs = stats["execs"]
        rec = {
            "target": target,
            "seconds": round(elapsed, 1),
            "execs": execs,
            "exec_s": round(execs / elapsed) if elapsed else 0,
            "corpus": sum(1 for _ in corpus.iterdir()),
            "rss_mb": stats["rss"],
        }
        if crashes:
            rec["crash"] = str(crashes[0])
            rec["input_hex"] = crashes[0].read_bytes()[:64].hex()
            rec["reason"] = suite.failure_summary(text)
        elif proc.returncode != 0:
            rec["error"] = f"exit {proc.returncode}: {suite.failure_summary(text)} (log {log})"
        return rec

    def fuzz_side(self, side, targets, total, work, seeded, stop_at_crash):
        """One side's targets one after another, `total` seconds shared evenly; the side's record."""
        records = []
        for t in targets:
            records.append(self.fuzz(side, t, total / len(targets), work / t, seeded))
            if stop_at_crash and first_failure(records) is not None:
                break
        return {"found": first_failure(records), "targets": records}

    def tests(self, side, comp, log):
        """(passed?, what failed) for the side's tests of the component. A run that outlasts TEST_TIMEOUT fails."""
        if side == "suite":
            cmd = [
                "ctest",
                "--test-dir",
                self.b.suite["test"],
                "-R",
                comp.suite_tests(),
                "--output-on-failure",
                "--timeout",
                str(TEST_TIMEOUT),
            ]
        else:
            # A planted bug can abort inside a test case. Boost.Test would catch the signal, jump out of the
            # case past its fixture's destructor and go on with the process's globals (gArgs) left locked:
            # the next case deadlocks. Without the catch the abort ends the run, a failure like any other.
            cmd = [
                self.b.binaries["core test_bitcoin"],
                f"--run_test={':'.join(comp.core_test_suites)}",
                "--log_level=test_suite",
                "--catch_system_errors=no",
            ]
        try:
            proc = subprocess.run(
                list(map(str, cmd)),
                env=self.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                timeout=TEST_TIMEOUT,
            )
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            with open(log, "a") as f:
                f.write(f"$ {' '.join(map(str, cmd))}\n{out}\n(timed out after {TEST_TIMEOUT} s)\n")
            return False, [f"timed out after {TEST_TIMEOUT} s"]
        with open(log, "a") as f:
            f.write(f"$ {' '.join(map(str, cmd))}\n{proc.stdout}\n")
        failed = (
            re.findall(r"^\s*\d+ - (\S+) \(Failed\)", proc.stdout, re.M)
            if side == "suite"
            else sorted(set(re.findall(r"error: in \"([^\"]+)\"", proc.stdout)))
        )
        return proc.returncode == 0, failed or ([suite.failure_summary(proc.stdout)] if proc.returncode else [])


def snapshot(corpus, dest):
    """Copies the inputs of a corpus a running libFuzzer writes to. It names each input by the SHA-1 of its
    bytes, so one caught half-written is recognised and left out, and it deletes an input it has replaced by a
    shorter one, perhaps while the copy runs."""
    dest.mkdir(parents=True, exist_ok=True)
    for f in corpus.iterdir():
        try:
            data = f.read_bytes()
        except FileNotFoundError:
            continue
        if hashlib.sha1(data).hexdigest() == f.name:
            (dest / f.name).write_bytes(data)


def first_failure(records):
    """Seconds of a side's fuzzing (its targets one after another) until a target first failed, or None. A
    target that dies without saving an input (a planted bug can abort it while it sets up) fails too."""
    elapsed = 0.0
    for rec in records:
        elapsed += rec["seconds"]
        if "crash" in rec or "error" in rec:
            return round(elapsed, 1)
    return None


def side_budget(comp, seconds):
    """Each side's seconds for the component: `seconds` per target, times the larger side's target count."""
    return seconds * max(len(comp.fuzz_targets), len(comp.core_fuzz_targets))


def both_sides(fn):
    """Runs fn("suite") and fn("core") at the same time (each fuzzes on its own core); returns both results."""
    res = {}
    threads = [threading.Thread(target=lambda s=s: res.__setitem__(s, fn(s))) for s in ("suite", "core")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return res
