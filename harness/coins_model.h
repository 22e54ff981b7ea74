// The reference for the coins cache: a stack of levels, each a map outpoint → {absent | spent | unspent
// coin} with the DIRTY/FRESH bits docs/semantics.md §1 defines, written as plainly as possible — no linked list, no
// incremental usage — plus the order in which entries first became DIRTY. Outpoints are keys into the
// tester's table (0..kKeys-1), so a level is a flat array rather than a tree of 32-byte txids. Lookups fall
// through the levels to the base; flush copies DIRTY entries down and empties the level; sync does the
// same and keeps the unspent entries, clean.
//
// CheckedBaseView is the real CoinsView at the bottom of the subject's stack: a map of unspent coins that
// checks every batch it receives (only DIRTY entries, never a FRESH one for a coin it has) and records the
// order in which the entries arrived.
#pragma once

#include <array>
#include <map>
#include <unordered_map>
#include <optional>
#include <vector>

#include "seam/coins_cache.h"

namespace harness {

// What the testers' last read-error callback throws out of a CoinsViewErrorCatcher, which would abort the
// process after its callbacks: the read that failed ends there, and so does the input.
struct ReadErrorSeen {};

class CheckedBaseView : public seam::CoinsView {
 public:
  explicit CheckedBaseView(const Hash256& best_block) : best_(best_block) {}
  std::optional<Coin> GetCoin(const OutPoint& outpoint) override { return PeekCoin(outpoint); }
  // Throws std::runtime_error (a failed read of the store) for the outpoint given to FailReadsOf.
  std::optional<Coin> PeekCoin(const OutPoint& outpoint) const override;
  Hash256 GetBestBlock() const override { return best_; }
  void BatchWrite(seam::CoinsCursor& cursor, const Hash256& best_block) override;

  const std::unordered_map<OutPoint, Coin, OutPointHasher>& coins() const { return coins_; }
  // Outpoints of the last batch, in the order the cursor yielded them.
  const std::vector<OutPoint>& last_batch() const { return last_batch_; }
  size_t batches() const { return batches_; }
  // A coin the base holds from the start, as a chainstate database does: no cache wrote it.
  void Put(const OutPoint& outpoint, const Coin& coin) { coins_[outpoint] = coin; }
  // Reads of `outpoint` fail from now on (nullopt: none do).
  void FailReadsOf(std::optional<OutPoint> outpoint) { failing_ = std::move(outpoint); }

 private:
  std::unordered_map<OutPoint, Coin, OutPointHasher> coins_;
  std::optional<OutPoint> failing_;
  Hash256 best_;
  std::vector<OutPoint> last_batch_;
  size_t batches_ = 0;
};

struct ModelEntry {
  std::optional<Coin> coin;  // nullopt: spent
  bool dirty = false;
  bool fresh = false;
  // Heap bytes of the subject's script for this entry, predicted from how the cache stores coins (see
  // CoinsStackModel::Usage): 0 while the script is inline.
  size_t heap = 0;
};

class CoinsStackModel {
 public:
  using Key = uint8_t;  // an outpoint's index in the tester's table
  static constexpr size_t kKeys = 64;

  // Levels are large (an entry slot per key): room for a tester's deepest stack is made once.
  static constexpr int kLevelsReserved = 5;
  explicit CoinsStackModel(const Hash256& base_best)
      : base_best_(base_best), spend_of_spent_fails_(seam::SpendOfSpentFails()), fresh_(seam::Fresh()) {
    levels_.reserve(kLevelsReserved);
  }

  int levels() const { return static_cast<int>(levels_.size()); }
  // A new top level. `peeks`: its fetches read the level below without caching anything there (the
  // overlay), instead of fetching through it.
  void Push(bool peeks = false) { levels_.emplace_back().peeks = peeks; }
  void Pop() { levels_.pop_back(); }
  // Empties `level` without writing anything down; it has no best block of its own afterwards.
  void Reset(int level);
  // The Core change rows ("+"-joined, for harness/observe.h) on whose form `level`'s total memory figure
  // (DynamicMemoryUsage) depends, or nullptr while it is a new cache's: since the level was pushed or last
  // flushed reallocating, a Reset (reset_guard: Core's keeps the map's memory, before it a new cache
  // replaced the old one) or a flush that kept the memory (flush_keeping_memory: before it every flush
  // reallocates).
  const char* MemoryChange(int level) const;
  // A flush of `level` that asked to keep the map's memory (Flush(reallocate_cache = false)) or not.
  void FlushedMemory(int level, bool kept);

  // Reads at `level` (0 = lowest cache; -1 = the base) without caching anything.
  std::optional<Coin> Peek(int level, Key k) const;
  // The entry at `level` after a fetch: a hit, or the parent's unspent coin inserted clean; else nullptr.
  const ModelEntry* Fetch(int level, Key k);
  std::optional<Coin> Get(int level, Key k);
  // Whether AddCoin must throw: a spendable coin over an unspent entry without possible_overwrite.
  bool AddThrows(int level, Key k, const Coin& coin, bool possible_overwrite) const;
  void Add(int level, Key k, const Coin& coin, bool possible_overwrite);
  // EmplaceCoinInternalDANGER: a new DIRTY (never FRESH) entry with `coin` if `level` has none for `k`,
  // whatever the levels below hold; else nothing.
  void Emplace(int level, Key k, const Coin& coin);
  // SpendCoin: false if no level has the coin; an entry already spent changes nothing and answers true, or
  // false where the subject has the spent-entry rework (seam::SpendOfSpentFails).
  bool Spend(int level, Key k);
  void Uncache(int level, Key k);
  // Flush (wipe) or sync `level` into the one below. The level below takes BestBlock(level), or with
  // seam::kWriteForwardsUnsetBestBlock this level's own best block, unset if it has none.
  // A FRESH entry over an unspent parent entry (AddCoin without possible_overwrite over a coin a lower
  // level holds: caller misuse) makes BatchWrite throw there: `misapplied` is set, the entries before it
  // are written, and `level` is left as a failed sync leaves it (those entries cleaned, spent ones erased,
  // the rest DIRTY). The subject's state after a failed flush is unspecified.
  struct Written {
    std::vector<Key> order;  // the DIRTY keys written, in order
    bool misapplied = false;
  };
  Written WriteDown(int level, bool wipe);
  void SetBestBlock(int level, const Hash256& h) { levels_[level].best = h; }
  // The best block `level` reports: its own, else the nearest lower level's, else the base's (-1: the base).
  Hash256 BestBlock(int level) const;
  // The best block a flush or sync of `level` hands down (see WriteDown); all zero when that is unset.
  Hash256 ForwardedBestBlock(int level) const {
    return seam::kWriteForwardsUnsetBestBlock ? levels_[level].best.value_or(Hash256{}) : BestBlock(level);
  }
  // BestBlock as a GetBestBlock call on the subject's cache at `level` sees it, with its side effect where
  // the subject has one (seam::kGetBestBlockMemoizes: every level asked on the way down keeps the answer).
  Hash256 ReadBestBlock(int level);

  const ModelEntry* Find(int level, Key k) const;
  size_t Size(int level) const { return levels_[level].size; }
  // The cache's memory usage as docs/semantics.md §1 defines it: per entry, the map node overhead plus the script's
  // heap bytes. A script copied into an entry gets an exact heap block (none up to the 36-byte inline size);
  // copy-assigning over an entry reuses its block when large enough (prevector's assign); a spent coin
  // owns none; a coin BatchWrite moves (seam::kBatchWriteMovesErasedCoins) keeps the child's block. The
  // subject's own numbers (seam::CoinsViewCache::kEntryOverhead, seam::ScriptHeapCharge) are applied, and
  // the result compares with seam::ModelledUsage.
  size_t Usage(int level) const;
  const std::vector<Key>& DirtyOrder(int level) const { return levels_[level].dirty_order; }
  const std::optional<Coin>& base(Key k) const { return base_[k]; }
  // The base's coin at `k`, for a base that changed behind the model's back (a store after a power loss) or
  // holds coins from the start.
  void SetBase(Key k, std::optional<Coin> coin) { base_[k] = std::move(coin); }
  void SetBaseBestBlock(const Hash256& best) { base_best_ = best; }

 private:
  struct Level {
    std::array<std::optional<ModelEntry>, kKeys> entries;
    size_t size = 0;
    std::vector<Key> dirty_order;
    std::optional<Hash256> best;
    bool peeks = false;
    bool was_reset = false;  // see MemoryChange
    bool kept_memory = false;
  };
  ModelEntry& Insert(Level& l, Key k, ModelEntry e);
  void MarkDirty(Level& l, Key k, ModelEntry& e);
  void Erase(Level& l, Key k);

  std::vector<Level> levels_;
  std::array<std::optional<Coin>, kKeys> base_;
  Hash256 base_best_;
  bool spend_of_spent_fails_;
  seam::FreshRules fresh_;  // where the subject puts FRESH
};

}  // namespace harness
