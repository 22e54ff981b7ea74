// ByteSource: the fuzz input as a source of choices for the harness's Draw*Spec templates, which take
// anything with `uint64_t Range(lo, hi)` (unit tests pass a seeded harness::Rng). Each choice consumes the
// fewest whole bytes that can express its range, from the front; an exhausted input yields `lo`.
// Uninstrumented, like all decoding (FuzzedDataProvider's templates would be instrumented and add
// features that say nothing about the subject).
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.h"
#include "fuzz.h"

class ByteSource {
 public:
  explicit ByteSource(fuzz::Buffer buffer) : buffer_(buffer) {}

  HARNESS_NO_FUZZ_COVERAGE uint64_t Range(uint64_t lo, uint64_t hi) {
    const uint64_t span = hi - lo;
    uint64_t value = 0;
    for (uint64_t left = span; left > 0 && next_ < buffer_.size(); left >>= 8) value = value << 8 | buffer_[next_++];
    return span == UINT64_MAX ? lo + value : lo + value % (span + 1);
  }

 private:
  fuzz::Buffer buffer_;
  size_t next_ = 0;
};
