"""Step 5 of tools/review, speed: Bitcoin Core's bench_bitcoin and the suite's benchmark programs built for
each side and run interleaved, with callgrind's instruction counts beside the times (review_speed.py turns
them into the verdict)."""

import json
import os
import shutil

import review_speed
from review_run import SIDES, run
from suite import say

# The flush sweep's batch limits (-dbbatchsize), MiB: the range of the measurements behind -dbbatchsize.
FLUSH_MIB = "1,2,4,8,16,32,64,128,256,512"


class Benchmarks:
    """Review's step 5 (a mixin of tools/review's Review: self.args, self.out, self.tree, self.build)."""

    def bench_build(self, side, suite_benches):
        """{benchmark program: its copy under bin/<side>/}: Bitcoin Core's bench_bitcoin, and the suite's
        programs `suite_benches` (bench_flush, bench_chain) on Core's classes (the core-bench preset)."""
        build_dir = self.out / "build" / "bench_bitcoin"
        logs = self.out / "logs"
        say(f"{side}: building Bitcoin Core's bench_bitcoin (Release) ...")
        run(
            [
                "cmake",
                "-S",
                self.tree,
                "-B",
                build_dir,
                "-G",
                "Ninja",
                "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_C_COMPILER=clang-19",
                "-DCMAKE_CXX_COMPILER=clang++-19",
                "-DBUILD_BENCH=ON",
                "-DBUILD_TESTS=OFF",
                "-DBUILD_DAEMON=OFF",
                "-DBUILD_CLI=OFF",
                "-DBUILD_TX=OFF",
                "-DBUILD_UTIL=OFF",
                "-DBUILD_WALLET_TOOL=OFF",
                "-DBUILD_FUZZ_BINARY=OFF",
                "-DBUILD_GUI=OFF",
                "-DENABLE_WALLET=OFF",
                "-DENABLE_IPC=OFF",
                "-DWITH_ZMQ=OFF",
                "-DENABLE_EXTERNAL_SIGNER=OFF",
                "-DWITH_CCACHE=ON",
                "-DINSTALL_MAN=OFF",
            ],
            f"configuring bench_bitcoin for the {side}",
            logs / f"{side}-bench_bitcoin-configure.log",
        )
        env = dict(os.environ, CCACHE_BASEDIR=str(self.out), CCACHE_NOHASHDIR="1")
        run(
            ["cmake", "--build", build_dir, "--target", "bench_bitcoin"],
            f"building bench_bitcoin for the {side}",
            logs / f"{side}-bench_bitcoin-build.log",
            env,
        )
        programs = {"bench_bitcoin": build_dir / "bin" / "bench_bitcoin"}
        if suite_benches:
            built = self.build("core-bench", side) / "bench"
            programs.update((name, built / name) for name in suite_benches)
        out = {}
        for name, program in programs.items():
            out[name] = self.out / "bin" / side / name
            out[name].parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(program, out[name])
        return out

    def speed(self, benches, pattern):
        """{"bench_bitcoin": {benchmark: {side: [seconds per op]}}, "flush": {batch MiB: {side: [(seconds, peak
        MiB)]}}}, one value per repetition, the sides interleaved (base first on even repetitions, head first on
        odd ones); "chain": {CSV column: {side: [value]}} of bench_chain; and "instructions": {benchmark: {side:
        [count]}} of one iteration, where callgrind counted (review_speed)."""
        micro, flush, chain = {}, {}, {}
        for rep in range(self.args.repetitions):
            for side in SIDES if rep % 2 == 0 else SIDES[::-1]:
                say(f"speed: repetition {rep + 1}/{self.args.repetitions}, {side} ...")
                if pattern:
                    result = self.out / "bench" / f"{side}-{rep}.json"
                    result.parent.mkdir(parents=True, exist_ok=True)
                    run(
                        [
                            benches[side]["bench_bitcoin"],
                            f"-filter={pattern}",
                            f"-min-time={round(self.args.min_time * 1000)}",
                            f"-output-json={result}",
                        ],
                        f"bench_bitcoin of the {side}",
                        self.out / "logs" / f"bench-{side}-{rep}.log",
                    )
                    for r in json.loads(result.read_text())["results"]:
                        micro.setdefault(r["name"], {s: [] for s in SIDES})[side].append(
                            r["median(elapsed)"] / r["batch"]
                        )
                if "bench_flush" in benches[side]:
                    csv = run(
                        [
                            benches[side]["bench_flush"],
                            "--dir",
                            self.out / "bench" / "flush-db",
                            "--coins",
                            self.args.flush_coins,
                            "--batch-mib",
                            FLUSH_MIB,
                            "--runs",
                            1,
                        ],
                        f"bench_flush of the {side}",
                        self.out / "logs" / f"flush-{side}-{rep}.log",
                    )
                    for line in csv.splitlines()[1:]:
                        mib, _, _, seconds, _, _, peak, _ = line.split(",")
                        flush.setdefault(int(mib), {s: [] for s in SIDES})[side].append((float(seconds), float(peak)))
                if "bench_chain" in benches[side]:
                    csv = run(
                        [
                            benches[side]["bench_chain"],
                            "--dir",
                            self.out / "bench" / "chain-db",
                            "--blocks",
                            self.args.chain_blocks,
                        ],
                        f"bench_chain of the {side}",
                        self.out / "logs" / f"chain-{side}-{rep}.log",
                    ).splitlines()
                    for line in csv[1:]:
                        for column, value in zip(csv[0].split(","), line.split(",")):
                            chain.setdefault(column, {s: [] for s in SIDES})[side].append(float(value))
        shutil.rmtree(self.out / "bench" / "flush-db", ignore_errors=True)
        shutil.rmtree(self.out / "bench" / "chain-db", ignore_errors=True)
        instructions = {}
        if chain:
            instructions["chain"] = self.chain_instructions(benches)
        counted = {side: review_speed.without_debug_info(benches[side]["bench_bitcoin"]) for side in SIDES}
        for name in sorted(micro):
            for run_ in range(review_speed.INSTRUCTION_RUNS):
                for side in SIDES:
                    say(f"speed: instructions of {name}, {side} ({run_ + 1}/{review_speed.INSTRUCTION_RUNS}) ...")
                    count = review_speed.count_instructions(
                        counted[side],
                        name,
                        self.out / "bench" / f"callgrind-{side}.out",
                        self.out / "logs" / f"callgrind-{name}-{side}-{run_}.log",
                    )
                    if count:
                        instructions.setdefault(name, {s: [] for s in SIDES})[side].append(count)
        return {"bench_bitcoin": micro, "flush": flush, "chain": chain, "instructions": instructions}

    def chain_instructions(self, benches):
        """{bench_chain CSV column: {side: [count]}}: callgrind's count of each phase in the workload's counted
        run (review_speed.CHAIN_COUNTED), INSTRUCTION_RUNS times per side, the total as the sum of the phases."""
        counted = {side: review_speed.without_debug_info(benches[side]["bench_chain"]) for side in SIDES}
        args = [a for k, v in review_speed.CHAIN_COUNTED.items() for a in (f"--{k}", v)]
        out = {}
        for run_ in range(review_speed.INSTRUCTION_RUNS):
            for side in SIDES:
                say(
                    f"speed: instructions of bench_chain's phases, {side} ({run_ + 1}/{review_speed.INSTRUCTION_RUNS}) ..."
                )
                counts = review_speed.count_phase_instructions(
                    counted[side],
                    ["--dir", self.out / "bench" / "chain-count-db", *args],
                    review_speed.CHAIN_PHASE_PREFIX,
                    self.out / "bench" / "callgrind-chain",
                    self.out / "logs" / f"callgrind-chain-{side}-{run_}.log",
                )
                if counts:
                    counts["total"] = sum(counts.values())
                for phase, count in counts.items():
                    out.setdefault(f"{phase}_s", {s: [] for s in SIDES})[side].append(count)
        shutil.rmtree(self.out / "bench" / "chain-count-db", ignore_errors=True)
        return out
