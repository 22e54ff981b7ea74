"""tools/versus-core: the planted bugs of versus/patches/ (a bug, its forms, which form a tree takes) and
--check-patches."""

import re
from dataclasses import dataclass

from versus_core.builds import COMPONENTS
from suite import ROOT, die, say

PATCHES = ROOT / "versus" / "patches"


# A planted bug's file names: <ID>-<name>.patch, and the same bug's alternative forms
# <ID>-<name>.<suffix>.patch, where the suffix says which code the form is written against (e.g. .trysub:
# code whose counters are decreased through TrySub).
PATCH_NAME = re.compile(r"^(?P<id>[A-Z]\d+)-(?P<name>[a-z0-9-]+)(?:\.(?P<suffix>[a-z0-9-]+))?\.patch$")


# A form's header line before its diff: the form is for trees whose <file> contains <text>.
REQUIRES = re.compile(r"^Requires: (?P<file>[^:\s]+): (?P<text>\S.*)$")


@dataclass
class Bug:
    """One planted bug: its forms, the plain one first, then the alternatives by suffix. On a tree, the first
    form that applies is planted. A form whose `Requires:` lines the tree does not meet is left out; a bug
    with no form left is not applicable to the tree (its code is not there), which is no error."""

    id: str
    component: str
    forms: list

    def description(self, form=None):
        return (form or self.forms[0]).read_text().splitlines()[0].split(": ", 1)[-1]

    @staticmethod
    def requirements(form):
        """[(file, text)] of the form's `Requires:` lines; ValueError on a malformed one."""
        reqs = []
        for line in form.read_text().splitlines()[1:]:
            if line.startswith(("--- ", "diff ")):
                break
            if line.startswith("Requires"):
                if not (m := REQUIRES.match(line)):
                    raise ValueError(f"malformed header line {line!r}: want 'Requires: <file>: <text>'")
                reqs.append((m["file"], m["text"].strip()))
        return reqs

    @staticmethod
    def unmet(form, tree):
        """Why the tree cannot have this form's code ('<file> has no <text>'), or None."""
        for file, text in Bug.requirements(form):
            path = tree.path / file
            if not path.is_file():
                return f"{file} is missing"
            if text not in path.read_text(errors="replace"):
                return f"{file} has no '{text}'"
        return None

    def choose(self, tree):
        """(form, reason, failures): the first form that applies to the tree; else, when no form is for this
        tree, why the bug is not applicable; else what git apply said of each form that is for it."""
        eligible = [f for f in self.forms if not Bug.unmet(f, tree)]
        if not eligible:
            return None, "; ".join(dict.fromkeys(Bug.unmet(f, tree) for f in self.forms)), []
        failures = []
        for form in eligible:
            proc = tree.apply(form, check=True)
            if proc.returncode == 0:
                return form, None, []
            failures.append((form, proc.stdout.strip()))
        return None, None, failures


def natural(bug_id):
    return bug_id[0], int(bug_id[1:])


def all_bugs():
    """{id: Bug} over versus/patches/*/, in component order then by number; ValueError on a misnamed file."""
    found = {}
    for p in sorted(PATCHES.glob("*/*.patch")):
        m = PATCH_NAME.match(p.name)
        if not m:
            raise ValueError(f"{p.relative_to(ROOT)}: name it <ID>-<name>.patch or <ID>-<name>.<suffix>.patch")
        bug = found.setdefault(m["id"], Bug(m["id"], p.parent.name, []))
        first = bug.forms[0] if bug.forms else p
        if first.parent != p.parent or PATCH_NAME.match(first.name)["name"] != m["name"]:
            raise ValueError(
                f"{p.relative_to(ROOT)}: bug {m['id']} already has the form {first.relative_to(ROOT)}; "
                "forms of one bug share its folder and name"
            )
        bug.forms.append(p)
    for bug in found.values():
        bug.forms.sort(key=lambda p: (PATCH_NAME.match(p.name)["suffix"] is not None, p.name))
    order = list(COMPONENTS)
    return dict(
        sorted(
            found.items(),
            key=lambda kv: (order.index(kv[1].component) if kv[1].component in order else len(order), natural(kv[0])),
        )
    )


def bug_plan(tree, name, chosen):
    """([(bug, the form to plant)], [(bug, why it is not applicable)]) of the component's planted bugs on the
    tree, those in `chosen` if given; dies when no form of a bug meant for this tree applies."""
    plan, skipped = [], []
    for bug in all_bugs().values():
        if bug.component != name or (chosen and bug.id not in chosen):
            continue
        form, reason, failures = bug.choose(tree)
        if form is None and reason is None:
            die(f"no form of {bug.id} applies to {tree.path}: {failures[0][1]}")
        if form is None:
            say(f"planted bugs: {name}: {bug.id} is not applicable to this tree: {reason}")
            skipped.append((bug, reason))
        else:
            plan.append((bug, form))
    return plan, skipped


def check_patches(tree):
    """Prints, per planted bug, the form that applies to the tree or why the bug is not applicable; checks that
    every patch is named as a bug's form, opens with '<ID>: <description>' and has well-formed `Requires:`
    lines. Returns the number of problems: a malformed patch, or a bug for this tree with no form that
    applies."""
    problems = 0
    try:
        bugs = all_bugs()
    except ValueError as e:
        say(str(e))
        return 1
    rows, counts = [], {"apply": 0, "alternative": 0, "not applicable": 0, "no form applies": 0}
    for bug in bugs.values():
        bad = [
            f"{f.relative_to(ROOT)}: needs a first line '{bug.id}: <description>'"
            for f in bug.forms
            if not re.match(rf"^{bug.id}: \S", f.read_text().splitlines()[0] if f.read_text() else "")
        ]
        if bug.component not in COMPONENTS:
            bad.append(
                f"{bug.forms[0].parent.relative_to(ROOT)}: not a component of seam/components.json: name "
                f"the folder after one ({', '.join(COMPONENTS)})"
            )
        for f in bug.forms:
            try:
                Bug.requirements(f)
            except ValueError as e:
                bad.append(f"{f.relative_to(ROOT)}: {e}")
        if bad:
            problems += 1
            rows.append((bug, "MALFORMED: " + "; ".join(bad)))
            continue
        form, reason, failures = bug.choose(tree)
        if form is not None:
            alternative = form != bug.forms[0]
            counts["alternative" if alternative else "apply"] += 1
            rows.append(
                (
                    bug,
                    form.name
                    + (f" (form {bug.forms.index(form) + 1} of {len(bug.forms)})" if len(bug.forms) > 1 else ""),
                )
            )
        elif reason is not None:
            counts["not applicable"] += 1
            rows.append((bug, f"not applicable: {reason}"))
        else:
            counts["no form applies"] += 1
            problems += 1
            rows.append(
                (
                    bug,
                    "NO FORM APPLIES: "
                    + "; ".join(
                        f"{f.name}: {msg.splitlines()[0] if msg else 'git apply failed'}" for f, msg in failures
                    ),
                )
            )
    say(f"planted bugs on {tree.path}: the form planted, or why the bug is not applicable")
    width = max((len(b.component) for b, _ in rows), default=0)
    for bug, what in rows:
        print(f"  {bug.id:<4} {bug.component:<{width}}  {what}")
    say(
        f"{len(bugs)} bugs: {counts['apply'] + counts['alternative']} apply ({counts['alternative']} through an "
        f"alternative form), {counts['not applicable']} not applicable to this tree, {counts['no form applies']} "
        f"with no form that applies"
        + (f", {problems - counts['no form applies']} malformed" if problems > counts["no form applies"] else "")
    )
    return problems
