// Coins cache sync: the subject's CoinsViewCache::Sync, which walks the intrusive list of DIRTY entries,
// against FullScanCache::Sync, the design before that list (Bitcoin Core before 28.0): the same hash map
// of entries with flags, synced by visiting every entry and skipping the clean ones. Both hand each DIRTY
// entry to a parent that only counts it, so the time is the sync's own. Caches of `entries` coins of which
// `dirty_permille`/1000 are re-dirtied (overwritten, not FRESH) before each timed sync; the sync leaves them
// resident and clean, so every iteration starts from the same state. The time is the syncing thread's CPU
// time (a sync of a million entries outlasts a scheduler time slice, and these machines are shared).
#include <benchmark/benchmark.h>

#include <time.h>

#include <map>
#include <memory>
#include <unordered_map>

#include "bench_data.h"
#include "coins/cache.h"

namespace {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

// A base view that accepts batches and only counts what arrives.
class CountingView : public CoinsView {
 public:
  size_t written = 0;
  std::optional<Coin> GetCoin(const OutPoint&) override { return std::nullopt; }
  std::optional<Coin> PeekCoin(const OutPoint&) const override { return std::nullopt; }
  Hash256 GetBestBlock() const override { return {}; }
  void BatchWrite(CoinsCursor& cursor, const Hash256&) override {
    for (CoinsCachePair* p = cursor.Begin(); p != cursor.End(); p = cursor.Next(*p)) {
      benchmark::DoNotOptimize(p->second.coin.amount);
      ++written;
    }
  }
};

// The baseline: entries with flags and no list; Sync visits every entry.
class FullScanCache {
 public:
  static constexpr uint8_t kDirty = 1;
  struct Entry {
    Coin coin;
    uint8_t flags = 0;
  };
  void Add(const OutPoint& outpoint, Coin coin) { map_[outpoint] = Entry{std::move(coin), kDirty}; }
  // Writes every DIRTY entry to the counter; spent ones are erased, unspent ones stay, clean.
  void Sync(size_t& written) {
    for (auto it = map_.begin(); it != map_.end();) {
      if (!(it->second.flags & kDirty)) {
        ++it;
        continue;
      }
      benchmark::DoNotOptimize(it->second.coin.amount);
      ++written;
      if (it->second.coin.IsSpent()) {
        it = map_.erase(it);
      } else {
        it->second.flags = 0;
        ++it;
      }
    }
  }
  size_t size() const { return map_.size(); }

 private:
  std::unordered_map<OutPoint, Entry, OutPointHasher> map_;
};

double ThreadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Population {
  std::vector<OutPoint> outpoints;
  std::vector<Coin> coins;
};

// The same coins for every benchmark of one size: 2 to 3 outputs per txid, scripts from kScriptMix.
const Population& PopulationOf(size_t entries) {
  static std::map<size_t, std::unique_ptr<Population>> cache;
  std::unique_ptr<Population>& p = cache[entries];
  if (p) return *p;
  p = std::make_unique<Population>();
  harness::Rng rng(entries);
  bench::ForEachNewCoin(rng, entries, [&p](const OutPoint& outpoint, Coin coin) {
    p->outpoints.push_back(outpoint);
    p->coins.push_back(std::move(coin));
  });
  return *p;
}

// Every (entries / dirty)-th coin, `dirty` of them in all.
std::vector<size_t> DirtySelection(size_t entries, size_t dirty) {
  std::vector<size_t> picks;
  for (size_t k = 0; k < dirty; ++k) picks.push_back(k * entries / dirty);
  return picks;
}

size_t DirtyCount(const benchmark::State& state) {
  return std::max<size_t>(1, static_cast<size_t>(state.range(0)) * static_cast<size_t>(state.range(1)) / 1000);
}

void Report(benchmark::State& state, size_t dirty) {
  state.counters["dirty"] = static_cast<double>(dirty);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * dirty));
}

void BM_SyncDirtyList(benchmark::State& state) {
  const size_t entries = static_cast<size_t>(state.range(0));
  const Population& pop = PopulationOf(entries);
  CountingView parent;
  CoinsViewCache cache(&parent);
  for (size_t i = 0; i < entries; ++i) cache.AddCoin(pop.outpoints[i], pop.coins[i], false);
  cache.Sync();
  const std::vector<size_t> picks = DirtySelection(entries, DirtyCount(state));
  for (auto _ : state) {
    for (size_t i : picks) cache.AddCoin(pop.outpoints[i], pop.coins[i], true);
    const double start = ThreadSeconds();
    cache.Sync();
    state.SetIterationTime(ThreadSeconds() - start);
  }
  const size_t expected = entries + state.iterations() * picks.size();
  if (cache.GetCacheSize() != entries || cache.GetDirtyCount() != 0 || parent.written != expected) {
    state.SkipWithError("the dirty-list sync wrote the wrong entries");
  }
  Report(state, picks.size());
}

void BM_SyncFullScan(benchmark::State& state) {
  const size_t entries = static_cast<size_t>(state.range(0));
  const Population& pop = PopulationOf(entries);
  FullScanCache cache;
  size_t written = 0;
  for (size_t i = 0; i < entries; ++i) cache.Add(pop.outpoints[i], pop.coins[i]);
  cache.Sync(written);
  const std::vector<size_t> picks = DirtySelection(entries, DirtyCount(state));
  for (auto _ : state) {
    for (size_t i : picks) cache.Add(pop.outpoints[i], pop.coins[i]);
    const double start = ThreadSeconds();
    cache.Sync(written);
    state.SetIterationTime(ThreadSeconds() - start);
  }
  if (cache.size() != entries || written != entries + state.iterations() * picks.size()) {
    state.SkipWithError("the full-scan sync wrote the wrong entries");
  }
  Report(state, picks.size());
}

// {entries, dirty per mille}: 10^5 and 10^6 entries, 0.1% to 100% dirty.
void SyncArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"entries", "dirty_permille"})->UseManualTime()->Unit(benchmark::kMicrosecond);
  for (int64_t entries : {100'000, 1'000'000}) {
    for (int64_t permille : {1, 10, 100, 1000}) b->Args({entries, permille});
  }
}

}  // namespace

BENCHMARK(BM_SyncDirtyList)->Apply(SyncArgs);
BENCHMARK(BM_SyncFullScan)->Apply(SyncArgs);
