// The forms a coins cache may take where no caller relies on one (docs/bitcoin-core.md, "When a tree
// reshapes an interface"), shared by both sides of seam/coins_cache.h.
#pragma once

namespace seam {

// Where the subject puts FRESH (seam::Fresh(), asked of a Core tree by running it): each true in the
// embedded subject and the pinned Core trees. A FRESH the rule does not allow is never a form: it is a finding.
struct FreshRules {
  bool on_add = true;         // AddCoin without possible_overwrite of an entry that is not DIRTY makes it FRESH
  bool through_write = true;  // a FRESH child entry written to a parent without an entry makes the parent's FRESH
  bool spent_erased = true;   // SpendCoin of a FRESH entry erases it; else it stays, spent and DIRTY,
  bool kept_fresh = false;    //   and FRESH too where this says so (and a write may hand it up: a no-op)
  bool written_spent_erased = true;  // a write of a spent entry erases the parent's FRESH entry; else the
                                     //   parent's stays, spent and DIRTY (FRESH too where kept_fresh says so)
};

}  // namespace seam
