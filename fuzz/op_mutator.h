// The structure-aware mutator of operation-list targets (TargetInfo::layout). It cuts an input where the
// target's decoder reads its header and each operation, and edits the list: deletes, duplicates, swaps or
// inserts whole operations, changes one operation's code or one of its argument bytes, or splices two
// inputs at operation boundaries. Each edited operation is decoded again on its own, so it keeps exactly the
// bytes its decoder reads and the operations after it keep their meaning: a mutant is a valid, different
// operation list. A share of the mutations stays byte-level (the engine's own mutator, with its
// dictionary), which still finds what the operation edits cannot express (bytes no operation reads, a
// header). Deterministic in `seed`.
//
// libFuzzer calls it through engine_main.cpp (LLVMFuzzerCustomMutator and CustomCrossOver) in a build
// configured with -DSUITE_OP_MUTATOR=ON, on every target with a layout. Off by default: measured over planted
// bugs it found none reliably sooner and some later (docs/targets.md#structure-aware-mutation), and a custom
// mutator makes libFuzzer drop its input-length control.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fuzz.h"

namespace fuzz {

// The engine's byte-level mutator (LLVMFuzzerMutate's signature).
using ByteMutator = size_t (*)(uint8_t* data, size_t size, size_t max_size);

// Percent of the mutations left to `byte_mutator`.
inline constexpr unsigned kByteLevelPercent = 25;

// Mutates data[0, size) in place into at most `max_size` bytes; returns the new size. Without a layout, or
// for the byte-level share, calls `byte_mutator`.
size_t MutateOps(OpLayoutFn layout, ByteMutator byte_mutator, uint8_t* data, size_t size, size_t max_size,
                 uint64_t seed);

// Writes into `out` (at most `max_out` bytes) the header and first operations of `a` followed by the later
// operations of `b`; returns the size, or 0 when there is no layout or no such splice differs from `a`.
size_t CrossOverOps(OpLayoutFn layout, Buffer a, Buffer b, uint8_t* out, size_t max_out, uint64_t seed);

}  // namespace fuzz
