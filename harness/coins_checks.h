// Checks of one seam::CoinsViewCache level against one CoinsStackModel level, shared by the testers that
// drive coins caches (CoinsTester, OverlayTester). Each prints both sides on failure (HARNESS_CHECK).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "coins_model.h"
#include "seam/coins_cache.h"

namespace harness {

// How a tester names the model's keys.
using KeyToOutpoint = std::function<const OutPoint&(CoinsStackModel::Key)>;

std::string Render(const std::optional<Coin>& c);
std::string Render(const std::vector<OutPoint>& v);

// The entry for key `k` in `cache`, the subject at model level `level`: present or absent, its coin and flags.
void CheckEntry(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, CoinsStackModel::Key k,
                const KeyToOutpoint& outpoint_of);
// The dirty list equals the model's first-dirtied order.
void CheckDirtyOrder(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level,
                     const KeyToOutpoint& outpoint_of);
// Size and dirty count; with `deep` also SanityCheck() and memory usage (seam::ModelledUsage against the
// model's prediction, the total never below it).
void CheckSizes(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, bool deep);

}  // namespace harness
