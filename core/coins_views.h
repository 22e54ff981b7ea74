// The suite's own CCoinsViews: the two classes a Core cache sees as its parent where that parent is not a
// Core view. Each derives from the tree's CCoinsViewBacked (or CCoinsView, where no backed view stands in)
// through core/coins_view_members.h, so that every member the tree declares is overridden with the tree's
// own parameters, const and noexcept, a member the tree lacks is not declared at all, and a pure virtual
// member outside the suite's list is answered by Core's backed view (row view_members_known). Where even that
// leaves them abstract, MakeBridge and MakeRecorder throw Unavailable, and configure has said so (row
// own_views). Included only by core/*.cpp: it needs Core's headers.
#pragma once

#include "core/coins_cache.h"
#include "core/coins_cache_features.h"
#include "core/coins_cache_shims.h"
#include "core/coins_view_members.h"
#include "core/convert.h"
#include "core/unavailable.h"

#include <coins.h>
#include <uint256.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace core_adapter {

// A view's HaveCoin: its own where the tree's CCoinsView declares one, else whether GetCoin finds a coin
// (what HaveCoin means on every tree; a branch keeps it on the cache view only).
template <class View>
bool HaveCoinOf(const View& view, const COutPoint& outpoint) {
  if constexpr (!SUITE_CORE_have_coin_on_cache_only) {
    return view.HaveCoin(outpoint);
  } else {
    return view.GetCoin(outpoint).has_value();
  }
}

// A Core CCoinsView over an adapter CoinsView: what a Core cache uses as its base when the parent has no
// Core view of its own, or when it must only peek at the parent (`peek`: the overlay where Core has none).
// Reads are const and touch nothing but the view's own PeekCoin, so the overlay's fetchers may call them
// from several threads. The view reports a refused batch by throwing (the embedded interface returns
// nothing). It has no cursor over its coins: Cursor(), where the tree declares it on CCoinsView, returns
// none, as CCoinsView's own did before #34124. A member it does not know reads the tree's empty view.
template <class View = ::CCoinsView>
class Bridge : public members::OverView<Bridge<View>, members::ViewBase<View>> {
 public:
  Bridge(CoinsView& view, bool peek)
      : members::OverView<Bridge<View>, members::ViewBase<View>>(nullptr), view_(view), peek_(peek) {}

  std::optional<::Coin> DoGetCoin(const COutPoint& outpoint) const {
    return ToCore(peek_ ? view_.PeekCoin(FromCore(outpoint)) : view_.GetCoin(FromCore(outpoint)));
  }
  std::optional<::Coin> DoPeekCoin(const COutPoint& outpoint) const {
    return ToCore(view_.PeekCoin(FromCore(outpoint)));
  }
  bool DoHaveCoin(const COutPoint& outpoint) const {
    return peek_ ? view_.PeekCoin(FromCore(outpoint)).has_value() : view_.HaveCoin(FromCore(outpoint));
  }
  uint256 DoGetBestBlock() const { return ToCore(view_.GetBestBlock()); }
  std::vector<uint256> DoGetHeadBlocks() const {
    std::vector<uint256> out;
    for (const embedded::Hash256& h : view_.GetHeadBlocks()) out.push_back(ToCore(h));
    return out;
  }
  size_t DoEstimateSize() const { return view_.EstimateSize(); }
  template <class Cursor>
  void DoBatchWrite(Cursor&& cursor, const uint256& best_block) const {
    CoinsCursor wrapped(cursor);
    view_.BatchWrite(wrapped, FromCore(best_block));
  }
  std::nullptr_t DoCursor() const { return nullptr; }

 private:
  CoinsView& view_;
  const bool peek_;
};

// Between a Core cache and its parent's Core view where the dirty list is seen only at writes
// (!kDirtyListInternal): forwards every member as the tree declares it, and records what each BatchWrite's
// cursor yields before the parent consumes it (into `log`: the cache's LastWrite). Reads are const and
// forward only, so the overlay's fetchers may call them from several threads. A member it does not know is
// forwarded by the tree's backed view.
template <class View = ::CCoinsView>
class Recorder : public members::OverView<Recorder<View>, members::ViewBase<View>> {
 public:
  Recorder(View& parent, std::vector<WrittenEntry>& log)
      : members::OverView<Recorder<View>, members::ViewBase<View>>(&parent), parent_(parent), log_(log) {}

#define SUITE_CORE_FORWARD(Name)                \
  template <class... A>                         \
  decltype(auto) Do##Name(A&&... a) const {     \
    return parent_.Name(std::forward<A>(a)...); \
  }
  SUITE_CORE_FORWARD(GetCoin)
  SUITE_CORE_FORWARD(PeekCoin)
  SUITE_CORE_FORWARD(HaveCoin)
  SUITE_CORE_FORWARD(GetBestBlock)
  SUITE_CORE_FORWARD(GetHeadBlocks)
  SUITE_CORE_FORWARD(Cursor)
  SUITE_CORE_FORWARD(EstimateSize)
#undef SUITE_CORE_FORWARD
  template <class Cursor, class... A>
  decltype(auto) DoBatchWrite(Cursor&& cursor, A&&... a) const {
    log_ = shims::Walk(cursor);
    return parent_.BatchWrite(std::forward<Cursor>(cursor), std::forward<A>(a)...);
  }

 private:
  View& parent_;
  std::vector<WrittenEntry>& log_;
};

// Whether the suite's own views can be built on this tree (row own_views: every pure virtual member of the
// tree's CCoinsView is one of core/coins_view_members.h's).
inline constexpr bool kOwnViews = SUITE_CORE_own_views;

template <class B = Bridge<>>
std::unique_ptr<::CCoinsView> MakeBridge(CoinsView& view, bool peek) {
  if constexpr (std::is_abstract_v<B>) {
    throw Unavailable(
        "a CCoinsView of the suite's own (the tree's CCoinsView has a pure virtual member the suite "
        "does not implement)");
  } else {
    return std::make_unique<B>(view, peek);
  }
}

template <class R = Recorder<>>
std::unique_ptr<::CCoinsView> MakeRecorder(::CCoinsView& parent, std::vector<WrittenEntry>& log) {
  if constexpr (std::is_abstract_v<R>) {
    throw Unavailable(
        "a CCoinsView of the suite's own (the tree's CCoinsView has a pure virtual member the suite "
        "does not implement)");
  } else {
    return std::make_unique<R>(parent, log);
  }
}

}  // namespace core_adapter
