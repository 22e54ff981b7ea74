// The coin testers' tables: funding transactions, the outpoints of their outputs (so they share txids, and
// a txid is a real transaction's), coins whose scripts sit on both sides of the inline size and take every
// form of the store's compression, and block hashes. Indexes into them are what fuzz bytes choose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "seam/coins_cache.h"
#include "seam/types.h"

namespace harness {

inline constexpr size_t kTableSize = 64;
// The output indexes of a funding transaction that the outpoint table names.
inline constexpr uint32_t kTableIndexes[] = {0, 1, 2, 7};
inline constexpr size_t kFundingCount = kTableSize / 4;
// 16 transactions of 8 outputs: output kTableIndexes[j] of transaction t pays coin 4t + j of CoinTable()
// (its amount and script), outputs 3 to 6 are OP_RETURN (unspendable: a cache never holds them).
// Transactions 0, 4, 8 and 12 are coinbases. Txids are computed with TxidRef (hash_ref.h).
const std::vector<Transaction>& FundingTable();
// The same, in the form AddCoins takes (built once per process: Core hashes a transaction as it converts it).
const std::vector<seam::HashedTransaction>& HashedFundingTable();
// Outpoint 4t + j is (txid of FundingTable()[t], kTableIndexes[j]).
const std::vector<OutPoint>& OutpointTable();
// Standard templates and near misses of 22, 23, 25, 34, 35, 36, 37, 67 and 80 bytes or empty, plus
// OP_RETURN (63) and over-10,000-byte (62) unspendable ones; amounts that take every branch of the
// store's compression; heights up to the largest the store encodes.
const std::vector<Coin>& CoinTable();
Hash256 BlockHash(uint8_t id);

}  // namespace harness
