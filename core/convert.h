// Conversions between the suite's vocabulary (embedded::Hash256, Script, OutPoint, Coin, Transaction,
// Block) and Bitcoin Core's, field by field, never through a codec, so a serialization bug on either side
// cannot hide in a conversion. Included only by core/*.cpp: it needs Core's headers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <coins.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <uint256.h>

#include "src/coins/coin.h"
#include "src/coins/outpoint.h"
#include "src/tx/transaction.h"

namespace core_adapter {

inline uint256 ToCore(const embedded::Hash256& h) { return uint256{std::span<const unsigned char, 32>(h.bytes)}; }

inline embedded::Hash256 FromCore(const uint256& h) {
  embedded::Hash256 out;
  std::copy(h.begin(), h.end(), out.bytes.begin());
  return out;
}

inline std::vector<embedded::Hash256> FromCore(const std::vector<uint256>& hashes) {
  std::vector<embedded::Hash256> out;
  out.reserve(hashes.size());
  for (const uint256& h : hashes) out.push_back(FromCore(h));
  return out;
}

// Makes `out` hold the bytes of `s`. prevector's range constructor and copy assignment copy byte by byte, a
// checked store per byte under ASan, which a transaction of 3,000 inputs pays dearly; where the tree's
// prevector has resize_uninitialized (its deserializer's way in), the bytes are copied at once.
// (A template, so that a tree without it compiles the other branch alone.)
template <class CoreScript = CScript>
void AssignScript(CoreScript& out, const embedded::Script& s) {
  if constexpr (requires { out.resize_uninitialized(s.size()); }) {
    out.resize_uninitialized(s.size());
    if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  } else {
    out = CoreScript(s.data(), s.data() + s.size());
  }
}

inline CScript ToCore(const embedded::Script& s) {
  CScript out;
  AssignScript(out, s);
  return out;
}

// CTxOut's constructor copies the script it is given once more: the output is built in place instead.
inline CTxOut MakeTxOut(int64_t value, const embedded::Script& script) {
  CTxOut out;
  out.nValue = value;
  AssignScript(out.scriptPubKey, script);
  return out;
}

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
  return ::Coin(MakeTxOut(c.amount, c.script), static_cast<int>(c.height), c.coinbase);
}

// Into an existing coin: its script's heap block is reused when large enough.
inline void AssignFromCore(embedded::Coin& to, const ::Coin& c) {
  to.amount = c.out.nValue;
  to.script.assign(c.out.scriptPubKey.data(), c.out.scriptPubKey.data() + c.out.scriptPubKey.size());
  to.height = c.nHeight;
  to.coinbase = c.fCoinBase;
}

inline embedded::Coin FromCore(const ::Coin& c) {
  embedded::Coin out;
  AssignFromCore(out, c);
  return out;
}

inline std::optional<::Coin> ToCore(const std::optional<embedded::Coin>& c) {
  if (!c) return std::nullopt;
  return ToCore(*c);
}

inline std::optional<embedded::Coin> FromCore(const std::optional<::Coin>& c) {
  if (!c) return std::nullopt;
  return FromCore(*c);
}

// Core keeps the version as uint32_t, the suite as int32_t (both serialize the same four bytes).
inline CMutableTransaction ToCore(const embedded::Transaction& tx) {
  CMutableTransaction out;
  out.version = static_cast<uint32_t>(tx.version);
  out.nLockTime = tx.locktime;
  out.vin.reserve(tx.vin.size());
  for (const embedded::TxIn& in : tx.vin) {
    CTxIn& core = out.vin.emplace_back();
    core.prevout = COutPoint(Txid::FromUint256(ToCore(in.prevout.txid)), in.prevout.n);
    AssignScript(core.scriptSig, in.script_sig);
    core.nSequence = in.sequence;
    core.scriptWitness.stack.assign(in.witness.begin(), in.witness.end());
  }
  out.vout.reserve(tx.vout.size());
  for (const embedded::TxOut& o : tx.vout) out.vout.push_back(MakeTxOut(o.value, o.script_pubkey));
  return out;
}

inline embedded::Transaction FromCore(const CMutableTransaction& tx) {
  embedded::Transaction out;
  out.version = static_cast<int32_t>(tx.version);
  out.locktime = tx.nLockTime;
  out.vin.reserve(tx.vin.size());
  for (const CTxIn& in : tx.vin) {
    embedded::TxIn& mine = out.vin.emplace_back();
    mine.prevout = {FromCore(in.prevout.hash.ToUint256()), in.prevout.n};
    mine.script_sig = FromCore(in.scriptSig);
    mine.sequence = in.nSequence;
    mine.witness.assign(in.scriptWitness.stack.begin(), in.scriptWitness.stack.end());
  }
  out.vout.reserve(tx.vout.size());
  for (const CTxOut& o : tx.vout) out.vout.push_back({o.nValue, FromCore(o.scriptPubKey)});
  return out;
}

inline CBlock ToCore(const embedded::Block& block) {
  CBlock out;
  out.nVersion = block.header.version;
  out.hashPrevBlock = ToCore(block.header.prev_block);
  out.hashMerkleRoot = ToCore(block.header.merkle_root);
  out.nTime = block.header.time;
  out.nBits = block.header.bits;
  out.nNonce = block.header.nonce;
  out.vtx.reserve(block.vtx.size());
  for (const embedded::Transaction& tx : block.vtx) out.vtx.push_back(MakeTransactionRef(ToCore(tx)));
  return out;
}

}  // namespace core_adapter
