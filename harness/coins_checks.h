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
// Where the subject shows only unspent entries (seam::kEntriesVisible false): an unspent entry's presence
// and coin, and no entry where the model's is spent or absent (flags and spent entries are checked at
// writes, CheckWrite).
void CheckEntry(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, CoinsStackModel::Key k,
                const KeyToOutpoint& outpoint_of);
// Whether a write (or a dirty list) `got` holds the entries `want` lists in first-dirtied order, as the
// subject orders them: in that order, or in any order where the subject has one of its own
// (seam::DirtyOrderIsFirstDirtied; no caller relies on the order). `want_words` names `want` in a failure.
bool SameOrder(std::vector<OutPoint> got, std::vector<OutPoint> want);
const char* OrderWords();

// The dirty list equals the model's first-dirtied order (where the subject shows it: seam::kDirtyListVisible).
void CheckDirtyOrder(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level,
                     const KeyToOutpoint& outpoint_of);
// Size and dirty count (each where the subject shows it); with `deep` also SanityCheck() and memory usage
// (seam::ModelledUsage against the model's prediction where it is exact, seam::kExactUsage; the total never
// below the prediction).
void CheckSizes(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, bool deep);

// `cache` holds nothing, no coins' memory, and its dirty list is empty, as far as the subject shows (`what`
// names the moment: "a flushed cache", ...).
void CheckEmpty(const seam::CoinsViewCache& cache, const char* what);
// The dirty list and count are empty, as far as the subject shows.
void CheckDirtyListEmpty(const seam::CoinsViewCache& cache, const char* what);

// What a write down (Flush, Sync) of `level` hands its parent, as the model has it before the write: the
// DIRTY entries in first-dirtied order.
struct ExpectedWrite {
  std::vector<CoinsStackModel::Key> keys;
  std::vector<ModelEntry> entries;
};
ExpectedWrite ExpectWrite(const CoinsStackModel& model, int level);
// Where the subject's dirty list is seen only at writes (seam::kDirtyListVisible false): what `cache`'s last
// write handed its parent (LastWrite) equals `expected`, outpoint by outpoint in order, with coins, flags
// (where the subject shows them: seam::kCoinsApi.entry_flags) and count. Nothing where the list is visible:
// CheckDirtyOrder has checked it at every step.
void CheckWrite(const seam::CoinsViewCache& cache, const ExpectedWrite& expected, int level,
                const KeyToOutpoint& outpoint_of);

}  // namespace harness
