#include "coins_checks.h"

#include "observe.h"

#include <algorithm>
#include <stdexcept>

#include "check.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code: the cache under test is compiled out of line
namespace {

std::string Flags(bool dirty, bool fresh) { return std::string(dirty ? "DIRTY" : "clean") + (fresh ? "+FRESH" : ""); }

// What a node would notice of an entry whose flags are `got` where the model's are `want`.
const char* FlagsMatter(bool got_dirty, bool got_fresh, bool want_dirty, bool want_fresh) {
  if (want_dirty && !got_dirty) return " (a change without DIRTY is never written down: the node loses it)";
  if (got_fresh && !want_fresh) {
    return " (FRESH where the parent may hold the coin: spent here, the entry is erased instead of written down, and "
           "the parent keeps a spent coin the node would let be spent again)";
  }
  if (got_dirty && !want_dirty) return " (DIRTY where nothing changed: a needless write)";
  return " (FRESH left off: a spent entry is written down instead of dropped, a needless write)";
}

// What a node would notice of an entry present where the model has none, or absent where it has one.
template <class Entry>
const char* PresenceMatters(const Entry* got, const ModelEntry* want) {
  if (got != nullptr) {
    if (got->coin.IsSpent()) {
      return " (a spent entry the model erased stays in the cache: its spend is written down again, harmless unless "
             "it is FRESH)";
    }
    return got->IsDirty() ? " (a DIRTY coin the model does not have: the node would add a coin to its UTXO set)"
                          : " (a clean coin the model did not fetch: harmless if the parent holds it)";
  }
  if (!want->dirty) return " (a clean entry dropped: fetched again when needed)";
  return want->coin ? " (a DIRTY coin dropped: it never reaches the parent, and the node loses it)"
                    : " (a spent DIRTY entry dropped: its spend never reaches the parent, which keeps a coin the node "
                      "would let be spent again)";
}

}  // namespace

std::string Render(const std::optional<Coin>& c) { return c ? c->ToString() : "none"; }

std::string Render(const std::vector<OutPoint>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + v[i].ToString();
  return out + "]";
}

bool SameOrder(std::vector<OutPoint> got, std::vector<OutPoint> want) {
  if (seam::DirtyOrderIsFirstDirtied()) return got == want;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  return got == want;
}

const char* OrderWords() {
  return seam::DirtyOrderIsFirstDirtied() ? "the entries first became DIRTY in the order"
                                          : "in any order (the subject's own) it should hold the DIRTY entries";
}

namespace {

// The checks that read what only one form of the subject has (FlagsKnown, LastWrite): templates, so that a
// subject without it never compiles the branch that reads it.
template <class Cache>
void CheckEntryIn(const Cache& cache, const CoinsStackModel& model, int level, CoinsStackModel::Key k,
                  const KeyToOutpoint& outpoint_of) {
  const OutPoint& o = outpoint_of(k);
  const auto* got = cache.FindEntry(o);
  const ModelEntry* want = model.Find(level, k);
  if constexpr (!seam::kEntriesVisible) {
    // Unspent entries only, flags unknown.
    const bool want_unspent = want != nullptr && want->coin.has_value();
    HARNESS_CHECK((got != nullptr) == want_unspent, "unspent entry ", o.ToString(), " at level ", level, ": subject ",
                  got ? "present" : "absent", ", model ",
                  want == nullptr ? "absent"
                  : want_unspent  ? "unspent"
                                  : "spent");
    if (got == nullptr) return;
    HARNESS_CHECK(*want->coin == got->coin, "coin ", o.ToString(), " at level ", level, ": subject ",
                  got->coin.ToString(), ", model ", Render(want->coin));
    return;
  }
  HARNESS_CHECK((got != nullptr) == (want != nullptr), "entry ", o.ToString(), " at level ", level, ": subject ",
                got ? "present" : "absent", ", model ", want ? "present" : "absent", PresenceMatters(got, want));
  if (got == nullptr) return;
  // Compared in place: a copy of each coin per check was a tenth of the target's time.
  const bool same_coin = got->coin.IsSpent() ? !want->coin.has_value() : want->coin && *want->coin == got->coin;
  HARNESS_CHECK(same_coin, "coin ", o.ToString(), " at level ", level, ": subject ",
                got->coin.IsSpent() ? std::string("none") : got->coin.ToString(), ", model ", Render(want->coin));
  HARNESS_CHECK(got->IsDirty() == want->dirty && got->IsFresh() == want->fresh, "flags of ", o.ToString(), " at level ",
                level, ": subject ", Flags(got->IsDirty(), got->IsFresh()), ", model ", Flags(want->dirty, want->fresh),
                FlagsMatter(got->IsDirty(), got->IsFresh(), want->dirty, want->fresh));
}

template <class Cache>
void CheckWriteIn(const Cache& cache, const ExpectedWrite& expected, int level, const KeyToOutpoint& outpoint_of) {
  if constexpr (!seam::kDirtyListVisible) {
    const auto& got = cache.LastWrite();
    std::vector<OutPoint> got_order, want_order;
    for (const auto& e : got) got_order.push_back(e.outpoint);
    for (const auto k : expected.keys) want_order.push_back(outpoint_of(k));
    HARNESS_CHECK(SameOrder(got_order, want_order), "the write down from level ", level, " handed its parent ",
                  Render(got_order), " but ", OrderWords(), " ", Render(want_order));
    for (size_t i = 0; i < got.size(); ++i) {
      const size_t at = got_order[i] == want_order[i]
                            ? i
                            : std::find(want_order.begin(), want_order.end(), got_order[i]) - want_order.begin();
      const ModelEntry& want = expected.entries[at];
      const bool same_coin = got[i].coin.IsSpent() ? !want.coin.has_value() : want.coin && *want.coin == got[i].coin;
      HARNESS_CHECK(same_coin, "written entry ", got[i].outpoint.ToString(), " from level ", level, ": subject ",
                    got[i].coin.IsSpent() ? std::string("none") : got[i].coin.ToString(), ", model ",
                    Render(want.coin));
      if constexpr (seam::kCoinsApi.entry_flags) {
        const bool dirty = got[i].flags & seam::CacheEntry::kDirty;
        const bool fresh = got[i].flags & seam::CacheEntry::kFresh;
        HARNESS_CHECK(dirty == want.dirty && fresh == want.fresh, "flags of the written entry ",
                      got[i].outpoint.ToString(), " from level ", level, ": subject ", Flags(dirty, fresh), ", model ",
                      Flags(want.dirty, want.fresh), FlagsMatter(dirty, fresh, want.dirty, want.fresh));
      }
    }
  }
}

}  // namespace

void CheckEntry(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, CoinsStackModel::Key k,
                const KeyToOutpoint& outpoint_of) {
  CheckEntryIn(cache, model, level, k, outpoint_of);
}

void CheckDirtyOrder(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level,
                     const KeyToOutpoint& outpoint_of) {
  if constexpr (!seam::kDirtyListVisible) return;  // checked at writes (CheckWrite)
  const std::vector<OutPoint>& got = cache.DirtyOrder();
  const std::vector<CoinsStackModel::Key>& want = model.DirtyOrder(level);
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = got[i] == outpoint_of(want[i]);
  if (same) return;
  std::vector<OutPoint> expected;
  for (const auto k : want) expected.push_back(outpoint_of(k));
  HARNESS_CHECK(SameOrder(got, expected), "dirty list at level ", level, ": subject ", Render(got), ", but ",
                OrderWords(), " ", Render(expected));
}

void CheckSizes(const seam::CoinsViewCache& cache, const CoinsStackModel& model, int level, bool deep) {
  if (deep) {
    try {
      cache.SanityCheck();
    } catch (const std::logic_error& e) {
      HARNESS_CHECK(false, "level ", level, ": ", e.what());
    }
    if constexpr (seam::kCoinsApi.sizes) {
      const size_t usage = model.Usage(level);  // a walk over the level's entries: once
      if constexpr (seam::kExactUsage) {
        HARNESS_CHECK_EQ(seam::ModelledUsage(cache), usage, "memory usage at level ", level);
      }
      HARNESS_CHECK(cache.DynamicMemoryUsage() >= usage, "total memory usage at level ", level,
                    " below the entries' part: ", cache.DynamicMemoryUsage(), " < ", usage);
      // After a Reset or a flush that kept the map's memory, the figure depends on those changes' forms.
      if (const char* change = model.MemoryChange(level)) {
        HARNESS_OBSERVE_CHANGE(change, "DynamicMemoryUsage", "level ", level, ": ", cache.DynamicMemoryUsage());
      } else {
        HARNESS_OBSERVE("DynamicMemoryUsage", "level ", level, ": ", cache.DynamicMemoryUsage());
      }
    }
  }
  if constexpr (seam::kCoinsApi.sizes) {
    HARNESS_CHECK_EQ(cache.GetCacheSize(), model.Size(level), "cache size at level ", level);
  }
  if constexpr (seam::kDirtyCountVisible) {
    HARNESS_CHECK_EQ(cache.GetDirtyCount(), model.DirtyOrder(level).size(), "dirty count at level ", level);
  }
}

void CheckEmpty(const seam::CoinsViewCache& cache, const char* what) {
  if constexpr (seam::kCoinsApi.sizes) HARNESS_CHECK_EQ(cache.GetCacheSize(), size_t{0}, what, ": entries left");
  if constexpr (seam::kExactUsage)
    HARNESS_CHECK_EQ(seam::ModelledUsage(cache), size_t{0}, what, ": coins' memory left");
  CheckDirtyListEmpty(cache, what);
}

void CheckDirtyListEmpty(const seam::CoinsViewCache& cache, const char* what) {
  if constexpr (seam::kDirtyCountVisible) HARNESS_CHECK_EQ(cache.GetDirtyCount(), size_t{0}, what, ": dirty count");
  if constexpr (seam::kDirtyListVisible)
    HARNESS_CHECK(cache.DirtyOrder().empty(), what, ": the dirty list is not empty");
}

ExpectedWrite ExpectWrite(const CoinsStackModel& model, int level) {
  ExpectedWrite out;
  if constexpr (!seam::kDirtyListVisible) {
    out.keys = model.DirtyOrder(level);
    for (const auto k : out.keys) out.entries.push_back(*model.Find(level, k));
  }
  return out;
}

void CheckWrite(const seam::CoinsViewCache& cache, const ExpectedWrite& expected, int level,
                const KeyToOutpoint& outpoint_of) {
  CheckWriteIn(cache, expected, level, outpoint_of);
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
