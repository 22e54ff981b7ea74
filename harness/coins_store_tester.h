// CoinsStoreTester: a coins cache over a CoinsViewErrorCatcher over a CoinsStore on an in-memory LevelDB Env
// that can be made to fail (FaultEnv), driven in lockstep with CoinsStackModel (one cache level over the
// reference store) and the reference contents (coins_store_model.h).
//
// Modelled: cache operations as in CoinsTester; flushes and syncs into the store with any batch limit;
// a flush cut after any partial batch (the crash hook throws), the cache lost with it, the store closed
// and reopened on the same Env, its raw contents checked, and the same flush run again — optionally cut a
// second time — until it completes; clean reopens, which may ask for an obfuscation key; the key, set or
// all-zero.
// Checked: lookups through the cache and reads of the store against the model; after every flush the raw
// contents, decoded with the reference XOR, equal the reference (so any batch limit gives byte-identical
// contents), every raw value differs from its plaintext wherever the key's bytes over it are not all zero,
// the number of partial batches is the one the reference predicts, and the head blocks read through the
// cache and the catcher are the store's; whenever the store was opened and at the end of the input
// (CheckStore's kWhole), also the store's cursor walks exactly the reference's coins in key order with its
// best block, and the size estimate read through every view is the store's and at most the bytes of the
// database's table files; after a cut, the store reports mid-flush with head blocks [new, original old
// tip], and its contents are a legal mid-flush state — the exact one the reference predicts for that cut;
// a flush without a best block throws and writes nothing.
// A snapshot load: EmplaceCoinInternalDANGER of one table coin, or of coins at a quarter of the table's
// outpoints at once (a loaded cache larger than the steps of an input could build); the flushes that follow
// are the snapshot loader's.
// A failing disk (FaultEnv): a flush during which the k-th write or sync fails must throw (the caller
// learns of it); the node then stops: the cache is lost, the store is closed, its unsynced data perhaps
// lost too (a power loss), and reopened. It must hold a state it could legally have reached: the one
// before the flush, or a mid-flush state of it with head blocks [new, original old tip] (after a power loss
// also any earlier state since the database was last opened); a mid-flush store is brought to the flush's
// end by running the same flush again. An open during which the k-th write or sync fails must throw or
// succeed, and the next open must hold the same state. A read that fails below the catcher must run its
// callbacks in order, as in CoinsTester, which ends the input (the node would abort); the store is reopened
// first, so that the read goes to LevelDB's table files rather than its memtable.
// Not modelled: cache internals (coins_cache_sim covers them: here only its sanity check and entry count),
// several cache levels, on-disk files (the unit tests use a real directory and a real process crash), and
// which of LevelDB's reads a read fault hits (the check is that the catcher sees exactly the ones that fail).
//
// Against a subject that offers less (Bitcoin Core's tree: seam::kCoinsApi, kStoreCursor, kStoreEstimateSize,
// kStoreCutsFlushes, kStoreChoosesKey), the operations and checks that need what it lacks are left out, and
// the cache's entries and writes are checked in the forms it shows (coins_checks.h).
//
// Operations: HARNESS_STORE_OPS (stable IDs; new ones go at the end). Which states a stop may leave:
// StoreCrashModel (store_crash_model.h); the checks of the store: coins_store_tester_checks.cpp.
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
#include "coins_op_spec.h"
#include "seam/obfuscation.h"
#include "seam/coins_store.h"
#include "coins_store_model.h"
#include "fault_env.h"
#include "store_crash_model.h"

namespace harness {

// X(enumerator, id, name, {args[, api]}): args are the step fields the operation reads, printed by
// CoinsStoreStep::ToString and the only ones the decoder reads for it (kKeyAsked is `block` read as a key);
// api, the seam::CoinsCacheApi member it needs (coins_op_spec.h).
// clang-format off
#define HARNESS_STORE_OPS(X)                                                                                           \
  X(kGet, 0, "Get", {kOutpoint})                             /* GetCoin through the cache (from the store) */          \
  X(kAdd, 1, "Add", {kOutpoint | kCoin})                     /* AddCoin(possible_overwrite = false) */                 \
  X(kAddOverwrite, 2, "AddOverwrite", {kOutpoint | kCoin})   /* AddCoin(possible_overwrite = true) */                  \
  X(kSpend, 3, "Spend", {kOutpoint})                         /* SpendCoin */                                           \
  X(kUncache, 4, "Uncache", {kOutpoint, &Api::uncache})      /* Uncache */                                             \
  X(kSetBestBlock, 5, "SetBestBlock", {kBlock})              /* SetBestBlock on the cache */                           \
  X(kFlush, 6, "Flush", {kBatch})                            /* Flush with a batch limit, perhaps cut and recovered */ \
  X(kSync, 7, "Sync", {kBatch})                              /* Sync into the store, likewise */                       \
  X(kReopen, 8, "Reopen", {kKeyAsked})                       /* reopen the store, may ask for a key; the cache is lost */ \
  X(kPeekStore, 9, "PeekStore", {kOutpoint})                 /* PeekCoin and HaveCoin on the store itself */           \
  X(kEmplace, 10, "Emplace", {kOutpoint | kCoin, &Api::emplace}) /* EmplaceCoinInternalDANGER (spendable coins only) */ \
  X(kLoadSnapshot, 11, "LoadSnapshot", {kOutpoint | kCoin, &Api::emplace}) /* Emplace coins at 16 outpoints from outpoint on */ \
  X(kFailFlush, 12, "FailFlush", {kLimit | kFault})          /* Flush while the disk fails; recover */                 \
  X(kFailReopen, 13, "FailReopen", {kFault})                 /* reopen while the disk fails; the cache is lost */      \
  X(kFailRead, 14, "FailRead", {kOutpoint | kFault, &Api::error_catcher}) /* reopen, then GetCoin while a store read fails */ \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(CoinsStoreOp, kCoinsStoreOpCount, 32, HARNESS_STORE_OPS)

struct CoinsStoreStep {
  // kBatch: a batch limit and two cut points; kLimit: only a batch limit; kFault: the fault byte.
  enum Arg : uint8_t { kOutpoint = 1, kCoin = 2, kBlock = 4, kKeyAsked = 8, kBatch = 16, kLimit = 32, kFault = 64 };
  using Api = seam::CoinsCacheApi;
  static constexpr CoinsOpSpec kSpecs[] = HARNESS_OP_COLUMN(HARNESS_STORE_OPS);
  static constexpr bool Reads(CoinsStoreOp op, uint8_t args) { return SpecReads(kSpecs, op, args); }
  static constexpr bool Available(CoinsStoreOp op) { return SpecAvailable(kSpecs, op); }

  CoinsStoreOp op{};
  uint8_t outpoint = 0;      // index into OutpointTable()
  uint8_t coin = 0;          // index into CoinTable()
  uint8_t block = 0;         // best block hash id; for a reopen, the key asked for (0: none)
  uint32_t batch_limit = 1;  // bytes, >= 1 (flush and sync)
  uint8_t cut = 0;           // 0: none; n: cut the flush after its n-th partial batch, if it has one
  uint8_t cut_again = 0;     // likewise for the first re-run
  // The failing disk: the k-th (FaultAt) write or sync (a read for kFailRead) fails; with PowerLoss the
  // unsynced data is lost before the store is reopened.
  uint8_t fault = 0;
  FaultEnv::Kind FaultKind() const {
    return op == CoinsStoreOp::kFailRead ? FaultEnv::Kind::kRead
           : fault & 1                   ? FaultEnv::Kind::kSync
                                         : FaultEnv::Kind::kWrite;
  }
  uint32_t FaultAt() const { return 1 + (fault >> 1 & 0x3f); }
  bool PowerLoss() const { return fault & 0x80; }
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

  // Partial batches written by flushes so far, flushes cut short, faults that struck: the progress signal.
  size_t partial_writes() const { return partial_writes_; }
  size_t cuts() const { return cuts_; }
  size_t faults() const { return faults_; }
  // A failed read ended the input: no further step applies.
  bool ended() const { return ended_; }

 private:
  // A flush interrupted by the crash hook.
  struct SimulatedCrash {};
  // Opens the store asking for `key` if the database is new (all zero: no key), with the catcher and a new
  // cache over it.
  void OpenStore(const seam::Obfuscation::KeyBytes& key);
  void CloseStore();
  void ApplyFlush(const CoinsStoreStep& step);
  void ApplyFailFlush(const CoinsStoreStep& step);
  void ApplyFailReopen(const CoinsStoreStep& step);
  void ApplyFailRead(const CoinsStoreStep& step);
  void ApplyLoad(const CoinsStoreStep& step);
  // After the node stopped (the cache is gone, the store closed) and perhaps lost its unsynced data
  // (`power_loss`): reopens, finds the legal state the store is in (`current`: the flush that was under way,
  // if any, begun on reference_), completes a flush it is in the middle of, and makes the reference and the
  // model that state.
  void Recover(const std::optional<StoreFlush>& current, bool power_loss, const char* when);
  // The model's store level (and an empty cache level) from reference_.
  void ResyncModel();
  // The dirty entries of the cache, in list order, and the plan of flushing them to `best`.
  std::vector<DirtyEntry> DirtyEntries() const;
  // Whether the subject has what `op` needs (seam::kCoinsApi): an operation it lacks is not applied.
  static bool Available(CoinsStoreOp op);
  // What the cache stands on: the error catcher, where the subject has one, else the store.
  seam::CoinsView* CacheParent() const;
  // Runs a flush of `entries` from a new cache; returns false if the hook cut it after `cut` partial batches.
  bool Replay(const std::vector<DirtyEntry>& entries, const Hash256& best, size_t batch_limit, uint8_t cut);
  // The plan of flushing the model's DIRTY entries to `new_tip`, in the model's first-dirtied order, or in the
  // order of `order` (the subject's, where it writes in an order of its own: they must be the same entries).
  HARNESS_NO_FUZZ_COVERAGE FlushPlan Plan(const Hash256& new_tip, const std::vector<DirtyEntry>* order = nullptr) const;
  // Where the subject writes its DIRTY entries in an order of its own (seam::DirtyOrderIsFirstDirtied false),
  // which no caller relies on: own_order_. The plan follows the order the subject shows before a write (its
  // dirty list, order_known_); where it shows none, and for a re-run (whose cache orders the entries its own
  // way), a cut flush may leave any legal mid-flush state.
  const bool own_order_ = !seam::DirtyOrderIsFirstDirtied();
  const bool order_known_ = !own_order_ || (seam::kDirtyListVisible && seam::kEntriesVisible);
  // Whether the store, decoded with the reference XOR, holds exactly `expected`; checks the obfuscation
  // key entry and that obfuscated values differ from their plaintext on the way. Builds nothing.
  HARNESS_NO_FUZZ_COVERAGE bool StoreMatches(const KvMap& expected) const;
  // The store's contents decoded with the reference XOR, for diagnostics.
  HARNESS_NO_FUZZ_COVERAGE KvMap Plaintext() const;
  // kRecords: the raw contents equal `expected` (on a difference, printed) and the head blocks read through
  // every view are the store's. kWhole adds the cursor and the size estimate, which decode or measure the
  // whole store: checked where the store was opened and at the end of the input, not after every flush.
  enum class Depth { kRecords, kWhole };
  HARNESS_NO_FUZZ_COVERAGE void CheckStore(const KvMap& expected, const char* when, Depth depth = Depth::kWhole);
  // The store's cursor walks exactly the coins of `expected` in key order, decoded as the reference decodes
  // them, and reports its best block.
  HARNESS_NO_FUZZ_COVERAGE void CheckCursor(const KvMap& expected, const char* when) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckCache(CoinsStackModel::Key touched) const;
  // The head blocks through every view; with kWhole the size estimate too, and its bound.
  HARNESS_NO_FUZZ_COVERAGE void CheckStoreViews(const char* when, Depth depth) const;

  // Where the database lives in the in-memory Env; bytes of a key or value shown in a failure.
  static constexpr char kPath[] = "/coins";
  static constexpr size_t kShownBytes = 48;
  // The first few keys on which two states differ, for a readable failure.
  static std::string Diff(const KvMap& got, const KvMap& want);
  static bool IsZero(const seam::Obfuscation::KeyBytes& key);

  std::unique_ptr<leveldb::Env> env_;
  FaultEnv disk_;  // over env_: what the store opens its database on
  seam::Obfuscation::KeyBytes key_;
  std::unique_ptr<seam::CoinsStore> store_;
  std::unique_ptr<seam::CoinsViewErrorCatcher> catcher_;
  std::unique_ptr<seam::CoinsViewCache> cache_;
  std::vector<int> callbacks_run_;  // the catcher's callbacks, by number, in the order they ran
  // What the store may hold after a stop: the state it was opened in and the flushes since, the last of
  // which left reference_.
  StoreCrashModel crash_;
  CoinsStackModel model_;  // level 0 is the cache; its base is the reference store's coins
  KvMap reference_;        // the reference store's plaintext contents (without the obfuscation key)
  // Outpoints any step has named: the final sweep reads only these (CheckStore compares everything else).
  uint64_t touched_ = 0;
  size_t partial_writes_ = 0;
  size_t cuts_ = 0;
  size_t faults_ = 0;
  bool ended_ = false;
  bool whole_checked_ = false;  // CheckStore's kWhole ran on the store as it is now
  OpLog<CoinsStoreStep> log_;
};

}  // namespace harness
