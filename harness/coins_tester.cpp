#include "coins_tester.h"

#include <optional>
#include <stdexcept>
#include <string>

#include "coins_checks.h"
#include "observe.h"
#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // model and tester: the cache under test is compiled out of line
namespace {

std::vector<OutPoint> Outpoints(const std::vector<CoinsStackModel::Key>& keys) {
  std::vector<OutPoint> out;
  for (const auto k : keys) out.push_back(OutpointTable()[k]);
  return out;
}

const OutPoint& TableOutpoint(CoinsStackModel::Key k) { return OutpointTable()[k]; }

// The funding transaction whose output table outpoint `k` is, and the key of its output j.
size_t FundingOf(CoinsStackModel::Key k) { return k / 4; }
CoinsStackModel::Key KeyOf(size_t funding, size_t j) { return static_cast<CoinsStackModel::Key>(4 * funding + j); }

// The transaction HaveInputs is asked about.
Transaction Spender(const CoinsStep& step) {
  if (step.SpendsCoinbase()) return FundingTable()[0];
  Transaction tx;
  for (int i = 0; i < step.InputCount(); ++i) {
    tx.vin.emplace_back().prevout = OutpointTable()[(step.outpoint + i * step.InputStride()) % kTableSize];
  }
  tx.vout.push_back(TxOut{1, Script(1, 0x51)});
  return tx;
}

}  // namespace

std::string CoinsStep::ToString() const {
  std::string out = std::string(harness::ToString(op)) + "(level=" + std::to_string(level);
  if (Reads(op, kCoin)) out += ", coin=" + std::to_string(coin) + " " + CoinTable()[coin % kTableSize].ToString();
  if (Reads(op, kOutpoint)) {
    out += ", outpoint=" + std::to_string(outpoint) + " " + OutpointTable()[outpoint % kTableSize].ToString();
  }
  if (Reads(op, kBlock)) out += ", block=" + std::to_string(block);
  switch (op) {
    case CoinsOp::kAddCoins:
      out += ", tx=" + std::to_string(outpoint % kTableSize / 4) + (CheckForOverwrite() ? ", check_for_overwrite" : "");
      break;
    case CoinsOp::kHaveInputs:
      out += SpendsCoinbase() ? ", a coinbase"
                              : ", inputs=" + std::to_string(InputCount()) + " stride=" + std::to_string(InputStride());
      break;
    case CoinsOp::kFlush:
      if (KeepsMemory() && seam::kFlushCanKeepMemory) out += ", reallocate_cache=false";
      break;
    case CoinsOp::kFailRead: {
      static constexpr const char* kReads[] = {"GetCoin on the top", "PeekCoin on the top", "HaveCoin on the catcher",
                                               "PeekCoin on the catcher"};
      out += std::string(", read=") + kReads[ReadKind()];
      break;
    }
    default: break;
  }
  return out + ")";
}

CoinsTester::CoinsTester() : base_(BlockHash(255)), model_(BlockHash(255)) {
  seam::CoinsView* bottom = &base_;
  if constexpr (seam::kCoinsApi.error_catcher) {
    catcher_.emplace(&base_);
    catcher_->AddReadErrCallback([this] { callbacks_run_.push_back(1); });
    catcher_->AddReadErrCallback([this] {
      callbacks_run_.push_back(2);
      throw ReadErrorSeen{};
    });
    bottom = &*catcher_;
  }
  caches_.push_back(std::make_unique<seam::CoinsViewCache>(bottom));
  model_.Push();
  if constexpr (seam::kCoinsApi.sizes) empty_usage_ = caches_[0]->DynamicMemoryUsage();
}

size_t CoinsTester::SizeOf(int level) const {
  if constexpr (seam::kCoinsApi.sizes) return caches_[level]->GetCacheSize();
  return model_.Size(level);
}

CoinsTester::~CoinsTester() {
  while (!caches_.empty()) caches_.pop_back();  // top first: a cache must not outlive its parent
}

bool CoinsTester::HeldBelow(int level, CoinsStackModel::Key k) const {
  for (int l = level - 1; l >= 0; --l) {
    if (model_.Find(l, k) != nullptr) return true;
  }
  return false;
}

bool CoinsTester::Apply(CoinsStep step) {
  if (ended_ || !CoinsStep::Available(step.op)) return false;
  const int t = levels() - 1;
  step.level = static_cast<uint8_t>(t);
  // Sizes before the step: a lower level changes only by a fetch inserting into it, which grows it.
  size_t sizes_before[kMaxLevels];
  for (int l = 0; l < levels(); ++l) sizes_before[l] = SizeOf(l);
  step.outpoint %= kTableSize;
  const CoinsStackModel::Key k = step.outpoint;
  touched_ |= uint64_t{1} << k;
  const Ctx c{step, t, k, OutpointTable()[k], CoinTable()[step.coin % kTableSize], top()};
  if (!Dispatch(c)) return false;
  if (ended_) return true;  // a failed flush or read: nothing more to compare
  const bool wrote = step.op == CoinsOp::kFlush || step.op == CoinsOp::kSync;
  const bool dirtied = wrote || step.op == CoinsOp::kAdd || step.op == CoinsOp::kAddOverwrite ||
                       step.op == CoinsOp::kSpend || step.op == CoinsOp::kSpendMoveOut || step.op == CoinsOp::kReset ||
                       step.op == CoinsOp::kAddCoins || step.op == CoinsOp::kEmplace;
  for (int l = 0; l < levels(); ++l) {
    const bool changed = step.op == CoinsOp::kUsage || l == levels() - 1 || (wrote && l == levels() - 2) ||
                         (l < t && SizeOf(l) != sizes_before[l]);
    CheckLevel(l, k, changed);
  }
  if (dirtied) CheckDirtyOrder(levels() - 1);
  return true;
}

bool CoinsTester::Dispatch(const Ctx& c) {
  switch (c.step.op) {
#define HARNESS_COINS_DISPATCH_(e, ...) \
  case CoinsOp::e: return Do(On<CoinsOp::e>{}, c);
    HARNESS_COINS_OPS(HARNESS_COINS_DISPATCH_)
#undef HARNESS_COINS_DISPATCH_
    default: return false;
  }
}

bool CoinsTester::Do(On<CoinsOp::kGet>, const Ctx& c) {
  log_.Add(c.step);
  const auto got = c.cache.GetCoin(c.o);
  const auto want = model_.Get(c.t, c.k);
  HARNESS_CHECK(!got || !got->IsSpent(), "GetCoin returned a spent coin");
  HARNESS_CHECK(got == want, "GetCoin: subject ", Render(got), ", model ", Render(want));
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kHave>, const Ctx& c) {
  log_.Add(c.step);
  const bool got = c.cache.HaveCoin(c.o);
  const ModelEntry* e = model_.Fetch(c.t, c.k);
  HARNESS_CHECK_EQ(got, e != nullptr && e->coin.has_value(), "HaveCoin");
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kHaveInCache>, const Ctx& c) {
  log_.Add(c.step);
  const ModelEntry* e = model_.Find(c.t, c.k);
  seam::CoinsViewCache& cache = c.cache;  // the observation log labels the value by this expression
  const OutPoint& o = c.o;
  HARNESS_CHECK_EQ(cache.HaveCoinInCache(o), e != nullptr && e->coin.has_value(), "HaveCoinInCache");
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kAccess>, const Ctx& c) {
  log_.Add(c.step);
  const Coin got = c.cache.AccessCoin(c.o);
  const ModelEntry* e = model_.Fetch(c.t, c.k);
  const Coin want = e != nullptr && e->coin ? *e->coin : Coin{};
  HARNESS_CHECK(got == want, "AccessCoin: subject ", got.ToString(), ", model ", want.ToString());
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kAdd>, const Ctx& c) { return DoAdd(c, /*overwrite=*/false); }
bool CoinsTester::Do(On<CoinsOp::kAddOverwrite>, const Ctx& c) { return DoAdd(c, /*overwrite=*/true); }

bool CoinsTester::DoAdd(const Ctx& c, bool overwrite) {
  const ModelEntry* here = model_.Find(c.t, c.k);
  // Misuse: the caller asserts no unspent coin exists, but one is visible below the top level. Issued only
  // when a cache level holds that coin, whose BatchWrite then throws; a coin only the base holds is skipped
  // (the base would silently take the FRESH entry, as Core's database does).
  if (!overwrite && here == nullptr && model_.Peek(c.t, c.k) && !HeldBelow(c.t, c.k)) return false;
  log_.Add(c.step);
  const bool throws = model_.AddThrows(c.t, c.k, c.coin, overwrite);
  bool threw = false;
  try {
    c.cache.AddCoin(c.o, c.coin, overwrite);
  } catch (const std::logic_error&) {
    threw = true;
  }
  HARNESS_CHECK_EQ(threw, throws, "AddCoin throws exactly when overwriting an unspent coin without possible_overwrite");
  if (!throws) model_.Add(c.t, c.k, c.coin, overwrite);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kSpend>, const Ctx& c) { return DoSpend(c, /*move_out=*/false); }
bool CoinsTester::Do(On<CoinsOp::kSpendMoveOut>, const Ctx& c) { return DoSpend(c, /*move_out=*/true); }

bool CoinsTester::DoSpend(const Ctx& c, bool move_out) {
  log_.Add(c.step);
  const ModelEntry* e = model_.Fetch(c.t, c.k);
  const Coin before = e != nullptr && e->coin ? *e->coin : Coin{};
  Coin moved;
  const bool got = c.cache.SpendCoin(c.o, move_out ? &moved : nullptr);
  const bool want = model_.Spend(c.t, c.k);
  HARNESS_CHECK_EQ(got, want, "SpendCoin's return value");
  if (move_out && want) {
    HARNESS_CHECK(moved == before, "moved-out coin: subject ", moved.ToString(), ", model ", before.ToString());
  }
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kUncache>, const Ctx& c) {
  log_.Add(c.step);
  c.cache.Uncache(c.o);
  model_.Uncache(c.t, c.k);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kPush>, const Ctx& c) {
  if (levels() == kMaxLevels) return false;
  log_.Add(c.step);
  caches_.push_back(std::make_unique<seam::CoinsViewCache>(&c.cache));
  model_.Push();
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kPop>, const Ctx& c) {
  if (levels() == 1) return false;
  log_.Add(c.step);
  caches_.pop_back();
  model_.Pop();
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kFlush>, const Ctx& c) { return DoWrite(c, /*wipe=*/true); }
bool CoinsTester::Do(On<CoinsOp::kSync>, const Ctx& c) { return DoWrite(c, /*wipe=*/false); }

bool CoinsTester::DoWrite(const Ctx& c, bool wipe) {
  const bool keep_memory = wipe && c.step.KeepsMemory();
  {
    // The step's record names the choice where the subject has it.
    std::optional<observe::ChangeScope> scope;
    if (keep_memory) scope.emplace("flush_keeping_memory");
    log_.Add(c.step);
  }
  ApplyWrite(wipe, keep_memory);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kUsage>, const Ctx& c) {  // every level's usage, size and dirty count: Apply
  log_.Add(c.step);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kSetBestBlock>, const Ctx& c) {
  log_.Add(c.step);
  c.cache.SetBestBlock(BlockHash(c.step.block));
  model_.SetBestBlock(c.t, BlockHash(c.step.block));
  HARNESS_CHECK(c.cache.GetBestBlock() == BlockHash(c.step.block), "GetBestBlock after SetBestBlock");
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kPeek>, const Ctx& c) {
  log_.Add(c.step);
  const auto got = c.cache.PeekCoin(c.o);
  const auto want = model_.Peek(c.t, c.k);
  HARNESS_CHECK(got == want, "PeekCoin: subject ", Render(got), ", model ", Render(want));
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kReset>, const Ctx& c) {
  log_.Add(c.step);
  c.cache.Reset();
  model_.Reset(c.t);
  CheckEmpty(c.cache, "a reset cache");
  HARNESS_CHECK(c.cache.GetBestBlock() == model_.ReadBestBlock(c.t), "a reset cache reports its parent's best block");
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kAddCoins>, const Ctx& c) {
  if (!AddCoinsApplies(c.step)) return false;
  log_.Add(c.step);
  ApplyAddCoins(c.step);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kHaveInputs>, const Ctx& c) {
  log_.Add(c.step);
  ApplyHaveInputs(c.step);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kAccessByTxid>, const Ctx& c) { return ApplyAccessByTxid(c.step); }

bool CoinsTester::Do(On<CoinsOp::kEmplace>, const Ctx& c) {
  log_.Add(c.step);
  c.cache.EmplaceCoinInternalDANGER(c.o, Coin(c.coin));
  model_.Emplace(c.t, c.k, c.coin);
  return true;
}

bool CoinsTester::Do(On<CoinsOp::kFailRead>, const Ctx& c) {
  log_.Add(c.step);
  ApplyFailRead(c.step);
  return true;
}

namespace {

// Table outpoint k's output of its funding transaction as AddCoins adds it at height 0 (built once).
const Coin& FundingCoin(CoinsStackModel::Key k) {
  static const std::vector<Coin> coins = [] {
    std::vector<Coin> out;
    for (CoinsStackModel::Key key = 0; key < kTableSize; ++key) {
      const TxOut& o = FundingTable()[FundingOf(key)].vout[kTableIndexes[key % 4]];
      out.emplace_back(o.value, o.script_pubkey, 0, FundingOf(key) % 4 == 0);
    }
    return out;
  }();
  return coins[k];
}

}  // namespace

bool CoinsTester::AddCoinsApplies(const CoinsStep& step) const {
  // Without the check, a transaction that is not a coinbase adds its outputs FRESH. The misuse Add avoids
  // is avoided here too: an output added FRESH over a coin only the base has is not issued. The outputs
  // after one that throws are never added.
  const size_t funding = FundingOf(step.outpoint);
  if (step.CheckForOverwrite() || funding % 4 == 0) return true;
  const int t = levels() - 1;
  for (size_t j = 0; j < std::size(kTableIndexes); ++j) {
    const CoinsStackModel::Key out = KeyOf(funding, j);
    if (model_.AddThrows(t, out, FundingCoin(out), false)) return true;
    if (model_.Find(t, out) == nullptr && model_.Peek(t, out) && !HeldBelow(t, out)) return false;
  }
  return true;
}

void CoinsTester::ApplyAddCoins(const CoinsStep& step) {
  const int t = levels() - 1;
  const size_t funding = FundingOf(step.outpoint);
  const seam::HashedTransaction& tx = HashedFundingTable()[funding];
  const bool coinbase = funding % 4 == 0;
  const uint32_t height = CoinTable()[step.coin % kTableSize].height;
  bool threw = false;
  try {
    seam::AddCoins(top(), tx, height, step.CheckForOverwrite());
  } catch (const std::logic_error&) {
    threw = true;
  }
  bool throws = false;
  for (size_t j = 0; j < std::size(kTableIndexes) && !throws; ++j) {
    const CoinsStackModel::Key out = KeyOf(funding, j);
    touched_ |= uint64_t{1} << out;
    Coin added = FundingCoin(out);
    added.height = height;
    bool overwrite = coinbase;
    if (step.CheckForOverwrite()) {
      const ModelEntry* e = model_.Fetch(t, out);
      overwrite = e != nullptr && e->coin.has_value();
    }
    throws = model_.AddThrows(t, out, added, overwrite);
    if (!throws) model_.Add(t, out, added, overwrite);
  }
  HARNESS_CHECK_EQ(threw, throws, "AddCoins throws exactly when an output would overwrite an unspent coin");
  for (int l = 0; l <= t; ++l) {
    for (size_t j = 0; j < std::size(kTableIndexes); ++j) CheckEntry(l, KeyOf(funding, j));
  }
}

void CoinsTester::ApplyHaveInputs(const CoinsStep& step) {
  const int t = levels() - 1;
  const Transaction tx = Spender(step);
  const bool got = top().HaveInputs(tx);
  bool want = true;
  if (!step.SpendsCoinbase()) {
    for (int i = 0; i < step.InputCount() && want; ++i) {
      const auto key = static_cast<CoinsStackModel::Key>((step.outpoint + i * step.InputStride()) % kTableSize);
      touched_ |= uint64_t{1} << key;
      const ModelEntry* e = model_.Fetch(t, key);
      want = e != nullptr && e->coin.has_value();
    }
  }
  HARNESS_CHECK_EQ(got, want, "HaveInputs");
  for (int i = 0; i < step.InputCount(); ++i) {
    const auto key = static_cast<CoinsStackModel::Key>((step.outpoint + i * step.InputStride()) % kTableSize);
    for (int l = 0; l <= t; ++l) CheckEntry(l, key);
  }
}

bool CoinsTester::ApplyAccessByTxid(const CoinsStep& step) {
  const int t = levels() - 1;
  const size_t funding = FundingOf(step.outpoint);
  bool hit = false;
  for (size_t j = 0; j < std::size(kTableIndexes); ++j) hit = hit || model_.Peek(t, KeyOf(funding, j)).has_value();
  if (!hit) return false;
  log_.Add(step);
  const Coin got = seam::AccessByTxid(top(), OutpointTable()[KeyOf(funding, 0)].txid);
  Coin want;
  for (size_t j = 0; j < std::size(kTableIndexes); ++j) {
    const ModelEntry* e = model_.Fetch(t, KeyOf(funding, j));
    touched_ |= uint64_t{1} << KeyOf(funding, j);
    if (e != nullptr && e->coin) {
      want = *e->coin;
      break;
    }
  }
  HARNESS_CHECK(got == want, "AccessByTxid: subject ", got.ToString(), ", model ", want.ToString());
  for (int l = 0; l <= t; ++l) {
    for (size_t j = 0; j < std::size(kTableIndexes); ++j) CheckEntry(l, KeyOf(funding, j));
  }
  return true;
}

void CoinsTester::ApplyFailRead(const CoinsStep& step) {
  const int t = levels() - 1;
  const CoinsStackModel::Key k = step.outpoint;
  const OutPoint& o = OutpointTable()[k];
  // A read through the top reaches the base unless a cache level has an entry for the outpoint.
  bool reaches_base = true;
  if (step.ReadKind() < 2) {
    for (int l = t; l >= 0 && reaches_base; --l) reaches_base = model_.Find(l, k) == nullptr;
  }
  base_.FailReadsOf(o);
  callbacks_run_.clear();
  bool seen = false;
  std::optional<Coin> got;
  try {
    switch (step.ReadKind()) {
      case 0: got = top().GetCoin(o); break;
      case 1: got = top().PeekCoin(o); break;
      case 2: got = catcher_->HaveCoin(o) ? std::optional(Coin()) : std::nullopt; break;
      default: got = catcher_->PeekCoin(o); break;
    }
  } catch (const ReadErrorSeen&) {
    seen = true;
  }
  base_.FailReadsOf(std::nullopt);
  HARNESS_CHECK_EQ(seen, reaches_base, "a read that reaches the base fails through the catcher's callbacks");
  if (seen) {
    HARNESS_CHECK(callbacks_run_ == std::vector<int>({1, 2}), "the catcher ran its callbacks in order, once each: ran ",
                  callbacks_run_.size());
    ended_ = true;  // the process would abort here; the cache's state after the exception is not Core's
    return;
  }
  HARNESS_CHECK(callbacks_run_.empty(), "the catcher ran its callbacks without a failed read");
  const auto want = step.ReadKind() == 0 ? model_.Get(t, k) : model_.Peek(t, k);
  HARNESS_CHECK(got == want, "a read answered by a cache level: subject ", Render(got), ", model ", Render(want));
}

void CoinsTester::ApplyWrite(bool wipe, bool keep_memory) {
  const int t = levels() - 1;
  const size_t batches = base_.batches();
  const ExpectedWrite expected = ExpectWrite(model_, t);
  // What a flush that keeps the map's memory must leave (checked below); only such a flush reads it.
  size_t usage_before = 0;
  size_t coins_before = 0;
  if (wipe && keep_memory) {
    if constexpr (seam::kCoinsApi.sizes) usage_before = top().DynamicMemoryUsage();
    if constexpr (seam::kExactUsage) coins_before = seam::ModelledUsage(top());
  }
  std::string error;
  try {
    if (wipe) {
      top().Flush(/*reallocate_cache=*/!keep_memory);
    } else {
      top().Sync();
    }
  } catch (const std::logic_error& e) {
    error = e.what();
  }
  const CoinsStackModel::Written written = model_.WriteDown(t, wipe);
  const char* what = wipe ? "Flush" : "Sync";
  HARNESS_CHECK(written.misapplied || error.empty(), what, " threw: ", error);
  HARNESS_CHECK(!written.misapplied || !error.empty(), what, " did not throw, but a FRESH entry (",
                OutpointTable()[model_.DirtyOrder(t).front()].ToString(), ") met an unspent one in the parent");
  if (written.misapplied) {
    // The cache is unspecified after a failed flush (Core moves coins out of the entries it has written).
    // After a failed sync the input goes on: Apply checks both levels and the top's dirty list; here every
    // touched entry of both and the parent's dirty list.
    // Which entries came before the failing one depends on the write's order: unknown where it is the
    // subject's own, so the input ends there too.
    if (wipe || !seam::DirtyOrderIsFirstDirtied()) {
      ended_ = true;
    } else {
      CheckDirtyOrder(t - 1);
      CheckTouched(t - 1);
      CheckTouched(t);
    }
    return;
  }
  CheckWrite(top(), expected, t, TableOutpoint);
  const std::vector<OutPoint> order = Outpoints(written.order);
  if (t == 0) {
    HARNESS_CHECK_EQ(base_.batches(), batches + 1, "one batch reaches the base per flush or sync");
    HARNESS_CHECK(SameOrder(base_.last_batch(), order), "the base received ", Render(base_.last_batch()), " but ",
                  OrderWords(), " ", Render(order));
    HARNESS_CHECK(base_.GetBestBlock() == model_.BestBlock(-1), "base best block");
  } else {
    CheckDirtyOrder(t - 1);
  }
  if (wipe) {
    CheckEmpty(top(), "a flushed cache");
    // Whether the figure depends on the change is the input's choice, the same on every tree.
    model_.FlushedMemory(t, keep_memory);
    const bool kept = keep_memory && seam::kFlushCanKeepMemory;
    if constexpr (seam::kCoinsApi.sizes) {
      std::optional<observe::ChangeScope> scope;
      if (const char* change = model_.MemoryChange(t)) scope.emplace(change);
      const size_t usage = top().DynamicMemoryUsage();
      if (!kept) {
        HARNESS_CHECK_EQ(usage, empty_usage_, "a flushed cache uses the memory of a new one");
      } else if constexpr (seam::kExactUsage) {
        HARNESS_CHECK_EQ(usage, usage_before - coins_before,
                         "a flush keeping the map's memory frees the coins' part only");
      } else {
        HARNESS_CHECK(usage <= usage_before, "a flush keeping the map's memory grew it: ", usage_before, " -> ", usage);
      }
    }
  } else {
    CheckDirtyListEmpty(top(), "after Sync");
    // Unspent coins stay resident and clean; spent ones are gone.
    CheckTouched(t);
  }
}

void CoinsTester::CheckEntry(int level, CoinsStackModel::Key k) const {
  harness::CheckEntry(*caches_[level], model_, level, k, TableOutpoint);
}

void CoinsTester::CheckTouched(int level) const {
  for (CoinsStackModel::Key k = 0; k < kTableSize; ++k) {
    if (touched_ >> k & 1) CheckEntry(level, k);
  }
}

void CoinsTester::CheckDirtyOrder(int level) const {
  harness::CheckDirtyOrder(*caches_[level], model_, level, TableOutpoint);
}

void CoinsTester::CheckLevel(int level, CoinsStackModel::Key touched, bool sanity) const {
  CheckEntry(level, touched);
  CheckSizes(*caches_[level], model_, level, sanity);
}

void CoinsTester::CheckAll() {
  if (ended_) return;
  for (int l = 0; l < levels(); ++l) {
    CheckLevel(l, 0, /*sanity=*/true);
    CheckTouched(l);
    CheckDirtyOrder(l);
    HARNESS_CHECK(caches_[l]->GetBestBlock() == model_.ReadBestBlock(l), "best block at level ", l);
  }
  size_t base_coins = 0;
  for (CoinsStackModel::Key k = 0; k < kTableSize; ++k) {
    if (!(touched_ >> k & 1)) continue;
    const OutPoint& o = OutpointTable()[k];
    const auto in_base = base_.PeekCoin(o);
    base_coins += in_base.has_value();
    HARNESS_CHECK(in_base == model_.base(k), "base coin ", o.ToString(), ": subject ", Render(in_base), ", model ",
                  Render(model_.base(k)));
    const auto got = top().PeekCoin(o);
    const auto want = model_.Peek(levels() - 1, k);
    HARNESS_CHECK(got == want, "PeekCoin ", o.ToString(), ": subject ", Render(got), ", model ", Render(want));
  }
  HARNESS_CHECK_EQ(base_.coins().size(), base_coins, "the base holds only table outpoints");
  HARNESS_CHECK(top().GetHeadBlocks().empty() && top().EstimateSize() == 0,
                "the base has no head blocks and no size estimate, so neither has any view over it");
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
