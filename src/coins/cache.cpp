#include "cache.h"

#include <stdexcept>
#include <string>

namespace embedded {

CoinsCachePair* CoinsCursor::Next(CoinsCachePair& current) {
  // Read the successor first: in sync mode `current` may be erased below.
  CoinsCachePair* next = current.second.Next();
  if (!wipe_) {
    if (current.second.coin.IsSpent()) {
      owner_.Erase(owner_.map_.find(current.first));
    } else {
      owner_.MarkClean(current.second);
    }
  }
  return next;
}

CoinsViewCache::CoinsViewCache(CoinsView* parent) : parent_(*parent) { CacheEntry::MakeSentinel(sentinel_); }

CoinsViewCache::~CoinsViewCache() {
  map_.clear();  // entries unlink from the sentinel while it is still alive
}

CoinsViewCache::Map::iterator CoinsViewCache::FetchCoin(const OutPoint& outpoint) {
  auto it = map_.find(outpoint);
  if (it != map_.end()) return it;
  std::optional<Coin> coin = FetchFromParent(outpoint);
  if (!coin) return map_.end();
  it = map_.try_emplace(outpoint, std::move(*coin)).first;
  usage_ += EntryUsage(it->second);
  return it;
}

void CoinsViewCache::MarkDirty(CoinsCachePair& pair) {
  if (!pair.second.IsDirty()) ++dirty_count_;
  CacheEntry::SetDirty(pair, sentinel_);
}

void CoinsViewCache::MarkClean(CacheEntry& e) {
  if (e.IsDirty()) --dirty_count_;
  e.SetClean();
}

void CoinsViewCache::Erase(Map::iterator it) {
  if (it->second.IsDirty()) --dirty_count_;
  usage_ -= EntryUsage(it->second);
  map_.erase(it);  // the entry unlinks itself
}

std::optional<Coin> CoinsViewCache::GetCoin(const OutPoint& outpoint) {
  const auto it = FetchCoin(outpoint);
  if (it == map_.end() || it->second.coin.IsSpent()) return std::nullopt;
  return it->second.coin;
}

std::optional<Coin> CoinsViewCache::PeekCoin(const OutPoint& outpoint) const {
  const auto it = map_.find(outpoint);
  if (it == map_.end()) return parent_.PeekCoin(outpoint);
  if (it->second.coin.IsSpent()) return std::nullopt;
  return it->second.coin;
}

bool CoinsViewCache::HaveCoin(const OutPoint& outpoint) {
  const auto it = FetchCoin(outpoint);
  return it != map_.end() && !it->second.coin.IsSpent();
}

bool CoinsViewCache::HaveCoinInCache(const OutPoint& outpoint) const {
  const auto it = map_.find(outpoint);
  return it != map_.end() && !it->second.coin.IsSpent();
}

const Coin& CoinsViewCache::AccessCoin(const OutPoint& outpoint) {
  static const Coin kSpent;
  const auto it = FetchCoin(outpoint);
  return it == map_.end() ? kSpent : it->second.coin;
}

Hash256 CoinsViewCache::GetBestBlock() const { return best_block_ ? *best_block_ : parent_.GetBestBlock(); }

void CoinsViewCache::AddCoin(const OutPoint& outpoint, Coin coin, bool possible_overwrite) {
  if (coin.IsSpent()) throw std::logic_error("AddCoin: the coin is spent");
  if (IsUnspendable(coin.script)) return;
  auto it = map_.find(outpoint);
  bool fresh = false;
  if (!possible_overwrite) {
    if (it != map_.end() && !it->second.coin.IsSpent()) {
      throw std::logic_error("AddCoin: attempted to overwrite an unspent coin (possible_overwrite is false)");
    }
    // A DIRTY spent entry may hide an unspent coin in the parent, so only a clean or new entry is FRESH.
    fresh = it == map_.end() || !it->second.IsDirty();
  }
  if (it == map_.end()) {
    it = map_.try_emplace(outpoint).first;
    usage_ += kEntryOverhead;
  }
  usage_ -= it->second.coin.DynamicMemoryUsage();
  it->second.coin = std::move(coin);
  usage_ += it->second.coin.DynamicMemoryUsage();
  MarkDirty(*it);
  if (fresh) it->second.SetFresh();
}

bool CoinsViewCache::SpendCoin(const OutPoint& outpoint, Coin* moveout) {
  const auto it = FetchCoin(outpoint);
  if (it == map_.end()) return false;
  if (moveout != nullptr) *moveout = it->second.coin;
  if (it->second.IsFresh()) {
    Erase(it);
  } else {
    usage_ -= it->second.coin.DynamicMemoryUsage();
    it->second.coin.Clear();
    MarkDirty(*it);
  }
  return true;
}

void CoinsViewCache::Uncache(const OutPoint& outpoint) {
  const auto it = map_.find(outpoint);
  if (it != map_.end() && !it->second.IsDirty()) Erase(it);
}

void CoinsViewCache::EmplaceCoinInternalDANGER(const OutPoint& outpoint, Coin&& coin) {
  const auto [it, inserted] = map_.try_emplace(outpoint, std::move(coin));
  if (!inserted) return;
  usage_ += EntryUsage(it->second);
  MarkDirty(*it);
}

bool CoinsViewCache::HaveInputs(const Transaction& tx) {
  if (tx.IsCoinBase()) return true;
  for (const TxIn& in : tx.vin) {
    if (!HaveCoin(in.prevout)) return false;
  }
  return true;
}

void CoinsViewCache::BatchWrite(CoinsCursor& cursor, const Hash256& best_block) {
  for (CoinsCachePair* child = cursor.Begin(); child != cursor.End(); child = cursor.Next(*child)) {
    const CacheEntry& entry = child->second;
    auto it = map_.find(child->first);
    if (it == map_.end()) {
      // A FRESH spent entry never reached the parent: nothing to write.
      if (!(entry.IsFresh() && entry.coin.IsSpent())) {
        it = map_.try_emplace(child->first, entry.coin).first;
        usage_ += EntryUsage(it->second);
        MarkDirty(*it);
        if (entry.IsFresh()) it->second.SetFresh();
      }
      continue;
    }
    if (entry.IsFresh() && !it->second.coin.IsSpent()) {
      throw std::logic_error("BatchWrite: FRESH flag misapplied to a coin that exists in the parent cache");
    }
    if (it->second.IsFresh() && entry.coin.IsSpent()) {
      // The grandparent never saw this coin, so it can simply disappear.
      Erase(it);
      continue;
    }
    usage_ -= it->second.coin.DynamicMemoryUsage();
    it->second.coin = entry.coin;
    usage_ += it->second.coin.DynamicMemoryUsage();
    MarkDirty(*it);
  }
  best_block_ = best_block;
}

void CoinsViewCache::WriteToParent(bool wipe) {
  CoinsCursor cursor(*this, sentinel_, wipe);
  parent_.BatchWrite(cursor, GetBestBlock());
}

// The map's buckets are kept either way: this cache's memory figure has no part for them, so both forms of
// the contract hold.
void CoinsViewCache::Flush(bool /*reallocate_cache*/) {
  WriteToParent(/*wipe=*/true);
  map_.clear();
  usage_ = 0;
  dirty_count_ = 0;
}

void CoinsViewCache::Sync() { WriteToParent(/*wipe=*/false); }

void CoinsViewCache::Reset() {
  map_.clear();
  usage_ = 0;
  dirty_count_ = 0;
  best_block_.reset();
}

void CoinsViewCache::InsertEntry(const OutPoint& outpoint, Coin coin, uint8_t flags) {
  if (map_.count(outpoint) || ((flags & CacheEntry::kFresh) && !(flags & CacheEntry::kDirty))) {
    throw std::logic_error("InsertEntry: the entry exists, or FRESH without DIRTY");
  }
  const auto it = map_.try_emplace(outpoint, std::move(coin)).first;
  usage_ += EntryUsage(it->second);
  if (flags & CacheEntry::kDirty) MarkDirty(*it);
  if (flags & CacheEntry::kFresh) it->second.SetFresh();
}

const CacheEntry* CoinsViewCache::FindEntry(const OutPoint& outpoint) const {
  const auto it = map_.find(outpoint);
  return it == map_.end() ? nullptr : &it->second;
}

const std::vector<OutPoint>& CoinsViewCache::DirtyOrder() const {
  dirty_order_.clear();
  for (const CoinsCachePair* p = sentinel_.second.Next(); p != &sentinel_; p = p->second.Next()) {
    dirty_order_.push_back(p->first);
  }
  return dirty_order_;
}

void CoinsViewCache::SanityCheck() const {
  auto fail = [](const std::string& what) { throw std::logic_error("SanityCheck: " + what); };
  size_t usage = 0, dirty = 0;
  for (const auto& [outpoint, e] : map_) {
    usage += EntryUsage(e);
    if (e.IsFresh() && !e.IsDirty()) fail("FRESH without DIRTY at " + outpoint.ToString());
    if (e.coin.IsSpent() && !e.IsDirty()) fail("spent clean entry at " + outpoint.ToString());
    if (e.coin.IsSpent() && e.IsFresh()) fail("spent FRESH entry at " + outpoint.ToString());
    if (e.IsDirty() != (e.Next() != nullptr)) fail("DIRTY flag and list membership differ at " + outpoint.ToString());
    if (e.IsDirty()) ++dirty;
  }
  if (usage != usage_) fail("tracked usage " + std::to_string(usage_) + " != recomputed " + std::to_string(usage));
  size_t length = 0;
  for (const CoinsCachePair* p = &sentinel_;;) {
    const CoinsCachePair* next = p->second.Next();
    if (next == nullptr || next->second.Prev() != p) fail("list links differ between directions");
    if (next == &sentinel_) break;
    if (!next->second.IsDirty()) fail("clean entry in the dirty list at " + next->first.ToString());
    if (++length > map_.size()) fail("dirty list longer than the cache (a cycle?)");
    p = next;
  }
  if (length != dirty || dirty != dirty_count_) {
    fail("list length " + std::to_string(length) + ", DIRTY entries " + std::to_string(dirty) + ", dirty count " +
         std::to_string(dirty_count_));
  }
}

}  // namespace embedded
