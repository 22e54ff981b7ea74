// FaultFile: stdio's write side made to fail on demand, for every FILE* this process writes through — the
// embedded AutoFile and Bitcoin Core's AutoFile, BufferedWriter and BlockManager alike. Every binary that
// links the harness is linked with -Wl,--wrap= for fwrite, fflush, fclose, fsync, fdatasync and ftruncate
// (harness/CMakeLists.txt), so those calls, made anywhere in the binary's own code and in Core's static
// libraries, reach the wrappers in fault_file.cpp, which pass them on unless a fault is armed.
//
// Armed, the k-th call of one kind by the arming thread (calls by other threads never count: the fault
// strikes the same call on every run of an input) fails as a full or failing disk makes it fail:
//   fwrite      nothing written (kFail), or the first half of the items only (kShort); errno ENOSPC or EIO
//   fflush      the buffered output is discarded (__fpurge) and EOF returned: the data never reaches the file
//   fclose      likewise, and the FILE* is closed anyway (as fclose does on an error)
//   fsync/fdatasync, ftruncate   -1, nothing done
// With `persistent` every call of that kind from the k-th on fails (a disk that stays full). The process's
// stdout and stderr are never failed nor counted: a failing program's last words must be read.
// The tester arms it around one operation of the subject and checks the contracts of docs/semantics.md §3
// ("A failing disk") afterwards. Nothing is kept between arms, so nothing survives a fuzz input.
#pragma once

#include <cstdint>

namespace harness::fault_file {

enum class Call : uint8_t { kWrite, kFlush, kClose, kSync, kTruncate };
inline constexpr int kCallCount = 5;
enum class Effect : uint8_t { kFail, kShort };

struct Fault {
  Call call = Call::kWrite;
  uint32_t at = 1;  // the at-th call (1-based) of `call` from arming
  Effect effect = Effect::kFail;
  int error = 0;  // errno to report: ENOSPC or EIO
  bool persistent = false;
};

// Arms `fault` for this thread's calls; clears injected().
void Arm(const Fault& fault);
void Disarm();
// Whether the armed fault struck since Arm (at least once).
bool Injected();
// Calls of `call` by the arming thread since Arm.
uint32_t Seen(Call call);
// While a fault is armed and has struck: its call's name ("fwrite", ...); else nullptr. What a failure report
// says of the path a failure took (harness/failure_report.h).
const char* StruckNow();
const char* ToString(Call call);

// Disarms on destruction: a scope that arms cannot leave the fault armed behind it, even by an exception.
class Armed {
 public:
  explicit Armed(const Fault& fault) { Arm(fault); }
  ~Armed() { Disarm(); }
  Armed(const Armed&) = delete;
  Armed& operator=(const Armed&) = delete;
};

}  // namespace harness::fault_file
