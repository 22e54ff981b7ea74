"""tools/review's report: report.md (the verdicts first, then each question's evidence), the one-screen
summary.txt, and a plot per speed measurement. Returns the exit status the verdicts give."""

import re
import statistics

import review_observe
import review_speed
import suite
from review_report_speed import chain_section, measured_phases, plot_flush, plot_ratios
from review_run import SIDES


def regression(tests):
    names = sorted(tests["base"].keys() | tests["head"].keys())
    head_only = [n for n in names if tests["base"].get(n, True) and not tests["head"].get(n, True)]
    both = [n for n in names if not tests["base"].get(n, True) and not tests["head"].get(n, True)]
    fixed = [n for n in names if not tests["base"].get(n, True) and tests["head"].get(n, True)]
    one_sided = [n for n in names if (n in tests["base"]) != (n in tests["head"])]
    return head_only, both, fixed, one_sided


# A ctest status line ("12/53 Test #15: replay.block_store_sim ....***Failed  4.51 sec").
STATUS_RE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(\**)(\w+)", re.M)
# The verdict line of a failure report (harness/failure_report.h, core/contracts.h).
VERDICT_RE = re.compile(
    r"^\s+(a finding against .*|a bug of the suite.*|a failure the node's callers would not handle.*)$", re.M
)


def findings(ctest_log):
    """{failing test: [(signature, verdict, the Core call in flight, input)]} from a ctest log run with
    --output-on-failure: each distinct failure report (harness/failure_report.h) of each failing test, its
    verdict being whose failure it is and why ("" where the report is a plain check's)."""
    out = {}
    marks = list(STATUS_RE.finditer(ctest_log))
    for i, m in enumerate(marks):
        if m[3] == "Passed" or m[3] == "Skipped" or m[3] == "Not":
            continue
        out[m[1]] = reports(ctest_log[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(ctest_log)])
    return out


def reports(text):
    """[(signature, verdict, the Core call in flight, input)]: each distinct failure report in `text`."""
    seen = {}
    for block in re.split(r"^(?=signature: )", text, flags=re.M)[1:]:
        signature = block.splitlines()[0].removeprefix("signature: ").strip()
        if signature in seen:
            continue
        verdict = VERDICT_RE.search(block)
        call = re.search(r"^\s+(Bitcoin Core call in flight: .*)$", block, re.M)
        data = re.search(r"^input: (.*)$", block, re.M)
        seen[signature] = (signature, verdict[1] if verdict else "", call[1] if call else "", data[1] if data else "")
    return list(seen.values())


def strict_problems(unanswered, tests, skipped):
    """What --strict fails on besides the verdict: every unanswered section, and every test that failed on
    either side ({side: {test: passed}}, None when a side ran none), a test ctest skipped excepted."""
    problems = [f"{section} not answered" for section in unanswered]
    for side, results in (tests or {}).items():
        problems += [
            f"{side}: {name} failed"
            for name, passed in (results or {}).items()
            if not passed and name not in skipped.get(side, ())
        ]
    return problems


def fuzz_crashes(review, fuzzing, binaries_base):
    """[(target, crash file, fails on the base too?)]."""
    import review_observe

    out = []
    for t, r in fuzzing.items():
        for crash in r["crashes"]:
            logs = review_observe.observe(binaries_base, t, [crash], review.out / "observe" / "crash-base")
            out.append((t, crash, any(r.startswith("crash: ") for r in logs[crash.name])))
    return out


def known_partly(known):
    """The known bugs partly fixed on the head: some of their forms still present there."""
    return [b for b, v in known["head"].items() if v.startswith("partly fixed")] if known else []


def known_bug_changes(known):
    """([known bugs the head fixes, wholly or partly, as "<bug> (partly: still present: <forms>)"], [present on
    the head only]). A verdict is "present", "partly fixed (still present: <forms>)", "fixed" or "not
    applicable" (tools/review: known_bug_verdicts)."""

    def state(side, bug):
        return known[side].get(bug, "").split(" (", 1)[0]

    present = ("present", "partly fixed")
    fixed = [
        b if state("head", b) == "fixed" else f"{b} (partly: {known['head'][b].split(' (', 1)[-1]}"
        for b in known["base"]
        if (state("base", b) == "present" and state("head", b) in ("fixed", "partly fixed"))
        or (state("base", b) == "partly fixed" and state("head", b) == "fixed")
    ]
    brought = [b for b in known["head"] if state("head", b) in present and state("base", b) not in present]
    return fixed, brought


def unanswered(review, *sections):
    """ "not answered: <why>" for the first of `sections` that could not be answered, else None."""
    why = next((review.unanswered[x] for x in sections if x in review.unanswered), None)
    return f"not answered: {why.splitlines()[0]}" if why else None


def unanswered_block(review, section):
    """The section's place in report.md when it could not be answered: the failing step and its first error
    lines."""
    return (
        [f"Not answered: {review.unanswered[section].splitlines()[0]}", "", "```"]
        + review.unanswered[section].splitlines()[1:]
        + ["```", ""]
    )


def write(review, r):
    out = review.out
    tests = r["tests"]
    head_only, both, fixed, one_sided = regression(tests) if tests else ([], [], [], [])
    fuzzing = r["fuzzing"] or {}
    crashes = fuzz_crashes(review, fuzzing, out / "bin" / "base" / "fuzz") if tests else []
    new_crashes = [c for c in crashes if not c[2]]
    diff = r["diff"]
    cov = r["coverage"]
    hit = sum(1 for v in cov["by_line"].values() if v) if cov else 0
    code = len(cov["by_line"]) if cov else 0
    changed_src = {f: lines for f, (lines, _) in review.lines.items()}
    manifest_files = set(suite.core_file_components())
    unreachable = sorted(f for f, lines in changed_src.items() if lines and f not in manifest_files)
    functions = suite.core_functions()

    known = r["known"] if len(r["known"]) == 2 and None not in r["known"].values() else None
    bugs_fixed, bugs_brought = known_bug_changes(known) if known else ([], [])

    # The verdict counts what was measured: an unanswered section neither passes nor fails the head.
    regress_ok = not head_only and not new_crashes and not bugs_brought
    diff_ok = not diff or not diff["distinct"]
    status = 0 if regress_ok and diff_ok else 1
    review.failures = (
        head_only
        + [f"known bug {b}" for b in bugs_brought]
        + [str(c[1]) for c in new_crashes]
        + ([d["difference"].key() for d in diff["distinct"]] if diff else [])
    )

    verdict = []
    verdict.append(
        (
            "Does the head still satisfy every property?",
            unanswered(review, "regression")
            or (
                ("yes" if regress_ok else "NO") + f": {len(tests['head'])} tests on the head, "
                f"{len(head_only)} failing only there, {len(both)} failing on both (pre-existing); "
                + (f"known bug(s) fixed by the head: {', '.join(bugs_fixed)}; " if bugs_fixed else "")
                + (f"known bug(s) the head brings: {', '.join(bugs_brought)}; " if bugs_brought else "")
                + "focused fuzzing: "
                + (
                    unanswered(review, "focused fuzzing")
                    or f"{len(crashes)} crash(es), {len(new_crashes)} not on the base"
                )
            ),
        )
    )
    verdict.append(
        (
            "Does it behave exactly like the base?",
            unanswered(review, "differential")
            or (
                ("yes" if diff_ok else "NO") + f": {sum(diff['counts'].values())} inputs of "
                f"{len(diff['counts'])} targets replayed on both, {diff['total']} differing in "
                f"{len(diff['distinct'])} distinct undeclared way(s)"
            ),
        )
    )
    verdict.append(
        (
            "Which changed lines did the tests execute?",
            unanswered(review, "patch coverage")
            or (
                f"{hit} of {code} changed code lines the suite's build holds ({pct(hit, code)}); changed "
                f"files no target of the suite reaches: {listed(unreachable)}"
            ),
        )
    )
    speed = r["speed"]
    micro_rows, flush_rows, chain_rows = [], [], []
    if speed:
        micro_rows = [
            review_speed.row(n, t, speed["instructions"].get(n)) for n, t in sorted(speed["bench_bitcoin"].items())
        ]
        flush_rows = [
            review_speed.row(f"flush, -dbbatchsize {mib} MiB", {s: [x[0] for x in v] for s, v in t.items()})
            for mib, t in sorted(speed["flush"].items())
        ]
        counted = speed["instructions"].get("chain", {})
        chain_rows = [
            review_speed.row(
                f"chain: {name}",
                speed["chain"][column],
                counted.get(column),
                review_speed.CHAIN_LEVELDB_FLOOR
                if column in review_speed.CHAIN_LEVELDB_PHASES
                else review_speed.INSTRUCTION_FLOOR,
            )
            for column, name in measured_phases(speed["chain"])
        ]
    if speed is None:
        verdict.append(("Does it pay?", unanswered(review, "speed") or "not measured (--quick or --skip-speed)"))
    elif not micro_rows and not flush_rows and not chain_rows:
        verdict.append(("Does it pay?", "no benchmark covers the touched components"))
    else:
        verdict.append(
            (
                "Does it pay?",
                "; ".join(
                    f"{w.name} head/base {w.ratio:.3f}"
                    + (f", instructions {w.instr_ratio:.3f}" if w.instr_ratio else "")
                    + f" ({w.verdict})"
                    for w in micro_rows + flush_rows + chain_rows
                ),
            )
        )

    md = [
        f"# Review: {r['names']['head']} against {r['names']['base']}",
        "",
        f"Command: `{r['command']}`  ",
        f"Machine: {r['machine']}  ",
        f"Date: {r['started']:%Y-%m-%d %H:%M} UTC  ",
        f"Verdict: **{'pass' if status == 0 else 'FAIL'}** (exit status {status})",
        "",
    ]
    md += ["| question | answer |", "|---|---|"] + [f"| {q} | {a} |" for q, a in verdict] + [""]
    md += [files_differing(review.changed, manifest_files), ""]

    md += [
        "## 1. Regression",
        "",
        "ctest in the suite's `review-test` build (`core-test` with coverage: unit properties, "
        "corpus replay, known-bug entries) of each tree.",
        "",
    ]

    def brought_how(bug):
        # Not applicable on the base: the code the bug lives in came with the change.
        return bug + (
            " (the base has not the code it is in: the change brought both)"
            if known["base"].get(bug) == "not applicable"
            else ""
        )

    if tests:
        md += [
            f"- failing on the head only: {', '.join(head_only) or 'none'}",
            f"- failing on both (pre-existing, not the change's): {', '.join(both) or 'none'}",
            f"- failing on the base only (fixed by the head): {', '.join(fixed) or 'none'}",
            f"- known Bitcoin Core bugs (the suite's docs/core-bugs.md), each decided on each tree by "
            f"running its input: fixed by the head: {', '.join(bugs_fixed) or 'none'}; present on the head "
            f"only (a regression): {', '.join(map(brought_how, bugs_brought)) or 'none'}; present on both: "
            + (
                ", ".join(b for b, v in known["head"].items() if v == "present" and b not in bugs_brought)
                if known
                else "unknown"
            )
            + ".",
            f"- on one side only (the trees' features differ): {', '.join(one_sided) or 'none'}",
            "",
        ]
        head_log = out / "logs" / "head-ctest.log"
        found = findings(head_log.read_text()) if head_log.is_file() else {}
        judged = [(t, f) for t in head_only for f in found.get(t, [])]
        # The forms of a known bug the head fixes only partly: each still present form's report on the head.
        judged += [(f"known bug {b}", f) for b in known_partly(known) for f in r.get("known_reports", {}).get(b, [])]
        if judged:
            md += [
                "Each distinct failure of those failing on the head only, and of the forms of a known bug the head "
                "leaves, as its report judges it (whose failure it is, and why; the Core call the adapter was in; "
                "the input):",
                "",
            ]
            for test, (signature, judgement, call, data) in judged:
                md += [
                    f"- `{test}`: `{signature}`" + (f" — {judgement}" if judgement else ""),
                    *([f"  {call}"] if call else []),
                    *([f"  input: `{data}`"] if data else []),
                ]
            md += [""]
    else:
        md += unanswered_block(review, "regression")

    md += [
        "## 2. Differential",
        "",
        "Every input of every corpus, and what the focused campaign found, replayed on both trees with the "
        "observation log (`SUITE_OBSERVE`): every step, every value a check compared, Core's memory figures, raw "
        "database records, block positions. Records tied to a Core change the trees answer differently are "
        "declared differences and not compared.",
        "",
    ]
    if diff:
        changes = {k: v for k, v in r["answers"].items() if len(set(v)) > 1}
        prs = review_observe.change_rows()
        by_change = diff.get("by_change", {})
        if not changes:
            md += ["Bitcoin Core changes the trees answer differently (core/*_features.h): none.", ""]
        else:
            md += [
                f"Bitcoin Core changes the trees answer differently (core/*_features.h): {len(changes)}; the "
                "records tied to them are declared differences. Inputs whose records of a change differ:",
                "",
                "| change | pull requests | base → head | inputs differing there |",
                "|---|---|---|---|",
            ]
            md += [
                f"| `{k}` | {prs.get(k, '')} | {v[0]} → {v[1]} | "
                + (", ".join(f"{t} {n}" for t, n in sorted(by_change.get(k, {}).items())) or "none")
                + " |"
                for k, v in sorted(changes.items())
            ] + [""]
        if diff["one_sided"]:
            md += [f"Targets on one side only (not compared): {', '.join(diff['one_sided'])}", ""]
        md += (
            ["| target | inputs |", "|---|---|"] + [f"| {t} | {n} |" for t, n in sorted(diff["counts"].items())] + [""]
        )
        for bug, n in sorted(diff.get("known_bugs", {}).items()):
            md += [
                f"Explained by the known bug {bug}, which one tree has and the other not (declared): {n} "
                "differing input(s), on each of which the tree that has it skipped a step or check because of "
                "it, or failed its known way with its check on.",
                "",
            ]
        if not diff["distinct"]:
            md += ["No undeclared difference.", ""]
        for d in diff["distinct"]:
            x = d["difference"]
            md += [
                f"### {x.target}: differs at `{x.base.split(': ', 1)[0]}`",
                "",
                f"{d['inputs']} input(s) differ this way; the smallest{', minimised' if d['minimised'] else ''}: "
                f"`{d['data'].hex()[:200]}` "
                f"({len(d['data'])} bytes, `{d['input'].relative_to(out)}`). First differing record, #{x.index}, "
                f"after the step `{x.step or '(none)'}`:",
                "",
                "```",
                f"base: {x.base}",
                f"head: {x.head}",
                "```",
                "",
            ]
    else:
        md += unanswered_block(review, "differential")

    md += [
        "## 3. Focused fuzzing",
        "",
        f"The head's `review-libfuzzer` build, {review.args.time} s per target from its corpus (libFuzzer "
        f"-seed={review.args.seed}), the targets of the components whose Core files the change touches and of "
        f"those that use them: {', '.join(r['targets']) or 'none'}.",
        "",
    ]
    if r["fuzzing"] is not None:
        md += ["| target | executions | exec/s | new inputs | crashes |", "|---|---|---|---|---|"]
        for t, x in r["fuzzing"].items():
            md.append(f"| {t} | {x['execs']} | {x['exec_s']} | {x['found']} | {len(x['crashes'])} |")
        for t, c, on_base in crashes:
            why = "fails on the base too: pre-existing" if on_base else "passes on the base: a regression"
            md.append(f"\n- {t}: `{c.name}` ({why})")
        md.append("")
    else:
        md += unanswered_block(review, "focused fuzzing")

    md += [
        "## 4. Patch coverage",
        "",
        "Changed lines of the head (a line diff of the two trees) that are code in the suite's build, executed "
        "or not by the head's replay of step 2 (every corpus and the focused campaign's finds).",
        "",
    ]
    if cov:
        md += ["| file | changed lines | code lines | executed |", "|---|---|---|---|"]
        codeless = 0
        for f, lines in sorted(changed_src.items()):
            rows = [k for k in cov["by_line"] if k[0] == f]
            if not rows and len(changed_src) > FILES_SHOWN:
                codeless += 1  # a long change: only the files with code in the suite's build get a row
                continue
            n_hit = sum(1 for k in rows if cov["by_line"][k])
            removed = review.lines[f][1]
            note = f" (and {removed} removed)" if removed else ""
            md.append(f"| `{f}` | {len(lines)}{note} | {len(rows)} | {n_hit} ({pct(n_hit, len(rows))}) |")
        if codeless:
            md += ["", f"{codeless} more changed files have no code line in the suite's build."]
        md += ["", "Per target (changed code lines executed):", "", "| target | executed |", "|---|---|"]
        for t, counts in sorted(cov["per_target"].items()):
            n = sum(1 for v in counts.values() if v)
            if n:
                md.append(f"| {t} | {n} |")
        missed = sorted(k for k, v in cov["by_line"].items() if not v)
        md += ["", f"Changed code lines no input executed ({len(missed)}):", ""]
        if missed:
            lines = [
                f"{f}:{n}: {(review.trees['head'] / f).read_text(errors='replace').splitlines()[n - 1].strip()[:120]}"
                for f, n in missed
            ]
            (out / "unexecuted.txt").write_text("\n".join(lines) + "\n")
            md += ["```"] + lines[:MISSED_SHOWN] + ["```"]
            if len(lines) > MISSED_SHOWN:
                md.append(f"The first {MISSED_SHOWN}; all {len(lines)} are in unexecuted.txt beside this report.")
        md.append("")
    else:
        md += unanswered_block(review, "patch coverage")
    for f in sorted(changed_src):
        if f in functions and changed_src[f]:
            md.append(
                f"- `{f}`: the suite drives only `{functions[f]}` of this file (seam/components.json); its other "
                "changed lines are not the suite's to reach."
            )
    if unreachable:
        md.append(
            f"- No test of the suite can reach changed lines of: {', '.join(f'`{f}`' for f in unreachable)} "
            "(no component lists these files)."
        )
    md.append("")

    md += ["## 5. Speed", ""]
    if speed is None and "speed" in review.unanswered:
        md += unanswered_block(review, "speed")
    elif speed is None:
        md += ["Not measured in this run (--quick or --skip-speed).", ""]
    else:
        md += [
            f"Base and head alternate, {review.args.repetitions} repetitions (base first, then head first, "
            "alternately); the ratio head/base is taken per repetition, its median reported with its range over "
            "the repetitions. *Resolves* is the smallest change this run can tell from the machine: the largest "
            "difference between two consecutive runs of the same code (base after base, head after head). "
            "Instructions are callgrind's count of one iteration of the benchmark (inside nanobench's run, "
            f"{review_speed.INSTRUCTION_RUNS} runs per side), which repeats exactly whatever the machine does; "
            f"a difference of instructions under {review_speed.INSTRUCTION_FLOOR:.1%}, or under their own "
            "spread, is none. A change is beyond noise when the wall time moves farther than the run resolves "
            "(its range excluding 1) and the instruction counts agree (where the counts differ, also when it "
            "does so once each side's run farthest from its median is left out, which the verdict then says); "
            "a wall-time move with equal instruction "
            "counts is the machine's, or time outside the CPU's instructions (the ratio stays in the table).",
            "",
        ]
    if micro_rows:
        md += [
            "Bitcoin Core's bench_bitcoin (Release), the touched components' benchmarks; median time per operation:",
            "",
            "| benchmark | base | head | head/base | range | resolves | instructions base | head/base | verdict |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        md += [
            f"| {w.name} | {fmt_time(w.base)} | {fmt_time(w.head)} | {w.ratio:.3f} | {w.low:.3f}–{w.high:.3f} | "
            f"±{w.resolution:.1%} | "
            + (f"{w.instr_base:,.0f} | {w.instr_ratio:.4f} | " if w.instr_ratio else "not counted | — | ")
            + f"{w.verdict} |"
            for w in micro_rows
        ]
        md += ["", "![bench_bitcoin](speed.png)", ""]
        plot_ratios(out / "speed.png", micro_rows)
    if flush_rows:
        md += [
            f"The suite's flush sweep (bench_flush, core-bench preset) on Core's CCoinsViewDB on disk: a cache of "
            f"{review.args.flush_coins} new coins flushed into a fresh database, one child process per flush; "
            "flush time and peak RSS (wall time only: its cost is the disk's):",
            "",
            "| -dbbatchsize | base | head | head/base | range | resolves | verdict | peak MiB base | peak MiB head |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for w, (mib, t) in zip(flush_rows, sorted(speed["flush"].items())):
            peaks = {s: statistics.median(p for _, p in t[s]) for s in SIDES}
            md.append(
                f"| {mib} MiB | {fmt_time(w.base)} | {fmt_time(w.head)} | {w.ratio:.3f} | {w.low:.3f}–{w.high:.3f} "
                f"| ±{w.resolution:.1%} | {w.verdict} | {peaks['base']:.0f} | {peaks['head']:.0f} |"
            )
        md += ["", "![flush](flush.png)", ""]
        plot_flush(out / "flush.png", speed["flush"])
    if chain_rows:
        md += chain_section(review, speed["chain"], chain_rows)

    md += ["## Cost", "", "| step | seconds |", "|---|---|"]
    md += [f"| {k} | {v:.0f} |" for k, v in review.timings.items()] + [""]
    (out / "report.md").write_text("\n".join(md) + "\n")
    summary = [f"review: {r['names']['head']}", f"  against {r['names']['base']}", ""]
    summary += [f"{q}\n  {a}" for q, a in verdict]
    summary += ["", f"verdict: {'pass' if status == 0 else 'FAIL'}; report: report.md beside this summary"]
    (out / "summary.txt").write_text("\n".join(summary) + "\n")
    print("\n".join(summary[:-1] + [f"verdict: {'pass' if status == 0 else 'FAIL'}; report: {out / 'report.md'}"]))
    return status


# How many unexecuted changed lines the report shows; how many differing files it names beyond the components'.
MISSED_SHOWN = 200
FILES_SHOWN = 40


def files_differing(changed, manifest_files):
    """The report's line of differing files: every one when few, else the components' files and a count."""

    def name(f):
        return f"`{f}` ({changed[f]})"

    if len(changed) <= FILES_SHOWN:
        return f"Files differing: {len(changed)}: " + ", ".join(map(name, changed))
    ours = [f for f in changed if f in manifest_files]
    kinds = {}
    for status in changed.values():
        kinds[status] = kinds.get(status, 0) + 1
    return (
        f"Files differing: {len(changed)} ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}); "
        f"those of the suite's components (seam/components.json): " + (", ".join(map(name, ours)) or "none")
    )


def listed(names, shown=8):
    """A one-line list for a verdict: at most `shown` names, then how many more the report lists."""
    if len(names) <= shown:
        return ", ".join(names) or "none"
    return f"{', '.join(names[:shown])} and {len(names) - shown} more (listed in section 4)"


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "—"


def fmt_time(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"
