#include "bench_data.h"

namespace bench {
namespace {

Script RandomScript(harness::Rng& rng, size_t n) {
  const std::vector<uint8_t> bytes = RandomScriptBytes(rng, n);
  return Script(bytes.begin(), bytes.end());
}

TxIn RandomInput(harness::Rng& rng) {
  TxIn in;
  in.prevout = {RandomHash(rng), static_cast<uint32_t>(rng.Below(4))};
  if (rng.Chance(70)) {
    in.witness = {RandomBytes(rng, rng.Range(71, 72)), RandomBytes(rng, 33)};
  } else {
    in.script_sig = RandomScript(rng, 107);
  }
  return in;
}

TxOut RandomOutput(harness::Rng& rng) {
  return {static_cast<int64_t>(rng.Range(546, 100'000'000)), RandomScript(rng, DrawScriptSize(rng))};
}

}  // namespace

size_t DrawScriptSize(harness::Rng& rng) {
  unsigned pick = static_cast<unsigned>(rng.Below(100));
  for (const ScriptMixEntry& e : kScriptMix) {
    if (pick < e.percent) return e.size;
    pick -= e.percent;
  }
  return kScriptMix[0].size;  // unreachable while the percentages add up to 100
}

Hash256 RandomHash(harness::Rng& rng) {
  Hash256 h;
  for (size_t i = 0; i < h.bytes.size(); i += 8) {
    const uint64_t word = rng.Next();
    for (size_t j = 0; j < 8; ++j) h.bytes[i + j] = static_cast<uint8_t>(word >> (8 * j));
  }
  return h;
}

std::vector<uint8_t> RandomBytes(harness::Rng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng.Next());
  return out;
}

std::vector<uint8_t> RandomScriptBytes(harness::Rng& rng, size_t n) {
  std::vector<uint8_t> out = RandomBytes(rng, n);
  if (!out.empty()) out[0] = n == 23 ? 0xa9 : n == 25 ? 0x76 : n == 34 ? 0x51 : n == 35 ? 0x21 : 0x00;
  return out;
}

Block MakeBlock(harness::Rng& rng, size_t txs, unsigned single_input_percent) {
  Block block;
  block.header = {0x20000000, RandomHash(rng), RandomHash(rng), 1'700'000'000, 0x17034219, 0};
  Transaction coinbase;
  coinbase.vin.resize(1);
  coinbase.vin[0].prevout = {Hash256{}, kNullIndex};
  coinbase.vin[0].script_sig = RandomScript(rng, 30);
  coinbase.vout = {RandomOutput(rng), {0, RandomScript(rng, 38)}};
  block.vtx.push_back(std::move(coinbase));
  for (size_t t = 0; t < txs; ++t) {
    Transaction tx;
    size_t inputs = 1;
    if (!rng.Chance(single_input_percent)) inputs = rng.Chance(95) ? rng.Range(2, 20) : rng.Range(21, 200);
    for (size_t i = 0; i < inputs; ++i) tx.vin.push_back(RandomInput(rng));
    const size_t outputs = rng.Range(1, 3);
    for (size_t o = 0; o < outputs; ++o) tx.vout.push_back(RandomOutput(rng));
    block.vtx.push_back(std::move(tx));
  }
  return block;
}

Transaction MakeManyInputTransaction(harness::Rng& rng, size_t inputs) {
  Transaction tx;
  for (size_t i = 0; i < inputs; ++i) tx.vin.push_back(RandomInput(rng));
  tx.vout = {RandomOutput(rng), RandomOutput(rng)};
  return tx;
}

}  // namespace bench
