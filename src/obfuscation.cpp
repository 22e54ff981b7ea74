#include "obfuscation.h"

#include <bit>
#include <cstring>
#include "hex.h"

namespace embedded {

namespace {

// XORs up to 8 bytes with the leading bytes of `word` (as laid out in memory).
void XorPartial(uint8_t* p, size_t n, uint64_t word) {
  uint64_t buf = 0;
  std::memcpy(&buf, p, n);
  buf ^= word;
  std::memcpy(p, &buf, n);
}

// The word whose memory bytes are the key starting at key[r]: a byte rotation toward lower addresses.
uint64_t RotateToByte(uint64_t word, unsigned r) {
  static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
  if constexpr (std::endian::native == std::endian::little) return std::rotr(word, static_cast<int>(8 * r));
  return std::rotl(word, static_cast<int>(8 * r));
}

}  // namespace

Obfuscation::Obfuscation(const KeyBytes& key) {
  uint64_t word;
  std::memcpy(&word, key.data(), kKeySize);
  for (unsigned r = 0; r < kKeySize; ++r) rotations_[r] = RotateToByte(word, r);
}

Obfuscation::KeyBytes Obfuscation::key() const {
  KeyBytes out;
  std::memcpy(out.data(), &rotations_[0], kKeySize);
  return out;
}

std::string Obfuscation::ToString() const {
  const KeyBytes bytes = key();
  return HexStr(bytes);
}

void Obfuscation::operator()(std::span<uint8_t> data, uint64_t offset) const {
  if (!*this || data.empty()) return;
  uint8_t* p = data.data();
  size_t n = data.size();
  // Bytes before the first 8-byte-aligned address, keyed from `offset`.
  const size_t misaligned = (kKeySize - reinterpret_cast<uintptr_t>(p) % kKeySize) % kKeySize;
  if (misaligned > 0) {
    const size_t prefix = misaligned < n ? misaligned : n;
    XorPartial(p, prefix, rotations_[offset % kKeySize]);
    p += prefix;
    n -= prefix;
    offset += prefix;  // the key must be re-rotated for where the aligned part starts
  }
  const uint64_t word = rotations_[offset % kKeySize];
  for (; n >= kKeySize; p += kKeySize, n -= kKeySize) {
    uint64_t chunk;
    std::memcpy(&chunk, p, kKeySize);
    chunk ^= word;
    std::memcpy(p, &chunk, kKeySize);
  }
  if (n > 0) XorPartial(p, n, word);
}

}  // namespace embedded
