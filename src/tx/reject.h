// The vocabulary of the transaction and block checks: reject reasons, the block check's result and the
// limits the rules name. Shared by both subjects (the embedded checks in tx/check.h and the Bitcoin Core
// adapter, which maps Core's reject reason strings onto these values). Semantics: docs/semantics.md §4.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embedded {

// Stable IDs (append only); Reason() gives Core's reject reason string.
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
  // Core's CheckBlock limits the legacy signature operations of a block; the embedded CheckBlock has no
  // such rule and never returns this (seam/tx_check.h: kBlockSigopsLimit).
  kBlkSigops = 14,
};
// Number of Reject values: every ID below it is a valid Reject.
inline constexpr uint8_t kRejectCount = 15;
// "" for kNone, "unknown" for a value outside the enum.
const char* Reason(Reject r);

// The block weight limit; a transaction's or block's size without witness counts this many times.
constexpr size_t kMaxBlockWeight = 4000000;
constexpr size_t kWitnessScaleFactor = 4;
// A coinbase scriptSig must carry at least the 2 bytes Core has always required and at most 100.
constexpr size_t kMinCoinbaseScriptSig = 2;
constexpr size_t kMaxCoinbaseScriptSig = 100;

struct BlockCheck {
  static constexpr size_t kNoTx = SIZE_MAX;

  Reject reject = Reject::kNone;
  // The transaction the reason is about: the failing one, the extra coinbase, or the later of two spenders
  // of one outpoint (the first such transaction in block order). kNoTx for kNone and the block-wide
  // reasons (kBlkLength, kBlkSigops).
  size_t tx = kNoTx;
};

}  // namespace embedded
