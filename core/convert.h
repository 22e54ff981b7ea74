// Conversions between the suite's vocabulary (embedded::Hash256, Script, OutPoint, Coin) and Bitcoin
// Core's, field by field, never through a codec, so a serialization bug on either side cannot hide in a
// conversion. Included only by core/*.cpp: it needs Core's headers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include <coins.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <uint256.h>

#include "src/coins/coin.h"
#include "src/coins/outpoint.h"

namespace core_adapter {

inline uint256 ToCore(const embedded::Hash256& h) { return uint256{std::span<const unsigned char, 32>(h.bytes)}; }

inline embedded::Hash256 FromCore(const uint256& h) {
  embedded::Hash256 out;
  std::copy(h.begin(), h.end(), out.bytes.begin());
  return out;
}

inline CScript ToCore(const embedded::Script& s) { return CScript(s.data(), s.data() + s.size()); }

inline embedded::Script FromCore(const CScript& s) { return embedded::Script(s.data(), s.data() + s.size()); }

inline COutPoint ToCore(const embedded::OutPoint& o) { return COutPoint(Txid::FromUint256(ToCore(o.txid)), o.n); }

inline embedded::OutPoint FromCore(const COutPoint& o) { return embedded::OutPoint{FromCore(o.hash.ToUint256()), o.n}; }

// A spent coin becomes Core's spent (null) coin. Core keeps the height in 31 bits: a larger one throws
// std::invalid_argument rather than being truncated.
inline ::Coin ToCore(const embedded::Coin& c) {
  if (c.IsSpent()) return ::Coin();
  constexpr uint32_t kMaxCoreHeight = std::numeric_limits<uint32_t>::max() >> 1;
  if (c.height > kMaxCoreHeight) {
    throw std::invalid_argument("coin height " + std::to_string(c.height) + " does not fit Core's 31-bit field");
  }
  return ::Coin(CTxOut(c.amount, ToCore(c.script)), static_cast<int>(c.height), c.coinbase);
}

inline embedded::Coin FromCore(const ::Coin& c) {
  return embedded::Coin(c.out.nValue, FromCore(c.out.scriptPubKey), c.nHeight, c.fCoinBase);
}

inline std::optional<embedded::Coin> FromCore(const std::optional<::Coin>& c) {
  if (!c) return std::nullopt;
  return FromCore(*c);
}

}  // namespace core_adapter
