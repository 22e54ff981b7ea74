// Bugs the suite found in Bitcoin Core (docs/core-bugs.md), each decided by behaviour on the tree under test,
// never by a signature: the bug's input runs on its target in a child process with the check on, once per
// process, before the first check that the bug fails. Where the input still fails the known way the bug is
// present: its check is skipped (known-failing), saying so once, unless SUITE_CHECK_KNOWN_BUGS=1. Where it
// passes, the tree fixes the bug: the check runs everywhere and the run says `known bug <name>: fixed in this
// tree`; if the fix itself breaks a contract, that check (or another) fails as it would for any bug.
//
// X(enumerator, name, target, input (hex), what its failure prints (ECMAScript regex), tries, doc, what):
// a bug whose failure depends on thread timing runs its input up to `tries` times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#define HARNESS_KNOWN_BUGS(X)                                                                                          \
  X(kWriterFailedFlush, "writer_failed_flush", "file_io_sim", "fb00f63dfee6f6033d", "it is the plaintext", 1,          \
    "docs/core-bugs.md#writer-failed-flush",                                                                           \
    "BufferedWriter keeps a buffer whose flush failed, obfuscated in place, and writes it again from its destructor")  \
  X(kOverlaySyncRaces, "overlay_sync_races", "coins_overlay_sim", "090b04045706575757575757570357575700b3",            \
    "HaveCoin of .* [(]fetching overlay[)]|ThreadSanitizer: data race", 20, "docs/core-bugs.md#overlay-sync",         \
    "CoinsViewOverlay has no Sync of its own: CCoinsViewCache::Sync writes the base while the fetchers read it")       \
  /* new bugs go above this line */

namespace harness {

#define HARNESS_KNOWN_BUG_ENUMERATOR_(e, ...) e,
enum class KnownBug : uint8_t { HARNESS_KNOWN_BUGS(HARNESS_KNOWN_BUG_ENUMERATOR_) };
#undef HARNESS_KNOWN_BUG_ENUMERATOR_

enum class KnownBugVerdict : uint8_t {
  kNotApplicable,  // the subject cannot have it (the embedded one; a Core tree without the code it lives in)
  kPresent,        // its input fails the known way
  kFixed,          // its input passes (or fails some other way, which its check then reports)
};

// Whether a check that `bug` fails runs here (see above). Decides the verdict on first use. When it does not,
// the observation log (harness/observe.h) gets a record `known bug skipped: <name>`.
bool KnownBugCheckRuns(KnownBug bug);
// The verdict, decided on first use by running the bug's input in a child process (see SetTargetRunner).
KnownBugVerdict DecideKnownBug(KnownBug bug);
// The bug named `name` (as in HARNESS_KNOWN_BUGS); false if none is.
bool FindKnownBug(std::string_view name, KnownBug& bug);
std::string_view KnownBugName(KnownBug bug);
// One line for people: the verdict, what the bug is and where it is written up.
std::string DescribeKnownBug(KnownBug bug, KnownBugVerdict verdict);

// The program that runs a fuzz target on one input file (FUZZ=<target> <program> <file>): this process's own
// binary where it hosts the targets (the fuzz driver sets it), or the build's fuzz binary (the unit tests).
void SetTargetRunner(std::string path);

}  // namespace harness
