// file_io_sim: AutoFile, BufferedWriter and BufferedReader on a real file against FileModel
// (FileIoTester). The file is a memfd: a kernel tmpfs file with no name, so nothing is left behind and no
// cleanup can be missed, it stays in memory (fast), and it is sparse, so offsets above 2^32 cost nothing.
// The first bytes pick the key; each step is an op code and only the arguments it uses: a length class,
// a target offset (near the start, the 4 KiB chunk and 64 KiB buffer boundaries, 2^32, or anywhere in
// the model's windows), a mechanics byte (buffer sizes, data alignment, a write path) and a data seed; a
// failing disk's step also a byte that picks the failing call and how it fails.
#include <fuzzer/FuzzedDataProvider.h>

#include "file_tester.h"
#include "fuzz.h"
#include "seam/obfuscation.h"

namespace {

// Enough to write, flush, seek across 2^32, reopen and read back in one input; each step can cost several
// system calls, so longer inputs would only slow the fuzzer down.
constexpr int kMaxSteps = 32;

using harness::FileModel;
using harness::FileOp;

HARNESS_NO_FUZZ_COVERAGE uint32_t ConsumeLength(FuzzedDataProvider& fdp) {
  // Lengths past a 64 KiB buffer are the expensive ones (a one-byte writer buffer makes one write call per
  // byte): one class in eight.
  switch (fdp.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
    case 1:
    case 2: return fdp.ConsumeIntegralInRange<uint32_t>(0, 16);
    case 3:
    case 4:
    case 5: return fdp.ConsumeIntegralInRange<uint32_t>(0, 300);
    case 6: return fdp.ConsumeIntegralInRange<uint32_t>(4000, 4200);  // across the 4 KiB write chunk
    default: return fdp.ConsumeIntegralInRange<uint32_t>(60000, harness::FileIoTester::kMaxLen);
  }
}

HARNESS_NO_FUZZ_COVERAGE uint64_t ConsumeTarget(FuzzedDataProvider& fdp) {
  const int w = fdp.ConsumeBool() ? 1 : 0;
  const uint64_t base = FileModel::kWindowBase[w];
  const int64_t delta = fdp.ConsumeIntegralInRange<int64_t>(-16, 16);
  uint64_t anchor = 0;
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: anchor = 16; break;
    case 1: anchor = w == 0 ? 4096 : FileModel::kWindowSize / 2; break;  // 2^32 in window 1
    case 2: anchor = w == 0 ? 65536 : FileModel::kWindowSize / 2 + 65536; break;
    default: anchor = fdp.ConsumeIntegralInRange<uint64_t>(0, FileModel::kWindowSize);
  }
  return base + std::min<uint64_t>(FileModel::kWindowSize, anchor + delta);
}

HARNESS_NO_FUZZ_COVERAGE std::array<uint8_t, 8> DecodeKey(FuzzedDataProvider& fdp) {
  std::array<uint8_t, 8> key{};
  switch (fdp.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: break;  // all zero: obfuscation off, plaintext on disk
    case 1: key[fdp.ConsumeIntegralInRange<size_t>(0, 7)] = fdp.ConsumeIntegral<uint8_t>(); break;
    default:
      for (auto& b : key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  return key;
}

HARNESS_NO_FUZZ_COVERAGE int Decode(FuzzedDataProvider& fdp, harness::FileStep (&steps)[kMaxSteps],
                                    fuzz::OpLayout* layout = nullptr) {
  int n = 0;
  for (; n < kMaxSteps && fdp.remaining_bytes() > 0; ++n, fuzz::Mark(layout, fdp)) {
    const auto op = fuzz::ConsumeOp<FileOp>(fdp);
    if (!op) break;
    harness::FileStep& step = steps[n];
    step.op = *op;
    switch (step.op) {
      case FileOp::kWrite:
      case FileOp::kWriteConsume:
      case FileOp::kBufferedWrite:
        step.len = ConsumeLength(fdp);
        step.seed = fdp.ConsumeIntegral<uint16_t>();
        step.mech = fdp.ConsumeIntegral<uint8_t>();
        break;
      case FileOp::kRead:
      case FileOp::kReaderRead:
        step.len = ConsumeLength(fdp);
        step.mech = fdp.ConsumeIntegral<uint8_t>();
        break;
      case FileOp::kIgnore: step.len = ConsumeLength(fdp); break;
      case FileOp::kSeekSet:
      case FileOp::kSeekCur:
      case FileOp::kSeekEnd:
      case FileOp::kReopen:
      case FileOp::kTruncate: step.target = ConsumeTarget(fdp); break;
      case FileOp::kClose:
        step.target = ConsumeTarget(fdp);
        step.mech = fdp.ConsumeIntegral<uint8_t>();
        break;
      case FileOp::kFail:
        step.len = ConsumeLength(fdp);
        step.seed = fdp.ConsumeIntegral<uint16_t>();
        step.mech = fdp.ConsumeIntegral<uint8_t>();
        step.target = fdp.ConsumeIntegral<uint8_t>();  // the fault: call, k, effect, persistence, errno
        break;
      case FileOp::kSeekBeforeStart:
        step.len = fdp.ConsumeIntegral<uint8_t>();
        step.mech = fdp.ConsumeIntegral<uint8_t>();
        break;
      case FileOp::kReaderOpen: step.mech = fdp.ConsumeIntegral<uint8_t>(); break;
      default: break;
    }
  }
  return n;
}

}  // namespace

FUZZ_TARGET(file_io_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  const std::array<uint8_t, 8> key = DecodeKey(fdp);
  harness::FileStep steps[kMaxSteps];
  const int n = Decode(fdp, steps);
  harness::FileIoTester tester(key);
  for (int i = 0; i < n; ++i) tester.Apply(steps[i]);
  tester.Finish();
}

FUZZ_TARGET_INFO(file_io_sim) {
  fuzz::TargetInfo info;
  // The key (a class byte and up to 8 bytes), then at most 8 bytes a step: a write (op, length class, two
  // length bytes, 2-byte seed, mechanics), a failing one (the same and a fault byte) or a seek (op, window,
  // delta, anchor class, 3-byte anchor).
  info.max_len = 1 + seam::Obfuscation::kKeySize + kMaxSteps * 8;
  info.AddEnum<harness::FileOp>("op", harness::kFileOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeKey(fdp);
    fuzz::Mark(&layout, fdp);
    harness::FileStep steps[kMaxSteps];
    Decode(fdp, steps, &layout);
  };
  return info;
}
