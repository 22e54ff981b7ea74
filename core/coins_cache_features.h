// The coins cache's questions to a Bitcoin Core tree (rows as core/features.h describes them): CCoinsViewCache,
// its cursor and entries, CCoinsViewErrorCatcher and CoinsViewOverlay (coins.h).
#pragma once

#include "core/coins_view_members.h"
#include "core/features.h"

#if __has_include(<util/threadpool.h>)
#include <util/threadpool.h>
#endif

namespace core_features {

template <class C, class R, class Cursor = CoinsViewCacheCursor, class Hash = uint256>
concept WritesReturn = requires(C& c, Cursor& cursor, const Hash& h) {
  { c.Flush() } -> std::same_as<R>;
  { c.Sync() } -> std::same_as<R>;
  { c.BatchWrite(cursor, h) } -> std::same_as<R>;
};

template <class Overlay, class Pool, class View = CCoinsView, class Block = CBlock>
concept OverlayApi =
    Complete<Overlay> && Complete<Pool> &&
    requires(Overlay& o, const Overlay& co, View* base, std::shared_ptr<Pool> pool, const Block& block, Pool& p) {
      Overlay(base, pool, /*deterministic=*/true);
      o.StartFetching(block);
      { co.AllInputsConsumed() } -> std::same_as<bool>;
      p.Start(1);
      p.WorkersCount();
    };

// The dirty counter (#33512): its getter, its member (asked by three rows).
inline constexpr bool kHasDirtyCountGetter =
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), { c.GetDirtyCount() } -> std::convertible_to<size_t>);
inline constexpr bool kHasDirtyCountMember =
    SUITE_CORE_HAS_PROTECTED(CCoinsViewCache, { O::m_dirty_count } -> std::convertible_to<size_t>);

// A view of the suite's own over `Base` (as core/coins_views.h builds one: the same layers), with members that
// are declared only: whether it is abstract is what rows own_views (over the tree's backed view, where it
// stands in) and view_members_known (over CCoinsView itself) ask.
template <class View, class Base = core_adapter::members::ViewBase<View>>
struct OwnView : core_adapter::members::OverView<OwnView<View, Base>, Base> {
  OwnView() : core_adapter::members::OverView<OwnView<View, Base>, Base>(nullptr) {}
  struct Any {
    template <class T>
    operator T() const;
  };
#define SUITE_CORE_PROBE_DO(Name) \
  template <class... A>           \
  Any Do##Name(A&&...) const;
  SUITE_CORE_COINS_VIEW_MEMBERS(SUITE_CORE_PROBE_DO)
#undef SUITE_CORE_PROBE_DO
};
template <class View = CCoinsView, bool kOnView = false>
inline constexpr bool kOwnViewComplete = [] {
  if constexpr (!Complete<View>) {
    return false;
  } else if constexpr (kOnView) {
    return !std::is_abstract_v<OwnView<View, View>>;
  } else {
    return !std::is_abstract_v<OwnView<View>>;
  }
}();

// An entry's flag setters: SetDirty and SetFresh, or (#34864) freshness passed through SetDirty.
inline constexpr bool kHasFlagSetters =
    SUITE_CORE_HAS(CCoinsCacheEntry, (std::pair<const COutPoint, C> & p), C::SetDirty(p, p); C::SetFresh(p, p));
inline constexpr bool kHasFreshThroughSetDirty =
    SUITE_CORE_HAS(CCoinsCacheEntry, (std::pair<const COutPoint, C> & p), C::SetDirty(p, p, true));

// The pair a cache's map holds (Core's CoinsCachePair), spelled from the classes so that no alias is named.
template <class Outpoint = COutPoint, class Entry = CCoinsCacheEntry>
using CachePair = std::pair<const Outpoint, Entry>;

}  // namespace core_features

// clang-format off
#define SUITE_CORE_COINS_CACHE_FEATURES(X)                                                                         \
  X(cache_constructor, central, "", "CCoinsViewCache(CCoinsView* base, bool deterministic)", "",                  \
    SUITE_CORE_HAS(CCoinsViewCache, (CCoinsView* base), C(base, true)))                                          \
  X(cache_get_coin, central, "", "std::optional<Coin> CCoinsViewCache::GetCoin(const COutPoint&) const", "",     \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                                            \
                   { c.GetCoin(o) } -> std::same_as<std::optional<Coin>>))                                       \
  X(cache_add_coin, central, "", "CCoinsViewCache::AddCoin(const COutPoint&, Coin&&, bool possible_overwrite)",  \
    "", SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o, Coin coin), c.AddCoin(o, std::move(coin), true))) \
  X(cache_spend_coin, central, "", "bool CCoinsViewCache::SpendCoin(const COutPoint&, Coin* moveto)", "",        \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o, Coin* out), { c.SpendCoin(o, out) }              \
                                                                             -> std::same_as<bool>))             \
  X(cache_best_block, central, "", "CCoinsViewCache::SetBestBlock(const uint256&) and GetBestBlock()", "",       \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const uint256& h), c.SetBestBlock(h);                                \
                   { c.GetBestBlock() } -> std::same_as<uint256>))                                               \
  X(batch_write, central, "", "CCoinsViewCache::BatchWrite, Flush and Sync returning bool (before #33866) or "   \
    "void (#33866)", "", (WritesReturn<CCoinsViewCache, bool> || WritesReturn<CCoinsViewCache, void>))           \
  X(cache_cursor, central, "", "CoinsViewCacheCursor: Begin(), End(), NextAndMaybeErase(pair), and "            \
    "CCoinsCacheEntry::coin", "",                                                                                \
    SUITE_CORE_HAS(CoinsViewCacheCursor, (C& cursor, CachePair<>& p), { cursor.Begin() } -> std::same_as<CachePair<>*>; \
                   { cursor.End() } -> std::same_as<CachePair<>*>;                                               \
                   { cursor.NextAndMaybeErase(p) } -> std::same_as<CachePair<>*>; p.second.coin.IsSpent()))     \
  X(cache_have_coin, api, "", "bool CCoinsViewCache::HaveCoin(const COutPoint&) const", "op:Have op:Connect",    \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o), { c.HaveCoin(o) } -> std::same_as<bool>))  \
  X(cache_have_coin_in_cache, api, "", "bool CCoinsViewCache::HaveCoinInCache(const COutPoint&) const",          \
    "op:HaveInCache", SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                          \
                                     { c.HaveCoinInCache(o) } -> std::same_as<bool>))                            \
  X(cache_access_coin, api, "", "const Coin& CCoinsViewCache::AccessCoin(const COutPoint&) const",               \
    "op:Access op:Connect", SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                    \
                                           { c.AccessCoin(o) } -> std::same_as<const Coin&>))                    \
  X(cache_uncache, api, "", "CCoinsViewCache::Uncache(const COutPoint&)", "op:Uncache",                          \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o), c.Uncache(o)))                                   \
  X(cache_sizes, api, "", "CCoinsViewCache::GetCacheSize() and DynamicMemoryUsage()",                            \
    "check:cache-size check:memory-usage",                                                                       \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), c.GetCacheSize(); { c.DynamicMemoryUsage() } -> std::convertible_to<size_t>)) \
  X(cache_sanity_check, api, "", "CCoinsViewCache::SanityCheck() const", "check:Core-SanityCheck",               \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), c.SanityCheck()))                                              \
  X(cache_emplace, api, "", "CCoinsViewCache::EmplaceCoinInternalDANGER(COutPoint&& or const COutPoint&, Coin&&)", \
    "op:Emplace", SUITE_CORE_HAS(CCoinsViewCache, (C& c, Coin coin), c.EmplaceCoinInternalDANGER(COutPoint{}, std::move(coin)))) \
  X(cache_have_inputs, api, "", "bool CCoinsViewCache::HaveInputs(const CTransaction&) const", "op:HaveInputs",  \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const CTransaction& tx), { c.HaveInputs(tx) } -> std::same_as<bool>)) \
  X(cache_backed_store_reads, api, "", "CCoinsViewCache::GetHeadBlocks() and EstimateSize() (CCoinsViewBacked)", \
    "check:head-blocks-and-size-through-caches",                                                                 \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), { c.GetHeadBlocks() } -> std::same_as<std::vector<uint256>>;   \
                   { c.EstimateSize() } -> std::convertible_to<size_t>))                                          \
  X(add_coins, api, "", "void AddCoins(CCoinsViewCache&, const CTransaction&, int height, bool check)",          \
    "op:AddCoins", SUITE_CORE_HAS(CCoinsViewCache, (C& c, const CTransaction& tx), AddCoins(c, tx, 0, true)))    \
  X(access_by_txid, api, "", "const Coin& AccessByTxid(const CCoinsViewCache&, const Txid&)", "op:AccessByTxid", \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                                            \
                   { AccessByTxid(c, o.hash) } -> std::same_as<const Coin&>))                                    \
  X(error_catcher, api, "", "CCoinsViewErrorCatcher(CCoinsView*) with AddReadErrCallback, GetCoin and HaveCoin", \
    "op:FailRead check:the-error-catcher-level",                                                                 \
    SUITE_CORE_HAS(CCoinsViewErrorCatcher, (C& c, CCoinsView* base, const COutPoint& o),                         \
                   C(base); c.AddReadErrCallback([] {}); c.GetCoin(o); c.HaveCoin(o)))                           \
  X(entry_flags, api, "", "CCoinsCacheEntry::IsDirty() and IsFresh()", "check:entry-flags",                      \
    SUITE_CORE_HAS(CCoinsCacheEntry, (const C& e), { e.IsDirty() } -> std::same_as<bool>;                        \
                   { e.IsFresh() } -> std::same_as<bool>))                                                       \
  X(dirty_count_getter, api, "#33512", "size_t CCoinsViewCache::GetDirtyCount() const (where the cache keeps a "   \
    "dirty counter)", "form:dirty-count-read-from-m_dirty_count",                                                \
    (kHasDirtyCountGetter || !kHasDirtyCountMember))                                   \
  X(cache_map, internal, "", "CCoinsViewCache's protected cacheCoins (the entries)",                             \
    "form:entries-seen-through-HaveCoinInCache-and-AccessCoin",                                                  \
    SUITE_CORE_HAS_PROTECTED(CCoinsViewCache, &O::cacheCoins; O::cacheCoins.find(std::declval<const COutPoint&>()))) \
  X(cache_sentinel, internal, "", "CCoinsViewCache's protected m_sentinel and CCoinsCacheEntry::Next, Prev "     \
    "(the dirty list)", "form:dirty-order-and-flags-seen-at-each-write",                                         \
    SUITE_CORE_HAS_PROTECTED(CCoinsViewCache, &O::m_sentinel; O::m_sentinel.second.Next(); O::m_sentinel.second.Prev())) \
  X(cache_usage, internal, "", "CCoinsViewCache's protected cachedCoinsUsage (the coins' memory)",               \
    "form:memory-usage-bounded-by-DynamicMemoryUsage",                                                           \
    SUITE_CORE_HAS_PROTECTED(CCoinsViewCache, { O::cachedCoinsUsage } -> std::convertible_to<size_t>))           \
  X(dirty_count_member, internal, "#33512", "CCoinsViewCache's protected m_dirty_count (where the cache keeps a " \
    "dirty counter)", "form:dirty-count-counted-on-the-dirty-list",                                              \
    (kHasDirtyCountMember || !kHasDirtyCountGetter))                                   \
  X(entry_flag_setters, internal, "", "CCoinsCacheEntry::SetDirty(pair, sentinel) and SetFresh(pair, sentinel), " \
    "or SetDirty(pair, sentinel, fresh)", "form:exact-states-built-by-operations",                               \
    (kHasFlagSetters || kHasFreshThroughSetDirty))                                                               \
  X(dirty_count, change, "#33512", "a counter of DIRTY entries (m_dirty_count, GetDirtyCount), checked by "     \
    "SanityCheck", "", (kHasDirtyCountGetter || kHasDirtyCountMember))                  \
  X(fresh_through_set_dirty, change, "#34864", "freshness passed through CCoinsCacheEntry::SetDirty(pair, "    \
    "sentinel, fresh), no SetFresh: an entry is FRESH only when it is DIRTY", "",                                \
    (kHasFreshThroughSetDirty && !kHasFlagSetters))                                                              \
  X(void_batch_write, change, "#33866", "BatchWrite, Flush and Sync return void: a refused batch is an exception", \
    "", (WritesReturn<CCoinsViewCache, void>))                                                                   \
  X(abstract_coins_view, change, "#34124", "CCoinsView is pure virtual, CoinsViewEmpty is the empty view", "",   \
    (std::is_abstract_v<CCoinsView> && SUITE_CORE_HAS(CoinsViewEmpty, (), { C::Get() } -> std::convertible_to<CCoinsView&>))) \
  X(peek_coin, change, "#34165", "CCoinsView::PeekCoin: a lookup that caches nothing at any level", "",          \
    SUITE_CORE_HAS(CCoinsView, (const C& v, const COutPoint& o), { v.PeekCoin(o) } -> std::same_as<std::optional<Coin>>)) \
  X(flush_keeping_memory, change, "#33602", "CCoinsViewCache::Flush(bool reallocate_cache): a flush may keep the " \
    "map's memory for the next block (before: every flush reallocates)", "",                                      \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c), c.Flush(false)))                                                      \
  X(reset_guard, change, "#34164", "CCoinsViewCache::Reset through CreateResetGuard: one view reused per block", \
    "", SUITE_CORE_HAS(CCoinsViewCache, (C& c), c.CreateResetGuard()))                                           \
  X(own_views, central, "", "a CCoinsView of the suite's own (the bridge to the harness's base view, the recorder "  \
    "of writes): every pure virtual member of the tree's CCoinsView one it implements (GetCoin, PeekCoin, "      \
    "HaveCoin, GetBestBlock, GetHeadBlocks, BatchWrite, Cursor, EstimateSize: core/coins_view_members.h) or "   \
    "the tree's CCoinsViewBacked answers", "", (kOwnViewComplete<>))                                            \
  X(view_members_known, api, "", "every pure virtual member of the tree's CCoinsView one the suite's views "     \
    "implement", "form:the-others-answered-by-CCoinsViewBacked-over-the-view-below", (kOwnViewComplete<CCoinsView, true>)) \
  X(have_coin_on_cache_only, change, "a 2026 branch", "HaveCoin is declared by CCoinsViewCache, not by "         \
    "CCoinsView: a view's HaveCoin is whether its GetCoin finds a coin", "",                                     \
    (Complete<CCoinsView> && !SUITE_CORE_HAS(CCoinsView, (const C& v, const COutPoint& o), v.HaveCoin(o))))      \
  X(noexcept_lookups, change, "a 2026 branch", "CCoinsView's GetCoin and PeekCoin are noexcept: a failed read "  \
    "cannot be caught and ends the process", "",                                                                 \
    SUITE_CORE_HAS(CCoinsView, (const C& v, const COutPoint& o), { v.GetCoin(o) } noexcept; { v.PeekCoin(o) } noexcept)) \
  X(db_only_cursor, change, "#35572", "Cursor() is declared by CCoinsViewDB, not by CCoinsView", "",            \
    (Complete<CCoinsView> && !SUITE_CORE_HAS(CCoinsView, (const C& v), v.Cursor())))                             \
  X(coins_view_overlay, change, "#34165 #35295", "CoinsViewOverlay: StartFetching a block's prevouts on a "      \
    "ThreadPool", "", (OverlayApi<CoinsViewOverlay, ThreadPool>))                                                 \
  /* new rows go above this line */
// clang-format on

namespace core_features {
SUITE_CORE_COINS_CACHE_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
