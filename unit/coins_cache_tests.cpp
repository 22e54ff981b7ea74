// Coins cache: the truth tables of docs/semantics.md §1 for access, spend, add and batch write over parent × child
// states, written out row by row from the spec; dirty-list behaviour; flush against sync; exceptions that
// must leave accounting untouched; and a random simulation against CoinsStackModel with a printed,
// settable seed.
#include <boost/test/unit_test.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "coins_checks.h"
#include "coins_model.h"
#include "coins_tester.h"
#include "rng.h"
#include "seam/coins_cache.h"
#include "test_util.h"

namespace {

// Exposes the state-injection hook so that every flag combination can be set up directly.
class TestCache : public seam::CoinsViewCache {
 public:
  using seam::CoinsViewCache::CoinsViewCache;
  using seam::CoinsViewCache::InsertEntry;
};

enum State { kAbsent, kSpent, kClean, kDirty, kFresh };  // spent is always DIRTY; kFresh is DIRTY+FRESH
const char* Name(State s) {
  static const char* const kNames[] = {"absent", "spent", "unspent clean", "unspent DIRTY", "unspent DIRTY+FRESH"};
  return kNames[s];
}

const OutPoint kOutpoint = harness::OutpointTable()[5];
// Distinct values for the parent (A), the child (B) and a newly added coin (N); B's script lives on the heap.
const Coin kA(100, Script(25, 0x76), 10, false);
const Coin kB(200, Script(80, 0x51), 20, true);
const Coin kN(300, Script(34, 0x00), 30, false);

// What a test reads back from a cache: the entry's coin (nullopt = spent) and flags, or absent.
struct Observed {
  bool present = false;
  std::optional<Coin> coin;
  uint8_t flags = 0;
  bool operator==(const Observed& o) const {
    return present == o.present && (!present || (coin == o.coin && flags == o.flags));
  }
};
std::ostream& operator<<(std::ostream& out, const Observed& o) {
  if (!o.present) return out << "absent";
  out << (o.coin ? o.coin->ToString() : "spent");
  return out << ((o.flags & seam::CacheEntry::kDirty) ? " DIRTY" : " clean")
             << ((o.flags & seam::CacheEntry::kFresh) ? "+FRESH" : "");
}

Observed Expect(State s, const Coin& value) {
  switch (s) {
    case kAbsent: return {};
    case kSpent: return {true, std::nullopt, seam::CacheEntry::kDirty};
    case kClean: return {true, value, 0};
    case kDirty: return {true, value, seam::CacheEntry::kDirty};
    case kFresh: return {true, value, seam::CacheEntry::kDirty | seam::CacheEntry::kFresh};
  }
  return {};
}

Observed Read(const seam::CoinsViewCache& c) {
  const seam::CacheEntry* e = c.FindEntry(kOutpoint);
  if (e == nullptr) return {};
  return {true, e->coin.IsSpent() ? std::nullopt : std::optional<Coin>(e->coin), e->flags()};
}

void Set(TestCache& c, State s, const Coin& value) {
  if (s == kAbsent) return;
  const Observed want = Expect(s, value);
  c.InsertEntry(kOutpoint, want.coin ? *want.coin : Coin{}, want.flags);
}

// base ← parent ← child, with the outpoint in the given states.
struct Stack {
  harness::CheckedBaseView base{harness::BlockHash(1)};
  TestCache parent{&base};
  TestCache child{&parent};
  Stack(State p, State c) {
    Set(parent, p, kA);
    Set(child, c, kB);
  }
  void Sane() const {
    BOOST_CHECK_NO_THROW(parent.SanityCheck());
    BOOST_CHECK_NO_THROW(child.SanityCheck());
  }
};

const State kAllStates[] = {kAbsent, kSpent, kClean, kDirty, kFresh};
// For access, spend and add only whether the parent has an unspent coin matters; the three unspent
// parent states are all run for each row marked kClean below.
const State kUnspentParents[] = {kClean, kDirty, kFresh};

template <typename Row, typename Fn>
void ForEachParent(const Row& row, Fn fn) {
  if (row.parent == kClean) {
    for (const State p : kUnspentParents) fn(p);
  } else {
    fn(row.parent);
  }
}

}  // namespace

// What most cases below read: entries with their flags, the dirty list, exact usage, exact states (Core's
// internals, seam/coins_cache.h). A tree without them (or SUITE_CORE_PUBLIC_FORMS) skips those cases, naming
// this; random_simulation checks the same contract there in the public forms.
constexpr bool kInternals = seam::kEntriesVisible && seam::kDirtyListVisible && seam::kExactUsage &&
                            seam::kExactStates && seam::kDirtyCountVisible;
constexpr const char* kInternalsWhat = "the cache's internals (entries and flags, dirty list, exact usage and states)";
// Which entries a failing write hands up before the failure depends on the write's order.
constexpr const char* kFirstDirtiedWhat = "the order a write hands its entries up in (behaviour dirty_order)";

BOOST_AUTO_TEST_SUITE(coins_cache_tests)

BOOST_AUTO_TEST_CASE(access_truth_table, *unit::Needs(kInternals, kInternalsWhat)) {
  struct Row {
    State parent, child;
    std::optional<Coin> result;
    State child_after;
    const Coin& after_value;
  };
  const Row rows[] = {
      {kAbsent, kAbsent, std::nullopt, kAbsent, kB},
      {kSpent, kAbsent, std::nullopt, kAbsent, kB},
      {kClean, kAbsent, kA, kClean, kA},  // fetched from the parent, inserted clean
      {kAbsent, kSpent, std::nullopt, kSpent, kB},
      {kSpent, kSpent, std::nullopt, kSpent, kB},
      {kClean, kSpent, std::nullopt, kSpent, kB},
      {kAbsent, kClean, kB, kClean, kB},
      {kSpent, kClean, kB, kClean, kB},
      {kClean, kClean, kB, kClean, kB},
      {kAbsent, kDirty, kB, kDirty, kB},
      {kSpent, kDirty, kB, kDirty, kB},
      {kClean, kDirty, kB, kDirty, kB},
      {kAbsent, kFresh, kB, kFresh, kB},
      {kSpent, kFresh, kB, kFresh, kB},
      {kClean, kFresh, kB, kFresh, kB},
  };
  for (const Row& row : rows) {
    ForEachParent(row, [&](State parent) {
      BOOST_TEST_CONTEXT("parent " << Name(parent) << ", child " << Name(row.child)) {
        Stack s(parent, row.child);
        const Coin got = s.child.AccessCoin(kOutpoint);
        BOOST_TEST((got == (row.result ? *row.result : Coin{})), got.ToString());
        BOOST_TEST(Read(s.child) == Expect(row.child_after, row.after_value));
        BOOST_TEST(Read(s.parent) == Expect(parent, kA));  // access never changes the parent's entry
        s.Sane();
      }
    });
  }
}

BOOST_AUTO_TEST_CASE(spend_truth_table, *unit::Needs(kInternals, kInternalsWhat)) {
  struct Row {
    State parent, child;
    bool result;
    State child_after;
  };
  const Row rows[] = {
      {kAbsent, kAbsent, false, kAbsent}, {kSpent, kAbsent, false, kAbsent},
      {kClean, kAbsent, true, kSpent},  // fetched clean, then spent: DIRTY, not FRESH
      {kAbsent, kSpent, true, kSpent},    {kSpent, kSpent, true, kSpent},
      {kClean, kSpent, true, kSpent},     {kAbsent, kClean, true, kSpent},
      {kSpent, kClean, true, kSpent},     {kClean, kClean, true, kSpent},
      {kAbsent, kDirty, true, kSpent},    {kSpent, kDirty, true, kSpent},
      {kClean, kDirty, true, kSpent},     {kAbsent, kFresh, true, kAbsent},
      {kSpent, kFresh, true, kAbsent},    {kClean, kFresh, true, kAbsent},
  };
  for (const Row& row : rows) {
    ForEachParent(row, [&](State parent) {
      BOOST_TEST_CONTEXT("parent " << Name(parent) << ", child " << Name(row.child)) {
        Stack s(parent, row.child);
        Coin moved;
        // An entry already spent answers false where the subject has the spent-entry rework.
        const bool result = row.child == kSpent && seam::SpendOfSpentFails() ? false : row.result;
        BOOST_TEST(s.child.SpendCoin(kOutpoint, &moved) == result);
        BOOST_TEST(Read(s.child) == Expect(row.child_after, kB));
        if (result && row.child != kSpent) {
          BOOST_TEST((moved == (row.child == kAbsent ? kA : kB)), moved.ToString());
        }
        s.Sane();
      }
    });
  }
}

BOOST_AUTO_TEST_CASE(add_truth_table, *unit::Needs(kInternals, kInternalsWhat)) {
  struct Row {
    State child;
    bool possible_overwrite;
    bool throws;
    State child_after;  // with the new coin N, unless it threw
  };
  const Row rows[] = {
      {kAbsent, false, false, kFresh}, {kSpent, false, false, kDirty},  // a DIRTY spent entry may hide a parent coin
      {kClean, false, true, kClean},   {kDirty, false, true, kDirty},  {kFresh, false, true, kFresh},
      {kAbsent, true, false, kDirty},  {kSpent, true, false, kDirty},  {kClean, true, false, kDirty},
      {kDirty, true, false, kDirty},   {kFresh, true, false, kFresh},  // flags are only ever added
  };
  for (const Row& row : rows) {
    for (const State parent : kAllStates) {  // AddCoin never consults the parent
      BOOST_TEST_CONTEXT("parent " << Name(parent) << ", child " << Name(row.child) << ", possible_overwrite "
                                   << row.possible_overwrite) {
        Stack s(parent, row.child);
        const size_t usage = s.child.DynamicMemoryUsage();
        if (row.throws) {
          BOOST_CHECK_THROW(s.child.AddCoin(kOutpoint, kN, row.possible_overwrite), std::logic_error);
          BOOST_TEST(Read(s.child) == Expect(row.child, kB));  // unchanged, accounting included
          BOOST_TEST(s.child.DynamicMemoryUsage() == usage);
        } else {
          s.child.AddCoin(kOutpoint, kN, row.possible_overwrite);
          BOOST_TEST(Read(s.child) == Expect(row.child_after, kN));
        }
        BOOST_TEST(Read(s.parent) == Expect(parent, kA));
        s.Sane();
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(add_ignores_unspendable_and_rejects_spent, *unit::Needs(kInternals, kInternalsWhat)) {
  Stack s(kAbsent, kClean);
  s.child.AddCoin(kOutpoint, Coin(5, Script(3, kOpReturn), 1, false), false);  // ignored, no throw either
  s.child.AddCoin(kOutpoint, Coin(5, Script(10001, 0x51), 1, false), true);    // too long to spend
  BOOST_TEST(Read(s.child) == Expect(kClean, kB));
  const OutPoint other = harness::OutpointTable()[9];
  s.child.AddCoin(other, Coin(5, Script(1, kOpReturn), 1, false), true);
  BOOST_TEST(s.child.FindEntry(other) == nullptr);
  if constexpr (seam::kAddSpentCoinThrows) {  // Core asserts instead: README, differences table
    BOOST_CHECK_THROW(s.child.AddCoin(other, Coin{}, true), std::logic_error);
    BOOST_TEST(s.child.FindEntry(other) == nullptr);
  }
  s.Sane();
}

BOOST_AUTO_TEST_CASE(batch_write_truth_table, *unit::Needs(kInternals, kInternalsWhat)) {
  struct Row {
    State parent, child;
    bool throws;
    State parent_after;
    const Coin& after_value;
  };
  const Row rows[] = {
      {kAbsent, kAbsent, false, kAbsent, kA}, {kAbsent, kSpent, false, kSpent, kA},
      {kAbsent, kClean, false, kAbsent, kA},  // clean entries are not written
      {kAbsent, kDirty, false, kDirty, kB},   {kAbsent, kFresh, false, kFresh, kB},
      {kSpent, kAbsent, false, kSpent, kA},   {kSpent, kSpent, false, kSpent, kA},
      {kSpent, kClean, false, kSpent, kA},    {kSpent, kDirty, false, kDirty, kB},
      {kSpent, kFresh, false, kDirty, kB},  // the parent's coin is spent, so FRESH is no error; not copied
      {kClean, kAbsent, false, kClean, kA},   {kClean, kSpent, false, kSpent, kA},
      {kClean, kClean, false, kClean, kA},    {kClean, kDirty, false, kDirty, kB},
      {kClean, kFresh, true, kClean, kA},  // FRESH misapplied
      {kDirty, kAbsent, false, kDirty, kA},   {kDirty, kSpent, false, kSpent, kA},
      {kDirty, kClean, false, kDirty, kA},    {kDirty, kDirty, false, kDirty, kB},
      {kDirty, kFresh, true, kDirty, kA},     {kFresh, kAbsent, false, kFresh, kA},
      {kFresh, kSpent, false, kAbsent, kA},  // the grandparent never saw it: erased
      {kFresh, kClean, false, kFresh, kA},    {kFresh, kDirty, false, kFresh, kB},
      {kFresh, kFresh, true, kFresh, kA},
  };
  for (const Row& row : rows) {
    for (const bool wipe : {true, false}) {
      BOOST_TEST_CONTEXT("parent " << Name(row.parent) << ", child " << Name(row.child)
                                   << (wipe ? ", Flush" : ", Sync")) {
        Stack s(row.parent, row.child);
        const size_t parent_usage = s.parent.DynamicMemoryUsage();
        if (row.throws) {
          BOOST_CHECK_THROW(wipe ? s.child.Flush() : s.child.Sync(), std::logic_error);
          BOOST_TEST(s.parent.DynamicMemoryUsage() == parent_usage);
          BOOST_TEST(Read(s.child) == Expect(row.child, kB));  // the child keeps its DIRTY entry
        } else {
          wipe ? s.child.Flush() : s.child.Sync();
          // After a flush the child is empty; after a sync it keeps its unspent coin, clean.
          const bool kept = !wipe && row.child != kAbsent && row.child != kSpent;
          BOOST_TEST(Read(s.child) == (kept ? Expect(kClean, kB) : Observed{}));
        }
        BOOST_TEST(Read(s.parent) == Expect(row.parent_after, row.after_value));
        s.Sane();
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(dirty_list_behaviour, *unit::Needs(kInternals, kInternalsWhat)) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache cache(&base);
  const auto& o = harness::OutpointTable();
  // Sentinel: an empty list points at itself.
  BOOST_TEST(cache.DirtyOrder().empty());
  cache.AddCoin(o[3], kA, true);
  cache.AddCoin(o[1], kA, false);
  cache.AddCoin(o[2], kA, true);
  BOOST_TEST(harness::SameOrder(cache.DirtyOrder(), {o[3], o[1], o[2]}));  // appended at the tail
  cache.AddCoin(o[3], kB, true);                                           // already DIRTY: stays first
  cache.SpendCoin(o[2]);                                                   // still DIRTY, now spent: stays in place
  BOOST_TEST(harness::SameOrder(cache.DirtyOrder(), {o[3], o[1], o[2]}));
  cache.SpendCoin(o[1]);  // FRESH: erased, and so unlinked
  BOOST_TEST(harness::SameOrder(cache.DirtyOrder(), {o[3], o[2]}));
  BOOST_TEST(cache.GetDirtyCount() == 2u);
  // FRESH added to an entry that is already DIRTY does not move it.
  cache.InsertEntry(o[7], kA, seam::CacheEntry::kDirty);
  cache.AddCoin(o[4], kA, true);
  BOOST_TEST(harness::SameOrder(cache.DirtyOrder(), {o[3], o[2], o[7], o[4]}));
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
  cache.Uncache(o[3]);  // DIRTY: kept
  BOOST_TEST(cache.FindEntry(o[3]) != nullptr);
  cache.Sync();  // cleaning unlinks: the list is empty, the unspent entries stay
  BOOST_TEST(cache.DirtyOrder().empty());
  BOOST_TEST(cache.GetDirtyCount() == 0u);
  BOOST_TEST(cache.GetCacheSize() == 3u);
  BOOST_TEST(harness::SameOrder(base.last_batch(), {o[3], o[2], o[7], o[4]}));
  cache.Uncache(o[3]);  // clean now: erased
  BOOST_TEST(cache.FindEntry(o[3]) == nullptr);
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
  {
    // Destroying a cache with linked entries unlinks each one (ASan would report a use after free).
    TestCache child(&cache);
    child.AddCoin(o[10], kA, false);
    child.AddCoin(o[11], kB, true);
  }
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
}

// Flush and Sync of each entry state; a flush that keeps the map's memory frees only the coins' part of it.
BOOST_AUTO_TEST_CASE(flush_against_sync, *unit::Needs(kInternals, kInternalsWhat)) {
  const auto& o = harness::OutpointTable();
  enum Write { kFlush, kFlushKeepingMemory, kSync };
  for (const Write write : {kFlush, kFlushKeepingMemory, kSync}) {
    const bool wipe = write != kSync;
    BOOST_TEST_CONTEXT((write == kFlush ? "Flush" : wipe ? "Flush(reallocate_cache=false)" : "Sync")) {
      harness::CheckedBaseView base(harness::BlockHash(1));
      {
        TestCache seed(&base);
        seed.AddCoin(o[0], kA, false);
        seed.AddCoin(o[1], kB, false);
        seed.Flush();
      }
      TestCache cache(&base);
      cache.AccessCoin(o[0]);          // clean
      cache.SpendCoin(o[1]);           // spent DIRTY
      cache.AddCoin(o[2], kN, false);  // FRESH
      cache.AddCoin(o[3], kB, true);   // DIRTY
      cache.SetBestBlock(harness::BlockHash(9));
      const size_t map_usage = cache.DynamicMemoryUsage() - seam::ModelledUsage(cache);
      wipe ? cache.Flush(/*reallocate_cache=*/write == kFlush) : cache.Sync();
      BOOST_TEST((base.GetBestBlock() == harness::BlockHash(9)));
      BOOST_TEST(base.coins().size() == 3u);  // o[0], o[2], o[3]; o[1] erased
      BOOST_TEST(!base.PeekCoin(o[1]).has_value());
      BOOST_CHECK_NO_THROW(cache.SanityCheck());
      BOOST_TEST(cache.GetDirtyCount() == 0u);
      if (wipe) {
        BOOST_TEST(cache.GetCacheSize() == 0u);
        BOOST_TEST(seam::ModelledUsage(cache) == 0u);
        if (write == kFlushKeepingMemory && seam::kFlushCanKeepMemory) {
          BOOST_TEST(cache.DynamicMemoryUsage() == map_usage);  // the map's memory kept
        } else {
          BOOST_TEST(cache.DynamicMemoryUsage() == TestCache(&base).DynamicMemoryUsage());  // as a new cache's
        }
      } else {
        BOOST_TEST(cache.GetCacheSize() == 3u);  // unspent stay resident, spent gone
        BOOST_TEST(cache.HaveCoinInCache(o[0]));
        BOOST_TEST(cache.HaveCoinInCache(o[2]));
        BOOST_TEST(cache.HaveCoinInCache(o[3]));
        BOOST_TEST(cache.FindEntry(o[1]) == nullptr);
        BOOST_TEST(cache.FindEntry(o[2])->flags() == 0);
        BOOST_TEST(seam::ModelledUsage(cache) ==
                   3 * seam::CoinsViewCache::kEntryOverhead + seam::ScriptHeapCharge(kB.DynamicMemoryUsage()));
      }
    }
  }
}

// The failing entry comes second: the first is already written to the parent and cleaned in the child
// when the exception leaves; both caches must still account exactly for what they hold.
BOOST_AUTO_TEST_CASE(fresh_misapplied_leaves_accounting,
                     *unit::Needs(kInternals, kInternalsWhat) *
                         unit::NeedsForm(seam::DirtyOrderIsFirstDirtied, kFirstDirtiedWhat)) {
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache parent(&base);
  TestCache child(&parent);
  const OutPoint first = harness::OutpointTable()[40];
  parent.InsertEntry(kOutpoint, kA, seam::CacheEntry::kDirty);
  child.InsertEntry(first, kB, seam::CacheEntry::kDirty);
  child.InsertEntry(kOutpoint, kN,
                    seam::CacheEntry::kDirty | seam::CacheEntry::kFresh);  // misapplied: the parent has it
  BOOST_CHECK_THROW(child.Sync(), std::logic_error);
  BOOST_CHECK_NO_THROW(parent.SanityCheck());
  BOOST_CHECK_NO_THROW(child.SanityCheck());
  BOOST_TEST(seam::ModelledUsage(parent) ==
             2 * seam::CoinsViewCache::kEntryOverhead + seam::ScriptHeapCharge(kB.DynamicMemoryUsage()));
  BOOST_TEST((parent.FindEntry(kOutpoint)->coin == kA));  // the failing entry changed nothing
  BOOST_TEST(child.FindEntry(first)->flags() == 0);       // written and cleaned before the failure
  BOOST_TEST((child.DirtyOrder() == std::vector<OutPoint>{kOutpoint}));
  BOOST_TEST(child.GetDirtyCount() == 1u);
}

// The same misuse driven through the tester, whose model predicts the throw: a failed sync leaves what it
// wrote before the failure in the parent, cleaned in the child, and the cache usable; a failed flush ends
// the run.
BOOST_AUTO_TEST_CASE(tester_models_fresh_misapplied,
                     *unit::Needs(kInternals, kInternalsWhat) *
                         unit::NeedsForm(seam::DirtyOrderIsFirstDirtied, kFirstDirtiedWhat)) {
  using harness::CoinsOp;
  auto step = [](CoinsOp op, uint8_t outpoint, uint8_t coin = 0) {
    harness::CoinsStep s;
    s.op = op;
    s.outpoint = outpoint;
    s.coin = coin;
    return s;
  };
  const auto& table = harness::OutpointTable();
  harness::CoinsTester tester;
  BOOST_TEST(tester.Apply(step(CoinsOp::kAdd, 5, 0)));
  BOOST_TEST(tester.Apply(step(CoinsOp::kPush, 0)));
  BOOST_TEST(tester.Apply(step(CoinsOp::kAdd, 6, 1)));
  BOOST_TEST(tester.Apply(step(CoinsOp::kAdd, 5, 2)));  // misuse: level 0 holds outpoint 5 unspent
  BOOST_TEST(tester.top().FindEntry(table[5])->IsFresh());
  BOOST_TEST(tester.Apply(step(CoinsOp::kSync, 0)));  // throws at outpoint 5, after writing 6
  BOOST_TEST(!tester.ended());
  BOOST_TEST(tester.top().FindEntry(table[6])->flags() == 0);
  BOOST_TEST((tester.top().DirtyOrder() == std::vector<OutPoint>{table[5]}));
  BOOST_TEST(tester.Apply(step(CoinsOp::kSpend, 5)));  // FRESH: erased, so nothing is misapplied any more
  BOOST_TEST(tester.Apply(step(CoinsOp::kSync, 0)));
  BOOST_TEST(tester.Apply(step(CoinsOp::kAdd, 5, 3)));  // the misuse again, then a flush
  BOOST_TEST(tester.Apply(step(CoinsOp::kFlush, 0)));
  BOOST_TEST(tester.ended());
  BOOST_TEST(!tester.Apply(step(CoinsOp::kGet, 5)));

  // Over a coin only the base holds the misuse is not issued: nothing below would detect it.
  harness::CoinsTester base_only;
  BOOST_TEST(base_only.Apply(step(CoinsOp::kAdd, 5, 0)));
  BOOST_TEST(base_only.Apply(step(CoinsOp::kFlush, 0)));
  BOOST_TEST(base_only.Apply(step(CoinsOp::kPush, 0)));
  BOOST_TEST(!base_only.Apply(step(CoinsOp::kAdd, 5, 1)));
  base_only.CheckAll();
}

// Reset (Core: through CreateResetGuard) discards every state an entry can be in, the counters and the
// cache's own best block; nothing reaches the parent, and the cache works as a new one afterwards.
BOOST_AUTO_TEST_CASE(reset_discards_everything, *unit::Needs(kInternals, kInternalsWhat)) {
  const auto& o = harness::OutpointTable();
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache parent(&base);
  parent.InsertEntry(o[0], kA, 0);
  TestCache cache(&parent);
  cache.AccessCoin(o[0]);                                 // clean
  cache.InsertEntry(o[1], kB, seam::CacheEntry::kDirty);  // DIRTY, script on the heap
  cache.InsertEntry(o[2], kN, seam::CacheEntry::kDirty | seam::CacheEntry::kFresh);
  cache.InsertEntry(o[3], Coin{}, seam::CacheEntry::kDirty);  // spent
  cache.SetBestBlock(harness::BlockHash(7));
  BOOST_TEST(cache.GetDirtyCount() == 3u);
  cache.Reset();
  BOOST_TEST(cache.GetCacheSize() == 0u);
  BOOST_TEST(seam::ModelledUsage(cache) == 0u);
  BOOST_TEST(cache.GetDirtyCount() == 0u);
  BOOST_TEST(cache.DirtyOrder().empty());
  BOOST_CHECK_NO_THROW(cache.SanityCheck());
  BOOST_TEST((cache.GetBestBlock() == harness::BlockHash(1)));  // no best block of its own: the parent's
  BOOST_TEST(parent.GetCacheSize() == 1u);
  BOOST_TEST((parent.FindEntry(o[0])->coin == kA));
  BOOST_TEST(base.batches() == 0u);
  cache.AddCoin(o[4], kB, false);
  cache.SetBestBlock(harness::BlockHash(8));
  cache.Flush();
  BOOST_TEST((parent.FindEntry(o[4])->coin == kB));
  BOOST_TEST(!parent.FindEntry(o[1]));
  BOOST_TEST((parent.GetBestBlock() == harness::BlockHash(8)));
}

// GetCoin answers only unspent coins (Core #34207): a spent entry and a missing one look alike.
BOOST_AUTO_TEST_CASE(get_coin_returns_only_unspent) {
  const auto& o = harness::OutpointTable();
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache parent(&base);
  parent.AddCoin(o[0], kA, false);
  TestCache cache(&parent);
  BOOST_TEST((cache.GetCoin(o[0]) == kA));
  BOOST_TEST(cache.SpendCoin(o[0]));
  BOOST_TEST(!cache.GetCoin(o[0]).has_value());
  BOOST_TEST(!parent.GetCoin(o[1]).has_value());
  BOOST_TEST(parent.FindEntry(o[1]) == nullptr);  // a miss caches nothing
}

// PeekCoin reads through every level as GetCoin does and leaves every level as it was.
BOOST_AUTO_TEST_CASE(peek_coin_caches_nothing, *unit::Needs(kInternals, kInternalsWhat)) {
  const auto& o = harness::OutpointTable();
  harness::CheckedBaseView base(harness::BlockHash(1));
  {
    TestCache seed(&base);
    seed.AddCoin(o[0], kA, false);
    seed.AddCoin(o[1], kB, false);
    seed.Flush();
  }
  TestCache parent(&base);
  parent.SpendCoin(o[1]);
  parent.AddCoin(o[2], kN, false);
  TestCache child(&parent);
  const size_t parent_usage = seam::ModelledUsage(parent);
  BOOST_TEST((child.PeekCoin(o[0]) == kA));       // from the base, through two levels
  BOOST_TEST(!child.PeekCoin(o[1]).has_value());  // spent in the parent
  BOOST_TEST((child.PeekCoin(o[2]) == kN));       // only in the parent
  BOOST_TEST(!child.PeekCoin(o[3]).has_value());  // nowhere
  BOOST_TEST(child.GetCacheSize() == 0u);
  BOOST_TEST(parent.GetCacheSize() == 2u);
  BOOST_TEST(seam::ModelledUsage(parent) == parent_usage);
  BOOST_TEST((child.GetCoin(o[0]) == kA));  // GetCoin caches at both levels
  BOOST_TEST(child.GetCacheSize() == 1u);
  BOOST_TEST(parent.GetCacheSize() == 3u);
}

// The dirty count follows every change of an entry's DIRTY flag, and SanityCheck agrees with it.
BOOST_AUTO_TEST_CASE(dirty_count_follows_every_change, *unit::Needs(kInternals, kInternalsWhat)) {
  const auto& o = harness::OutpointTable();
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache parent(&base);
  parent.AddCoin(o[0], kA, false);
  parent.Flush();
  TestCache cache(&parent);
  auto expect = [&](size_t n, const char* after) {
    BOOST_TEST_CONTEXT(after) {
      BOOST_TEST(cache.GetDirtyCount() == n);
      BOOST_TEST(cache.DirtyOrder().size() == n);
      BOOST_CHECK_NO_THROW(cache.SanityCheck());
    }
  };
  cache.AccessCoin(o[0]);
  expect(0, "a fetch");
  cache.AddCoin(o[1], kB, false);
  expect(1, "a fresh add");
  cache.AddCoin(o[1], kN, true);
  expect(1, "an overwrite of a DIRTY entry");
  cache.SpendCoin(o[0]);
  expect(2, "a spend of a clean entry");
  cache.SpendCoin(o[1]);
  expect(1, "a spend of a FRESH entry (erased)");
  cache.AddCoin(o[2], kA, true);
  cache.Uncache(o[2]);
  expect(2, "an uncache of a DIRTY entry (kept)");
  cache.SetBestBlock(harness::BlockHash(2));
  cache.Sync();
  expect(0, "a sync");
  cache.AddCoin(o[3], kA, false);
  cache.Reset();
  expect(0, "a reset");
}

BOOST_AUTO_TEST_CASE(insert_entry_rejects_bad_requests, *unit::Needs(kInternals, kInternalsWhat)) {
  const auto& o = harness::OutpointTable();
  harness::CheckedBaseView base(harness::BlockHash(1));
  TestCache c(&base);
  BOOST_CHECK_THROW(c.InsertEntry(o[0], kA, seam::CacheEntry::kFresh), std::logic_error);  // FRESH without DIRTY
  BOOST_TEST(c.FindEntry(o[0]) == nullptr);
  c.InsertEntry(o[0], kA, 0);
  BOOST_CHECK_THROW(c.InsertEntry(o[0], kB, 0), std::logic_error);  // the entry exists
  BOOST_TEST(Read(c) == Observed{});                                // kOutpoint is o[5]: untouched
  BOOST_TEST((c.FindEntry(o[0])->coin == kA));
  BOOST_CHECK_NO_THROW(c.SanityCheck());
}

#if !SUITE_SUBJECT_CORE  // corrupts entries through the pointer FindEntry returns: a snapshot in the adapter
// SanityCheck must be able to fail: corrupt one thing at a time through the entries' own interface.
BOOST_AUTO_TEST_CASE(sanity_check_detects_corruption) {
  const auto& o = harness::OutpointTable();
  auto expect_failure = [](const seam::CoinsViewCache& c, const std::string& what) {
    try {
      c.SanityCheck();
      BOOST_ERROR("SanityCheck passed; expected: " << what);
    } catch (const std::logic_error& e) {
      BOOST_TEST(std::string(e.what()).find(what) != std::string::npos, e.what());
    }
  };
  harness::CheckedBaseView base(harness::BlockHash(1));
  auto mutable_entry = [&](const seam::CoinsViewCache& c, const OutPoint& p) {
    return const_cast<seam::CacheEntry*>(c.FindEntry(p));
  };
  {
    TestCache c(&base);
    c.InsertEntry(o[0], kA, 0);
    mutable_entry(c, o[0])->SetFresh();
    expect_failure(c, "FRESH without DIRTY");
  }
  {
    TestCache c(&base);
    c.InsertEntry(o[0], kA, 0);  // a 25-byte script: clearing it leaves usage as it was
    mutable_entry(c, o[0])->coin.Clear();
    expect_failure(c, "spent clean entry");
  }
  {
    TestCache c(&base);
    c.InsertEntry(o[0], Coin{}, seam::CacheEntry::kDirty | seam::CacheEntry::kFresh);
    expect_failure(c, "spent FRESH entry");
  }
  {
    TestCache c(&base);
    c.InsertEntry(o[0], kA, 0);
    mutable_entry(c, o[0])->coin.script = Script(100, 1);  // heap bytes the accounting never saw
    expect_failure(c, "tracked usage");
  }
  {
    TestCache c(&base);
    c.InsertEntry(o[0], kA, seam::CacheEntry::kDirty);
    c.InsertEntry(o[1], kA, seam::CacheEntry::kDirty);
    mutable_entry(c, o[1])->SetClean();  // unlinked behind the cache's back: its dirty count is stale
    expect_failure(c, "dirty count");
  }
}
#endif

// A FRESH spent entry is illegal in a sane cache, but BatchWrite still treats it as docs/semantics.md §1 says: nothing
// reaches the parent; or, where the subject refuses one (seam::BatchWriteRefusesSpentFresh: the spent-entry
// rework), the flush and the sync throw std::logic_error, the parent untouched and the child keeping its entry.
BOOST_AUTO_TEST_CASE(batch_write_skips_fresh_spent, *unit::Needs(kInternals, kInternalsWhat)) {
  for (const bool wipe : {true, false}) {
    Stack s(kAbsent, kAbsent);
    s.child.InsertEntry(kOutpoint, Coin{}, seam::CacheEntry::kDirty | seam::CacheEntry::kFresh);
    if (seam::BatchWriteRefusesSpentFresh()) {
      BOOST_CHECK_THROW(wipe ? s.child.Flush() : s.child.Sync(), std::logic_error);
      BOOST_TEST(s.child.FindEntry(kOutpoint) != nullptr);
    } else {
      wipe ? s.child.Flush() : s.child.Sync();
      BOOST_TEST(s.child.FindEntry(kOutpoint) == nullptr);
    }
    BOOST_TEST(Read(s.parent) == Observed{});
    BOOST_TEST(s.parent.GetCacheSize() == 0u);
  }
}

BOOST_AUTO_TEST_CASE(rendering) {
  OutPoint p;
  p.txid.bytes[0] = 0xab;
  p.txid.bytes[7] = 0x01;
  p.n = 7;
  BOOST_TEST(p.ToString() == "ab00000000000001:7");
  BOOST_TEST(kA.ToString() == "Coin(amount=100, script=25B, height=10)");
  BOOST_TEST(Coin{}.ToString() == "spent");
}

BOOST_AUTO_TEST_CASE(random_simulation) {
  const uint64_t seed = harness::TestSeed(3);
  BOOST_TEST_MESSAGE("coins random_simulation: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    size_t flushes = 0;
    int ended = 0;
    // 24,000 steps in runs of 400; a run a failed flush ends (see CoinsTester) is followed by a new one.
    for (int steps = 0; steps < 60 * 400;) {
      harness::CoinsTester tester;
      for (int i = 0; i < 400 && !tester.ended(); ++i, ++steps) {
        harness::CoinsStep step;
        // A failed read ends a run: rarely, so that runs are long.
        do {
          step.op = static_cast<harness::CoinsOp>(rng.Below(harness::kCoinsOpCount));
        } while (step.op == harness::CoinsOp::kFailRead && rng.Below(40) != 0);
        step.outpoint = static_cast<uint8_t>(rng.Below(24));  // a narrower range: more collisions
        step.coin = static_cast<uint8_t>(rng.Next());
        step.block = static_cast<uint8_t>(rng.Below(4));
        tester.Apply(step);
      }
      tester.CheckAll();
      ended += tester.ended();
      flushes += tester.base().batches();
    }
    // Writes must actually reach the base, and the misuse path must be taken, for the run to mean anything.
    BOOST_TEST(flushes > 60u);
    BOOST_TEST(ended > 0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
