// coins_db_flush: a coins cache over the LevelDB coins store (in-memory Env that can fail) against the reference
// store (CoinsStoreTester). The first bytes choose the obfuscation key (often none); each step is a cache
// operation, a snapshot load, a flush or sync with a batch limit drawn log-uniformly from 1 byte to 1 MiB
// and perhaps cut after one of its partial batches (then recovered, perhaps cut again), a clean reopen, a
// read of the store, or a flush, open or read during which the disk fails.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>

#include "fuzz.h"
#include "coins_store_tester.h"

namespace {

// Every state of docs/semantics.md §2 (flushes of up to 64 entries, cut anywhere, re-runs) is within this many steps.
constexpr int kMaxSteps = 32;
// Opening LevelDB costs about as much as the rest of an input, and a cut flush opens it once or twice, a
// reopen once: one of each per input covers the crash logic, and more only multiplied the cost (exec/s
// fell to a fifth as the corpus grew). Flushes that are not cut are cheaper, but bounded as well.
constexpr int kMaxFlushes = 8;
constexpr int kMaxCutFlushes = 1;
// Reopens, including those of a failing disk (a failed flush or open reopens once or twice).
constexpr int kMaxReopens = 1;
// Cuts land among the first partial batches: with a 64-entry table a flush rarely has more.
constexpr uint8_t kMaxCut = 16;
constexpr uint32_t kMaxBatchLimit = uint32_t{1} << 20;

HARNESS_NO_FUZZ_COVERAGE seam::Obfuscation::KeyBytes DecodeKey(FuzzedDataProvider& fdp) {
  seam::Obfuscation::KeyBytes key{};
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: break;  // no obfuscation
    case 1: key[fdp.ConsumeIntegralInRange<size_t>(0, 7)] = fdp.ConsumeIntegral<uint8_t>(); break;
    default:
      for (auto& b : key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  return key;
}

// 2^e scaled by (1 + m / 256): log-uniform in e, so tiny and large limits are equally likely.
HARNESS_NO_FUZZ_COVERAGE uint32_t DecodeBatchLimit(FuzzedDataProvider& fdp) {
  const uint32_t base = uint32_t{1} << fdp.ConsumeIntegralInRange<uint32_t>(0, 20);
  const uint32_t limit = base + static_cast<uint32_t>(uint64_t{base} * fdp.ConsumeIntegral<uint8_t>() / 256);
  return std::clamp<uint32_t>(limit, 1, kMaxBatchLimit);
}

// A dropped step is an operation of the layout too: its bytes are read.
HARNESS_NO_FUZZ_COVERAGE int Decode(FuzzedDataProvider& fdp, harness::CoinsStoreStep (&steps)[kMaxSteps],
                                    fuzz::OpLayout* layout = nullptr) {
  int n = 0, flushes = 0, cut_flushes = 0, reopens = 0;
  for (; n < kMaxSteps && fdp.remaining_bytes() > 0; fuzz::Mark(layout, fdp)) {
    const auto op = fuzz::ConsumeOp<harness::CoinsStoreOp>(fdp);
    if (!op) break;
    harness::CoinsStoreStep& step = steps[n];
    step = harness::CoinsStoreStep{};
    step.op = *op;
    using harness::CoinsStoreStep;
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kOutpoint)) step.outpoint = fdp.ConsumeIntegral<uint8_t>();
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kCoin)) step.coin = fdp.ConsumeIntegral<uint8_t>();
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kBlock | CoinsStoreStep::kKeyAsked)) {
      step.block = fdp.ConsumeIntegral<uint8_t>();
    }
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kBatch)) {
      step.batch_limit = DecodeBatchLimit(fdp);
      step.cut = fdp.ConsumeIntegralInRange<uint8_t>(0, kMaxCut);
      step.cut_again = fdp.ConsumeIntegralInRange<uint8_t>(0, kMaxCut);
    }
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kLimit)) step.batch_limit = DecodeBatchLimit(fdp);
    if (CoinsStoreStep::Reads(step.op, CoinsStoreStep::kFault)) step.fault = fdp.ConsumeIntegral<uint8_t>();
    using Op = harness::CoinsStoreOp;
    const bool flush = step.op == Op::kFlush || step.op == Op::kSync || step.op == Op::kFailFlush;
    const bool reopen =
        step.op == Op::kReopen || step.op == Op::kFailFlush || step.op == Op::kFailReopen || step.op == Op::kFailRead;
    if (flush && step.cut > 0 && cut_flushes++ >= kMaxCutFlushes) step.cut = step.cut_again = 0;
    if ((flush && flushes++ >= kMaxFlushes) || (reopen && reopens++ >= kMaxReopens)) {
      continue;  // over budget: the bytes are spent, the step is dropped
    }
    ++n;
  }
  return n;
}

}  // namespace

FUZZ_TARGET(coins_db_flush) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  const seam::Obfuscation::KeyBytes key = DecodeKey(fdp);
  harness::CoinsStoreStep steps[kMaxSteps];
  const int n = Decode(fdp, steps);
  harness::CoinsStoreTester tester(key);
  for (int i = 0; i < n; ++i) tester.Apply(steps[i]);
  tester.CheckAll();
}

FUZZ_TARGET_INFO(coins_db_flush) {
  fuzz::TargetInfo info;
  // The key (a class byte and up to 8 key bytes), then at most kMaxSteps kept steps of at most 5 bytes (a
  // flush: op, exponent, mantissa, cut, cut again). Steps dropped over budget consume bytes too, but an
  // input without them decodes to the same steps, so nothing longer is needed.
  info.max_len = 1 + seam::Obfuscation::kKeySize + kMaxSteps * 5;
  // Only the op codes: every other byte indexes a table or scales a limit, and the store's keys and values
  // (key prefixes, the obfuscation key's key) are never read from the input.
  info.AddEnum<harness::CoinsStoreOp>("op", harness::kCoinsStoreOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeKey(fdp);
    fuzz::Mark(&layout, fdp);
    harness::CoinsStoreStep steps[kMaxSteps];
    Decode(fdp, steps, &layout);
  };
  return info;
}
