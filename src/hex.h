// Lower-case hex rendering of bytes, for messages, traces and ToString()s.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace embedded {

// Two digits per byte, in order. Past `max_bytes` bytes the rest is shown as "...", so a failure that
// involves a megabyte stays readable.
inline std::string HexStr(std::span<const uint8_t> bytes, size_t max_bytes = SIZE_MAX) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const size_t n = bytes.size() < max_bytes ? bytes.size() : max_bytes;
  std::string out;
  out.reserve(2 * n + 3);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  if (n < bytes.size()) out += "...";
  return out;
}

inline std::string HexStr(std::string_view bytes, size_t max_bytes = SIZE_MAX) {
  return HexStr(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), max_bytes);
}

}  // namespace embedded
