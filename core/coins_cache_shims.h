// The coins cache adapter's contacts with CCoinsViewCache's internals, one shim each: its internal form where
// the tree has the internal (and SUITE_CORE_PUBLIC_FORMS is off), and a fallback through the public API.
// core/coins_cache.h says what each form lets the harness see (kEntriesInternal, kDirtyListInternal,
// kUsageInternal, kDirtyCountVisible, kInsertInternal). Every shim is a template over the cache class, so a
// member the tree lacks is never named. Included only by core/*.cpp: it needs Core's headers.
#pragma once

#include "core/coins_cache.h"
#include "core/coins_cache_features.h"
#include "core/convert.h"
#include "harness/no_fuzz_coverage.h"

#include <coins.h>
#include <script/script.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace core_adapter::shims {
// Every shim reads or builds state for the checks: oracle code, out of the fuzzer's feedback. Core's functions
// they call out of line stay instrumented; its inline code read here (an entry's flags, the list's links)
// gives features where Core's own functions run it.
HARNESS_NO_FUZZ_COVERAGE_BEGIN

// A cache's protected state: a class derived from the cache's class may form pointers to its protected
// members, and a member pointer applies to every object of the class. Core declares these members mutable,
// which a member pointer does not carry: const is cast away, as Core's own const methods change them.
template <class C = ::CCoinsViewCache>
struct Open : C {
  static auto& Map(const C& c) { return const_cast<C&>(c).*(&Open::cacheCoins); }
  static auto& Sentinel(const C& c) { return const_cast<C&>(c).*(&Open::m_sentinel); }
  static auto& Usage(const C& c) { return const_cast<C&>(c).*(&Open::cachedCoinsUsage); }
  static auto& DirtyCount(const C& c) { return const_cast<C&>(c).*(&Open::m_dirty_count); }
};

// An entry's flags through its public readers (0 where the tree has none).
template <class Entry>
uint8_t Flags(const Entry& e) {
  if constexpr (SUITE_CORE_entry_flags) {
    return (e.IsDirty() ? CacheEntry::kDirty : 0) | (e.IsFresh() ? CacheEntry::kFresh : 0);
  } else {
    return 0;
  }
}

// ---- entries (cacheCoins) ----

// Into `out` (refilled in place) when the cache has a local entry for `outpoint`; false, `out` untouched, if not.
template <class C = ::CCoinsViewCache>
bool FindEntry(const C& cache, const COutPoint& outpoint, CacheEntry& out) {
  if constexpr (kEntriesInternal) {
    const auto& map = Open<C>::Map(cache);
    const auto it = map.find(outpoint);
    if (it == map.end()) return false;
    AssignFromCore(out.coin, it->second.coin);
    out.SetFlags(Flags(it->second));
    return true;
  } else if constexpr (SUITE_CORE_cache_have_coin_in_cache) {
    // An unspent local entry answers GetCoin without a fetch; a spent or absent one is not seen.
    if (!cache.HaveCoinInCache(outpoint)) return false;
    AssignFromCore(out.coin, *cache.GetCoin(outpoint));
    out.SetFlagsUnknown();
    return true;
  } else {
    throw Unavailable("CCoinsViewCache::HaveCoinInCache (to see a cache's entries without its internals)");
  }
}

// ---- the dirty list (m_sentinel) ----

// Into `out`, whose capacity is kept.
template <class C = ::CCoinsViewCache>
void DirtyOrder(const C& cache, std::vector<embedded::OutPoint>& out) {
  if constexpr (kDirtyListInternal) {
    out.clear();
    const auto& sentinel = Open<C>::Sentinel(cache);
    for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next())
      out.push_back(FromCore(p->first));
  } else {
    throw Unavailable("CCoinsViewCache's m_sentinel (the dirty list is seen only at writes: LastWrite)");
  }
}

// What a cursor yields, walked without consuming it (each entry's public Next()), before its receiver gets it.
// Not const: a tree's Begin() may not be.
template <class Cursor>
std::vector<WrittenEntry> Walk(Cursor& cursor) {
  std::vector<WrittenEntry> out;
  for (auto* p = cursor.Begin(); p != cursor.End(); p = p->second.Next()) {
    out.push_back({FromCore(p->first), FromCore(p->second.coin), Flags(p->second)});
  }
  return out;
}

// ---- the coins' memory (cachedCoinsUsage) ----

template <class C = ::CCoinsViewCache>
size_t CoinsUsage(const C& cache) {
  if constexpr (kUsageInternal) {
    return Open<C>::Usage(cache);
  } else {
    throw Unavailable("CCoinsViewCache's cachedCoinsUsage (memory is checked as a bound on DynamicMemoryUsage)");
  }
}

// ---- the dirty count ----

template <class C = ::CCoinsViewCache>
size_t DirtyCount(const C& cache) {
  if constexpr (kDirtyCountGetter) {
    return cache.GetDirtyCount();
  } else if constexpr (kDirtyCountMember) {
    return Open<C>::DirtyCount(cache);
  } else if constexpr (kDirtyListInternal) {
    const auto& sentinel = Open<C>::Sentinel(cache);
    size_t n = 0;
    for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next()) ++n;
    return n;
  } else {
    throw Unavailable("a dirty count (GetDirtyCount, m_dirty_count or m_sentinel; seen only at writes)");
  }
}

// ---- exact states (the entry flag setters, with the map and counters) ----

// A coin any script check takes as spendable, for the public form's spent entries: added, then spent.
inline ::Coin PlaceholderCoin() { return ::Coin(CTxOut(1, CScript() << OP_TRUE), 1, /*fCoinBaseIn=*/false); }

template <class C = ::CCoinsViewCache>
void InsertEntry(C& cache, const COutPoint& key, ::Coin coin, uint8_t flags) {
  const bool dirty = flags & CacheEntry::kDirty;
  const bool fresh = flags & CacheEntry::kFresh;
  if constexpr (kInsertInternal) {
    auto& map = Open<C>::Map(cache);
    auto [it, inserted] = map.try_emplace(key, std::move(coin));
    Open<C>::Usage(cache) += it->second.coin.DynamicMemoryUsage();
    using Entry = std::remove_cvref_t<decltype(it->second)>;
    if (dirty) {
      if constexpr (SUITE_CORE_fresh_through_set_dirty) {
        Entry::SetDirty(*it, Open<C>::Sentinel(cache), fresh);
      } else {
        Entry::SetDirty(*it, Open<C>::Sentinel(cache));
        if (fresh) Entry::SetFresh(*it, Open<C>::Sentinel(cache));
      }
      if constexpr (kDirtyCountMember) ++Open<C>::DirtyCount(cache);
    }
  } else if (coin.IsSpent()) {
    // Spending a non-FRESH entry leaves it spent and DIRTY; spending a FRESH one erases it.
    if (fresh) throw Unbuildable("a spent FRESH entry: no operation leaves one");
    cache.AddCoin(key, PlaceholderCoin(), /*possible_overwrite=*/true);
    if (!cache.SpendCoin(key)) throw std::logic_error("Core's SpendCoin of the coin just added returned false");
  } else if (coin.out.scriptPubKey.IsUnspendable()) {
    throw Unbuildable("an entry with an unspendable script: AddCoin ignores it");
  } else if (!dirty) {
    const std::optional<::Coin> parents = cache.GetCoin(key);  // fetched: a clean entry
    if (!parents || !(FromCore(*parents) == FromCore(coin)))
      throw Unbuildable("a clean entry whose coin the parent does not hold");
  } else {
    // possible_overwrite = false on an absent entry makes it DIRTY and FRESH; true, DIRTY only.
    cache.AddCoin(key, std::move(coin), /*possible_overwrite=*/!fresh);
  }
}

// ---- the structure the adapter checks before Core's own SanityCheck ----

// The first violation the internal forms can see (the flag states, usage against a recount, the list's
// links and length, the dirty counter), or an empty string. Nothing where the tree lacks the internals.
template <class C = ::CCoinsViewCache>
std::string StructureError(const C& cache) {
  std::string error;
  if constexpr (SUITE_CORE_cache_map && SUITE_CORE_entry_flags) {
    const auto& map = Open<C>::Map(cache);
    size_t usage = 0, flagged = 0;
    for (const auto& [outpoint, e] : map) {
      // Named only in a message: an outpoint's text costs more than the rest of the walk.
      const auto at = [&outpoint] { return FromCore(outpoint).ToString(); };
      const bool spent = e.coin.IsSpent();
      // Core's states: unspent clean, DIRTY or DIRTY+FRESH; spent DIRTY; spent FRESH (not DIRTY) before
      // #33512, which no parent in this suite can make (it would hand up a spent coin); spent DIRTY+FRESH
      // where the tree keeps a spent FRESH entry (behaviour fresh).
      if (e.IsFresh() && !e.IsDirty() && !spent) return "unspent FRESH entry without DIRTY at " + at();
      if (spent && !e.IsDirty() && !e.IsFresh()) return "spent clean entry at " + at();
      if (spent && e.IsDirty() && e.IsFresh() && !Fresh().kept_fresh) return "spent DIRTY+FRESH entry at " + at();
      usage += e.coin.DynamicMemoryUsage();
      if (e.IsDirty() || e.IsFresh()) ++flagged;
    }
    if constexpr (kUsageInternal) {
      if (usage != CoinsUsage(cache)) {
        return "tracked usage " + std::to_string(CoinsUsage(cache)) + " != recomputed " + std::to_string(usage);
      }
    }
    if constexpr (kDirtyListInternal) {
      const auto& sentinel = Open<C>::Sentinel(cache);
      size_t length = 0;
      for (const auto* p = &sentinel;;) {
        const auto* next = p->second.Next();
        if (next == nullptr || next->second.Prev() != p) return "list links differ between directions";
        if (next == &sentinel) break;
        if (!next->second.IsDirty() && !next->second.IsFresh()) {
          return "unflagged entry in the list at " + FromCore(next->first).ToString();
        }
        if (++length > map.size()) return "flagged list longer than the cache (a cycle?)";
        p = next;
      }
      if (length != flagged) {
        return "list length " + std::to_string(length) + " != flagged entries " + std::to_string(flagged);
      }
    }
    if constexpr (kDirtyCountIsCounted) {
      if (DirtyCount(cache) != flagged) {
        return "dirty count " + std::to_string(DirtyCount(cache)) + " != flagged entries " + std::to_string(flagged);
      }
    }
  }
  return error;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace core_adapter::shims
