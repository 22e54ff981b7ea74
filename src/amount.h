// Amounts: int64 counts of satoshis, as Bitcoin Core's consensus/amount.h.
#pragma once

#include <cstdint>

namespace embedded {

// 10^8 satoshis per coin.
inline constexpr int64_t kCoin = 100'000'000;
// No more than 21 million coins can ever exist: no output, total of outputs or stored coin exceeds it.
inline constexpr int64_t kMaxMoney = 21'000'000 * kCoin;

}  // namespace embedded
