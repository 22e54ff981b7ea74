// HARNESS_CHECK: the one assertion of the suite, for both tiers (subject vs reference, and the subject's
// structural invariants). On failure it prints a one-line signature, the condition, a message, and the
// readable trace of the operations applied so far, then aborts (fuzzing) or throws CheckFailure (unit tests,
// see SetFailureMode).
//
// The report's first line is
//   signature: <target>:<op>:<file>:<line>
// the fuzz target or unit suite being run (SetCheckContext; "-" if unset), the name of the last operation
// logged in the current trace ("-" if none), and the check's source file from the repository root and line.
// It holds no values, so every input that fails the same check in the same operation gives the same line:
// tools/corpus triage groups crashes by it, and ClusterFuzzLite can deduplicate on it.
//
// The trace costs nothing until a check fails: testers log operations as values in an OpLog, and the log
// is rendered with each operation's ToString() only when printing a failure.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "no_fuzz_coverage.h"

namespace harness {

namespace observe {
// The observation log (observe.h). g_on is set once, before main, from the environment; off, a record costs
// the test of this bool.
extern const bool g_on;
inline bool On() { return g_on; }
void Record(std::string_view label, std::string_view value);
// The value a HARNESS_CHECK_EQ saw, labelled `<file>:<line> <expression>`.
void RecordCheck(const char* file, int line, const char* expression, std::string_view value);
}  // namespace observe

// Something that can render the operations applied so far, one line each.
class TraceSource {
 public:
  virtual ~TraceSource() = default;
  virtual void Render(std::ostream& out) const = 0;
  // The name of the operation applied last, the one a failing check is in; empty when there is none.
  virtual std::string LastOpName() const = 0;
};

// Registers `source` as the trace printed by failing checks for its lifetime (innermost wins).
class ScopedTrace {
 public:
  explicit ScopedTrace(const TraceSource& source);
  ~ScopedTrace();
  ScopedTrace(const ScopedTrace&) = delete;
  ScopedTrace& operator=(const ScopedTrace&) = delete;

 private:
  const TraceSource* previous_;
};

// Operations (any type with `std::string ToString() const`, which starts with the operation's name and then
// its arguments: `Spend(outpoint=42)`) in the order they were applied; registered as the current trace while
// it lives. Log an operation before applying it, so that a check failing inside it names it. Each is also a
// `step` record of the observation log (observe.h) when that is on.
template <typename Op>
class OpLog : public TraceSource {
 public:
  // Room for a typical fuzz input's steps up front: growing the log step by step was a measurable share
  // of a stateless target's time under ASan.
  OpLog() : scope_(*this) { ops_.reserve(16); }
  void Add(const Op& op) {
    ops_.push_back(op);
    if (observe::On()) [[unlikely]]
      observe::Record("step", op.ToString());
  }
  size_t size() const { return ops_.size(); }
  void Render(std::ostream& out) const override {
    // Minimized failures are short; cap the rest so a failure stays readable.
    constexpr size_t kMaxLines = 2000;
    const size_t first = ops_.size() > kMaxLines ? ops_.size() - kMaxLines : 0;
    if (first > 0) out << "  ... " << first << " earlier steps omitted\n";
    for (size_t i = first; i < ops_.size(); ++i) out << "  step " << i << ": " << ops_[i].ToString() << "\n";
  }
  // The last operation's ToString() up to its arguments: up to the first '(' (or blank, so no value slips in).
  std::string LastOpName() const override {
    if (ops_.empty()) return {};
    std::string text = ops_.back().ToString();
    text.resize(std::min(text.size(), text.find_first_of("( \t\n")));
    return text;
  }

 private:
  std::vector<Op> ops_;
  ScopedTrace scope_;
};

// Thrown instead of aborting when the failure mode is kThrow; what() holds the whole report.
class CheckFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FailureMode { kAbort, kThrow };
// Process-wide configuration, set once by a test main; fuzz targets keep the default kAbort.
void SetFailureMode(FailureMode mode);

// Names what is being run, the <target> of the signature line: the fuzz driver sets the selected target's
// name, the unit test main the running test's suite. Process-wide; empty or never set prints "-".
void SetCheckContext(std::string_view name);

// `file`, a __FILE__, from the repository root (harness/check.h); `file` itself when it is not the suite's.
std::string_view RepositoryPath(std::string_view file);

// What every failure report prints (this file's and failure_report.h's): the <target> and <op> of the
// signature line ("-" where unset or none), and the operation trace of this thread ("operation trace:" and
// a line per step; a line saying there is none where no tester of this thread logs one).
std::string CheckContext();
std::string TraceOpName();
void RenderTrace(std::ostream& out);

[[noreturn]] void Fail(const char* file, int line, const char* condition, const std::string& message);

template <typename... Args>
std::string Concat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

}  // namespace harness

// HARNESS_CHECK(cond, parts...): the parts are streamed into the message, and evaluated only on failure.
#define HARNESS_CHECK(cond, ...)                                                                    \
  do {                                                                                              \
    if (!(cond)) [[unlikely]]                                                                       \
      ::harness::Fail(__FILE__, __LINE__, #cond, ::harness::Concat("" __VA_OPT__(, ) __VA_ARGS__)); \
  } while (0)

// HARNESS_CHECK_EQ(a, b, parts...): compares and, on failure, prints both sides (anything streamable). Every
// comparison is an observation: with the observation log on (observe.h), the value seen is recorded, labelled
// with the left-hand expression.
#define HARNESS_CHECK_EQ(a, b, ...)                                                                   \
  do {                                                                                                \
    const auto& harness_lhs_ = (a);                                                                   \
    const auto& harness_rhs_ = (b);                                                                   \
    if (!(harness_lhs_ == harness_rhs_)) [[unlikely]]                                                 \
      ::harness::Fail(__FILE__, __LINE__, #a " == " #b,                                               \
                      ::harness::Concat("" __VA_OPT__(, ) __VA_ARGS__, "\n    left:  ", harness_lhs_, \
                                        "\n    right: ", harness_rhs_));                              \
    if (::harness::observe::On()) [[unlikely]]                                                        \
      ::harness::observe::RecordCheck(__FILE__, __LINE__, #a, ::harness::Concat(harness_lhs_));       \
  } while (0)
