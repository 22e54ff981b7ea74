#include "core/coins_cache.h"
#include "core/convert.h"
#include "core/features.h"

#include <coins.h>
#include <memusage.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <uint256.h>

#include <array>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace core_adapter {

static_assert(kRefusedBatchThrows == core_features::void_batch_write &&
                  kDirtyCountIsCounted == core_features::dirty_count && kPeekCoinIsCores == core_features::peek_coin &&
                  kResetIsCores == core_features::reset_guard && kOverlayIsCores == core_features::coins_view_overlay &&
                  kOverlaySyncRaces == core_features::overlay_sync_races,
              "SUITE_CORE_* disagree with core/features.h: the feature probe ran on another tree; reconfigure");

namespace {

uint8_t Flags(const CCoinsCacheEntry& e) {
  return (e.IsDirty() ? CacheEntry::kDirty : 0) | (e.IsFresh() ? CacheEntry::kFresh : 0);
}

// The protected state of any Core cache (an overlay included): a class derived from CCoinsViewCache may
// form pointers to its protected members, and a member pointer applies to every object of the class. Core
// declares these members mutable, which a member pointer does not carry: const is cast away, as Core's own
// const methods change them.
struct Open : ::CCoinsViewCache {
  static ::CCoinsViewCache& Mutable(const ::CCoinsViewCache& c) { return const_cast<::CCoinsViewCache&>(c); }
  static CCoinsMap& Map(const ::CCoinsViewCache& c) { return Mutable(c).*(&Open::cacheCoins); }
  static ::CoinsCachePair& Sentinel(const ::CCoinsViewCache& c) { return Mutable(c).*(&Open::m_sentinel); }
  static size_t& CoinsUsage(const ::CCoinsViewCache& c) { return Mutable(c).*(&Open::cachedCoinsUsage); }
};

// Core's dirty counter (#33512), for InsertEntry; templates, so that trees without it never compile it.
template <class C>
struct OpenDirtyCount : C {
  static size_t& Of(C& c) { return c.*(&OpenDirtyCount::m_dirty_count); }
};
template <class C>
void CountNewDirty(C& cache) {
  if constexpr (kDirtyCountIsCounted) ++OpenDirtyCount<C>::Of(cache);
}

// Core's Flush, Sync or BatchWrite (`write`): before #33866 they return false for a batch the parent
// refused, which becomes `error`; since, the refusal is already an exception.
template <class C, class Write>
void RunWrite(C& cache, Write&& write, const char* error) {
  if constexpr (std::is_void_v<decltype(write(cache))>) {
    write(cache);
  } else if (!write(cache)) {
    throw std::runtime_error(error);
  }
}

template <class C>
size_t DirtyCount(const C& cache) {
  if constexpr (kDirtyCountIsCounted) {
    return cache.GetDirtyCount();
  } else {
    size_t n = 0;
    const auto& sentinel = Open::Sentinel(cache);
    for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next()) ++n;
    return n;
  }
}

template <class C>
std::optional<::Coin> CorePeek(const C& cache, const COutPoint& outpoint) {
  return cache.PeekCoin(outpoint);
}

template <class C>
void CoreReset(C& cache) {
  [[maybe_unused]] const auto guard = cache.CreateResetGuard();  // Reset() runs as it goes
}

}  // namespace

static_assert(CacheEntry::kDirty == CCoinsCacheEntry::DIRTY && CacheEntry::kFresh == CCoinsCacheEntry::FRESH);

// ---- CoinsCursor ----

CoinsCursor::CoinsCursor(::CoinsViewCacheCursor& core) : core_(core) {}

CoinsCursor::~CoinsCursor() = default;

CoinsCachePair* CoinsCursor::Yield(CorePair* at) const {
  current_.reset();  // the pair's key is const: rebuild it in place
  at_ = at;
  if (at == core_.End()) return End();
  current_.emplace(FromCore(at->first), CacheEntry(FromCore(at->second.coin), Flags(at->second)));
  return &*current_;
}

CoinsCachePair* CoinsCursor::Begin() const { return Yield(core_.Begin()); }

CoinsCachePair* CoinsCursor::Next(CoinsCachePair& current) {
  if (!current_ || &current != &*current_) {
    throw std::logic_error("CoinsCursor::Next: not the entry the cursor is at");
  }
  return Yield(core_.NextAndMaybeErase(*at_));
}

// ---- the bridge from a Core cache to a view that is not a Core view ----

// A Core CCoinsView over an adapter CoinsView: what a Core cache uses as its base when the parent has no
// Core view of its own, or when it must only peek at the parent (`peek`: the overlay where Core has none).
// Reads are const and touch nothing but the view's own PeekCoin, so the overlay's fetchers may call them
// from several threads.
class Bridge final : public ::CCoinsView {
 public:
  Bridge(CoinsView& view, bool peek) : view_(view), peek_(peek) {}

  std::optional<::Coin> GetCoin(const COutPoint& outpoint) const override {
    return ToCore(peek_ ? view_.PeekCoin(FromCore(outpoint)) : view_.GetCoin(FromCore(outpoint)));
  }
  // An override in trees where CCoinsView has PeekCoin (#34165), a function of the bridge's own before.
  virtual std::optional<::Coin> PeekCoin(const COutPoint& outpoint) const final {
    return ToCore(view_.PeekCoin(FromCore(outpoint)));
  }
  bool HaveCoin(const COutPoint& outpoint) const override {
    return peek_ ? view_.PeekCoin(FromCore(outpoint)).has_value() : view_.HaveCoin(FromCore(outpoint));
  }
  uint256 GetBestBlock() const override { return ToCore(view_.GetBestBlock()); }
  std::vector<uint256> GetHeadBlocks() const override {
    std::vector<uint256> out;
    for (const embedded::Hash256& h : view_.GetHeadBlocks()) out.push_back(ToCore(h));
    return out;
  }
  size_t EstimateSize() const override { return view_.EstimateSize(); }
  // The view reports a refusal by throwing (the embedded interface returns nothing), so a batch that
  // returns has been applied: Core's bool before #33866 is then true.
  using Result = decltype(std::declval<::CCoinsView&>().BatchWrite(std::declval<CoinsViewCacheCursor&>(),
                                                                     std::declval<const uint256&>()));
  Result BatchWrite(CoinsViewCacheCursor& cursor, const uint256& best_block) override {
    CoinsCursor wrapped(cursor);
    view_.BatchWrite(wrapped, FromCore(best_block));
    return static_cast<Result>(true);
  }

 private:
  CoinsView& view_;
  const bool peek_;
};

// ---- CoinsViewCache ----

CoinsViewCache::CoinsViewCache(CoinsView* parent)
    : CoinsViewCache(
          parent, [](::CCoinsView* base) { return std::make_unique<::CCoinsViewCache>(base, /*deterministic=*/true); },
          /*peek_parent=*/false) {}

CoinsViewCache::CoinsViewCache(CoinsView* parent, MakeCore make, bool peek_parent)
    : parent_(*parent), make_(std::move(make)) {
  ::CCoinsView* base = peek_parent ? nullptr : parent->CoreView();
  if (base == nullptr) {
    bridge_ = std::make_unique<Bridge>(*parent, peek_parent);
    base = bridge_.get();
  }
  cache_ = make_(base);  // deterministic hashing: the same input replays the same map
}

CoinsViewCache::~CoinsViewCache() = default;

::CCoinsView* CoinsViewCache::CoreView() { return cache_.get(); }

std::optional<embedded::Coin> CoinsViewCache::GetCoin(const embedded::OutPoint& outpoint) {
  return FromCore(cache_->GetCoin(ToCore(outpoint)));
}

std::optional<embedded::Coin> CoinsViewCache::PeekCoin(const embedded::OutPoint& outpoint) const {
  if constexpr (kPeekCoinIsCores) {
    return FromCore(CorePeek(*cache_, ToCore(outpoint)));
  } else {
    const CCoinsMap& map = Open::Map(*cache_);
    const auto it = map.find(ToCore(outpoint));
    if (it == map.end()) return parent_.PeekCoin(outpoint);
    if (it->second.coin.IsSpent()) return std::nullopt;
    return FromCore(it->second.coin);
  }
}

bool CoinsViewCache::HaveCoin(const embedded::OutPoint& outpoint) { return cache_->HaveCoin(ToCore(outpoint)); }

embedded::Hash256 CoinsViewCache::GetBestBlock() const { return FromCore(cache_->GetBestBlock()); }

void CoinsViewCache::SetBestBlock(const embedded::Hash256& best_block) { cache_->SetBestBlock(ToCore(best_block)); }

void CoinsViewCache::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  RunWrite(*cache_, [&](auto& c) { return c.BatchWrite(cursor.core(), ToCore(best_block)); },
           "BatchWrite: Core's cache refused the batch");
}

std::vector<embedded::Hash256> CoinsViewCache::GetHeadBlocks() const { return FromCore(cache_->GetHeadBlocks()); }

size_t CoinsViewCache::EstimateSize() const { return cache_->EstimateSize(); }

const embedded::Coin& CoinsViewCache::AccessCoin(const embedded::OutPoint& outpoint) {
  accessed_ = FromCore(cache_->AccessCoin(ToCore(outpoint)));
  return accessed_;
}

bool CoinsViewCache::HaveCoinInCache(const embedded::OutPoint& outpoint) const {
  return cache_->HaveCoinInCache(ToCore(outpoint));
}

void CoinsViewCache::AddCoin(const embedded::OutPoint& outpoint, embedded::Coin coin, bool possible_overwrite) {
  cache_->AddCoin(ToCore(outpoint), ToCore(coin), possible_overwrite);
}

bool CoinsViewCache::SpendCoin(const embedded::OutPoint& outpoint, embedded::Coin* moveout) {
  if (moveout == nullptr) return cache_->SpendCoin(ToCore(outpoint));
  ::Coin moved;
  const bool spent = cache_->SpendCoin(ToCore(outpoint), &moved);
  if (spent) *moveout = FromCore(moved);
  return spent;
}

void CoinsViewCache::Uncache(const embedded::OutPoint& outpoint) { cache_->Uncache(ToCore(outpoint)); }

void CoinsViewCache::EmplaceCoinInternalDANGER(const embedded::OutPoint& outpoint, embedded::Coin&& coin) {
  cache_->EmplaceCoinInternalDANGER(ToCore(outpoint), ToCore(coin));
}

bool CoinsViewCache::HaveInputs(const embedded::Transaction& tx) { return cache_->HaveInputs(CTransaction(ToCore(tx))); }

void AddCoins(CoinsViewCache& cache, const embedded::Transaction& tx, uint32_t height, bool check_for_overwrite) {
  if (height > static_cast<uint32_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("AddCoins: height " + std::to_string(height) + " does not fit Core's int");
  }
  ::AddCoins(*cache.cache_, CTransaction(ToCore(tx)), static_cast<int>(height), check_for_overwrite);
}

const embedded::Coin& AccessByTxid(CoinsViewCache& cache, const embedded::Hash256& txid) {
  cache.accessed_ = FromCore(::AccessByTxid(*cache.cache_, Txid::FromUint256(ToCore(txid))));
  return cache.accessed_;
}

void CoinsViewCache::Flush() {
  RunWrite(*cache_, [](auto& c) { return c.Flush(); }, "Flush: the parent refused the batch (Core's Flush returned false)");
}

void CoinsViewCache::Sync() {
  RunWrite(*cache_, [](auto& c) { return c.Sync(); }, "Sync: the parent refused the batch (Core's Sync returned false)");
}

void CoinsViewCache::Reset() {
  if constexpr (kResetIsCores) {
    CoreReset(*cache_);
  } else {
    ::CCoinsView* base = bridge_ ? bridge_.get() : parent_.CoreView();
    cache_.reset();
    cache_ = make_(base);
  }
  found_.clear();
}

size_t CoinsViewCache::GetCacheSize() const { return cache_->GetCacheSize(); }

size_t CoinsViewCache::DynamicMemoryUsage() const { return cache_->DynamicMemoryUsage(); }

size_t CoinsViewCache::CoinsUsage() const { return Open::CoinsUsage(*cache_); }

size_t CoinsViewCache::ScriptHeapCharge(size_t bytes) { return memusage::MallocUsage(bytes); }

size_t CoinsViewCache::GetDirtyCount() const { return DirtyCount(*cache_); }

const CacheEntry* CoinsViewCache::FindEntry(const embedded::OutPoint& outpoint) const {
  const CCoinsMap& map = Open::Map(*cache_);
  const auto it = map.find(ToCore(outpoint));
  if (it == map.end()) return nullptr;
  CacheEntry& slot = found_[outpoint];
  slot = CacheEntry(FromCore(it->second.coin), Flags(it->second));
  return &slot;
}

std::vector<embedded::OutPoint> CoinsViewCache::DirtyOrder() const {
  std::vector<embedded::OutPoint> out;
  const auto& sentinel = Open::Sentinel(*cache_);
  for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next()) out.push_back(FromCore(p->first));
  return out;
}

void CoinsViewCache::SanityCheck() const {
  auto fail = [](const std::string& what) { throw std::logic_error("SanityCheck: " + what); };
  const CCoinsMap& map = Open::Map(*cache_);
  size_t usage = 0, flagged = 0;
  for (const auto& [outpoint, e] : map) {
    const std::string at = FromCore(outpoint).ToString();
    const bool spent = e.coin.IsSpent();
    // Core's five states: unspent clean, DIRTY or DIRTY+FRESH; spent DIRTY; spent FRESH (not DIRTY).
    if (e.IsFresh() && !e.IsDirty() && !spent) fail("unspent FRESH entry without DIRTY at " + at);
    if (spent && !e.IsDirty() && !e.IsFresh()) fail("spent clean entry at " + at);
    if (spent && e.IsDirty() && e.IsFresh()) fail("spent DIRTY+FRESH entry at " + at);
    usage += e.coin.DynamicMemoryUsage();
    if (e.IsDirty() || e.IsFresh()) ++flagged;
  }
  if (usage != CoinsUsage()) {
    fail("tracked usage " + std::to_string(CoinsUsage()) + " != recomputed " + std::to_string(usage));
  }
  const auto& sentinel = Open::Sentinel(*cache_);
  size_t length = 0;
  for (const auto* p = &sentinel;;) {
    const auto* next = p->second.Next();
    if (next == nullptr || next->second.Prev() != p) fail("list links differ between directions");
    if (next == &sentinel) break;
    if (!next->second.IsDirty() && !next->second.IsFresh()) {
      fail("unflagged entry in the list at " + FromCore(next->first).ToString());
    }
    if (++length > map.size()) fail("flagged list longer than the cache (a cycle?)");
    p = next;
  }
  if (length != flagged) {
    fail("list length " + std::to_string(length) + " != flagged entries " + std::to_string(flagged));
  }
  if (kDirtyCountIsCounted && GetDirtyCount() != flagged) {
    fail("dirty count " + std::to_string(GetDirtyCount()) + " != flagged entries " + std::to_string(flagged));
  }
  cache_->SanityCheck();  // Core's: asserts
}

void CoinsViewCache::InsertEntry(const embedded::OutPoint& outpoint, embedded::Coin coin, uint8_t flags) {
  if ((flags & ~(CCoinsCacheEntry::DIRTY | CCoinsCacheEntry::FRESH)) ||
      ((flags & CCoinsCacheEntry::FRESH) && !(flags & CCoinsCacheEntry::DIRTY))) {
    throw std::logic_error("InsertEntry: flags must be DIRTY, DIRTY+FRESH or none");
  }
  CCoinsMap& map = Open::Map(*cache_);
  const COutPoint key = ToCore(outpoint);
  if (map.count(key)) throw std::logic_error("InsertEntry: the entry exists");
  auto [it, inserted] = map.try_emplace(key, ToCore(coin));
  Open::CoinsUsage(*cache_) += it->second.coin.DynamicMemoryUsage();
  if (flags & CCoinsCacheEntry::DIRTY) {
    CCoinsCacheEntry::SetDirty(*it, Open::Sentinel(*cache_));
    CountNewDirty(*cache_);
  }
  if (flags & CCoinsCacheEntry::FRESH) CCoinsCacheEntry::SetFresh(*it, Open::Sentinel(*cache_));
}

// ---- CoinsViewErrorCatcher ----

CoinsViewErrorCatcher::CoinsViewErrorCatcher(CoinsView* parent) {
  ::CCoinsView* base = parent->CoreView();
  if (base == nullptr) {
    bridge_ = std::make_unique<Bridge>(*parent, /*peek=*/false);
    base = bridge_.get();
  }
  catcher_ = std::make_unique<::CCoinsViewErrorCatcher>(base);
}

CoinsViewErrorCatcher::~CoinsViewErrorCatcher() = default;

void CoinsViewErrorCatcher::AddReadErrCallback(std::function<void()> callback) {
  catcher_->AddReadErrCallback(std::move(callback));
}

std::optional<embedded::Coin> CoinsViewErrorCatcher::GetCoin(const embedded::OutPoint& outpoint) {
  return FromCore(catcher_->GetCoin(ToCore(outpoint)));
}

std::optional<embedded::Coin> CoinsViewErrorCatcher::PeekCoin(const embedded::OutPoint& outpoint) const {
  if constexpr (kPeekCoinIsCores) {
    return FromCore(CorePeek(*catcher_, ToCore(outpoint)));
  } else {
    return FromCore(catcher_->GetCoin(ToCore(outpoint)));
  }
}

bool CoinsViewErrorCatcher::HaveCoin(const embedded::OutPoint& outpoint) { return catcher_->HaveCoin(ToCore(outpoint)); }

embedded::Hash256 CoinsViewErrorCatcher::GetBestBlock() const { return FromCore(catcher_->GetBestBlock()); }

void CoinsViewErrorCatcher::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  RunWrite(*catcher_, [&](auto& c) { return c.BatchWrite(cursor.core(), ToCore(best_block)); },
           "BatchWrite: the view below the error catcher refused the batch");
}

std::vector<embedded::Hash256> CoinsViewErrorCatcher::GetHeadBlocks() const {
  return FromCore(catcher_->GetHeadBlocks());
}

size_t CoinsViewErrorCatcher::EstimateSize() const { return catcher_->EstimateSize(); }

::CCoinsView* CoinsViewErrorCatcher::CoreView() { return catcher_.get(); }

}  // namespace core_adapter
