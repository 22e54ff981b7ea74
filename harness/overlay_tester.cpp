#include "overlay_tester.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "coins_checks.h"
#include "coins_tables.h"
#include "known_bugs.h"
#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // model and tester: the caches under test are compiled out of line
namespace {

// The funding outpoints: txids unrelated to any transaction the tester builds.
const std::vector<OutPoint>& FundingOutpoints() {
  static const std::vector<OutPoint> table = [] {
    std::vector<OutPoint> t;
    for (uint64_t tx = 0; tx < OverlayTester::kFunding / 4; ++tx) {
      Rng rng(0xf00d + tx);
      Hash256 txid;
      for (auto& b : txid.bytes) b = static_cast<uint8_t>(rng.Next());
      for (uint32_t n = 0; n < 4; ++n) t.push_back(OutPoint{txid, n});
    }
    return t;
  }();
  return table;
}

// The funding outpoints' keys, the same in every tester (0 .. kFunding - 1 in table order): built once.
const std::map<OutPoint, CoinsStackModel::Key>& FundingKeys() {
  static const std::map<OutPoint, CoinsStackModel::Key> keys = [] {
    std::map<OutPoint, CoinsStackModel::Key> k;
    for (const OutPoint& o : FundingOutpoints()) k.emplace(o, static_cast<CoinsStackModel::Key>(k.size()));
    return k;
  }();
  return keys;
}

std::string Describe(const std::vector<TxShape>& txs) {
  std::string out;
  for (size_t i = 0; i < txs.size(); ++i) {
    out += i ? " | tx" : "tx";
    out += std::to_string(i + 1) + " in[";
    for (size_t j = 0; j < txs[i].inputs.size(); ++j) {
      const uint8_t s = txs[i].inputs[j];
      out += j ? " " : "";
      // "d" names an earlier transaction's input (a double spend) if the transaction has one before it.
      out += s < 0x80             ? "f" + std::to_string(s % OverlayTester::kFunding)
             : s >= 0xc0 && i > 0 ? "d" + std::to_string((s >> 2) & 7) + ":" + std::to_string(s & 3)
                                  : "t" + std::to_string((s >> 2) & 7) + ":" + std::to_string(s & 3);
    }
    out += "] out " + std::to_string(txs[i].outputs) + "x coin " + std::to_string(txs[i].coin);
  }
  return out;
}

}  // namespace

std::string OverlayStep::ToString() const {
  std::string args;
  const auto add = [&args](const std::string& arg) { args += (args.empty() ? "" : ", ") + arg; };
  if (Reads(op, kFunding)) add("f" + std::to_string(arg % OverlayTester::kFunding));
  if (Reads(op, kCoin)) add("coin=" + std::to_string(coin));
  if (Reads(op, kOverwrite) && overwrite) add("possible_overwrite");
  if (Reads(op, kFlushOrSync)) add(arg & 1 ? "flush" : "sync");
  if (Reads(op, kTxs)) add(Describe(txs));
  if (Reads(op, kIndex)) add(std::to_string(arg));
  if (Reads(op, kWriter)) add(arg & 1 ? "the fetching overlay writes" : "the overlay without threads writes");
  return std::string(harness::ToString(op)) + "(" + args + ")";
}

OverlayTester::OverlayTester(int workers)
    : workers_(workers),
      base_(BlockHash(255)),
      tip_(&base_),
      fetching_(&tip_, workers),
      serial_(&tip_, 0),
      model_(BlockHash(255)) {
  model_.Push();                // the tip
  model_.Push(/*peeks=*/true);  // the overlays
  outpoints_.reserve(CoinsStackModel::kKeys);
  outpoints_.assign(FundingOutpoints().begin(), FundingOutpoints().end());
  // Every other funding coin is in the base from the start, as a chainstate's coins are, so that a block can
  // spend one without a step funding it first.
  for (Key k = 0; k < kFunding; k += 2) {
    const Coin& coin = CoinTable()[k];
    base_.Put(OutpointOf(k), coin);
    model_.SetBase(k, coin);
  }
}

OverlayTester::~OverlayTester() = default;

std::optional<OverlayTester::Key> OverlayTester::KeyOf(const OutPoint& o) {
  if (const auto it = FundingKeys().find(o); it != FundingKeys().end()) return it->second;
  if (const auto it = keys_.find(o); it != keys_.end()) return it->second;
  if (outpoints_.size() == CoinsStackModel::kKeys) return std::nullopt;
  const Key k = static_cast<Key>(outpoints_.size());
  outpoints_.push_back(o);
  keys_.emplace(o, k);
  return k;
}

bool OverlayTester::BuildBlock(const std::vector<TxShape>& shapes) {
  Block b;
  embedded::Transaction coinbase;
  coinbase.vin.push_back(TxIn{OutPoint{Hash256{}, embedded::kNullIndex}, Script{0x01, blocks_}, 0xffffffff, {}});
  const Coin& reward = CoinTable()[blocks_ % kTableSize];
  coinbase.vout.push_back(TxOut{reward.amount, reward.script});
  b.block.vtx.push_back(std::move(coinbase));
  b.txids.push_back(TxidOf(b.block.vtx[0]));
  if (!KeyOf(OutPoint{b.txids[0], 0})) return false;
  std::set<Hash256>
      earlier;  // txids of the transactions after the coinbase so far: the overlay queues none of their outputs
  for (const TxShape& shape : shapes) {
    embedded::Transaction tx;
    tx.locktime = blocks_;  // no transaction repeats an earlier block's txid (BIP30's concern, not the overlay's)
    for (const uint8_t s : shape.inputs) {
      OutPoint prevout;
      if (s < 0x80) {
        prevout = FundingOutpoints()[s % kFunding];
      } else if (s >= 0xc0 && b.block.vtx.size() > 1) {
        const std::vector<TxIn>& vin = b.block.vtx[1 + ((s >> 2) & 7) % (b.block.vtx.size() - 1)].vin;
        prevout = vin[(s & 3) % vin.size()].prevout;
      } else {
        const size_t from = ((s >> 2) & 7) % b.txids.size();
        prevout = OutPoint{b.txids[from], static_cast<uint32_t>(s & 3)};
      }
      if (std::any_of(tx.vin.begin(), tx.vin.end(), [&](const TxIn& in) { return in.prevout == prevout; })) continue;
      tx.vin.push_back(TxIn{prevout, {}, 0xffffffff, {}});
    }
    for (uint8_t n = 0; n < shape.outputs; ++n) {
      const Coin& c = CoinTable()[(shape.coin + n) % kTableSize];
      tx.vout.push_back(TxOut{c.amount, c.script});
    }
    const Hash256 txid = TxidOf(tx);
    // Every outpoint this transaction names needs a key; a block that would need more ends before it.
    std::vector<Key> inputs;
    bool fits = true;
    for (const TxIn& in : tx.vin) {
      const auto k = KeyOf(in.prevout);
      fits = fits && k.has_value();
      if (k) inputs.push_back(*k);
    }
    for (uint32_t n = 0; fits && n < tx.vout.size(); ++n) fits = KeyOf(OutPoint{txid, n}).has_value();
    if (!fits) break;
    for (size_t j = 0; j < tx.vin.size(); ++j) {
      if (!earlier.contains(tx.vin[j].prevout.txid)) b.queue.push_back(inputs[j]);
    }
    earlier.insert(txid);
    b.block.vtx.push_back(std::move(tx));
    b.txids.push_back(txid);
  }
  // Nothing is fetched ahead without threads, or by an overlay that does not fetch at all.
  b.fetches_ahead = workers_ > 0 && seam::kOverlayPrefetches;
  block_ = std::move(b);
  return true;
}

const ModelEntry* OverlayTester::Fetch(Key k) {
  const bool miss = model_.Find(1, k) == nullptr;
  if (miss && block_ && block_->taken < block_->queue.size() && block_->queue[block_->taken] == k) ++block_->taken;
  return model_.Fetch(1, k);
}

bool OverlayTester::ConnectNext() {
  Block& b = *block_;
  const size_t i = b.next++;
  const embedded::Transaction& tx = b.block.vtx[i];
  const uint32_t height = blocks_;
  const auto overlays = Overlays();
  if (i > 0) {
    for (const TxIn& in : tx.vin) {
      const Key k = *KeyOf(in.prevout);
      const ModelEntry* e = Fetch(k);
      const bool want = e != nullptr && e->coin.has_value();
      for (seam::CoinsViewOverlay* o : overlays) {
        HARNESS_CHECK_EQ(o->HaveCoin(in.prevout), want, "HaveCoin of ", in.prevout.ToString(), " (", Name(o), ")");
      }
      if (!want) return false;
    }
    for (const TxIn& in : tx.vin) {
      const ModelEntry* e = Fetch(*KeyOf(in.prevout));
      for (seam::CoinsViewOverlay* o : overlays) {
        const Coin got = o->AccessCoin(in.prevout);
        HARNESS_CHECK(got == *e->coin, "AccessCoin of ", in.prevout.ToString(), " (", Name(o), "): subject ",
                      got.ToString(), ", model ", e->coin->ToString());
      }
    }
    for (const TxIn& in : tx.vin) {
      const Key k = *KeyOf(in.prevout);
      const Coin before = *Fetch(k)->coin;
      for (seam::CoinsViewOverlay* o : overlays) {
        Coin moved;
        HARNESS_CHECK(o->SpendCoin(in.prevout, &moved), "SpendCoin of ", in.prevout.ToString(), " (", Name(o), ")");
        HARNESS_CHECK(moved == before, "moved-out coin of ", in.prevout.ToString(), ": subject ", moved.ToString(),
                      ", model ", before.ToString());
      }
      model_.Spend(1, k);
      CheckOverlays(k, /*deep=*/false);
    }
  }
  for (uint32_t n = 0; n < tx.vout.size(); ++n) {
    const OutPoint o{b.txids[i], n};
    const Key k = *KeyOf(o);
    const Coin coin(tx.vout[n].value, tx.vout[n].script_pubkey, height, /*coinbase=*/i == 0);
    const bool overwrite = i == 0;  // AddCoins: a coinbase may overwrite (BIP30's old duplicates)
    const bool throws = model_.AddThrows(1, k, coin, overwrite);
    for (seam::CoinsViewOverlay* ov : overlays) {
      bool threw = false;
      try {
        ov->AddCoin(o, coin, overwrite);
      } catch (const std::logic_error&) {
        threw = true;
      }
      HARNESS_CHECK_EQ(threw, throws, "AddCoin of ", o.ToString(), " (", Name(ov),
                       ") throws exactly when it overwrites an unspent coin");
    }
    if (!throws) model_.Add(1, k, coin, overwrite);
    CheckOverlays(k, /*deep=*/false);
  }
  return true;
}

void OverlayTester::ResetOverlays() {
  fetching_.Reset();
  serial_.Reset();
  model_.Reset(1);
  block_.reset();
  for (const seam::CoinsViewOverlay* o : {&fetching_, &serial_}) CheckEmpty(*o, "a reset overlay");
  CheckOverlays(std::nullopt, /*deep=*/true);
}

void OverlayTester::EndBlock(bool fetching_writes) {
  while (!block_->invalid && block_->next < block_->block.vtx.size()) block_->invalid = !ConnectNext();
  CheckOverlays(std::nullopt, /*deep=*/true);
  // Core assumes (Assume, fatal in its fuzz builds) that a block it flushes had every queued prevout taken.
  // After a sync the contract says nothing of the queue: the overlay's own answer decides.
  if (workers_ > 0 && (block_->synced || block_->taken != block_->queue.size()) && !after_fetch_dependent_end_) {
    after_fetch_dependent_end_.emplace("coins_view_overlay");
  }
  const bool consumed = block_->synced ? fetching_.AllInputsConsumed() : Consumed();
  if (block_->invalid || !consumed) return ResetOverlays();
  const Hash256 best = BlockHash(blocks_);
  const KeyToOutpoint name = [this](Key key) -> const OutPoint& { return OutpointOf(key); };
  for (seam::CoinsViewOverlay* o : Overlays()) o->SetBestBlock(best);
  model_.SetBestBlock(1, best);
  for (Key k = 0; k < outpoints_.size(); ++k) {
    for (const seam::CoinsViewOverlay* o : Overlays()) CheckEntry(*o, model_, 1, k, name);
  }
  seam::CoinsViewOverlay& writer = fetching_writes || block_->synced ? fetching_ : serial_;
  const ExpectedWrite expected = ExpectWrite(model_, 1);
  std::string error;
  try {
    writer.Flush(/*reallocate_cache=*/false);  // ConnectBlock's: the view is refilled by the next block
  } catch (const std::logic_error& e) {
    error = e.what();
  }
  const CoinsStackModel::Written written = model_.WriteDown(1, /*wipe=*/true);
  HARNESS_CHECK(!written.misapplied, "the model met a FRESH entry over an unspent coin: txids repeat");
  HARNESS_CHECK(error.empty(), "the overlay's Flush threw: ", error);
  ++blocks_written_;
  CheckWrite(writer, expected, 1, name);
  CheckEmpty(writer, "a flushed overlay");
  CheckTip(/*every_key=*/true);
  ResetOverlays();
}

bool OverlayTester::Apply(const OverlayStep& step) {
  if (!OverlayStep::Available(step.op)) return false;
  switch (step.op) {
#define HARNESS_OVERLAY_DISPATCH_(e, ...) \
  case OverlayOp::e: return Do(On<OverlayOp::e>{}, step);
    HARNESS_OVERLAY_OPS(HARNESS_OVERLAY_DISPATCH_)
#undef HARNESS_OVERLAY_DISPATCH_
    default: return false;
  }
}

bool OverlayTester::Do(On<OverlayOp::kFund>, const OverlayStep& step) {
  if (block_) return false;
  const Key k = *KeyOf(FundingOutpoints()[step.arg % kFunding]);
  const Coin& coin = CoinTable()[step.coin % kTableSize];
  // Misuse the base cannot detect (it takes a FRESH entry for a coin it has silently), as in CoinsTester.
  if (!step.overwrite && model_.Find(0, k) == nullptr && model_.Peek(0, k)) return false;
  log_.Add(step);
  const bool throws = model_.AddThrows(0, k, coin, step.overwrite);
  bool threw = false;
  try {
    tip_.AddCoin(OutpointOf(k), coin, step.overwrite);
  } catch (const std::logic_error&) {
    threw = true;
  }
  HARNESS_CHECK_EQ(threw, throws, "the tip's AddCoin throws exactly when it overwrites an unspent coin");
  if (!throws) model_.Add(0, k, coin, step.overwrite);
  CheckTip(/*every_key=*/false);
  CheckEntry(tip_, model_, 0, k, [this](Key key) -> const OutPoint& { return OutpointOf(key); });
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kTipSpend>, const OverlayStep& step) {
  if (block_) return false;
  log_.Add(step);
  const Key k = *KeyOf(FundingOutpoints()[step.arg % kFunding]);
  HARNESS_CHECK_EQ(tip_.SpendCoin(OutpointOf(k)), model_.Spend(0, k), "the tip's SpendCoin");
  CheckEntry(tip_, model_, 0, k, [this](Key key) -> const OutPoint& { return OutpointOf(key); });
  CheckTip(/*every_key=*/false);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kTipWrite>, const OverlayStep& step) {
  if (block_) return false;
  log_.Add(step);
  const bool wipe = step.arg & 1;
  const ExpectedWrite expected = ExpectWrite(model_, 0);
  wipe ? tip_.Flush() : tip_.Sync();
  CheckWrite(tip_, expected, 0, [this](Key key) -> const OutPoint& { return OutpointOf(key); });
  const CoinsStackModel::Written written = model_.WriteDown(0, wipe);
  HARNESS_CHECK(!written.misapplied, "a FRESH entry reached the base");
  HARNESS_CHECK(base_.GetBestBlock() == model_.BestBlock(-1), "the base's best block");
  CheckTip(/*every_key=*/true);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kBlock>, const OverlayStep& step) {
  if (block_ || blocks_ == 255) return false;
  if (!BuildBlock(step.txs)) return false;
  log_.Add(step);
  ++blocks_;
  const seam::HashedBlock block(block_->block);
  fetching_.StartFetching(block);
  serial_.StartFetching(block);
  CheckOverlays(std::nullopt, /*deep=*/false);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kConnect>, const OverlayStep& step) {
  if (!block_ || block_->invalid || block_->next == block_->block.vtx.size()) return false;
  log_.Add(step);
  block_->invalid = !ConnectNext();
  CheckOverlays(std::nullopt, /*deep=*/true);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kLookAhead>, const OverlayStep& step) {
  if (!block_) return false;
  std::vector<OutPoint> later;
  for (size_t i = std::max<size_t>(block_->next, 1); i < block_->block.vtx.size(); ++i) {
    for (const TxIn& in : block_->block.vtx[i].vin) later.push_back(in.prevout);
  }
  if (later.empty()) return false;
  log_.Add(step);
  const OutPoint& o = later[step.arg % later.size()];
  const Key k = *KeyOf(o);
  const ModelEntry* e = Fetch(k);
  const Coin want = e != nullptr && e->coin ? *e->coin : Coin{};
  for (seam::CoinsViewOverlay* ov : Overlays()) {
    const Coin got = ov->AccessCoin(o);
    HARNESS_CHECK(got == want, "AccessCoin of ", o.ToString(), " out of block order: subject ", got.ToString(),
                  ", model ", want.ToString());
  }
  CheckOverlays(k, /*deep=*/false);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kLookup>, const OverlayStep& step) {
  log_.Add(step);
  const Key k = static_cast<Key>(step.arg % outpoints_.size());
  const OutPoint& o = OutpointOf(k);
  const ModelEntry* e = Fetch(k);
  const bool want = e != nullptr && e->coin.has_value();
  for (seam::CoinsViewOverlay* ov : Overlays()) {
    HARNESS_CHECK_EQ(ov->HaveCoin(o), want, "HaveCoin of ", o.ToString(), " (", Name(ov), ")");
  }
  CheckOverlays(k, /*deep=*/false);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kPeek>, const OverlayStep& step) {
  log_.Add(step);
  const Key k = static_cast<Key>(step.arg % outpoints_.size());
  const OutPoint& o = OutpointOf(k);
  const std::optional<Coin> want = model_.Peek(1, k);
  for (const seam::CoinsViewOverlay* ov : Overlays()) {
    const std::optional<Coin> got = ov->PeekCoin(o);
    HARNESS_CHECK(got == want, "PeekCoin of ", o.ToString(), ": subject ", Render(got), ", model ", Render(want));
  }
  CheckOverlays(k, /*deep=*/false);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kBip30>, const OverlayStep& step) {
  if (!block_ || block_->next > 0) return false;
  log_.Add(step);
  for (size_t i = 0; i < block_->block.vtx.size() && !block_->invalid; ++i) {
    for (uint32_t n = 0; n < block_->block.vtx[i].vout.size(); ++n) {
      const Key k = *KeyOf(OutPoint{block_->txids[i], n});
      const ModelEntry* e = Fetch(k);
      const bool want = e != nullptr && e->coin.has_value();
      for (seam::CoinsViewOverlay* ov : Overlays()) {
        HARNESS_CHECK_EQ(ov->HaveCoin(OutpointOf(k)), want, "HaveCoin of output ", OutpointOf(k).ToString());
      }
      if (want) block_->invalid = true;  // bad-txns-BIP30
    }
  }
  CheckOverlays(std::nullopt, /*deep=*/true);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kEnd>, const OverlayStep& step) {
  if (!block_) return false;
  log_.Add(step);
  EndBlock(step.arg & 1);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kAbandon>, const OverlayStep& step) {
  log_.Add(step);
  ResetOverlays();
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kSync>, const OverlayStep& step) {
  if (!block_) return false;
  if (!KnownBugCheckRuns(KnownBug::kOverlaySyncRaces)) return false;
  log_.Add(step);
  const ExpectedWrite expected = ExpectWrite(model_, 1);
  fetching_.Sync();
  CheckWrite(fetching_, expected, 1, [this](Key key) -> const OutPoint& { return OutpointOf(key); });
  const CoinsStackModel::Written written = model_.WriteDown(1, /*wipe=*/false);
  HARNESS_CHECK(!written.misapplied, "the model met a FRESH entry over an unspent coin: txids repeat");
  block_->synced = true;
  CheckOverlays(std::nullopt, /*deep=*/true);
  CheckTip(/*every_key=*/true);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kGet>, const OverlayStep& step) { return DoNamed(step); }
bool OverlayTester::Do(On<OverlayOp::kInCache>, const OverlayStep& step) { return DoNamed(step); }
bool OverlayTester::Do(On<OverlayOp::kUncache>, const OverlayStep& step) { return DoNamed(step); }
bool OverlayTester::Do(On<OverlayOp::kEmplace>, const OverlayStep& step) { return DoNamed(step); }

bool OverlayTester::DoNamed(const OverlayStep& step) {
  log_.Add(step);
  ApplyToNamed(step);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kHaveInputs>, const OverlayStep& step) {
  if (!block_) return false;
  log_.Add(step);
  ApplyHaveInputs(block_->block.vtx[step.arg % block_->block.vtx.size()]);
  return true;
}

bool OverlayTester::Do(On<OverlayOp::kBaseReads>, const OverlayStep& step) {
  log_.Add(step);
  const std::vector<Hash256> heads = base_.GetHeadBlocks();
  const size_t estimate = base_.EstimateSize();
  for (const seam::CoinsViewOverlay* ov : Overlays()) {
    HARNESS_CHECK(ov->GetHeadBlocks() == heads, "GetHeadBlocks through the ", Name(ov), " and the tip");
    HARNESS_CHECK_EQ(ov->EstimateSize(), estimate, "EstimateSize through the ", Name(ov), " and the tip");
  }
  return true;
}

void OverlayTester::ApplyToNamed(const OverlayStep& step) {
  const Key k = static_cast<Key>(step.arg % outpoints_.size());
  const OutPoint& o = OutpointOf(k);
  switch (step.op) {
    case OverlayOp::kGet: {
      const ModelEntry* e = Fetch(k);
      const std::optional<Coin> want = e != nullptr ? e->coin : std::nullopt;
      for (seam::CoinsViewOverlay* ov : Overlays()) {
        const std::optional<Coin> got = ov->GetCoin(o);
        HARNESS_CHECK(got == want, "GetCoin of ", o.ToString(), " (", Name(ov), "): subject ", Render(got), ", model ",
                      Render(want));
      }
      break;
    }
    case OverlayOp::kInCache: {
      const ModelEntry* e = model_.Find(1, k);
      for (const seam::CoinsViewOverlay* ov : Overlays()) {
        HARNESS_CHECK_EQ(ov->HaveCoinInCache(o), e != nullptr && e->coin.has_value(), "HaveCoinInCache of ",
                         o.ToString(), " (", Name(ov), ")");
      }
      break;
    }
    case OverlayOp::kUncache:
      for (seam::CoinsViewOverlay* ov : Overlays()) ov->Uncache(o);
      model_.Uncache(1, k);
      break;
    case OverlayOp::kEmplace: {
      const Coin& coin = CoinTable()[step.coin % kTableSize];
      for (seam::CoinsViewOverlay* ov : Overlays()) ov->EmplaceCoinInternalDANGER(o, Coin(coin));
      model_.Emplace(1, k, coin);
      break;
    }
    default: return;
  }
  CheckOverlays(k, /*deep=*/step.op == OverlayOp::kEmplace);
}

void OverlayTester::ApplyHaveInputs(const embedded::Transaction& tx) {
  // HaveCoin of each input in order up to the first missing one; a coinbase has none to look up.
  const bool coinbase = tx.IsCoinBase();
  bool want = true;
  for (size_t i = 0; !coinbase && i < tx.vin.size() && want; ++i) {
    const ModelEntry* e = Fetch(*KeyOf(tx.vin[i].prevout));
    want = e != nullptr && e->coin.has_value();
  }
  for (seam::CoinsViewOverlay* ov : Overlays()) {
    HARNESS_CHECK_EQ(ov->HaveInputs(tx), want, "HaveInputs (", Name(ov), ")");
  }
  if (coinbase) return CheckOverlays(std::nullopt, /*deep=*/false);
  for (const TxIn& in : tx.vin) CheckOverlays(*KeyOf(in.prevout), /*deep=*/false);
}

void OverlayTester::CheckOverlays(std::optional<Key> k, bool deep) const {
  const KeyToOutpoint name = [this](Key key) -> const OutPoint& { return OutpointOf(key); };
  for (const seam::CoinsViewOverlay* o : Overlays()) {
    if (k) CheckEntry(*o, model_, 1, *k, name);
    CheckSizes(*o, model_, 1, deep);
    if (deep) CheckDirtyOrder(*o, model_, 1, name);
  }
  if (block_ && block_->synced) return;
  const bool consumed = Consumed();
  // A tree without Core's CoinsViewOverlay (#34165 #35295) queues nothing: the answer depends on that change.
  const observe::ChangeScope tag("coins_view_overlay");
  HARNESS_CHECK_EQ(fetching_.AllInputsConsumed(), consumed, "the fetching overlay's AllInputsConsumed (",
                   block_ ? block_->taken : 0, " of ", block_ && block_->fetches_ahead ? block_->queue.size() : 0,
                   " queued prevouts taken in block order)");
  HARNESS_CHECK(serial_.AllInputsConsumed(), "an overlay without threads queues nothing");
}

void OverlayTester::CheckTip(bool every_key) {
  const KeyToOutpoint name = [this](Key key) -> const OutPoint& { return OutpointOf(key); };
  CheckSizes(tip_, model_, 0, /*deep=*/true);
  CheckDirtyOrder(tip_, model_, 0, name);
  if (!every_key) return;
  for (Key k = 0; k < outpoints_.size(); ++k) CheckEntry(tip_, model_, 0, k, name);
  HARNESS_CHECK(tip_.GetBestBlock() == model_.ReadBestBlock(0), "the tip's best block");
}

void OverlayTester::CheckAll() {
  for (Key k = 0; k < outpoints_.size(); ++k) {
    CheckOverlays(k, /*deep=*/true);
    const auto in_base = base_.PeekCoin(OutpointOf(k));
    HARNESS_CHECK(in_base == model_.base(k), "base coin ", OutpointOf(k).ToString(), ": subject ", Render(in_base),
                  ", model ", Render(model_.base(k)));
  }
  CheckTip(/*every_key=*/true);
  HARNESS_CHECK_EQ(base_.coins().size(),
                   static_cast<size_t>(std::count_if(outpoints_.begin(), outpoints_.end(),
                                                     [&](const OutPoint& o) { return base_.coins().count(o) > 0; })),
                   "the base holds only outpoints the input named");
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
