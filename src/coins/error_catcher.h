// CoinsViewErrorCatcher: the view between the coins store and the caches over it that turns a failed read
// of the store into a stop of the process (Bitcoin Core's CCoinsViewErrorCatcher, coins.h). A read that
// fails is not a missing coin: answering "no coin" would let a block spend a coin twice or reject a valid
// one, so the node must not go on. Semantics: docs/semantics.md §1, "Read errors".
//
// GetCoin, PeekCoin and HaveCoin ask the parent; when the parent throws std::runtime_error, every callback
// runs, in the order added, and then the process aborts. Everything else passes through unchanged.
#pragma once

#include <functional>
#include <vector>

#include "view.h"

namespace embedded {

class CoinsViewErrorCatcher : public CoinsView {
 public:
  // `parent` must outlive the catcher.
  explicit CoinsViewErrorCatcher(CoinsView* parent) : parent_(*parent) {}

  // Runs on a failed read, before the abort (the node's shutdown notice).
  void AddReadErrCallback(std::function<void()> callback) { callbacks_.push_back(std::move(callback)); }

  std::optional<Coin> GetCoin(const OutPoint& outpoint) override;
  std::optional<Coin> PeekCoin(const OutPoint& outpoint) const override;
  bool HaveCoin(const OutPoint& outpoint) override;
  Hash256 GetBestBlock() const override { return parent_.GetBestBlock(); }
  void BatchWrite(CoinsCursor& cursor, const Hash256& best_block) override { parent_.BatchWrite(cursor, best_block); }
  std::vector<Hash256> GetHeadBlocks() const override { return parent_.GetHeadBlocks(); }
  size_t EstimateSize() const override { return parent_.EstimateSize(); }

 private:
  // `read()`, or on std::runtime_error the callbacks and std::abort().
  template <typename Read>
  auto Guarded(Read read) const -> decltype(read());

  CoinsView& parent_;
  std::vector<std::function<void()>> callbacks_;
};

}  // namespace embedded
