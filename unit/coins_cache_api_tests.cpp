// The cache's API around its dirty list (docs/semantics.md §1, "A transaction's coins", "Bulk loads" and
// "Read errors"): AddCoins and its overwrite rules, HaveInputs and the inputs it fetches, AccessByTxid's hit
// and miss, EmplaceCoinInternalDANGER's entry and accounting, and the error catcher's callbacks and abort.
// The funding table's txids are checked against the reference hash first: every other test names outputs
// by them.
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "coins_model.h"
#include "coins_tables.h"
#include "coins_tester.h"
#include "hash_ref.h"
#include "seam/coins_cache.h"
#include "test_util.h"

namespace {

using harness::FundingTable;
using harness::HashedFundingTable;
using harness::kTableIndexes;
using harness::OutpointTable;

// Output j (of kTableIndexes) of funding transaction t.
const OutPoint& Out(size_t t, size_t j) { return OutpointTable()[4 * t + j]; }

Coin FundingCoin(size_t t, size_t j, uint32_t height) {
  const TxOut& out = FundingTable()[t].vout[kTableIndexes[j]];
  return Coin(out.value, out.script_pubkey, height, FundingTable()[t].IsCoinBase());
}

uint8_t Flags(const seam::CoinsViewCache& cache, const OutPoint& o) {
  const seam::CacheEntry* e = cache.FindEntry(o);
  BOOST_REQUIRE_MESSAGE(e != nullptr, "no entry for " << o.ToString());
  return e->flags();
}

constexpr uint8_t kDirty = seam::CacheEntry::kDirty;
constexpr uint8_t kDirtyFresh = seam::CacheEntry::kDirty | seam::CacheEntry::kFresh;

// A coin for the base at `o`, written through a cache flushed into it.
void Fund(seam::CoinsView& base, const OutPoint& o, const Coin& coin) {
  seam::CoinsViewCache writer(&base);
  writer.AddCoin(o, coin, false);
  writer.SetBestBlock(harness::BlockHash(2));
  writer.Flush();
}

}  // namespace

// Entries with their flags and exact usage (Core's internals, seam/coins_cache.h): a tree without them (or
// SUITE_CORE_PUBLIC_FORMS) skips the cases that read them.
constexpr bool kInternals = seam::kEntriesVisible && seam::kExactUsage;

BOOST_AUTO_TEST_SUITE(coins_cache_api_tests)

BOOST_AUTO_TEST_CASE(funding_table_txids_are_real) {
  for (size_t t = 0; t < harness::kFundingCount; ++t) {
    const Transaction& tx = FundingTable()[t];
    BOOST_TEST_CONTEXT("funding transaction " << t) {
      BOOST_TEST((harness::TxidRef(tx) == TxidOf(tx)));
      BOOST_TEST(tx.IsCoinBase() == (t % 4 == 0));
      BOOST_TEST(tx.vout.size() == 8u);
      for (uint32_t n = 3; n <= 6; ++n) BOOST_TEST(IsUnspendable(tx.vout[n].script_pubkey));
      for (size_t j = 0; j < 4; ++j) {
        BOOST_TEST((Out(t, j) == OutPoint{TxidOf(tx), kTableIndexes[j]}));
      }
    }
  }
}

// A transaction that is not a coinbase: its spendable outputs FRESH, its unspendable ones nowhere; added
// again it throws at its first output.
BOOST_AUTO_TEST_CASE(add_coins_adds_spendable_outputs_fresh,
                     *unit::Needs(kInternals&& seam::kCoinsApi.add_coins, "AddCoins, and the cache's internals")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  seam::CoinsViewCache cache(&base);
  seam::AddCoins(cache, HashedFundingTable()[1], 77, /*check_for_overwrite=*/false);
  BOOST_TEST(cache.GetCacheSize() == 4u);
  for (size_t j = 0; j < 4; ++j) {
    BOOST_TEST((cache.FindEntry(Out(1, j))->coin == FundingCoin(1, j, 77)));
    BOOST_TEST(Flags(cache, Out(1, j)) == kDirtyFresh);
  }
  BOOST_TEST(cache.FindEntry(OutPoint{Out(1, 0).txid, 3}) == nullptr);
  BOOST_CHECK_THROW(seam::AddCoins(cache, HashedFundingTable()[1], 78, false), std::logic_error);
  BOOST_TEST((cache.FindEntry(Out(1, 0))->coin == FundingCoin(1, 0, 77)));
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
}

// A coinbase may always overwrite (two coinbases had one txid before BIP30): never FRESH, never a throw.
BOOST_AUTO_TEST_CASE(add_coins_coinbase_overwrites,
                     *unit::Needs(kInternals&& seam::kCoinsApi.add_coins, "AddCoins, and the cache's internals")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  seam::CoinsViewCache cache(&base);
  seam::AddCoins(cache, HashedFundingTable()[4], 5, false);
  BOOST_CHECK_NO_THROW(seam::AddCoins(cache, HashedFundingTable()[4], 6, false));
  for (size_t j = 0; j < 4; ++j) {
    BOOST_TEST((cache.FindEntry(Out(4, j))->coin == FundingCoin(4, j, 6)));
    BOOST_TEST(Flags(cache, Out(4, j)) == kDirty);
    BOOST_TEST(cache.FindEntry(Out(4, j))->coin.coinbase);
  }
}

// With the check, an output the view has (here: only the base) is overwritten, not FRESH; the others are.
BOOST_AUTO_TEST_CASE(add_coins_check_for_overwrite_asks_the_view,
                     *unit::Needs(kInternals&& seam::kCoinsApi.add_coins, "AddCoins, and the cache's internals")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  Fund(base, Out(2, 1), harness::CoinTable()[9]);
  seam::CoinsViewCache cache(&base);
  BOOST_CHECK_NO_THROW(seam::AddCoins(cache, HashedFundingTable()[2], 9, /*check_for_overwrite=*/true));
  BOOST_TEST(Flags(cache, Out(2, 1)) == kDirty);
  BOOST_TEST((cache.FindEntry(Out(2, 1))->coin == FundingCoin(2, 1, 9)));
  for (const size_t j : {0, 2, 3}) BOOST_TEST(Flags(cache, Out(2, j)) == kDirtyFresh);
  cache.SetBestBlock(harness::BlockHash(3));
  cache.Flush();
  BOOST_TEST((*base.PeekCoin(Out(2, 1)) == FundingCoin(2, 1, 9)));
}

// A throw part-way leaves the outputs before it added and the ones after it untouched.
BOOST_AUTO_TEST_CASE(add_coins_throw_keeps_earlier_outputs, *unit::Needs(seam::kCoinsApi.add_coins, "AddCoins")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  seam::CoinsViewCache cache(&base);
  cache.AddCoin(Out(3, 1), harness::CoinTable()[1], false);
  BOOST_CHECK_THROW(seam::AddCoins(cache, HashedFundingTable()[3], 1, false), std::logic_error);
  BOOST_TEST((cache.FindEntry(Out(3, 0))->coin == FundingCoin(3, 0, 1)));
  BOOST_TEST((cache.FindEntry(Out(3, 1))->coin == harness::CoinTable()[1]));
  BOOST_TEST(cache.FindEntry(Out(3, 2)) == nullptr);
  BOOST_TEST(cache.FindEntry(Out(3, 3)) == nullptr);
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
}

// HaveInputs fetches the inputs' coins in order and stops at the first missing one; a coinbase has no
// inputs to look up.
BOOST_AUTO_TEST_CASE(have_inputs_stops_at_the_first_missing, *unit::Needs(seam::kCoinsApi.have_inputs, "HaveInputs")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  Fund(base, Out(5, 0), harness::CoinTable()[20]);
  Fund(base, Out(5, 2), harness::CoinTable()[22]);
  seam::CoinsViewCache cache(&base);
  BOOST_TEST(cache.HaveInputs(FundingTable()[0]));
  BOOST_TEST(cache.GetCacheSize() == 0u);
  Transaction tx;
  for (const size_t j : {0, 1, 2}) tx.vin.emplace_back().prevout = Out(5, j);
  BOOST_TEST(!cache.HaveInputs(tx));
  BOOST_TEST(cache.FindEntry(Out(5, 0)) != nullptr);
  BOOST_TEST(cache.FindEntry(Out(5, 2)) == nullptr);  // after the missing one: never looked up
  tx.vin.erase(tx.vin.begin() + 1);
  BOOST_TEST(cache.HaveInputs(tx));
  BOOST_TEST(cache.GetCacheSize() == 2u);
}

// The lowest unspent output wins, spent entries on the way are passed over; a miss looks at every index a
// block could have and finds nothing, caching nothing.
BOOST_AUTO_TEST_CASE(access_by_txid_hit_and_miss, *unit::Needs(seam::kCoinsApi.access_by_txid, "AccessByTxid")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  Fund(base, Out(9, 3), harness::CoinTable()[39]);
  {
    seam::CoinsViewCache funder(&base);
    seam::AddCoins(funder, HashedFundingTable()[6], 12, false);
    funder.SetBestBlock(harness::BlockHash(2));
    funder.Flush();
  }
  seam::CoinsViewCache cache(&base);
  BOOST_TEST((seam::AccessByTxid(cache, Out(6, 0).txid) == FundingCoin(6, 0, 12)));
  BOOST_TEST(cache.SpendCoin(Out(6, 0)));  // a spent DIRTY entry, which the walk must pass over
  BOOST_TEST((seam::AccessByTxid(cache, Out(6, 0).txid) == FundingCoin(6, 1, 12)));
  for (const size_t j : {1, 2}) BOOST_TEST(cache.SpendCoin(Out(6, j)));
  BOOST_TEST((seam::AccessByTxid(cache, Out(6, 0).txid) == FundingCoin(6, 3, 12)));
  BOOST_TEST(cache.SpendCoin(Out(6, 3)));
  const size_t size = cache.GetCacheSize();
  BOOST_TEST(seam::AccessByTxid(cache, Out(6, 0).txid).IsSpent());
  BOOST_TEST(cache.GetCacheSize() == size);
  seam::CoinsViewCache other(&base);
  BOOST_TEST((seam::AccessByTxid(other, Out(9, 0).txid) == harness::CoinTable()[39]));  // output 7, from the base
  BOOST_TEST(other.GetCacheSize() == 1u);
}

// Emplace makes a DIRTY entry (never FRESH: the parent is not asked, so the coin may be there), counts its
// memory as AddCoin does, and leaves an existing entry, spent or not, as it is.
BOOST_AUTO_TEST_CASE(emplace_inserts_dirty_without_asking_the_parent,
                     *unit::Needs(kInternals&& seam::kDirtyCountVisible&& seam::kCoinsApi.emplace,
                                  "EmplaceCoinInternalDANGER, and the cache's internals with its dirty count")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  base.FailReadsOf(Out(7, 0));  // any read of the parent for this outpoint would throw
  seam::CoinsViewCache cache(&base);
  seam::CoinsViewCache added(&base);
  const Coin big = harness::CoinTable()[5];  // a 37-byte script: on the heap
  cache.EmplaceCoinInternalDANGER(Out(7, 0), Coin(big));
  added.AddCoin(Out(7, 1), big, true);
  BOOST_TEST(Flags(cache, Out(7, 0)) == kDirty);
  BOOST_TEST(seam::ModelledUsage(cache) == seam::ModelledUsage(added));
  BOOST_TEST(cache.GetDirtyCount() == 1u);
  Coin other = harness::CoinTable()[6];
  cache.EmplaceCoinInternalDANGER(Out(7, 0), std::move(other));
  BOOST_TEST((cache.FindEntry(Out(7, 0))->coin == big));
  BOOST_TEST((other == harness::CoinTable()[6]));  // not taken
  BOOST_TEST(cache.SpendCoin(Out(7, 0)));
  cache.EmplaceCoinInternalDANGER(Out(7, 0), Coin(big));
  BOOST_TEST(cache.FindEntry(Out(7, 0))->coin.IsSpent());
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
  base.FailReadsOf(std::nullopt);
  cache.EmplaceCoinInternalDANGER(Out(7, 2), Coin(big));
  cache.SetBestBlock(harness::BlockHash(4));
  cache.Flush();
  BOOST_TEST((*base.PeekCoin(Out(7, 2)) == big));
  BOOST_TEST(!base.PeekCoin(Out(7, 0)).has_value());
}

// A failed read below the catcher runs every callback, in order; then the process aborts.
BOOST_AUTO_TEST_CASE(error_catcher_runs_callbacks_then_aborts,
                     *unit::Needs(seam::kCoinsApi.error_catcher, "CoinsViewErrorCatcher")) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  Fund(base, Out(8, 1), harness::CoinTable()[33]);
  seam::CoinsViewErrorCatcher catcher(&base);
  std::vector<int> ran;
  catcher.AddReadErrCallback([&] { ran.push_back(1); });
  catcher.AddReadErrCallback([&] { ran.push_back(2); });
  catcher.AddReadErrCallback([&] {
    ran.push_back(3);
    throw harness::ReadErrorSeen{};
  });
  seam::CoinsViewCache cache(&catcher);
  BOOST_TEST((cache.GetCoin(Out(8, 1)) == harness::CoinTable()[33]));  // reads that work pass through
  BOOST_TEST(catcher.HaveCoin(Out(8, 1)));
  BOOST_TEST(!catcher.PeekCoin(Out(8, 0)).has_value());
  BOOST_TEST((catcher.GetBestBlock() == harness::BlockHash(2)));
  BOOST_TEST(ran.empty());
  base.FailReadsOf(Out(8, 0));
  BOOST_CHECK_THROW(cache.GetCoin(Out(8, 0)), harness::ReadErrorSeen);
  BOOST_TEST((ran == std::vector<int>{1, 2, 3}));
  ran.clear();
  BOOST_CHECK_THROW(catcher.HaveCoin(Out(8, 0)), harness::ReadErrorSeen);
  BOOST_CHECK_THROW(catcher.PeekCoin(Out(8, 0)), harness::ReadErrorSeen);
  BOOST_TEST((ran == std::vector<int>{1, 2, 3, 1, 2, 3}));

  seam::CoinsViewErrorCatcher plain(&base);
  bool called = false;
  plain.AddReadErrCallback([&] { called = true; });
  BOOST_TEST(unit::AbortsInChild([&] { plain.GetCoin(Out(8, 0)); }));
  BOOST_TEST(!called);  // it ran in the child
  // Writes pass through to the base.
  seam::CoinsViewCache writer(&plain);
  writer.AddCoin(Out(8, 2), harness::CoinTable()[34], false);
  writer.SetBestBlock(harness::BlockHash(9));
  writer.Flush();
  BOOST_TEST((*base.PeekCoin(Out(8, 2)) == harness::CoinTable()[34]));
  BOOST_TEST((base.GetBestBlock() == harness::BlockHash(9)));
}

BOOST_AUTO_TEST_SUITE_END()
