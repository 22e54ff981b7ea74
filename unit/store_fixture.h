// A fixed flush for the coins store tests, shared by the unit tests and the crash child process
// (store_crash_child.cpp) so both run exactly the same flush: an old state of kOldCoins coins at block A,
// then a flush to block B that spends some of them, overwrites others and adds new ones.
#pragma once

#include <optional>
#include <vector>

#include "seam/coins_cache.h"
#include "coins_tester.h"
#include "rng.h"
#include "seam/coins_store.h"

namespace store_fixture {

struct Entry {
  OutPoint outpoint;
  std::optional<Coin> coin;  // nullopt: spent (erased by the flush)
};

inline constexpr size_t kOldCoins = 40;

inline Hash256 BlockA() { return harness::BlockHash(0xa0); }
inline Hash256 BlockB() { return harness::BlockHash(0xb0); }

// Outpoint i: 4 per txid, txids derived from i / 4.
inline OutPoint Outpoint(uint32_t i) {
  harness::Rng rng(0xf1a5 + i / 4);
  OutPoint o;
  for (auto& b : o.txid.bytes) b = static_cast<uint8_t>(rng.Next());
  o.n = i % 4 == 3 ? 200 + i : i % 4;  // some indexes with a two-byte varint
  return o;
}

// A spendable coin from the coins tester's table (every script form and amount class).
inline Coin CoinFor(uint32_t i) {
  const auto& table = harness::CoinTable();
  return table[i % 62];  // 62 and 63 are unspendable
}

inline std::vector<Entry> OldState() {
  std::vector<Entry> out;
  for (uint32_t i = 0; i < kOldCoins; ++i) out.push_back({Outpoint(i), CoinFor(i)});
  return out;
}

// The flush to B: spends every third old coin, overwrites every third (offset by one), adds 50 new ones
// and erases a few that never existed (spent DIRTY entries the store may not hold).
inline std::vector<Entry> FlushToB() {
  std::vector<Entry> out;
  for (uint32_t i = 0; i < kOldCoins; ++i) {
    if (i % 3 == 0) out.push_back({Outpoint(i), std::nullopt});
    if (i % 3 == 1) out.push_back({Outpoint(i), CoinFor(i + 17)});
  }
  for (uint32_t i = kOldCoins; i < kOldCoins + 50; ++i) out.push_back({Outpoint(i), CoinFor(i * 7)});
  for (uint32_t i = 500; i < 504; ++i) out.push_back({Outpoint(i), std::nullopt});
  return out;
}

// A cache holding `entries` as DIRTY entries, in order: how a node's cache looks at the start of a flush.
class LoadedCache : public seam::CoinsViewCache {
 public:
  LoadedCache(seam::CoinsView* parent, const std::vector<Entry>& entries, const Hash256& best)
      : seam::CoinsViewCache(parent) {
    for (const Entry& e : entries) InsertEntry(e.outpoint, e.coin ? *e.coin : Coin{}, seam::CacheEntry::kDirty);
    SetBestBlock(best);
  }
};

// Flushes `entries` into `store` towards `best`.
inline void Flush(seam::CoinsStore& store, const std::vector<Entry>& entries, const Hash256& best) {
  LoadedCache cache(&store, entries, best);
  cache.Flush();
}

}  // namespace store_fixture
