// Compiled by cmake/CoreProbe.cmake only where row view_members_known answers no (a view of the suite's own
// over the tree's CCoinsView would be abstract): declaring one makes the compiler name each pure virtual member
// of the tree's CCoinsView that the suite does not implement ("unimplemented pure virtual method 'X'").
#include "core/coins_cache_features.h"

void SuiteCoreOwnView() { [[maybe_unused]] core_features::OwnView<CCoinsView, CCoinsView> view; }
