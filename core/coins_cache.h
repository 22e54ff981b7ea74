// Bitcoin Core side of seam/coins_cache.h: the embedded coins cache's interface (src/coins/view.h,
// src/coins/cache.h, src/coins/overlay.h) over Bitcoin Core's CCoinsViewCache and CoinsViewOverlay
// (coins.h). Core's objects live behind pointers so harness code never includes Core's headers; outpoints,
// coins and hashes cross the boundary as the embedded vocabulary and are converted field by field in
// core/coins_cache.cpp.
//
// Stacking: a CoinsViewCache asks its parent for CoreView(). A parent that is itself backed by a Core view
// (another CoinsViewCache, or the coins store adapter's CCoinsViewDB) is used directly, so the BatchWrite
// that runs between them is Core's own. Any other parent (e.g. the harness's CheckedBaseView) is reached
// through a Core CCoinsView bridge that forwards GetCoin, PeekCoin, HaveCoin, GetBestBlock and BatchWrite,
// handing the parent Core's cursor wrapped in a CoinsCursor.
//
// Where Core's contract differs from the embedded one the difference is data in seam/coins_cache.h; the
// the differences table of docs/bitcoin-core.md lists every one. Where Core versions differ (core/features.h finds
// which changes the tree has), the constants below say which way this tree goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/unavailable.h"
#include "seam/coins_cache_forms.h"
#include "src/coins/coin.h"
#include "src/coins/outpoint.h"
#include "src/tx/transaction.h"

// Bitcoin Core's.
class CBlock;
class CTransaction;
class CCoinsView;
class CCoinsViewCache;
class COutPoint;
struct CCoinsCacheEntry;
struct CoinsViewCacheCursor;

namespace core_adapter {

// A transaction converted to Core's CTransaction once (which computes its hashes then), as the embedded
// HashedTransaction computes its txid once: the form AddCoins takes.
class HashedTransaction {
 public:
  explicit HashedTransaction(const embedded::Transaction& tx);
  const ::CTransaction& core() const { return *tx_; }

 private:
  std::shared_ptr<const ::CTransaction> tx_;
};

// A block converted to Core's CBlock once (its transactions' hashes computed then), so that the overlays a
// block is fetched by share one conversion: the form CoinsViewOverlay::StartFetching takes. Where the tree
// has no overlay of Core's nothing fetches, and nothing is converted.
class HashedBlock {
 public:
  explicit HashedBlock(const embedded::Block& block);
  const std::shared_ptr<const ::CBlock>& core() const { return block_; }

 private:
  std::shared_ptr<const ::CBlock> block_;
};

// Bitcoin Core changes, as this tree has them (SUITE_CORE_<ROW> from the feature probe,
// cmake/CoreProbe.cmake; core/coins_cache.cpp checks them against core/coins_cache_features.h).
// #33866: Flush, Sync and BatchWrite return void, a refused batch is an exception (before: false).
inline constexpr bool kRefusedBatchThrows = SUITE_CORE_void_batch_write;
// #34165: PeekCoin is Core's (before: the adapter's own walk down the stack).
inline constexpr bool kPeekCoinIsCores = SUITE_CORE_peek_coin;
// #33602: Flush(reallocate_cache = false) keeps the map's memory (before: every flush reallocates it).
inline constexpr bool kFlushCanKeepMemory = SUITE_CORE_flush_keeping_memory;
// #34164: Reset() is Core's, through CreateResetGuard (before: the adapter replaces the Core cache by a new
// one over the same parent, which is what ConnectBlock did per block before that change).
inline constexpr bool kResetIsCores = SUITE_CORE_reset_guard;
// #34165, #35295: CoinsViewOverlay is Core's, fetching a block's prevouts on a ThreadPool (before: the
// adapter's overlay is a plain Core cache that asks its parent with PeekCoin, one per block, as
// ConnectBlock's view was: the same contract without the fetching).
inline constexpr bool kOverlayIsCores = SUITE_CORE_coins_view_overlay;

// The shims over the cache's internals (core/coins_cache_shims.h), each in its internal form where the tree
// has the internal and SUITE_CORE_PUBLIC_FORMS is off, else in its public form:
// - entries (cacheCoins): FindEntry reads any entry with its flags; public: only unspent entries, through
//   HaveCoinInCache and GetCoin, flags unknown (they are seen at writes, below).
inline constexpr bool kEntriesInternal = SUITE_CORE_cache_map && SUITE_CORE_entry_flags;
// - the dirty list (m_sentinel): DirtyOrder walks it at any time; public: every write down (Flush, Sync) is
//   recorded by a view the adapter puts between the cache and its parent (LastWrite: the entries the
//   cursor yields, in order, with their flags), which is where the harness checks order and flags.
inline constexpr bool kDirtyListInternal = SUITE_CORE_cache_sentinel;
// - the coins' memory (cachedCoinsUsage): CoinsUsage is exact; public: DynamicMemoryUsage only, which the
//   harness checks against the model's prediction as a lower bound.
inline constexpr bool kUsageInternal = SUITE_CORE_cache_usage && SUITE_CORE_cache_sizes;
// - the dirty count: where the cache keeps a counter (#33512: kDirtyCountIsCounted), its GetDirtyCount, else
//   its m_dirty_count; where it keeps none (before #33512), or the public form, the length of the dirty list
//   where kDirtyListInternal, else known only at writes (LastWrite).
inline constexpr bool kDirtyCountIsCounted = SUITE_CORE_dirty_count;
inline constexpr bool kDirtyCountGetter = kDirtyCountIsCounted && SUITE_CORE_dirty_count_getter;
inline constexpr bool kDirtyCountMember = kDirtyCountIsCounted && SUITE_CORE_dirty_count_member;
inline constexpr bool kDirtyCountVisible = kDirtyCountGetter || kDirtyCountMember || kDirtyListInternal;
// - exact states (InsertEntry): Core's flag setters, map, counters; public: states built by operations
//   (AddCoin, SpendCoin, GetCoin), so the states no operation makes are refused (Unbuildable).
inline constexpr bool kInsertInternal = SUITE_CORE_cache_map && SUITE_CORE_cache_usage && SUITE_CORE_cache_sentinel &&
                                        SUITE_CORE_entry_flag_setters && (kDirtyCountMember || !kDirtyCountIsCounted);

// Behaviours Core has in two forms, decided by running them on the tree (once per process, the form printed):
// SpendCoin of an entry already spent returns false and leaves the cache as it was (the spent-entry rework),
// or true as before; BatchWrite refuses a spent FRESH entry with std::logic_error, or skips it (false where
// the tree gives no way to make such an entry: kInsertInternal).
bool SpendOfSpentFails();
bool BatchWriteRefusesSpentFresh();
// Whether a write down hands the parent the DIRTY entries in the order they first became DIRTY (the
// pinned trees' dirty list), or in an order of the tree's own: asked with a stack of two caches whose
// entries become DIRTY, again DIRTY, spent and written down (false, too, where the tree has no view of the
// suite's own to record a write: kOwnViews).
bool DirtyOrderIsFirstDirtied();
// Where the tree puts FRESH (seam::FreshRules), asked with a cache over an empty parent: an add without
// possible_overwrite, a FRESH entry written up, a FRESH entry spent. Only where the entries' flags are visible
// (kEntriesInternal); elsewhere the first forms, said so.
const seam::FreshRules& Fresh();

// InsertEntry in its public form cannot make this state (e.g. spent and FRESH, or clean with a coin the
// parent does not hold).
class Unbuildable : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// A snapshot of one Core cache entry: its coin and flags as they were when it was read. Core's entries are
// CCoinsCacheEntry objects inside the cache's map; these are copies, so changing one changes nothing in
// the cache.
class CacheEntry {
 public:
  static constexpr uint8_t kDirty = 1;
  static constexpr uint8_t kFresh = 2;

  embedded::Coin coin;

  CacheEntry() = default;
  CacheEntry(embedded::Coin c, uint8_t flags) : coin(std::move(c)), flags_(flags) {}
  // For an entry refilled in place: its flags as read, or unknown where this tree does not let the adapter
  // see them (public forms: see kEntriesInternal).
  void SetFlags(uint8_t flags) {
    flags_ = flags;
    flags_known_ = true;
  }
  void SetFlagsUnknown() {
    flags_ = 0;
    flags_known_ = false;
  }

  bool IsDirty() const { return flags_ & kDirty; }
  bool IsFresh() const { return flags_ & kFresh; }
  uint8_t flags() const { return flags_; }
  bool FlagsKnown() const { return flags_known_; }

 private:
  uint8_t flags_ = 0;
  bool flags_known_ = true;
};
// One entry of a write down (LastWrite): what the cursor yielded, in order.
struct WrittenEntry {
  embedded::OutPoint outpoint;
  embedded::Coin coin;  // spent: IsSpent()
  uint8_t flags = 0;    // CacheEntry::kDirty, kFresh; 0 where the tree has no IsDirty/IsFresh
};
using CoinsCachePair = std::pair<const embedded::OutPoint, CacheEntry>;

// Core's CoinsViewCacheCursor seen through the embedded cursor's interface: Begin/Next yield the entry the
// Core cursor is at, materialized as a CoinsCachePair (valid until the next call to Next); End() is a fixed
// object distinct from every yielded entry. Next advances Core's cursor, which in sync mode erases a spent
// entry or cleans an unspent one, as Core's NextAndMaybeErase does.
class CoinsCursor {
 public:
  explicit CoinsCursor(::CoinsViewCacheCursor& core);
  CoinsCursor(const CoinsCursor&) = delete;
  CoinsCursor& operator=(const CoinsCursor&) = delete;
  ~CoinsCursor();

  CoinsCachePair* Begin() const;
  CoinsCachePair* End() const { return &end_; }
  // Requires: `current` is what Begin or the previous Next returned.
  CoinsCachePair* Next(CoinsCachePair& current);

  // The Core cursor itself, for a receiver that is a Core view.
  ::CoinsViewCacheCursor& core() const { return core_; }

 private:
  using CorePair = std::pair<const ::COutPoint, ::CCoinsCacheEntry>;
  CoinsCachePair* Yield(CorePair* at) const;

  ::CoinsViewCacheCursor& core_;
  mutable CorePair* at_ = nullptr;  // the Core entry current_ was read from
  mutable std::optional<CoinsCachePair> current_;
  mutable CoinsCachePair end_;
};

// A layer of the UTXO set, with the embedded CoinsView's interface.
class CoinsView {
 public:
  virtual ~CoinsView() = default;
  // The unspent coin at `outpoint`, fetching (and caching) it from below if needed; nullopt if none.
  virtual std::optional<embedded::Coin> GetCoin(const embedded::OutPoint& outpoint) = 0;
  // As GetCoin, but no layer caches anything.
  virtual std::optional<embedded::Coin> PeekCoin(const embedded::OutPoint& outpoint) const = 0;
  virtual bool HaveCoin(const embedded::OutPoint& outpoint) { return GetCoin(outpoint).has_value(); }
  virtual embedded::Hash256 GetBestBlock() const = 0;
  // Applies every entry the cursor yields (calling cursor.Next for each), then records `best_block`.
  virtual void BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) = 0;
  // The store's head blocks and size estimate (Core's CCoinsView::GetHeadBlocks, EstimateSize); views above
  // the store answer with the store's.
  virtual std::vector<embedded::Hash256> GetHeadBlocks() const { return {}; }
  virtual size_t EstimateSize() const { return 0; }
  // The Core view that a cache stacked on this one uses as its parent; nullptr: reach this view through a
  // bridge. Must stay valid as long as this view lives.
  virtual ::CCoinsView* CoreView() { return nullptr; }
};

// Bitcoin Core's CCoinsViewCache with the embedded CoinsViewCache's interface.
class CoinsViewCache : public CoinsView {
 public:
  // Core's DynamicMemoryUsage() is the map's memory (pool chunks, buckets) plus the coins' heap bytes. The
  // map part depends on the pool allocator, not on the entries one by one, so the per-entry overhead the
  // reference model charges is 0 and the model is compared with CoinsUsage() (seam::ModelledUsage).
  static constexpr size_t kEntryOverhead = 0;

  // `parent` must outlive the cache.
  explicit CoinsViewCache(CoinsView* parent);
  CoinsViewCache(const CoinsViewCache&) = delete;
  CoinsViewCache& operator=(const CoinsViewCache&) = delete;
  ~CoinsViewCache() override;

  std::optional<embedded::Coin> GetCoin(const embedded::OutPoint& outpoint) override;
  // Core's PeekCoin (kPeekCoinIsCores); before it, the adapter's own walk: a local entry answers, else the
  // parent's PeekCoin. Nothing is inserted at any level.
  std::optional<embedded::Coin> PeekCoin(const embedded::OutPoint& outpoint) const override;
  bool HaveCoin(const embedded::OutPoint& outpoint) override;
  // Core's: the local best block, else the parent's, which Core then keeps as the local one.
  embedded::Hash256 GetBestBlock() const override;
  void SetBestBlock(const embedded::Hash256& best_block);
  // Core's BatchWrite over the Core cursor that `cursor` wraps.
  void BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) override;
  // Core's (CCoinsViewBacked's): the parent's.
  std::vector<embedded::Hash256> GetHeadBlocks() const override;
  size_t EstimateSize() const override;
  ::CCoinsView* CoreView() override;

  // Core's AccessCoin, converted: valid until the next call on this adapter.
  const embedded::Coin& AccessCoin(const embedded::OutPoint& outpoint);
  bool HaveCoinInCache(const embedded::OutPoint& outpoint) const;
  // Core's AddCoin. Core asserts (aborts) on a spent coin rather than throwing; the logic_error for an
  // unspent entry without possible_overwrite is Core's. Throws std::invalid_argument for a height Core's
  // 31-bit field cannot hold.
  void AddCoin(const embedded::OutPoint& outpoint, embedded::Coin coin, bool possible_overwrite);
  bool SpendCoin(const embedded::OutPoint& outpoint, embedded::Coin* moveout = nullptr);
  void Uncache(const embedded::OutPoint& outpoint);
  // Core's EmplaceCoinInternalDANGER (which takes the outpoint as COutPoint&& before a 2026 change, as
  // const COutPoint& since: a temporary fits both).
  void EmplaceCoinInternalDANGER(const embedded::OutPoint& outpoint, embedded::Coin&& coin);
  // Core's HaveInputs of the transaction converted.
  bool HaveInputs(const embedded::Transaction& tx);

  // Core's Flush and Sync. A parent that refuses the batch (Core before #33866: BatchWrite returns false,
  // and the cache is left as it was; since: it throws) makes them throw; the adapter turns a false into
  // std::runtime_error. Core's own logic_errors pass. `reallocate_cache` is Core's (#33602); a tree before
  // it reallocates at every flush (kFlushCanKeepMemory).
  virtual void Flush(bool reallocate_cache = true);
  void Sync();
  // Empties the cache without writing anything down: no entries, usage 0, no best block of its own (Core's
  // Reset, or a new Core cache where the tree has none: see kResetIsCores). Requires: no cache is stacked
  // on this one.
  virtual void Reset();

  size_t GetCacheSize() const;  // requires seam::kCoinsApi.sizes
  // Core's: the map's memory plus the coins' (requires seam::kCoinsApi.sizes).
  size_t DynamicMemoryUsage() const;
  // Core's cachedCoinsUsage: the coins' heap bytes as memusage counts them, kept incrementally (Core's
  // SanityCheck recounts it). Requires kUsageInternal.
  size_t CoinsUsage() const;
  // What Core charges for a script whose heap block is `bytes` (memusage::MallocUsage).
  static size_t ScriptHeapCharge(size_t bytes);
  // The number of DIRTY entries (see kDirtyCountIsCounted; before #33512 the length of Core's flagged
  // list: DIRTY entries and FRESH-only ones, a spent coin handed up by a parent, which no parent in this
  // suite does). Requires kDirtyCountVisible.
  size_t GetDirtyCount() const;

  // A snapshot of the local entry (nullptr if absent). The pointer stays valid, and its value as read,
  // until FindEntry is called again or the cache is destroyed (one slot, refilled in place: the checks ask
  // at every step). Public form (!kEntriesInternal): unspent entries only, with CacheEntry::FlagsKnown() false.
  const CacheEntry* FindEntry(const embedded::OutPoint& outpoint) const;
  // The outpoints on Core's flagged list, from the sentinel's next on. Valid until the next call or the
  // cache's destruction (the buffer is reused). Requires kDirtyListInternal.
  const std::vector<embedded::OutPoint>& DirtyOrder() const;
  // The entries the last Flush, Sync or BatchWrite of this cache handed to its parent, in the order the
  // cursor yielded them (public form of the dirty list: recorded only where !kDirtyListInternal).
  const std::vector<WrittenEntry>& LastWrite() const { return last_write_; }
  // Throws std::logic_error naming the first violation among what the shims can see: a flag state Core
  // calls impossible, tracked usage different from a recount, list links that disagree between directions,
  // an unflagged entry on the list, a list longer than the cache, list length different from the number of
  // flagged entries or from Core's dirty counter. Then runs Core's own SanityCheck (seam::kCoinsApi.sanity_check),
  // which asserts the same.
  void SanityCheck() const;

 protected:
  friend void AddCoins(CoinsViewCache&, const HashedTransaction&, uint32_t, bool);
  friend const embedded::Coin& AccessByTxid(CoinsViewCache&, const embedded::Hash256&);

  // For CoinsViewOverlay: the Core object is made by `make` over the parent's Core view (or a bridge; with
  // `peek_parent` always a bridge whose GetCoin is the parent's PeekCoin).
  using MakeCore = std::function<std::unique_ptr<::CCoinsViewCache>(::CCoinsView* base)>;
  CoinsViewCache(CoinsView* parent, MakeCore make, bool peek_parent);
  ::CCoinsViewCache& core() const { return *cache_; }

  // For tests that need an exact state: inserts an absent entry with `coin` and `flags` (DIRTY, and FRESH
  // only with DIRTY). Internal form (kInsertInternal): through Core's own flag setters and counters. Public
  // form: by the operations that make that state (AddCoin, SpendCoin, or GetCoin from the parent for a clean
  // one), throwing Unbuildable for a state they cannot make. Throws std::logic_error if the entry exists or
  // the flags are not allowed.
  void InsertEntry(const embedded::OutPoint& outpoint, embedded::Coin coin, uint8_t flags);

 private:
  CoinsView& parent_;
  MakeCore make_;
  // The views of the suite's own under the Core cache (core/coins_views.h), declared first: they outlive it.
  // bridge_: to a parent without a Core view; recorder_: between the cache and its parent where the dirty
  // list is seen only at writes (!kDirtyListInternal), recording into last_write_.
  std::unique_ptr<::CCoinsView> bridge_;
  std::unique_ptr<::CCoinsView> recorder_;
  std::unique_ptr<::CCoinsViewCache> cache_;
  mutable CacheEntry found_;                             // FindEntry's answer
  mutable std::vector<embedded::OutPoint> dirty_order_;  // DirtyOrder's answer
  embedded::Coin accessed_;
  std::vector<WrittenEntry> last_write_;
};

// Core's AddCoins (coins.h) of the transaction. Throws std::invalid_argument for a height Core's int cannot hold.
void AddCoins(CoinsViewCache& cache, const HashedTransaction& tx, uint32_t height, bool check_for_overwrite);
// Core's AccessByTxid, converted: valid until the next call on the cache's adapter.
const embedded::Coin& AccessByTxid(CoinsViewCache& cache, const embedded::Hash256& txid);

// Bitcoin Core's CCoinsViewErrorCatcher over `parent` (its Core view, or a bridge to it): GetCoin, HaveCoin
// and PeekCoin are Core's, which on a std::runtime_error from below run the callbacks and abort. Where
// Core's views have no PeekCoin (before #34165) PeekCoin is the catcher's GetCoin, which caches nothing
// when the parent is the store or the harness's base, the only parents the harness gives it.
class CoinsViewErrorCatcher : public CoinsView {
 public:
  // `parent` must outlive the catcher. Requires seam::kCoinsApi.error_catcher (Unavailable otherwise).
  explicit CoinsViewErrorCatcher(CoinsView* parent);
  ~CoinsViewErrorCatcher() override;
  CoinsViewErrorCatcher(const CoinsViewErrorCatcher&) = delete;
  CoinsViewErrorCatcher& operator=(const CoinsViewErrorCatcher&) = delete;

  void AddReadErrCallback(std::function<void()> callback);

  std::optional<embedded::Coin> GetCoin(const embedded::OutPoint& outpoint) override;
  std::optional<embedded::Coin> PeekCoin(const embedded::OutPoint& outpoint) const override;
  bool HaveCoin(const embedded::OutPoint& outpoint) override;
  embedded::Hash256 GetBestBlock() const override;
  void BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) override;
  std::vector<embedded::Hash256> GetHeadBlocks() const override;
  size_t EstimateSize() const override;
  ::CCoinsView* CoreView() override;

 private:
  std::unique_ptr<::CCoinsView> bridge_;   // declared first: outlives the Core catcher that reads through it
  std::unique_ptr<::CCoinsView> catcher_;  // Core's CCoinsViewErrorCatcher
};

// Bitcoin Core's CoinsViewOverlay (kOverlayIsCores) with the embedded CoinsViewOverlay's interface: a
// cache for one block at a time whose cache misses are answered by the parent's PeekCoin, fetched ahead on
// `workers` threads (0: none) once StartFetching has the block. Before #34165 it is a plain Core cache over
// a bridge to the parent's PeekCoin, and StartFetching only keeps the block.
class CoinsViewOverlay : public CoinsViewCache {
 public:
  // `parent` must outlive the overlay; 0 <= workers <= kMaxWorkers.
  static constexpr int kMaxWorkers = 4;
  CoinsViewOverlay(CoinsView* parent, int workers);
  ~CoinsViewOverlay() override;

  // Core's StartFetching of `block`, whose CBlock the overlay keeps, with the ResetGuard Core returns, until
  // Reset() (which drops the guard: Core's Reset) or Flush(). Requires: not fetching.
  void StartFetching(const HashedBlock& block);
  void StartFetching(const embedded::Block& block) { StartFetching(HashedBlock(block)); }
  // Core's AllInputsConsumed(); true where the tree has no overlay.
  bool AllInputsConsumed() const;
  // Core's Flush (it stops the fetching first), then the guard is dropped as ConnectBlock's scope ends.
  void Flush(bool reallocate_cache = true) override;
  void Reset() override;

 private:
  struct Fetch;
  std::unique_ptr<Fetch> fetch_;
};

}  // namespace core_adapter
