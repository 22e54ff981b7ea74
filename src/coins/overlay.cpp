#include "overlay.h"

#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace embedded {
namespace {

struct TxidHasher {
  size_t operator()(const Hash256& h) const { return OutPointHasher{}(OutPoint{h, 0}); }
};

}  // namespace

CoinsViewOverlay::CoinsViewOverlay(CoinsView* parent, std::shared_ptr<ThreadPool> pool)
    : CoinsViewCache(parent), pool_(std::move(pool)) {}

CoinsViewOverlay::~CoinsViewOverlay() { StopFetching(); }

void CoinsViewOverlay::StartFetching(const Block& block) {
  if (started_) throw std::logic_error("StartFetching: a block was started since the last Reset");
  started_ = true;
  if (pool_->workers() == 0 || block.vtx.size() < 2) return;
  std::vector<const OutPoint*> queue;
  std::unordered_set<Hash256, TxidHasher> earlier;
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    for (const TxIn& in : block.vtx[i].vin) {
      if (!earlier.contains(in.prevout.txid)) queue.push_back(&in.prevout);
    }
    earlier.insert(TxidOf(block.vtx[i]));
  }
  if (queue.empty()) return;
  size_ = queue.size();
  slots_ = std::make_unique<Slot[]>(size_);
  for (size_t i = 0; i < size_; ++i) slots_[i].outpoint = queue[i];
  jobs_ = pool_->Submit(
      std::vector<std::function<void()>>(static_cast<size_t>(pool_->workers()), [this] { FetchAhead(); }));
}

void CoinsViewOverlay::FetchAhead() {
  for (;;) {
    const size_t i = claimed_.fetch_add(1, std::memory_order_relaxed);
    if (i >= size_) return;
    Slot& slot = slots_[i];
    slot.coin = parent().PeekCoin(*slot.outpoint);
    slot.ready.store(true, std::memory_order_release);
    slot.ready.notify_one();
  }
}

std::optional<Coin> CoinsViewOverlay::FetchFromParent(const OutPoint& outpoint) {
  if (taken_ < size_ && *slots_[taken_].outpoint == outpoint) {
    Slot& slot = slots_[taken_++];
    slot.ready.wait(false, std::memory_order_acquire);
    return std::move(slot.coin);
  }
  return parent().PeekCoin(outpoint);
}

void CoinsViewOverlay::StopFetching() {
  claimed_.store(size_, std::memory_order_relaxed);
  for (std::future<void>& job : jobs_) job.wait();
  jobs_.clear();
  slots_.reset();
  size_ = taken_ = 0;
  claimed_.store(0, std::memory_order_relaxed);
}

void CoinsViewOverlay::Flush(bool reallocate_cache) {
  StopFetching();
  CoinsViewCache::Flush(reallocate_cache);
}

void CoinsViewOverlay::Sync() {
  StopFetching();
  CoinsViewCache::Sync();
}

void CoinsViewOverlay::Reset() {
  StopFetching();
  CoinsViewCache::Reset();
  started_ = false;
}

}  // namespace embedded
