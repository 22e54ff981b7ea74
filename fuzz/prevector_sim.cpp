// prevector_sim: prevector<N, T> against std::vector<T> through PrevectorTester, for N in {8, 28, 36}
// (36: scripts; 28: the old value) and T in {uint8_t, uint32_t}. The first byte picks (N, T); each
// following group of bytes is one operation with small arguments, so boundary crossings are common.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz.h"
#include "prevector_tester.h"

namespace {

// Every state of interest (sizes up to 2N + 3, either storage mode, either side) is a few steps away;
// longer inputs would only slow the fuzzer down.
constexpr int kMaxSteps = 16;

template <unsigned int N, typename T>
void Run(FuzzedDataProvider& fdp) {
  harness::PrevectorTester<N, T> tester;
  for (int i = 0; i < kMaxSteps && fdp.remaining_bytes() > 0; ++i) {
    harness::PrevectorStep step;
    step.op = static_cast<harness::PrevectorOp>(fdp.ConsumeIntegralInRange<uint8_t>(0, harness::kPrevectorOpCount - 1));
    step.side = fdp.ConsumeBool();
    step.pos = fdp.ConsumeIntegral<uint8_t>();
    step.index = fdp.ConsumeIntegral<uint8_t>();
    step.count = fdp.ConsumeIntegralInRange<uint32_t>(0, 2 * N + 3);
    step.value = fdp.ConsumeIntegral<uint32_t>();
    tester.Apply(step);
  }
}

}  // namespace

FUZZ_TARGET(prevector_sim) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  switch (fdp.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: return Run<36, uint8_t>(fdp);
    case 1: return Run<28, uint8_t>(fdp);
    case 2: return Run<8, uint8_t>(fdp);
    case 3: return Run<36, uint32_t>(fdp);
    case 4: return Run<28, uint32_t>(fdp);
    default: return Run<8, uint32_t>(fdp);
  }
}
