// The plain replay entry point (no fuzzing engine): runs the selected target once per input file.
//
//   FUZZ=name fuzz PATH...   PATH is a file, a directory (its files, sorted by name), or - (stdin)
//   fuzz --list | --dict=NAME | --options=NAME   (fuzz.h: HandleInfoFlags)
//
// Exit status: 0 when every input ran; 2 for a usage error, an unreadable path or no inputs at all; a crash (HARNESS_CHECK,
// sanitizer report, signal) ends the process with the name of the input that was running.
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "fuzz.h"
#include "observe.h"

// Set when a sanitizer runtime is linked; called as it reports an error and before it exits.
extern "C" [[gnu::weak]] void __sanitizer_set_death_callback(void (*callback)());
// Set in a build with coverage instrumentation: writes the profile, which a dying process would not.
extern "C" [[gnu::weak]] int __llvm_profile_write_file();

namespace {

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

bool ReadFile(const std::filesystem::path& path, std::vector<uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  fuzz::HandleInfoFlags(argc, argv);
  if (argc < 2 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0) {
    std::fprintf(stderr, "usage: FUZZ=target %s PATH...  (files, directories, or - for stdin)\n"
                 "       %s --list | --dict=TARGET | --options=TARGET\n", argv[0], argv[0]);
    return 2;
  }
  const fuzz::TargetFn target = fuzz::SelectTarget();
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(WriteCurrent);
  for (const int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, OnFatalSignal);

  // Gather every input first, so that a bad path is reported before anything runs.
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    std::error_code ec;
    if (path == "-") {
      inputs.push_back(path);
    } else if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      if (ec) {
        std::fprintf(stderr, "replay: cannot list directory %s: %s\n", argv[i], ec.message().c_str());
        return 2;
      }
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(path, ec)) {
      inputs.push_back(path);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
  }

  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs found (empty directories?)\n");
    return 2;
  }
  std::vector<uint8_t> data;
  for (const auto& path : inputs) {
    if (path == "-") {
      data.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else if (!ReadFile(path, data)) {
      std::fprintf(stderr, "replay: cannot read %s: %s\n", path.c_str(), std::strerror(errno));
      return 2;
    }
    std::snprintf(g_current, sizeof g_current, "%s", path.c_str());
    harness::observe::BeginInput(path.filename().string());
    target(fuzz::Buffer(data.data(), data.size()));
  }
  g_current[0] = '\0';
  std::fprintf(stderr, "replay: %.*s: %zu inputs passed\n", static_cast<int>(fuzz::SelectedName().size()),
               fuzz::SelectedName().data(), inputs.size());
  return 0;
}
