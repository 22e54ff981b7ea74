// Seam: the coins cache with its intrusive list of flagged entries (Bitcoin Core's CCoinsViewCache,
// coins.h).
//
// Contract (docs/semantics.md, "Coins cache"): the interface of src/coins/view.h and src/coins/cache.h —
// CoinsView (the parent interface: GetCoin, HaveCoin, GetBestBlock, BatchWrite with a CoinsCursor over
// flagged entries), CacheEntry (coin + DIRTY/FRESH flags), CoinsViewCache (AddCoin, SpendCoin, AccessCoin,
// FetchCoin, HaveCoinInCache, Uncache, Flush, Sync, SanityCheck, DynamicMemoryUsage, GetCacheSize, DirtyOrder).
//
// Where the two subjects' contracts differ (README, "Testing a Bitcoin Core branch"):
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
#pragma once

#include <cstddef>

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/coins_cache.h"
namespace seam {
using core_adapter::CacheEntry;
using core_adapter::CoinsCachePair;
using core_adapter::CoinsCursor;
using core_adapter::CoinsView;
using core_adapter::CoinsViewCache;
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.CoinsUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return CoinsViewCache::ScriptHeapCharge(bytes); }
inline constexpr bool kBatchWriteMovesErasedCoins = true;
inline constexpr bool kWriteForwardsUnsetBestBlock = true;
inline constexpr bool kGetBestBlockMemoizes = true;
inline constexpr bool kAddSpentCoinThrows = false;
}  // namespace seam
#else
#include "src/coins/cache.h"
#include "src/coins/view.h"
namespace seam {
using embedded::CacheEntry;
using embedded::CoinsCachePair;
using embedded::CoinsCursor;
using embedded::CoinsView;
using embedded::CoinsViewCache;
inline size_t ModelledUsage(const CoinsViewCache& cache) { return cache.DynamicMemoryUsage(); }
inline size_t ScriptHeapCharge(size_t bytes) { return bytes; }
inline constexpr bool kBatchWriteMovesErasedCoins = false;
inline constexpr bool kWriteForwardsUnsetBestBlock = false;
inline constexpr bool kGetBestBlockMemoizes = false;
inline constexpr bool kAddSpentCoinThrows = true;
}  // namespace seam
#endif
