// The members of Bitcoin Core's CCoinsView that the suite's own views implement (core/coins_views.h), each
// overridden in the form the tree declares it (core/view_members.h). The list is the one place that names
// them: the feature probe asks, with the same chain, whether a view of the suite's is complete on a tree
// (core/coins_cache_features.h, row own_views), and configure names any pure virtual member outside it.
#pragma once

#include "core/view_members.h"

// Every member a view of the suite's implements: its Do<Name> is what the override calls.
#define SUITE_CORE_COINS_VIEW_MEMBERS(X) \
  X(GetCoin) X(PeekCoin) X(HaveCoin) X(GetBestBlock) X(GetHeadBlocks) X(BatchWrite) X(Cursor) X(EstimateSize)

namespace core_adapter::members {

SUITE_CORE_COINS_VIEW_MEMBERS(SUITE_CORE_MEMBER_LAYER)

// Layers<Final, View, L...>: View with each layer of L on top, the first outermost.
template <class Final, class View, template <class, class, class> class... L>
struct Layers {
  using type = View;
};
template <class Final, class View, template <class, class, class> class First,
          template <class, class, class> class... Rest>
struct Layers<Final, View, First, Rest...> {
  using type = First<Final, typename Layers<Final, View, Rest...>::type, void>;
};

#define SUITE_CORE_MEMBER_LAYER_NAME(Name) , Name##Layer
// What a view of the suite's derives from: `View` (the tree's CCoinsView) with every member of the list
// overridden where the tree declares it, each calling Final::Do<Name>.
template <class Final, class View>
using CoinsViewMembers = typename Layers<Final, View SUITE_CORE_COINS_VIEW_MEMBERS(SUITE_CORE_MEMBER_LAYER_NAME)>::type;
#undef SUITE_CORE_MEMBER_LAYER_NAME

}  // namespace core_adapter::members
