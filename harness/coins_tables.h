// The coin testers' tables: outpoints that share txids, coins whose scripts sit on both sides of the inline
// size and take every form of the store's compression, and block hashes. Indexes into them are what fuzz
// bytes choose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "seam/types.h"

namespace harness {

inline constexpr size_t kTableSize = 64;
// 16 txids x indexes 0, 1, 2 and 7.
const std::vector<OutPoint>& OutpointTable();
// Standard templates and near misses of 22, 23, 25, 34, 35, 36, 37, 67 and 80 bytes or empty, plus
// OP_RETURN (63) and over-10,000-byte (62) unspendable ones; amounts that take every branch of the
// store's compression; heights up to the largest the store encodes.
const std::vector<Coin>& CoinTable();
Hash256 BlockHash(uint8_t id);

}  // namespace harness
