// A transaction's coins in a cache: adding its outputs (AddCoins) and finding one of them by txid alone
// (AccessByTxid), as block connection and the RPCs that look up a transaction's outputs do (Bitcoin Core's
// coins.h). Semantics: docs/semantics.md §1, "A transaction's coins".
#pragma once

#include <cstdint>

#include "cache.h"
#include "tx/transaction.h"

namespace embedded {

// The most outputs a block can create: its weight limit (4,000,000) over the weight of the smallest output
// (9 bytes, times the witness scale factor 4). AccessByTxid looks no further.
inline constexpr uint32_t kMaxOutputsPerBlock = 4'000'000 / (4 * 9);

// Adds every output of `tx` at `height` (unspendable ones are ignored, as AddCoin ignores them). An output
// may overwrite an unspent coin if `check_for_overwrite` and the cache has it (HaveCoin, which fetches),
// or, without the check, if `tx` is a coinbase (two coinbases before BIP30 had the same txid). Throws
// std::logic_error, as AddCoin does, at the first output that would overwrite an unspent coin otherwise;
// the outputs before it stay added.
void AddCoins(CoinsViewCache& cache, const HashedTransaction& tx, uint32_t height, bool check_for_overwrite);

// The unspent coin with the lowest output index of the transaction `txid`, looking at indexes 0 up to
// kMaxOutputsPerBlock - 1 through AccessCoin (which fetches); a spent coin if there is none. A miss costs
// kMaxOutputsPerBlock lookups. Valid until the next change of the cache.
const Coin& AccessByTxid(CoinsViewCache& cache, const Hash256& txid);

}  // namespace embedded
