// The fuzz target registry. One binary hosts every target; the environment variable FUZZ selects one.
//
//   FUZZ_TARGET(prevector_sim) { /* use `buffer` */ }
//   FUZZ_TARGET_INFO(prevector_sim) { fuzz::TargetInfo info; /* fill in */ return info; }
//
// registers `prevector_sim` and what engines may know about it at static-initialization time. The same
// sources link against libFuzzer, AFL++'s libFuzzer-compatible driver, or the plain replay main
// (fuzz/replay_main.cpp). A target must keep no state across inputs and must abort (HARNESS_CHECK) only on a
// real divergence or broken invariant.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "no_fuzz_coverage.h"

namespace fuzz {

using Buffer = std::span<const uint8_t>;
using TargetFn = void (*)(Buffer);

// Where an operation-list target's decoder reads an input (the structure-aware mutator, op_mutator.h). The
// decoders read from the back (FuzzedDataProvider's integers): a header first, then one operation after
// another. `marks` holds the count of unread bytes after the header and after each operation, in read
// order, so operation i is bytes [marks[i + 1], marks[i]) and anything before the last mark is never read.
struct OpLayout {
  std::vector<size_t> marks;
};
// Decodes `buffer` exactly as the target does, marking `layout`, and runs nothing.
using OpLayoutFn = void (*)(Buffer buffer, OpLayout& layout);
// Called by a decoder at the end of its header and of each operation; a null `layout` (the target's own
// run) records nothing.
template <typename Provider>
void Mark(OpLayout* layout, Provider& provider) {
  if (layout != nullptr) layout->marks.push_back(provider.remaining_bytes());
}
// The next operation of the list `Op` (harness/op_list.h: HARNESS_OP_LIST): an op byte's low bits, the
// list's fixed id table, with reserved ids skipped; nullopt when the input ends first. Every decoder reads
// its op this way, so that a new operation changes only the inputs that used its id.
template <typename Op, typename Provider>
HARNESS_NO_FUZZ_COVERAGE std::optional<Op> ConsumeOp(Provider& provider) {
  while (provider.remaining_bytes() > 0) {
    const auto op = static_cast<Op>(provider.template ConsumeIntegral<uint8_t>() & (OpIdSpace(Op{}) - 1));
    if (IsOp(op)) return op;
  }
  return std::nullopt;
}

// The operation loop of a target that decodes and applies one operation at a time: while bytes remain, up to
// `max_ops` times, hands `visit` what `decode` reads (a step, or nullopt at the input's end), marking
// `layout` after each.
template <typename Provider, typename Decode, typename Visit>
void ForEachOp(Provider& provider, int max_ops, Decode decode, Visit visit, OpLayout* layout = nullptr) {
  for (int i = 0; i < max_ops && provider.remaining_bytes() > 0; ++i, Mark(layout, provider)) {
    const auto step = decode(provider);
    if (!step) return;
    visit(*step);
  }
}

// Name → function, sorted by name. Registration happens before main, so this is read-only afterwards.
const std::map<std::string_view, TargetFn>& Targets();
bool Register(std::string_view name, TargetFn fn);

// The target named by FUZZ (or the binary's built-in default). Prints a clear error listing the known
// targets and exits with status 2 when there is none or it is unknown.
TargetFn SelectTarget();
std::string_view SelectedName();

// What a fuzzing engine may use besides the target itself: a dictionary and the longest useful input.
// Built from the constants and enums of the code the target drives, never from hand-typed bytes, so it
// follows them when they change. `fuzz --dict=NAME` and `fuzz --options=NAME` print it in the engines'
// formats (corpus/NAME.dict, and NAME.dict / NAME.options next to the OSS-Fuzz binaries).
struct TargetInfo {
  // The longest input the target's decoder can consume; bytes past it change nothing (or are equivalent
  // to a shorter input). 0: no such bound, the engine's default applies. Engines truncate longer seeds to
  // this length, so no seed in corpus/NAME/ may be longer (ctest fuzz.options).
  size_t max_len = 0;
  // (name, bytes), printed in this order. Names are printed with every character outside [A-Za-z0-9_] as '_'.
  std::vector<std::pair<std::string, std::string>> dictionary;
  // For a target whose input is a header and a list of operations: how its decoder reads an input (null
  // for any other target). The structure-aware mutator (op_mutator.h) edits such inputs operation by
  // operation.
  OpLayoutFn layout = nullptr;
  // When set, libFuzzer's entropic schedule gives an input more mutations the faster it runs, compared with
  // the corpus's average (-entropic_scale_per_exec_time=1). It raises every target's exec/s, but for most it
  // delays the planted bugs that need the expensive inputs: set only where time to detection says it helps
  // (docs/targets.md#engine-schedule).
  bool favor_fast_inputs = false;

  // Adds one token. Aborts for an empty or over-long token (AFL++ refuses tokens over 128 bytes) and for
  // bytes that an earlier token already has (a duplicate only skews the mutator's choice).
  void AddBytes(std::string_view name, std::span<const uint8_t> bytes);
  // `value` as sizeof(T) little-endian bytes: how the wire formats store integers, and how
  // FuzzedDataProvider's ConsumeIntegral reads them (backwards from the end of the input, most significant
  // byte last).
  template <std::integral T>
  void AddLittleEndian(std::string_view name, T value) {
    uint8_t bytes[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    AddBytes(name, bytes);
  }
  // One single-byte token per value 0 .. count - 1 of an operation enum, named `<prefix>_<to_string(op)>`:
  // the byte that selects that operation (decoders take the op code modulo the count). Aborts if
  // to_string answers "unknown" (as every HARNESS_OP_ENUM list does outside it) for a value below `count`:
  // the count is stale.
  template <typename Enum>
  void AddEnum(std::string_view prefix, uint8_t count, const char* (*to_string)(Enum)) {
    for (unsigned v = 0; v < count; ++v) {
      AddEnumValue(prefix, static_cast<uint8_t>(v), to_string(static_cast<Enum>(v)));
    }
  }

 private:
  void AddEnumValue(std::string_view prefix, uint8_t value, std::string_view name);
};
using TargetInfoFn = TargetInfo (*)();
// NAME's info (an empty one for a target without FUZZ_TARGET_INFO).
TargetInfo InfoOf(std::string_view name);
// Called by FUZZ_TARGET_INFO. Whether `name` is a registered target is checked once registration is over
// (HandleInfoFlags), as the two registrations may run in either order.
bool RegisterInfo(std::string_view name, TargetInfoFn fn);

// Handles the informational flags, then returns if there was none. Call before anything else.
//   --list          the target names, one per line; exit 0
//   --dict=NAME     NAME's dictionary in the libFuzzer/AFL format; exit 0
//   --options=NAME  NAME's .options file (a [libfuzzer] section: dict, max_len, the schedule); exit 0
//   --table         what this build's subject lets the suite test (against Core: the table configure
//                   printed); exit 0
//   --known-bug=BUG the verdict on known Bitcoin Core bug BUG for this tree, decided by running its input
//                   (harness/known_bugs.h); exit 0
// An unknown NAME, or a target without FUZZ_TARGET_INFO, is an error listing the targets (exit 2). Two
// dashes only: libFuzzer's own -dict= takes a file. First aborts, with a message, if a FUZZ_TARGET_INFO
// names no target.
void HandleInfoFlags(int argc, char** argv);

}  // namespace fuzz

#define FUZZ_TARGET(NAME)                                                                                  \
  static void NAME##_fuzz_target(::fuzz::Buffer buffer);                                                   \
  [[maybe_unused]] static const bool NAME##_fuzz_registered = ::fuzz::Register(#NAME, NAME##_fuzz_target); \
  static void NAME##_fuzz_target(::fuzz::Buffer buffer)

#define FUZZ_TARGET_INFO(NAME)                                     \
  static ::fuzz::TargetInfo NAME##_fuzz_target_info();             \
  [[maybe_unused]] static const bool NAME##_fuzz_info_registered = \
      ::fuzz::RegisterInfo(#NAME, NAME##_fuzz_target_info);        \
  static ::fuzz::TargetInfo NAME##_fuzz_target_info()
