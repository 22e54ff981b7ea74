// Outpoints and 256-bit hashes for the coins cache. Semantics: docs/semantics.md §1.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <cstring>
#include <string>

#include "hex.h"

namespace embedded {

struct Hash256 {
  std::array<uint8_t, 32> bytes{};

  // The first 8 bytes in hex: enough to tell table entries apart in a trace.
  std::string ToShortString() const;
  // Byte order, with one memcmp (as Bitcoin's uint256) rather than an element-wise loop.
  friend bool operator==(const Hash256& a, const Hash256& b) { return Compare(a, b) == 0; }
  friend std::strong_ordering operator<=>(const Hash256& a, const Hash256& b) { return Compare(a, b) <=> 0; }

 private:
  static int Compare(const Hash256& a, const Hash256& b) {
    return std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size());
  }
};

struct OutPoint {
  Hash256 txid;
  uint32_t n = 0;

  std::string ToString() const { return txid.ToShortString() + ":" + std::to_string(n); }
  friend auto operator<=>(const OutPoint&, const OutPoint&) = default;
};

// Deterministic (unsalted) hash for the cache's map. A node salts it against adversarial txids; the suite
// wants runs that replay identically, and its txids are not adversarial to the map.
struct OutPointHasher {
  size_t operator()(const OutPoint& o) const {
    uint64_t a, b;
    std::memcpy(&a, o.txid.bytes.data(), 8);
    std::memcpy(&b, o.txid.bytes.data() + 24, 8);
    uint64_t h = a ^ (b * 0x9e3779b97f4a7c15) ^ (uint64_t{o.n} * 0xc2b2ae3d27d4eb4f);
    h ^= h >> 29;
    return static_cast<size_t>(h * 0xbf58476d1ce4e5b9);
  }
};

inline std::string Hash256::ToShortString() const { return HexStr(std::span(bytes).first(8)); }

}  // namespace embedded
