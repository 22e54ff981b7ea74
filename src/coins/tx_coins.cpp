#include "tx_coins.h"

namespace embedded {

void AddCoins(CoinsViewCache& cache, const HashedTransaction& hashed, uint32_t height, bool check_for_overwrite) {
  const Transaction& tx = hashed.tx;
  const bool coinbase = tx.IsCoinBase();
  for (uint32_t i = 0; i < tx.vout.size(); ++i) {
    const OutPoint outpoint{hashed.txid, i};
    const bool overwrite = check_for_overwrite ? cache.HaveCoin(outpoint) : coinbase;
    cache.AddCoin(outpoint, Coin(tx.vout[i].value, tx.vout[i].script_pubkey, height, coinbase), overwrite);
  }
}

const Coin& AccessByTxid(CoinsViewCache& cache, const Hash256& txid) {
  static const Coin kSpent;
  for (uint32_t n = 0; n < kMaxOutputsPerBlock; ++n) {
    const Coin& coin = cache.AccessCoin(OutPoint{txid, n});
    if (!coin.IsSpent()) return coin;
  }
  return kSpent;
}

}  // namespace embedded
