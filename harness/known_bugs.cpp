#include "known_bugs.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
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

#include "seam/coins_cache.h"
#include "seam/file_io.h"
#include "seam/types.h"

extern char** environ;

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

struct ChildRun {
  bool failed = false;  // a nonzero exit or a signal
  std::string output;   // stdout and stderr together
};

// `program` run on `file` with the environment plus FUZZ=<target> and SUITE_CHECK_KNOWN_BUGS=1.
ChildRun RunTarget(const std::string& program, const char* target, const std::string& file) {
  // The child records no observations and no coverage of its own: a review's log and profile are the
  // asking process's.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view var(*e);
    const std::string_view key = var.substr(0, var.find('='));
    if (key != "FUZZ" && key != "SUITE_CHECK_KNOWN_BUGS" && key != "SUITE_OBSERVE" && key != "LLVM_PROFILE_FILE") {
      env.emplace_back(*e);
    }
  }
  env.push_back(std::string("FUZZ=") + target);
  env.emplace_back("SUITE_CHECK_KNOWN_BUGS=1");
  env.emplace_back("LLVM_PROFILE_FILE=/dev/null");
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string arg0 = program, arg1 = file;
  std::array<char*, 3> argv{arg0.data(), arg1.data(), nullptr};

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("known bugs: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("known bugs: cannot run " + program + ": " + std::strerror(rc));
  }
  ChildRun run;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    run.output.append(buffer, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  return run;
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
  std::string path = (dir / "suite_known_bug.XXXXXX").string();
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
  for (int i = 0; i < row.tries && verdict == KnownBugVerdict::kFixed; ++i) {
    const ChildRun run = RunTarget(runner, row.target, path);
    if (run.failed && std::regex_search(run.output, expect)) verdict = KnownBugVerdict::kPresent;
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
  return verdict != KnownBugVerdict::kPresent;
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
