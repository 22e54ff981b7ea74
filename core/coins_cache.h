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
// the differences table of docs/bitcoin-core.md lists every one. Where Core versions differ (core/features.h finds which
// changes the tree has), the constants below say which way this tree goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "src/coins/coin.h"
#include "src/coins/outpoint.h"
#include "src/tx/transaction.h"

// Bitcoin Core's.
class CBlock;
class CCoinsView;
class CCoinsViewCache;
class CCoinsViewErrorCatcher;
class COutPoint;
struct CCoinsCacheEntry;
struct CoinsViewCacheCursor;

namespace core_adapter {

// A Core CCoinsView over a CoinsView of this interface (core/coins_cache.cpp).
class Bridge;

// Bitcoin Core changes inside the supported range, as this tree has them (SUITE_CORE_<NAME> from
// cmake/BitcoinCore.cmake's feature probe; core/coins_cache.cpp checks them against core/features.h).
// #33866: Flush, Sync and BatchWrite return void, a refused batch is an exception (before: false).
inline constexpr bool kRefusedBatchThrows = SUITE_CORE_VOID_BATCH_WRITE;
// #33512: GetDirtyCount() is Core's own counter, which SanityCheck checks (before: the adapter counts the
// flagged list).
inline constexpr bool kDirtyCountIsCounted = SUITE_CORE_DIRTY_COUNT;
// #34165: PeekCoin is Core's (before: the adapter's own walk down the stack).
inline constexpr bool kPeekCoinIsCores = SUITE_CORE_PEEK_COIN;
// #34164: Reset() is Core's, through CreateResetGuard (before: the adapter replaces the Core cache by a new
// one over the same parent, which is what ConnectBlock did per block before that change).
inline constexpr bool kResetIsCores = SUITE_CORE_RESET_GUARD;
// #34165, #35295: CoinsViewOverlay is Core's, fetching a block's prevouts on a ThreadPool (before: the
// adapter's overlay is a plain Core cache that asks its parent with PeekCoin, one per block, as
// ConnectBlock's view was: the same contract without the fetching).
inline constexpr bool kOverlayIsCores = SUITE_CORE_COINS_VIEW_OVERLAY;
// Known bug (docs/core-bugs.md#overlay-sync): CoinsViewOverlay has no Sync of its own.
inline constexpr bool kOverlaySyncRaces = SUITE_CORE_OVERLAY_SYNC_RACES;

// A snapshot of one Core cache entry: its coin and flags as they were when it was read. Core's entries are
// CCoinsCacheEntry objects inside the cache's map; these are copies, so changing one changes nothing in
// the cache.
class CacheEntry {
 public:
  static constexpr uint8_t kDirty = 1;  // Core's CCoinsCacheEntry::DIRTY
  static constexpr uint8_t kFresh = 2;  // Core's CCoinsCacheEntry::FRESH

  embedded::Coin coin;

  CacheEntry() = default;
  CacheEntry(embedded::Coin c, uint8_t flags) : coin(std::move(c)), flags_(flags) {}

  bool IsDirty() const { return flags_ & kDirty; }
  bool IsFresh() const { return flags_ & kFresh; }
  uint8_t flags() const { return flags_; }

 private:
  uint8_t flags_ = 0;
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
  // std::runtime_error. Core's own logic_errors pass.
  virtual void Flush();
  void Sync();
  // Empties the cache without writing anything down: no entries, usage 0, no best block of its own (Core's
  // Reset, or a new Core cache where the tree has none: see kResetIsCores). Requires: no cache is stacked
  // on this one.
  virtual void Reset();

  size_t GetCacheSize() const;
  // Core's: the map's memory plus CoinsUsage().
  size_t DynamicMemoryUsage() const;
  // Core's cachedCoinsUsage: the coins' heap bytes as memusage counts them, kept incrementally (Core's
  // SanityCheck recounts it).
  size_t CoinsUsage() const;
  // What Core charges for a script whose heap block is `bytes` (memusage::MallocUsage).
  static size_t ScriptHeapCharge(size_t bytes);
  // Core's GetDirtyCount() (kDirtyCountIsCounted); before it, the length of Core's flagged list: DIRTY
  // entries and FRESH-only ones (a spent coin handed up by a parent; no parent in this suite does that).
  size_t GetDirtyCount() const;

  // A snapshot of the local entry (nullptr if absent). The pointer stays valid, and its value as read,
  // until FindEntry is called for the same outpoint again or the cache is destroyed.
  const CacheEntry* FindEntry(const embedded::OutPoint& outpoint) const;
  // The outpoints on Core's flagged list, from the sentinel's next on.
  std::vector<embedded::OutPoint> DirtyOrder() const;
  // Throws std::logic_error naming the first violation among: a flag state Core calls impossible, tracked
  // usage different from a recount, list links that disagree between directions, an unflagged entry on the
  // list, a list longer than the cache, list length different from the number of flagged entries or (with
  // kDirtyCountIsCounted) from Core's dirty counter. Then runs Core's own SanityCheck, which asserts the
  // same.
  void SanityCheck() const;

 protected:
  friend void AddCoins(CoinsViewCache&, const embedded::Transaction&, uint32_t, bool);
  friend const embedded::Coin& AccessByTxid(CoinsViewCache&, const embedded::Hash256&);

  // For CoinsViewOverlay: the Core object is made by `make` over the parent's Core view (or a bridge; with
  // `peek_parent` always a bridge whose GetCoin is the parent's PeekCoin).
  using MakeCore = std::function<std::unique_ptr<::CCoinsViewCache>(::CCoinsView* base)>;
  CoinsViewCache(CoinsView* parent, MakeCore make, bool peek_parent);
  ::CCoinsViewCache& core() const { return *cache_; }

  // For tests that need an exact state: inserts an absent entry with `coin` and `flags` (DIRTY, and FRESH
  // only with DIRTY) through Core's own flag setters and usage counter. Throws std::logic_error if the
  // entry exists or the flags are not allowed.
  void InsertEntry(const embedded::OutPoint& outpoint, embedded::Coin coin, uint8_t flags);

 private:
  CoinsView& parent_;
  MakeCore make_;
  std::unique_ptr<Bridge> bridge_;  // declared first: outlives the Core cache that reads through it
  std::unique_ptr<::CCoinsViewCache> cache_;
  mutable std::map<embedded::OutPoint, CacheEntry> found_;
  embedded::Coin accessed_;
};

// Core's AddCoins (coins.h) of the transaction converted (Core computes its txid). Throws
// std::invalid_argument for a height Core's int cannot hold.
void AddCoins(CoinsViewCache& cache, const embedded::Transaction& tx, uint32_t height, bool check_for_overwrite);
// Core's AccessByTxid, converted: valid until the next call on the cache's adapter.
const embedded::Coin& AccessByTxid(CoinsViewCache& cache, const embedded::Hash256& txid);

// Bitcoin Core's CCoinsViewErrorCatcher over `parent` (its Core view, or a bridge to it): GetCoin, HaveCoin
// and PeekCoin are Core's, which on a std::runtime_error from below run the callbacks and abort. Where
// Core's views have no PeekCoin (before #34165) PeekCoin is the catcher's GetCoin, which caches nothing
// when the parent is the store or the harness's base, the only parents the harness gives it.
class CoinsViewErrorCatcher : public CoinsView {
 public:
  // `parent` must outlive the catcher.
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
  std::unique_ptr<Bridge> bridge_;  // declared first: outlives the Core catcher that reads through it
  std::unique_ptr<::CCoinsViewErrorCatcher> catcher_;
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

  // Core's StartFetching of `block`, converted to a CBlock that the overlay keeps, with the ResetGuard Core
  // returns, until Reset() (which drops the guard: Core's Reset) or Flush(). Requires: not fetching.
  void StartFetching(const embedded::Block& block);
  // Core's AllInputsConsumed(); true where the tree has no overlay.
  bool AllInputsConsumed() const;
  // Core's Flush (it stops the fetching first), then the guard is dropped as ConnectBlock's scope ends.
  void Flush() override;
  void Reset() override;

 private:
  struct Fetch;
  std::unique_ptr<Fetch> fetch_;
};

}  // namespace core_adapter
