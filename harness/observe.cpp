#include "observe.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace harness::observe {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // test machinery
namespace {

// Written with write(2), not stdio: the failing disk of fault_file.h wraps stdio's calls, and a record made
// while a fault is armed must neither count as one of the calls nor meet the fault.
struct Log {
  int fd = -1;
  std::mutex mutex;
  std::string buffer;
  Log() {
    const char* path = std::getenv("SUITE_OBSERVE");
    if (path == nullptr || *path == '\0') return;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      std::fprintf(stderr, "SUITE_OBSERVE=%s: cannot open it for writing\n", path);
      std::exit(2);
    }
  }
  ~Log() {
    if (fd < 0) return;
    Flush();
    close(fd);
  }
  void Flush() {
    for (size_t done = 0; done < buffer.size();) {
      const ssize_t n = write(fd, buffer.data() + done, buffer.size() - done);
      if (n <= 0) {
        std::fprintf(stderr, "SUITE_OBSERVE: write failed\n");
        std::exit(2);
      }
      done += static_cast<size_t>(n);
    }
    buffer.clear();
  }
  void Line(std::string_view a, std::string_view b, std::string_view c, std::string_view d) {
    const std::lock_guard lock(mutex);
    for (const std::string_view part : {a, b, c, d}) buffer.append(part);
    buffer.push_back('\n');
    if (buffer.size() >= (1 << 16)) Flush();
  }
};

Log& TheLog() {
  static Log log;
  return log;
}

// Values on one line: a newline inside one would split a record.
std::string OneLine(std::string_view value) {
  std::string out(value);
  for (char& c : out) {
    if (c == '\n') c = '|';
  }
  return out;
}

// The change of the innermost ChangeScope of this thread, or nullptr.
thread_local const char* t_change = nullptr;

// "[change] ", the prefix of a record tied to `change`.
std::string Tag(std::string_view change) { return Concat("[", change, "] "); }
// The prefix of a record made now: its ChangeScope's tag, or "".
std::string Tag() { return t_change == nullptr ? std::string() : Tag(t_change); }

}  // namespace

const bool g_on = TheLog().fd >= 0;

void BeginInput(std::string_view name) {
  if (!On()) return;
  Log& log = TheLog();
  {
    const std::lock_guard lock(log.mutex);
    log.Flush();  // what came before is on disk even if this input ends the process
  }
  log.Line("input ", name, "", "");
}

void Record(std::string_view label, std::string_view value) {
  if (On()) TheLog().Line(Tag(), label, ": ", OneLine(value));
}

void RecordCheck(const char* file, int line, const char* expression, std::string_view value) {
  if (On()) TheLog().Line(Concat(Tag(), RepositoryPath(file), ":", line, " "), expression, ": ", OneLine(value));
}

void FlushBeforeDeath() {
  if (!On()) return;
  Log& log = TheLog();
  for (size_t done = 0; done < log.buffer.size();) {
    const ssize_t n = write(log.fd, log.buffer.data() + done, log.buffer.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
  log.buffer.clear();
}

void RecordChange(std::string_view change, std::string_view label, std::string_view value) {
  if (On()) TheLog().Line(Tag(change), label, ": ", OneLine(value));
}

ChangeScope::ChangeScope(const char* change) : previous_(t_change) { t_change = change; }
ChangeScope::~ChangeScope() { t_change = previous_; }

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness::observe
