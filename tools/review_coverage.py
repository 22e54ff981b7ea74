"""Step 4 of tools/review, patch coverage: which changed lines of the head the replay of every input executed
(source-based coverage, llvm-cov)."""

import json
import re

from review_run import run
from suite import say


class PatchCoverage:
    """Review's step 4 (a mixin of tools/review's Review: self.out, self.lines, self.trees)."""

    SHOW_LINE = re.compile(r"^\s*(\d+)\|\s*([0-9.]+[kMGTPE]?)?\|(.*)$")

    def patch_coverage(self, binary, targets):
        """From the profiles the differential's replay of the head left (an input that ends its process takes
        the coverage of the inputs before it in that process with it)."""
        say("head: patch coverage ...")
        changed = {f: lines for f, (lines, _) in self.lines.items() if lines}
        per_target, by_line = {}, {}
        for t in targets:
            raw = list((self.out / "coverage" / t).glob("*.profraw"))
            if not raw:
                continue
            profdata = self.out / "coverage" / f"{t}.profdata"
            run(["llvm-profdata-19", "merge", "-sparse", *raw, "-o", profdata], "llvm-profdata-19 merge")
            counts = self.line_counts(binary, profdata, changed)
            per_target[t] = counts
            for key, hit in counts.items():
                by_line[key] = by_line.get(key, False) or hit
        return dict(per_target=per_target, by_line=by_line, changed=changed)

    def line_counts(self, binary, profdata, changed):
        """{(file, line): executed?} for the changed code lines of the `changed` files the binary holds. Core's
        files are known to the binary by their path in the scratch tree (OUT/tree/<file>), as of the clone
        that first compiled them (ccache); their source is read from the head's tree."""
        export = json.loads(
            run(["llvm-cov-19", "export", "-summary-only", binary, f"-instr-profile={profdata}"], "llvm-cov export")
        )
        out = {}
        for f in export["data"][0]["files"]:
            name = f["filename"]
            rel = next((r for r in changed if name.endswith("/tree/" + r)), None)
            if rel is None:
                continue
            head = self.trees["head"] / rel
            text = run(
                [
                    "llvm-cov-19",
                    "show",
                    binary,
                    f"-instr-profile={profdata}",
                    f"-path-equivalence={name[: -len(rel)]},{self.trees['head']}/",
                    head,
                ],
                "llvm-cov show",
            )
            for line in text.splitlines():
                m = self.SHOW_LINE.match(line)
                if m and m[2] is not None and int(m[1]) in changed[rel]:
                    key = (rel, int(m[1]))
                    out[key] = out.get(key, False) or m[2] != "0"
        return out
