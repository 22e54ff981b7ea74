#include "coins_tables.h"

#include <string>

#include "check.h"
#include "hash_ref.h"
#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // tables: built once

const std::vector<Transaction>& FundingTable() {
  static const std::vector<Transaction> table = [] {
    std::vector<Transaction> txs;
    for (uint32_t t = 0; t < kFundingCount; ++t) {
      Transaction& tx = txs.emplace_back();
      tx.locktime = t;
      TxIn& in = tx.vin.emplace_back();
      if (t % 4 == 0) {
        in.prevout = OutPoint{Hash256{}, kNullIndex};
        in.script_sig = Script{0x01, static_cast<uint8_t>(t + 1)};
      } else {
        Rng rng(t + 1);
        for (auto& b : in.prevout.txid.bytes) b = static_cast<uint8_t>(rng.Next());
      }
      tx.vout.assign(8, TxOut{0, Script(1, kOpReturn)});
      for (size_t j = 0; j < std::size(kTableIndexes); ++j) {
        const Coin& c = CoinTable()[4 * t + j];
        tx.vout[kTableIndexes[j]] = TxOut{c.amount, c.script};
      }
    }
    return txs;
  }();
  return table;
}

const std::vector<seam::HashedTransaction>& HashedFundingTable() {
  static const std::vector<seam::HashedTransaction> table = [] {
    std::vector<seam::HashedTransaction> txs;
    for (const Transaction& tx : FundingTable()) txs.emplace_back(tx);
    return txs;
  }();
  return table;
}

const std::vector<OutPoint>& OutpointTable() {
  static const std::vector<OutPoint> table = [] {
    std::vector<OutPoint> t;
    for (const Transaction& tx : FundingTable()) {
      const Hash256 txid = TxidRef(tx);
      for (const uint32_t n : kTableIndexes) t.push_back(OutPoint{txid, n});
    }
    return t;
  }();
  return table;
}

namespace {

// Uncompressed public keys (0x04 ‖ x ‖ y) of points on secp256k1, computed once with libsecp256k1: the
// store compresses P2PK scripts with them to ids 4 (y even) and 5 (y odd) and must recover y on reading.
constexpr const char* kCurveKeys[] = {
    // y even
    "04cea2d2fcf7d6eac7cc051588b0dd4be7bf35a090055c956cfd94a2e36813e60465d35adb88fb80533f0e827ac2be7a017601e25d18881684258732c1625889d8",
    "04671cc8418f7abdfe1fe80a6d37be7b07a8f85f0c0bc552cd39ef45af80b0479a76dcf42512da48a3df47afa65bd3eedd85c583dbac5ab90beaef1610ae626ad2",
    // y odd
    "045277ffea9e7e25dceb93c9d09585d8e24a99470277a54e61e7b1023c7c9fbce2b2d6e9b30419332257946071b95835b183d2fa010e26ea8908cc7ee51caaaa73",
    "04efdc2da40a131e532c1aaf3910186ae996c96b01c118a9be0d349a015e28640b0d1480c1051109079f0d920d4d02f81676c81e2252669abcf3a4b5d544a5cfb9",
    "04f29ffe2dd05d788b22efc63089d2c598aee2c29f434875c7428e1e02396ea267dcfaff8c9f1774f4fd69756786e5eb5378cb25565b14a745c9346078c55d8e17",
};

// 65 ‖ key ‖ OP_CHECKSIG, the key given in hex.
Script P2pkUncompressed(const char* hex) {
  Script s(1, 65);
  for (size_t i = 0; hex[i] != '\0'; i += 2)
    s.push_back(static_cast<uint8_t>(std::stoi(std::string(hex + i, 2), nullptr, 16)));
  s.push_back(0xac);
  return s;
}

// Script i of the coin table: standard templates and near misses on both sides of the 36-byte inline size,
// so the cache's usage accounting and the store's script compression both see every case.
Script TableScript(uint32_t i) {
  if (i == 62) return Script(10001, 0x51);   // too long to spend: caches ignore it
  if (i == 63) return Script(1, kOpReturn);  // unspendable likewise
  Rng rng(1000 + i);
  auto make = [&rng](std::initializer_list<uint8_t> head, size_t random, std::initializer_list<uint8_t> tail) {
    Script s(head.begin(), head.end());
    for (size_t j = 0; j < random; ++j) s.push_back(static_cast<uint8_t>(rng.Next()));
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  const uint32_t variant = i / 8 % 4;
  switch (i % 8) {
    case 0: return make({0x00, 20}, 20, {});  // P2WPKH, 22 bytes
    case 1: return make({0x76, 0xa9, 20}, 20, {0x88, static_cast<uint8_t>(variant == 1 ? 0xad : 0xac)});  // P2PKH, 25
    case 2: return make({0x51, 32}, 32, {});                                                              // P2TR, 34
    case 3: return make({33, static_cast<uint8_t>(2 + variant % 3)}, 32, {0xac});  // P2PK (0x04: not compressed), 35
    case 4: return make({0x51}, 35, {});  // non-standard, 36: the largest inline script
    case 5: return make({0x51}, 36, {});  // 37: the smallest on the heap
    case 6:
      switch (i) {
        case 6:
        case 38:
          return make({0x51}, 79, {});  // 80
        // P2PK with an uncompressed key on the curve, 67: compressed to id 4 (14, 54) or 5 (22, 46).
        case 14: return P2pkUncompressed(kCurveKeys[0]);
        case 54: return P2pkUncompressed(kCurveKeys[1]);
        case 22: return P2pkUncompressed(kCurveKeys[2]);
        case 46: return P2pkUncompressed(kCurveKeys[3]);
        default: {  // 30: a point on the curve in the hybrid form 0x07 ‖ x ‖ y (y odd), which Core stores whole
          Script s = P2pkUncompressed(kCurveKeys[4]);
          s[1] = 0x07;
          return s;
        }
      }
    default:
      switch (variant) {
        case 0: return Script();                      // empty
        case 1: return make({0xa9, 20}, 20, {0x87});  // P2SH, 23
        case 2: return make({0xa9, 20}, 20, {0x88});  // P2SH-like, 23: not compressible
        default: {  // 31: P2PK with an uncompressed key whose x is on the curve but y is not its root: whole
          Script s = P2pkUncompressed(kCurveKeys[1]);
          s[65] ^= 0x01;
          return s;
        }
      }
  }
}

// Amounts whose compression takes every branch: small odd values, zero, round ones with fewer and with
// nine or more trailing zeros, and the largest possible.
int64_t TableAmount(uint32_t i) {
  switch (i % 5) {
    case 0: return 1000 * int64_t{i} + 1;
    case 1: return i % 2 ? 0 : 1;
    case 2: return 5'000'000'000 * (i % 3 + 1);  // 50, 100, 150 BTC
    case 3: return 123'450'000 * int64_t{i};
    default: return int64_t{21'000'000} * 100'000'000;  // MAX_MONEY
  }
}

}  // namespace

const std::vector<Coin>& CoinTable() {
  static const std::vector<Coin> table = [] {
    std::vector<Coin> t;
    for (uint32_t i = 0; i < kTableSize; ++i) {
      const uint32_t height = i == 33 ? 0x7fffffff : i * 3;  // the largest height the store can encode
      t.emplace_back(TableAmount(i), TableScript(i), height, i % 3 == 0);
    }
    return t;
  }();
  return table;
}

Hash256 BlockHash(uint8_t id) {
  Hash256 h;
  h.bytes[0] = 0xb0;
  h.bytes[1] = id;
  return h;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
