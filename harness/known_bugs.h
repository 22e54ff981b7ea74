// Bugs the suite found in Bitcoin Core (docs/core-bugs.md), each decided by behaviour on the tree under test,
// never by a signature. A bug has one or more forms, each with an input: the form's input runs on its target in
// a child process with the checks on, once per process, before the first check the form fails. Where the
// input still fails the known way the form is present: its checks are skipped (known-failing), saying so once,
// unless SUITE_CHECK_KNOWN_BUGS=1. Where it passes, the tree fixes that form: its checks run everywhere; if the
// fix itself breaks a contract, that check (or another) fails as it would for any bug. The run says, per bug,
// `fixed` (no form present), `partly fixed (<forms present>)` or `present` (every form).
//
// X(enumerator, bug, form, target, input (hex), what its failure prints (ECMAScript regex), tries, doc, what
// the form is): a form whose failure depends on thread timing runs its input up to `tries` times.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// clang-format off
#define HARNESS_KNOWN_BUGS(X)                                                                                          \
  X(kWriterPlaintext, "writer_failed_flush", "plaintext", "file_io_sim", "fb00f63dfef4f6033d", "it is the plaintext",  \
    1, "docs/core-bugs.md#writer-failed-flush",                                                                        \
    "BufferedWriter keeps a buffer whose flush failed, obfuscated in place, and writes it again from its destructor: " \
    "the bytes reach the disk XORed twice, in plaintext")                                                              \
  X(kWriterBlockTerminate, "writer_failed_flush", "block_write_terminate", "block_store_sim", "8b08",                  \
    ":terminate:BufferedWriter", 1, "docs/core-bugs.md#writer-failed-flush",                                           \
    "BlockManager::WriteBlock and WriteBlockUndo leave their last flush to BufferedWriter's destructor: a failing "    \
    "disk there ends the process (std::terminate)")                                                                    \
  X(kWriterDestructorTerminate, "writer_failed_flush", "destructor_terminate", "file_io_sim", "620a2525691400",        \
    ":terminate:BufferedWriter", 1, "docs/core-bugs.md#writer-failed-flush",                                           \
    "BufferedWriter's destructor flushes what it holds, and a failure there ends the process (std::terminate), "       \
    "whichever caller lets it")                                                                                        \
  X(kOverlaySyncRaces, "overlay_sync_races", "sync_races", "coins_overlay_sim",                                        \
    "090b04045706575757575757570357575700b3", "HaveCoin of .* [(]fetching overlay[)]|ThreadSanitizer: data race", 20,  \
    "docs/core-bugs.md#overlay-sync",                                                                                  \
    "CoinsViewOverlay has no Sync of its own: CCoinsViewCache::Sync writes the base while the fetchers read it")       \
  /* new forms go above this line, a bug's forms together */
// clang-format on

namespace harness {

// A form of a known bug (one row above).
#define HARNESS_KNOWN_BUG_ENUMERATOR_(e, ...) e,
enum class KnownBug : uint8_t { HARNESS_KNOWN_BUGS(HARNESS_KNOWN_BUG_ENUMERATOR_) };
#undef HARNESS_KNOWN_BUG_ENUMERATOR_

enum class KnownBugVerdict : uint8_t {
  kNotApplicable,  // the subject cannot have it (the embedded one; a Core tree without the code it lives in)
  kPresent,        // every form's input fails the known way
  kPartlyFixed,    // some forms' inputs do, the others pass
  kFixed,          // every form's input passes (or fails some other way, which its check then reports)
};

// Whether a check that `form` fails runs here (see above). Decides the form's bug on first use. When it does
// not, the observation log (harness/observe.h) gets a record `known bug skipped: <bug>`.
bool KnownBugCheckRuns(KnownBug form);
// The verdict on the bug named `bug` (as in HARNESS_KNOWN_BUGS), over its forms; each form decided on first use
// by running its input in a child process (see SetTargetRunner).
KnownBugVerdict DecideKnownBug(std::string_view bug);
// Whether a bug of that name is in HARNESS_KNOWN_BUGS.
bool IsKnownBug(std::string_view bug);
// One line for people: the verdict, the forms present and fixed, what the bug is and where it is written up.
std::string DescribeKnownBug(std::string_view bug);
// For each form present here: its target and input, and the failure report its input printed (the trace, the
// Bitcoin Core call, the verdict, the stack); empty where none is present.
std::string KnownBugEvidence(std::string_view bug);

// The program that runs a fuzz target on one input file (FUZZ=<target> <program> <file>): this process's own
// binary where it hosts the targets (the fuzz driver sets it), or the build's fuzz binary (the unit tests).
void SetTargetRunner(std::string path);

}  // namespace harness
