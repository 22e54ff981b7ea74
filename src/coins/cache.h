// CoinsViewCache: a cache of coins over a parent view, with an intrusive list of its DIRTY entries so that
// a non-wiping Sync costs time proportional to the number of DIRTY entries, not the cache size.
// Semantics: docs/semantics.md §1.
//
// Errors: misuse (overwriting an unspent coin without possible_overwrite, a FRESH entry arriving over an
// unspent parent coin, adding a spent coin) throws std::logic_error before the affected entry or the
// accounting changes.
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

#include "tx/transaction.h"
#include "view.h"

namespace embedded {

class CoinsViewCache : public CoinsView {
 public:
  // Per-entry bookkeeping charged on top of the coin's heap bytes: the hash map node (key, entry, next
  // pointer, cached hash) rounded up to the 16-byte granularity of glibc's malloc.
  static constexpr size_t kEntryOverhead = (sizeof(CoinsCachePair) + 2 * sizeof(void*) + 15) / 16 * 16;

  // `parent` must outlive the cache. (A pointer, so that a cache over a cache is not taken for a copy.)
  explicit CoinsViewCache(CoinsView* parent);
  CoinsViewCache(const CoinsViewCache&) = delete;
  CoinsViewCache& operator=(const CoinsViewCache&) = delete;
  ~CoinsViewCache() override;

  std::optional<Coin> GetCoin(const OutPoint& outpoint) override;
  std::optional<Coin> PeekCoin(const OutPoint& outpoint) const override;
  bool HaveCoin(const OutPoint& outpoint) override;
  // The local best block if one was set or received, else the parent's.
  Hash256 GetBestBlock() const override;
  void SetBestBlock(const Hash256& best_block) { best_block_ = best_block; }
  void BatchWrite(CoinsCursor& cursor, const Hash256& best_block) override;
  std::vector<Hash256> GetHeadBlocks() const override { return parent_.GetHeadBlocks(); }
  size_t EstimateSize() const override { return parent_.EstimateSize(); }

  // The coin at `outpoint` after fetching; a spent coin when there is none. Valid until the next change.
  const Coin& AccessCoin(const OutPoint& outpoint);
  // Local only: an unspent entry in this cache.
  bool HaveCoinInCache(const OutPoint& outpoint) const;
  // Adds an unspent coin as DIRTY (and FRESH when !possible_overwrite and the entry was not DIRTY) without
  // consulting the parent. Unspendable scripts are ignored. Throws if !possible_overwrite and an unspent
  // entry exists, or if `coin` is spent.
  void AddCoin(const OutPoint& outpoint, Coin coin, bool possible_overwrite);
  // False if no coin (spent or unspent) is found. A FRESH entry is erased, any other becomes spent and
  // DIRTY. `moveout`, if given, receives the coin as it was.
  bool SpendCoin(const OutPoint& outpoint, Coin* moveout = nullptr);
  // Erases the entry if it is present and not DIRTY.
  void Uncache(const OutPoint& outpoint);
  // For a bulk load (a UTXO snapshot) whose coins the parent does not hold: inserts `coin` as DIRTY (never
  // FRESH) without asking the parent and without any check, if the cache has no entry for `outpoint`;
  // otherwise changes nothing (`coin` is then left as it was).
  void EmplaceCoinInternalDANGER(const OutPoint& outpoint, Coin&& coin);
  // Whether every input of `tx` spends an unspent coin; true for a coinbase. Fetches the inputs' coins in
  // order and stops at the first that is missing.
  bool HaveInputs(const Transaction& tx);

  // Writes every DIRTY entry to the parent, then empties this cache (usage returns to 0). `reallocate_cache`
  // false asks to keep the map's memory for a cache about to be refilled (a block's view); usage counts only
  // the coins, so it is 0 either way.
  virtual void Flush(bool reallocate_cache = true);
  // Writes every DIRTY entry to the parent; spent entries are erased and unspent ones stay, clean.
  virtual void Sync();
  // Discards everything without writing: no entries, usage 0, no best block of its own.
  virtual void Reset();

  size_t GetCacheSize() const { return map_.size(); }
  size_t DynamicMemoryUsage() const { return usage_; }
  size_t GetDirtyCount() const { return dirty_count_; }

  // Local entry without fetching, for tests: nullptr if absent.
  const CacheEntry* FindEntry(const OutPoint& outpoint) const;
  // The DIRTY entries' outpoints in list order (first-dirtied first). Valid until the next call or the
  // cache's destruction: the buffer is reused, as the testers ask at every step.
  const std::vector<OutPoint>& DirtyOrder() const;
  // Throws std::logic_error naming the first violation: an illegal flag state, tracked usage different
  // from a recomputation, broken links in either direction, or list length / dirty count / number of DIRTY
  // entries not all equal.
  void SanityCheck() const;

 protected:
  // For tests that need an exact state: inserts an absent entry with `coin` and `flags` (DIRTY, and
  // FRESH only with DIRTY), keeping the accounting and the dirty list.
  void InsertEntry(const OutPoint& outpoint, Coin coin, uint8_t flags);
  // A cache miss asks this for the parent's unspent coin: the parent's GetCoin.
  virtual std::optional<Coin> FetchFromParent(const OutPoint& outpoint) { return parent_.GetCoin(outpoint); }
  CoinsView& parent() const { return parent_; }

 private:
  friend class CoinsCursor;
  using Map = std::unordered_map<OutPoint, CacheEntry, OutPointHasher>;

  static size_t EntryUsage(const CacheEntry& e) { return kEntryOverhead + e.coin.DynamicMemoryUsage(); }
  // Local hit, else the parent's unspent coin inserted clean; end() when neither.
  Map::iterator FetchCoin(const OutPoint& outpoint);
  void MarkDirty(CoinsCachePair& pair);
  void MarkClean(CacheEntry& e);
  void Erase(Map::iterator it);
  void WriteToParent(bool wipe);

  CoinsView& parent_;
  std::optional<Hash256> best_block_;
  // Declared before map_ so that it outlives the entries, which unlink from it as they are destroyed.
  CoinsCachePair sentinel_;
  Map map_;
  size_t usage_ = 0;
  size_t dirty_count_ = 0;
  mutable std::vector<OutPoint> dirty_order_;  // DirtyOrder's answer
};

}  // namespace embedded
