// Compiled by cmake/CoreProbe.cmake only where row own_views answers no (a view of the suite's own would be
// abstract on the tree): declaring one makes the compiler name each pure virtual member of the tree's
// CCoinsView that the suite does not implement ("unimplemented pure virtual method 'X'").
#include "core/coins_cache_features.h"

void SuiteCoreOwnView() { [[maybe_unused]] core_features::OwnView<CCoinsView> view; }
