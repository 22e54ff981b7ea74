// 64-bit XOR obfuscation keyed by absolute position. Semantics: docs/semantics.md §3.
//
// Output byte j = input byte j XOR key[(offset + j) mod 8], where `offset` is the absolute position of the
// first byte in its file (or value). An all-zero key means obfuscation is off. The 8-byte key is held as
// one 64-bit word; for each offset mod 8 a pre-rotated copy lines the key up with 8-byte loads, so the bulk
// is XORed a word at a time once the pointer is 8-byte aligned.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace embedded {

class Obfuscation {
 public:
  static constexpr size_t kKeySize = 8;
  using KeyBytes = std::array<uint8_t, kKeySize>;

  Obfuscation() : Obfuscation(KeyBytes{}) {}
  explicit Obfuscation(const KeyBytes& key);

  // False for the all-zero key: callers skip the work and may store plaintext.
  explicit operator bool() const { return rotations_[0] != 0; }
  KeyBytes key() const;
  // Lower-case hex of the 8 key bytes in order, e.g. "0001020304050607".
  std::string ToString() const;

  // XORs `data` in place as the bytes at absolute positions offset .. offset + data.size() - 1. Any offset
  // (including values above 2^32), length and alignment; results do not depend on how a range is chunked.
  void operator()(std::span<uint8_t> data, uint64_t offset) const;

 private:
  // rotations_[r]: the key word whose first byte in memory is key[r].
  std::array<uint64_t, kKeySize> rotations_;
};

}  // namespace embedded
