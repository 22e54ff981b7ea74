// One report for every way a check can end. A failed HARNESS_CHECK prints its own (check.h); this file gives
// the other ends the same form: an assertion of the subject's (Bitcoin Core's Assert and Assume through the
// adapters' link-time wrap of its assertion_fail, a C assert anywhere), std::terminate (an exception out of a
// noexcept frame such as a destructor, or out of a fuzz target), and a sanitizer's report. Each prints
//   signature: <target>:<op>:<kind>:<site>   value-free, like a check's: replay and triage group by it
//   <what failed>
//     <the verdict: a finding against the subject or a bug of the suite, and why>
//   <the subject call the suite was in, and the suite's frame that made it>
//   operation trace: ...                      the steps up to the one in flight (check.h)
//   stack (the subject's and the suite's frames): ...
//   input: <n> bytes: <hex>                   the input the fuzz driver is running, where there is one
// and the process then ends as it would have (the assertion's message and abort, terminate's abort, the
// sanitizer's exit), so that a fuzzing engine still saves the input and a replay still names its file.
//
// The verdict is read off the stack (seam::SubjectSourceDir says which frames are the subject's):
//  - the failing frame is the suite's own: a bug of the suite;
//  - an assertion in a destructor of the subject's whose direct caller is the suite's: the suite's adapter
//    destroyed the object in a state the subject's own rule forbids, a bug of the suite to fix here;
//  - otherwise an assertion, a terminate or a sanitizer error in the subject's frames: a finding against the
//    subject, named with the subject call the suite was in, that call's contract with its callers
//    (seam::CallersOf: which failures they handle) and whether the failing disk had struck (fault_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace harness {

// Installs the terminate handler (the other hooks are link-time definitions); idempotent. The fuzz driver
// and the unit test main call it once.
void InstallFailureReports();

// The input the fuzz driver is running (nullptr: none), printed with a report. The caller keeps it alive.
void SetFailureInput(const uint8_t* data, size_t size);

// "input: <n> bytes: <hex>" (the first 512 bytes) of the input SetFailureInput names; nothing where none is.
void RenderInput(std::ostream& out);

// Disarms the failing disk (fault_file.h) where the build has one: every report does before the process
// ends, so that what writes files on the way out (a fuzzing engine's crash input) is not failed too.
void StopFailingTheDisk();

// Prints the report of a failed assertion of the subject's at `file`:`line` in `function` (its condition's
// text `assertion`); the caller then ends the process as the assertion would. `kind` names the assertion
// machinery in the signature ("assertion": Core's Assert/Assume; "assert": the C assert).
void ReportAssertion(std::string_view kind, std::string_view file, unsigned line, std::string_view function,
                     std::string_view assertion);

}  // namespace harness
