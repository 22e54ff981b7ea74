// A coin: an unspent transaction output with the height and coinbase flag of its transaction.
// Semantics: docs/semantics.md §1.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "prevector.h"

namespace embedded {

// Script storage: 36 bytes inline, so P2WPKH/P2PKH/P2TR/P2WSH/P2PK scripts need no heap allocation.
using Script = prevector<36, uint8_t>;

// OP_RETURN outputs and scripts above 10,000 bytes can never be spent, so caches never store them.
constexpr uint8_t kOpReturn = 0x6a;
constexpr size_t kMaxScriptSize = 10000;
inline bool IsUnspendable(const Script& script) {
  return (!script.empty() && script[0] == kOpReturn) || script.size() > kMaxScriptSize;
}

struct Coin {
  int64_t amount = -1;  // -1 with an empty script: spent
  Script script;
  uint32_t height = 0;
  bool coinbase = false;

  Coin() = default;
  Coin(int64_t amount_in, Script script_in, uint32_t height_in, bool coinbase_in)
      : amount(amount_in), script(std::move(script_in)), height(height_in), coinbase(coinbase_in) {}

  bool IsSpent() const { return amount == -1 && script.empty(); }
  // Spent, and the script's heap block (if any) is freed so usage accounting drops it.
  void Clear() {
    amount = -1;
    Script().swap(script);
    height = 0;
    coinbase = false;
  }
  // Heap bytes owned by the coin (the cache's usage accounting adds its own per-entry overhead).
  size_t DynamicMemoryUsage() const { return script.allocated_memory(); }

  std::string ToString() const;
  friend bool operator==(const Coin& a, const Coin& b) {
    return a.amount == b.amount && a.script == b.script && a.height == b.height && a.coinbase == b.coinbase;
  }
};

inline std::string Coin::ToString() const {
  if (IsSpent()) return "spent";
  return "Coin(amount=" + std::to_string(amount) + ", script=" + std::to_string(script.size()) +
         "B, height=" + std::to_string(height) + (coinbase ? ", coinbase" : "") + ")";
}

}  // namespace embedded
