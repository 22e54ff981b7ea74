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

struct Bug {
  const char* name;
  const char* target;
  const char* input_hex;
  const char* expect;
  int tries;
  const char* doc;
  const char* what;
};

#define HARNESS_KNOWN_BUG_ROW_(e, name, target, input, expect, tries, doc, what) \
  Bug{name, target, input, expect, tries, doc, what},
constexpr Bug kBugs[] = {HARNESS_KNOWN_BUGS(HARNESS_KNOWN_BUG_ROW_)};
#undef HARNESS_KNOWN_BUG_ROW_

const Bug& Row(KnownBug bug) { return kBugs[static_cast<size_t>(bug)]; }

// Whether the subject can have the bug at all: only Bitcoin Core, and only a tree with the code it lives in.
bool Applies(KnownBug bug) {
  if (!seam::kSubjectIsCore) return false;
  switch (bug) {
    case KnownBug::kWriterFailedFlush: return seam::kBufferedStreams;
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
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

KnownBugVerdict Decide(KnownBug bug) {
  if (!Applies(bug)) return KnownBugVerdict::kNotApplicable;
  const Bug& row = Row(bug);
  std::string runner;
  {
    const std::lock_guard lock(g_mutex);
    runner = g_runner;
  }
  if (runner.empty()) {
    throw std::logic_error(std::string("known bug ") + row.name + ": no program to run its input (SetTargetRunner)");
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
  KnownBugVerdict verdict = KnownBugVerdict::kFixed;
  // The child records no observations and no coverage of its own: a review's log and profile are the
  // asking process's.
  for (int i = 0; i < row.tries && verdict == KnownBugVerdict::kFixed; ++i) {
    const ChildRun run = RunChild(runner, {path}, {std::string("FUZZ=") + row.target, "SUITE_CHECK_KNOWN_BUGS=1",
                                                   "LLVM_PROFILE_FILE=/dev/null"}, {"SUITE_OBSERVE"});
    if (run.Failed() && std::regex_search(run.output, expect)) verdict = KnownBugVerdict::kPresent;
  }
  std::filesystem::remove(path);
  return verdict;
}

}  // namespace

void SetTargetRunner(std::string path) {
  const std::lock_guard lock(g_mutex);
  g_runner = std::move(path);
}

KnownBugVerdict DecideKnownBug(KnownBug bug) {
  // Decided once per process and bug; a first decision in progress on another thread is waited for.
  static std::mutex decide;
  static std::array<std::optional<KnownBugVerdict>, std::size(kBugs)> verdicts;
  const std::lock_guard lock(decide);
  auto& v = verdicts[static_cast<size_t>(bug)];
  if (!v) v = Decide(bug);
  return *v;
}

bool KnownBugCheckRuns(KnownBug bug) {
  if (!Applies(bug) || ForceChecks()) return true;
  static std::array<bool, std::size(kBugs)> told{};
  const KnownBugVerdict verdict = DecideKnownBug(bug);
  bool& said = told[static_cast<size_t>(bug)];
  if (!said) {
    said = true;
    std::cerr << DescribeKnownBug(bug, verdict) << "\n";
  }
  if (verdict != KnownBugVerdict::kPresent) return true;
  // What the caller skips now makes this tree's observations differ from a tree without the bug's presence
  // from here on: the record lets a comparison of the two (tools/review) declare the difference.
  HARNESS_OBSERVE("known bug skipped", KnownBugName(bug));
  return false;
}

bool FindKnownBug(std::string_view name, KnownBug& bug) {
  for (size_t i = 0; i < std::size(kBugs); ++i) {
    if (name == kBugs[i].name) {
      bug = static_cast<KnownBug>(i);
      return true;
    }
  }
  return false;
}

std::string_view KnownBugName(KnownBug bug) { return Row(bug).name; }

std::string DescribeKnownBug(KnownBug bug, KnownBugVerdict verdict) {
  const Bug& row = Row(bug);
  switch (verdict) {
    case KnownBugVerdict::kNotApplicable:
      return std::string("known bug ") + row.name + ": not applicable (the subject lacks the code it lives in; " +
             row.doc + ")";
    case KnownBugVerdict::kPresent:
      return std::string("KNOWN BUG ") + row.name + " present in this Bitcoin Core tree (its input still fails; " +
             row.doc + "): " + row.what + ". Its check is known-failing and skipped; SUITE_CHECK_KNOWN_BUGS=1 runs it";
    case KnownBugVerdict::kFixed:
      return std::string("known bug ") + row.name + ": fixed in this tree (its input passes; " + row.doc +
             "): its check runs";
  }
  return {};
}

}  // namespace harness
