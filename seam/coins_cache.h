// Seam: the coins cache with its intrusive list of flagged entries (Bitcoin Core's CCoinsViewCache,
// coins.h).
//
// Contract (docs/semantics.md, "Coins cache"): the interface of src/coins/view.h and src/coins/cache.h —
// CoinsView (the parent interface: GetCoin, HaveCoin, GetBestBlock, BatchWrite with a CoinsCursor over
// flagged entries), CacheEntry (coin + DIRTY/FRESH flags), CoinsViewCache (AddCoin, SpendCoin, AccessCoin,
// FetchCoin, HaveCoinInCache, Uncache, Flush, Sync, SanityCheck, DynamicMemoryUsage, GetCacheSize, DirtyOrder).
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/coins_cache.h"
namespace seam {
using core_adapter::CacheEntry;
using core_adapter::CoinsCachePair;
using core_adapter::CoinsCursor;
using core_adapter::CoinsView;
using core_adapter::CoinsViewCache;
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
}  // namespace seam
#endif
