// StoreCrashModel: which states a coins store may hold after the node stopped, the idea of LevelDB's
// fault-injection test: what is durable, and what a stop may lose.
//
// The database was last opened holding a durable state, perhaps in the middle of a flush (a flush cut short
// before that open); the flushes since then each keep what they overwrote, so the state before each can be
// rebuilt from the reference's state after the last. After a stop without a power loss the store holds
// what the flush under way left: the batches it wrote, and perhaps the one whose write or sync failed (a
// write whose sync failed is in the log). After a power loss, anything unsynced may be gone: any state since
// the open is legal, each with the flush it may be in the middle of.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "coins_store_model.h"
#include "seam/types.h"

namespace harness {

// One of the cache's DIRTY entries, as a flush hands it to the store.
struct DirtyEntry {
  OutPoint outpoint;
  Coin coin;
  uint8_t flags;
};

// A flush as the store saw it since the database was last opened: what may survive a power loss. It keeps
// no copy of the state before it: a completed one keeps what it overwrote (each flush since the open is then
// undone from the reference's state), and one the store is in the middle of is a PendingStoreFlush.
struct StoreFlush {
  FlushPlan plan;
  std::vector<DirtyEntry> entries;  // to run it again
  std::vector<size_t> ends;         // FlushPlan::PartialBatchEnds
  size_t floor = 0;                 // writes already in the store when it began (a re-run's)
  size_t partial_written = 0;       // partial batches it wrote
  bool completed = false;
  FlushUndo undo;  // completed: what it overwrote
  // The store after its first `batches` partial batches (0: as before it began), from `before`.
  KvMap After(const KvMap& before, size_t batches) const;
};

// A flush the store was left in the middle of, and the state before it began.
struct PendingStoreFlush {
  KvMap before;
  StoreFlush flush;
};

class StoreCrashModel {
 public:
  // A state the store may hold after a stop, with the flush it leaves unfinished (null: none) and the state
  // before that flush.
  struct Legal {
    KvMap state;
    const StoreFlush* pending = nullptr;
    const KvMap* before = nullptr;
  };
  // The legal states of one stop, in the order they are tried. Points into the model, `reference` and
  // `current` of After(): valid until any of them changes.
  class Outcome {
   public:
    // The legal state equal to `state`, or null. `any_order`: the subject writes a flush's entries in an
    // order the plans may not follow, so any legal mid-flush state of a flush the store may be in the middle
    // of is one it can be in.
    const Legal* Find(const KvMap& state, bool any_order);
    // The last legal state, which a failure shows the store against.
    const KvMap& Last() const { return legal_.back().state; }

   private:
    friend class StoreCrashModel;
    std::vector<KvMap> befores_;  // after a power loss: the state before each flush since the open
    std::vector<Legal> legal_;
    std::vector<Legal> unfinished_;  // for any_order: each flush the store may be in the middle of
  };

  // The database was opened holding `state`, in the middle of `pending` if any: the flushes before are
  // durable now.
  void Opened(KvMap state, std::optional<PendingStoreFlush> pending);
  // A flush the store ran since (completed, or failed with what it wrote known).
  void Ran(StoreFlush flush) { since_open_.push_back(std::move(flush)); }
  // The flush the database was opened in the middle of.
  const std::optional<PendingStoreFlush>& opened_pending() const { return durable_pending_; }

  // The states a store may hold after the node stopped, the last flush having left `reference` and
  // `current` (begun on `reference`) under way if any; after `power_loss`, also every state since the open.
  // Checks that the flushes' undo logs lead back to the state the database was opened in.
  Outcome After(const KvMap& reference, const std::optional<StoreFlush>& current, bool power_loss) const;

 private:
  KvMap durable_;
  std::optional<PendingStoreFlush> durable_pending_;
  std::vector<StoreFlush> since_open_;
};

}  // namespace harness
