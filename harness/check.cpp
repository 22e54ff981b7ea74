#include "check.h"

#include "failure_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace harness {
namespace {

// The trace printed by a failing check. Set and restored only by ScopedTrace, so nothing outlives the
// tester (and so the fuzz input) that registered it.
thread_local const TraceSource* g_trace = nullptr;
FailureMode g_mode = FailureMode::kAbort;
std::string g_context;

}  // namespace

// `file` is absolute, or relative to the build directory where ccache's CCACHE_BASEDIR rewrote it. From the
// last folder in it named like a top-level source folder of the repository, so that a checkout under e.g.
// ~/src/ still gives harness/...; right as long as no such folder holds a folder of one of these names.
std::string_view RepositoryPath(std::string_view file) {
  const std::string slashed = "/" + std::string(file);
  size_t from = 0;
  for (const char* folder : {"/harness/", "/fuzz/", "/unit/", "/src/", "/seam/", "/core/", "/tools/", "/bench/"}) {
    const size_t at = slashed.rfind(folder);
    if (at != std::string::npos) from = std::max(from, at);  // `at` in `slashed` is the folder's name in `file`
  }
  return file.substr(from);
}

ScopedTrace::ScopedTrace(const TraceSource& source) : previous_(g_trace) { g_trace = &source; }
ScopedTrace::~ScopedTrace() { g_trace = previous_; }

void SetFailureMode(FailureMode mode) { g_mode = mode; }

void SetCheckContext(std::string_view name) { g_context = name; }

std::string CheckContext() { return g_context.empty() ? "-" : g_context; }

std::string TraceOpName() {
  const std::string op = g_trace != nullptr ? g_trace->LastOpName() : "";
  return op.empty() ? "-" : op;
}

void RenderTrace(std::ostream& out) {
  if (g_trace == nullptr) {
    out << "operation trace: none on this thread\n";
    return;
  }
  out << "operation trace:\n";
  g_trace->Render(out);
}

void Fail(const char* file, int line, const char* condition, const std::string& message) {
  const std::string_view path = RepositoryPath(file);
  std::ostringstream report;
  report << "signature: " << CheckContext() << ":" << TraceOpName() << ":" << path << ":" << line << "\n";
  report << "HARNESS_CHECK failed at " << path << ":" << line << ": " << condition << "\n";
  if (!message.empty()) report << "  " << message << "\n";
  if (g_trace != nullptr) RenderTrace(report);
  RenderInput(report);
  if (g_mode == FailureMode::kThrow) throw CheckFailure(report.str());
  std::cerr << report.str() << std::flush;
  StopFailingTheDisk();
  std::abort();
}

}  // namespace harness

// Sanitizer runtime hook: a UBSan report is fatal in every binary of the suite, also for code compiled
// without -fno-sanitize-recover (Bitcoin Core's library, built with Core's own SANITIZERS option).
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

// A ThreadSanitizer report is fatal too, so that a campaign under TSan (the tsan-libfuzzer presets) stops at
// the first race and libFuzzer saves the input, as it does for ASan; TSan's own default only prints and runs on.
extern "C" const char* __tsan_default_options() { return "halt_on_error=1:second_deadlock_stack=1"; }

// ASan's defaults, overridable through ASAN_OPTIONS, set to what OSS-Fuzz's runner uses: stack-use-after-
// return stays on, with a 64 KiB fake stack per frame size (every throw makes the runtime sweep the whole fake
// stack, and the default 1 MiB one cost a model-based target a quarter of its speed), and a 10 MiB quarantine
// of freed memory (a use after free is caught while the freed block is among the last 10 MiB freed; the
// default 256 MiB cost a fifth of the speed in page faults).
extern "C" const char* __asan_default_options() {
  return "detect_stack_use_after_return=1:max_uar_stack_size_log=16:quarantine_size_mb=10";
}
