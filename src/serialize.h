// Bitcoin's serialization primitives used by the subjects: CompactSize lengths and little-endian integers,
// written to a byte vector and read back from a span with clean errors for malformed input.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "prevector.h"

namespace embedded {

template <std::unsigned_integral T>
void WriteLE(std::vector<uint8_t>& out, T v) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  for (size_t i = 0; i < sizeof(T); ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// CompactSize: < 0xfd in one byte; else a marker (0xfd, 0xfe, 0xff) then 2, 4 or 8 little-endian bytes.
inline void WriteCompactSize(std::vector<uint8_t>& out, uint64_t n) {
  if (n < 0xfd) {
    out.push_back(static_cast<uint8_t>(n));
  } else if (n <= 0xffff) {
    out.push_back(0xfd);
    WriteLE(out, static_cast<uint16_t>(n));
  } else if (n <= 0xffffffff) {
    out.push_back(0xfe);
    WriteLE(out, static_cast<uint32_t>(n));
  } else {
    out.push_back(0xff);
    WriteLE(out, n);
  }
}

// Bytes WriteCompactSize writes for `n`.
constexpr size_t CompactSizeLength(uint64_t n) { return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9; }

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

// Reading. Errors are values, not exceptions: a fuzzer's inputs are mostly malformed, and under ASan every
// throw costs a garbage collection of the fake stacks (it halved a parser target's speed here).

// Core's MAX_SIZE: a CompactSize length or count above 32 MiB is malformed, whatever follows it.
constexpr uint64_t kMaxCompactSize = 0x02000000;

// Reads from a byte span front to back. Every read checks the remaining length before touching memory.
// The first error is recorded (ok() turns false) and from then on reads consume nothing and return zeros,
// so a parser can read on and test ok() where it matters; Error() renders the message only when asked.
class SpanReader {
 public:
  explicit SpanReader(std::span<const uint8_t> data) : data_(data) {}

  bool ok() const { return error_ == nullptr; }
  size_t remaining() const { return data_.size() - pos_; }

  // The next `n` bytes, consumed; an empty span (and an error) when fewer remain.
  std::span<const uint8_t> Take(size_t n) {
    if (!ok()) return {};
    if (n > remaining()) {
      Fail("unexpected end of data: bytes needed", n);
      return {};
    }
    const std::span<const uint8_t> out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  template <std::unsigned_integral T>
  T ReadLE() {
    const std::span<const uint8_t> bytes = Take(sizeof(T));
    T v = 0;
    for (size_t i = 0; i < bytes.size(); ++i) v |= static_cast<T>(static_cast<T>(bytes[i]) << (8 * i));
    return v;
  }

  // Records an error unless one is recorded already. `what` must be a string literal; `value`, if given,
  // is shown after it.
  void Fail(const char* what, std::optional<uint64_t> value = std::nullopt) {
    if (!ok()) return;
    error_ = what;
    value_ = value;
    error_at_ = pos_;
  }
  // "<what>[: <value>] (at byte <offset> of <size>)", or "" when ok().
  std::string Error() const {
    if (ok()) return "";
    return std::string(error_) + (value_ ? ": " + std::to_string(*value_) : "") + " (at byte " +
           std::to_string(error_at_) + " of " + std::to_string(data_.size()) + ")";
  }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  const char* error_ = nullptr;
  std::optional<uint64_t> value_;
  size_t error_at_ = 0;
};

// As Core's ReadCompactSize with range checking: only the shortest encoding of a value is accepted, and
// values above kMaxCompactSize are errors. Returns 0 after an error.
inline uint64_t ReadCompactSize(SpanReader& in) {
  const uint8_t first = in.ReadLE<uint8_t>();
  uint64_t n = first;
  uint64_t min = 0;
  if (first == 0xfd) {
    n = in.ReadLE<uint16_t>();
    min = 0xfd;
  } else if (first == 0xfe) {
    n = in.ReadLE<uint32_t>();
    min = 0x10000;
  } else if (first == 0xff) {
    n = in.ReadLE<uint64_t>();
    min = 0x100000000;
  }
  if (n < min) in.Fail("non-canonical CompactSize", n);
  if (n > kMaxCompactSize) in.Fail("CompactSize above MAX_SIZE (0x02000000)", n);
  return in.ok() ? n : 0;
}

}  // namespace embedded
