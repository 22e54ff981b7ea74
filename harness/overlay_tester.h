// OverlayTester: blocks connected through CoinsViewOverlay the way ConnectBlock connects them, over a
// chainstate cache (the tip) over a CheckedBaseView, in lockstep with CoinsStackModel (level 0 the tip,
// level 1 the overlay, which peeks at the tip). Two overlays run every step: one fetches the block's
// prevouts on the input's number of threads (0 to 4), the other fetches nothing ahead. Both must answer
// every lookup as the model does and hold the same entries, flags, dirty order and usage; the fetching one's
// AllInputsConsumed() must say whether the queued prevouts were looked up in block order (the model keeps
// the queue the contract defines). Whichever overlay writes a block down, the tip must then hold what the
// model says.
//
// A block is a coinbase and up to kMaxTxs transactions built from the input: inputs spend the funding outpoints
// (present in the tip or the base, which holds every other one from the start, spent, or never there), outputs of
// earlier transactions of the block (also past their last output), or the coinbase's; the same prevout may be spent
// twice. Their txids are real (the reference's SHA-256 of their serialization), so the overlay's filter of in-block
// spends is exercised. A transaction is connected as ConnectBlock does: HaveCoin of every input (the first miss
// makes the block invalid), AccessCoin of each, SpendCoin of each (moved-out coin checked), AddCoin of each output
// (possible_overwrite only for the coinbase). BIP30's lookups of a block's outputs are an operation of their own. A
// block ends valid (best block set, Flush, then Reset as ConnectBlock's guard does: only when every queued prevout
// was consumed, as Core assumes before it flushes) or invalid, or is abandoned part way (Reset). The tip changes
// only between blocks, or through the fetching overlay's own Sync in the middle of a block (the contract forbids
// changing an overlay's parent otherwise while it fetches): the overlay must then answer from the tip as it is.
//
// Not modelled: timing (no result may depend on it: a data race is TSan's to report), the value rules of
// CheckTxInputs, coin maturity, duplicate txids (each transaction's locktime is its block's number, so
// BIP30's lookups never find a coin).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "coins_model.h"
#include "coins_op_spec.h"
#include "observe.h"
#include "op_list.h"
#include "seam/coins_cache.h"

namespace harness {

// X(enumerator, id, name, args): args say which of the step's fields the operation reads and how
// OverlayStep::ToString shows them; the decoder reads only those.
// clang-format off
#define HARNESS_OVERLAY_OPS(X)                                                                                         \
  X(kFund, 0, "Fund", {kFunding | kCoin | kOverwrite}) /* the tip adds a funding coin (between blocks) */              \
  X(kTipSpend, 1, "TipSpend", {kFunding})        /* the tip spends a funding outpoint (between blocks) */              \
  X(kTipWrite, 2, "TipWrite", {kFlushOrSync})    /* the tip flushes or syncs into the base (between blocks) */         \
  X(kBlock, 3, "Block", {kTxs})                  /* a new block: StartFetching on both overlays */                     \
  X(kConnect, 4, "Connect", {0})                 /* the block's next transaction, connected as ConnectBlock does */    \
  X(kLookAhead, 5, "LookAhead", {kIndex})        /* AccessCoin of a later transaction's input: out of block order */   \
  X(kLookup, 6, "Lookup", {kIndex})              /* HaveCoin of any outpoint the input has named */                    \
  X(kPeek, 7, "Peek", {kIndex})                  /* PeekCoin of any outpoint the input has named */                    \
  /* HaveCoin of every output of the block: a block recreating an unspent coin is invalid */                           \
  X(kBip30, 8, "Bip30", {0})                                                                                           \
  /* the rest of the block, then Flush and Reset if valid, Reset if not */                                             \
  X(kEnd, 9, "End", {kWriter})                                                                                         \
  X(kAbandon, 10, "Abandon", {0})                /* Reset in the middle of a block */                                  \
  /* the fetching overlay syncs into the tip in the middle of a block; the other sits it out */                        \
  X(kSync, 11, "Sync", {0})                                                                                            \
  /* The rest of CCoinsViewCache's API, which other callers (mempool checks, RPCs) use on any cache. */                \
  X(kGet, 12, "Get", {kIndex})                   /* GetCoin of any outpoint the input has named */                     \
  X(kInCache, 13, "InCache", {kIndex, &Api::have_coin_in_cache}) /* HaveCoinInCache of a named outpoint */             \
  X(kUncache, 14, "Uncache", {kIndex, &Api::uncache})            /* Uncache of a named outpoint */                     \
  X(kHaveInputs, 15, "HaveInputs", {kIndex, &Api::have_inputs})  /* HaveInputs of a transaction of the block */        \
  X(kEmplace, 16, "Emplace", {kIndex | kCoin, &Api::emplace})    /* EmplaceCoinInternalDANGER of a named outpoint */   \
  /* EstimateSize and GetHeadBlocks, which a cache forwards to its base */                                             \
  X(kBaseReads, 17, "BaseReads", {0, &Api::backed_store_reads})                                                        \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(OverlayOp, kOverlayOpCount, 32, HARNESS_OVERLAY_OPS)

// One transaction of a block, as the input chooses it.
struct TxShape {
  // Each input: below 0x80 the funding outpoint (value mod kFunding); from 0xc0, when an earlier transaction
  // after the coinbase exists, the prevout of one of its inputs (bits 2-4 choose the transaction, bits 0-1
  // the input, each mod their number): a double spend across the block, which only ConnectBlock catches;
  // else an output of an earlier transaction of the block (bits 2-4 choose it, mod the transactions before;
  // 0 is the coinbase) whose index is bits 0-1 (possibly past its last output). A prevout repeated within
  // the transaction is dropped (CheckBlock would reject it before ConnectBlock runs).
  std::vector<uint8_t> inputs;
  uint8_t outputs = 1;  // 1 to kMaxOutputs
  uint8_t coin = 0;     // CoinTable() index of the first output's coin; the next ones follow it
};

struct OverlayStep {
  // `arg` as a funding outpoint, flush (1) or sync (0), an index, or which overlay writes; `coin`;
  // `overwrite`; `txs`.
  enum Arg : uint8_t {
    kFunding = 1,
    kFlushOrSync = 2,
    kIndex = 4,
    kWriter = 8,
    kCoin = 16,
    kTxs = 32,
    kOverwrite = 64
  };
  using Api = seam::CoinsCacheApi;
  static constexpr CoinsOpSpec kSpecs[] = HARNESS_OP_COLUMN(HARNESS_OVERLAY_OPS);
  static constexpr bool Reads(OverlayOp op, uint8_t args) { return SpecReads(kSpecs, op, args); }
  static constexpr bool Available(OverlayOp op) { return SpecAvailable(kSpecs, op); }

  OverlayOp op{};
  // kFund, kTipSpend: the funding outpoint (mod kFunding); kLookup, kPeek, kGet, kInCache, kUncache,
  // kEmplace: an outpoint the input has named (mod their number); kLookAhead: an input of the transactions
  // not yet connected (mod their number); kHaveInputs: a transaction of the block, the coinbase included
  // (mod their number); kTipWrite: 1 = flush, 0 = sync; kEnd: 1 = the fetching overlay writes the block
  // down, 0 = the other.
  uint8_t arg = 0;
  uint8_t coin = 0;          // kFund, kEmplace: CoinTable() index
  bool overwrite = false;    // kFund: AddCoin's possible_overwrite
  std::vector<TxShape> txs;  // kBlock: the transactions after the coinbase
  std::string ToString() const;
};

class OverlayTester {
 public:
  static constexpr size_t kFunding = 16;  // 4 txids x 4 indexes
  static constexpr size_t kMaxTxs = 4;
  static constexpr size_t kMaxInputs = 3;
  static constexpr uint8_t kMaxOutputs = 2;

  // `workers`: the fetching overlay's threads, 0 to seam::CoinsViewOverlay::kMaxWorkers.
  explicit OverlayTester(int workers);
  ~OverlayTester();
  OverlayTester(const OverlayTester&) = delete;
  OverlayTester& operator=(const OverlayTester&) = delete;

  // Applies one step to the subjects and the model and checks; false (nothing changed) if it does not apply.
  bool Apply(const OverlayStep& step);
  // The final sweep: every named outpoint at every level of both subjects, the base, dirty lists, sizes.
  HARNESS_NO_FUZZ_COVERAGE void CheckAll();
  // Blocks written down into the tip so far, for tests that want to know which paths an input took.
  size_t blocks_written() const { return blocks_written_; }

 private:
  using Key = CoinsStackModel::Key;
  // The block being connected: the transactions, their txids, the next one to connect, and the queue of
  // prevouts the contract says the fetching overlay fetches ahead (and how many the main thread took).
  struct Block {
    embedded::Block block;
    std::vector<Hash256> txids;
    size_t next = 0;
    bool invalid = false;
    std::vector<Key> queue;
    size_t taken = 0;
    // Whether the fetching overlay fetches ahead here: threads, and a subject whose overlay fetches at all
    // (seam::kOverlayPrefetches). The queue and `taken` are kept either way, so that every subject knows
    // where one of the other kind would decide otherwise.
    bool fetches_ahead = false;
    // The fetching overlay synced into the tip: from then on the contract says nothing of its queue, and
    // the overlay without threads (which did not sync) is left out until the block ends.
    bool synced = false;
  };

  // The key of `o`, registered on first sight; nullopt when all CoinsStackModel::kKeys are taken.
  std::optional<Key> KeyOf(const OutPoint& o);
  const OutPoint& OutpointOf(Key k) const { return outpoints_[k]; }
  bool BuildBlock(const std::vector<TxShape>& txs);
  // Whether the block's queued prevouts were all taken in order, as the fetching overlay must answer; true
  // where it fetches nothing ahead.
  bool Consumed() const { return !block_ || !block_->fetches_ahead || block_->taken == block_->queue.size(); }
  // The model's fetch at the overlay level, advancing the queue as a cache miss does.
  const ModelEntry* Fetch(Key k);
  template <OverlayOp op>
  using On = std::integral_constant<OverlayOp, op>;
  // Each operation of HARNESS_OVERLAY_OPS, applied to both overlays (or the tip) and the model, and checked;
  // false, and nothing changed, when it does not apply now. Apply's switch is generated from the list.
#define HARNESS_OVERLAY_DO_(e, ...) bool Do(On<OverlayOp::e>, const OverlayStep& step);
  HARNESS_OVERLAY_OPS(HARNESS_OVERLAY_DO_)
#undef HARNESS_OVERLAY_DO_
  bool DoNamed(const OverlayStep& step);  // logs the step, then ApplyToNamed
  // kGet, kInCache, kUncache, kEmplace on the outpoint `step` names, on the overlays and the model.
  void ApplyToNamed(const OverlayStep& step);
  void ApplyHaveInputs(const embedded::Transaction& tx);
  // ConnectBlock's work for the next transaction; false if one of its inputs is missing or spent.
  bool ConnectNext();
  void EndBlock(bool fetching_writes);
  void ResetOverlays();
  // One or two overlays, held without a heap allocation: the checks ask for them at every step.
  template <typename T>
  struct OverlayList {
    std::array<T*, 2> items;
    size_t size;
    T* const* begin() const { return items.data(); }
    T* const* end() const { return items.data() + size; }
  };
  // The overlays in lockstep with the model: both, or only the fetching one after a sync in the block.
  OverlayList<seam::CoinsViewOverlay> Overlays() { return {{&fetching_, &serial_}, OverlayCount()}; }
  OverlayList<const seam::CoinsViewOverlay> Overlays() const { return {{&fetching_, &serial_}, OverlayCount()}; }
  size_t OverlayCount() const { return block_ && block_->synced ? 1 : 2; }
  const char* Name(const seam::CoinsViewOverlay* o) const {
    return o == &fetching_ ? "fetching overlay" : "overlay without threads";
  }
  // Both overlays against the model: `k`'s entry, sizes (deep: SanityCheck and usage), AllInputsConsumed.
  HARNESS_NO_FUZZ_COVERAGE void CheckOverlays(std::optional<Key> k, bool deep) const;
  // The tip against the model: sizes, dirty list; with `every_key` every entry and the best block.
  HARNESS_NO_FUZZ_COVERAGE void CheckTip(bool every_key);

  const int workers_;
  // The block outlives the overlays, whose fetchers may still read it while they stop.
  std::optional<Block> block_;
  CheckedBaseView base_;
  seam::CoinsViewCache tip_;
  seam::CoinsViewOverlay fetching_;
  seam::CoinsViewOverlay serial_;
  CoinsStackModel model_;
  std::vector<OutPoint> outpoints_;  // by key: the funding outpoints first, then those blocks create
  std::map<OutPoint, Key> keys_;     // the keys of those blocks create (the funding ones are fixed)
  uint8_t blocks_ = 0;               // blocks started: the coinbase's scriptSig and the height
  size_t blocks_written_ = 0;
  OpLog<OverlayStep> log_;
  // Set at the end of a block whose fate depends on whether the overlay fetches ahead (Core's
  // CoinsViewOverlay, #34165 #35295): a block with threads that synced, or whose queue was not taken in
  // order, is dropped where the overlay fetches and written where it does not; every later record of the
  // input is then tied to that change.
  std::optional<observe::ChangeScope> after_fetch_dependent_end_;
};

}  // namespace harness
