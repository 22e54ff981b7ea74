// Context-free transaction and block checks with the specialised duplicate-input check.
// Semantics: docs/semantics.md §4.
//
// CheckTransaction applies, in this order, each rule with its reject reason: empty vin; empty vout;
// oversize (serialization without witness × 4 > 4,000,000); per output in order: negative value, value
// above MAX_MONEY, running total above MAX_MONEY; duplicate inputs; for a coinbase, scriptSig length outside
// 2..100; otherwise a null prevout.
//
// CheckBlock is Core's CheckBlock restricted to these rules, followed by the part of ConnectBlock that a
// double spend inside the block trips over: block length, then the first transaction must be the only
// coinbase, then every transaction is checked in order (duplicate check included), then no outpoint may be
// spent by two transactions of the block.
#pragma once

#include <cstddef>
#include <cstdint>

#include "amount.h"
#include "tx/transaction.h"

namespace embedded {

// Stable IDs; Reason() gives Core's reject reason string.
enum class Reject : uint8_t {
  kNone = 0,
  kVinEmpty = 1,
  kVoutEmpty = 2,
  kOversize = 3,
  kVoutNegative = 4,
  kVoutTooLarge = 5,
  kTxoutTotalTooLarge = 6,
  kInputsDuplicate = 7,
  kCbLength = 8,
  kPrevoutNull = 9,
  kBlkLength = 10,
  kCbMissing = 11,
  kCbMultiple = 12,
  kInputsMissingOrSpent = 13,
};
// "" for kNone.
const char* Reason(Reject r);

// The block weight limit; a transaction's or block's size without witness counts this many times.
constexpr size_t kMaxBlockWeight = 4000000;
constexpr size_t kWitnessScaleFactor = 4;
// A coinbase scriptSig must carry at least the 2 bytes Core has always required and at most 100.
constexpr size_t kMinCoinbaseScriptSig = 2;
constexpr size_t kMaxCoinbaseScriptSig = 100;

Reject CheckTransaction(const Transaction& tx);

struct BlockCheck {
  static constexpr size_t kNoTx = SIZE_MAX;

  Reject reject = Reject::kNone;
  // The transaction the reason is about: the failing one, the extra coinbase, or the later of two spenders
  // of one outpoint (the first such transaction in block order). kNoTx for kNone and kBlkLength.
  size_t tx = kNoTx;
};

BlockCheck CheckBlock(const Block& block);

}  // namespace embedded
