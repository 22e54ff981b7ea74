// coins_cache_sim: up to four stacked CoinsViewCache levels over a checked base, against CoinsStackModel
// (CoinsTester). Each operation is an op code plus small table indexes, so the same outpoints are added,
// spent, flushed and synced again and again across levels. Ends with a full sweep of every level.
#include <fuzzer/FuzzedDataProvider.h>

#include "coins_tester.h"
#include "fuzz.h"

namespace {

// Enough to build all four levels and cycle entries through every flag state (every bug class in docs/semantics.md §1
// needs fewer than ten steps); longer inputs only slow the fuzzer down, as each step checks every level.
constexpr int kMaxSteps = 64;
// A step is at most three bytes (info.max_len): no operation reads both a coin and a block.
static_assert([] {
  using harness::CoinsStep;
  for (uint8_t op = 0; op < harness::kCoinsOpCount; ++op) {
    const auto o = static_cast<harness::CoinsOp>(op);
    if (CoinsStep::Reads(o, CoinsStep::kCoin) && CoinsStep::Reads(o, CoinsStep::kBlock)) return false;
  }
  return true;
}());

// Decoding is mechanics: uninstrumented, like the tester, so features come from the cache alone.
HARNESS_NO_FUZZ_COVERAGE int Decode(FuzzedDataProvider& fdp, harness::CoinsStep (&steps)[kMaxSteps],
                                    fuzz::OpLayout* layout = nullptr) {
  fuzz::Mark(layout, fdp);  // no header
  int n = 0;
  for (; n < kMaxSteps && fdp.remaining_bytes() > 0; ++n) {
    const auto op = fuzz::ConsumeOp<harness::CoinsOp>(fdp);
    if (!op) break;
    harness::CoinsStep& step = steps[n];
    step.op = *op;
    step.outpoint = fdp.ConsumeIntegral<uint8_t>();
    if (harness::CoinsStep::Reads(step.op, harness::CoinsStep::kCoin)) step.coin = fdp.ConsumeIntegral<uint8_t>();
    if (harness::CoinsStep::Reads(step.op, harness::CoinsStep::kBlock)) step.block = fdp.ConsumeIntegral<uint8_t>();
    fuzz::Mark(layout, fdp);
  }
  return n;
}

}  // namespace

FUZZ_TARGET(coins_cache_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  harness::CoinsStep steps[kMaxSteps];
  const int n = Decode(fdp, steps);
  harness::CoinsTester tester;
  for (int i = 0; i < n; ++i) tester.Apply(steps[i]);
  tester.CheckAll();
}

FUZZ_TARGET_INFO(coins_cache_sim) {
  fuzz::TargetInfo info;
  // Per step at most the op, the outpoint and a coin or block index, one byte each.
  info.max_len = kMaxSteps * 3;
  info.AddEnum<harness::CoinsOp>("op", harness::kCoinsOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    harness::CoinsStep steps[kMaxSteps];
    Decode(fdp, steps, &layout);
  };
  return info;
}
