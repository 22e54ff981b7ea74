#include "coins_tester.h"

#include <stdexcept>
#include <string>

#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // model and tester: the cache under test is compiled out of line
namespace {

std::string Render(const std::optional<Coin>& c) { return c ? c->ToString() : "none"; }

std::string Render(const std::vector<OutPoint>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + v[i].ToString();
  return out + "]";
}

std::vector<OutPoint> Outpoints(const std::vector<CoinsStackModel::Key>& keys) {
  std::vector<OutPoint> out;
  for (const auto k : keys) out.push_back(OutpointTable()[k]);
  return out;
}

std::string Flags(bool dirty, bool fresh) { return std::string(dirty ? "DIRTY" : "clean") + (fresh ? "+FRESH" : ""); }

}  // namespace

const char* ToString(CoinsOp op) {
  switch (op) {
    case CoinsOp::kGet: return "Get";
    case CoinsOp::kHave: return "Have";
    case CoinsOp::kHaveInCache: return "HaveInCache";
    case CoinsOp::kAccess: return "Access";
    case CoinsOp::kAdd: return "Add";
    case CoinsOp::kAddOverwrite: return "AddOverwrite";
    case CoinsOp::kSpend: return "Spend";
    case CoinsOp::kSpendMoveOut: return "SpendMoveOut";
    case CoinsOp::kUncache: return "Uncache";
    case CoinsOp::kPush: return "Push";
    case CoinsOp::kPop: return "Pop";
    case CoinsOp::kFlush: return "Flush";
    case CoinsOp::kSync: return "Sync";
    case CoinsOp::kUsage: return "Usage";
    case CoinsOp::kSetBestBlock: return "SetBestBlock";
    case CoinsOp::kPeek: return "Peek";
  }
  return "Unknown";
}

std::string CoinsStep::ToString() const {
  std::string out = std::string(harness::ToString(op)) + "(level=" + std::to_string(level);
  switch (op) {
    case CoinsOp::kAdd:
    case CoinsOp::kAddOverwrite:
      out += ", coin=" + std::to_string(coin) + " " + CoinTable()[coin % kTableSize].ToString();
      [[fallthrough]];
    case CoinsOp::kGet:
    case CoinsOp::kHave:
    case CoinsOp::kHaveInCache:
    case CoinsOp::kAccess:
    case CoinsOp::kSpend:
    case CoinsOp::kSpendMoveOut:
    case CoinsOp::kUncache:
    case CoinsOp::kPeek:
      out += ", outpoint=" + std::to_string(outpoint) + " " + OutpointTable()[outpoint % kTableSize].ToString();
      break;
    case CoinsOp::kSetBestBlock:
      out += ", block=" + std::to_string(block);
      break;
    default:
      break;
  }
  return out + ")";
}

const std::vector<OutPoint>& OutpointTable() {
  static const std::vector<OutPoint> table = [] {
    std::vector<OutPoint> t;
    for (uint64_t tx = 0; tx < kTableSize / 4; ++tx) {
      Rng rng(tx + 1);
      Hash256 txid;
      for (auto& b : txid.bytes) b = static_cast<uint8_t>(rng.Next());
      for (const uint32_t n : {0u, 1u, 2u, 7u}) t.push_back(OutPoint{txid, n});
    }
    return t;
  }();
  return table;
}

namespace {

// Uncompressed public keys (0x04 ‖ x ‖ y) of points on secp256k1, computed once with libsecp256k1: the
// store compresses P2PK scripts with them to ids 4 (y even) and 5 (y odd) and must recover y on reading.
constexpr const char* kCurveKeys[] = {
    // y even
    "04cea2d2fcf7d6eac7cc051588b0dd4be7bf35a090055c956cfd94a2e36813e60465d35adb88fb80533f0e827ac2be7a017601e25d18881684258732c1625889d8",
    "04671cc8418f7abdfe1fe80a6d37be7b07a8f85f0c0bc552cd39ef45af80b0479a76dcf42512da48a3df47afa65bd3eedd85c583dbac5ab90beaef1610ae626ad2",
    // y odd
    "045277ffea9e7e25dceb93c9d09585d8e24a99470277a54e61e7b1023c7c9fbce2b2d6e9b30419332257946071b95835b183d2fa010e26ea8908cc7ee51caaaa73",
    "04efdc2da40a131e532c1aaf3910186ae996c96b01c118a9be0d349a015e28640b0d1480c1051109079f0d920d4d02f81676c81e2252669abcf3a4b5d544a5cfb9",
    "04f29ffe2dd05d788b22efc63089d2c598aee2c29f434875c7428e1e02396ea267dcfaff8c9f1774f4fd69756786e5eb5378cb25565b14a745c9346078c55d8e17",
};

// 65 ‖ key ‖ OP_CHECKSIG, the key given in hex.
Script P2pkUncompressed(const char* hex) {
  Script s(1, 65);
  for (size_t i = 0; hex[i] != '\0'; i += 2) s.push_back(static_cast<uint8_t>(std::stoi(std::string(hex + i, 2), nullptr, 16)));
  s.push_back(0xac);
  return s;
}

// Script i of the coin table: standard templates and near misses on both sides of the 36-byte inline size,
// so the cache's usage accounting and the store's script compression both see every case.
Script TableScript(uint32_t i) {
  if (i == 62) return Script(10001, 0x51);  // too long to spend: caches ignore it
  if (i == 63) return Script(1, kOpReturn);  // unspendable likewise
  Rng rng(1000 + i);
  auto make = [&rng](std::initializer_list<uint8_t> head, size_t random, std::initializer_list<uint8_t> tail) {
    Script s(head.begin(), head.end());
    for (size_t j = 0; j < random; ++j) s.push_back(static_cast<uint8_t>(rng.Next()));
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
  };
  const uint32_t variant = i / 8 % 4;
  switch (i % 8) {
    case 0: return make({0x00, 20}, 20, {});  // P2WPKH, 22 bytes
    case 1: return make({0x76, 0xa9, 20}, 20, {0x88, static_cast<uint8_t>(variant == 1 ? 0xad : 0xac)});  // P2PKH, 25
    case 2: return make({0x51, 32}, 32, {});  // P2TR, 34
    case 3: return make({33, static_cast<uint8_t>(2 + variant % 3)}, 32, {0xac});  // P2PK (0x04: not compressed), 35
    case 4: return make({0x51}, 35, {});  // non-standard, 36: the largest inline script
    case 5: return make({0x51}, 36, {});  // 37: the smallest on the heap
    case 6:
      switch (i) {
        case 6:
        case 38: return make({0x51}, 79, {});  // 80
        // P2PK with an uncompressed key on the curve, 67: compressed to id 4 (14, 54) or 5 (22, 46).
        case 14: return P2pkUncompressed(kCurveKeys[0]);
        case 54: return P2pkUncompressed(kCurveKeys[1]);
        case 22: return P2pkUncompressed(kCurveKeys[2]);
        case 46: return P2pkUncompressed(kCurveKeys[3]);
        default: {  // 30: a point on the curve in the hybrid form 0x07 ‖ x ‖ y (y odd), which Core stores whole
          Script s = P2pkUncompressed(kCurveKeys[4]);
          s[1] = 0x07;
          return s;
        }
      }
    default:
      switch (variant) {
        case 0: return Script();                                         // empty
        case 1: return make({0xa9, 20}, 20, {0x87});                     // P2SH, 23
        case 2: return make({0xa9, 20}, 20, {0x88});                     // P2SH-like, 23: not compressible
        default: {  // 31: P2PK with an uncompressed key whose x is on the curve but y is not its root: whole
          Script s = P2pkUncompressed(kCurveKeys[1]);
          s[65] ^= 0x01;
          return s;
        }
      }
  }
}

// Amounts whose compression takes every branch: small odd values, zero, round ones with fewer and with
// nine or more trailing zeros, and the largest possible.
int64_t TableAmount(uint32_t i) {
  switch (i % 5) {
    case 0: return 1000 * int64_t{i} + 1;
    case 1: return i % 2 ? 0 : 1;
    case 2: return 5'000'000'000 * (i % 3 + 1);  // 50, 100, 150 BTC
    case 3: return 123'450'000 * int64_t{i};
    default: return int64_t{21'000'000} * 100'000'000;  // MAX_MONEY
  }
}

}  // namespace

const std::vector<Coin>& CoinTable() {
  static const std::vector<Coin> table = [] {
    std::vector<Coin> t;
    for (uint32_t i = 0; i < kTableSize; ++i) {
      const uint32_t height = i == 33 ? 0x7fffffff : i * 3;  // the largest height the store can encode
      t.emplace_back(TableAmount(i), TableScript(i), height, i % 3 == 0);
    }
    return t;
  }();
  return table;
}

Hash256 BlockHash(uint8_t id) {
  Hash256 h;
  h.bytes[0] = 0xb0;
  h.bytes[1] = id;
  return h;
}

CoinsTester::CoinsTester() : base_(BlockHash(255)), model_(BlockHash(255)) {
  caches_.push_back(std::make_unique<seam::CoinsViewCache>(&base_));
  model_.Push();
  empty_usage_ = caches_[0]->DynamicMemoryUsage();
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
  if (ended_) return false;
  const int t = levels() - 1;
  step.level = static_cast<uint8_t>(t);
  // Sizes before the step: a lower level changes only by a fetch inserting into it, which grows it.
  size_t sizes_before[kMaxLevels];
  for (int l = 0; l < levels(); ++l) sizes_before[l] = caches_[l]->GetCacheSize();
  step.outpoint %= kTableSize;
  step.coin %= kTableSize;
  const CoinsStackModel::Key k = step.outpoint;
  touched_ |= uint64_t{1} << k;
  const OutPoint& o = OutpointTable()[k];
  const Coin& coin = CoinTable()[step.coin];
  seam::CoinsViewCache& cache = top();

  switch (step.op) {
    case CoinsOp::kGet: {
      log_.Add(step);
      const auto got = cache.GetCoin(o);
      const auto want = model_.Get(t, k);
      HARNESS_CHECK(got == want, "GetCoin: subject ", Render(got), ", model ", Render(want));
      break;
    }
    case CoinsOp::kHave: {
      log_.Add(step);
      const bool got = cache.HaveCoin(o);
      const ModelEntry* e = model_.Fetch(t, k);
      HARNESS_CHECK_EQ(got, e != nullptr && e->coin.has_value(), "HaveCoin");
      break;
    }
    case CoinsOp::kHaveInCache: {
      log_.Add(step);
      const ModelEntry* e = model_.Find(t, k);
      HARNESS_CHECK_EQ(cache.HaveCoinInCache(o), e != nullptr && e->coin.has_value(), "HaveCoinInCache");
      break;
    }
    case CoinsOp::kAccess: {
      log_.Add(step);
      const Coin got = cache.AccessCoin(o);
      const ModelEntry* e = model_.Fetch(t, k);
      const Coin want = e != nullptr && e->coin ? *e->coin : Coin{};
      HARNESS_CHECK(got == want, "AccessCoin: subject ", got.ToString(), ", model ", want.ToString());
      break;
    }
    case CoinsOp::kAdd:
    case CoinsOp::kAddOverwrite: {
      const bool overwrite = step.op == CoinsOp::kAddOverwrite;
      const ModelEntry* here = model_.Find(t, k);
      // Misuse: the caller asserts no unspent coin exists, but one is visible below the top level. Issued
      // only when a cache level holds that coin, whose BatchWrite then throws; a coin only the base holds is
      // skipped (the base would silently take the FRESH entry, as Core's database does).
      if (!overwrite && here == nullptr && model_.Peek(t, k) && !HeldBelow(t, k)) return false;
      log_.Add(step);
      const bool throws = model_.AddThrows(t, k, coin, overwrite);
      bool threw = false;
      try {
        cache.AddCoin(o, coin, overwrite);
      } catch (const std::logic_error&) {
        threw = true;
      }
      HARNESS_CHECK_EQ(threw, throws, "AddCoin throws exactly when overwriting an unspent coin without possible_overwrite");
      if (!throws) model_.Add(t, k, coin, overwrite);
      break;
    }
    case CoinsOp::kSpend:
    case CoinsOp::kSpendMoveOut: {
      log_.Add(step);
      const ModelEntry* e = model_.Fetch(t, k);
      const Coin before = e != nullptr && e->coin ? *e->coin : Coin{};
      Coin moved;
      const bool got = cache.SpendCoin(o, step.op == CoinsOp::kSpendMoveOut ? &moved : nullptr);
      const bool want = model_.Spend(t, k);
      HARNESS_CHECK_EQ(got, want, "SpendCoin's return value");
      if (step.op == CoinsOp::kSpendMoveOut && want) {
        HARNESS_CHECK(moved == before, "moved-out coin: subject ", moved.ToString(), ", model ", before.ToString());
      }
      break;
    }
    case CoinsOp::kUncache:
      log_.Add(step);
      cache.Uncache(o);
      model_.Uncache(t, k);
      break;
    case CoinsOp::kPush:
      if (levels() == kMaxLevels) return false;
      log_.Add(step);
      caches_.push_back(std::make_unique<seam::CoinsViewCache>(&cache));
      model_.Push();
      break;
    case CoinsOp::kPop:
      if (levels() == 1) return false;
      log_.Add(step);
      caches_.pop_back();
      model_.Pop();
      break;
    case CoinsOp::kFlush:
    case CoinsOp::kSync:
      log_.Add(step);
      ApplyWrite(step.op == CoinsOp::kFlush);
      if (ended_) return true;
      break;
    case CoinsOp::kUsage:  // every level's usage, size and dirty count, checked below
      log_.Add(step);
      break;
    case CoinsOp::kSetBestBlock:
      log_.Add(step);
      cache.SetBestBlock(BlockHash(step.block));
      model_.SetBestBlock(t, BlockHash(step.block));
      HARNESS_CHECK(cache.GetBestBlock() == BlockHash(step.block), "GetBestBlock after SetBestBlock");
      break;
    case CoinsOp::kPeek: {
      log_.Add(step);
      const auto got = cache.PeekCoin(o);
      const auto want = model_.Peek(t, k);
      HARNESS_CHECK(got == want, "PeekCoin: subject ", Render(got), ", model ", Render(want));
      break;
    }
    default:
      return false;
  }
  const bool wrote = step.op == CoinsOp::kFlush || step.op == CoinsOp::kSync;
  const bool dirtied = wrote || step.op == CoinsOp::kAdd || step.op == CoinsOp::kAddOverwrite ||
                       step.op == CoinsOp::kSpend || step.op == CoinsOp::kSpendMoveOut;
  for (int l = 0; l < levels(); ++l) {
    const bool changed = step.op == CoinsOp::kUsage || l == levels() - 1 || (wrote && l == levels() - 2) ||
                         (l < t && caches_[l]->GetCacheSize() != sizes_before[l]);
    CheckLevel(l, k, changed);
  }
  if (dirtied) CheckDirtyOrder(levels() - 1);
  return true;
}

void CoinsTester::ApplyWrite(bool wipe) {
  const int t = levels() - 1;
  const size_t batches = base_.batches();
  std::string error;
  try {
    if (wipe) {
      top().Flush();
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
    if (wipe) {
      ended_ = true;
    } else {
      CheckDirtyOrder(t - 1);
      CheckTouched(t - 1);
      CheckTouched(t);
    }
    return;
  }
  const std::vector<OutPoint> order = Outpoints(written.order);
  if (t == 0) {
    HARNESS_CHECK_EQ(base_.batches(), batches + 1, "one batch reaches the base per flush or sync");
    HARNESS_CHECK(base_.last_batch() == order, "the base received ", Render(base_.last_batch()),
                  " but the entries first became DIRTY in the order ", Render(order));
    HARNESS_CHECK(base_.GetBestBlock() == model_.BestBlock(-1), "base best block");
  } else {
    CheckDirtyOrder(t - 1);
  }
  const seam::CoinsViewCache& c = top();
  if (wipe) {
    HARNESS_CHECK(c.GetCacheSize() == 0 && seam::ModelledUsage(c) == 0, "a flushed cache is empty with usage 0");
    HARNESS_CHECK_EQ(c.DynamicMemoryUsage(), empty_usage_, "a flushed cache uses the memory of a new one");
  } else {
    HARNESS_CHECK(c.GetDirtyCount() == 0 && c.DirtyOrder().empty(), "the dirty list is empty after Sync");
    // Unspent coins stay resident and clean; spent ones are gone.
    CheckTouched(t);
  }
}

void CoinsTester::CheckEntry(int level, CoinsStackModel::Key k) const {
  const OutPoint& o = OutpointTable()[k];
  const seam::CacheEntry* got = caches_[level]->FindEntry(o);
  const ModelEntry* want = model_.Find(level, k);
  HARNESS_CHECK((got != nullptr) == (want != nullptr), "entry ", o.ToString(), " at level ", level, ": subject ",
                got ? "present" : "absent", ", model ", want ? "present" : "absent");
  if (got == nullptr) return;
  const std::optional<Coin> got_coin = got->coin.IsSpent() ? std::nullopt : std::optional<Coin>(got->coin);
  HARNESS_CHECK(got_coin == want->coin, "coin ", o.ToString(), " at level ", level, ": subject ", Render(got_coin),
                ", model ", Render(want->coin));
  HARNESS_CHECK(got->IsDirty() == want->dirty && got->IsFresh() == want->fresh, "flags of ", o.ToString(),
                " at level ", level, ": subject ", Flags(got->IsDirty(), got->IsFresh()), ", model ",
                Flags(want->dirty, want->fresh));
}

void CoinsTester::CheckTouched(int level) const {
  for (CoinsStackModel::Key k = 0; k < kTableSize; ++k) {
    if (touched_ >> k & 1) CheckEntry(level, k);
  }
}

void CoinsTester::CheckDirtyOrder(int level) const {
  const std::vector<OutPoint> got = caches_[level]->DirtyOrder();
  const std::vector<CoinsStackModel::Key>& want = model_.DirtyOrder(level);
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = got[i] == OutpointTable()[want[i]];
  HARNESS_CHECK(same, "dirty list at level ", level, ": subject ", Render(got), ", first-dirtied order ",
                Render(Outpoints(want)));
}

void CoinsTester::CheckLevel(int level, CoinsStackModel::Key touched, bool sanity) const {
  const seam::CoinsViewCache& c = *caches_[level];
  if (sanity) {
    try {
      c.SanityCheck();
    } catch (const std::logic_error& e) {
      HARNESS_CHECK(false, "level ", level, ": ", e.what());
    }
  }
  CheckEntry(level, touched);
  if (sanity) {
    HARNESS_CHECK_EQ(seam::ModelledUsage(c), model_.Usage(level), "memory usage at level ", level);
    HARNESS_CHECK(c.DynamicMemoryUsage() >= seam::ModelledUsage(c), "total memory usage at level ", level,
                  " below the entries' part");
  }
  HARNESS_CHECK_EQ(c.GetCacheSize(), model_.Size(level), "cache size at level ", level);
  HARNESS_CHECK_EQ(c.GetDirtyCount(), model_.DirtyOrder(level).size(), "dirty count at level ", level);
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
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
