// A deterministic synthetic chain for bench_chain: blocks of transactions that spend outputs of earlier
// blocks, drawn from a seed (harness::Rng), so that every run and both trees of a review connect the same
// blocks.
//
// Shape: block 1 is a funding block (a coinbase of 4 outputs per transaction a block holds); every later
// block is a coinbase and `txs` transactions. Inputs per transaction: 60 % one, 30 % two or three, 9 % 4 to
// 20, 1 % 21 to 200 (fewer when not enough outputs are unspent); outputs: 20 % one, 70 % two, 10 % 3 to 50
// (payouts). 70 % of inputs spend with a 2-item witness, the rest with a 107-byte scriptSig. Output scripts
// from kScriptMix, but 1 % of them large (100 to 3,000 bytes: bare multisig and data carriers). The spent
// outputs are drawn uniformly from all unspent ones, so the cache misses as a node's does on an old UTXO
// set; outputs become spendable in the block after the one that creates them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench_data.h"

namespace bench {

class SyntheticChain {
 public:
  SyntheticChain(uint64_t seed, size_t txs);

  struct NextBlock {
    uint32_t height;
    Block block;
    Hash256 hash;  // the block's (any hash unique to it: no proof of work is checked)
    Hash256 prev;  // its parent's
    size_t inputs;
    size_t outputs;
  };
  NextBlock Next();

 private:
  Transaction Spend(size_t inputs);
  TxOut Output();

  harness::Rng rng_;
  size_t txs_;
  uint32_t height_ = 0;
  Hash256 tip_{};
  std::vector<OutPoint> unspent_;
};

}  // namespace bench
