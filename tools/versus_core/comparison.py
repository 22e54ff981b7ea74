"""tools/versus-core's default mode: campaigns, coverage of Core's files and planted bugs per component, and
the report (results.md, results.json, results.png)."""

import json
import shutil
import subprocess

import core_files
from versus_core.builds import COMPONENTS, both_sides, run, side_budget
from versus_core.patches import bug_plan, natural
from suite import ROOT, die, say


def campaigns(sides, names, args, out, results):
    for mode in ("empty", "seeds"):
        for name in names:
            comp = COMPONENTS[name]
            total = side_budget(comp, args.time)
            targets = {s: sides.targets(s, comp) for s in ("suite", "core")}

            def runs(s, mode=mode, targets=targets, total=total):  # both_sides calls it at once
                if mode == "seeds" and not any(sides.seeds(s, t) for t in targets[s]):
                    return None
                return sides.fuzz_side(s, targets[s], total, out / "campaign" / mode / s, mode == "seeds", False)

            say(
                f"campaign ({'from ' + mode + ' corpus' if mode == 'empty' else 'from seeds'}): {name}, "
                f"{total:g} s per side"
            )
            results.setdefault("campaigns", {}).setdefault(mode, {})[name] = both_sides(runs)


def coverage(builds, sides, names, out, results):
    """Replays each side's campaign corpora, of this run or an earlier one (their fuzz binaries carry coverage
    instrumentation); lines and branches of Core's files."""
    for mode in ("empty", "seeds"):
        for name in names:
            if name not in results.get("campaigns", {}).get(mode, {}):
                continue
            comp = COMPONENTS[name]
            for side, targets in ((s, sides.targets(s, comp)) for s in ("suite", "core")):
                dirs = {t: [out / "campaign" / mode / side / t / "corpus"] for t in targets}
                if mode == "seeds":
                    dirs = {t: d + [s] for t, d in dirs.items() if (s := sides.seeds(side, t))}
                dirs = {t: [x for x in d if x.is_dir() and any(x.iterdir())] for t, d in dirs.items()}
                if not any(dirs.values()):
                    continue
                cov = core_coverage(builds, sides.env, side, comp, dirs, out / "profiles" / mode / side / name)
                results.setdefault("coverage", {}).setdefault(mode, {}).setdefault(name, {})[side] = cov
                say(f"coverage ({mode}) {name} {side}: {fmt_cov(cov['total'])}")


def core_coverage(builds, env, side, comp, dirs, profiles):
    """Lines and branches of the component's Bitcoin Core files reached by replaying `dirs` ({target: [corpus
    folders]}) with the side's fuzz binary (coverage-instrumented): {"total": [lines hit, lines, branches hit,
    branches], "files": {file: the same}}."""
    binary = builds.binaries[f"{side} fuzz"]
    shutil.rmtree(profiles, ignore_errors=True)
    profiles.mkdir(parents=True)
    for t, d in dirs.items():
        if d:
            run(
                [binary, "-runs=0", *d],
                f"replaying {side} {t}",
                env=dict(env, FUZZ=t, LLVM_PROFILE_FILE=str(profiles / "%p-%m.profraw")),
            )
    profdata = profiles / "merged.profdata"
    run(["llvm-profdata-19", "merge", "-sparse", *profiles.glob("*.profraw"), "-o", profdata], "llvm-profdata-19 merge")
    export = run(["llvm-cov-19", "export", binary, f"-instr-profile={profdata}", "-summary-only"], "llvm-cov export")
    per_file = core_files.file_summaries(export, builds.tree.path)
    for f, needle in comp.core_functions.items():
        if path := core_files.source_path(export, f, builds.tree.path):
            per_file[f"{f} ({needle.rstrip('(')})"] = core_files.function_summary([binary], profdata, path, needle)
    files = {f: v for f, v in per_file.items() if f.split(" ")[0] in comp.core_files}
    total = [0, 0, 0, 0]
    for v in files.values():
        total = core_files.add(total, v)
    return {"total": total, "files": files}


def planted(builds, sides, tree, names, args, out, results):
    baseline = builds.text_hashes()
    bugs = results.setdefault("bugs", {})
    for name in names:
        comp = COMPONENTS[name]
        total = side_budget(comp, args.bug_time)
        plan, skipped = bug_plan(tree, name, args.bugs)
        for bug, reason in skipped:
            bugs.setdefault(name, {})[bug.id] = {"description": bug.description(), "not_applicable": reason}
        if not plan:
            continue
        log = out / "logs" / f"bugs-{name}.log"
        say(f"planted bugs: {name}: control (unpatched tree)")
        builds.all()  # the last bug was reverted, not yet rebuilt
        control = trial(sides, comp, total, out / "bugwork" / name / "control", log)
        bugs.setdefault(name, {})["control"] = control
        if not (control["suite"]["tests"] and control["core"]["tests"]):
            say(f"planted bugs: {name}: the unpatched tree fails a side's tests; its bugs are not run (see {log})")
            continue
        for bug, patch in plan:
            bug_id, desc = bug.id, bug.description(patch)
            proc = tree.apply(patch)
            if proc.returncode != 0:
                die(f"{patch.name} does not apply to {tree.path}: {proc.stdout.strip()}")
            try:
                say(f"planted bugs: {name}: {bug_id} ({desc}): building")
                builds.all()
                changed = [b for b, h in builds.text_hashes().items() if h != baseline[b]]
                if not changed:
                    bugs[name][bug_id] = {"description": desc, "error": "the patch changes no compiled code"}
                    say(f"planted bugs: {bug_id}: the patch changes no binary's code; skipped")
                    continue
                rec = trial(sides, comp, total, out / "bugwork" / name / bug_id, log)
                rec.update(description=desc, patch=str(patch.relative_to(ROOT)), changed=changed)
                bugs[name][bug_id] = rec
                say(f"planted bugs: {bug_id}: suite {verdict(rec['suite'])}; core {verdict(rec['core'])}")
            finally:
                if tree.apply(patch, reverse=True).returncode != 0:
                    die(f"could not revert {patch.name} in {tree.path}; delete it to start over")
            save(out, results)
    builds.all()  # leave the builds matching the unpatched tree (ccache hits)


def trial(sides, comp, total, work, log):
    """Both sides on the current tree: fuzzing from empty until the first crash, then their tests."""

    def side(s):
        targets = sides.targets(s, comp)
        rec = sides.fuzz_side(s, targets, total, work / s, seeded=False, stop_at_crash=True)
        rec["tests"], rec["test_failures"] = sides.tests(s, comp, log)
        return rec

    return both_sides(side)


def verdict(rec):
    parts = []
    if rec["found"] is not None:
        parts.append(f"fuzzing {rec['found']:.0f} s")
    if not rec["tests"]:
        parts.append("tests fail")
    return ", ".join(parts) if parts else "not found"


def save(out, results):
    (out / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True))


def fmt_cov(v):
    return (
        "—"
        if v is None
        else (f"{core_files.pct(v[0], v[1]):.1f}% ({v[0]}/{v[1]}) · {core_files.pct(v[2], v[3]):.1f}% ({v[2]}/{v[3]})")
    )


def report(out, results):
    """results.md (and the summary table it starts with, which is also printed) and results.png."""
    cov = results.get("coverage", {})
    bugs = results.get("bugs", {})
    runs = "; ".join(
        f"`{r['command']}` ({r['date']}, {r['machine']}, Core's tests with RANDOM_CTX_SEED="
        f"{r.get('RANDOM_CTX_SEED', 'random')}" + ("" if r.get("finished", True) else "; stopped before its end") + ")"
        for r in results.get("runs", [])
    )
    lines = [
        f"# The suite against Bitcoin Core's own fuzz targets, on {results.get('tree', '?')}",
        "",
        f"Runs merged here: {runs or '?'}.",
        "",
        "| component | lines · branches, suite (from empty) | lines · branches, Core (from empty) | "
        "suite from its seeds | bugs found, suite | bugs found, Core |",
        "|---|---|---|---|---|---|",
    ]
    summary = []
    for name in COMPONENTS:
        c = cov.get("empty", {}).get(name, {})
        s = cov.get("seeds", {}).get(name, {})
        b = {
            k: v
            for k, v in bugs.get(name, {}).items()
            if k != "control" and "error" not in v and "not_applicable" not in v
        }
        found = {
            side: sum(1 for v in b.values() if v[side]["found"] is not None or not v[side]["tests"])
            for side in ("suite", "core")
        }
        cells = [
            fmt_cov(c.get("suite", {}).get("total")),
            fmt_cov(c.get("core", {}).get("total")),
            fmt_cov(s.get("suite", {}).get("total")),
        ]
        bug_cells = [f"{found[side]}/{len(b)}" if b else "—" for side in ("suite", "core")]
        lines.append(f"| {name} | " + " | ".join(cells + bug_cells) + " |")
        summary.append((name, c, b, found))
    table = "\n".join(lines[4:])
    lines += [
        "",
        "Coverage cells: lines · branches of the component's Bitcoin Core files reached by replaying the "
        "side's campaign corpus (llvm-cov). A bug is found by a side if one of its targets fails "
        "(crashes, or dies while it sets up) within the bug time (--bug-time) or one of its tests fails.",
        "",
    ]
    for name in COMPONENTS:
        comp = COMPONENTS[name]
        lines += [
            f"## {name}",
            "",
            f"Suite: {', '.join(comp.fuzz_targets)}; tests `{comp.suite_tests()}`. "
            f"Core: {', '.join(comp.core_fuzz_targets)}; test_bitcoin suites {', '.join(comp.core_test_suites)}.",
            "",
        ]
        if comp.note:
            lines += [comp.note, ""]
        for mode, title in (("empty", "from an empty corpus"), ("seeds", "from each side's seeds")):
            camp = results.get("campaigns", {}).get(mode, {}).get(name)
            if not camp:
                continue
            lines += [
                f"Campaign {title}:",
                "",
                "| side | target | seconds | executions | exec/s | corpus | crash |",
                "|---|---|---|---|---|---|---|",
            ]
            for side in ("suite", "core"):
                for r in (camp.get(side) or {"targets": []})["targets"]:
                    lines.append(
                        f"| {side} | {r['target']} | {r['seconds']} | {r['execs']} | {r['exec_s']} | "
                        f"{r['corpus']} | {r.get('reason') or r.get('error') or ''} |"
                    )
            files = cov.get(mode, {}).get(name, {})
            if files:
                lines += ["", "| file | suite | Core |", "|---|---|---|"]
                for f in sorted(
                    set(files.get("suite", {}).get("files", {})) | set(files.get("core", {}).get("files", {}))
                ):
                    lines.append(
                        f"| {f} | {fmt_cov(files.get('suite', {}).get('files', {}).get(f))} | "
                        f"{fmt_cov(files.get('core', {}).get('files', {}).get(f))} |"
                    )
            lines.append("")
        if name in bugs:
            lines += [
                "Planted bugs (fuzzing from an empty corpus, then the tests):",
                "",
                "| bug | suite | Core | suite's crash (first line, input hex) |",
                "|---|---|---|---|",
            ]
            # The control first: the bugs of runs merged after it would otherwise sit above and below it.
            for bug_id, v in sorted(
                bugs[name].items(),
                key=lambda item: (item[0] != "control", natural(item[0]) if item[0] != "control" else ("", 0)),
            ):
                if "error" in v:
                    lines.append(f"| {bug_id}: {v['description']} | {v['error']} | | |")
                    continue
                if "not_applicable" in v:
                    lines.append(
                        f"| {bug_id}: {v['description']} | not applicable to this tree: {v['not_applicable']} | | |"
                    )
                    continue
                first = next((r for r in v["suite"]["targets"] if "crash" in r), None)
                detail = f"{first['target']}: {first['reason']} `{first['input_hex']}`" if first else ""
                label = "control (unpatched)" if bug_id == "control" else f"{bug_id}: {v['description']}"
                lines.append(f"| {label} | {verdict(v['suite'])} | {verdict(v['core'])} | {detail} |")
            lines.append("")
    (out / "results.md").write_text("\n".join(lines) + "\n")
    plot(out, summary)
    print(table)
    say(f"results: {out / 'results.md'}, {out / 'results.json'}, {out / 'results.png'}")


def plot(out, summary):
    """Two bar charts: line coverage from empty, and planted bugs found, per component and side."""
    if shutil.which("gnuplot") is None:
        say("gnuplot not found (install gnuplot-nox): no results.png")
        return
    data = out / "logs" / "plot.dat"
    rows = []
    for name, c, b, found in summary:
        lc = [core_files.pct(*c[s]["total"][:2]) if s in c and c[s] else 0 for s in ("suite", "core")]
        rows.append(f"{name} {lc[0]:.1f} {lc[1]:.1f} {found['suite']} {found['core']} {len(b)}")
    data.write_text("\n".join(rows) + "\n")
    script = f"""set terminal pngcairo size 1200,500 noenhanced
set output '{out / "results.png"}'
set multiplot layout 1,2
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30
set key below
set title 'Core files: lines reached from an empty corpus (%)'
set yrange [0:100]
plot '{data}' using 2:xtic(1) title 'suite', '' using 3 title 'Core targets'
set title 'Planted bugs found'
set yrange [0:*]
set offsets 0, 0, 1, 0
plot '{data}' using 4:xtic(1) title 'suite', '' using 5 title 'Core targets + tests', '' using 6 title 'planted'
unset multiplot
"""
    proc = subprocess.run(["gnuplot"], input=script, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        say(f"gnuplot failed, no results.png: {proc.stdout.strip()[:300]}")
