// The view interface (a base store or a cache), cache entries with their DIRTY/FRESH flags and dirty-list
// links, and the cursor through which a cache hands its DIRTY entries to its parent.
// Semantics: docs/semantics.md §1.
#pragma once

#include <cstdint>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "coin.h"
#include "outpoint.h"

namespace embedded {

class CacheEntry;
using CoinsCachePair = std::pair<const OutPoint, CacheEntry>;

// One cache slot. Flags: DIRTY (may differ from the parent) and FRESH (the parent has no unspent version;
// implies DIRTY). A DIRTY entry is linked into its cache's circular dirty list through the cache's
// sentinel; flags are only ever added, except that cleaning removes both. The entry must not move while
// linked (std::unordered_map nodes do not), so it cannot be copied or moved.
class CacheEntry {
 public:
  static constexpr uint8_t kDirty = 1;
  static constexpr uint8_t kFresh = 2;

  Coin coin;

  CacheEntry() = default;
  explicit CacheEntry(Coin c) : coin(std::move(c)) {}
  CacheEntry(const CacheEntry&) = delete;
  CacheEntry& operator=(const CacheEntry&) = delete;
  // Destroying a linked entry unlinks it.
  ~CacheEntry() { Unlink(); }

  bool IsDirty() const { return flags_ & kDirty; }
  bool IsFresh() const { return flags_ & kFresh; }
  uint8_t flags() const { return flags_; }

  // Adds DIRTY; an entry that was not yet DIRTY is appended at the tail of the list before `sentinel`.
  // Requires: `self` is the pair holding this entry.
  static void SetDirty(CoinsCachePair& self, CoinsCachePair& sentinel);
  // Adds FRESH. Requires: DIRTY.
  void SetFresh() { flags_ |= kFresh; }
  // Removes both flags and unlinks.
  void SetClean() {
    Unlink();
    flags_ = 0;
  }

  // The neighbours in the dirty list (the sentinel's are the tail and the head).
  CoinsCachePair* Next() const { return next_; }
  CoinsCachePair* Prev() const { return prev_; }
  // Makes `self` an empty circular list: the cache's sentinel.
  static void MakeSentinel(CoinsCachePair& self);

 private:
  void Unlink() {
    if (next_ == nullptr) return;
    next_->second.prev_ = prev_;
    prev_->second.next_ = next_;
    next_ = prev_ = nullptr;
  }

  CoinsCachePair* prev_ = nullptr;
  CoinsCachePair* next_ = nullptr;
  uint8_t flags_ = 0;
};

inline void CacheEntry::SetDirty(CoinsCachePair& self, CoinsCachePair& sentinel) {
  CacheEntry& e = self.second;
  if (!e.IsDirty()) {
    CoinsCachePair* tail = sentinel.second.prev_;
    e.prev_ = tail;
    e.next_ = &sentinel;
    tail->second.next_ = &self;
    sentinel.second.prev_ = &self;
  }
  e.flags_ |= kDirty;
}

inline void CacheEntry::MakeSentinel(CoinsCachePair& self) {
  self.second.next_ = &self;
  self.second.prev_ = &self;
}

class CoinsViewCache;

// Walks a cache's DIRTY entries in dirty-list order for a parent's BatchWrite. The receiver must call
// Next() for every entry it is given, after it has finished reading that entry. In sync mode Next() erases
// a spent entry from its cache and cleans an unspent one; in flush mode the cache empties itself after the
// batch, so Next() only advances.
class CoinsCursor {
 public:
  CoinsCursor(CoinsViewCache& owner, CoinsCachePair& sentinel, bool wipe)
      : owner_(owner), sentinel_(sentinel), wipe_(wipe) {}
  CoinsCachePair* Begin() const { return sentinel_.second.Next(); }
  CoinsCachePair* End() const { return &sentinel_; }
  CoinsCachePair* Next(CoinsCachePair& current);

 private:
  CoinsViewCache& owner_;
  CoinsCachePair& sentinel_;
  bool wipe_;
};

// A layer of the UTXO set: the store at the bottom, caches above it.
class CoinsView {
 public:
  virtual ~CoinsView() = default;
  // The unspent coin at `outpoint`, fetching (and caching) it from below if needed; nullopt if none.
  virtual std::optional<Coin> GetCoin(const OutPoint& outpoint) = 0;
  // As GetCoin, but no layer caches anything.
  virtual std::optional<Coin> PeekCoin(const OutPoint& outpoint) const = 0;
  virtual bool HaveCoin(const OutPoint& outpoint) { return GetCoin(outpoint).has_value(); }
  virtual Hash256 GetBestBlock() const = 0;
  // Applies every entry the cursor yields (calling cursor.Next for each), then records `best_block`.
  virtual void BatchWrite(CoinsCursor& cursor, const Hash256& best_block) = 0;
  // [new tip, old tip] while a flush of the store at the bottom is in progress (or was cut), else empty.
  // Views above the store answer with the store's.
  virtual std::vector<Hash256> GetHeadBlocks() const { return {}; }
  // An estimate of the bytes the store's coins take on disk (0 where nothing is stored). Views above the
  // store answer with the store's.
  virtual size_t EstimateSize() const { return 0; }
};

}  // namespace embedded
