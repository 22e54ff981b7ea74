// Entry points for libFuzzer and AFL++'s libFuzzer-compatible driver: both call these two functions.
#include "fuzz.h"

namespace {
// Chosen once from the environment before the first input; configuration, not per-input state.
fuzz::TargetFn g_target = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  fuzz::HandleInfoFlags(*argc, *argv);
  g_target = fuzz::SelectTarget();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_target(fuzz::Buffer(data, size));
  return 0;
}
