#include "replay_loop.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <tuple>

#include "replay_signature.h"

// Set in a build with coverage instrumentation: names the file the profile is written to.
extern "C" [[gnu::weak]] void __llvm_profile_set_filename(const char* name);

namespace fuzz::replay {
namespace {

// What a child tells its parent, in a page they share: written by the child, read by the parent once the
// child has ended. Lock-free atomics, so that a store is in the page before the input that follows it runs.
struct ChildState {
  static constexpr uint64_t kNotStarted = UINT64_MAX;   // no input started yet
  static constexpr uint64_t kAllDone = UINT64_MAX - 1;  // the last input returned
  std::atomic<uint64_t> running{kNotStarted};           // the input started last, or one of the two above
  std::atomic<uint64_t> output_at{0};                   // where in the child's stderr that input's output starts
  std::atomic<bool> stopped{false};                     // RunInput returned false for `running`
};
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the state is shared between processes");

// The coverage runtime expands %p in LLVM_PROFILE_FILE once, at start-up, to the parent's pid: each child
// would write the parent's file, over its siblings'. A child names the file with its own pid instead.
void NameOwnProfile() {
  if (__llvm_profile_set_filename == nullptr) return;
  const char* pattern = std::getenv("LLVM_PROFILE_FILE");
  if (pattern == nullptr || std::strstr(pattern, "%p") == nullptr) return;
  static std::string name;  // the runtime may keep the pointer
  const std::string pid = std::to_string(getpid());
  for (const char* c = pattern; *c != '\0'; ++c) {
    if (c[0] == '%' && c[1] == 'p') {
      name += pid;
      ++c;
    } else {
      name += *c;
    }
  }
  __llvm_profile_set_filename(name.c_str());
}

uint64_t StderrOffset() {
  const off_t at = lseek(STDERR_FILENO, 0, SEEK_CUR);
  return at < 0 ? 0 : static_cast<uint64_t>(at);
}

[[noreturn]] void RunChild(size_t from, size_t count, const RunInput& run, ChildState& state) {
  NameOwnProfile();
  for (size_t i = from; i < count; ++i) {
    state.output_at.store(StderrOffset());
    state.running.store(i);
    if (!run(i)) {
      state.stopped.store(true);
      std::exit(2);
    }
  }
  state.output_at.store(StderrOffset());
  state.running.store(ChildState::kAllDone);
  std::exit(0);
}

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // stderr is gone: nothing better to do with the text
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Bytes [from, to) of the file `fd`.
std::string ReadRange(int fd, uint64_t from, uint64_t to) {
  std::string out;
  char buffer[1 << 16];
  while (from < to) {
    const ssize_t n =
        pread(fd, buffer, static_cast<size_t>(std::min<uint64_t>(sizeof buffer, to - from)), static_cast<off_t>(from));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
    from += static_cast<uint64_t>(n);
  }
  return out;
}

// Copies bytes [from, to) of `fd` to stderr, a buffer at a time (a passing run may print much).
void CopyToStderr(int fd, uint64_t from, uint64_t to) {
  constexpr uint64_t kChunk = 1 << 20;
  for (uint64_t at = from; at < to; at += kChunk) WriteAll(STDERR_FILENO, ReadRange(fd, at, std::min(to, at + kChunk)));
}

// Whether `a` is shown rather than `b`: the smaller, then the first by name.
bool Smaller(const Input& a, const Input& b) { return std::tie(a.size, a.name) < std::tie(b.size, b.name); }

// Records that input `index` (or kAtExit) failed, having written `report`, with the wait status `status`.
void Record(Outcome& outcome, const DescribeInput& describe, size_t index, std::string report, int status) {
  Input input = index == kAtExit ? Input{"the exit after the last input", kUnknownSize} : describe(index);
  std::string signature = FailureSignature(report, status, index == kAtExit ? std::string_view() : input.name);
  std::fprintf(stderr, "replay: %s failed: %s\n", input.name.c_str(), signature.c_str());
  if (index != kAtExit) ++outcome.failed;
  const auto same = std::find_if(outcome.failures.begin(), outcome.failures.end(),
                                 [&](const Failure& f) { return f.signature == signature; });
  if (same == outcome.failures.end()) {
    outcome.failures.push_back(Failure{std::move(signature), 1, index, std::move(input), std::move(report)});
    return;
  }
  ++same->count;
  // An input is shown rather than the exit.
  if (same->smallest == kAtExit || (index != kAtExit && Smaller(input, same->input))) {
    same->smallest = index;
    same->input = std::move(input);
    same->report = std::move(report);
  }
}

// A new file for a child's stderr, or -1. A file, not a pipe: it needs no reader while the child runs, and
// the child's output is read back once it has ended. In memory where the kernel offers that.
int NewOutputFile() {
  const int fd = memfd_create("replay-stderr", MFD_CLOEXEC);
  if (fd >= 0) return fd;
  std::FILE* file = std::tmpfile();
  if (file == nullptr) return -1;
  const int copy = fcntl(fileno(file), F_DUPFD_CLOEXEC, 0);
  std::fclose(file);  // unlinked already: `copy` keeps it
  return copy;
}

void Stop(Outcome& outcome, const char* what) {
  std::fprintf(stderr, "replay: %s: %s\n", what, std::strerror(errno));
  outcome.stopped = true;
}

}  // namespace

Outcome RunKeepGoing(size_t count, const RunInput& run, const DescribeInput& describe) {
  Outcome outcome;
  void* page = mmap(nullptr, sizeof(ChildState), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    Stop(outcome, "cannot map a page to share with the replaying process");
    return outcome;
  }
  auto* state = new (page) ChildState;
  for (size_t next = 0; next < count;) {
    const int fd = NewOutputFile();
    if (fd < 0) {
      Stop(outcome, "cannot create a file for the inputs' output");
      break;
    }
    state->running.store(ChildState::kNotStarted);
    state->output_at.store(0);
    state->stopped.store(false);
    std::fflush(nullptr);  // what stdio holds is written once, not once more by each child
    const pid_t pid = fork();
    if (pid < 0) {
      Stop(outcome, "cannot fork a process to replay the inputs");
      close(fd);
      break;
    }
    if (pid == 0) {
      dup2(fd, STDERR_FILENO);
      RunChild(next, count, run, *state);
    }
    int status = 0;
    pid_t waited;
    while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (waited < 0) {
      Stop(outcome, "cannot wait for the replaying process");
      close(fd);
      break;
    }
    const off_t end_offset = lseek(fd, 0, SEEK_END);
    const uint64_t end = end_offset < 0 ? 0 : static_cast<uint64_t>(end_offset);
    const uint64_t running = state->running.load();
    const uint64_t at = std::min(state->output_at.load(), end);
    CopyToStderr(fd, 0, at);  // the output of the inputs that passed
    std::string report = ReadRange(fd, at, end);
    close(fd);
    const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (running == ChildState::kAllDone) {
      if (clean) {
        WriteAll(STDERR_FILENO, report);
      } else {
        Record(outcome, describe, kAtExit, std::move(report), status);
      }
      break;
    }
    if (state->stopped.load()) {
      WriteAll(STDERR_FILENO, report);
      outcome.stopped = true;
      break;
    }
    // A child that died before it started an input (it cannot, short of a fault in the loop itself) is
    // charged to the input it was to start, so that the replay still goes on.
    const size_t index = running == ChildState::kNotStarted ? next : static_cast<size_t>(running);
    Record(outcome, describe, index, std::move(report), status);
    next = index + 1;
  }
  state->~ChildState();
  munmap(page, sizeof(ChildState));
  return outcome;
}

void PrintSummary(std::FILE* out, std::string_view target, size_t count, const Outcome& outcome) {
  const int target_len = static_cast<int>(target.size());
  const size_t distinct = outcome.failures.size();
  std::fprintf(out,
               "\nreplay: %.*s: %zu of %zu inputs failed, %zu distinct failure%s; the smallest input of each "
               "and its report:\n",
               target_len, target.data(), outcome.failed, count, distinct, distinct == 1 ? "" : "s");
  for (size_t k = 0; k < distinct; ++k) {
    const Failure& f = outcome.failures[k];
    const std::string size = f.smallest == kAtExit          ? "no input"
                             : f.input.size == kUnknownSize ? "standard input"
                                                            : std::to_string(f.input.size) + " bytes";
    std::fprintf(out, "\nreplay: failure %zu of %zu, %zu input%s: %s\n", k + 1, distinct, f.count,
                 f.count == 1 ? "" : "s", f.signature.c_str());
    std::fprintf(out, "replay: smallest: %s (%s); %s\n", f.input.name.c_str(), size.c_str(),
                 f.report.empty() ? "it printed nothing" : "its report:");
    std::fwrite(f.report.data(), 1, f.report.size(), out);
    if (!f.report.empty() && f.report.back() != '\n') std::fputc('\n', out);
  }
  std::fprintf(out, "\nreplay: %.*s: %zu of %zu inputs failed:\n", target_len, target.data(), outcome.failed, count);
  for (const Failure& f : outcome.failures) {
    std::fprintf(out, "replay:   %zu x %s%s\n", f.count, f.signature.c_str(),
                 f.smallest == kAtExit ? " (at exit)" : "");
  }
  std::fflush(out);
}

}  // namespace fuzz::replay
