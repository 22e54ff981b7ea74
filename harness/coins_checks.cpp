#include "coins_checks.h"

#include "observe.h"

#include <stdexcept>

#include "check.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code: the cache under test is compiled out of line
namespace {

std::string Flags(bool dirty, bool fresh) { return std::string(dirty ? "DIRTY" : "clean") + (fresh ? "+FRESH" : ""); }

}  // namespace

std::string Render(const std::optional<Coin>& c) { return c ? c->ToString() : "none"; }

std::string Render(const std::vector<OutPoint>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + v[i].ToString();
  return out + "]";
}

void CheckEntry(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, CoinsStackModel::Key k,
                const KeyToOutpoint& outpoint_of) {
  const OutPoint& o = outpoint_of(k);
  const seam::CacheEntry* got = cache.FindEntry(o);
  const ModelEntry* want = model.Find(level, k);
  HARNESS_CHECK((got != nullptr) == (want != nullptr), "entry ", o.ToString(), " at level ", level, ": subject ",
                got ? "present" : "absent", ", model ", want ? "present" : "absent");
  if (got == nullptr) return;
  // Compared in place: a copy of each coin per check was a tenth of the target's time.
  const bool same_coin = got->coin.IsSpent() ? !want->coin.has_value() : want->coin && *want->coin == got->coin;
  HARNESS_CHECK(same_coin, "coin ", o.ToString(), " at level ", level, ": subject ",
                got->coin.IsSpent() ? std::string("none") : got->coin.ToString(), ", model ", Render(want->coin));
  HARNESS_CHECK(got->IsDirty() == want->dirty && got->IsFresh() == want->fresh, "flags of ", o.ToString(),
                " at level ", level, ": subject ", Flags(got->IsDirty(), got->IsFresh()), ", model ",
                Flags(want->dirty, want->fresh));
}

void CheckDirtyOrder(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level,
                     const KeyToOutpoint& outpoint_of) {
  const std::vector<OutPoint> got = cache.DirtyOrder();
  const std::vector<CoinsStackModel::Key>& want = model.DirtyOrder(level);
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = got[i] == outpoint_of(want[i]);
  if (same) return;
  std::vector<OutPoint> expected;
  for (const auto k : want) expected.push_back(outpoint_of(k));
  HARNESS_CHECK(same, "dirty list at level ", level, ": subject ", Render(got), ", first-dirtied order ",
                Render(expected));
}

void CheckSizes(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, bool deep) {
  if (deep) {
    try {
      cache.SanityCheck();
    } catch (const std::logic_error& e) {
      HARNESS_CHECK(false, "level ", level, ": ", e.what());
    }
    HARNESS_CHECK_EQ(seam::ModelledUsage(cache), model.Usage(level), "memory usage at level ", level);
    HARNESS_CHECK(cache.DynamicMemoryUsage() >= seam::ModelledUsage(cache), "total memory usage at level ", level,
                  " below the entries' part");
    HARNESS_OBSERVE("DynamicMemoryUsage", "level ", level, ": ", cache.DynamicMemoryUsage());
  }
  HARNESS_CHECK_EQ(cache.GetCacheSize(), model.Size(level), "cache size at level ", level);
  HARNESS_CHECK_EQ(cache.GetDirtyCount(), model.DirtyOrder(level).size(), "dirty count at level ", level);
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
