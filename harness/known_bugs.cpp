#include "known_bugs.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "child_run.h"
#include "observe.h"
#include "seam/coins_cache.h"
#include "seam/file_io.h"
#include "seam/types.h"

namespace harness {
namespace {

struct Form {
  const char* bug;
  const char* name;
  const char* target;
  const char* input_hex;
  const char* expect;
  int tries;
  const char* doc;
  const char* what;
};

#define HARNESS_KNOWN_BUG_ROW_(e, bug, name, target, input, expect, tries, doc, what) \
  Form{bug, name, target, input, expect, tries, doc, what},
constexpr Form kForms[] = {HARNESS_KNOWN_BUGS(HARNESS_KNOWN_BUG_ROW_)};
#undef HARNESS_KNOWN_BUG_ROW_

const Form& Row(KnownBug form) { return kForms[static_cast<size_t>(form)]; }

// The forms of the bug named `bug`, in their order.
std::vector<KnownBug> FormsOf(std::string_view bug) {
  std::vector<KnownBug> out;
  for (size_t i = 0; i < std::size(kForms); ++i) {
    if (bug == kForms[i].bug) out.push_back(static_cast<KnownBug>(i));
  }
  return out;
}

// Whether the subject can have the form at all: only Bitcoin Core, and only a tree with the code it lives in.
bool Applies(KnownBug form) {
  if (!seam::kSubjectIsCore) return false;
  switch (form) {
    case KnownBug::kWriterPlaintext:
    case KnownBug::kWriterBlockTerminate:
    case KnownBug::kWriterDestructorTerminate: return seam::kBufferedStreams;
    case KnownBug::kOverlaySyncRaces: return seam::kOverlayPrefetches;
  }
  return false;
}

bool ForceChecks() {
  static const bool force = [] {
    const char* env = std::getenv("SUITE_CHECK_KNOWN_BUGS");
    return env != nullptr && std::string(env) == "1";
  }();
  return force;
}

std::mutex g_mutex;
std::string g_runner;

std::vector<uint8_t> FromHex(std::string_view hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

struct Decision {
  bool present = false;
  std::string report;  // what the form's input printed from its failure report on, where present
};

// The failure report in a failing run's output: from the last line that starts one (a replay repeats the
// report in its summary) to its input line.
std::string ReportIn(const std::string& output) {
  const size_t line = ("\n" + output).rfind("\nsignature: ");
  if (line == std::string::npos) return {};
  const size_t from = line;  // in `output`: the prepended newline shifts by one, the found newline is before
  const size_t input = output.find("\ninput: ", from);
  const size_t to = input == std::string::npos ? output.size() : output.find('\n', input + 1);
  return output.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

// Whether `form`'s input still fails the known way here, and its report where it does.
Decision Present(KnownBug form) {
  const Form& row = Row(form);
  std::string runner;
  {
    const std::lock_guard lock(g_mutex);
    runner = g_runner;
  }
  if (runner.empty()) {
    throw std::logic_error(std::string("known bug ") + row.bug + ": no program to run its input (SetTargetRunner)");
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string path = (dir / ("suite_known_bug." + std::string(6, 'X'))).string();  // mkstemp fills the X's in
  const int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("known bugs: mkstemp failed in " + dir.string());
  const std::vector<uint8_t> input = FromHex(row.input_hex);
  const bool written = write(fd, input.data(), input.size()) == static_cast<ssize_t>(input.size());
  close(fd);
  if (!written) {
    std::filesystem::remove(path);
    throw std::runtime_error("known bugs: cannot write " + path);
  }
  const std::regex expect(row.expect);
  Decision decision;
  // The child records no observations and no coverage of its own: a review's log and profile are the
  // asking process's.
  for (int i = 0; i < row.tries && !decision.present; ++i) {
    const ChildRun run = RunChild(
        runner, {path}, {std::string("FUZZ=") + row.target, "SUITE_CHECK_KNOWN_BUGS=1", "LLVM_PROFILE_FILE=/dev/null"},
        {"SUITE_OBSERVE"});
    decision.present = run.Failed() && std::regex_search(run.output, expect);
    if (decision.present) decision.report = ReportIn(run.output);
  }
  std::filesystem::remove(path);
  return decision;
}

// Decided once per process and form; a first decision in progress on another thread is waited for.
const Decision& Decided(KnownBug form) {
  static std::mutex decide;
  static std::array<std::optional<Decision>, std::size(kForms)> decided;
  const std::lock_guard lock(decide);
  auto& d = decided[static_cast<size_t>(form)];
  if (!d) d = Applies(form) ? Present(form) : Decision{};
  return *d;
}

bool FormPresent(KnownBug form) { return Decided(form).present; }

}  // namespace

void SetTargetRunner(std::string path) {
  const std::lock_guard lock(g_mutex);
  g_runner = std::move(path);
}

KnownBugVerdict DecideKnownBug(std::string_view bug) {
  const std::vector<KnownBug> forms = FormsOf(bug);
  if (forms.empty() || !Applies(forms.front())) return KnownBugVerdict::kNotApplicable;
  size_t present = 0;
  for (const KnownBug form : forms) present += FormPresent(form);
  return present == 0              ? KnownBugVerdict::kFixed
         : present == forms.size() ? KnownBugVerdict::kPresent
                                   : KnownBugVerdict::kPartlyFixed;
}

bool KnownBugCheckRuns(KnownBug form) {
  if (!Applies(form) || ForceChecks()) return true;
  const Form& row = Row(form);
  // Said once per bug, when the first of its forms is asked: the verdict over all of them.
  static std::mutex said_mutex;
  static std::array<bool, std::size(kForms)> said{};
  {
    const std::lock_guard lock(said_mutex);
    const KnownBug first = FormsOf(row.bug).front();
    if (!said[static_cast<size_t>(first)]) {
      said[static_cast<size_t>(first)] = true;
      std::cerr << DescribeKnownBug(row.bug) << "\n";
    }
  }
  if (!FormPresent(form)) return true;
  // What the caller skips now makes this tree's observations differ from a tree without the bug's presence
  // from here on: the record lets a comparison of the two (tools/review) declare the difference.
  HARNESS_OBSERVE("known bug skipped", row.bug);
  return false;
}

bool IsKnownBug(std::string_view bug) { return !FormsOf(bug).empty(); }

std::string KnownBugEvidence(std::string_view bug) {
  std::string out;
  for (const KnownBug form : FormsOf(bug)) {
    if (!FormPresent(form)) continue;
    const Form& row = Row(form);
    out += std::string("form ") + row.name + ": its input for " + row.target + ", " + row.input_hex +
           ", fails here:\n" + Decided(form).report + "\n";
  }
  return out;
}

std::string DescribeKnownBug(std::string_view bug) {
  const std::vector<KnownBug> forms = FormsOf(bug);
  if (forms.empty()) return "no known bug is named " + std::string(bug);
  const Form& first = Row(forms.front());
  const std::string name(bug);
  const auto list = [&](bool present) {
    std::string out;
    for (const KnownBug form : forms) {
      if (FormPresent(form) != present) continue;
      out += (out.empty() ? "" : "; ") + std::string(Row(form).name) + ": " + Row(form).what;
    }
    return out;
  };
  switch (DecideKnownBug(bug)) {
    case KnownBugVerdict::kNotApplicable:
      return "known bug " + name + ": not applicable (the subject lacks the code it lives in; " + first.doc + ")";
    case KnownBugVerdict::kPresent:
      return "KNOWN BUG " + name + " present in this Bitcoin Core tree (its inputs still fail; " + first.doc +
             "): " + list(true) + ". Its checks are known-failing and skipped; SUITE_CHECK_KNOWN_BUGS=1 runs them";
    case KnownBugVerdict::kPartlyFixed:
      return "KNOWN BUG " + name + " partly fixed in this Bitcoin Core tree (" + first.doc +
             "): still present: " + list(true) +
             " (its checks are known-failing and skipped; SUITE_CHECK_KNOWN_BUGS=1 runs them); fixed: " + list(false) +
             " (their checks run)";
    case KnownBugVerdict::kFixed:
      return "known bug " + name + ": fixed in this tree (its inputs pass; " + first.doc + "): its checks run";
  }
  return {};
}

}  // namespace harness
