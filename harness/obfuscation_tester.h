// ObfuscationTester: the 64-bit subject against the bytewise reference for one (key, offset, length,
// alignment, chunking) case.
//
// Checked: the subject applied whole and applied chunk by chunk (each chunk at its own absolute offset)
// both equal the reference; applying twice restores the plaintext; the key round-trips; the object is
// "on" exactly when the key is non-zero. Chunk sizes and pointer alignment are mechanics: they must not
// change any result. Plaintext bytes are derived from a seed (the fuzzer chooses structure, not bulk).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace harness {

struct ObfuscationCase {
  // Enough for every misaligned head, many whole words and every tail; longer adds only time.
  static constexpr size_t kMaxLength = 256;

  std::array<uint8_t, 8> key{};
  uint64_t offset = 0;           // absolute position of the first byte; any value, including above 2^32
  uint32_t length = 0;           // at most kMaxLength
  uint8_t alignment = 0;         // the data starts this many bytes past an 8-byte boundary (0..7)
  uint64_t data_seed = 0;        // plaintext bytes are derived from it
  std::vector<uint32_t> chunks;  // chunk sizes in order; the rest of the data is one final chunk

  std::string ToString() const;
};

// Runs every check of the case; a mismatch fails a HARNESS_CHECK with the case as the trace.
void CheckObfuscationCase(const ObfuscationCase& c);

}  // namespace harness
