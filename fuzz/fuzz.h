// The fuzz target registry. One binary hosts every target; the environment variable FUZZ selects one.
//
//   FUZZ_TARGET(prevector_sim) { /* use `buffer` */ }
//
// registers `prevector_sim` at static-initialization time. The same sources link against libFuzzer, AFL++'s
// libFuzzer-compatible driver, or the plain replay main (fuzz/replay_main.cpp). A target must keep no state
// across inputs and must abort (HARNESS_CHECK) only on a real divergence or broken invariant.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace fuzz {

using Buffer = std::span<const uint8_t>;
using TargetFn = void (*)(Buffer);

// Name → function, sorted by name. Registration happens before main, so this is read-only afterwards.
const std::map<std::string_view, TargetFn>& Targets();
bool Register(std::string_view name, TargetFn fn);

// The target named by FUZZ (or the binary's built-in default). Prints a clear error listing the known
// targets and exits with status 2 when there is none or it is unknown.
TargetFn SelectTarget();
std::string_view SelectedName();

// Handles `--list` (prints the target names, one per line, and exits 0). Call before anything else.
void HandleListFlag(int argc, char** argv);

}  // namespace fuzz

#define FUZZ_TARGET(name)                                                        \
  static void name##_fuzz_target(::fuzz::Buffer buffer);                         \
  [[maybe_unused]] static const bool name##_fuzz_registered =                    \
      ::fuzz::Register(#name, name##_fuzz_target);                               \
  static void name##_fuzz_target(::fuzz::Buffer buffer)
