// The members of Bitcoin Core's CCoinsView that the suite's own views implement (core/coins_views.h), each
// overridden in the form the tree declares it (core/view_members.h), and the class they derive from. The
// list is the one place that names them: the feature probe asks, with the same chain, whether a view of the
// suite's is complete on a tree (core/coins_cache_features.h, rows own_views and view_members_known), and
// configure names any pure virtual member outside it.
#pragma once

#include "core/features.h"  // the Core classes named below, declared
#include "core/view_members.h"

#include <concepts>
#include <type_traits>

// Every member a view of the suite's implements: its Do<Name> is what the override calls.
// clang-format off
#define SUITE_CORE_COINS_VIEW_MEMBERS(X) \
  X(GetCoin) X(PeekCoin) X(HaveCoin) X(GetBestBlock) X(GetHeadBlocks) X(BatchWrite) X(Cursor) X(EstimateSize)
// clang-format on

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
// `View` with every member of the list overridden where the tree declares it, each calling Final::Do<Name>.
template <class Final, class View>
using CoinsViewMembers = typename Layers<Final, View SUITE_CORE_COINS_VIEW_MEMBERS(SUITE_CORE_MEMBER_LAYER_NAME)>::type;
#undef SUITE_CORE_MEMBER_LAYER_NAME

// The tree's empty view (its reads find nothing): CoinsViewEmpty::Get() where the tree has it (#34124), else a
// CCoinsView of its own where CCoinsView is not abstract. kHasEmptyView: whether it has either.
template <class View = ::CCoinsView, class Empty = ::CoinsViewEmpty>
inline constexpr bool kEmptyViewIsCores = requires {
  { Empty::Get() } -> std::convertible_to<View&>;
};
template <class View = ::CCoinsView, class Empty = ::CoinsViewEmpty>
inline constexpr bool kHasEmptyView = [] {
  if constexpr (kEmptyViewIsCores<View, Empty>) {
    return true;
  } else if constexpr (requires { sizeof(View); }) {
    return !std::is_abstract_v<View>;
  } else {
    return false;
  }
}();
template <class View = ::CCoinsView, class Empty = ::CoinsViewEmpty>
View* EmptyView()
  requires kHasEmptyView<View, Empty>
{
  if constexpr (kEmptyViewIsCores<View, Empty>) {
    return &Empty::Get();
  } else {
    static View nothing;
    return &nothing;
  }
}

// Whether the tree's CCoinsViewBacked can stand under the suite's views: a concrete CCoinsView built over
// another one, and the tree has an empty view for the views that have no Core view below.
template <class View = ::CCoinsView, class Backed = ::CCoinsViewBacked>
inline constexpr bool kBackedStandsIn = [] {
  if constexpr (requires { sizeof(Backed); }) {
    return std::derived_from<Backed, View> && !std::is_abstract_v<Backed> && std::constructible_from<Backed, View*> &&
           kHasEmptyView<View>;
  } else {
    return false;
  }
}();

// What a view of the suite's derives from: the tree's CCoinsViewBacked where it stands in, so that a pure
// virtual member of CCoinsView outside the list is answered as Core's own backed view answers it, by the view
// below (the parent, or the empty view); else CCoinsView itself. Built with the view below (ViewBaseArgs).
template <class View = ::CCoinsView, class Backed = ::CCoinsViewBacked>
using ViewBase = std::conditional_t<kBackedStandsIn<View, Backed>, Backed, View>;

// A view of the suite's over `below` (nullptr: the empty view), which its ViewBase reads through where it is
// CCoinsViewBacked.
template <class Final, class Base>
struct OverView : CoinsViewMembers<Final, Base> {
  explicit OverView(::CCoinsView*)
    requires std::is_same_v<Base, ::CCoinsView>
  {}
  explicit OverView(::CCoinsView* below)
    requires(!std::is_same_v<Base, ::CCoinsView>)
      : CoinsViewMembers<Final, Base>(below != nullptr ? below : EmptyView()) {}
};

}  // namespace core_adapter::members
