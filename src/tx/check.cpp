#include "tx/check.h"

#include <algorithm>
#include <compare>
#include <vector>

namespace embedded {

namespace {

// Duplicate and null checks for three or more inputs: sort a copy of the prevouts (hash bytes, then
// index), so duplicates are neighbours. Zero hashes sort first; a null prevout is somewhere in that leading
// run (last, as its index is the largest), and the whole run is scanned.
Reject CheckManyInputs(const std::vector<TxIn>& vin) {
  std::vector<OutPoint> sorted;
  sorted.reserve(vin.size());
  for (const TxIn& txin : vin) sorted.push_back(txin.prevout);
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return Reject::kInputsDuplicate;
  for (auto it = sorted.begin(); it != sorted.end() && IsZero(it->txid); ++it) {
    if (it->n == kNullIndex) return Reject::kPrevoutNull;
  }
  return Reject::kNone;
}

// What Core's ConnectBlock rejects when a second transaction spends an outpoint an earlier one in the same
// block already spent: the coin is gone from the view ("bad-txns-inputs-missingorspent"). Only the
// transactions after the coinbase spend anything. The reported transaction is the first, in block order,
// to spend an outpoint already spent before it.
BlockCheck CheckBlockSpends(const Block& block) {
  struct Spend {
    OutPoint prevout;
    size_t tx;
    auto operator<=>(const Spend&) const = default;
  };
  size_t inputs = 0;
  for (size_t i = 1; i < block.vtx.size(); ++i) inputs += block.vtx[i].vin.size();
  std::vector<Spend> spends;
  spends.reserve(inputs);
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    for (const TxIn& txin : block.vtx[i].vin) spends.push_back({txin.prevout, i});
  }
  std::sort(spends.begin(), spends.end());
  // Within a run of equal prevouts the spenders are in block order; the second is the first double spend.
  size_t first = BlockCheck::kNoTx;
  for (size_t k = 1; k < spends.size(); ++k) {
    if (spends[k].prevout == spends[k - 1].prevout) first = std::min(first, spends[k].tx);
  }
  if (first == BlockCheck::kNoTx) return {};
  return {Reject::kInputsMissingOrSpent, first};
}

}  // namespace

Reject CheckTransaction(const Transaction& tx) {
  if (tx.vin.empty()) return Reject::kVinEmpty;
  if (tx.vout.empty()) return Reject::kVoutEmpty;
  if (SerializedSize(tx, /*with_witness=*/false) * kWitnessScaleFactor > kMaxBlockWeight) return Reject::kOversize;
  // Each value is in [0, MAX_MONEY] when added, so the running total cannot overflow.
  int64_t total = 0;
  for (const TxOut& txout : tx.vout) {
    if (txout.value < 0) return Reject::kVoutNegative;
    if (txout.value > kMaxMoney) return Reject::kVoutTooLarge;
    total += txout.value;
    if (total > kMaxMoney) return Reject::kTxoutTotalTooLarge;
  }
  switch (tx.vin.size()) {
    case 1: {
      // No duplicate is possible. A null prevout makes this a coinbase, whose scriptSig rule replaces the
      // null check.
      if (!IsNullPrevout(tx.vin[0].prevout)) return Reject::kNone;
      const size_t length = tx.vin[0].script_sig.size();
      return length < kMinCoinbaseScriptSig || length > kMaxCoinbaseScriptSig ? Reject::kCbLength : Reject::kNone;
    }
    case 2: {
      const OutPoint& a = tx.vin[0].prevout;
      const OutPoint& b = tx.vin[1].prevout;
      if (a == b) return Reject::kInputsDuplicate;
      if (IsNullPrevout(a) || IsNullPrevout(b)) return Reject::kPrevoutNull;
      return Reject::kNone;
    }
    default: return CheckManyInputs(tx.vin);
  }
}

BlockCheck CheckBlock(const Block& block) {
  // Core also rejects more than 1,000,000 transactions here; each serializes to at least 10 bytes, so the
  // size rule below already covers that.
  if (block.vtx.empty() || SerializedSize(block, /*with_witness=*/false) * kWitnessScaleFactor > kMaxBlockWeight) {
    return {Reject::kBlkLength, BlockCheck::kNoTx};
  }
  if (!block.vtx[0].IsCoinBase()) return {Reject::kCbMissing, 0};
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    if (block.vtx[i].IsCoinBase()) return {Reject::kCbMultiple, i};
  }
  for (size_t i = 0; i < block.vtx.size(); ++i) {
    if (const Reject r = CheckTransaction(block.vtx[i]); r != Reject::kNone) return {r, i};
  }
  return CheckBlockSpends(block);
}

}  // namespace embedded
