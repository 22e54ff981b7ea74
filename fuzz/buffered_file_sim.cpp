// buffered_file_sim: BufferedFile, the reader a node scans blk files with on -loadblock and reindex,
// against the file's plaintext (BufferedFileTester). The first bytes pick the obfuscation key, the file
// (a length on either side of the buffer sizes, bytes from a seed with a few chosen bytes planted for
// FindByte), where the file stands when the reader starts, the buffer size and the rewind limit; each step
// is an op code and its one argument.
#include <fuzzer/FuzzedDataProvider.h>

#include "buffered_file_tester.h"
#include "fuzz.h"
#include "rng.h"

namespace {

constexpr int kMaxSteps = 48;
// Buffer sizes around the lengths below, Core's -loadblock reader's included (16 MiB is too large here:
// 64 KiB stands for it).
constexpr uint64_t kSizes[] = {2, 3, 8, 61, 64, 1000, 4096, 65536};
// The bytes planted for FindByte (a network magic's first byte among them); others occur at random.
constexpr uint8_t kPlanted[] = {0xf9, 0x0b, 0x00, 0xff};

HARNESS_NO_FUZZ_COVERAGE uint32_t ConsumeLength(FuzzedDataProvider& fdp) {
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return fdp.ConsumeIntegralInRange<uint32_t>(0, 16);
    case 1: return fdp.ConsumeIntegralInRange<uint32_t>(0, 300);
    case 2: return fdp.ConsumeIntegralInRange<uint32_t>(900, 1100);
    default: return fdp.ConsumeIntegralInRange<uint32_t>(0, 70000);
  }
}

HARNESS_NO_FUZZ_COVERAGE harness::BufferedFileTester::Config DecodeConfig(FuzzedDataProvider& fdp) {
  harness::BufferedFileTester::Config c;
  if (fdp.ConsumeBool()) {
    for (auto& b : c.key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  const uint32_t length = ConsumeLength(fdp);
  harness::Rng rng(fdp.ConsumeIntegral<uint16_t>());
  const uint32_t planted_every = 1 + fdp.ConsumeIntegralInRange<uint32_t>(0, 255);
  c.content.resize(length);
  for (auto& b : c.content) {
    const uint64_t r = rng.Next();
    b = r % planted_every == 0 ? kPlanted[(r >> 8) % std::size(kPlanted)] : static_cast<uint8_t>(r >> 16);
  }
  c.start = fdp.ConsumeIntegralInRange<uint64_t>(0, std::min<uint64_t>(length, 70));
  c.size = kSizes[fdp.ConsumeIntegralInRange<size_t>(0, std::size(kSizes) - 1)];
  c.rewind = fdp.ConsumeIntegralInRange<uint64_t>(0, c.size - 1);
  return c;
}

HARNESS_NO_FUZZ_COVERAGE std::optional<harness::BufferedFileStep> DecodeStep(FuzzedDataProvider& fdp) {
  using harness::BufferedFileOp;
  const auto op = fuzz::ConsumeOp<BufferedFileOp>(fdp);
  if (!op) return std::nullopt;
  harness::BufferedFileStep s;
  s.op = *op;
  switch (s.op) {
    case BufferedFileOp::kRead:
    case BufferedFileOp::kSkipTo:
    case BufferedFileOp::kSetLimit: s.len = ConsumeLength(fdp); break;
    case BufferedFileOp::kSetPos:
      s.anchor = fdp.ConsumeIntegral<uint8_t>();
      // Mostly next to the anchor, where the buffer's edges are.
      s.delta = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<int32_t>(-8, 8)
                                  : fdp.ConsumeIntegralInRange<int32_t>(-70000, 70000);
      break;
    case BufferedFileOp::kFindByte:
      s.byte = fdp.ConsumeBool() ? kPlanted[fdp.ConsumeIntegralInRange<size_t>(0, std::size(kPlanted) - 1)]
                                 : fdp.ConsumeIntegral<uint8_t>();
      break;
    case BufferedFileOp::kEof: break;
  }
  return s;
}

}  // namespace

FUZZ_TARGET(buffered_file_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  harness::BufferedFileTester tester(DecodeConfig(fdp));
  fuzz::ForEachOp(fdp, kMaxSteps, DecodeStep, [&](const harness::BufferedFileStep& step) { tester.Apply(step); });
}

FUZZ_TARGET_INFO(buffered_file_sim) {
  fuzz::TargetInfo info;
  // The configuration (a key flag and 8 key bytes, a length class and up to 4 bytes, a 2-byte seed, the
  // planting rate, the start, a size index, the rewind: at most 22 bytes), then steps of at most 7 bytes
  // (op, anchor, a delta class and 4 delta bytes).
  info.max_len = 22 + kMaxSteps * 7;
  info.AddEnum<harness::BufferedFileOp>("op", harness::kBufferedFileOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeConfig(fdp);
    fuzz::Mark(&layout, fdp);
    fuzz::ForEachOp(fdp, kMaxSteps, DecodeStep, [](const harness::BufferedFileStep&) {}, &layout);
  };
  return info;
}
