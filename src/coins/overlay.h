// CoinsViewOverlay: the cache a block is connected through, over the chainstate's cache. Once
// StartFetching has the block, the pool's workers fetch the coins its inputs spend from the parent ahead
// of the main thread, in any order; a cache miss on the main thread takes the next fetched coin when its
// outpoint is the next one in block order, and otherwise asks the parent itself. Either way the parent is
// read with PeekCoin, so it caches nothing: every result is that of a plain cache whose fetches peek.
// Semantics: docs/semantics.md §1, "The overlay".
//
// Requires, while fetching (from StartFetching to Flush, Sync or Reset): the parent does not change (but
// through this overlay's Flush or Sync, which stop the fetching first) and its PeekCoin is safe for
// concurrent readers; the block stays alive and unchanged.
#pragma once

#include <atomic>
#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "cache.h"
#include "thread_pool.h"
#include "tx/transaction.h"

namespace embedded {

class CoinsViewOverlay : public CoinsViewCache {
 public:
  // `parent` must outlive the overlay; `pool` may have no workers (then nothing is fetched ahead).
  CoinsViewOverlay(CoinsView* parent, std::shared_ptr<ThreadPool> pool);
  ~CoinsViewOverlay() override;

  // Queues the prevouts of the inputs of every transaction after the first, in block order, except those
  // whose txid is that of an earlier transaction after the first (the block creates those coins itself),
  // and has the pool's workers fetch them. With no workers nothing is queued. Throws std::logic_error if a
  // block was started since the last Reset.
  void StartFetching(const Block& block);
  // Every queued coin was taken by the main thread (inputs were looked up in block order).
  bool AllInputsConsumed() const { return taken_ == size_; }
  // Stop the fetching, then write down as CoinsViewCache::Flush and Sync do: the parent changes, so no
  // fetcher may read it any more. Later cache misses ask the parent.
  void Flush(bool reallocate_cache = true) override;
  void Sync() override;
  // Stops the fetching, then empties the overlay as CoinsViewCache::Reset does; a new block may start.
  void Reset() override;

 protected:
  std::optional<Coin> FetchFromParent(const OutPoint& outpoint) override;

 private:
  struct Slot {
    const OutPoint* outpoint = nullptr;
    std::optional<Coin> coin;        // written by one worker before `ready`
    std::atomic<bool> ready{false};  // release by the worker, acquire by the main thread
  };
  // A worker's job: claim the next slot and fill it, until none is left.
  void FetchAhead();
  // Makes the workers stop claiming slots, waits for their jobs, and empties the queue.
  void StopFetching();

  std::shared_ptr<ThreadPool> pool_;
  std::unique_ptr<Slot[]> slots_;  // fixed while the workers run
  size_t size_ = 0;
  std::atomic<size_t> claimed_{0};  // the next slot a worker takes (may run past size_)
  size_t taken_ = 0;                // the next slot the main thread takes
  std::vector<std::future<void>> jobs_;
  bool started_ = false;
};

}  // namespace embedded
