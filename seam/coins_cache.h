// Seam: the coins cache with its intrusive list of flagged entries, and the overlay a block is connected
// through (Bitcoin Core's CCoinsViewCache and CoinsViewOverlay, coins.h).
//
// Contract (docs/semantics.md §1): the interface of src/coins/view.h, src/coins/cache.h,
// src/coins/tx_coins.h, src/coins/error_catcher.h and src/coins/overlay.h — CoinsView (the parent
// interface: GetCoin, PeekCoin, HaveCoin, GetBestBlock, BatchWrite with a CoinsCursor over flagged entries,
// GetHeadBlocks, EstimateSize), CacheEntry (coin + DIRTY/FRESH flags), CoinsViewCache (AddCoin, SpendCoin,
// AccessCoin, HaveCoinInCache, Uncache, EmplaceCoinInternalDANGER, HaveInputs, Flush, Sync, Reset,
// SanityCheck, DynamicMemoryUsage, GetCacheSize, GetDirtyCount, DirtyOrder), AddCoins and AccessByTxid,
// CoinsViewErrorCatcher (AddReadErrCallback; a failed read below it runs the callbacks, then aborts) and
// CoinsViewOverlay (constructed over a parent with 0..kMaxWorkers fetching threads; StartFetching,
// AllInputsConsumed).
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
//   kOverlaySyncRaces         known Bitcoin Core bug (docs/core-bugs.md#overlay-sync): the overlay's Sync
//                             is CCoinsViewCache's, which writes the parent while the fetchers read it
//                             and leaves coins fetched before it to be served after it; a Sync of an
//                             overlay during a block is then a known-failing check (harness::RunKnownBugCheck).
// Core's changes inside the supported range that keep the contract (Flush/Sync/BatchWrite returning void,
// GetDirtyCount, PeekCoin, Reset) are the adapter's business: see core/coins_cache.h.
#pragma once

#include <cstddef>

#include "seam/types.h"

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
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.CoinsUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return CoinsViewCache::ScriptHeapCharge(bytes); }
inline constexpr bool kBatchWriteMovesErasedCoins = true;
inline constexpr bool kWriteForwardsUnsetBestBlock = true;
inline constexpr bool kGetBestBlockMemoizes = true;
inline constexpr bool kAddSpentCoinThrows = false;
inline constexpr bool kOverlayPrefetches = core_adapter::kOverlayIsCores;
inline constexpr bool kOverlaySyncRaces = core_adapter::kOverlaySyncRaces;
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
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.DynamicMemoryUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return bytes; }
inline constexpr bool kBatchWriteMovesErasedCoins = false;
inline constexpr bool kWriteForwardsUnsetBestBlock = false;
inline constexpr bool kGetBestBlockMemoizes = false;
inline constexpr bool kAddSpentCoinThrows = true;
inline constexpr bool kOverlayPrefetches = true;
inline constexpr bool kOverlaySyncRaces = false;

// The embedded overlay with the seam's constructor: its pool comes from one per worker count, started once
// per process (threads are what costs; they keep nothing between blocks).
class CoinsViewOverlay : public embedded::CoinsViewOverlay {
 public:
  static constexpr int kMaxWorkers = 4;
  CoinsViewOverlay(CoinsView* parent, int workers) : embedded::CoinsViewOverlay(parent, Pool(workers)) {}

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
