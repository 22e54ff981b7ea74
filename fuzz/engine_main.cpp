// Entry points for libFuzzer and AFL++'s libFuzzer-compatible driver: both call the first two. With
// -DSUITE_OP_MUTATOR=ON, also libFuzzer's custom mutator and cross-over (op_mutator.h), for targets with an
// operation layout; AFL++'s driver never calls them.
#include "failure_report.h"
#include "fuzz.h"
#include "op_mutator.h"

namespace {
// Chosen once from the environment before the first input; configuration, not per-input state.
fuzz::TargetFn g_target = nullptr;
fuzz::OpLayoutFn g_layout = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  fuzz::HandleInfoFlags(*argc, *argv);
  g_target = fuzz::SelectTarget();
  g_layout = fuzz::InfoOf(fuzz::SelectedName()).layout;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  harness::SetFailureInput(data, size);
  g_target(fuzz::Buffer(data, size));
  harness::SetFailureInput(nullptr, 0);
  return 0;
}

#if SUITE_OP_MUTATOR
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  return fuzz::MutateOps(g_layout, LLVMFuzzerMutate, data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  return fuzz::CrossOverOps(g_layout, fuzz::Buffer(data1, size1), fuzz::Buffer(data2, size2), out, max_out_size, seed);
}
#endif
