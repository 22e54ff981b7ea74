// The overlay a block is connected through (docs/semantics.md §1, "The overlay"): which prevouts it queues,
// what in-order and out-of-order lookups give, that its parent caches nothing, Reset in the middle of a
// block and reuse for the next; then OverlayTester on random blocks for every thread count, with a printed,
// settable seed.
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "coins_model.h"
#include "coins_tables.h"
#include "overlay_tester.h"
#include "rng.h"
#include "seam/coins_cache.h"

namespace {

const Coin kA(100, Script(25, 0x76), 1, false);
const Coin kB(200, Script(80, 0x51), 1, false);

Transaction Spending(std::vector<OutPoint> prevouts, uint32_t outputs, uint32_t tag) {
  Transaction tx;
  tx.locktime = tag;
  for (const OutPoint& p : prevouts) tx.vin.push_back(TxIn{p, {}, 0xffffffff, {}});
  for (uint32_t n = 0; n < outputs; ++n) tx.vout.push_back(TxOut{1000 + n, Script(22, 0x00)});
  return tx;
}

Transaction Coinbase(uint8_t tag) {
  Transaction tx;
  tx.vin.push_back(TxIn{OutPoint{Hash256{}, embedded::kNullIndex}, Script{0x01, tag}, 0xffffffff, {}});
  tx.vout.push_back(TxOut{5000, Script(22, 0x00)});
  return tx;
}

// base (with coins at funding[0..3]) <- tip <- overlay with `workers` threads.
struct Fixture {
  std::vector<OutPoint> funding{harness::OutpointTable()[0], harness::OutpointTable()[1], harness::OutpointTable()[4],
                                harness::OutpointTable()[5]};
  harness::CheckedBaseView base{harness::BlockHash(1)};
  seam::CoinsViewCache tip{&base};
  explicit Fixture() {
    for (const OutPoint& o : funding) tip.AddCoin(o, kA, false);
    tip.SetBestBlock(harness::BlockHash(2));
    tip.Flush();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(coins_overlay_tests)

BOOST_AUTO_TEST_CASE(in_order_lookups_consume_the_queue) {
  for (int workers = 0; workers <= seam::CoinsViewOverlay::kMaxWorkers; ++workers) {
    BOOST_TEST_CONTEXT("workers=" << workers) {
      Fixture f;
      seam::CoinsViewOverlay overlay(&f.tip, workers);
      Block block;
      block.vtx.push_back(Coinbase(1));
      block.vtx.push_back(Spending({f.funding[0], f.funding[1]}, 2, 1));
      const Hash256 tx1 = TxidOf(block.vtx[1]);
      // Spends tx1's output (not queued: the block creates it) and a funding coin (queued).
      block.vtx.push_back(Spending({OutPoint{tx1, 0}, f.funding[2]}, 1, 1));
      overlay.StartFetching(block);
      BOOST_TEST(overlay.AllInputsConsumed() == (workers == 0 || !seam::kOverlayPrefetches));
      BOOST_TEST(overlay.HaveCoin(f.funding[0]));
      BOOST_TEST(overlay.HaveCoin(f.funding[1]));
      BOOST_TEST(overlay.SpendCoin(f.funding[0]));
      BOOST_TEST(overlay.SpendCoin(f.funding[1]));
      overlay.AddCoin(OutPoint{tx1, 0}, kB, false);
      BOOST_TEST(overlay.HaveCoin(OutPoint{tx1, 0}));
      BOOST_TEST((overlay.AccessCoin(f.funding[2]) == kA));
      BOOST_TEST(overlay.AllInputsConsumed());
      BOOST_TEST(f.tip.GetCacheSize() == 0u);  // the tip was only peeked at
      BOOST_CHECK_NO_THROW(overlay.SanityCheck());
      overlay.SetBestBlock(harness::BlockHash(3));
      overlay.Flush();
      overlay.Reset();
      BOOST_TEST(!f.tip.PeekCoin(f.funding[0]).has_value());
      BOOST_TEST((f.tip.PeekCoin(f.funding[2]) == kA));
      BOOST_TEST((f.tip.PeekCoin(OutPoint{tx1, 0}) == kB));
      BOOST_TEST((f.tip.GetBestBlock() == harness::BlockHash(3)));
      BOOST_TEST(overlay.GetCacheSize() == 0u);
    }
  }
}

// A lookup out of block order is answered by the parent; the queue stops at the skipped prevout, so the
// fetched coins behind it are not taken, and every answer is still the parent's.
BOOST_AUTO_TEST_CASE(out_of_order_lookups_are_still_right) {
  for (int workers = 1; workers <= seam::CoinsViewOverlay::kMaxWorkers; ++workers) {
    BOOST_TEST_CONTEXT("workers=" << workers) {
      Fixture f;
      seam::CoinsViewOverlay overlay(&f.tip, workers);
      Block block;
      block.vtx.push_back(Coinbase(1));
      block.vtx.push_back(Spending({f.funding[0]}, 1, 1));
      block.vtx.push_back(Spending({f.funding[1], harness::OutpointTable()[9]}, 1, 1));  // the second is missing
      overlay.StartFetching(block);
      BOOST_TEST((overlay.AccessCoin(f.funding[1]) == kA));  // ahead of funding[0]
      BOOST_TEST(overlay.HaveCoin(f.funding[0]));
      BOOST_TEST(!overlay.HaveCoin(harness::OutpointTable()[9]));
      BOOST_TEST(overlay.AllInputsConsumed() == !seam::kOverlayPrefetches);
      overlay.Reset();  // what ConnectBlock does with an invalid block
      BOOST_TEST(overlay.AllInputsConsumed());
      BOOST_TEST(overlay.GetCacheSize() == 0u);
      BOOST_TEST((f.tip.PeekCoin(f.funding[0]) == kA));
    }
  }
}

// One overlay serves block after block (Core keeps one per chainstate): a block abandoned half way leaves
// nothing behind, and a new block cannot start before the last one was reset.
BOOST_AUTO_TEST_CASE(reset_mid_block_then_reuse) {
  Fixture f;
  seam::CoinsViewOverlay overlay(&f.tip, 2);
  Block first;
  first.vtx.push_back(Coinbase(1));
  first.vtx.push_back(Spending({f.funding[0], f.funding[1], f.funding[2]}, 1, 1));
  overlay.StartFetching(first);
  BOOST_CHECK_THROW(overlay.StartFetching(first), std::logic_error);
  BOOST_TEST(overlay.HaveCoin(f.funding[0]));
  BOOST_TEST(overlay.SpendCoin(f.funding[0]));
  overlay.Reset();
  BOOST_TEST(overlay.GetCacheSize() == 0u);
  if (seam::kDirtyCountVisible) BOOST_TEST(overlay.GetDirtyCount() == 0u);
  Block second;
  second.vtx.push_back(Coinbase(2));
  second.vtx.push_back(Spending({f.funding[0]}, 1, 2));
  overlay.StartFetching(second);
  BOOST_TEST((overlay.AccessCoin(f.funding[0]) == kA));  // the abandoned spend is gone
  BOOST_TEST(overlay.AllInputsConsumed());
  overlay.Reset();
}

// OverlayTester on random blocks: every step checked against the model and the thread-less overlay, for
// every thread count.
BOOST_AUTO_TEST_CASE(random_blocks) {
  const uint64_t seed = harness::TestSeed(11);
  BOOST_TEST_MESSAGE("coins_overlay random_blocks: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    size_t written = 0;
    for (int run = 0; run < 100; ++run) {
      harness::OverlayTester tester(static_cast<int>(run % (seam::CoinsViewOverlay::kMaxWorkers + 1)));
      for (int i = 0; i < 40; ++i) {
        harness::OverlayStep step;
        // Blocks, connections and block ends more often than the rest, so that blocks get written.
        constexpr harness::OverlayOp kFavoured[] = {harness::OverlayOp::kBlock, harness::OverlayOp::kConnect,
                                                    harness::OverlayOp::kEnd};
        const uint64_t pick = rng.Below(harness::kOverlayOpCount + 18);
        step.op = pick < harness::kOverlayOpCount ? static_cast<harness::OverlayOp>(pick) : kFavoured[pick % 3];
        step.arg = static_cast<uint8_t>(rng.Next());
        step.coin = static_cast<uint8_t>(rng.Next());
        step.overwrite = rng.Chance(50);
        step.txs.resize(rng.Range(0, harness::OverlayTester::kMaxTxs));
        for (harness::TxShape& tx : step.txs) {
          tx.inputs.resize(rng.Range(1, harness::OverlayTester::kMaxInputs));
          for (uint8_t& in : tx.inputs)
            in = rng.Chance(60) ? static_cast<uint8_t>(rng.Below(8)) : static_cast<uint8_t>(rng.Next());
          tx.outputs = static_cast<uint8_t>(rng.Range(1, harness::OverlayTester::kMaxOutputs));
          tx.coin = static_cast<uint8_t>(rng.Next());
        }
        tester.Apply(step);
      }
      tester.CheckAll();
      written += tester.blocks_written();
    }
    BOOST_TEST(written > 20u);  // valid blocks must reach the tip for the run to mean anything
  }
}

BOOST_AUTO_TEST_SUITE_END()
