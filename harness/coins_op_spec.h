// The column of the coins components' operation lists (HARNESS_COINS_OPS, HARNESS_OVERLAY_OPS,
// HARNESS_STORE_OPS): which step fields an operation reads, and which member of the subject's coins API
// (seam::CoinsCacheApi) it needs beyond the cache's central ones. One spec per operation, written in its
// list's line; the decoders, the traces and the testers all read it from there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "op_list.h"
#include "seam/coins_cache.h"

namespace harness {

struct CoinsOpSpec {
  uint8_t args = 0;                           // a mask of the step's Arg values
  bool seam::CoinsCacheApi::* api = nullptr;  // null: the operation needs nothing beyond the central API
};

// Whether operation `op` of the list whose column is `specs` reads any of `args`.
template <typename Op, size_t kCount>
constexpr bool SpecReads(const CoinsOpSpec (&specs)[kCount], Op op, uint8_t args) {
  return (OpColumn(specs, op).args & args) != 0;
}

// Whether the subject has what `op` needs (seam::kCoinsApi): an operation it lacks is not applied.
template <typename Op, size_t kCount>
constexpr bool SpecAvailable(const CoinsOpSpec (&specs)[kCount], Op op) {
  const CoinsOpSpec spec = OpColumn(specs, op);
  return spec.api == nullptr || seam::kCoinsApi.*spec.api;
}

}  // namespace harness
