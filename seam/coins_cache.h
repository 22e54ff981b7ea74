// Seam: the coins cache with its intrusive list of flagged entries, and the overlay a block is connected
// through (Bitcoin Core's CCoinsViewCache and CoinsViewOverlay, coins.h).
//
// Contract (docs/semantics.md §1): the interface of src/coins/view.h, src/coins/cache.h,
// src/coins/tx_coins.h, src/coins/error_catcher.h and src/coins/overlay.h — CoinsView (the parent
// interface: GetCoin, PeekCoin, HaveCoin, GetBestBlock, BatchWrite with a CoinsCursor over flagged entries,
// GetHeadBlocks, EstimateSize), CacheEntry (coin + DIRTY/FRESH flags), CoinsViewCache (AddCoin, SpendCoin,
// AccessCoin, HaveCoinInCache, Uncache, EmplaceCoinInternalDANGER, HaveInputs, Flush, Sync, Reset,
// SanityCheck, DynamicMemoryUsage, GetCacheSize, GetDirtyCount, DirtyOrder), AddCoins (of a HashedTransaction:
// a transaction whose txid is computed once, Core's CTransaction) and AccessByTxid,
// CoinsViewErrorCatcher (AddReadErrCallback; a failed read below it runs the callbacks, then aborts) and
// CoinsViewOverlay (constructed over a parent with 0..kMaxWorkers fetching threads; StartFetching of a block
// or of a HashedBlock, which Core's flavor converts once for several overlays; AllInputsConsumed).
//
// Where the two subjects' contracts differ (docs/bitcoin-core.md, the differences table):
//   ModelledUsage(cache)      the part of DynamicMemoryUsage() the reference model predicts (entries'
//                             kEntryOverhead plus script heap charges): all of it in the embedded cache;
//                             Core's coin usage counter (its map's pool memory is not per entry).
//   ScriptHeapCharge(bytes)   what the cache charges for a script heap block of `bytes`: the bytes
//                             themselves, or Core's malloc-rounded estimate.
//   kBatchWriteMovesErasedCoins   BatchWrite moves (rather than copies) the coin of a child entry the
//                             child will erase afterwards (every entry of a flush, spent entries of a
//                             sync): the parent's script takes over the child's heap block and frees its own.
//   kWriteForwardsUnsetBestBlock  a flush or sync hands the parent the cache's own best block even when
//                             none was set (Core's null hash, which a parent cache then treats as unset
//                             and the bottom view receives as the all-zero hash), instead of the best block
//                             the cache reports (its parent's).
//   kGetBestBlockMemoizes     GetBestBlock on a cache without its own best block stores the answer it got
//                             from below as its own.
//   kAddSpentCoinThrows       AddCoin of a spent coin throws std::logic_error; Core asserts instead.
//   kOverlayPrefetches        the overlay queues a block's prevouts and fetches them ahead, so
//                             AllInputsConsumed says whether they were looked up in block order (Core
//                             before #34165 has no overlay: the adapter's is a plain cache that peeks).
//   kFlushCanKeepMemory       Flush(reallocate_cache = false) keeps the map's memory: the cache's total
//                             memory figure drops by its coins' part only (Core before #33602 reallocates
//                             at every flush, and has no such parameter).
//   kCoinsApi                 which operations and checks beyond the central ones the subject offers.
// What the harness can see of the cache's inside, where Core's internals are reached through shims
// (core/coins_cache.h): each true in the embedded subject and where the tree has the internal, else the
// check takes its behavioural form, as the table configure prints says.
//   kEntriesVisible           FindEntry shows every entry with its flags; else only unspent entries, flags
//                             unknown, and flags are checked at writes (LastWrite).
//   kDirtyListVisible         DirtyOrder at any step; else the order is checked at every write down, where
//                             LastWrite holds what the cursor handed the parent.
//   kExactUsage               ModelledUsage is the coins' exact usage; else only DynamicMemoryUsage, which
//                             must be at least the model's prediction.
//   kDirtyCountVisible        GetDirtyCount at any step; else the count is checked at writes.
//   kExactStates              InsertEntry makes any legal state; else states are built by operations and the
//                             ones they cannot make throw Unbuildable.
// Behaviours in two forms (the embedded subject has the first; Core's tree is asked by running them):
//   SpendOfSpentFails()       SpendCoin of an entry already spent returns false and changes nothing (else
//                             true, also changing nothing);
//   BatchWriteRefusesSpentFresh()  BatchWrite throws std::logic_error for a spent FRESH child entry (else it
//                             skips it, docs/semantics.md §1).
//   Fresh()                   where the subject puts FRESH, and whether a spent FRESH entry is erased
//                             (FreshRules: the first form of each is docs/semantics.md §1's rule; a subject
//                             that sets FRESH on fewer entries, or keeps a spent one, writes more than it
//                             must, which no node notices, so the model follows it);
//   DirtyOrderIsFirstDirtied()  a write down hands the parent the DIRTY entries in the order they first
//                             became DIRTY (else in an order of the subject's own, which no caller relies on:
//                             the dirty list, each write and a cut flush's split are then checked as sets).
// Core's changes that keep the contract (Flush/Sync/BatchWrite returning void,
// GetDirtyCount, PeekCoin, Reset) are the adapter's business: see core/coins_cache.h.
#pragma once

#include <cstddef>

#include "seam/coins_cache_forms.h"
#include "seam/types.h"

namespace seam {
// The cache's operations and checks beyond its central ones (construction, GetCoin, AddCoin, SpendCoin,
// the best block, Flush, Sync, BatchWrite and its cursor), each present in the embedded subject and, against
// Bitcoin Core, where the tree has the API (core/coins_cache_features.h): the harness leaves out what needs
// one that is off, as the table configure prints says.
struct CoinsCacheApi {
  bool have_coin = true;           // HaveCoin
  bool have_coin_in_cache = true;  // HaveCoinInCache
  bool access_coin = true;         // AccessCoin
  bool uncache = true;             // Uncache
  bool sizes = true;               // GetCacheSize, DynamicMemoryUsage
  bool sanity_check = true;        // the subject's own SanityCheck (Core's asserts)
  bool emplace = true;             // EmplaceCoinInternalDANGER
  bool have_inputs = true;         // HaveInputs
  bool backed_store_reads = true;  // GetHeadBlocks, EstimateSize through a cache
  bool add_coins = true;           // AddCoins
  bool access_by_txid = true;      // AccessByTxid
  bool error_catcher = true;       // CoinsViewErrorCatcher
  bool entry_flags = true;         // an entry's DIRTY and FRESH flags can be read
  bool peek = true;                // PeekCoin
};
}  // namespace seam

#if SUITE_SUBJECT_CORE
#include "core/coins_cache.h"
namespace seam {
using core_adapter::AccessByTxid;
using core_adapter::AddCoins;
using core_adapter::CacheEntry;
using core_adapter::CoinsCachePair;
using core_adapter::CoinsCursor;
using core_adapter::CoinsView;
using core_adapter::CoinsViewCache;
using core_adapter::CoinsViewErrorCatcher;
using core_adapter::CoinsViewOverlay;
using core_adapter::HashedBlock;
using core_adapter::HashedTransaction;
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.CoinsUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return CoinsViewCache::ScriptHeapCharge(bytes); }
inline constexpr bool kBatchWriteMovesErasedCoins = true;
inline constexpr bool kWriteForwardsUnsetBestBlock = true;
inline constexpr bool kGetBestBlockMemoizes = true;
inline constexpr bool kAddSpentCoinThrows = false;
inline constexpr bool kOverlayPrefetches = core_adapter::kOverlayIsCores;
inline constexpr bool kFlushCanKeepMemory = core_adapter::kFlushCanKeepMemory;
inline constexpr CoinsCacheApi kCoinsApi{
    .have_coin = SUITE_CORE_cache_have_coin,
    .have_coin_in_cache = SUITE_CORE_cache_have_coin_in_cache,
    .access_coin = SUITE_CORE_cache_access_coin,
    .uncache = SUITE_CORE_cache_uncache,
    .sizes = SUITE_CORE_cache_sizes,
    .sanity_check = SUITE_CORE_cache_sanity_check,
    .emplace = SUITE_CORE_cache_emplace,
    .have_inputs = SUITE_CORE_cache_have_inputs,
    .backed_store_reads = SUITE_CORE_cache_backed_store_reads,
    .add_coins = SUITE_CORE_add_coins,
    .access_by_txid = SUITE_CORE_access_by_txid,
    .error_catcher = SUITE_CORE_error_catcher,
    .entry_flags = SUITE_CORE_entry_flags,
    .peek = SUITE_CORE_peek_coin || (SUITE_CORE_cache_map && SUITE_CORE_entry_flags),
};
inline constexpr bool kEntriesVisible = core_adapter::kEntriesInternal;
inline constexpr bool kDirtyListVisible = core_adapter::kDirtyListInternal;
inline constexpr bool kExactUsage = core_adapter::kUsageInternal;
inline constexpr bool kDirtyCountVisible = core_adapter::kDirtyCountVisible;
inline constexpr bool kExactStates = core_adapter::kInsertInternal;
using core_adapter::BatchWriteRefusesSpentFresh;
using core_adapter::DirtyOrderIsFirstDirtied;
using core_adapter::Fresh;
using core_adapter::SpendOfSpentFails;
using core_adapter::Unbuildable;
}  // namespace seam
#else
#include <array>
#include <memory>
#include <mutex>

#include "src/coins/cache.h"
#include "src/coins/error_catcher.h"
#include "src/coins/overlay.h"
#include "src/coins/tx_coins.h"
#include "src/coins/view.h"
namespace seam {
using embedded::AccessByTxid;
using embedded::AddCoins;
using embedded::CacheEntry;
using embedded::CoinsCachePair;
using embedded::CoinsCursor;
using embedded::CoinsView;
using embedded::CoinsViewCache;
using embedded::CoinsViewErrorCatcher;
using embedded::HashedTransaction;
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.DynamicMemoryUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return bytes; }
inline constexpr bool kBatchWriteMovesErasedCoins = false;
inline constexpr bool kWriteForwardsUnsetBestBlock = false;
inline constexpr bool kGetBestBlockMemoizes = false;
inline constexpr bool kAddSpentCoinThrows = true;
inline constexpr bool kOverlayPrefetches = true;
inline constexpr bool kFlushCanKeepMemory = true;
inline constexpr CoinsCacheApi kCoinsApi{};
inline constexpr bool kEntriesVisible = true;
inline constexpr bool kDirtyListVisible = true;
inline constexpr bool kExactUsage = true;
inline constexpr bool kDirtyCountVisible = true;
inline constexpr bool kExactStates = true;
inline bool SpendOfSpentFails() { return false; }
inline bool BatchWriteRefusesSpentFresh() { return false; }
inline bool DirtyOrderIsFirstDirtied() { return true; }
inline const FreshRules& Fresh() {
  static const FreshRules rules;
  return rules;
}

// A block as the overlays' StartFetching takes it. Core's is converted once for all the overlays that fetch
// it; the embedded overlay takes the block itself, which must outlive the fetch.
struct HashedBlock {
  explicit HashedBlock(const embedded::Block& b) : block(b) {}
  const embedded::Block& block;
};

// The embedded overlay with the seam's constructor: its pool comes from one per worker count, started once
// per process (threads are what costs; they keep nothing between blocks).
class CoinsViewOverlay : public embedded::CoinsViewOverlay {
 public:
  static constexpr int kMaxWorkers = 4;
  CoinsViewOverlay(CoinsView* parent, int workers) : embedded::CoinsViewOverlay(parent, Pool(workers)) {}
  using embedded::CoinsViewOverlay::StartFetching;
  void StartFetching(const HashedBlock& b) { StartFetching(b.block); }

 private:
  static std::shared_ptr<embedded::ThreadPool> Pool(int workers) {
    static std::mutex mutex;
    static std::array<std::shared_ptr<embedded::ThreadPool>, kMaxWorkers + 1> pools;
    const std::lock_guard lock(mutex);
    std::shared_ptr<embedded::ThreadPool>& pool = pools.at(static_cast<size_t>(workers));
    if (!pool) pool = std::make_shared<embedded::ThreadPool>(workers);
    return pool;
  }
};
}  // namespace seam
#endif
