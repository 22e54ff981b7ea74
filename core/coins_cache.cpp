#include "core/coins_cache.h"
#include "core/coins_cache_features.h"
#include "core/coins_cache_shims.h"
#include "core/coins_views.h"
#include "core/convert.h"

#include <coins.h>
#include <memusage.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <uint256.h>

#include <array>
#include <cstdio>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace core_adapter {

SUITE_CORE_CHECK_ANSWERS(SUITE_CORE_COINS_CACHE_FEATURES)

namespace {

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
std::optional<::Coin> CorePeek(const C& cache, const COutPoint& outpoint) {
  return cache.PeekCoin(outpoint);
}

template <class C>
void CoreReset(C& cache) {
  [[maybe_unused]] const auto guard = cache.CreateResetGuard();  // Reset() runs as it goes
}

}  // namespace

// ---- CoinsCursor ----

CoinsCursor::CoinsCursor(::CoinsViewCacheCursor& core) : core_(core) {}

CoinsCursor::~CoinsCursor() = default;

CoinsCachePair* CoinsCursor::Yield(CorePair* at) const {
  current_.reset();  // the pair's key is const: rebuild it in place
  at_ = at;
  if (at == core_.End()) return End();
  current_.emplace(FromCore(at->first), CacheEntry(FromCore(at->second.coin), shims::Flags(at->second)));
  return &*current_;
}

CoinsCachePair* CoinsCursor::Begin() const { return Yield(core_.Begin()); }

CoinsCachePair* CoinsCursor::Next(CoinsCachePair& current) {
  if (!current_ || &current != &*current_) {
    throw std::logic_error("CoinsCursor::Next: not the entry the cursor is at");
  }
  return Yield(core_.NextAndMaybeErase(*at_));
}

// ---- CoinsViewCache ----

CoinsViewCache::CoinsViewCache(CoinsView* parent)
    : CoinsViewCache(
          parent, [](::CCoinsView* base) { return std::make_unique<::CCoinsViewCache>(base, /*deterministic=*/true); },
          /*peek_parent=*/false) {}

CoinsViewCache::CoinsViewCache(CoinsView* parent, MakeCore make, bool peek_parent)
    : parent_(*parent), make_(std::move(make)) {
  ::CCoinsView* base = peek_parent ? nullptr : parent->CoreView();
  if (base == nullptr) {
    bridge_ = MakeBridge(*parent, peek_parent);
    base = bridge_.get();
  }
  // Without views of the suite's own nothing records the writes; only coins_cache reads them, and it is off.
  if constexpr (!kDirtyListInternal && kOwnViews) {
    recorder_ = MakeRecorder(*base, last_write_);
    base = recorder_.get();
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
    // A local entry answers (a spent one: none), else the parent's PeekCoin; only the entries' internal
    // form sees spent entries (seam::kCoinsApi.peek).
    return IfTreeHas<kEntriesInternal, std::optional<embedded::Coin>>(
        "CCoinsView::PeekCoin (#34165) or CCoinsViewCache's cacheCoins", *cache_,
        [&](auto& c) -> std::optional<embedded::Coin> {
          CacheEntry local;
          if (!shims::FindEntry(c, ToCore(outpoint), local)) return parent_.PeekCoin(outpoint);
          if (local.coin.IsSpent()) return std::nullopt;
          return std::move(local.coin);
        });
  }
}

bool CoinsViewCache::HaveCoin(const embedded::OutPoint& outpoint) {
  return IfTreeHas<SUITE_CORE_cache_have_coin, bool>("CCoinsViewCache::HaveCoin", *cache_,
                                                     [&](auto& c) { return c.HaveCoin(ToCore(outpoint)); });
}

embedded::Hash256 CoinsViewCache::GetBestBlock() const { return FromCore(cache_->GetBestBlock()); }

void CoinsViewCache::SetBestBlock(const embedded::Hash256& best_block) { cache_->SetBestBlock(ToCore(best_block)); }

void CoinsViewCache::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  RunWrite(
      *cache_, [&](auto& c) { return c.BatchWrite(cursor.core(), ToCore(best_block)); },
      "BatchWrite: Core's cache refused the batch");
}

std::vector<embedded::Hash256> CoinsViewCache::GetHeadBlocks() const {
  return IfTreeHas<SUITE_CORE_cache_backed_store_reads, std::vector<embedded::Hash256>>(
      "CCoinsViewCache::GetHeadBlocks", *cache_, [](auto& c) { return FromCore(c.GetHeadBlocks()); });
}

size_t CoinsViewCache::EstimateSize() const {
  return IfTreeHas<SUITE_CORE_cache_backed_store_reads, size_t>("CCoinsViewCache::EstimateSize", *cache_,
                                                                [](auto& c) { return c.EstimateSize(); });
}

const embedded::Coin& CoinsViewCache::AccessCoin(const embedded::OutPoint& outpoint) {
  accessed_ = IfTreeHas<SUITE_CORE_cache_access_coin, embedded::Coin>(
      "CCoinsViewCache::AccessCoin", *cache_, [&](auto& c) { return FromCore(c.AccessCoin(ToCore(outpoint))); });
  return accessed_;
}

bool CoinsViewCache::HaveCoinInCache(const embedded::OutPoint& outpoint) const {
  return IfTreeHas<SUITE_CORE_cache_have_coin_in_cache, bool>(
      "CCoinsViewCache::HaveCoinInCache", *cache_, [&](auto& c) { return c.HaveCoinInCache(ToCore(outpoint)); });
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

void CoinsViewCache::Uncache(const embedded::OutPoint& outpoint) {
  IfTreeHas<SUITE_CORE_cache_uncache, void>("CCoinsViewCache::Uncache", *cache_,
                                            [&](auto& c) { c.Uncache(ToCore(outpoint)); });
}

void CoinsViewCache::EmplaceCoinInternalDANGER(const embedded::OutPoint& outpoint, embedded::Coin&& coin) {
  IfTreeHas<SUITE_CORE_cache_emplace, void>("CCoinsViewCache::EmplaceCoinInternalDANGER", *cache_, [&](auto& c) {
    c.EmplaceCoinInternalDANGER(ToCore(outpoint), ToCore(coin));
  });
}

bool CoinsViewCache::HaveInputs(const embedded::Transaction& tx) {
  return IfTreeHas<SUITE_CORE_cache_have_inputs, bool>("CCoinsViewCache::HaveInputs", *cache_,
                                                       [&](auto& c) { return c.HaveInputs(CTransaction(ToCore(tx))); });
}

HashedTransaction::HashedTransaction(const embedded::Transaction& tx)
    : tx_(std::make_shared<const CTransaction>(ToCore(tx))) {}

void AddCoins(CoinsViewCache& cache, const HashedTransaction& tx, uint32_t height, bool check_for_overwrite) {
  if (height > static_cast<uint32_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("AddCoins: height " + std::to_string(height) + " does not fit Core's int");
  }
  // Unqualified: Core's AddCoins is found by argument-dependent lookup, where the tree has it.
  IfTreeHas<SUITE_CORE_add_coins, void>("AddCoins", *cache.cache_, [&](auto& c) {
    AddCoins(c, tx.core(), static_cast<int>(height), check_for_overwrite);
  });
}

const embedded::Coin& AccessByTxid(CoinsViewCache& cache, const embedded::Hash256& txid) {
  cache.accessed_ = IfTreeHas<SUITE_CORE_access_by_txid, embedded::Coin>("AccessByTxid", *cache.cache_, [&](auto& c) {
    return FromCore(AccessByTxid(c, Txid::FromUint256(ToCore(txid))));
  });
  return cache.accessed_;
}

void CoinsViewCache::Flush(bool reallocate_cache) {
  RunWrite(
      *cache_,
      [reallocate_cache](auto& c) {
        if constexpr (kFlushCanKeepMemory) {
          return c.Flush(reallocate_cache);
        } else {
          return c.Flush();
        }
      },
      "Flush: the parent refused the batch (Core's Flush returned false)");
}

void CoinsViewCache::Sync() {
  RunWrite(
      *cache_, [](auto& c) { return c.Sync(); }, "Sync: the parent refused the batch (Core's Sync returned false)");
}

void CoinsViewCache::Reset() {
  if constexpr (kResetIsCores) {
    CoreReset(*cache_);
  } else {
    ::CCoinsView* base = recorder_ ? recorder_.get() : bridge_ ? bridge_.get() : parent_.CoreView();
    cache_.reset();
    cache_ = make_(base);
  }
}

size_t CoinsViewCache::GetCacheSize() const {
  return IfTreeHas<SUITE_CORE_cache_sizes, size_t>("CCoinsViewCache::GetCacheSize", *cache_,
                                                   [](auto& c) { return c.GetCacheSize(); });
}

size_t CoinsViewCache::DynamicMemoryUsage() const {
  return IfTreeHas<SUITE_CORE_cache_sizes, size_t>("CCoinsViewCache::DynamicMemoryUsage", *cache_,
                                                   [](auto& c) { return c.DynamicMemoryUsage(); });
}

HARNESS_NO_FUZZ_COVERAGE size_t CoinsViewCache::CoinsUsage() const { return shims::CoinsUsage(*cache_); }

size_t CoinsViewCache::ScriptHeapCharge(size_t bytes) { return memusage::MallocUsage(bytes); }

HARNESS_NO_FUZZ_COVERAGE size_t CoinsViewCache::GetDirtyCount() const { return shims::DirtyCount(*cache_); }

HARNESS_NO_FUZZ_COVERAGE const CacheEntry* CoinsViewCache::FindEntry(const embedded::OutPoint& outpoint) const {
  return shims::FindEntry(*cache_, ToCore(outpoint), found_) ? &found_ : nullptr;
}

HARNESS_NO_FUZZ_COVERAGE const std::vector<embedded::OutPoint>& CoinsViewCache::DirtyOrder() const {
  shims::DirtyOrder(*cache_, dirty_order_);
  return dirty_order_;
}

HARNESS_NO_FUZZ_COVERAGE void CoinsViewCache::SanityCheck() const {
  if (const std::string error = shims::StructureError(*cache_); !error.empty()) {
    throw std::logic_error("SanityCheck: " + error);
  }
  if constexpr (SUITE_CORE_cache_sanity_check) {  // Core's own: asserts
    IfTreeHas<SUITE_CORE_cache_sanity_check, void>("CCoinsViewCache::SanityCheck", *cache_,
                                                   [](const auto& cache) { cache.SanityCheck(); });
  }
}

void CoinsViewCache::InsertEntry(const embedded::OutPoint& outpoint, embedded::Coin coin, uint8_t flags) {
  if ((flags & ~(CacheEntry::kDirty | CacheEntry::kFresh)) ||
      ((flags & CacheEntry::kFresh) && !(flags & CacheEntry::kDirty))) {
    throw std::logic_error("InsertEntry: flags must be DIRTY, DIRTY+FRESH or none");
  }
  if (CacheEntry existing; shims::FindEntry(*cache_, ToCore(outpoint), existing)) {
    throw std::logic_error("InsertEntry: the entry exists");
  }
  shims::InsertEntry(*cache_, ToCore(outpoint), ToCore(coin), flags);
}

// ---- CoinsViewErrorCatcher ----

namespace {

template <class Catcher = ::CCoinsViewErrorCatcher>
std::unique_ptr<::CCoinsView> MakeCatcher(::CCoinsView* base) {
  return std::make_unique<Catcher>(base);
}

}  // namespace

CoinsViewErrorCatcher::CoinsViewErrorCatcher(CoinsView* parent) {
  ::CCoinsView* base = parent->CoreView();
  if (base == nullptr) {
    bridge_ = MakeBridge(*parent, /*peek=*/false);
    base = bridge_.get();
  }
  catcher_ = IfTreeHas<SUITE_CORE_error_catcher, std::unique_ptr<::CCoinsView>>(
      "CCoinsViewErrorCatcher", *base, [](auto& b) { return MakeCatcher(&b); });
}

CoinsViewErrorCatcher::~CoinsViewErrorCatcher() = default;

void CoinsViewErrorCatcher::AddReadErrCallback(std::function<void()> callback) {
  IfTreeHas<SUITE_CORE_error_catcher, void>("CCoinsViewErrorCatcher", *catcher_, [&](auto& view) {
    static_cast<Later<decltype(view), ::CCoinsViewErrorCatcher>&>(view).AddReadErrCallback(std::move(callback));
  });
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

bool CoinsViewErrorCatcher::HaveCoin(const embedded::OutPoint& outpoint) {
  return HaveCoinOf(*catcher_, ToCore(outpoint));
}

embedded::Hash256 CoinsViewErrorCatcher::GetBestBlock() const { return FromCore(catcher_->GetBestBlock()); }

void CoinsViewErrorCatcher::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  RunWrite(
      *catcher_, [&](auto& c) { return c.BatchWrite(cursor.core(), ToCore(best_block)); },
      "BatchWrite: the view below the error catcher refused the batch");
}

std::vector<embedded::Hash256> CoinsViewErrorCatcher::GetHeadBlocks() const {
  return FromCore(catcher_->GetHeadBlocks());
}

size_t CoinsViewErrorCatcher::EstimateSize() const { return catcher_->EstimateSize(); }

::CCoinsView* CoinsViewErrorCatcher::CoreView() { return catcher_.get(); }

// ---- behaviours in two forms, asked of the tree by running them ----

namespace {

// A parent with no coins, of the adapter's own interface, for the scenarios below: it records the order of
// the entries each write hands it.
class NoCoins final : public CoinsView {
 public:
  std::optional<embedded::Coin> GetCoin(const embedded::OutPoint&) override { return std::nullopt; }
  std::optional<embedded::Coin> PeekCoin(const embedded::OutPoint&) const override { return std::nullopt; }
  embedded::Hash256 GetBestBlock() const override { return {}; }
  void BatchWrite(CoinsCursor& cursor, const embedded::Hash256&) override {
    for (CoinsCachePair* p = cursor.Begin(); p != cursor.End(); p = cursor.Next(*p)) order.push_back(p->first);
  }
  std::vector<embedded::OutPoint> order;
};

embedded::OutPoint ScenarioOutpoint(uint8_t n = 0) {
  embedded::OutPoint o;
  o.txid.bytes[0] = 0x5c;
  o.n = n;
  return o;
}

void SayForm(const char* name, const char* form) {
  std::fprintf(stderr, "Bitcoin Core behaviour %s: %s\n", name, form);
}

}  // namespace

// Every scenario stands Core's caches on a view of the suite's own; without one (kOwnViews) it is not asked
// and the first form is taken, which only coins_store's model then uses (coins_cache is off).
bool SpendOfSpentFails() {
  static const bool fails = [] {
    if constexpr (!kOwnViews) {
      SayForm("spend_of_spent",
              "not asked (no view of the suite's own on this tree): SpendCoin of a spent entry returns true");
      return false;
    }
    NoCoins parent;
    CoinsViewCache cache(&parent);
    const embedded::OutPoint o = ScenarioOutpoint();
    cache.AddCoin(o, embedded::Coin(1, embedded::Script(1, 0x51), 1, false), /*possible_overwrite=*/true);
    if (!cache.SpendCoin(o)) throw std::logic_error("spend_of_spent: SpendCoin of a coin just added returned false");
    const bool again = cache.SpendCoin(o);
    SayForm("spend_of_spent", again ? "SpendCoin of a spent entry returns true"
                                    : "SpendCoin of a spent entry returns false and changes nothing");
    return !again;
  }();
  return fails;
}

bool DirtyOrderIsFirstDirtied() {
  if constexpr (!kOwnViews) {
    SayForm("dirty_order", "unknown (no view of the suite's own records a write on this tree): any order");
    return false;
  } else {
    static const bool first = [] {
      const embedded::Coin coin(1, embedded::Script(1, 0x51), 1, false);
      const embedded::Coin other(2, embedded::Script(1, 0x52), 1, false);
      const embedded::OutPoint x = ScenarioOutpoint(0), a = ScenarioOutpoint(1), b = ScenarioOutpoint(2),
                               c = ScenarioOutpoint(3);
      NoCoins base;
      CoinsViewCache mid(&base);
      CoinsViewCache top(&mid);
      mid.AddCoin(x, coin, /*possible_overwrite=*/true);  // DIRTY in the parent first
      top.AddCoin(a, coin, true);
      top.AddCoin(b, coin, true);
      top.AddCoin(x, other, true);
      top.AddCoin(a, other, true);  // DIRTY again: keeps its place
      top.AddCoin(c, coin, true);
      if (!top.SpendCoin(b)) throw std::logic_error("dirty_order: SpendCoin of a coin just added returned false");
      top.SetBestBlock(embedded::Hash256{});
      top.Flush();  // into mid, in top's order a b x c; x already DIRTY there keeps its place
      mid.Flush();
      const bool first_dirtied = base.order == std::vector<embedded::OutPoint>{x, a, b, c};
      std::string seen;
      for (const embedded::OutPoint& o : base.order) seen += (seen.empty() ? "" : " ") + std::to_string(o.n);
      SayForm("dirty_order", first_dirtied ? "a write hands the parent the DIRTY entries in first-dirtied order"
                                           : ("a write hands the parent the DIRTY entries in an order of the tree's "
                                              "own (0 1 2 3 expected, " +
                                              seen + " seen): compared as sets")
                                                 .c_str());
      return first_dirtied;
    }();
    return first;
  }
}

const seam::FreshRules& Fresh() {
  static const seam::FreshRules rules = [] {
    seam::FreshRules r;
    if constexpr (!kEntriesInternal || !kOwnViews) {
      SayForm("fresh",
              "not asked (the entries' flags, or a view of the suite's own, missing on this tree): the "
              "model's rule");
    } else {
      const embedded::Coin coin(1, embedded::Script(1, 0x51), 1, false);
      const auto flags = [](const CoinsViewCache& cache, const embedded::OutPoint& o) -> std::optional<uint8_t> {
        const CacheEntry* e = cache.FindEntry(o);
        return e ? std::optional<uint8_t>(e->flags()) : std::nullopt;
      };
      NoCoins base;
      CoinsViewCache parent(&base);
      CoinsViewCache child(&parent);
      child.AddCoin(ScenarioOutpoint(0), coin, /*possible_overwrite=*/false);
      r.on_add = flags(child, ScenarioOutpoint(0)).value_or(0) & CacheEntry::kFresh;
      if (r.on_add) {
        child.SetBestBlock(embedded::Hash256{});
        child.Flush();
        r.through_write = flags(parent, ScenarioOutpoint(0)).value_or(0) & CacheEntry::kFresh;
      }
      CoinsViewCache spender(&base);
      spender.AddCoin(ScenarioOutpoint(1), coin, /*possible_overwrite=*/false);
      if (flags(spender, ScenarioOutpoint(1)).value_or(0) & CacheEntry::kFresh) {
        if (!spender.SpendCoin(ScenarioOutpoint(1)))
          throw std::logic_error("fresh: SpendCoin of a coin just added returned false");
        const std::optional<uint8_t> kept = flags(spender, ScenarioOutpoint(1));
        r.spent_erased = !kept.has_value();
        r.kept_fresh = kept.value_or(0) & CacheEntry::kFresh;
        // The same entry spent in a cache above it and written down.
        CoinsViewCache holder(&base);
        holder.AddCoin(ScenarioOutpoint(2), coin, /*possible_overwrite=*/false);
        CoinsViewCache above(&holder);
        if (!above.SpendCoin(ScenarioOutpoint(2)))
          throw std::logic_error("fresh: SpendCoin of a coin below returned false");
        above.SetBestBlock(embedded::Hash256{});
        above.Flush();
        r.written_spent_erased = !flags(holder, ScenarioOutpoint(2)).has_value();
      }
      const bool first = r.on_add && r.through_write && r.spent_erased && r.written_spent_erased;
      SayForm("fresh",
              first ? "FRESH on an add without possible_overwrite and through a write, a spent FRESH entry erased"
                    : (std::string("FRESH ") + (r.on_add ? "on an add without possible_overwrite" : "not on an add") +
                       (r.through_write ? ", through a write" : ", not through a write") +
                       (r.spent_erased ? ", a spent FRESH entry erased"
                        : r.kept_fresh ? ", a spent FRESH entry kept FRESH"
                                       : ", a spent FRESH entry kept DIRTY") +
                       (r.written_spent_erased == r.spent_erased ? ""
                        : r.written_spent_erased                 ? " (erased when a write spends it)"
                                                                 : " (kept when a write spends it)") +
                       ": the model follows")
                          .c_str());
    }
    return r;
  }();
  return rules;
}

bool BatchWriteRefusesSpentFresh() {
  if constexpr (!kInsertInternal || !kOwnViews) {
    return false;  // no way to make such an entry here; the tests that need one are not run
  } else {
    static const bool refuses = [] {
      struct Exact : CoinsViewCache {
        using CoinsViewCache::CoinsViewCache;
        using CoinsViewCache::InsertEntry;
      };
      NoCoins base;
      CoinsViewCache parent(&base);
      Exact child(&parent);
      child.InsertEntry(ScenarioOutpoint(), embedded::Coin{}, CacheEntry::kDirty | CacheEntry::kFresh);
      bool threw = false;
      try {
        child.Flush();
      } catch (const std::logic_error&) {
        threw = true;
      }
      SayForm("spent_fresh_in_batch", threw ? "BatchWrite refuses a spent FRESH entry (std::logic_error)"
                                            : "BatchWrite skips a spent FRESH entry");
      return threw;
    }();
    return refuses;
  }
}

}  // namespace core_adapter
