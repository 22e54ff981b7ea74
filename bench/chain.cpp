#include "chain.h"

#include <utility>

namespace bench {

SyntheticChain::SyntheticChain(uint64_t seed, size_t txs) : rng_(seed), txs_(txs) {}

TxOut SyntheticChain::Output() {
  const size_t size = rng_.Chance(1) ? rng_.Range(100, 3000) : DrawScriptSize(rng_);
  const std::vector<uint8_t> script = RandomScriptBytes(rng_, size);
  return {static_cast<int64_t>(rng_.Range(546, 100'000'000)), Script(script.begin(), script.end())};
}

Transaction SyntheticChain::Spend(size_t inputs) {
  Transaction tx;
  for (size_t i = 0; i < inputs; ++i) {
    const size_t pick = rng_.Below(unspent_.size());
    TxIn in;
    in.prevout = unspent_[pick];
    unspent_[pick] = unspent_.back();
    unspent_.pop_back();
    if (rng_.Chance(70)) {
      in.witness = {RandomBytes(rng_, rng_.Range(71, 72)), RandomBytes(rng_, 33)};
    } else {
      const std::vector<uint8_t> sig = RandomBytes(rng_, 107);
      in.script_sig = Script(sig.begin(), sig.end());
    }
    tx.vin.push_back(std::move(in));
  }
  const unsigned kind = static_cast<unsigned>(rng_.Below(100));
  const size_t outputs = kind < 20 ? 1 : kind < 90 ? 2 : rng_.Range(3, 50);
  for (size_t o = 0; o < outputs; ++o) tx.vout.push_back(Output());
  return tx;
}

SyntheticChain::NextBlock SyntheticChain::Next() {
  NextBlock next{.height = ++height_, .block = {}, .hash = RandomHash(rng_), .prev = tip_, .inputs = 0, .outputs = 0};
  Block& block = next.block;
  block.header = {0x20000000, tip_, RandomHash(rng_), 1'700'000'000 + height_ * 600, 0x17034219, height_};
  Transaction coinbase;
  coinbase.vin.resize(1);
  coinbase.vin[0].prevout = {Hash256{}, kNullIndex};
  const std::vector<uint8_t> tag = RandomBytes(rng_, 30);
  coinbase.vin[0].script_sig = Script(tag.begin(), tag.end());
  coinbase.vout.resize(height_ == 1 ? 4 * txs_ : 1);
  for (TxOut& out : coinbase.vout) out = Output();
  block.vtx.push_back(std::move(coinbase));
  for (size_t t = 0; height_ > 1 && t < txs_ && !unspent_.empty(); ++t) {
    const unsigned kind = static_cast<unsigned>(rng_.Below(100));
    const size_t want = kind < 60   ? 1
                        : kind < 90 ? rng_.Range(2, 3)
                        : kind < 99 ? rng_.Range(4, 20)
                                    : rng_.Range(21, 200);
    block.vtx.push_back(Spend(std::min(want, unspent_.size())));
    next.inputs += block.vtx.back().vin.size();
  }
  for (const Transaction& tx : block.vtx) {
    const Hash256 txid = TxidOf(tx);
    for (uint32_t i = 0; i < tx.vout.size(); ++i) unspent_.push_back({txid, i});
    next.outputs += tx.vout.size();
  }
  tip_ = next.hash;
  return next;
}

}  // namespace bench
