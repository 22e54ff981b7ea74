// Deterministic, realistic inputs for the benchmarks: blocks of typical transactions, script sizes as they
// occur in the UTXO set. Seeded (harness::Rng), so every run measures the same data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coins/coin.h"
#include "rng.h"
#include "tx/transaction.h"

namespace bench {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

// Output script sizes of the standard types: P2WPKH 22, P2SH 23, P2PKH 25, P2TR and P2WSH 34, P2PK 35.
// All fit 36 bytes inline; 34 and 35 do not fit the old 28.
struct ScriptMixEntry {
  size_t size;
  unsigned percent;
};
// An assumed share per size, roughly that of today's UTXO set (P2PK's share there is far smaller, but
// 35-byte scripts also come from other templates); the shares only set how often each size is drawn.
inline constexpr ScriptMixEntry kScriptMix[] = {{22, 35}, {23, 5}, {25, 25}, {34, 30}, {35, 5}};

// A script size drawn from kScriptMix.
size_t DrawScriptSize(harness::Rng& rng);
Hash256 RandomHash(harness::Rng& rng);
std::vector<uint8_t> RandomBytes(harness::Rng& rng, size_t n);
// Random bytes behind the first opcode of the standard script of that size (OP_0, OP_HASH160, OP_DUP,
// OP_1, a 33-byte push), so that no script starts with OP_RETURN, which caches would drop as unspendable.
std::vector<uint8_t> RandomScriptBytes(harness::Rng& rng, size_t n);

// Calls visit(outpoint, coin) for `n` new coins as a block creates them: 2 to 3 outputs per random txid,
// scripts drawn from kScriptMix, amounts and heights spread out.
template <typename Visit>
void ForEachNewCoin(harness::Rng& rng, size_t n, Visit visit) {
  for (size_t made = 0; made < n;) {
    const Hash256 txid = RandomHash(rng);
    const auto outputs = static_cast<uint32_t>(rng.Range(2, 3));
    for (uint32_t i = 0; i < outputs && made < n; ++i, ++made) {
      const std::vector<uint8_t> script = RandomScriptBytes(rng, DrawScriptSize(rng));
      visit(OutPoint{txid, i},
            Coin(static_cast<int64_t>(rng.Range(546, 1'000'000)), Script(script.begin(), script.end()),
                 static_cast<uint32_t>(rng.Range(1, 900'000)), false));
    }
  }
}

// A valid block shaped like a recent one: a coinbase, then `txs` transactions of which
// `single_input_percent` have one input and the rest 2 to 20 (a few up to 200), 70% spending segwit
// outputs (a 2-item witness) and the rest legacy (a 107-byte scriptSig), 1 to 3 outputs drawn from
// kScriptMix. Every prevout is distinct and non-null.
Block MakeBlock(harness::Rng& rng, size_t txs, unsigned single_input_percent);

// One transaction spending `inputs` distinct random prevouts, with two outputs.
Transaction MakeManyInputTransaction(harness::Rng& rng, size_t inputs);

}  // namespace bench
