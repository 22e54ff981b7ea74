// Coins store: the encoding worked out by hand and against the reference encoder; a matrix of batch limits
// × obfuscation giving identical stores; a fixed flush cut at every batch boundary and recovered; a
// repeated interruption keeping the old tip; a real process dying mid-flush on disk; corrupt records and
// impossible options giving clean errors; the obfuscation key's life cycle; a seeded random simulation.
// Against Bitcoin Core the encoding tests (of the embedded encoder's own functions) are left out: Core's
// encoding is checked byte for byte by every store comparison with the reference; corruption and a foreign
// flush are checked against Core's contract (seam::kStoreCorruptionThrows, seam::kStoreFlushRefusalAborts).
#include <boost/test/unit_test.hpp>

#include <leveldb/db.h>
#include <leveldb/env.h>
// memenv.h relies on env.h being included first.
#include <leveldb/helpers/memenv.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "seam/obfuscation.h"
#include "rng.h"
#include "seam/coins_store.h"
#if !SUITE_SUBJECT_CORE
#include "store/encoding.h"
#endif
#include "store_behaviours.h"
#include "store_fixture.h"
#include "coins_model.h"
#include "coins_store_model.h"
#include "coins_store_tester.h"
#include "fault_env.h"
#include "leak_check_pause.h"
#include "test_util.h"

namespace {

#if !SUITE_SUBJECT_CORE
// Also unit tests of the embedded store's own encoding functions (namespace embedded).
using namespace embedded;

std::span<const uint8_t> Span(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

std::string VarInt(uint64_t n) {
  std::string out;
  WriteVarInt(out, n);
  return out;
}
#endif

using harness::KvMap;
using store_fixture::BlockA;
using store_fixture::BlockB;
using unit::TempDir;

std::string Bytes(std::initializer_list<uint8_t> bytes) { return std::string(bytes.begin(), bytes.end()); }

constexpr seam::Obfuscation::KeyBytes kKey{0x9c, 0x01, 0x7e, 0xa5, 0x00, 0xff, 0x31, 0x48};

// An in-memory file system that outlives the stores opened on it.
struct MemDisk {
  std::unique_ptr<leveldb::Env> env{leveldb::NewMemEnv(leveldb::Env::Default())};
  // Where the stores open their database: over `env`, failing when armed.
  mutable harness::FaultEnv faults{env.get()};
  std::unique_ptr<seam::CoinsStore> Open(size_t batch_size = seam::CoinsStore::kDefaultBatchSize,
                                         std::optional<seam::Obfuscation::KeyBytes> key = kKey) const {
    seam::CoinsStore::Options options;
    options.path = "/coins";
    options.env = &faults;
    options.batch_size = batch_size;
    options.new_obfuscation_key = key;
    return std::make_unique<seam::CoinsStore>(options);
  }
  // Rewrites one raw value behind the store's back (the store must be closed).
  void Poke(const std::string& key, const std::string& raw) const {
    leveldb::Options options;
    options.env = env.get();
    leveldb::DB* db = nullptr;
    BOOST_REQUIRE(leveldb::DB::Open(options, "/coins", &db).ok());
    BOOST_REQUIRE(db->Put(leveldb::WriteOptions(), key, raw).ok());
    delete db;
  }
};

KvMap PlainOldState() {
  KvMap m;
  for (const auto& e : store_fixture::OldState()) m[harness::RefCoinKey(e.outpoint)] = harness::RefCoinValue(*e.coin);
  m["B"] = harness::RefHash(BlockA());
  return m;
}

// The flush to B in the order a cache of the subject's hands its entries up: the fixture's, or where the
// subject writes in an order of its own (seam::DirtyOrderIsFirstDirtied), the order its cache wrote them in
// to a base that records it (the same cache, filled the same way, writes them the same way to the store).
const std::vector<store_fixture::Entry>& WrittenToB() {
  static const std::vector<store_fixture::Entry> written = [] {
    std::vector<store_fixture::Entry> fixture = store_fixture::FlushToB();
    if (seam::DirtyOrderIsFirstDirtied()) return fixture;
    harness::CheckedBaseView base(BlockA());
    store_fixture::LoadedCache(&base, fixture, BlockB()).Flush();
    std::vector<store_fixture::Entry> ordered;
    for (const OutPoint& o : base.last_batch()) {
      ordered.push_back(*std::find_if(fixture.begin(), fixture.end(), [&](const auto& e) { return e.outpoint == o; }));
    }
    BOOST_REQUIRE_EQUAL(ordered.size(), fixture.size());
    return ordered;
  }();
  return written;
}

harness::FlushPlan PlanToB() {
  harness::FlushPlan plan;
  plan.new_tip = BlockB();
  plan.old_tip = BlockA();
  for (const auto& e : WrittenToB()) {
    plan.writes.push_back(
        {harness::RefCoinKey(e.outpoint), e.coin ? std::optional(harness::RefCoinValue(*e.coin)) : std::nullopt});
  }
  return plan;
}

KvMap Plain(const seam::CoinsStore& store) {
  return harness::DecodeRaw(store.RawContents(), store.obfuscation().key());
}

// A store at the fixture's old state.
void WriteOldState(seam::CoinsStore& store) { store_fixture::Flush(store, store_fixture::OldState(), BlockA()); }

// Runs the fixture's flush to B, throwing out of it after partial batch `cut` (0: never).
struct Cut {};
void FlushToB(seam::CoinsStore& store, size_t cut) {
  store.after_partial_write = [cut](size_t n) {
    if (n == cut) throw Cut{};
  };
  try {
    store_fixture::Flush(store, store_fixture::FlushToB(), BlockB());
  } catch (const Cut&) {
  }
  store.after_partial_write = nullptr;
}

using harness::LeakCheckPause;

// A flush the store must refuse: `Refusal` thrown, or, where that contract is an assert
// (seam::kStoreFlushRefusalAborts), the end of a child process by SIGABRT (this process's store untouched).
template <typename Refusal>
void CheckFlushRefused(const std::function<void()>& flush, const char* what) {
  if constexpr (!seam::kStoreFlushRefusalAborts) {
    BOOST_CHECK_THROW(flush(), Refusal);
    return;
  }
  BOOST_TEST(unit::AbortsInChild(flush), what << " must abort");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(coins_store_tests)

#if !SUITE_SUBJECT_CORE
// VARINT by hand: 7-bit groups, most significant first, each continued group one less than its value.
BOOST_AUTO_TEST_CASE(varint_known_answers) {
  BOOST_TEST(VarInt(0) == Bytes({0x00}));
  BOOST_TEST(VarInt(127) == Bytes({0x7f}));
  BOOST_TEST(VarInt(128) == Bytes({0x80, 0x00}));    // 128 = (0 + 1) * 128 + 0
  BOOST_TEST(VarInt(255) == Bytes({0x80, 0x7f}));    // (0 + 1) * 128 + 127
  BOOST_TEST(VarInt(256) == Bytes({0x81, 0x00}));    // (1 + 1) * 128 + 0
  BOOST_TEST(VarInt(16511) == Bytes({0xff, 0x7f}));  // (127 + 1) * 128 + 127: the largest two-byte value
  BOOST_TEST(VarInt(16512) == Bytes({0x80, 0x80, 0x00}));
  const std::string max = VarInt(std::numeric_limits<uint64_t>::max());
  BOOST_TEST(max.size() == 10u);
  RecordReader in(Span(max));
  BOOST_TEST(in.VarInt() == std::numeric_limits<uint64_t>::max());
  // One more group than 64 bits hold, and a continued maximum, are corruption.
  const std::string too_long = Bytes({0x80}) + max;
  RecordReader long_in(Span(too_long));
  BOOST_CHECK_THROW(long_in.VarInt(), seam::StoreCorruption);
  // A continued group after the value already reached 2^64 - 1.
  std::string continued = max;
  continued.back() = static_cast<char>(continued.back() | 0x80);
  continued += Bytes({0x00});
  RecordReader continued_in(Span(continued));
  BOOST_CHECK_THROW(continued_in.VarInt(), seam::StoreCorruption);
  const std::string cut = Bytes({0x80});
  RecordReader cut_in(Span(cut));
  BOOST_CHECK_THROW(cut_in.VarInt(), seam::StoreCorruption);
}

BOOST_AUTO_TEST_CASE(varint_and_amounts_match_reference) {
  const uint64_t seed = harness::TestSeed(4);
  BOOST_TEST_MESSAGE("coins_store varint_and_amounts_match_reference: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    for (int i = 0; i < 20000; ++i) {
      const unsigned bits = static_cast<unsigned>(rng.Below(65));
      const uint64_t n = bits == 64 ? rng.Next() : rng.Next() & ((uint64_t{1} << bits) - 1);
      BOOST_TEST_REQUIRE(VarInt(n) == harness::RefVarInt(n), "n=" << n);
      const std::string enc = VarInt(n);
      RecordReader in(Span(enc));
      BOOST_TEST_REQUIRE(in.VarInt() == n);
      const uint64_t amount = rng.Below(3) == 0 ? rng.Below(1000) * 100'000'000 : rng.Below(kMaxMoney + 1);
      BOOST_TEST_REQUIRE(CompressAmount(amount) == harness::RefCompressAmount(amount), "amount=" << amount);
      BOOST_TEST_REQUIRE(DecompressAmount(CompressAmount(amount)) == amount, "amount=" << amount);
    }
  }
}

// Amount compression by hand: x = 1 + 10 (9 n + d - 1) + e, or 1 + 10 (n - 1) + 9 with nine zeros removed.
BOOST_AUTO_TEST_CASE(amount_known_answers) {
  BOOST_TEST(CompressAmount(0) == 0u);
  BOOST_TEST(CompressAmount(1) == 1u);                   // n = 0, d = 1, e = 0
  BOOST_TEST(CompressAmount(10) == 2u);                  // e = 1
  BOOST_TEST(CompressAmount(123) == 1101u);              // n = 12, d = 3: 1 + 10 * 110
  BOOST_TEST(CompressAmount(100'000'000) == 9u);         // 1 BTC: d = 1, e = 8
  BOOST_TEST(CompressAmount(5'000'000'000) == 50u);      // 50 BTC: nine zeros off, n = 5: 1 + 40 + 9
  BOOST_TEST(CompressAmount(kMaxMoney) == 21'000'000u);  // n = 2,100,000: 1 + 20,999,990 + 9
  BOOST_TEST(DecompressAmount(21'000'000) == static_cast<uint64_t>(kMaxMoney));
}

BOOST_AUTO_TEST_CASE(coin_records) {
  Hash256 h;
  for (size_t i = 0; i < 32; ++i) h.bytes[i] = static_cast<uint8_t>(i + 1);
  auto script = [&](std::initializer_list<uint8_t> head, size_t n, std::initializer_list<uint8_t> tail) {
    Script s(head.begin(), head.end());
    s.insert(s.end(), h.bytes.begin(), h.bytes.begin() + n);
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  const std::string h20(h.bytes.begin(), h.bytes.begin() + 20), h32(h.bytes.begin(), h.bytes.end());
  // Height 100, coinbase: code 201 = VARINT 80 49; 1 BTC compresses to 9; P2PKH becomes 00 + hash.
  const Coin p2pkh(100'000'000, script({0x76, 0xa9, 20}, 20, {0x88, 0xac}), 100, true);
  BOOST_TEST(EncodeCoin(p2pkh) == Bytes({0x80, 0x49, 0x09, 0x00}) + h20);
  const Coin p2sh(1, script({0xa9, 20}, 20, {0x87}), 0, false);
  BOOST_TEST(EncodeCoin(p2sh) == Bytes({0x00, 0x01, 0x01}) + h20);
  const Coin p2pk(0, script({33, 0x03}, 32, {0xac}), 1, false);
  BOOST_TEST(EncodeCoin(p2pk) == Bytes({0x02, 0x00, 0x03}) + h32);
  // P2WPKH (22 bytes) is stored whole: VARINT(22 + 6) = 1c.
  const Coin p2wpkh(10, script({0x00, 20}, 20, {}), 3, false);
  BOOST_TEST(EncodeCoin(p2wpkh) == Bytes({0x06, 0x02, 0x1c, 0x00, 20}) + h20);
  for (const Coin& c : {p2pkh, p2sh, p2pk, p2wpkh}) {
    BOOST_TEST((DecodeCoin(Span(EncodeCoin(c))) == c), c.ToString());
    BOOST_TEST(EncodeCoin(c) == harness::RefCoinValue(c));
  }
  // Every coin of the testers' table, against the reference encoder.
  for (size_t i = 0; i < 62; ++i) {
    const Coin& c = harness::CoinTable()[i];
    BOOST_TEST_REQUIRE(EncodeCoin(c) == harness::RefCoinValue(c), "table coin " << i);
    BOOST_TEST_REQUIRE((DecodeCoin(Span(EncodeCoin(c))) == c), "table coin " << i);
  }
  // Keys: 'C', the txid, VARINT(index): 300 = (1 + 1) * 128 + 44 → 81 2c.
  const OutPoint o{h, 300};
  BOOST_TEST(CoinKey(o) == "C" + h32 + Bytes({0x81, 0x2c}));
  BOOST_TEST((DecodeCoinKey(Span(CoinKey(o))) == o));
  BOOST_CHECK_THROW(DecodeCoinKey(Span("B")), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoinKey(Span(CoinKey(o) + "x")), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoinKey(Span("C" + h32 + VarInt(uint64_t{1} << 32))), seam::StoreCorruption);
  BOOST_CHECK_THROW(EncodeCoin(Coin{}), std::logic_error);
  BOOST_CHECK_THROW(EncodeCoin(Coin(kMaxMoney + 1, Script(), 0, false)), std::logic_error);
  BOOST_CHECK_THROW(EncodeCoin(Coin(-5, Script(1, 0x51), 0, false)), std::logic_error);
  BOOST_CHECK_THROW(EncodeCoin(Coin(5, Script(1, 0x51), 0x80000000, false)), std::logic_error);
}

// A template with any one of its fixed bytes changed is stored whole, as the reference encoder says.
BOOST_AUTO_TEST_CASE(script_template_near_misses) {
  struct Template {
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> fixed;  // positions that make it the template
  };
  auto with_body = [](std::vector<uint8_t> head, size_t body, std::vector<uint8_t> tail) {
    head.insert(head.end(), body, 0x42);
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  const Template templates[] = {
      {with_body({0x76, 0xa9, 20}, 20, {0x88, 0xac}), {0, 1, 2, 23, 24}},  // P2PKH
      {with_body({0xa9, 20}, 20, {0x87}), {0, 1, 22}},                     // P2SH
      {with_body({33, 0x02}, 32, {0xac}), {0, 1, 34}},                     // P2PK, compressed key
      {with_body({33, 0x03}, 32, {0xac}), {0, 1, 34}},
  };
  for (const Template& t : templates) {
    const Coin whole(1, Script(t.bytes.begin(), t.bytes.end()), 1, false);
    BOOST_TEST_REQUIRE(EncodeCoin(whole).size() < 3 + t.bytes.size());  // the template itself compresses
    for (const uint32_t i : t.fixed) {
      std::vector<uint8_t> miss = t.bytes;
      miss[i] ^= 0x80;  // not +1, which turns key prefix 0x02 into the other valid one
      const Coin coin(1, Script(miss.begin(), miss.end()), 1, false);
      BOOST_TEST_CONTEXT("byte " << i << " of a " << miss.size() << "-byte template changed") {
        BOOST_TEST(EncodeCoin(coin) == harness::RefCoinValue(coin));
        BOOST_TEST(EncodeCoin(coin).size() == 3 + miss.size());  // code, amount, length: a byte each
        BOOST_TEST((DecodeCoin(Span(EncodeCoin(coin))) == coin));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(corrupt_records_are_clean_errors) {
  const std::string good = EncodeCoin(harness::CoinTable()[5]);
  BOOST_CHECK_THROW(DecodeCoin(Span("")), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoin(Span(good + Bytes({0x00}))), seam::StoreCorruption);  // a trailing byte
  for (size_t n = 0; n < good.size(); ++n)
    BOOST_CHECK_THROW(DecodeCoin(Span(good.substr(0, n))), seam::StoreCorruption);
  // A height code past 32 bits; an amount past MAX_MONEY; a script longer than the record; the form for
  // uncompressed keys cut short (coins_store_encoding_tests has the rest of ids 4 and 5).
  BOOST_CHECK_THROW(DecodeCoin(Span(VarInt(uint64_t{1} << 32) + Bytes({0x00, 0x06}))), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoin(Span(Bytes({0x00}) + VarInt(harness::RefCompressAmount(kMaxMoney + 1)) + Bytes({0x06}))),
                    seam::StoreCorruption);
  // A compressed amount whose decompression overflows 64 bits: not the compression of any amount.
  BOOST_CHECK_THROW(DecodeCoin(Span(Bytes({0x00}) + VarInt(std::numeric_limits<uint64_t>::max()) + Bytes({0x06}))),
                    seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoin(Span(Bytes({0x00, 0x00}) + VarInt(1'000'006) + "abc")), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoin(Span(Bytes({0x00, 0x00, 0x04}) + std::string(31, 'x'))), seam::StoreCorruption);
  BOOST_CHECK_THROW(DecodeCoin(Span(Bytes({0x00, 0x00, 0x05}) + std::string(31, 'x'))), seam::StoreCorruption);
  // As Core: a script longer than 10,000 bytes comes back as one OP_RETURN.
  const Coin overlong = DecodeCoin(Span(Bytes({0x00, 0x00}) + VarInt(10'001 + 6) + std::string(10'001, 'x')));
  BOOST_TEST((overlong.script == Script(1, kOpReturn)));
  // Any flipped byte either decodes to some coin or throws StoreCorruption: never anything else.
  for (size_t i = 0; i < good.size(); ++i) {
    for (const uint8_t mask : {0x01, 0x40, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      try {
        DecodeCoin(Span(bad));
      } catch (const seam::StoreCorruption&) {
      }
    }
  }
}

#endif  // !SUITE_SUBJECT_CORE

BOOST_AUTO_TEST_CASE(impossible_options_are_clear_errors) {
  MemDisk disk;
  BOOST_CHECK_THROW(disk.Open(0), std::invalid_argument);
  seam::CoinsStore::Options no_path;
  no_path.env = disk.env.get();
  BOOST_CHECK_THROW(seam::CoinsStore{no_path}, std::invalid_argument);
  auto store = disk.Open(1);
  BOOST_CHECK_THROW(store->set_batch_size(0), std::invalid_argument);
  BOOST_TEST(store->batch_size() == 1u);
  try {
    store->set_batch_size(0);
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("dbbatchsize") != std::string::npos, e.what());
  }
  // A flush needs a best block.
  CheckFlushRefused<std::logic_error>([&] { store_fixture::Flush(*store, store_fixture::OldState(), Hash256{}); },
                                      "a flush without a best block");
  BOOST_TEST(Plain(*store).empty());
  // A directory LevelDB cannot create. Where the store leaks on a failed open (seam::kStoreFailedOpenLeaks),
  // LeakSanitizer ignores this one open's allocations.
  seam::CoinsStore::Options bad_dir;
  bad_dir.path = "/proc/no/such/dir";
  {
    const LeakCheckPause pause(seam::kStoreFailedOpenLeaks);
    BOOST_CHECK_THROW(seam::CoinsStore{bad_dir}, seam::StoreError);
  }
}

// Every batch limit, with and without obfuscation, ends in the same store. Limits are 64-bit (Core #35616
// made dbcache and batch sizes uint64_t): the ones at and past 2^32 must not wrap to a small limit.
BOOST_AUTO_TEST_CASE(batch_limit_matrix,
                     *unit::Needs(seam::kStoreCutsFlushes, "a hook after each partial batch of a flush")) {
  const KvMap expected = PlanToB().Complete(PlainOldState());
  std::optional<KvMap> raw_with_key;
  for (const uint64_t limit : {uint64_t{1}, uint64_t{100}, uint64_t{4096}, uint64_t{1} << 20, uint64_t{32} << 20,
                               uint64_t{1} << 32, (uint64_t{1} << 32) + 1, UINT64_MAX}) {
    for (const bool obfuscate : {false, true}) {
      BOOST_TEST_CONTEXT("batch limit " << limit << (obfuscate ? ", obfuscated" : ", plaintext")) {
        MemDisk disk;
        auto store = disk.Open(limit, obfuscate ? std::optional(kKey) : std::nullopt);
        WriteOldState(*store);
        size_t partial = 0;
        store->after_partial_write = [&](size_t) { ++partial; };
        store_fixture::Flush(*store, store_fixture::FlushToB(), BlockB());
        BOOST_TEST(partial == PlanToB().PartialBatchEnds(limit).size());
        BOOST_TEST(static_cast<bool>(store->obfuscation()) == obfuscate);
        BOOST_TEST((Plain(*store) == expected));
        if (obfuscate) {
          if (!raw_with_key) raw_with_key = store->RawContents();
          BOOST_TEST((store->RawContents() == *raw_with_key));  // byte-identical, whatever the limit
        }
        BOOST_TEST((store->GetBestBlock() == BlockB()));
        BOOST_TEST(!store->IsMidFlush());
      }
    }
  }
  // With the 1-byte limit every entry is a batch of its own; the default limit never splits this flush.
  BOOST_TEST(PlanToB().PartialBatchEnds(1).size() == PlanToB().writes.size());
  BOOST_TEST(PlanToB().PartialBatchEnds(seam::CoinsStore::kDefaultBatchSize).empty());
}

// Every limit from 1 byte to past the largest single batch: a batch is written once its size estimate
// exceeds the limit (not when it reaches it), so each limit splits exactly where the reference predicts.
BOOST_AUTO_TEST_CASE(split_exactly_past_the_limit,
                     *unit::Needs(seam::kStoreCutsFlushes, "a hook after each partial batch of a flush")) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap expected = plan.Complete(PlainOldState());
  for (size_t limit = 1; limit <= 700; ++limit) {
    BOOST_TEST_CONTEXT("batch limit " << limit) {
      MemDisk disk;
      auto store = disk.Open(limit, std::nullopt);
      WriteOldState(*store);
      size_t partial = 0;
      store->after_partial_write = [&](size_t) { ++partial; };
      store_fixture::Flush(*store, store_fixture::FlushToB(), BlockB());
      BOOST_TEST_REQUIRE(partial == plan.PartialBatchEnds(limit).size());
      BOOST_TEST_REQUIRE((Plain(*store) == expected));
    }
  }
}

// The reference's in-place flush and its undo log (the store tester keeps no copy of a state a flush began
// on): from the state before it or from any of its mid-flush states, the flush ends in the same state, which
// is the last mid-flush state with the head marker replaced by the best block; reverting gives back exactly
// the state it was applied to.
BOOST_AUTO_TEST_CASE(flush_undo_reverts_exactly) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  KvMap complete = plan.MidFlush(before, plan.writes.size());
  BOOST_TEST_REQUIRE(complete.erase("H") == 1u);
  complete["B"] = harness::RefHash(BlockB());
  BOOST_TEST((plan.Complete(before) == complete));
  for (size_t prefix = 0; prefix <= plan.writes.size(); prefix += 7) {
    BOOST_TEST_CONTEXT("from the mid-flush state after " << prefix << " writes") {
      const KvMap start = prefix == 0 ? before : plan.MidFlush(before, prefix);
      KvMap state = start;
      const harness::FlushUndo undo = plan.Apply(state);
      BOOST_TEST((state == complete));
      BOOST_TEST(undo.values.size() == plan.writes.size());
      plan.Revert(state, undo);
      BOOST_TEST((state == start));
    }
  }
}

// The fixed flush, cut after each of its partial batches in turn, then run again to completion.
BOOST_AUTO_TEST_CASE(crash_at_every_batch_boundary,
                     *unit::Needs(seam::kStoreCutsFlushes, "a hook after each partial batch of a flush")) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  for (const size_t limit : {size_t{1}, size_t{200}}) {
    const std::vector<size_t> ends = plan.PartialBatchEnds(limit);
    BOOST_TEST_REQUIRE(ends.size() > 3u);
    for (size_t cut = 1; cut <= ends.size(); ++cut) {
      BOOST_TEST_CONTEXT("batch limit " << limit << ", cut after partial batch " << cut) {
        MemDisk disk;
        {
          auto store = disk.Open(limit);
          WriteOldState(*store);
          FlushToB(*store, cut);
        }
        auto store = disk.Open(limit);
        BOOST_TEST(store->IsMidFlush());
        BOOST_TEST((store->GetBestBlock() == Hash256{}));
        BOOST_TEST((store->GetHeadBlocks() == std::vector{BlockB(), BlockA()}));
        const KvMap state = Plain(*store);
        BOOST_TEST(plan.IsLegalMidFlush(before, state));
        BOOST_TEST((state == plan.MidFlush(before, ends[cut - 1])));
        // Reads in the middle see a mix, by design; a different flush cannot complete this one.
        CheckFlushRefused<seam::StoreError>(
            [&] { store_fixture::Flush(*store, store_fixture::FlushToB(), harness::BlockHash(0xc0)); },
            "a flush to another block on an interrupted store");
        FlushToB(*store, 0);
        BOOST_TEST(!store->IsMidFlush());
        BOOST_TEST((Plain(*store) == plan.Complete(before)));
      }
    }
  }
}

// A second interruption must keep the original old tip in 'H', so the store still knows where it came from.
BOOST_AUTO_TEST_CASE(repeated_interruption_keeps_old_tip,
                     *unit::Needs(seam::kStoreCutsFlushes, "a hook after each partial batch of a flush")) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  MemDisk disk;
  {
    auto store = disk.Open(1);
    WriteOldState(*store);
    FlushToB(*store, 30);
  }
  for (const size_t cut : {size_t{5}, size_t{60}}) {
    auto store = disk.Open(1);
    FlushToB(*store, cut);
    store.reset();
    store = disk.Open(1);
    BOOST_TEST((store->GetHeadBlocks() == std::vector{BlockB(), BlockA()}));
    BOOST_TEST((Plain(*store) == plan.MidFlush(before, std::max<size_t>(30, cut))));
  }
  auto store = disk.Open(1);
  FlushToB(*store, 0);
  BOOST_TEST((Plain(*store) == plan.Complete(before)));
}

// A real process on a real directory dies (_exit) after its k-th partial batch; this process reopens the
// directory, finds the flush interrupted exactly there, and completes it.
BOOST_AUTO_TEST_CASE(process_crash_on_disk) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  const std::vector<size_t> ends = plan.PartialBatchEnds(1);
  for (const size_t k : {size_t{1}, size_t{2}, size_t{17}, ends.size() - 1, ends.size()}) {
    BOOST_TEST_CONTEXT("child dies after partial batch " << k) {
      TempDir dir;
      {
        seam::CoinsStore::Options options;
        options.path = dir.path();
        WriteOldState(*std::make_unique<seam::CoinsStore>(options));
      }
      // unit/CMakeLists.txt builds the child beside this executable. Found at run time rather than compiled
      // in, so this file's object does not depend on where the build tree is (ccache reuses it across clones).
      const std::string child =
          (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "store_crash_child").string();
      const pid_t pid = fork();
      BOOST_REQUIRE(pid >= 0);
      if (pid == 0) {
        const std::string arg = std::to_string(k);
        execl(child.c_str(), child.c_str(), dir.path().c_str(), arg.c_str(), static_cast<char*>(nullptr));
        _exit(127);
      }
      int status = 0;
      BOOST_REQUIRE(waitpid(pid, &status, 0) == pid);
      BOOST_TEST_REQUIRE(WIFEXITED(status));
      BOOST_TEST_REQUIRE(WEXITSTATUS(status) == 0, "the child ended with " << WEXITSTATUS(status));
      seam::CoinsStore::Options options;
      options.path = dir.path();
      seam::CoinsStore store(options);
      BOOST_TEST(store.IsMidFlush());
      BOOST_TEST((store.GetHeadBlocks() == std::vector{BlockB(), BlockA()}));
      BOOST_TEST((Plain(store) == plan.MidFlush(before, ends[k - 1])));
      store_fixture::Flush(store, store_fixture::FlushToB(), BlockB());
      BOOST_TEST(!store.IsMidFlush());
      BOOST_TEST((Plain(store) == plan.Complete(before)));
    }
  }
}

// Flipped bytes in a stored coin, a wrong-length best block, head marker or key: clean errors, no crash.
BOOST_AUTO_TEST_CASE(corrupt_store_is_a_clean_error) {
  MemDisk disk;
  const OutPoint o = store_fixture::Outpoint(5);
  const std::string key = harness::RefCoinKey(o);
  std::string raw;
  {
    auto store = disk.Open();
    WriteOldState(*store);
    raw = store->RawContents().at(key);
  }
  // An undecodable record: StoreCorruption naming the outpoint, or (seam::kStoreCorruptionThrows false) no coin,
  // or (a tree whose lookups abort on one, harness/store_behaviours.h) the end of the process.
  const bool fatal = harness::HasSecondForm(harness::kBadRecordFatal);
  size_t errors = 0, decoded = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    for (const uint8_t mask : {0x01, 0x80, 0xff}) {
      std::string bad = raw;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      disk.Poke(key, bad);
      auto store = disk.Open();
      if (fatal) {
        unit::AbortsInChild([&] { store->GetCoin(o); }) ? ++errors : ++decoded;
        continue;
      }
      try {
        const std::optional<Coin> got = store->GetCoin(o);
        got ? ++decoded : ++errors;
        BOOST_TEST((got || !seam::kStoreCorruptionThrows), "a corrupt record read as no coin instead of an error");
      } catch (const seam::StoreCorruption& e) {
        BOOST_TEST(seam::kStoreCorruptionThrows, "StoreCorruption where absence was expected: " << e.what());
        BOOST_TEST(std::string(e.what()).find(o.ToString()) != std::string::npos, e.what());
        ++errors;
      }
    }
  }
  BOOST_TEST(errors > 0u);
  BOOST_TEST_MESSAGE("flipped coin bytes: " << errors
                                            << (fatal                          ? " ended the process, "
                                                : seam::kStoreCorruptionThrows ? " clean errors, "
                                                                               : " read as no coin, ")
                                            << decoded << " decoded to another coin");
  disk.Poke(key, raw.substr(0, 2));
  // The cursor cannot skip what it cannot decode (Core's: GetValue fails): it reports it, or (a tree whose
  // cursor aborts there, harness/store_behaviours.h) ends the process.
  if constexpr (seam::kStoreCursor) {
    if (harness::HasSecondForm(harness::kCursorAbortsOnBadRecord)) {
      BOOST_TEST(unit::AbortsInChild([&] { disk.Open()->ForEachCoin([](const OutPoint&, const Coin&) {}); }));
    } else {
      BOOST_CHECK_THROW(disk.Open()->ForEachCoin([](const OutPoint&, const Coin&) {}), seam::StoreCorruption);
    }
  }
  if constexpr (seam::kStoreCorruptionThrows) {
    BOOST_CHECK_THROW(disk.Open()->GetCoin(o), seam::StoreCorruption);
    disk.Poke("B", "short");
    BOOST_CHECK_THROW(disk.Open()->GetBestBlock(), seam::StoreCorruption);
    disk.Poke("H", "x");
    BOOST_CHECK_THROW(disk.Open()->GetHeadBlocks(), seam::StoreCorruption);
    disk.Poke(seam::kObfuscationKeyKey, "\x07short");
    BOOST_CHECK_THROW(disk.Open(), seam::StoreCorruption);
  } else if (fatal) {
    // Each record ends the process where it is read; a corrupt key record where the store is opened.
    BOOST_TEST(unit::AbortsInChild([&] { disk.Open()->GetCoin(o); }));
    disk.Poke("B", "short");
    BOOST_TEST(unit::AbortsInChild([&] { disk.Open()->GetBestBlock(); }));
    disk.Poke("H", "x");
    BOOST_TEST(unit::AbortsInChild([&] { disk.Open()->GetHeadBlocks(); }));
    disk.Poke(seam::kObfuscationKeyKey, "\x07short");
    BOOST_TEST(unit::AbortsInChild([&] { disk.Open(); }));
  } else {
    // Each record reads as absent; a corrupt key record as no obfuscation, which then misreads every value.
    BOOST_TEST(!disk.Open()->GetCoin(o).has_value());
    disk.Poke("B", "short");
    BOOST_TEST((disk.Open()->GetBestBlock() == Hash256{}));
    disk.Poke("H", "x");
    BOOST_TEST(disk.Open()->GetHeadBlocks().empty());
    disk.Poke(seam::kObfuscationKeyKey, "\x07short");
    BOOST_TEST(!static_cast<bool>(disk.Open()->obfuscation()));
  }
}

// The key is created only for a new, empty database, stored unobfuscated, and kept on reopen.
BOOST_AUTO_TEST_CASE(obfuscation_key_life_cycle,
                     *unit::Needs(seam::kStoreChoosesKey, "a new database's key chosen by the caller")) {
  {
    MemDisk disk;
    WriteOldState(*disk.Open(seam::CoinsStore::kDefaultBatchSize, std::nullopt));
    auto reopened = disk.Open();  // asks for a key, but the database is not new
    BOOST_TEST(!static_cast<bool>(reopened->obfuscation()));
    BOOST_TEST((reopened->RawContents() == PlainOldState()));  // stored in plaintext
  }
  {
    MemDisk disk;
    auto store = disk.Open();
    BOOST_TEST((store->RawContents().at(std::string("\x0e\x00obfuscate_key", 15)) ==
                Bytes({8}) + std::string(kKey.begin(), kKey.end())));
    WriteOldState(*store);
    store.reset();
    const seam::Obfuscation::KeyBytes other{1, 2, 3, 4, 5, 6, 7, 8};
    store = disk.Open(seam::CoinsStore::kDefaultBatchSize, other);  // the stored key wins
    BOOST_TEST((store->obfuscation().key() == kKey));
    BOOST_TEST((Plain(*store) == PlainOldState()));
    for (const auto& [key, value] : store->RawContents()) {
      if (key[0] == 'C') BOOST_TEST(value != PlainOldState().at(key));
    }
    BOOST_TEST((store->GetCoin(store_fixture::Outpoint(3)) == store_fixture::CoinFor(3)));
  }
}

// The fault layer itself: the k-th write, sync or read of the arming thread fails once; a power loss keeps
// what was synced.
BOOST_AUTO_TEST_CASE(fault_env_fails_the_kth_operation) {
  std::unique_ptr<leveldb::Env> mem(leveldb::NewMemEnv(leveldb::Env::Default()));
  harness::FaultEnv env(mem.get());
  BOOST_REQUIRE(env.CreateDir("/d").ok());
  leveldb::WritableFile* raw = nullptr;
  BOOST_REQUIRE(env.NewWritableFile("/d/f", &raw).ok());
  std::unique_ptr<leveldb::WritableFile> f(raw);
  env.Arm(harness::FaultEnv::Kind::kWrite, 2);
  BOOST_TEST(f->Append("abc").ok());
  BOOST_TEST(!f->Append("def").ok());
  BOOST_TEST(env.injected());
  BOOST_TEST(f->Append("ghi").ok());  // once only
  BOOST_TEST(f->Sync().ok());
  BOOST_TEST(f->Append("jkl").ok());
  env.Arm(harness::FaultEnv::Kind::kSync, 1);
  BOOST_TEST(!f->Sync().ok());
  BOOST_REQUIRE(f->Close().ok());
  f.reset();
  uint64_t size = 0;
  BOOST_REQUIRE(env.GetFileSize("/d/f", &size).ok());
  BOOST_TEST(size == 9u);
  BOOST_REQUIRE(env.RenameFile("/d/f", "/d/g").ok());
  env.DropUnsyncedData();  // the failed sync did not sync "jkl"
  BOOST_REQUIRE(env.GetFileSize("/d/g", &size).ok());
  BOOST_TEST(size == 6u);
  leveldb::RandomAccessFile* in = nullptr;
  BOOST_REQUIRE(env.NewRandomAccessFile("/d/g", &in).ok());
  std::unique_ptr<leveldb::RandomAccessFile> reader(in);
  char scratch[8];
  leveldb::Slice got;
  env.Arm(harness::FaultEnv::Kind::kRead, 1);
  bool other_thread_ok = false;
  std::thread([&] { other_thread_ok = reader->Read(0, 3, &got, scratch).ok(); }).join();
  BOOST_TEST(other_thread_ok);  // another thread's reads do not count
  BOOST_TEST(!reader->Read(0, 3, &got, scratch).ok());
  BOOST_TEST(reader->Read(0, 6, &got, scratch).ok());
  BOOST_TEST(got.ToString() == "abcghi");
}

// A flush whose write fails throws; reopened, the store has the old tip or is mid-flush towards the new
// one, and the same flush completes it. Every write of the flush is made to fail in turn.
BOOST_AUTO_TEST_CASE(failed_write_keeps_the_old_tip) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  const size_t limit = 300;
  const std::vector<size_t> ends = plan.PartialBatchEnds(limit);
  for (uint32_t k = 1;; ++k) {
    BOOST_TEST_CONTEXT("write " << k << " fails") {
      MemDisk disk;
      bool failed = false;
      {
        auto store = disk.Open(limit);
        WriteOldState(*store);
        disk.faults.Arm(harness::FaultEnv::Kind::kWrite, k);
        BOOST_CHECK_NO_THROW(try { FlushToB(*store, 0); } catch (const std::runtime_error&) { failed = true; });
        disk.faults.Disarm();
        BOOST_TEST(failed == disk.faults.injected());
      }
      if (!failed) {
        BOOST_TEST(k > ends.size() + 1);  // every batch was a write that could fail
        break;
      }
      auto store = disk.Open(limit);
      const KvMap state = Plain(*store);
      BOOST_TEST((state == before || plan.IsLegalMidFlush(before, state)));
      BOOST_TEST((store->GetBestBlock() == BlockA() || store->GetHeadBlocks() == std::vector{BlockB(), BlockA()}));
      FlushToB(*store, 0);
      BOOST_TEST((Plain(*store) == plan.Complete(before)));
    }
  }
}

// A power loss after a flush leaves the store at its state when it was opened or at a later one of its
// batches (the subject decides what it syncs: Bitcoin Core syncs nothing, so its log is lost); a flush cut
// before a reopen is durable and, after the loss, still completes.
BOOST_AUTO_TEST_CASE(power_loss_keeps_a_legal_state,
                     *unit::Needs(seam::kStoreCutsFlushes, "a hook after each partial batch of a flush")) {
  const harness::FlushPlan plan = PlanToB();
  const KvMap before = PlainOldState();
  const KvMap after = plan.Complete(before);
  const std::vector<size_t> ends = plan.PartialBatchEnds(1);
  MemDisk disk;
  {
    auto store = disk.Open(1);
    WriteOldState(*store);
  }
  {
    auto store = disk.Open(1);  // the old state is in a synced table now
    FlushToB(*store, 0);
    BOOST_TEST((store->GetBestBlock() == BlockB()));
  }
  disk.faults.DropUnsyncedData();
  {
    auto store = disk.Open(1);
    const KvMap state = Plain(*store);
    bool legal = state == before || state == after;
    for (const size_t end : ends) legal = legal || state == plan.MidFlush(before, end);
    BOOST_TEST(legal);
  }
  MemDisk cut;
  {
    auto store = cut.Open(1);
    WriteOldState(*store);
    FlushToB(*store, 7);
  }
  cut.Open(1).reset();  // recovery writes the mid-flush state to a synced table
  cut.faults.DropUnsyncedData();
  auto store = cut.Open(1);
  BOOST_TEST((Plain(*store) == plan.MidFlush(before, ends[6])));
  FlushToB(*store, 0);
  BOOST_TEST((Plain(*store) == after));
}

// An open during which the disk fails throws a StoreError (or succeeds); the next open finds the state.
BOOST_AUTO_TEST_CASE(failed_open_then_open) {
  const KvMap before = PlainOldState();
  for (const auto kind :
       {harness::FaultEnv::Kind::kWrite, harness::FaultEnv::Kind::kSync, harness::FaultEnv::Kind::kRead}) {
    for (uint32_t k = 1; k <= 4; ++k) {
      BOOST_TEST_CONTEXT("operation kind " << static_cast<int>(kind) << ", number " << k) {
        MemDisk disk;
        {
          auto store = disk.Open();
          WriteOldState(*store);
        }
        disk.faults.Arm(kind, k);
        if (kind == harness::FaultEnv::Kind::kRead && harness::HasSecondForm(harness::kReadErrorFatal)) {
          // A failed read ends the process there (or the open did without that read).
          const bool aborted = unit::AbortsInChild([&] { disk.Open(); });
          BOOST_TEST_MESSAGE("an open whose read number " << k << " fails " << (aborted ? "aborts" : "succeeds"));
        } else {
          const LeakCheckPause pause(seam::kStoreFailedOpenLeaks);
          try {
            disk.Open();
          } catch (const seam::StoreError&) {
            BOOST_TEST(disk.faults.injected());
          }
        }
        disk.faults.Disarm();
        BOOST_TEST((Plain(*disk.Open()) == before));
      }
    }
  }
}

// A read that fails below the error catcher runs its callbacks; the store's own read throws.
BOOST_AUTO_TEST_CASE(failed_read_reaches_the_catcher,
                     *unit::Needs(seam::kCoinsApi.error_catcher, "CoinsViewErrorCatcher")) {
  MemDisk disk;
  {
    auto store = disk.Open();
    WriteOldState(*store);
  }
  disk.Open().reset();
  {
    auto store = disk.Open();
    FlushToB(*store, 0);
  }
  // B's coins are now in a table of their own, whose blocks no read of the open (the obfuscation key sorts
  // before every key of that table) has brought into LevelDB's cache.
  auto store = disk.Open();
  seam::CoinsViewErrorCatcher catcher(store.get());
  std::vector<int> ran;
  catcher.AddReadErrCallback([&] { ran.push_back(1); });
  catcher.AddReadErrCallback([&] {
    ran.push_back(2);
    throw harness::ReadErrorSeen{};
  });
  seam::CoinsViewCache cache(&catcher);
  const OutPoint o = store_fixture::Outpoint(store_fixture::kOldCoins + 1);  // added by the flush to B
  disk.faults.Arm(harness::FaultEnv::Kind::kRead, 1);
  if (harness::HasSecondForm(harness::kReadErrorFatal)) {
    // The read ends the process before the catcher sees it (harness/store_behaviours.h).
    BOOST_TEST(unit::AbortsInChild([&] { cache.GetCoin(o); }));
    return;
  }
  BOOST_CHECK_THROW(cache.GetCoin(o), harness::ReadErrorSeen);
  BOOST_TEST(disk.faults.injected());
  BOOST_TEST((ran == std::vector<int>{1, 2}));
  disk.faults.Arm(harness::FaultEnv::Kind::kRead, 1);
  BOOST_CHECK_THROW(store->PeekCoin(store_fixture::Outpoint(store_fixture::kOldCoins + 2)), std::runtime_error);
  disk.faults.Disarm();
  seam::CoinsViewCache again(&catcher);
  BOOST_TEST((again.GetCoin(o) == store_fixture::CoinFor((store_fixture::kOldCoins + 1) * 7)));
}

BOOST_AUTO_TEST_CASE(random_simulation) {
  const uint64_t seed = harness::TestSeed(5);
  BOOST_TEST_MESSAGE("coins_store random_simulation: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    size_t partial = 0, cuts = 0, faults = 0;
    for (int run = 0; run < 30; ++run) {
      seam::Obfuscation::KeyBytes key{};
      if (run % 3 != 0) {
        for (auto& b : key) b = static_cast<uint8_t>(rng.Next());
      }
      harness::CoinsStoreTester tester(key);
      for (int i = 0; i < 120; ++i) {
        harness::CoinsStoreStep step;
        // A failed read ends a run: rarely, so that runs are long.
        do {
          step.op = static_cast<harness::CoinsStoreOp>(rng.Below(harness::kCoinsStoreOpCount));
        } while (step.op == harness::CoinsStoreOp::kFailRead && rng.Below(30) != 0);
        step.outpoint = static_cast<uint8_t>(rng.Below(24));
        step.coin = static_cast<uint8_t>(rng.Next());
        step.block = static_cast<uint8_t>(rng.Below(4));
        step.batch_limit = static_cast<uint32_t>(1) << rng.Below(12);
        step.cut = static_cast<uint8_t>(rng.Below(6));
        step.cut_again = static_cast<uint8_t>(rng.Below(6));
        step.fault = static_cast<uint8_t>(rng.Next() & 0x9f);  // the k-th of the first 16 writes or syncs
        tester.Apply(step);
      }
      tester.CheckAll();
      partial += tester.partial_writes();
      cuts += tester.cuts();
      faults += tester.faults();
    }
    // The run only means something if flushes split and were cut, and the disk failed.
    BOOST_TEST(partial > 100u);
    BOOST_TEST(cuts > 10u);
    BOOST_TEST(faults > 10u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
