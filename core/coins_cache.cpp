#include "core/coins_cache.h"
#include "core/convert.h"

#include <coins.h>
#include <memusage.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <uint256.h>

#include <limits>
#include <stdexcept>
#include <string>

namespace core_adapter {
namespace {

uint8_t Flags(const CCoinsCacheEntry& e) {
  return (e.IsDirty() ? CacheEntry::kDirty : 0) | (e.IsFresh() ? CacheEntry::kFresh : 0);
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
// Core view of its own.
class CoinsViewCache::Bridge final : public ::CCoinsView {
 public:
  explicit Bridge(CoinsView& view) : view_(view) {}

  std::optional<::Coin> GetCoin(const COutPoint& outpoint) const override {
    const std::optional<embedded::Coin> coin = view_.GetCoin(FromCore(outpoint));
    if (!coin) return std::nullopt;
    return ToCore(*coin);
  }
  bool HaveCoin(const COutPoint& outpoint) const override { return view_.HaveCoin(FromCore(outpoint)); }
  uint256 GetBestBlock() const override { return ToCore(view_.GetBestBlock()); }
  // The view reports failure by throwing (the embedded interface returns nothing), so a batch that
  // returns has been applied.
  bool BatchWrite(CoinsViewCacheCursor& cursor, const uint256& best_block) override {
    CoinsCursor wrapped(cursor);
    view_.BatchWrite(wrapped, FromCore(best_block));
    return true;
  }

 private:
  CoinsView& view_;
};

// ---- Core's cache, with its protected state readable ----

class CoinsViewCache::Cache final : public ::CCoinsViewCache {
 public:
  // Deterministic hashing: the same input replays the same map.
  explicit Cache(::CCoinsView* base) : ::CCoinsViewCache(base, /*deterministic=*/true) {}

  const CCoinsMap& map() const { return cacheCoins; }
  const ::CoinsCachePair& sentinel() const { return m_sentinel; }
  size_t coins_usage() const { return cachedCoinsUsage; }

  void Insert(const COutPoint& outpoint, ::Coin coin, uint8_t flags) {
    if ((flags & ~(CCoinsCacheEntry::DIRTY | CCoinsCacheEntry::FRESH)) ||
        ((flags & CCoinsCacheEntry::FRESH) && !(flags & CCoinsCacheEntry::DIRTY))) {
      throw std::logic_error("InsertEntry: flags must be DIRTY, DIRTY+FRESH or none");
    }
    if (cacheCoins.count(outpoint)) throw std::logic_error("InsertEntry: the entry exists");
    auto [it, inserted] = cacheCoins.try_emplace(outpoint, std::move(coin));
    cachedCoinsUsage += it->second.coin.DynamicMemoryUsage();
    if (flags & CCoinsCacheEntry::DIRTY) CCoinsCacheEntry::SetDirty(*it, m_sentinel);
    if (flags & CCoinsCacheEntry::FRESH) CCoinsCacheEntry::SetFresh(*it, m_sentinel);
  }
};

// ---- CoinsViewCache ----

CoinsViewCache::CoinsViewCache(CoinsView* parent) : parent_(*parent) {
  ::CCoinsView* base = parent->CoreView();
  if (base == nullptr) {
    bridge_ = std::make_unique<Bridge>(*parent);
    base = bridge_.get();
  }
  cache_ = std::make_unique<Cache>(base);
}

CoinsViewCache::~CoinsViewCache() = default;

::CCoinsView* CoinsViewCache::CoreView() { return cache_.get(); }

std::optional<embedded::Coin> CoinsViewCache::GetCoin(const embedded::OutPoint& outpoint) {
  return FromCore(cache_->GetCoin(ToCore(outpoint)));
}

std::optional<embedded::Coin> CoinsViewCache::PeekCoin(const embedded::OutPoint& outpoint) const {
  const auto it = cache_->map().find(ToCore(outpoint));
  if (it == cache_->map().end()) return parent_.PeekCoin(outpoint);
  if (it->second.coin.IsSpent()) return std::nullopt;
  return FromCore(it->second.coin);
}

bool CoinsViewCache::HaveCoin(const embedded::OutPoint& outpoint) { return cache_->HaveCoin(ToCore(outpoint)); }

embedded::Hash256 CoinsViewCache::GetBestBlock() const { return FromCore(cache_->GetBestBlock()); }

void CoinsViewCache::SetBestBlock(const embedded::Hash256& best_block) { cache_->SetBestBlock(ToCore(best_block)); }

void CoinsViewCache::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  if (!cache_->BatchWrite(cursor.core(), ToCore(best_block))) {
    throw std::runtime_error("BatchWrite: Core's cache refused the batch");
  }
}

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

void CoinsViewCache::Flush() {
  if (!cache_->Flush()) throw std::runtime_error("Flush: the parent refused the batch (Core's Flush returned false)");
}

void CoinsViewCache::Sync() {
  if (!cache_->Sync()) throw std::runtime_error("Sync: the parent refused the batch (Core's Sync returned false)");
}

size_t CoinsViewCache::GetCacheSize() const { return cache_->GetCacheSize(); }

size_t CoinsViewCache::DynamicMemoryUsage() const { return cache_->DynamicMemoryUsage(); }

size_t CoinsViewCache::CoinsUsage() const { return cache_->coins_usage(); }

size_t CoinsViewCache::ScriptHeapCharge(size_t bytes) { return memusage::MallocUsage(bytes); }

size_t CoinsViewCache::GetDirtyCount() const {
  size_t n = 0;
  const auto& sentinel = cache_->sentinel();
  for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next()) ++n;
  return n;
}

const CacheEntry* CoinsViewCache::FindEntry(const embedded::OutPoint& outpoint) const {
  const auto it = cache_->map().find(ToCore(outpoint));
  if (it == cache_->map().end()) return nullptr;
  CacheEntry& slot = found_[outpoint];
  slot = CacheEntry(FromCore(it->second.coin), Flags(it->second));
  return &slot;
}

std::vector<embedded::OutPoint> CoinsViewCache::DirtyOrder() const {
  std::vector<embedded::OutPoint> out;
  const auto& sentinel = cache_->sentinel();
  for (const auto* p = sentinel.second.Next(); p != &sentinel; p = p->second.Next()) out.push_back(FromCore(p->first));
  return out;
}

void CoinsViewCache::SanityCheck() const {
  auto fail = [](const std::string& what) { throw std::logic_error("SanityCheck: " + what); };
  const CCoinsMap& map = cache_->map();
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
  if (usage != cache_->coins_usage()) {
    fail("tracked usage " + std::to_string(cache_->coins_usage()) + " != recomputed " + std::to_string(usage));
  }
  const auto& sentinel = cache_->sentinel();
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
  cache_->SanityCheck();  // Core's: asserts
}

void CoinsViewCache::InsertEntry(const embedded::OutPoint& outpoint, embedded::Coin coin, uint8_t flags) {
  cache_->Insert(ToCore(outpoint), ToCore(coin), flags);
}

}  // namespace core_adapter
