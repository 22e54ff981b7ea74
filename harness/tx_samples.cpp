#include "tx_samples.h"

#include "check.h"
#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN
namespace {

// Pseudo-random bytes from a fixed seed: hashes, signature and key bodies.
std::vector<uint8_t> Bytes(Rng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng.Next());
  return out;
}

Hash256 RandomHash(Rng& rng) {
  Hash256 h;
  const std::vector<uint8_t> bytes = Bytes(rng, 32);
  std::copy(bytes.begin(), bytes.end(), h.bytes.begin());
  return h;
}

// DER signature with a SIGHASH_ALL byte: 30 len 02 20 <r> 02 20 <s> 01 (71 bytes with 32-byte r and s).
std::vector<uint8_t> Signature(Rng& rng) {
  std::vector<uint8_t> sig{0x30, 0x44, 0x02, 0x20};
  const std::vector<uint8_t> r = Bytes(rng, 32);
  sig.insert(sig.end(), r.begin(), r.end());
  sig[4] &= 0x7f;  // r is positive: no padding byte needed
  sig.push_back(0x02);
  sig.push_back(0x20);
  const std::vector<uint8_t> s = Bytes(rng, 32);
  sig.insert(sig.end(), s.begin(), s.end());
  sig[38] &= 0x7f;
  sig.push_back(0x01);
  return sig;
}

// Compressed public key: 02 or 03, then 32 bytes.
std::vector<uint8_t> PublicKey(Rng& rng) {
  std::vector<uint8_t> key = Bytes(rng, 33);
  key[0] = 0x02 | (key[0] & 1);
  return key;
}

Script ToScript(std::initializer_list<std::vector<uint8_t>> parts) {
  Script s;
  for (const std::vector<uint8_t>& p : parts) s.insert(s.end(), p.begin(), p.end());
  return s;
}

// Script templates: OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG; OP_0 <20>; OP_1 <32>.
Script P2PKH(Rng& rng) { return ToScript({{0x76, 0xa9, 0x14}, Bytes(rng, 20), {0x88, 0xac}}); }
Script P2WPKH(Rng& rng) { return ToScript({{0x00, 0x14}, Bytes(rng, 20)}); }
Script P2TR(Rng& rng) { return ToScript({{0x51, 0x20}, Bytes(rng, 32)}); }

Transaction LegacySpend(Rng& rng) {
  Transaction tx;
  tx.version = 1;
  TxIn in;
  in.prevout = {RandomHash(rng), 1};
  const std::vector<uint8_t> sig = Signature(rng);
  const std::vector<uint8_t> key = PublicKey(rng);
  in.script_sig = ToScript({{static_cast<uint8_t>(sig.size())}, sig, {static_cast<uint8_t>(key.size())}, key});
  tx.vin.push_back(in);
  tx.vout.push_back({1'250'000, P2PKH(rng)});
  tx.vout.push_back({48'731'200, P2PKH(rng)});
  return tx;
}

Transaction SegwitSpend(Rng& rng) {
  Transaction tx;
  tx.version = 2;
  tx.locktime = 840'000;
  TxIn in;
  in.prevout = {RandomHash(rng), 0};
  in.sequence = 0xfffffffd;  // opts in to replacement
  in.witness = {Signature(rng), PublicKey(rng)};
  tx.vin.push_back(in);
  tx.vout.push_back({3'000'000, P2TR(rng)});
  tx.vout.push_back({6'987'000, P2WPKH(rng)});
  return tx;
}

Transaction Coinbase(Rng& rng) {
  Transaction tx;
  tx.version = 2;
  TxIn in;
  in.prevout = {Hash256{}, kNullIndex};
  // BIP34 height push (3 bytes: 840,000), then 8 extranonce bytes and a short pool tag.
  in.script_sig = ToScript({{0x03, 0x40, 0xd1, 0x0c, 0x08}, Bytes(rng, 8), {0x04, 'p', 'o', 'o', 'l'}});
  in.witness = {std::vector<uint8_t>(32, 0)};  // the witness reserved value
  tx.vin.push_back(in);
  tx.vout.push_back({312'500'000 + 21'417'000, P2WPKH(rng)});
  // OP_RETURN <36 bytes: aa21a9ed and the 32-byte witness commitment>.
  tx.vout.push_back({0, ToScript({{0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed}, Bytes(rng, 32)})});
  return tx;
}

// 24 P2WPKH outputs swept into one, several from the same funding transaction. (Bigger seeds made the
// parser target's corpus grow toward their size, at a tenth of the speed.)
Transaction Consolidation(Rng& rng) {
  Transaction tx;
  tx.version = 2;
  Hash256 txid;
  for (uint32_t i = 0; i < 24; ++i) {
    if (i % 3 == 0) txid = RandomHash(rng);
    TxIn in;
    in.prevout = {txid, i % 3 == 2 ? 5 : i % 3};
    in.sequence = 0xfffffffd;
    in.witness = {Signature(rng), PublicKey(rng)};
    tx.vin.push_back(in);
  }
  tx.vout.push_back({23 * 80'000, P2WPKH(rng)});
  return tx;
}

}  // namespace

std::vector<TxSample> SampleTransactions() {
  Rng rng(20240501);
  std::vector<TxSample> samples;
  samples.push_back({"legacy_p2pkh_spend", LegacySpend(rng)});
  samples.push_back({"segwit_p2wpkh_spend", SegwitSpend(rng)});
  samples.push_back({"coinbase_witness_commitment", Coinbase(rng)});
  samples.push_back({"consolidation_24_inputs", Consolidation(rng)});
  return samples;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
