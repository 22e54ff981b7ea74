// Transaction and block checks (docs/semantics.md §4): every reject reason and their precedence; the duplicate/null
// precedence table; every transaction of up to 4 inputs from a pool with the null prevout and zero-hash
// outpoints, subject against reference; double spends inside a block; randomized transactions and blocks
// with a printed, settable seed; the wire format's known answers, round trips and parse errors.
#include <boost/test/unit_test.hpp>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "seam/types.h"
#include "rng.h"
#include "seam/tx_check.h"
#include "test_util.h"
#include "tx_check_ref.h"
#include "tx_samples.h"
#include "tx_spec.h"
#include "tx_tester.h"

namespace {

using unit::FromHex;

Hash256 HashOf(uint8_t first, uint8_t last) {
  Hash256 h;
  h.bytes[0] = first;
  h.bytes[31] = last;
  return h;
}

const Hash256 kZero;
const Hash256 kLow = HashOf(0, 1);  // zero but for the last byte: sorts right after the zero hashes
const Hash256 kA = HashOf(0xa0, 0x11);
const Hash256 kALast = HashOf(0xa0, 0x12);  // kA but for the last byte
const Hash256 kB = HashOf(0xb0, 0x11);      // kA but for the first byte
const OutPoint kNull{kZero, kNullIndex};

TxOut Output(int64_t value) { return {value, Script(22, 0x00)}; }

Transaction MakeTx(const std::vector<OutPoint>& prevouts, const std::vector<int64_t>& values = {1000}) {
  Transaction tx;
  for (const OutPoint& p : prevouts) {
    TxIn in;
    in.prevout = p;
    tx.vin.push_back(in);
  }
  for (const int64_t v : values) tx.vout.push_back(Output(v));
  return tx;
}

Transaction MakeCoinbase(size_t script_sig_length = 4) {
  Transaction tx = MakeTx({kNull}, {50 * kCoin});
  tx.vin[0].script_sig = Script(static_cast<Script::size_type>(script_sig_length), 0x51);
  return tx;
}

std::string SubjectReason(const Transaction& tx) { return Reason(seam::CheckTransaction(tx)); }

// The subject's reason, after checking that the reference and every other CheckTx property agree.
std::string Checked(const Transaction& tx) {
  harness::CheckTx(tx);
  return SubjectReason(tx);
}

std::string BlockVerdict(const Block& block) {
  harness::CheckBlockCase(block);
  const seam::BlockCheck r = seam::CheckBlock(block);
  return std::string(Reason(r.reject)) + "@" + (r.tx == seam::BlockCheck::kNoTx ? "none" : std::to_string(r.tx));
}

Block MakeBlock(std::vector<Transaction> txs) {
  Block block;
  block.header.version = 0x20000000;
  block.vtx = std::move(txs);
  return block;
}

std::vector<uint8_t> Serialized(const Transaction& tx) {
  std::vector<uint8_t> out;
  SerializeTransaction(out, tx);
  return out;
}

// The parse error of `bytes`, or "parsed" when they parse. CheckTxBytes first: the round trip, and the
// subject's own parser's agreement when it has one (seam::kSubjectCodec).
std::string ParseError(const std::vector<uint8_t>& bytes) {
  harness::CheckTxBytes(bytes);
  Transaction tx;
  std::string error;
  return ParseTransaction(bytes, tx, &error) ? "parsed" : error;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Grows output 0's script so that the size without witness is exactly `target`.
void GrowTo(Transaction& tx, size_t target) {
  Script& s = tx.vout[0].script_pubkey;
  while (SerializedSize(tx, false) < target) {
    const size_t missing = target - SerializedSize(tx, false);
    s.resize(static_cast<Script::size_type>(s.size() + (missing > 8 ? missing - 8 : 1)));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tx_check_tests)

BOOST_AUTO_TEST_CASE(every_reject_reason) {
  BOOST_TEST(Checked(MakeTx({{kA, 0}})) == "");
  BOOST_TEST(Checked(MakeTx({}, {1})) == "bad-txns-vin-empty");
  BOOST_TEST(Checked(MakeTx({}, {})) == "bad-txns-vin-empty");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {})) == "bad-txns-vout-empty");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {-1})) == "bad-txns-vout-negative");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {std::numeric_limits<int64_t>::min()})) == "bad-txns-vout-negative");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney + 1})) == "bad-txns-vout-toolarge");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {std::numeric_limits<int64_t>::max()})) == "bad-txns-vout-toolarge");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney})) == "");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {0})) == "");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney, 1})) == "bad-txns-txouttotal-toolarge");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney / 2, kMaxMoney - kMaxMoney / 2})) == "");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney / 3, kMaxMoney / 3, kMaxMoney / 3, 1})) ==
             "bad-txns-txouttotal-toolarge");
  BOOST_TEST(Checked(MakeTx({{kA, 0}, {kA, 0}})) == "bad-txns-inputs-duplicate");
  BOOST_TEST(Checked(MakeTx({{kA, 0}, kNull})) == "bad-txns-prevout-null");
  BOOST_TEST(Checked(MakeCoinbase(1)) == "bad-cb-length");
  BOOST_TEST(Reason(static_cast<seam::Reject>(200)) == std::string("unknown"));
  BOOST_TEST(Reason(static_cast<seam::Reject>(seam::kRejectCount)) == std::string("unknown"));
  BOOST_TEST(Reason(seam::Reject::kBlkSigops) == std::string("bad-blk-sigops"));  // Core's block rule only
}

// Rules apply in the order of docs/semantics.md §4: each row breaks two rules and expects the earlier one.
BOOST_AUTO_TEST_CASE(rule_order) {
  BOOST_TEST(Checked(MakeTx({{kA, 0}, {kA, 0}}, {})) == "bad-txns-vout-empty");
  BOOST_TEST(Checked(MakeTx({{kA, 0}, {kA, 0}}, {-5})) == "bad-txns-vout-negative");
  BOOST_TEST(Checked(MakeTx({kNull, kNull}, {kMaxMoney, kMaxMoney})) == "bad-txns-txouttotal-toolarge");
  // Per output in order: a negative value after a too-large one is not reached, and vice versa.
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney + 1, -1})) == "bad-txns-vout-toolarge");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {-1, kMaxMoney + 1})) == "bad-txns-vout-negative");
  BOOST_TEST(Checked(MakeTx({{kA, 0}}, {kMaxMoney, 1, -1})) == "bad-txns-txouttotal-toolarge");
  Transaction big = MakeTx({{kA, 0}, {kA, 0}}, {-1});
  GrowTo(big, 1000001);
  BOOST_TEST(Checked(big) == "bad-txns-oversize");
}

// Oversize counts the serialization without witness: 1,000,000 bytes pass, 1,000,001 do not, and
// witness bytes never count.
BOOST_AUTO_TEST_CASE(oversize_boundary) {
  Transaction tx = MakeTx({{kA, 0}});
  GrowTo(tx, 1000000);
  BOOST_TEST(SerializedSize(tx, false) == 1000000u);
  BOOST_TEST(Checked(tx) == "");
  tx.vin[0].witness = {std::vector<uint8_t>(5000, 0x01)};
  BOOST_TEST(SerializedSize(tx, true) > 1000000u);
  BOOST_TEST(Checked(tx) == "");
  tx.vout[0].script_pubkey.push_back(0x00);
  BOOST_TEST(SerializedSize(tx, false) == 1000001u);
  BOOST_TEST(Checked(tx) == "bad-txns-oversize");
}

BOOST_AUTO_TEST_CASE(coinbase_script_sig_length) {
  for (const size_t length : {0, 1, 101, 150}) {
    BOOST_TEST(Checked(MakeCoinbase(length)) == "bad-cb-length", "length " << length);
  }
  for (const size_t length : {2, 3, 50, 99, 100}) BOOST_TEST(Checked(MakeCoinbase(length)) == "", "length " << length);
  // Only a lone null input makes a coinbase; with a second input the null prevout is the error.
  Transaction two = MakeCoinbase(1);
  two.vin.push_back(two.vin[0]);
  two.vin[1].prevout = {kA, 0};
  BOOST_TEST(Checked(two) == "bad-txns-prevout-null");
}

// The precedence between duplicate and null across the 1-, 2- and sorted-input paths, and the shapes the
// specialised check can get wrong: the null one among several zero hashes (it sorts last), zero hash with
// another index, an "almost zero" hash with index 0xffffffff, equal hashes with different indexes.
BOOST_AUTO_TEST_CASE(duplicate_and_null_precedence) {
  struct Row {
    std::vector<OutPoint> inputs;
    const char* reason;
  };
  const std::vector<Row> rows = {
      {{kNull, kNull}, "bad-txns-inputs-duplicate"},
      {{kNull, kNull, {kA, 0}}, "bad-txns-inputs-duplicate"},
      {{{kA, 0}, kNull, kNull}, "bad-txns-inputs-duplicate"},
      {{kNull, {kZero, 0}, kNull, {kA, 1}}, "bad-txns-inputs-duplicate"},
      {{{kA, 0}, kNull}, "bad-txns-prevout-null"},
      {{kNull, {kA, 0}}, "bad-txns-prevout-null"},
      {{{kZero, 0}, {kZero, 1}, kNull}, "bad-txns-prevout-null"},
      {{kNull, {kZero, 0}, {kZero, 1}}, "bad-txns-prevout-null"},
      {{{kZero, 0}, kNull, {kA, 0}}, "bad-txns-prevout-null"},
      {{{kZero, 0xfffffffe}, {kZero, 0}, {kZero, 7}, kNull}, "bad-txns-prevout-null"},
      {{{kZero, 0}}, ""},
      {{{kZero, 0}, {kZero, 1}}, ""},
      {{{kZero, 0}, {kZero, 1}, {kZero, 0xfffffffe}}, ""},
      {{{kLow, kNullIndex}, {kZero, 0}, {kA, 0}}, ""},
      {{{kLow, kNullIndex}}, ""},
      {{{kA, kNullIndex}, {kA, 0}}, ""},
      {{{kA, 0}, {kA, 1}}, ""},
      {{{kA, 0}, {kA, 1}, {kA, 2}}, ""},
      {{{kA, 0}, {kALast, 0}, {kB, 0}}, ""},
      {{{kA, 0}, {kA, 0}}, "bad-txns-inputs-duplicate"},
      {{{kA, 0}, {kB, 0}, {kA, 0}}, "bad-txns-inputs-duplicate"},
      {{{kZero, 1}, {kA, 0}, {kZero, 1}}, "bad-txns-inputs-duplicate"},
  };
  for (size_t i = 0; i < rows.size(); ++i) BOOST_TEST(Checked(MakeTx(rows[i].inputs)) == rows[i].reason, "row " << i);
}

// Every sequence of 1 to 4 inputs over 9 outpoints (7,380 transactions, plus every coinbase length): the
// subject and the reference agree on each, and every outcome occurs.
BOOST_AUTO_TEST_CASE(exhaustive_small_transactions) {
  const std::vector<OutPoint> pool = {
      kNull, {kZero, 0}, {kZero, 1}, {kZero, 0xfffffffe}, {kLow, kNullIndex}, {kA, 0}, {kA, 1}, {kALast, 0}, {kB, 0}};
  std::map<std::string, int> outcomes;
  std::vector<size_t> pick;
  for (size_t n = 1; n <= 4; ++n) {
    pick.assign(n, 0);
    while (true) {
      std::vector<OutPoint> inputs;
      for (const size_t p : pick) inputs.push_back(pool[p]);
      ++outcomes[Checked(MakeTx(inputs))];
      size_t k = 0;
      while (k < n && ++pick[k] == pool.size()) pick[k++] = 0;
      if (k == n) break;
    }
  }
  for (size_t length = 0; length <= 102; ++length) ++outcomes[Checked(MakeCoinbase(length))];
  BOOST_TEST(outcomes[""] > 0);
  BOOST_TEST(outcomes["bad-txns-inputs-duplicate"] > 0);
  BOOST_TEST(outcomes["bad-txns-prevout-null"] > 0);
  BOOST_TEST(outcomes["bad-cb-length"] == 5);  // lengths 0, 1, 101, 102, and the lone null input of length 0
}

BOOST_AUTO_TEST_CASE(block_reasons) {
  const Transaction spend = MakeTx({{kA, 0}});
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), spend})) == "@none");
  BOOST_TEST(BlockVerdict(MakeBlock({})) == "bad-blk-length@none");
  BOOST_TEST(BlockVerdict(MakeBlock({spend})) == "bad-cb-missing@0");
  BOOST_TEST(BlockVerdict(MakeBlock({spend, MakeCoinbase()})) == "bad-cb-missing@0");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), spend, MakeCoinbase()})) == "bad-cb-multiple@2");
  // Every extra coinbase is found before any transaction is checked.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({{kB, 0}}, {-1}), MakeCoinbase()})) == "bad-cb-multiple@2");
  // The first failing transaction's reason, with its index; the coinbase is checked too.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), spend, MakeTx({{kB, 0}}, {-1}), MakeTx({}, {1})})) ==
             "bad-txns-vout-negative@2");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(1), spend})) == "bad-cb-length@0");
  // Two identical failing transactions (one txid): the first is named.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({{kB, 0}}, {-1}), MakeTx({{kB, 0}}, {-1})})) ==
             "bad-txns-vout-negative@1");
  // The block limit counts the serialization without witness, header included: witness bytes on top of a
  // block at the limit do not count.
  Block big = MakeBlock({MakeCoinbase(), spend});
  GrowTo(big.vtx[1], 1000000 - (SerializedSize(big, false) - SerializedSize(big.vtx[1], false)));
  BOOST_TEST(SerializedSize(big, false) == 1000000u);
  BOOST_TEST(BlockVerdict(big) == "@none");
  big.vtx[1].vin[0].witness = {std::vector<uint8_t>(5000, 0x01)};
  BOOST_TEST(SerializedSize(big, true) > 1000000u);
  BOOST_TEST(BlockVerdict(big) == "@none");
  big.vtx[1].vout[0].script_pubkey.push_back(0x00);
  BOOST_TEST(BlockVerdict(big) == "bad-blk-length@none");
}

// CVE-2018-17144: a block that spends one outpoint twice, within one transaction or across two, is
// rejected; the duplicate check is never skipped inside a block.
BOOST_AUTO_TEST_CASE(double_spend_block) {
  const OutPoint x{kA, 0};
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x, x})})) == "bad-txns-inputs-duplicate@1");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({{kB, 0}, x, {kB, 1}, x})})) ==
             "bad-txns-inputs-duplicate@1");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x}), MakeTx({x})})) == "bad-txns-inputs-missingorspent@2");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x, {kB, 0}}), MakeTx({{kB, 1}}), MakeTx({{kB, 2}, x})})) ==
             "bad-txns-inputs-missingorspent@3");
  // Two double spends: the first transaction, in block order, that spends an already spent outpoint.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x}), MakeTx({{kB, 0}}), MakeTx({{kB, 0}}),
                                     MakeTx({x})})) == "bad-txns-inputs-missingorspent@3");
  // The second of three spenders is the first double spend. Two double spends, the outpoints swapped from
  // the block above: the earlier in block order counts, whichever of the two outpoints sorts first.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x}), MakeTx({x}), MakeTx({x})})) ==
             "bad-txns-inputs-missingorspent@2");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({{kB, 0}}), MakeTx({x}), MakeTx({x}),
                                     MakeTx({{kB, 0}})})) == "bad-txns-inputs-missingorspent@3");
  // A per-transaction failure comes first even when it sits after a double spend.
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x}), MakeTx({x}), MakeTx({{kB, 0}, {kB, 0}})})) ==
             "bad-txns-inputs-duplicate@3");
  BOOST_TEST(BlockVerdict(MakeBlock({MakeCoinbase(), MakeTx({x}), MakeTx({{kA, 1}})})) == "@none");
}

// Bitcoin Core's CheckBlock limits the legacy signature operations of a block to 20,000 (seam::
// kBlockSigopsLimit): OP_CHECKSIG[VERIFY] count 1, OP_CHECKMULTISIG[VERIFY] 20, in every scriptSig and
// output script, pushed bytes not at all. The rule comes after the per-transaction rules and before the
// double-spend rule. The embedded CheckBlock has no such rule: there every row is decided without it.
BOOST_AUTO_TEST_CASE(block_sigops_limit) {
  const std::string over = seam::kBlockSigopsLimit ? "bad-blk-sigops@none" : "@none";
  Transaction at_limit = MakeTx({{kA, 0}});
  at_limit.vout[0].script_pubkey = Script(500, 0xae);                                      // 10,000
  at_limit.vout[0].script_pubkey.insert(at_limit.vout[0].script_pubkey.end(), 500, 0xaf);  // 10,000 more
  BOOST_TEST(harness::LegacySigOpsRef(at_limit.vout[0].script_pubkey) == 20000u);
  const Transaction coinbase = MakeCoinbase();
  Transaction signing_coinbase = MakeCoinbase();
  signing_coinbase.vin[0].script_sig[0] = 0xac;  // one more, in the coinbase's scriptSig
  BOOST_TEST(BlockVerdict(MakeBlock({coinbase, at_limit})) == "@none");
  BOOST_TEST(BlockVerdict(MakeBlock({signing_coinbase, at_limit})) == over);
  Transaction verify = MakeTx({{kB, 0}});
  verify.vin[0].script_sig = Script(1, 0xad);  // OP_CHECKSIGVERIFY in another transaction's scriptSig
  BOOST_TEST(BlockVerdict(MakeBlock({coinbase, at_limit, verify})) == over);
  BOOST_TEST(BlockVerdict(MakeBlock({signing_coinbase, at_limit, MakeTx({{kB, 0}}, {-1})})) ==
             "bad-txns-vout-negative@2");
  BOOST_TEST(BlockVerdict(MakeBlock({signing_coinbase, at_limit, MakeTx({{kA, 0}})})) ==
             (seam::kBlockSigopsLimit ? over : "bad-txns-inputs-missingorspent@2"));

  // Pushed bytes are data: the same operations behind OP_PUSHDATA2 count nothing, behind a direct push
  // of 75 bytes (0x4b) neither; a push that runs past the end stops the count, so what follows it is
  // data too.
  Transaction pushed = at_limit;
  Script& script = pushed.vout[0].script_pubkey;
  const uint8_t pushdata2[] = {0x4d, 0xe8, 0x03};  // 1,000 bytes
  script.insert(script.begin(), std::begin(pushdata2), std::end(pushdata2));
  BOOST_TEST(harness::LegacySigOpsRef(script) == 0u);
  BOOST_TEST(BlockVerdict(MakeBlock({signing_coinbase, pushed})) == "@none");
  script.erase(script.begin(), script.begin() + 3);
  script.insert(script.begin(), 0x4b);  // covers 75 OP_CHECKMULTISIG: 925 × 20 remain
  BOOST_TEST(harness::LegacySigOpsRef(script) == 18500u);
  script.insert(script.end(), 75, 0xae);  // 20,000 again, plus the coinbase's one
  BOOST_TEST(BlockVerdict(MakeBlock({signing_coinbase, pushed})) == over);
  const uint8_t cut_push[] = {0xac, 0x4e, 0xff, 0xff, 0x00, 0x00, 0xac};  // PUSHDATA4 of 65,535 bytes, 1 there
  BOOST_TEST(harness::LegacySigOpsRef(cut_push) == 1u);
  const uint8_t cut_length[] = {0xac, 0xac, 0x4d, 0x01};  // PUSHDATA2 with one byte of its length
  BOOST_TEST(harness::LegacySigOpsRef(cut_length) == 2u);
  Transaction cut = at_limit;
  cut.vout[0].script_pubkey.insert(cut.vout[0].script_pubkey.begin(), std::begin(cut_push), std::end(cut_push));
  BOOST_TEST(BlockVerdict(MakeBlock({coinbase, cut})) == "@none");  // 1: the 20,000 are pushed data
}

// Coinbase plus two transactions of one or two inputs each over five outpoints: 900 blocks, subject
// against reference.
BOOST_AUTO_TEST_CASE(exhaustive_small_blocks) {
  const std::vector<OutPoint> pool = {kNull, {kZero, 0}, {kA, 0}, {kA, 1}, {kB, 0}};
  std::vector<Transaction> txs;
  for (const OutPoint& a : pool) {
    txs.push_back(MakeTx({a}));
    for (const OutPoint& b : pool) txs.push_back(MakeTx({a, b}));
  }
  std::map<std::string, int> outcomes;
  for (const Transaction& t1 : txs) {
    for (const Transaction& t2 : txs) {
      const std::string verdict = BlockVerdict(MakeBlock({MakeCoinbase(), t1, t2}));
      ++outcomes[verdict.substr(0, verdict.find('@'))];
    }
  }
  for (const char* reason : {"", "bad-cb-multiple", "bad-txns-inputs-duplicate", "bad-txns-prevout-null",
                             "bad-txns-inputs-missingorspent"}) {
    BOOST_TEST(outcomes[reason] > 0, reason);
  }
}

BOOST_AUTO_TEST_CASE(random_transactions_and_blocks) {
  const uint64_t seed = harness::TestSeed(20240612);
  BOOST_TEST_MESSAGE("tx_check random_transactions_and_blocks: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    std::map<std::string, int> outcomes;
    for (int i = 0; i < 4000; ++i) {
      const harness::TxSpec spec = harness::DrawTxSpec(rng, 3000);
      BOOST_TEST_CONTEXT(spec.ToString()) { ++outcomes[Checked(harness::BuildTx(spec))]; }
    }
    for (int i = 0; i < 1500; ++i) {
      const harness::BlockSpec spec = harness::DrawBlockSpec(rng);
      BOOST_TEST_CONTEXT(spec.ToString()) { harness::CheckBlockCase(harness::BuildBlock(spec)); }
    }
    BOOST_TEST(outcomes.size() >= 8u, "distinct outcomes: " << outcomes.size());
  }
}

BOOST_AUTO_TEST_CASE(serialization_known_answer) {
  Transaction tx = MakeTx({{HashOf(0x11, 0x22), 2}}, {5});
  tx.version = 1;
  tx.vin[0].script_sig = Script(1, 0x51);
  tx.vout[0].script_pubkey = Script(1, 0x6a);
  tx.locktime = 0x01020304;
  // version | 1 input: hash, index 2, scriptSig [51], sequence | 1 output: 5, script [6a] | locktime
  const std::string legacy =
      "01000000"
      "01"
      "11" +
      std::string(60, '0') +
      "22"
      "02000000"
      "0151"
      "ffffffff"
      "01"
      "0500000000000000"
      "016a"
      "04030201";
  BOOST_TEST(HexStr(Serialized(tx)) == legacy);
  // With a witness: marker and flag after the version, the stacks before the locktime.
  tx.vin[0].witness = {{0xab, 0xcd}, {}};
  const std::string segwit =
      "01000000"
      "0001"
      "01"
      "11" +
      std::string(60, '0') +
      "22"
      "02000000"
      "0151"
      "ffffffff"
      "01"
      "0500000000000000"
      "016a"
      "02"
      "02abcd"
      "00"
      "04030201";
  BOOST_TEST(HexStr(Serialized(tx)) == segwit);
  Transaction back;
  BOOST_TEST(ParseTransaction(FromHex(segwit), back));
  BOOST_TEST((back == tx));
  BOOST_TEST(SerializedSize(tx, false) == legacy.size() / 2);
}

BOOST_AUTO_TEST_CASE(samples_round_trip_and_pass) {
  const std::vector<harness::TxSample> samples = harness::SampleTransactions();
  BOOST_TEST(samples.size() == 4u);
  for (const harness::TxSample& s : samples) {
    BOOST_TEST_CONTEXT(s.name) {
      BOOST_TEST(Checked(s.tx) == "");
      BOOST_TEST(harness::CheckTxBytes(Serialized(s.tx)));
    }
  }
  // Sizes worked out by hand from the templates (see tx_samples.cpp).
  BOOST_TEST(SerializedSize(samples[0].tx, true) == 225u);  // legacy: no witness
  BOOST_TEST(!samples[0].tx.HasWitness());
  BOOST_TEST(SerializedSize(samples[1].tx, false) == 125u);
  BOOST_TEST(SerializedSize(samples[1].tx, true) == 125u + 2 + 1 + 72 + 34);
  BOOST_TEST(samples[2].tx.IsCoinBase());
  BOOST_TEST(samples[3].tx.vin.size() == 24u);
  BOOST_TEST(BlockVerdict(MakeBlock({samples[2].tx, samples[0].tx, samples[1].tx, samples[3].tx})) == "@none");
}

BOOST_AUTO_TEST_CASE(compact_size_reader) {
  struct Row {
    std::string hex;
    uint64_t value;     // when ok
    const char* error;  // part of the message, or "" when ok
  };
  const std::vector<Row> rows = {
      {"00", 0, ""},
      {"fc", 0xfc, ""},
      {"fdfd00", 0xfd, ""},
      {"fdffff", 0xffff, ""},
      {"fe00000100", 0x10000, ""},
      {"fe00000002", 0x02000000, ""},
      {"fdfc00", 0, "non-canonical CompactSize: 252"},
      {"fe ffff0000", 0, "non-canonical CompactSize: 65535"},
      {"ff0000000100000000", 0, "non-canonical CompactSize: 16777216"},
      {"fe01000002", 0, "above MAX_SIZE"},
      {"ff0000000000000001", 0, "above MAX_SIZE"},
      {"fd00", 0, "unexpected end of data"},
      {"", 0, "unexpected end of data"},
  };
  // Above MAX_SIZE, so written but never read: the 9-byte form.
  std::vector<uint8_t> nine;
  WriteCompactSize(nine, uint64_t{1} << 32);
  BOOST_TEST(HexStr(nine) == "ff0000000001000000");
  BOOST_TEST(CompactSizeLength(uint64_t{1} << 32) == 9u);
  for (const Row& row : rows) {
    std::string hex = row.hex;
    std::erase(hex, ' ');
    const std::vector<uint8_t> bytes = FromHex(hex);
    SpanReader in(bytes);
    const uint64_t n = ReadCompactSize(in);
    BOOST_TEST_CONTEXT(row.hex) {
      BOOST_TEST(in.ok() == (*row.error == '\0'));
      BOOST_TEST(Contains(in.Error(), row.error), in.Error());
      BOOST_TEST(n == row.value);
      if (in.ok()) {
        std::vector<uint8_t> written;
        WriteCompactSize(written, n);
        BOOST_TEST(HexStr(written) == hex);
        BOOST_TEST(CompactSizeLength(n) == written.size());
      }
    }
  }
}

// The round trips compare with ==: it must see every field.
BOOST_AUTO_TEST_CASE(equality_sees_every_field) {
  Block block = MakeBlock({harness::SampleTransactions()[2].tx, harness::SampleTransactions()[1].tx});
  const Block original = block;
  const std::vector<void (*)(Block&)> changes = {
      [](Block& b) { b.header.version ^= 1; },
      [](Block& b) { b.header.prev_block.bytes[5] ^= 1; },
      [](Block& b) { b.header.merkle_root.bytes[31] ^= 1; },
      [](Block& b) { b.header.time ^= 1; },
      [](Block& b) { b.header.bits ^= 1; },
      [](Block& b) { b.header.nonce ^= 1; },
      [](Block& b) { b.vtx.pop_back(); },
      [](Block& b) { b.vtx[1].version ^= 1; },
      [](Block& b) { b.vtx[1].locktime ^= 1; },
      [](Block& b) { b.vtx[1].vin.push_back(b.vtx[1].vin[0]); },
      [](Block& b) { b.vtx[1].vout.pop_back(); },
      [](Block& b) { b.vtx[1].vin[0].prevout.txid.bytes[0] ^= 1; },
      [](Block& b) { b.vtx[1].vin[0].prevout.n ^= 1; },
      [](Block& b) { b.vtx[1].vin[0].script_sig.push_back(0x00); },
      [](Block& b) { b.vtx[1].vin[0].sequence ^= 1; },
      [](Block& b) { b.vtx[1].vin[0].witness[1][0] ^= 1; },
      [](Block& b) { b.vtx[1].vout[1].value ^= 1; },
      [](Block& b) { b.vtx[1].vout[1].script_pubkey[3] ^= 1; },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    block = original;
    changes[i](block);
    BOOST_TEST(!(block == original), "change " << i);
  }
}

BOOST_AUTO_TEST_CASE(parse_errors) {
  const std::vector<uint8_t> legacy = Serialized(harness::SampleTransactions()[0].tx);
  const std::vector<uint8_t> segwit = Serialized(harness::SampleTransactions()[1].tx);
  // Every strict prefix fails, none by reading past the end.
  for (const std::vector<uint8_t>& whole : {legacy, segwit}) {
    for (size_t n = 0; n < whole.size(); ++n) {
      const std::string error = ParseError({whole.begin(), whole.begin() + static_cast<long>(n)});
      BOOST_TEST(error != "parsed", "prefix " << n);
      BOOST_TEST(Contains(error, " (at byte "), error);
    }
    std::vector<uint8_t> longer = whole;
    longer.push_back(0x00);
    BOOST_TEST(Contains(ParseError(longer), "bytes after the end of the object: 1"));
  }
  const std::string version = "02000000";
  const std::string input = std::string(64, 'a') +
                            "00000000"
                            "00"
                            "ffffffff";
  const std::string output =
      "0000000000000000"
      "00";
  // An empty vin with a zero flag: no outputs either, as Core reads it; it serializes back the same.
  BOOST_TEST(ParseError(FromHex(version + "00"
                                          "00"
                                          "00000000")) == "parsed");
  BOOST_TEST(ParseError(FromHex(version + "01" + input + "01" + output + "00000000")) == "parsed");
  BOOST_TEST(Contains(ParseError(FromHex(version + "fd0100" + input + "01" + output + "00000000")), "non-canonical"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "02" + input + "01" + output + "00000000")),
                      "input count larger than the remaining bytes can hold: 2"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "01" + input + "05" + output + "00000000")),
                      "output count larger than the remaining bytes can hold: 5"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "fe00000002" + input)), "input count larger"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "ff0000000000000001")), "above MAX_SIZE"));
  // A scriptSig length beyond the data, at MAX_SIZE and above.
  BOOST_TEST(Contains(ParseError(FromHex(version + "01" + std::string(72, 'a') + "fe00000002")),
                      "unexpected end of data: bytes needed: 33554432"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "01" + std::string(72, 'a') + "fe01000002")), "above MAX_SIZE"));
  // Extended format: unknown flag bits, a superfluous witness record, a witness item count beyond the data.
  BOOST_TEST(ParseError(FromHex(version +
                                "0001"
                                "01" +
                                input + "01" + output +
                                "0100"
                                "00000000")) == "parsed");
  BOOST_TEST(Contains(ParseError(FromHex(version +
                                         "0002"
                                         "01" +
                                         input + "01" + output + "00000000")),
                      "unknown transaction optional data, flag bits: 2"));
  BOOST_TEST(Contains(ParseError(FromHex(version +
                                         "0003"
                                         "01" +
                                         input + "01" + output +
                                         "0100"
                                         "00000000")),
                      "unknown transaction optional data, flag bits: 2"));
  BOOST_TEST(Contains(ParseError(FromHex(version +
                                         "0001"
                                         "01" +
                                         input + "01" + output +
                                         "00"
                                         "00000000")),
                      "superfluous witness record"));
  BOOST_TEST(Contains(ParseError(FromHex(version + "0001"
                                                   "00"
                                                   "00"
                                                   "00000000")),
                      "superfluous witness record"));
  BOOST_TEST(Contains(ParseError(FromHex(version +
                                         "0001"
                                         "01" +
                                         input + "01" + output +
                                         "09"
                                         "00000000")),
                      "witness item count larger"));
}

BOOST_AUTO_TEST_CASE(block_parse) {
  Block block = MakeBlock({harness::SampleTransactions()[2].tx, harness::SampleTransactions()[1].tx});
  block.header.nonce = 0xdeadbeef;
  std::vector<uint8_t> bytes;
  SerializeBlock(bytes, block);
  BOOST_TEST(bytes.size() == 80 + 1 + SerializedSize(block.vtx[0], true) + SerializedSize(block.vtx[1], true));
  Block back;
  std::string error;
  BOOST_TEST(ParseBlock(bytes, back, &error), error);
  BOOST_TEST((back == block));
  for (const size_t n : {size_t{0}, size_t{79}, size_t{80}, bytes.size() - 1}) {
    BOOST_TEST(!ParseBlock({bytes.begin(), bytes.begin() + static_cast<long>(n)}, back, &error), "prefix " << n);
  }
  bytes.push_back(0x00);
  BOOST_TEST(!ParseBlock(bytes, back, &error));
  BOOST_TEST(Contains(error, "bytes after the end of the object"));
  std::vector<uint8_t> counted(80, 0x00);
  counted.push_back(0x05);
  counted.resize(counted.size() + 40, 0x00);
  BOOST_TEST(!ParseBlock(counted, back, &error));
  BOOST_TEST(Contains(error, "transaction count larger than the remaining bytes can hold: 5"));
}

BOOST_AUTO_TEST_SUITE_END()
