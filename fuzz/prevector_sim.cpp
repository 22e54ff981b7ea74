// prevector_sim: prevector<N, T> against std::vector<T> through PrevectorTester, for N in {8, 28, 36}
// (36: scripts; 28: the old value) and T in {uint8_t, uint32_t}. The first byte picks (N, T); each
// following group of bytes is one operation with small arguments, so boundary crossings are common.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz.h"
#include "prevector_tester.h"

namespace {

// Every state of interest (sizes up to 2N + 3, either storage mode, either side) is a few steps away;
// longer inputs would only slow the fuzzer down.
constexpr int kMaxSteps = 12;

// Decoding is mechanics, not behaviour: left uninstrumented, so the engine spends no time tracing the
// provider's byte-by-byte comparisons and sees features only from the code under test.
template <unsigned int N>
HARNESS_NO_FUZZ_COVERAGE int Decode(FuzzedDataProvider& fdp, harness::PrevectorStep (&steps)[kMaxSteps],
                                    fuzz::OpLayout* layout = nullptr) {
  int n = 0;
  for (; n < kMaxSteps && fdp.remaining_bytes() > 0; ++n) {
    const auto op = fuzz::ConsumeOp<harness::PrevectorOp>(fdp);
    if (!op) break;
    harness::PrevectorStep& step = steps[n];
    step.op = *op;
    step.side = fdp.ConsumeBool();
    step.pos = fdp.ConsumeIntegral<uint8_t>();
    step.index = fdp.ConsumeIntegral<uint8_t>();
    step.count = fdp.ConsumeIntegralInRange<uint32_t>(0, 2 * N + 3);
    step.value = fdp.ConsumeIntegral<uint32_t>();
    fuzz::Mark(layout, fdp);
  }
  return n;
}

// Which (N, T) the input tests: the switch in the target.
HARNESS_NO_FUZZ_COVERAGE int DecodeShape(FuzzedDataProvider& fdp) { return fdp.ConsumeIntegralInRange<int>(0, 5); }

template <unsigned int N, typename T>
void Run(FuzzedDataProvider& fdp) {
  harness::PrevectorStep steps[kMaxSteps];
  const int n = Decode<N>(fdp, steps);
  harness::PrevectorTester<N, T> tester;
  for (int i = 0; i < n; ++i) tester.Apply(steps[i]);
}

}  // namespace

FUZZ_TARGET(prevector_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  switch (DecodeShape(fdp)) {
    case 0: return Run<36, uint8_t>(fdp);
    case 1: return Run<28, uint8_t>(fdp);
    case 2: return Run<8, uint8_t>(fdp);
    case 3: return Run<36, uint32_t>(fdp);
    case 4: return Run<28, uint32_t>(fdp);
    default: return Run<8, uint32_t>(fdp);
  }
}

FUZZ_TARGET_INFO(prevector_sim) {
  fuzz::TargetInfo info;
  // The (N, T) choice, then per step the op, side, pos, index, count (one byte: 2N + 3 < 256) and a 4-byte
  // value; FuzzedDataProvider reads them from the end, so any longer input has only unread leading bytes.
  info.max_len = 1 + kMaxSteps * (1 + 1 + 1 + 1 + 1 + 4);
  info.AddEnum<harness::PrevectorOp>("op", harness::kPrevectorOpCount, harness::ToString);
  // Every (N, T) reads the same bytes per step: the layout of N = 8 serves them all.
  info.layout = [](fuzz::Buffer buffer, fuzz::OpLayout& layout) {
    FuzzedDataProvider fdp(buffer.data(), buffer.size());
    DecodeShape(fdp);
    fuzz::Mark(&layout, fdp);
    harness::PrevectorStep steps[kMaxSteps];
    Decode<8>(fdp, steps, &layout);
  };
  return info;
}
