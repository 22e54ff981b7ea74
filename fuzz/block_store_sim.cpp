// block_store_sim: a node's block files — WriteBlock, WriteBlockUndo, ReadRawBlock, ReadBlockUndo over the
// blk/rev file pair with -fastprune's 64 KiB block files — in a scratch directory against BlockStoreModel
// (BlockStoreTester). The first bytes pick the obfuscation key; each step writes a block (of a size class
// that fits many, a few, or one per file; at the next height or below it), writes the undo data of a
// block written before, reads every record back, or writes one of them while the disk fails.
#include <fuzzer/FuzzedDataProvider.h>

#include "block_store_tester.h"
#include "fuzz.h"

namespace {

// A file takes 64 KiB of block records: 48 steps of the largest blocks roll over a file each.
constexpr int kMaxSteps = 48;

HARNESS_NO_FUZZ_COVERAGE uint32_t ConsumeBlockSize(FuzzedDataProvider& fdp) {
  switch (fdp.ConsumeIntegralInRange<int>(0, 4)) {
    case 4: return fdp.ConsumeIntegralInRange<uint32_t>(0, 4);  // what fills the current file (the tester's)
    case 0: return fdp.ConsumeIntegralInRange<uint32_t>(81, 400);
    case 1: return fdp.ConsumeIntegralInRange<uint32_t>(400, 5000);
    case 2: return fdp.ConsumeIntegralInRange<uint32_t>(15000, 22000);   // three or four a file
    default: return fdp.ConsumeIntegralInRange<uint32_t>(65000, 70000);  // around a file of its own
  }
}

HARNESS_NO_FUZZ_COVERAGE std::optional<harness::BlockStoreStep> DecodeStep(FuzzedDataProvider& fdp) {
  using harness::BlockStoreOp;
  const auto op = fuzz::ConsumeOp<BlockStoreOp>(fdp);
  if (!op) return std::nullopt;
  harness::BlockStoreStep s;
  s.op = *op;
  switch (s.op) {
    case BlockStoreOp::kBlock:
      s.size = ConsumeBlockSize(fdp);
      s.seed = fdp.ConsumeIntegral<uint16_t>();
      s.back = fdp.ConsumeBool() ? 0 : fdp.ConsumeIntegral<uint8_t>();
      break;
    case BlockStoreOp::kUndo:
      s.size = fdp.ConsumeIntegralInRange<uint32_t>(1, 3000);
      s.seed = fdp.ConsumeIntegral<uint16_t>();
      s.which = fdp.ConsumeIntegral<uint8_t>();
      break;
    case BlockStoreOp::kReadAll: break;
    case BlockStoreOp::kFail:
      s.which = fdp.ConsumeIntegral<uint8_t>();
      s.size = s.which % 2 ? fdp.ConsumeIntegralInRange<uint32_t>(1, 3000) : ConsumeBlockSize(fdp);
      s.seed = fdp.ConsumeIntegral<uint16_t>();
      s.fault = fdp.ConsumeIntegral<uint8_t>();
      break;
  }
  return s;
}

HARNESS_NO_FUZZ_COVERAGE seam::Obfuscation::KeyBytes DecodeKey(FuzzedDataProvider& fdp) {
  seam::Obfuscation::KeyBytes key{};
  if (fdp.ConsumeBool()) {
    for (auto& b : key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  return key;
}

}  // namespace

FUZZ_TARGET(block_store_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  harness::BlockStoreTester tester(DecodeKey(fdp));
  fuzz::ForEachOp(fdp, kMaxSteps, DecodeStep, [&](const harness::BlockStoreStep& step) { tester.Apply(step); });
  tester.CheckAll();
}

FUZZ_TARGET_INFO(block_store_sim) {
  fuzz::TargetInfo info;
  // The key (a flag and 8 bytes), then steps of at most 9 bytes (op, size class, 4 size bytes, a 2-byte
  // seed, the height's distance or the block, the fault).
  info.max_len = 9 + kMaxSteps * 9;
  // An input's cost follows the block files it writes (a chunk preallocated per new file); favoring the
  // cheap inputs found its slowest planted bugs sooner (docs/targets.md#engine-schedule).
  info.favor_fast_inputs = true;
  info.AddEnum<harness::BlockStoreOp>("op", harness::kBlockStoreOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeKey(fdp);
    fuzz::Mark(&layout, fdp);
    fuzz::ForEachOp(fdp, kMaxSteps, DecodeStep, [](const harness::BlockStoreStep&) {}, &layout);
  };
  return info;
}
