// CoinsTester: up to four CoinsViewCache levels over a CoinsViewErrorCatcher over a CheckedBaseView (as a
// node stacks its caches over the error catcher over the store), driven in lockstep with CoinsStackModel.
// Operations act on the top cache. Against a subject that lacks an operation's API (seam::kCoinsApi: a
// Bitcoin Core tree without it) the operation is not applied; without an error catcher the caches stand on
// the base. Where the subject shows less of its inside (seam::kEntriesVisible, kDirtyListVisible,
// kExactUsage, kDirtyCountVisible), the checks below take their behavioural forms (coins_checks.h).
//
// Checked after every operation: the operation's result (lookups, spend's return value and moved-out
// coin, add's exception; a reset level is empty, with usage and dirty count 0, and reports its parent's
// best block); SanityCheck() and memory usage (seam::ModelledUsage against
// CoinsStackModel::Usage; the total never below it; after a flush, that of a new cache) of every level
// the operation could have changed (the top, the parent after a flush or sync, any lower level a fetch
// inserted into — the only way an operation on the top reaches them — and every level after a Usage
// query); the touched outpoint's entry (coin and flags) at every level; each level's size and dirty count;
// the top's dirty-list order after adds, spends and writes. After a flush or sync: the order the parent (or
// the base) received entries equals the first-dirtied order; after a sync the level holds only clean
// unspent entries. CheckAll() is the final sweep: every outpoint at every level, dirty-list orders, best
// blocks, the base's coins, and peeks through the whole stack.
// A transaction's coins: AddCoins of a funding transaction (coins_tables.h) at a height, with or without
// check_for_overwrite, coinbase or not (its outputs, in order, each as AddCoin with the overwrite rule;
// a throw leaves the outputs before it added); HaveInputs of a transaction spending 1-4 table outpoints
// (fetched in order up to the first missing) or of a coinbase; AccessByTxid of a funding transaction with
// an unspent table output (the lowest index wins; the fetches on the way are checked as any fetch is). A
// txid without one is not asked for: the miss walks all 111,111 output indexes (the unit tests ask).
// EmplaceCoinInternalDANGER of any table coin. A failed read: the base is made to throw on reads of one
// outpoint, which is then read through the top (GetCoin or PeekCoin) or on the catcher itself (HaveCoin
// or PeekCoin); when the read reaches the base, the catcher's two callbacks must run, in order, and the
// second one throws ReadErrorSeen out of it (the catcher would abort the process next), which ends the
// input like a failed flush; when a level answers, the read's result is checked as any read's.
// Caller misuse is modelled where Core detects it: AddCoin without possible_overwrite over a coin a lower
// cache level holds makes a FRESH entry, and the flush or sync that brings it onto that coin must throw
// std::logic_error ("FRESH flag misapplied"). A failed sync is checked like any other (what was written
// before the failure is in the parent and cleaned in the child) and the input goes on; after a failed
// flush the cache's state is unspecified, so the input ends there (Apply returns false, CheckAll does
// nothing). The same misuse over a coin only the base has is not issued: the base takes it silently.
//
// Tables: 64 outpoints (16 txids × 4 indexes) and 64 coins whose scripts are standard templates and near
// misses of 22, 23, 25, 34, 35, 36, 37, 67 and 80 bytes or empty, plus OP_RETURN and over-10,000-byte
// (unspendable) ones, so that entries collide often, usage accounting sees both inline and heap scripts,
// and the store's script and amount compression see every form.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "check.h"
#include "coins_model.h"
#include "coins_op_spec.h"
#include "coins_tables.h"
#include "op_list.h"
#include "seam/coins_cache.h"

namespace harness {

// X(enumerator, id, name, {args[, api]}): args are the step fields the operation reads besides `level`, printed
// by CoinsStep::ToString (the decoder reads a coin or block byte only for the operations that read one); api,
// the seam::CoinsCacheApi member the operation needs beyond the cache's central ones (none: always there).
// clang-format off
#define HARNESS_COINS_OPS(X)                                                                                           \
  X(kGet, 0, "Get", {kOutpoint})                                   /* GetCoin */                                       \
  X(kHave, 1, "Have", {kOutpoint, &Api::have_coin})                /* HaveCoin */                                      \
  X(kHaveInCache, 2, "HaveInCache", {kOutpoint, &Api::have_coin_in_cache}) /* HaveCoinInCache */                       \
  X(kAccess, 3, "Access", {kOutpoint, &Api::access_coin})          /* AccessCoin */                                    \
  X(kAdd, 4, "Add", {kOutpoint | kCoin})                           /* AddCoin(possible_overwrite = false) */           \
  X(kAddOverwrite, 5, "AddOverwrite", {kOutpoint | kCoin})         /* AddCoin(possible_overwrite = true) */            \
  X(kSpend, 6, "Spend", {kOutpoint})                               /* SpendCoin */                                     \
  X(kSpendMoveOut, 7, "SpendMoveOut", {kOutpoint})                 /* SpendCoin with a moveout coin */                 \
  X(kUncache, 8, "Uncache", {kOutpoint, &Api::uncache})            /* Uncache */                                       \
  X(kPush, 9, "Push", {0})                                         /* a new cache on top */                            \
  X(kPop, 10, "Pop", {0})                                          /* destroy the top cache unflushed (changes dropped) */ \
  X(kFlush, 11, "Flush", {0})                                      /* Flush the top cache into its parent (KeepsMemory) */ \
  X(kSync, 12, "Sync", {0})                                        /* Sync the top cache into its parent */            \
  X(kUsage, 13, "Usage", {0, &Api::sizes})                         /* every level's usage, size, dirty count vs the model */ \
  X(kSetBestBlock, 14, "SetBestBlock", {kBlock})                   /* SetBestBlock on the top cache */                 \
  X(kPeek, 15, "Peek", {kOutpoint, &Api::peek})                    /* PeekCoin */                                      \
  X(kReset, 16, "Reset", {0})                                      /* Reset the top cache: all dropped, no own best block */ \
  X(kAddCoins, 17, "AddCoins", {kOutpoint | kCoin, &Api::add_coins})      /* AddCoins(outpoint's funding tx, coin's height) */ \
  X(kHaveInputs, 18, "HaveInputs", {kOutpoint | kCoin, &Api::have_inputs}) /* HaveInputs(a tx spending from outpoint on, by coin) */ \
  X(kAccessByTxid, 19, "AccessByTxid", {kOutpoint, &Api::access_by_txid}) /* AccessByTxid(outpoint's txid) */          \
  X(kEmplace, 20, "Emplace", {kOutpoint | kCoin, &Api::emplace})          /* EmplaceCoinInternalDANGER */              \
  X(kFailRead, 21, "FailRead", {kOutpoint | kCoin, &Api::error_catcher}) /* a read of outpoint fails in the base; coin picks the read */ \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(CoinsOp, kCoinsOpCount, 32, HARNESS_COINS_OPS)

struct CoinsStep {
  enum Arg : uint8_t { kOutpoint = 1, kCoin = 2, kBlock = 4 };
  using Api = seam::CoinsCacheApi;
  static constexpr CoinsOpSpec kSpecs[] = HARNESS_OP_COLUMN(HARNESS_COINS_OPS);
  static constexpr bool Reads(CoinsOp op, uint8_t args) { return SpecReads(kSpecs, op, args); }
  static constexpr bool Available(CoinsOp op) { return SpecAvailable(kSpecs, op); }

  CoinsOp op{};
  uint8_t outpoint = 0;  // index into OutpointTable()
  uint8_t coin = 0;      // index into CoinTable()
  uint8_t block = 0;     // best block hash id
  uint8_t level = 0;     // the top level when applied (filled in by Apply)
  std::string ToString() const;

  // What AddCoins, HaveInputs and FailRead read from the coin byte besides (or instead of) a coin.
  bool CheckForOverwrite() const { return coin >= 128; }
  // HaveInputs: 1-4 inputs, outpoint + i * stride; a coinbase instead when the byte is 240 or more.
  int InputCount() const { return 1 + coin % 4; }
  int InputStride() const { return 1 + coin / 4 % 16; }
  bool SpendsCoinbase() const { return coin >= 240; }
  // FailRead: 0 GetCoin or 1 PeekCoin through the top cache, 2 HaveCoin or 3 PeekCoin on the catcher.
  int ReadKind() const { return coin % 4; }
  // Flush: whether it asks to keep the cache's memory, as a block's view is flushed (Flush(reallocate_cache =
  // false)), read from the outpoint byte, which a flush has no other use for; the subject honours it where
  // seam::kFlushCanKeepMemory.
  bool KeepsMemory() const { return outpoint % 2 == 1; }
};

static_assert(kTableSize == CoinsStackModel::kKeys, "one model key per table outpoint");

class CoinsTester {
 public:
  static constexpr int kMaxLevels = 4;

  CoinsTester();
  ~CoinsTester();
  CoinsTester(const CoinsTester&) = delete;
  CoinsTester& operator=(const CoinsTester&) = delete;

  // Applies one step to subject and model and checks; false (nothing changed) if it does not apply.
  bool Apply(CoinsStep step);
  HARNESS_NO_FUZZ_COVERAGE void CheckAll();

  int levels() const { return static_cast<int>(caches_.size()); }
  // A flush failed as expected (see above): no further step applies.
  bool ended() const { return ended_; }
  seam::CoinsViewCache& top() { return *caches_.back(); }
  const CheckedBaseView& base() const { return base_; }

 private:
  // SanityCheck (if `sanity`), the touched entry, size and dirty count of one level.
  HARNESS_NO_FUZZ_COVERAGE void CheckLevel(int level, CoinsStackModel::Key touched, bool sanity) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckEntry(int level, CoinsStackModel::Key k) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckDirtyOrder(int level) const;
  // CheckEntry for every touched outpoint at `level`.
  HARNESS_NO_FUZZ_COVERAGE void CheckTouched(int level) const;
  // One step, as Apply hands it on: the step, the top level, the table outpoint and coin it names, the top
  // cache.
  struct Ctx {
    const CoinsStep& step;
    int t;
    CoinsStackModel::Key k;
    const OutPoint& o;
    const Coin& coin;
    seam::CoinsViewCache& cache;
  };
  template <CoinsOp op>
  using On = std::integral_constant<CoinsOp, op>;
  // Calls the operation's Do, generated from HARNESS_COINS_OPS; false for a value outside the list.
  bool Dispatch(const Ctx& c);
  // Each operation of HARNESS_COINS_OPS, applied to the top cache and the model, its result checked (the
  // levels are checked after it, in Apply); false, and nothing changed, when it does not apply.
#define HARNESS_COINS_DO_(e, ...) bool Do(On<CoinsOp::e>, const Ctx& c);
  HARNESS_COINS_OPS(HARNESS_COINS_DO_)
#undef HARNESS_COINS_DO_
  // What pairs of operations share: AddCoin with and without possible_overwrite, SpendCoin with and without
  // a moveout coin, a flush and a sync.
  bool DoAdd(const Ctx& c, bool overwrite);
  bool DoSpend(const Ctx& c, bool move_out);
  bool DoWrite(const Ctx& c, bool wipe);
  void ApplyWrite(bool wipe, bool keep_memory);
  // A level's size: the subject's where it shows it (seam::kCoinsApi.sizes), else the model's.
  size_t SizeOf(int level) const;

  // Whether a cache level below `level` has an entry for `k`.
  bool HeldBelow(int level, CoinsStackModel::Key k) const;

  // Whether AddCoins is issued: not as the misuse Add avoids (see Apply).
  bool AddCoinsApplies(const CoinsStep& step) const;
  void ApplyAddCoins(const CoinsStep& step);
  void ApplyHaveInputs(const CoinsStep& step);
  bool ApplyAccessByTxid(const CoinsStep& step);
  void ApplyFailRead(const CoinsStep& step);

  CheckedBaseView base_;
  // Between the base and the caches where the subject has one (seam::kCoinsApi.error_catcher).
  std::optional<seam::CoinsViewErrorCatcher> catcher_;
  std::vector<int> callbacks_run_;  // the catcher's callbacks, by number, in the order they ran
  CoinsStackModel model_;
  std::vector<std::unique_ptr<seam::CoinsViewCache>> caches_;
  OpLog<CoinsStep> log_;
  // Outpoints any step has named. The others are absent at every level and in the base, which the size
  // checks confirm, so sweeps visit only these.
  uint64_t touched_ = 0;
  // DynamicMemoryUsage() of a new, empty cache: what a flushed one must be back to.
  size_t empty_usage_ = 0;
  bool ended_ = false;
  static_assert(kTableSize == 64, "touched_ has one bit per outpoint");
};

}  // namespace harness
