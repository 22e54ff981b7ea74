// The plain replay entry point (no fuzzing engine): runs the selected target once per input file.
//
//   FUZZ=name fuzz PATH...   PATH is a file, a directory (its files, sorted by name), or - (stdin)
//   fuzz --list | --dict=NAME | --options=NAME   (fuzz.h: HandleInfoFlags)
//
// A failing input does not end the replay. The inputs run in a child process; when one fails, the child dies
// and a new one goes on from the next input (fuzz/replay_loop.h). The replay ends with a summary: per distinct
// failure signature (fuzz/replay_signature.h), how many inputs failed so, and the smallest of them with its
// report, which names it (`replay: the failing input is <path>`). SUITE_REPLAY_STOP_AT_FIRST=1 runs the
// inputs in this process instead and stops at the first that fails, with only its report (no fork: what a
// debugger wants).
//
// Exit status: 0 when every input passed; 1 when one failed; 2 for a usage error, an unreadable path or no
// inputs at all. When stopping at the first, a failing input ends the process as it fails (abort, signal, a
// sanitizer's exit status).
//
// Coverage builds: every process that runs inputs writes its profile, also a dying one; with several
// children give LLVM_PROFILE_FILE a %p (or %m) so that each profile is kept. The first process writes none.
//
// SUITE_REPLAY_COUNT_ALLOCATIONS=1 (sanitizer builds): after each input, a line `replay: allocations NAME
// MALLOCS FREES` on stderr, what the sanitizer's allocator hooks counted while it ran. libFuzzer counts the
// same way, and after an input that frees less than it allocates it runs the input again and then a
// whole-heap leak scan; fuzz/check_deterministic.py fails a seed that keeps memory on every run after its first.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "failure_report.h"
#include "fuzz.h"
#include "observe.h"
#include "replay_loop.h"

// Set when a sanitizer runtime is linked; called as it reports an error and before it exits.
extern "C" [[gnu::weak]] void __sanitizer_set_death_callback(void (*callback)());
// Set in a build with coverage instrumentation: writes the profile, which a dying process would not.
extern "C" [[gnu::weak]] int __llvm_profile_write_file();
// Set when a sanitizer runtime is linked: hooks called on every allocation and free.
extern "C" [[gnu::weak]] int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                                           size_t),
                                                                       void (*free_hook)(const volatile void*));

namespace {

// SUITE_REPLAY_COUNT_ALLOCATIONS: the counts of the input running (any thread's allocations count).
std::atomic<bool> g_counting{false};
std::atomic<uint64_t> g_mallocs{0};
std::atomic<uint64_t> g_frees{0};
void CountMalloc(const volatile void*, size_t) {
  if (g_counting.load(std::memory_order_relaxed)) g_mallocs.fetch_add(1, std::memory_order_relaxed);
}
void CountFree(const volatile void*) {
  if (g_counting.load(std::memory_order_relaxed)) g_frees.fetch_add(1, std::memory_order_relaxed);
}

// The input being run, for the crash message. A fixed buffer: read from a signal handler.
char g_current[4096];

void WriteCurrent() {
  static volatile sig_atomic_t written = 0;
  if (written || g_current[0] == '\0') return;
  written = 1;
  const char prefix[] = "\nreplay: the failing input is ";
  (void)!write(STDERR_FILENO, prefix, sizeof prefix - 1);
  (void)!write(STDERR_FILENO, g_current, strnlen(g_current, sizeof g_current));
  (void)!write(STDERR_FILENO, "\n", 1);
  // What the failing input observed up to its failure, and the coverage of the inputs this process ran
  // (tools/review compares the one and counts the other).
  harness::observe::FlushBeforeDeath();
  if (__llvm_profile_write_file != nullptr) __llvm_profile_write_file();
}

void OnFatalSignal(int sig) {
  WriteCurrent();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Appends `dir`/NAME for each regular file (or link to one) in `dir`, in no order. False, with errno set, when
// the directory cannot be read.
bool ListFiles(const char* dir, std::vector<std::string>& out) {
  DIR* listing = opendir(dir);
  if (listing == nullptr) return false;
  std::string prefix = dir;
  if (prefix.back() != '/') prefix += '/';
  errno = 0;
  while (const dirent* entry = readdir(listing)) {
    std::string path = prefix + entry->d_name;
    struct stat status;
    // d_type says what the entry is, unless the file system does not tell or it is a link (followed, as
    // std::filesystem::is_regular_file does).
    const bool regular = entry->d_type == DT_REG || ((entry->d_type == DT_UNKNOWN || entry->d_type == DT_LNK) &&
                                                     stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode));
    if (regular) out.push_back(std::move(path));
    errno = 0;
  }
  const int error = errno;
  closedir(listing);
  errno = error;
  return error == 0;
}

bool ReadFile(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  fuzz::HandleInfoFlags(argc, argv);
  if (argc < 2 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0) {
    std::fprintf(stderr,
                 "usage: FUZZ=target %s PATH...  (files, directories, or - for stdin)\n"
                 "       %s --list | --dict=TARGET | --options=TARGET\n"
                 "SUITE_REPLAY_STOP_AT_FIRST=1: run the inputs in this process and stop at the first that fails\n",
                 argv[0], argv[0]);
    return 2;
  }
  const fuzz::TargetFn target = fuzz::SelectTarget();
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(WriteCurrent);
  for (const int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, OnFatalSignal);

  // Gather every input first, so that a bad path is reported before anything runs. As strings, listed with
  // readdir: what this process allocates before it forks is shared copy-on-write with the child that runs
  // the inputs, and every page of it the child's allocator reuses costs a page fault (path objects, one
  // allocation per path component, made a passing replay of 2,000 inputs 20 ms slower).
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    std::error_code ec;
    if (path == "-") {
      inputs.emplace_back(argv[i]);
    } else if (std::filesystem::is_directory(path, ec)) {
      const size_t first = inputs.size();
      if (!ListFiles(argv[i], inputs)) {
        std::fprintf(stderr, "replay: cannot list directory %s: %s\n", argv[i], std::strerror(errno));
        return 2;
      }
      std::sort(inputs.begin() + static_cast<std::ptrdiff_t>(first), inputs.end());
    } else if (std::filesystem::is_regular_file(path, ec)) {
      inputs.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
  }

  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs found (empty directories?)\n");
    return 2;
  }
  const char* count_allocations = std::getenv("SUITE_REPLAY_COUNT_ALLOCATIONS");
  const bool counting = count_allocations != nullptr && std::strcmp(count_allocations, "1") == 0 &&
                        __sanitizer_install_malloc_and_free_hooks != nullptr &&
                        __sanitizer_install_malloc_and_free_hooks(CountMalloc, CountFree) != 0;
  std::vector<uint8_t> data;
  // Runs input `i` in this process; false when it cannot be read.
  const auto run = [&](size_t i) {
    const std::string& path = inputs[i];
    // Named before it is read: an input too large to read fails while reading.
    std::snprintf(g_current, sizeof g_current, "%s", path.c_str());
    if (path == "-") {
      data.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else if (!ReadFile(path, data)) {
      std::fprintf(stderr, "replay: cannot read %s: %s\n", path.c_str(), std::strerror(errno));
      return false;
    }
    const std::string_view base = std::string_view(path).substr(path.rfind('/') + 1);
    harness::observe::BeginInput(base);
    g_mallocs = 0;
    g_frees = 0;
    g_counting = counting;
    harness::SetFailureInput(data.data(), data.size());
    target(fuzz::Buffer(data.data(), data.size()));
    harness::SetFailureInput(nullptr, 0);
    g_counting = false;
    if (counting) {
      std::fprintf(stderr, "replay: allocations %.*s %llu %llu\n", static_cast<int>(base.size()), base.data(),
                   static_cast<unsigned long long>(g_mallocs.load()), static_cast<unsigned long long>(g_frees.load()));
    }
    g_current[0] = '\0';  // a failure between inputs (a leak found at exit) is no input's
    return true;
  };
  const std::string_view name = fuzz::SelectedName();
  const char* stop_at_first = std::getenv("SUITE_REPLAY_STOP_AT_FIRST");
  if (stop_at_first != nullptr && std::strcmp(stop_at_first, "1") == 0) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!run(i)) return 2;
    }
    std::fprintf(stderr, "replay: %.*s: %zu inputs passed\n", static_cast<int>(name.size()), name.data(),
                 inputs.size());
    return 0;
  }

  const auto describe = [&](size_t i) {
    std::error_code ec;
    const uintmax_t size = inputs[i] == "-" ? 0 : std::filesystem::file_size(inputs[i], ec);
    return fuzz::replay::Input{inputs[i], inputs[i] == "-" || ec ? fuzz::replay::kUnknownSize : size};
  };
  const fuzz::replay::Outcome outcome = fuzz::replay::RunKeepGoing(inputs.size(), run, describe);
  if (!outcome.failures.empty()) {
    fuzz::replay::PrintSummary(stderr, name, inputs.size(), outcome);
  } else if (!outcome.stopped) {
    std::fprintf(stderr, "replay: %.*s: %zu inputs passed\n", static_cast<int>(name.size()), name.data(),
                 inputs.size());
  }
  const int status = outcome.stopped ? 2 : outcome.failures.empty() ? 0 : 1;
  // Without exit handlers: this process ran no input, so it has no coverage profile to write (one would
  // overwrite a child's when LLVM_PROFILE_FILE names one file) and no leak to look for.
  std::fflush(nullptr);
  std::_Exit(status);
}
