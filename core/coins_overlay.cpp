// CoinsViewOverlay over Bitcoin Core's CoinsViewOverlay (#34165, #35295), or, in trees without it, over a
// plain Core cache that peeks at its parent (see kOverlayIsCores in core/coins_cache.h).
#include "core/coins_cache.h"
#include "core/convert.h"
#include "core/coins_cache_features.h"

#include <coins.h>
#include <primitives/block.h>

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace core_adapter {
namespace {

// One pool per worker count, started once per process: threads are what costs, and they keep nothing
// between blocks (Core's chainstate also keeps one pool for every block it connects).
template <class Pool = ::ThreadPool>
std::shared_ptr<Pool> SharedPool(int workers) {
  static std::mutex mutex;
  static std::array<std::shared_ptr<Pool>, CoinsViewOverlay::kMaxWorkers + 1> pools;
  const std::lock_guard lock(mutex);
  std::shared_ptr<Pool>& pool = pools.at(static_cast<size_t>(workers));
  if (!pool) {
    pool = std::make_shared<Pool>("fetch");
    if (workers > 0) pool->Start(workers);
  }
  return pool;
}

template <class Overlay = ::CoinsViewOverlay>
std::unique_ptr<::CCoinsViewCache> NewCoreOverlay(::CCoinsView* base, int workers) {
  if constexpr (kOverlayIsCores) {
    return std::make_unique<Overlay>(base, SharedPool(workers), /*deterministic=*/true);
  } else {
    return std::make_unique<::CCoinsViewCache>(base, /*deterministic=*/true);
  }
}

// Core's StartFetching: the ResetGuard it returns, kept on the heap (it can be neither copied nor moved).
template <class Overlay = ::CoinsViewOverlay>
std::shared_ptr<void> StartCoreFetching(::CCoinsViewCache& cache, const CBlock& block) {
  return std::shared_ptr<void>(new typename Overlay::ResetGuard(static_cast<Overlay&>(cache).StartFetching(block)));
}

template <class Overlay = ::CoinsViewOverlay>
bool CoreAllInputsConsumed(const ::CCoinsViewCache& cache) {
  return static_cast<const Overlay&>(cache).AllInputsConsumed();
}

// Core's overlay's Flush, which stops the fetching first.
template <class Overlay = ::CoinsViewOverlay>
void CoreFlush(::CCoinsViewCache& cache, bool reallocate_cache) {
  static_cast<Overlay&>(cache).Flush(reallocate_cache);
}

int CheckedWorkers(int workers) {
  if (workers < 0 || workers > CoinsViewOverlay::kMaxWorkers) {
    throw std::invalid_argument("CoinsViewOverlay: " + std::to_string(workers) + " workers (0 to " +
                                std::to_string(CoinsViewOverlay::kMaxWorkers) + ")");
  }
  return workers;
}

}  // namespace

// The block the fetchers read (Core keeps references into it) and the guard that resets the overlay as it
// goes; the guard is declared last, so it goes first.
struct CoinsViewOverlay::Fetch {
  std::shared_ptr<const CBlock> block;
  std::shared_ptr<void> guard;
};

HashedBlock::HashedBlock(const embedded::Block& block) {
  if constexpr (kOverlayIsCores) block_ = std::make_shared<const CBlock>(ToCore(block));
}

CoinsViewOverlay::CoinsViewOverlay(CoinsView* parent, int workers)
    : CoinsViewCache(
          parent, [workers = CheckedWorkers(workers)](::CCoinsView* base) { return NewCoreOverlay(base, workers); },
          /*peek_parent=*/!kOverlayIsCores) {}

CoinsViewOverlay::~CoinsViewOverlay() { fetch_.reset(); }

void CoinsViewOverlay::StartFetching(const HashedBlock& block) {
  if (fetch_) throw std::logic_error("StartFetching: a block was started since the last Reset");
  fetch_ = std::make_unique<Fetch>();
  fetch_->block = block.core();
  if constexpr (kOverlayIsCores) fetch_->guard = StartCoreFetching(core(), *fetch_->block);
}

bool CoinsViewOverlay::AllInputsConsumed() const {
  if constexpr (kOverlayIsCores) {
    return CoreAllInputsConsumed(core());
  } else {
    return true;
  }
}

void CoinsViewOverlay::Flush(bool reallocate_cache) {
  if constexpr (kOverlayIsCores) {
    CoreFlush(core(), reallocate_cache);
  } else {
    CoinsViewCache::Flush(reallocate_cache);
  }
}

void CoinsViewOverlay::Reset() {
  const bool guarded = fetch_ && fetch_->guard;
  fetch_.reset();  // Core's Reset, through the guard, if a block was started
  if (!guarded) CoinsViewCache::Reset();
}

}  // namespace core_adapter
