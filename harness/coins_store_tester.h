// CoinsStoreTester: a coins cache over a CoinsStore on an in-memory LevelDB Env, driven in lockstep with
// CoinsStackModel (one cache level over the reference store) and the reference contents (coins_store_model.h).
//
// Modelled: cache operations as in CoinsTester; flushes and syncs into the store with any batch limit;
// a flush cut after any partial batch (the crash hook throws), the cache lost with it, the store closed
// and reopened on the same Env, its raw contents checked, and the same flush run again — optionally cut a
// second time — until it completes; clean reopens, which may ask for an obfuscation key; the key, set or
// all-zero.
// Checked: lookups through the cache and reads of the store against the model; after every flush the raw
// contents, decoded with the reference XOR, equal the reference (so any batch limit gives byte-identical
// contents), every raw value differs from its plaintext wherever the key's bytes over it are not all zero,
// and the number of partial batches is the one the reference predicts, and the store's cursor walks
// exactly the reference's coins in key order with its best block; after a cut, the store reports
// mid-flush with head blocks [new, original old tip], and its contents are a legal mid-flush state — the
// exact one the reference predicts for that cut; a flush without a best block throws and writes nothing.
// Not modelled: cache internals (coins_cache_sim covers them: here only its sanity check and entry count),
// several cache levels, on-disk files (the unit tests use a real directory and a real process crash).
//
// Operations: HARNESS_STORE_OPS (stable IDs; new ones go at the end).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "op_list.h"
#include "seam/coins_cache.h"
#include "coins_model.h"
#include "seam/obfuscation.h"
#include "seam/coins_store.h"
#include "coins_store_model.h"

namespace leveldb {
class Env;
}

namespace harness {

// X(enumerator, id, name, args): args are the step fields the operation reads, printed by
// CoinsStoreStep::ToString and the only ones the decoder reads for it (kKeyAsked is `block` read as a key).
#define HARNESS_STORE_OPS(X)                                                                                           \
  X(kGet, 0, "Get", kOutpoint)                           /* GetCoin through the cache (from the store) */              \
  X(kAdd, 1, "Add", kOutpoint | kCoin)                   /* AddCoin(possible_overwrite = false) */                     \
  X(kAddOverwrite, 2, "AddOverwrite", kOutpoint | kCoin) /* AddCoin(possible_overwrite = true) */                      \
  X(kSpend, 3, "Spend", kOutpoint)                       /* SpendCoin */                                               \
  X(kUncache, 4, "Uncache", kOutpoint)                   /* Uncache */                                                 \
  X(kSetBestBlock, 5, "SetBestBlock", kBlock)            /* SetBestBlock on the cache */                               \
  X(kFlush, 6, "Flush", kBatch)                          /* Flush with a batch limit, perhaps cut and recovered */     \
  X(kSync, 7, "Sync", kBatch)                            /* Sync into the store, likewise */                           \
  X(kReopen, 8, "Reopen", kKeyAsked)                     /* reopen the store, may ask for a key; the cache is lost */  \
  X(kPeekStore, 9, "PeekStore", kOutpoint)               /* PeekCoin and HaveCoin on the store itself */               \
  /* new values go above this line, with the next id */

HARNESS_OP_ENUM(CoinsStoreOp, kCoinsStoreOpCount, HARNESS_STORE_OPS)

struct CoinsStoreStep {
  enum Arg : uint8_t { kOutpoint = 1, kCoin = 2, kBlock = 4, kKeyAsked = 8, kBatch = 16 };
  static constexpr uint8_t kArgs[] = HARNESS_OP_COLUMN(HARNESS_STORE_OPS);
  // Whether `op` reads any of `args`.
  static constexpr bool Reads(CoinsStoreOp op, uint8_t args) { return (OpColumn(kArgs, op) & args) != 0; }

  CoinsStoreOp op{};
  uint8_t outpoint = 0;     // index into OutpointTable()
  uint8_t coin = 0;         // index into CoinTable()
  uint8_t block = 0;        // best block hash id; for a reopen, the key asked for (0: none)
  uint32_t batch_limit = 1;  // bytes, >= 1 (flush and sync)
  uint8_t cut = 0;          // 0: none; n: cut the flush after its n-th partial batch, if it has one
  uint8_t cut_again = 0;    // likewise for the first re-run
  std::string ToString() const;
};

class CoinsStoreTester {
 public:
  // A fresh in-memory database, created with `key` as its obfuscation key (all zero: none).
  explicit CoinsStoreTester(const seam::Obfuscation::KeyBytes& key);
  ~CoinsStoreTester();
  CoinsStoreTester(const CoinsStoreTester&) = delete;
  CoinsStoreTester& operator=(const CoinsStoreTester&) = delete;

  // Applies one step to subject and reference and checks; false (nothing changed) if it does not apply.
  bool Apply(CoinsStoreStep step);
  // Final sweep: every touched outpoint read from the store, through its decoder (each step that changes
  // the store compares all of it raw; each step checks the touched cache entry).
  HARNESS_NO_FUZZ_COVERAGE void CheckAll();

  // Partial batches written by flushes so far, and flushes cut short: the fuzz target's progress signal.
  size_t partial_writes() const { return partial_writes_; }
  size_t cuts() const { return cuts_; }

 private:
  // A flush interrupted by the crash hook.
  struct SimulatedCrash {};
  // One of the cache's DIRTY entries, as a flush hands it to the store.
  struct DirtyEntry {
    OutPoint outpoint;
    Coin coin;
    uint8_t flags;
  };

  // Opens the store asking for `key` if the database is new (all zero: no key).
  void OpenStore(const seam::Obfuscation::KeyBytes& key);
  void CloseStore();
  void ApplyFlush(const CoinsStoreStep& step);
  // Runs a flush of `entries` from a new cache; returns false if the hook cut it after `cut` partial batches.
  bool Replay(const std::vector<DirtyEntry>& entries, const Hash256& best, size_t batch_limit, uint8_t cut);
  HARNESS_NO_FUZZ_COVERAGE FlushPlan Plan(const Hash256& new_tip) const;
  // Whether the store, decoded with the reference XOR, holds exactly `expected`; checks the obfuscation
  // key entry and that obfuscated values differ from their plaintext on the way. Builds nothing.
  HARNESS_NO_FUZZ_COVERAGE bool StoreMatches(const KvMap& expected) const;
  // The store's contents decoded with the reference XOR, for diagnostics.
  HARNESS_NO_FUZZ_COVERAGE KvMap Plaintext() const;
  // The raw contents equal `expected` (CheckCursor too); on a difference, prints it.
  HARNESS_NO_FUZZ_COVERAGE void CheckStore(const KvMap& expected, const char* when) const;
  // The store's cursor walks exactly the coins of `expected` in key order, decoded as the reference decodes
  // them, and reports its best block.
  HARNESS_NO_FUZZ_COVERAGE void CheckCursor(const KvMap& expected, const char* when) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckCache(CoinsStackModel::Key touched) const;

  std::unique_ptr<leveldb::Env> env_;
  seam::Obfuscation::KeyBytes key_;
  std::unique_ptr<seam::CoinsStore> store_;
  std::unique_ptr<seam::CoinsViewCache> cache_;
  CoinsStackModel model_;  // level 0 is the cache; its base is the reference store's coins
  KvMap reference_;        // the reference store's plaintext contents (without the obfuscation key)
  // Outpoints any step has named: the final sweep reads only these (CheckStore compares everything else).
  uint64_t touched_ = 0;
  size_t partial_writes_ = 0;
  size_t cuts_ = 0;
  OpLog<CoinsStoreStep> log_;
};

}  // namespace harness
