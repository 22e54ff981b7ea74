#include "coins_store_tester.h"

#include <leveldb/env.h>
// memenv.h relies on env.h being included first.
#include <leveldb/helpers/memenv.h>

#include <algorithm>
#include <stdexcept>

#include "coins_checks.h"
#include "coins_tables.h"
#include "leak_check_pause.h"
#include "observe.h"
#include "seam/types.h"
#include "store_behaviours.h"
#include "obfuscation_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code: the store and the cache are compiled out of line
namespace {

// A cache that can be loaded with exact entries: how a flush is run again after a crash.
class ReplayCache : public seam::CoinsViewCache {
 public:
  using seam::CoinsViewCache::CoinsViewCache;
  using seam::CoinsViewCache::InsertEntry;
};

// The key a reopen asks for: all zero (none) for id 0, else non-zero bytes derived from the id.
seam::Obfuscation::KeyBytes RequestedKey(uint8_t id) {
  seam::Obfuscation::KeyBytes key{};
  if (id != 0) {
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(id * (i + 1) + i);
  }
  return key;
}

}  // namespace

// The first few keys on which two states differ, for a readable failure.
std::string CoinsStoreTester::Diff(const KvMap& got, const KvMap& want) {
  std::string out;
  int shown = 0;
  auto show = [&](const std::string& key, const KvMap& in) {
    const auto it = in.find(key);
    return it == in.end() ? std::string("absent") : HexStr(it->second, kShownBytes);
  };
  KvMap keys = got;
  keys.insert(want.begin(), want.end());
  for (const auto& [key, unused] : keys) {
    const auto g = got.find(key), w = want.find(key);
    const bool same = (g == got.end()) == (w == want.end()) && (g == got.end() || g->second == w->second);
    if (same || ++shown > 5) continue;
    out += "\n      key " + HexStr(key, kShownBytes) + ": store " + show(key, got) + ", reference " + show(key, want);
  }
  return out.empty() ? " (none)" : out;
}

bool CoinsStoreTester::IsZero(const seam::Obfuscation::KeyBytes& key) {
  return std::all_of(key.begin(), key.end(), [](uint8_t b) { return b == 0; });
}

std::string CoinsStoreStep::ToString() const {
  std::string args;
  const auto add = [&args](const std::string& arg) { args += (args.empty() ? "" : ", ") + arg; };
  if (Reads(op, kOutpoint)) add("outpoint=" + std::to_string(outpoint));
  if (Reads(op, kCoin)) add("coin=" + std::to_string(coin) + " " + CoinTable()[coin % kTableSize].ToString());
  if (Reads(op, kBlock)) add("block=" + std::to_string(block));
  if (Reads(op, kKeyAsked)) add("key_asked=" + std::to_string(block));
  if (Reads(op, kBatch)) {
    add("batch_limit=" + std::to_string(batch_limit) + ", cut=" + std::to_string(cut) +
        ", cut_again=" + std::to_string(cut_again));
  }
  if (Reads(op, kLimit)) add("batch_limit=" + std::to_string(batch_limit));
  if (Reads(op, kFault)) {
    static constexpr const char* kKinds[] = {"write", "sync", "read"};
    add(std::string("fails: ") + kKinds[static_cast<int>(FaultKind())] + " " + std::to_string(FaultAt()) +
        (PowerLoss() && op != CoinsStoreOp::kFailRead ? ", then a power loss" : ""));
  }
  return std::string(harness::ToString(op)) + "(" + args + ")";
}

CoinsStoreTester::CoinsStoreTester(const seam::Obfuscation::KeyBytes& key)
    : env_(leveldb::NewMemEnv(leveldb::Env::Default())), disk_(env_.get()), key_(key), model_(Hash256{}) {
  OpenStore(key_);
  model_.Push();
  crash_.Opened({}, std::nullopt);
  CheckStore(reference_, "a new store");
}

CoinsStoreTester::~CoinsStoreTester() { CloseStore(); }

void CoinsStoreTester::OpenStore(const seam::Obfuscation::KeyBytes& key) {
  seam::CoinsStore::Options options;
  options.path = kPath;
  options.env = &disk_;
  if (!IsZero(key)) options.new_obfuscation_key = key;
  store_ = std::make_unique<seam::CoinsStore>(options);
  if constexpr (seam::kCoinsApi.error_catcher) {
    catcher_ = std::make_unique<seam::CoinsViewErrorCatcher>(store_.get());
    catcher_->AddReadErrCallback([this] { callbacks_run_.push_back(1); });
    catcher_->AddReadErrCallback([this] {
      callbacks_run_.push_back(2);
      throw ReadErrorSeen{};
    });
  }
  cache_ = std::make_unique<seam::CoinsViewCache>(CacheParent());
}

seam::CoinsView* CoinsStoreTester::CacheParent() const {
  if (catcher_) return catcher_.get();
  return store_.get();
}

bool CoinsStoreTester::Available(CoinsStoreOp op) {
  // A failed read reaches the catcher only where it does not end the process first.
  return CoinsStoreStep::Available(op) && !(op == CoinsStoreOp::kFailRead && HasSecondForm(kReadErrorFatal));
}

void CoinsStoreTester::CloseStore() {
  cache_.reset();  // the views over the store first
  catcher_.reset();
  store_.reset();
}

void CoinsStoreTester::ResyncModel() {
  model_.Pop();
  model_.Push();
  Hash256 best;
  if (const auto b = reference_.find("B"); b != reference_.end())
    std::copy(b->second.begin(), b->second.end(), best.bytes.begin());
  model_.SetBaseBestBlock(best);
  for (CoinsStackModel::Key k = 0; k < kTableSize; ++k) {
    const auto it = reference_.find(RefCoinKey(OutpointTable()[k]));
    model_.SetBase(k, it == reference_.end() ? std::nullopt : RefDecodeCoin(it->second));
  }
}

bool CoinsStoreTester::Apply(CoinsStoreStep step) {
  if (ended_ || static_cast<uint8_t>(step.op) >= kCoinsStoreOpCount || !Available(step.op)) return false;
  if constexpr (!seam::kStoreCutsFlushes) {
    step.cut = step.cut_again = 0;  // no cut: the subject does not say when a partial batch is written
  }
  step.outpoint %= kTableSize;
  step.coin %= kTableSize;
  step.batch_limit = std::max<uint32_t>(step.batch_limit, 1);
  const CoinsStackModel::Key k = step.outpoint;
  touched_ |= uint64_t{1} << k;
  const OutPoint& o = OutpointTable()[k];
  const Coin& coin = CoinTable()[step.coin];
  if (step.op == CoinsStoreOp::kAdd) {
    // Misuse (as in CoinsTester): claiming no coin exists while the store has one.
    const ModelEntry* here = model_.Find(0, k);
    if (model_.Peek(0, k) && !(here != nullptr && here->coin)) return false;
  }
  // A snapshot holds spendable coins only; the store could not read an unspendable one back as written.
  if (step.op == CoinsStoreOp::kEmplace && IsUnspendable(coin.script)) return false;
  log_.Add(step);
  try {
    switch (step.op) {
      case CoinsStoreOp::kGet: {
        const auto got = cache_->GetCoin(o);
        const auto want = model_.Get(0, k);
        HARNESS_CHECK(got == want, "GetCoin: subject ", Render(got), ", model ", Render(want));
        break;
      }
      case CoinsStoreOp::kAdd:
      case CoinsStoreOp::kAddOverwrite: {
        const bool overwrite = step.op == CoinsStoreOp::kAddOverwrite;
        const bool throws = model_.AddThrows(0, k, coin, overwrite);
        bool threw = false;
        try {
          cache_->AddCoin(o, coin, overwrite);
        } catch (const std::logic_error&) {
          threw = true;
        }
        HARNESS_CHECK_EQ(threw, throws, "AddCoin throws exactly when overwriting an unspent coin");
        if (!throws) model_.Add(0, k, coin, overwrite);
        break;
      }
      case CoinsStoreOp::kSpend:
        HARNESS_CHECK_EQ(cache_->SpendCoin(o), model_.Spend(0, k), "SpendCoin's return value");
        break;
      case CoinsStoreOp::kUncache:
        cache_->Uncache(o);
        model_.Uncache(0, k);
        break;
      case CoinsStoreOp::kSetBestBlock:
        cache_->SetBestBlock(BlockHash(step.block));
        model_.SetBestBlock(0, BlockHash(step.block));
        break;
      case CoinsStoreOp::kFlush:
      case CoinsStoreOp::kSync: ApplyFlush(step); break;
      case CoinsStoreOp::kReopen: {
        CloseStore();
        const seam::Obfuscation::KeyBytes requested = RequestedKey(step.block);
        OpenStore(requested);
        // docs/semantics.md §2: a key is created only for a new, empty database; an existing key is kept.
        if (IsZero(key_) && reference_.empty()) key_ = requested;
        model_.Pop();
        model_.Push();
        crash_.Opened(reference_, std::nullopt);
        HARNESS_CHECK(!store_->IsMidFlush(), "a store closed between flushes reopens mid-flush");
        if constexpr (!seam::kStoreChoosesKey) {
          // The key is the store's own choice: the one it reports from now on is the key of the records.
          if (reference_.empty() && !IsZero(requested)) key_ = store_->obfuscation().key();
        }
        HARNESS_CHECK(store_->obfuscation().key() == key_,
                      "obfuscation key after a reopen: ", store_->obfuscation().ToString());
        CheckStore(reference_, "after a reopen");
        break;
      }
      case CoinsStoreOp::kPeekStore: {
        const auto got = store_->PeekCoin(o);
        HARNESS_CHECK(got == model_.base(k), "store coin: subject ", Render(got), ", reference ",
                      Render(model_.base(k)));
        if constexpr (seam::kStoreHaveCoin) {
          HARNESS_CHECK_EQ(store_->HaveCoin(o), model_.base(k).has_value(), "HaveCoin on the store");
        }
        break;
      }
      case CoinsStoreOp::kEmplace:
        cache_->EmplaceCoinInternalDANGER(o, Coin(coin));
        model_.Emplace(0, k, coin);
        break;
      case CoinsStoreOp::kLoadSnapshot: ApplyLoad(step); break;
      case CoinsStoreOp::kFailFlush: ApplyFailFlush(step); break;
      case CoinsStoreOp::kFailReopen: ApplyFailReopen(step); break;
      case CoinsStoreOp::kFailRead:
        ApplyFailRead(step);
        if (ended_) return true;
        break;
    }
  } catch (const std::exception& e) {
    HARNESS_CHECK(false, "unexpected exception: ", e.what());
  }
  CheckCache(k);
  return true;
}

void CoinsStoreTester::ApplyLoad(const CoinsStoreStep& step) {
  // As the snapshot loader does: coins emplaced into one cache, which the flushes that follow write. A
  // quarter of the table: more would make every check of the store that follows cost more than the rest
  // of the input.
  for (size_t i = 0; i < kTableSize / 4; ++i) {
    const auto k = static_cast<CoinsStackModel::Key>((step.outpoint + i) % kTableSize);
    const Coin& coin = CoinTable()[(k * 5 + step.coin) % kTableSize];
    if (IsUnspendable(coin.script)) continue;
    cache_->EmplaceCoinInternalDANGER(OutpointTable()[k], Coin(coin));
    model_.Emplace(0, k, coin);
    touched_ |= uint64_t{1} << k;
  }
}

void CoinsStoreTester::ApplyFailRead(const CoinsStoreStep& step) {
  const CoinsStackModel::Key k = step.outpoint;
  // A restart: LevelDB moves what its log holds into table files, which the read then has to open.
  CloseStore();
  OpenStore(key_);
  model_.Pop();
  model_.Push();
  crash_.Opened(reference_, std::nullopt);
  callbacks_run_.clear();
  disk_.Arm(step.FaultKind(), step.FaultAt());
  bool seen = false;
  std::optional<Coin> got;
  try {
    got = cache_->GetCoin(OutpointTable()[k]);
  } catch (const ReadErrorSeen&) {
    seen = true;
  }
  disk_.Disarm();
  // Not every failed read fails the lookup: LevelDB does without a table's filter block when it cannot read
  // it. Then the answer must still be right.
  HARNESS_CHECK(!seen || disk_.injected(), "the catcher saw a failed read where none failed");
  if (seen) {
    ++faults_;
    HARNESS_CHECK(callbacks_run_ == std::vector<int>({1, 2}), "the catcher ran its callbacks in order, once each: ran ",
                  callbacks_run_.size());
    ended_ = true;  // the node would abort here
    return;
  }
  const auto want = model_.Get(0, k);
  HARNESS_CHECK(got == want, "GetCoin", disk_.injected() ? " after a read failed and LevelDB went on" : "",
                ": subject ", Render(got), ", model ", Render(want));
}

FlushPlan CoinsStoreTester::Plan(const Hash256& new_tip, const std::vector<DirtyEntry>* order) const {
  FlushPlan plan;
  plan.new_tip = new_tip;
  const auto best = reference_.find("B");
  if (best != reference_.end()) std::copy(best->second.begin(), best->second.end(), plan.old_tip.bytes.begin());
  std::vector<CoinsStackModel::Key> keys = model_.DirtyOrder(0);
  if (order != nullptr) {
    HARNESS_CHECK_EQ(order->size(), keys.size(), "DIRTY entries in the cache and the model");
    keys.clear();
    for (const DirtyEntry& e : *order) {
      const auto at = std::find(OutpointTable().begin(), OutpointTable().end(), e.outpoint);
      const auto k = static_cast<CoinsStackModel::Key>(at - OutpointTable().begin());
      const ModelEntry* m = at == OutpointTable().end() ? nullptr : model_.Find(0, k);
      HARNESS_CHECK(m != nullptr && m->dirty, "the cache's dirty list holds ", e.outpoint.ToString(),
                    ", which the model has no DIRTY entry for");
      keys.push_back(k);
    }
  }
  for (const CoinsStackModel::Key k : keys) {
    const ModelEntry& e = *model_.Find(0, k);
    plan.writes.push_back(
        {RefCoinKey(OutpointTable()[k]), e.coin ? std::optional(RefCoinValue(*e.coin)) : std::nullopt});
    // The reference decoder reads the reference's own record back (a store coin is always spendable, so
    // its script is never the one cut to OP_RETURN).
    HARNESS_CHECK(!e.coin || RefDecodeCoin(*plan.writes.back().value) == e.coin, "the reference decodes its record of ",
                  e.coin->ToString(), " differently");
  }
  return plan;
}

void CoinsStoreTester::ApplyFlush(const CoinsStoreStep& step) {
  const bool wipe = step.op == CoinsStoreOp::kFlush;
  const Hash256 best = model_.ForwardedBestBlock(0);
  if (best == Hash256{}) {
    // Core's store asserts rather than refusing (seam::kStoreFlushRefusalAborts): the unit tests check that
    // abort in a child process, and here such a flush does nothing.
    if (seam::kStoreFlushRefusalAborts) return;
    const size_t dirty = model_.DirtyOrder(0).size();
    bool threw = false;
    try {
      wipe ? cache_->Flush() : cache_->Sync();
    } catch (const std::logic_error&) {
      threw = true;
    }
    HARNESS_CHECK(threw, "a flush without a best block must be refused");
    if constexpr (seam::kDirtyCountVisible) {
      HARNESS_CHECK_EQ(cache_->GetDirtyCount(), dirty, "a refused flush changes nothing in the cache");
    }
    CheckStore(reference_, "after a refused flush", Depth::kRecords);
    return;
  }

  std::vector<DirtyEntry> entries = DirtyEntries();
  FlushPlan plan = Plan(best, own_order_ && order_known_ ? &entries : nullptr);
  HARNESS_CHECK_EQ(entries.size(), plan.writes.size(), "DIRTY entries in the cache and the model");
  for (size_t i = 0; i < entries.size() && !own_order_; ++i) {
    HARNESS_CHECK(RefCoinKey(entries[i].outpoint) == plan.writes[i].key, "dirty-list order differs from the model at ",
                  i);
  }
  std::vector<size_t> ends = plan.PartialBatchEnds(step.batch_limit);

  size_t partial = 0;
  store_->set_batch_size(step.batch_limit);
  store_->after_partial_write = [&](size_t n) {
    ++partial;
    if (n == step.cut) throw SimulatedCrash{};
  };
  bool cut = false;
  const ExpectedWrite expected_write = ExpectWrite(model_, 0);
  try {
    wipe ? cache_->Flush() : cache_->Sync();
  } catch (const SimulatedCrash&) {
    cut = true;
  }
  store_->after_partial_write = nullptr;
  partial_writes_ += partial;

  if (!cut) {
    CheckWrite(*cache_, expected_write, 0,
               [](CoinsStackModel::Key key) -> const OutPoint& { return OutpointTable()[key]; });
    if (order_known_) {
      HARNESS_CHECK_EQ(partial, ends.size(), "partial batches of a flush with batch limit ", step.batch_limit);
    }
    FlushUndo undo = plan.Apply(reference_);
    model_.WriteDown(0, wipe);
    const size_t written = ends.size();
    crash_.Ran({std::move(plan), std::move(entries), std::move(ends), 0, written, true, std::move(undo)});
  } else {
    const KvMap before = reference_;
    // The process is gone: so is the cache. The store is reopened from what LevelDB persisted.
    ++cuts_;
    HARNESS_CHECK(step.cut <= ends.size() || !order_known_, "the flush wrote more partial batches than the ",
                  ends.size(), " predicted");
    size_t applied = step.cut <= ends.size() ? ends[step.cut - 1] : plan.writes.size();
    auto check_cut = [&](const char* when, bool rerun) {
      CloseStore();
      OpenStore(key_);
      const auto heads = store_->GetHeadBlocks();
      HARNESS_CHECK(store_->IsMidFlush() && (heads == std::vector{plan.new_tip, plan.old_tip}), "after ", when,
                    " the store must be mid-flush with head blocks [new, original old tip]");
      KvMap expected = plan.MidFlush(before, applied);
      if (!StoreMatches(expected)) {
        KvMap state = Plaintext();
        // Tell a flush that split elsewhere (still a legal state) from one that broke atomicity. Written in
        // an order the plan does not follow (the subject's own, or a re-run's), any split is legal.
        const bool any_split = !order_known_ || (own_order_ && rerun);
        HARNESS_CHECK(plan.IsLegalMidFlush(before, state, any_split), "after ", when,
                      " the store is in no legal mid-flush state:", Diff(state, expected));
        HARNESS_CHECK(any_split, "after ", when, " the store should hold the first ", applied, " of ",
                      plan.writes.size(), " writes:", Diff(state, expected));
        expected = std::move(state);
      }
      CheckStoreViews(when, Depth::kWhole);
      crash_.Opened(expected, PendingStoreFlush{before, StoreFlush{plan, entries, ends, applied, 0, false, {}}});
    };
    check_cut("a cut flush", /*rerun=*/false);
    if (step.cut_again > 0 && step.cut_again <= ends.size()) {
      // A re-run's cache may order the entries its own way (own_order_), and so split them into fewer batches.
      const bool recut = !Replay(entries, best, step.batch_limit, step.cut_again);
      HARNESS_CHECK(recut || own_order_, "the re-run was not cut");
      applied = std::max(applied, ends[step.cut_again - 1]);
      if (recut) check_cut("a cut re-run", /*rerun=*/true);
    }
    HARNESS_CHECK(Replay(entries, best, step.batch_limit, 0), "the final re-run was cut");
    FlushUndo undo = plan.Apply(reference_);
    model_.WriteDown(0, /*wipe=*/true);  // the re-run's cache flushed (and so emptied) itself
    const size_t written = ends.size();
    crash_.Ran({std::move(plan), std::move(entries), std::move(ends), applied, written, true, std::move(undo)});
  }
  HARNESS_CHECK(!store_->IsMidFlush() && store_->GetBestBlock() == best, "a completed flush records its best block");
  CheckStore(reference_, cut ? "after recovery" : "after a flush", cut ? Depth::kWhole : Depth::kRecords);
}

std::vector<DirtyEntry> CoinsStoreTester::DirtyEntries() const {
  std::vector<DirtyEntry> entries;
  if constexpr (seam::kDirtyListVisible && seam::kEntriesVisible) {
    for (const OutPoint& o : cache_->DirtyOrder()) {
      const seam::CacheEntry& e = *cache_->FindEntry(o);
      entries.push_back({o, e.coin, e.flags()});
    }
  } else {
    // The cache's dirty entries are seen only when it writes them: the model's, which the writes check.
    for (const CoinsStackModel::Key k : model_.DirtyOrder(0)) {
      const ModelEntry& e = *model_.Find(0, k);
      const uint8_t flags = seam::CacheEntry::kDirty | (e.fresh ? seam::CacheEntry::kFresh : 0);
      entries.push_back({OutpointTable()[k], e.coin.value_or(Coin{}), flags});
    }
  }
  return entries;
}

void CoinsStoreTester::ApplyFailFlush(const CoinsStoreStep& step) {
  const Hash256 best = model_.ForwardedBestBlock(0);
  if (best == Hash256{}) return;  // refused flushes are ApplyFlush's
  std::vector<DirtyEntry> entries = DirtyEntries();
  FlushPlan plan = Plan(best, own_order_ && order_known_ ? &entries : nullptr);
  StoreFlush flush{std::move(plan), std::move(entries), {}, 0, 0, false, {}};
  flush.ends = flush.plan.PartialBatchEnds(step.batch_limit);
  store_->set_batch_size(step.batch_limit);
  store_->after_partial_write = [&](size_t) { ++flush.partial_written; };
  disk_.Arm(step.FaultKind(), step.FaultAt());
  std::string error;
  try {
    cache_->Flush();
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  disk_.Disarm();
  store_->after_partial_write = nullptr;
  partial_writes_ += flush.partial_written;
  if (!disk_.injected()) {
    HARNESS_CHECK(error.empty(), "a flush threw without a failing disk: ", error);
    if (order_known_) {
      HARNESS_CHECK_EQ(flush.partial_written, flush.ends.size(), "partial batches of a flush with batch limit ",
                       step.batch_limit);
    }
    flush.undo = flush.plan.Apply(reference_);
    model_.WriteDown(0, /*wipe=*/true);
    flush.partial_written = flush.ends.size();
    flush.completed = true;
    crash_.Ran(std::move(flush));
    HARNESS_CHECK(!store_->IsMidFlush() && store_->GetBestBlock() == best, "a completed flush records its best block");
    CheckStore(reference_, "after a flush the disk let through", Depth::kRecords);
    return;
  }
  ++faults_;
  HARNESS_CHECK(!error.empty(), "a flush whose ", step.FaultKind() == FaultEnv::Kind::kSync ? "sync" : "write",
                " failed returned as if it had succeeded");
  CloseStore();  // the node stops: the cache is lost
  Recover(std::move(flush), step.PowerLoss(), ("a flush that failed (" + error + ")").c_str());
}

void CoinsStoreTester::ApplyFailReopen(const CoinsStoreStep& step) {
  CloseStore();  // the cache is lost, as in any restart
  disk_.Arm(step.FaultKind(), step.FaultAt());
  bool threw = false;
  {
    const LeakCheckPause pause(seam::kStoreFailedOpenLeaks);
    try {
      OpenStore(key_);
    } catch (const seam::StoreError&) {
      threw = true;
    }
  }
  disk_.Disarm();
  HARNESS_CHECK(!threw || disk_.injected(), "an open failed without a failing disk");
  if (!disk_.injected()) {
    model_.Pop();
    model_.Push();
    crash_.Opened(reference_, std::nullopt);
    CheckStore(reference_, "after a reopen the disk let through");
    return;
  }
  ++faults_;
  CloseStore();
  Recover(std::nullopt, step.PowerLoss(), "a failed open");
}

void CoinsStoreTester::Recover(const std::optional<StoreFlush>& current, bool power_loss, const char* when) {
  if (power_loss) disk_.DropUnsyncedData();
  OpenStore(key_);
  const KvMap state = Plaintext();
  StoreCrashModel::Outcome outcome = crash_.After(reference_, current, power_loss);
  const StoreCrashModel::Legal* match = outcome.Find(state, own_order_);
  if (match == nullptr) {
    HARNESS_CHECK(false, "after ", when, power_loss ? " and a power loss" : "", " the store is in no state it could ",
                  "legally be in; against the last legal one:", Diff(state, outcome.Last()));
    return;
  }
  CheckStore(state, when);
  if (const StoreFlush* pending = match->pending) {
    HARNESS_CHECK(
        store_->IsMidFlush() && (store_->GetHeadBlocks() == std::vector{pending->plan.new_tip, pending->plan.old_tip}),
        "after ", when, " the store must be mid-flush with head blocks [new, original old tip]");
    // Copied first: Opened drops the flushes `pending` may be one of, and `before` may be reference_.
    PendingStoreFlush done{*match->before, StoreFlush{pending->plan, pending->entries, pending->ends, 0, 0, false, {}}};
    crash_.Opened(state, std::move(done));
    const StoreFlush& rerun = crash_.opened_pending()->flush;
    HARNESS_CHECK(Replay(rerun.entries, rerun.plan.new_tip, store_->batch_size(), 0), "the recovery's re-run was cut");
    reference_ = crash_.opened_pending()->before;
    FlushUndo undo = rerun.plan.Apply(reference_);
    crash_.Ran({rerun.plan, rerun.entries, rerun.ends, 0, 0, true, std::move(undo)});  // one batch
    HARNESS_CHECK(!store_->IsMidFlush() && store_->GetBestBlock() == rerun.plan.new_tip, "the re-run after ", when,
                  " records its best block");
    CheckStore(reference_, "after the recovery's re-run", Depth::kRecords);
    cache_ = std::make_unique<seam::CoinsViewCache>(CacheParent());
  } else {
    HARNESS_CHECK(!store_->IsMidFlush(), "after ", when, " the store is mid-flush in a state no flush left unfinished");
    reference_ = state;
    crash_.Opened(state, std::nullopt);
  }
  ResyncModel();
}

bool CoinsStoreTester::Replay(const std::vector<DirtyEntry>& entries, const Hash256& best, size_t batch_limit,
                              uint8_t cut) {
  auto replay = std::make_unique<ReplayCache>(CacheParent());
  for (const DirtyEntry& e : entries) replay->InsertEntry(e.outpoint, e.coin, e.flags);
  replay->SetBestBlock(best);
  store_->set_batch_size(batch_limit);
  store_->after_partial_write = [&](size_t n) {
    ++partial_writes_;
    if (n == cut) throw SimulatedCrash{};
  };
  bool completed = true;
  try {
    replay->Flush();
  } catch (const SimulatedCrash&) {
    completed = false;
  }
  store_->after_partial_write = nullptr;
  cache_ = std::move(replay);
  return completed;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
