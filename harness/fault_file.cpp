#include "fault_file.h"

#include <stdio_ext.h>
#include <sys/types.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <mutex>
#include <thread>

#include "check.h"

// The real functions, which the linker's --wrap renames the originals to.
extern "C" {
size_t __real_fwrite(const void* data, size_t size, size_t count, std::FILE* file);
int __real_fflush(std::FILE* file);
int __real_fclose(std::FILE* file);
int __real_fsync(int fd);
int __real_fdatasync(int fd);
int __real_ftruncate(int fd, off_t length);
}

namespace harness::fault_file {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // test machinery: no coverage feedback for the fuzzer
namespace {

struct State {
  std::atomic<bool> armed_any{false};  // the fast path of every call while nothing is armed
  std::mutex mutex;
  bool armed = false;
  std::thread::id thread;
  Fault fault;
  uint32_t seen[kCallCount] = {};
  bool injected = false;
};

State& Shared() {
  static State state;
  return state;
}

// Whether this call fails; sets errno when it does.
bool Strikes(Call call) {
  State& s = Shared();
  if (!s.armed_any.load(std::memory_order_acquire)) return false;
  const std::lock_guard lock(s.mutex);
  if (!s.armed || std::this_thread::get_id() != s.thread) return false;
  const uint32_t n = ++s.seen[static_cast<int>(call)];
  if (call != s.fault.call || n < s.fault.at || (n > s.fault.at && !s.fault.persistent)) return false;
  s.injected = true;
  errno = s.fault.error != 0 ? s.fault.error : ENOSPC;
  return true;
}

Effect CurrentEffect() {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  return s.fault.effect;
}

}  // namespace

void Arm(const Fault& fault) {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  s.armed = true;
  s.armed_any.store(true, std::memory_order_release);
  s.thread = std::this_thread::get_id();
  s.fault = fault;
  for (uint32_t& n : s.seen) n = 0;
  s.injected = false;
}

void Disarm() {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  s.armed = false;
  s.armed_any.store(false, std::memory_order_release);
}

bool Injected() {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  return s.injected;
}

uint32_t Seen(Call call) {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  return s.seen[static_cast<int>(call)];
}

const char* StruckNow() {
  State& s = Shared();
  const std::lock_guard lock(s.mutex);
  return s.armed && s.injected ? ToString(s.fault.call) : nullptr;
}

const char* ToString(Call call) {
  static constexpr const char* kNames[kCallCount] = {"fwrite", "fflush", "fclose", "fsync", "ftruncate"};
  return kNames[static_cast<int>(call)];
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness::fault_file

using harness::fault_file::Call;
using harness::fault_file::Effect;
using harness::fault_file::Strikes;

extern "C" {

// The process's own stdout and stderr are no disk: what a failing program prints there (an assertion's
// message) must reach the reader whole. Their calls are neither counted nor failed.
static bool Terminal(std::FILE* file) { return file == stderr || file == stdout; }

HARNESS_NO_FUZZ_COVERAGE size_t __wrap_fwrite(const void* data, size_t size, size_t count, std::FILE* file) {
  // A write of nothing cannot fail: it is not counted.
  if (size == 0 || count == 0 || Terminal(file) || !Strikes(Call::kWrite)) {
    return __real_fwrite(data, size, count, file);
  }
  if (harness::fault_file::CurrentEffect() == Effect::kShort && count > 1) {
    const int error = errno;
    const size_t written = __real_fwrite(data, size, count / 2, file);
    __real_fflush(file);  // the half that went through reaches the file, as a short write(2) leaves it
    errno = error;
    return written;
  }
  return 0;
}

HARNESS_NO_FUZZ_COVERAGE int __wrap_fflush(std::FILE* file) {
  if (file == nullptr || Terminal(file) || !Strikes(Call::kFlush)) return __real_fflush(file);
  __fpurge(file);
  return EOF;
}

HARNESS_NO_FUZZ_COVERAGE int __wrap_fclose(std::FILE* file) {
  if (Terminal(file) || !Strikes(Call::kClose)) return __real_fclose(file);
  const int error = errno;
  __fpurge(file);
  __real_fclose(file);
  errno = error;
  return EOF;
}

HARNESS_NO_FUZZ_COVERAGE int __wrap_fsync(int fd) { return Strikes(Call::kSync) ? -1 : __real_fsync(fd); }

HARNESS_NO_FUZZ_COVERAGE int __wrap_fdatasync(int fd) { return Strikes(Call::kSync) ? -1 : __real_fdatasync(fd); }

HARNESS_NO_FUZZ_COVERAGE int __wrap_ftruncate(int fd, off_t length) {
  return Strikes(Call::kTruncate) ? -1 : __real_ftruncate(fd, length);
}

}  // extern "C"
