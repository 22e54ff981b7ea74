#include "coins_model.h"

#include <algorithm>
#include <stdexcept>

#include "check.h"
#include "seam/coins_cache.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // model and tester: the cache under test is compiled out of line
namespace {

constexpr size_t kScriptInline = 36;  // Script is prevector<36, uint8_t>

// A copy-constructed or moved-in script: an exact heap block, or inline.
size_t HeapOfCopy(const std::optional<Coin>& c) { return c && c->script.size() > kScriptInline ? c->script.size() : 0; }

// A script copy-assigned over one that owns `heap` bytes: the block is reused unless too small.
size_t HeapAfterAssign(size_t heap, const std::optional<Coin>& c) {
  const size_t n = c ? c->script.size() : 0;
  return n > std::max(heap, kScriptInline) ? n : heap;
}

}  // namespace

std::optional<Coin> CheckedBaseView::PeekCoin(const OutPoint& outpoint) const {
  if (failing_ == outpoint) throw std::runtime_error("injected read failure at " + outpoint.ToString());
  const auto it = coins_.find(outpoint);
  if (it == coins_.end()) return std::nullopt;
  return it->second;
}

void CheckedBaseView::BatchWrite(seam::CoinsCursor& cursor, const Hash256& best_block) {
  last_batch_.clear();
  ++batches_;
  for (seam::CoinsCachePair* p = cursor.Begin(); p != cursor.End(); p = cursor.Next(*p)) {
    const auto& [outpoint, entry] = *p;
    HARNESS_CHECK(entry.IsDirty(), "the base received a non-DIRTY entry ", outpoint.ToString());
    HARNESS_CHECK(!(entry.IsFresh() && coins_.count(outpoint)),
                  "the base received a FRESH entry for a coin it has: ", outpoint.ToString());
    HARNESS_CHECK(!(entry.IsFresh() && entry.coin.IsSpent()) || seam::Fresh().kept_fresh,
                  "the base received a spent FRESH entry ", outpoint.ToString());
    last_batch_.push_back(outpoint);
    if (entry.coin.IsSpent()) {
      coins_.erase(outpoint);
    } else {
      coins_.insert_or_assign(outpoint, entry.coin);
    }
  }
  best_ = best_block;
}

std::optional<Coin> CoinsStackModel::Peek(int level, Key k) const {
  for (int l = level; l >= 0; --l) {
    if (const auto& e = levels_[l].entries[k]) return e->coin;
  }
  return base_[k];
}

const ModelEntry* CoinsStackModel::Find(int level, Key k) const {
  const auto& e = levels_[level].entries[k];
  return e ? &*e : nullptr;
}

std::optional<Coin> CoinsStackModel::Get(int level, Key k) {
  if (level < 0) return base_[k];
  const ModelEntry* e = Fetch(level, k);
  if (e == nullptr) return std::nullopt;
  return e->coin;
}

ModelEntry& CoinsStackModel::Insert(Level& l, Key k, ModelEntry e) {
  if (!l.entries[k]) ++l.size;
  return l.entries[k].emplace(std::move(e));
}

const ModelEntry* CoinsStackModel::Fetch(int level, Key k) {
  if (const auto& e = levels_[level].entries[k]) return &*e;
  std::optional<Coin> below = levels_[level].peeks ? Peek(level - 1, k) : Get(level - 1, k);
  if (!below) return nullptr;
  const size_t heap = HeapOfCopy(below);
  return &Insert(levels_[level], k, ModelEntry{std::move(below), false, false, heap});
}

bool CoinsStackModel::AddThrows(int level, Key k, const Coin& coin, bool possible_overwrite) const {
  if (IsUnspendable(coin.script)) return false;  // ignored before anything else is looked at
  const ModelEntry* e = Find(level, k);
  return !possible_overwrite && e != nullptr && e->coin.has_value();
}

void CoinsStackModel::MarkDirty(Level& l, Key k, ModelEntry& e) {
  if (!e.dirty) l.dirty_order.push_back(k);
  e.dirty = true;
}

void CoinsStackModel::Erase(Level& l, Key k) {
  l.dirty_order.erase(std::remove(l.dirty_order.begin(), l.dirty_order.end(), k), l.dirty_order.end());
  if (l.entries[k]) --l.size;
  l.entries[k].reset();
}

void CoinsStackModel::Add(int level, Key k, const Coin& coin, bool possible_overwrite) {
  if (IsUnspendable(coin.script)) return;
  Level& l = levels_[level];
  const bool fresh = !possible_overwrite && (!l.entries[k] || !l.entries[k]->dirty);
  ModelEntry& e = l.entries[k] ? *l.entries[k] : Insert(l, k, ModelEntry{});
  e.coin = coin;
  e.heap = HeapOfCopy(e.coin);  // AddCoin moves a fresh copy in
  MarkDirty(l, k, e);
  if (fresh && fresh_.on_add) e.fresh = true;
}

void CoinsStackModel::Emplace(int level, Key k, const Coin& coin) {
  Level& l = levels_[level];
  if (l.entries[k]) return;
  ModelEntry& e = Insert(l, k, ModelEntry{coin, false, false, HeapOfCopy(coin)});
  MarkDirty(l, k, e);
}

bool CoinsStackModel::Spend(int level, Key k) {
  const ModelEntry* found = Fetch(level, k);
  if (found == nullptr) return false;
  if (!found->coin && spend_of_spent_fails_) return false;  // already spent: nothing changes either way
  Level& l = levels_[level];
  ModelEntry& e = *l.entries[k];
  if (e.fresh && fresh_.spent_erased) {
    Erase(l, k);
  } else {
    e.fresh = e.fresh && fresh_.kept_fresh;
    e.coin.reset();
    e.heap = 0;
    MarkDirty(l, k, e);
  }
  return true;
}

void CoinsStackModel::Reset(int level) {
  const Level& old = levels_[level];
  Level fresh;
  fresh.peeks = old.peeks;
  fresh.kept_memory = old.kept_memory;
  fresh.was_reset = true;
  levels_[level] = std::move(fresh);
}

const char* CoinsStackModel::MemoryChange(int level) const {
  const Level& l = levels_[level];
  if (l.was_reset && l.kept_memory) return "reset_guard+flush_keeping_memory";
  if (l.was_reset) return "reset_guard";
  if (l.kept_memory) return "flush_keeping_memory";
  return nullptr;
}

void CoinsStackModel::FlushedMemory(int level, bool kept) {
  Level& l = levels_[level];
  if (kept) {
    l.kept_memory = true;
  } else {
    l.was_reset = l.kept_memory = false;  // a new map, whatever came before
  }
}

void CoinsStackModel::Uncache(int level, Key k) {
  const ModelEntry* e = Find(level, k);
  if (e != nullptr && !e->dirty) Erase(levels_[level], k);
}

CoinsStackModel::Written CoinsStackModel::WriteDown(int level, bool wipe) {
  Level& child = levels_[level];
  Written out;
  for (const Key k : child.dirty_order) {
    const ModelEntry& ce = *child.entries[k];
    if (level > 0 && ce.fresh && levels_[level - 1].entries[k] && levels_[level - 1].entries[k]->coin) {
      out.misapplied = true;  // BatchWrite throws here
      break;
    }
    out.order.push_back(k);
    if (level == 0) {
      base_[k] = ce.coin;
      continue;
    }
    // A moved coin brings its heap block along; a copied one gets an exact block or reuses the parent's.
    const bool moved = seam::kBatchWriteMovesErasedCoins && (wipe || !ce.coin);
    Level& parent = levels_[level - 1];
    if (!parent.entries[k]) {
      if (ce.fresh && !ce.coin) continue;
      ModelEntry& pe =
          Insert(parent, k,
                 ModelEntry{ce.coin, false, ce.fresh && fresh_.through_write, moved ? ce.heap : HeapOfCopy(ce.coin)});
      MarkDirty(parent, k, pe);
      continue;
    }
    ModelEntry& pe = *parent.entries[k];
    if (pe.fresh && !ce.coin && fresh_.written_spent_erased) {
      Erase(parent, k);
      continue;
    }
    pe.fresh = pe.fresh && (ce.coin || fresh_.kept_fresh);
    pe.heap = moved ? ce.heap : HeapAfterAssign(pe.heap, ce.coin);
    pe.coin = ce.coin;
    MarkDirty(parent, k, pe);
  }
  if (out.misapplied) {
    // As a failed sync leaves it: the entries written before the failure cleaned (spent ones erased), the
    // rest still DIRTY in their order, no best block handed down.
    child.dirty_order.erase(child.dirty_order.begin(), child.dirty_order.begin() + static_cast<long>(out.order.size()));
    for (const Key k : out.order) {
      ModelEntry& e = *child.entries[k];
      if (e.coin) {
        e.dirty = e.fresh = false;
      } else {
        Erase(child, k);
      }
    }
    return out;
  }
  const Hash256 best = BestBlock(level);
  if (seam::kWriteForwardsUnsetBestBlock) {
    // The level's own best block, set or not: an unset one reaches the base as the all-zero hash.
    const std::optional<Hash256>& own = levels_[level].best;
    if (level == 0) {
      base_best_ = own.value_or(Hash256{});
    } else {
      levels_[level - 1].best = own;
    }
  } else if (level == 0) {
    base_best_ = best;
  } else {
    levels_[level - 1].best = best;
  }
  for (Key k = 0; k < kKeys; ++k) {
    auto& e = child.entries[k];
    if (!e) continue;
    if (wipe || !e->coin) {
      e.reset();
      --child.size;
    } else {
      e->dirty = e->fresh = false;
    }
  }
  child.dirty_order.clear();
  return out;
}

size_t CoinsStackModel::Usage(int level) const {
  size_t usage = 0;
  for (const auto& e : levels_[level].entries) {
    if (e) usage += seam::CoinsViewCache::kEntryOverhead + seam::ScriptHeapCharge(e->heap);
  }
  return usage;
}

Hash256 CoinsStackModel::ReadBestBlock(int level) {
  const Hash256 best = BestBlock(level);
  // An all-zero answer is "unset" to a cache, so storing it changes nothing.
  if (seam::kGetBestBlockMemoizes && best != Hash256{}) {
    for (int l = level; l >= 0 && !levels_[l].best; --l) levels_[l].best = best;
  }
  return best;
}

Hash256 CoinsStackModel::BestBlock(int level) const {
  for (int l = level; l >= 0; --l) {
    if (levels_[l].best) return *levels_[l].best;
  }
  return base_best_;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
