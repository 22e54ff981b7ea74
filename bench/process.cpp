#include "process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace bench {

size_t StatusKiB(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::stoul(line.substr(n + 1));
  }
  throw std::runtime_error(std::string("no ") + field + " in /proc/self/status");
}

bool ResetPeakRss() { return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5" << std::flush); }

bool RunInChild(const std::string& what, const std::function<void()>& work) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return false;
  }
  if (pid == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", what.c_str(), e.what());
      std::fflush(stdout);
      _exit(1);
    }
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::optional<size_t> PositiveNumber(const std::string& text) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || v == 0 || text[0] == '-') return std::nullopt;
  return static_cast<size_t>(v);
}

std::optional<std::vector<size_t>> PositiveList(const std::string& text) {
  std::vector<size_t> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::optional<size_t> v = PositiveNumber(text.substr(start, comma - start));
    if (!v) return std::nullopt;
    out.push_back(*v);
    start = comma + 1;
  }
  return out;
}

size_t DirectoryBytes(const std::string& dir) {
  size_t bytes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) bytes += entry.file_size();
  }
  return bytes;
}

}  // namespace bench
