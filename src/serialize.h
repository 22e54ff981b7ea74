// Bitcoin's serialization primitives used by the subjects: CompactSize lengths and little-endian integers.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "prevector.h"

// CompactSize: < 0xfd in one byte; else a marker (0xfd, 0xfe, 0xff) then 2, 4 or 8 little-endian bytes.
inline void WriteCompactSize(std::vector<uint8_t>& out, uint64_t n) {
  auto le = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  if (n < 0xfd) {
    out.push_back(static_cast<uint8_t>(n));
  } else if (n <= 0xffff) {
    out.push_back(0xfd);
    le(n, 2);
  } else if (n <= 0xffffffff) {
    out.push_back(0xfe);
    le(n, 4);
  } else {
    out.push_back(0xff);
    le(n, 8);
  }
}

// A prevector as Bitcoin serializes a vector: CompactSize count, then each element little-endian (byte
// vectors in one copy).
template <unsigned int N, typename T>
void SerializePrevector(std::vector<uint8_t>& out, const prevector<N, T>& v) {
  WriteCompactSize(out, v.size());
  const size_t at = out.size();
  out.resize(at + size_t{v.size()} * sizeof(T));
  uint8_t* p = out.data() + at;
  if constexpr (sizeof(T) == 1) {
    if (!v.empty()) std::memcpy(p, v.data(), v.size());
  } else {
    for (const T& x : v) {
      for (size_t i = 0; i < sizeof(T); ++i) *p++ = static_cast<uint8_t>(static_cast<uint64_t>(x) >> (8 * i));
    }
  }
}
