// Reference XOR obfuscation: the byte-by-byte loop of docs/semantics.md §3, with no word tricks to get wrong.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace harness {

inline void XorRef(std::span<uint8_t> data, const std::array<uint8_t, 8>& key, uint64_t offset) {
  for (size_t j = 0; j < data.size(); ++j) data[j] ^= key[(offset + j) % 8];
}

}  // namespace harness
