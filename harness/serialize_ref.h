// Reference serialization: Bitcoin's vector encoding written out the plain way, to check the subject's.
#pragma once

#include <cstdint>
#include <vector>

#include "check.h"

namespace harness {

// Appends the CompactSize count then each element's bytes, least significant first.
template <typename T>
HARNESS_NO_FUZZ_COVERAGE void SerializeVectorRef(std::vector<uint8_t>& out, const std::vector<T>& v) {
  const uint64_t n = v.size();
  int width = 0;
  if (n < 253) {
    out.push_back(static_cast<uint8_t>(n));
  } else if (n < 65536) {
    out.push_back(253);
    width = 2;
  } else if (n < 4294967296) {
    out.push_back(254);
    width = 4;
  } else {
    out.push_back(255);
    width = 8;
  }
  for (int i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
  size_t at = out.size();
  out.resize(at + v.size() * sizeof(T));
  for (const T& x : v) {
    uint64_t bits = x;
    for (size_t i = 0; i < sizeof(T); ++i, bits >>= 8) out[at++] = static_cast<uint8_t>(bits & 0xff);
  }
}

}  // namespace harness
