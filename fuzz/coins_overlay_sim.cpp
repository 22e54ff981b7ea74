// coins_overlay_sim: blocks connected through CoinsViewOverlay over a chainstate cache, with 0 to 4 threads
// fetching the prevouts ahead, in lockstep with an overlay that fetches nothing ahead and with
// CoinsStackModel (OverlayTester). The first byte chooses the threads; then each step is an op code and its
// arguments, a block being up to four transactions of up to three inputs that index the funding outpoints
// or earlier transactions' outputs. Ends with a full sweep of both overlays, the tip and the base.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz.h"
#include "overlay_tester.h"

namespace {

// Room for several blocks and the tip's work between them; a block costs at most 26 bytes.
constexpr int kMaxSteps = 32;
constexpr size_t kMaxBlockBytes =
    1 + harness::OverlayTester::kMaxTxs * (1 + harness::OverlayTester::kMaxInputs + 1 + 1);

// Decoding is mechanics: uninstrumented, like the tester, so features come from the caches alone.
HARNESS_NO_FUZZ_COVERAGE int DecodeWorkers(FuzzedDataProvider& fdp) {
  return fdp.ConsumeIntegralInRange<int>(0, seam::CoinsViewOverlay::kMaxWorkers);
}

HARNESS_NO_FUZZ_COVERAGE void Decode(FuzzedDataProvider& fdp, std::vector<harness::OverlayStep>& steps,
                                     fuzz::OpLayout* layout = nullptr) {
  using harness::OverlayOp;
  using harness::OverlayTester;
  using Step = harness::OverlayStep;
  for (; steps.size() < kMaxSteps && fdp.remaining_bytes() > 0; fuzz::Mark(layout, fdp)) {
    const auto op = fuzz::ConsumeOp<OverlayOp>(fdp);
    if (!op) break;
    Step& step = steps.emplace_back();
    step.op = *op;
    if (Step::Reads(step.op, Step::kFunding | Step::kFlushOrSync | Step::kIndex | Step::kWriter)) {
      step.arg = fdp.ConsumeIntegral<uint8_t>();
    }
    if (Step::Reads(step.op, Step::kCoin)) step.coin = fdp.ConsumeIntegral<uint8_t>();
    if (Step::Reads(step.op, Step::kOverwrite)) step.overwrite = fdp.ConsumeBool();
    if (Step::Reads(step.op, Step::kTxs)) {
      step.txs.resize(fdp.ConsumeIntegralInRange<size_t>(0, OverlayTester::kMaxTxs));
      for (harness::TxShape& tx : step.txs) {
        tx.inputs.resize(fdp.ConsumeIntegralInRange<size_t>(1, OverlayTester::kMaxInputs));
        for (uint8_t& input : tx.inputs) input = fdp.ConsumeIntegral<uint8_t>();
        tx.outputs = fdp.ConsumeIntegralInRange<uint8_t>(1, OverlayTester::kMaxOutputs);
        tx.coin = fdp.ConsumeIntegral<uint8_t>();
      }
    }
  }
}

}  // namespace

FUZZ_TARGET(coins_overlay_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  const int workers = DecodeWorkers(fdp);
  std::vector<harness::OverlayStep> steps;
  Decode(fdp, steps);
  harness::OverlayTester tester(workers);
  for (const harness::OverlayStep& step : steps) tester.Apply(step);
  tester.CheckAll();
}

FUZZ_TARGET_INFO(coins_overlay_sim) {
  fuzz::TargetInfo info;
  // The thread count, then per step the op and at most a block's bytes.
  info.max_len = 1 + kMaxSteps * (1 + kMaxBlockBytes);
  info.AddEnum<harness::OverlayOp>("op", harness::kOverlayOpCount, harness::ToString);
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeWorkers(fdp);
    fuzz::Mark(&layout, fdp);
    std::vector<harness::OverlayStep> steps;
    Decode(fdp, steps, &layout);
  };
  return info;
}
