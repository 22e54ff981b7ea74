#include "tx_check_ref.h"

#include <algorithm>
#include <cstring>
#include <memory_resource>
#include <set>

#include "check.h"
#include "wire_fields.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code throughout
namespace {

// Writes the wire format to `out`, or only counts the bytes when `out` is null (the oversize rules need
// sizes, and a megabyte-sized copy per check would dominate the fuzzers' time). `out` must have room.
class Writer {
 public:
  explicit Writer(uint8_t* out) : out_(out) {}
  size_t size() const { return size_; }

  void Put(const uint8_t* data, size_t n) {
    if (out_ != nullptr && n > 0) std::memcpy(out_ + size_, data, n);
    size_ += n;
  }

 private:
  uint8_t* out_;
  size_t size_ = 0;
};

// Counts, allocates, writes.
template <typename T>
std::vector<uint8_t> Serialize(const T& object, bool with_witness, void (*put)(Writer&, const T&, bool)) {
  Writer counter(nullptr);
  put(counter, object, with_witness);
  std::vector<uint8_t> out(counter.size());
  Writer writer(out.data());
  put(writer, object, with_witness);
  return out;
}

// Hash bytes in order, then the index: written out as a loop, independent of Hash256's operators. Not
// inlined, so that it stays uninstrumented inside std::set's (instrumented) template code: a byte loop
// traced per comparison, or memcmp's fuzzer hook, cost more than the rest of a 3,000-input check.
struct OutPointLess {
  [[gnu::noinline]] bool operator()(const OutPoint& a, const OutPoint& b) const {
    for (size_t i = 0; i < a.txid.bytes.size(); ++i) {
      if (a.txid.bytes[i] != b.txid.bytes[i]) return a.txid.bytes[i] < b.txid.bytes[i];
    }
    return a.n < b.n;
  }
};

// The prevouts seen so far: a std::set whose nodes come from one arena per check, in blocks that grow
// geometrically from room for a few nodes. Under ASan a heap block per input was the reference's largest
// cost (a 3,000-input transaction: 3,000 allocations); the set is the same.
class PrevoutSet {
 public:
  // False if `p` was already in the set.
  bool Insert(const OutPoint& p) { return set_.insert(p).second; }

 private:
  std::pmr::monotonic_buffer_resource arena_{256};
  std::pmr::set<OutPoint, OutPointLess> set_{&arena_};
};

bool IsNullRef(const OutPoint& p) {
  return p.n == 0xffffffff && std::all_of(p.txid.bytes.begin(), p.txid.bytes.end(), [](uint8_t b) { return b == 0; });
}

bool IsCoinBaseRef(const Transaction& tx) { return tx.vin.size() == 1 && IsNullRef(tx.vin[0].prevout); }

}  // namespace

std::vector<uint8_t> SerializeTransactionRef(const Transaction& tx, bool with_witness) {
  return Serialize(tx, with_witness, PutTransaction<Writer>);
}

std::vector<uint8_t> SerializeBlockRef(const Block& block, bool with_witness) {
  return Serialize(block, with_witness, PutBlock<Writer>);
}

size_t SerializedSizeRef(const Transaction& tx, bool with_witness) {
  Writer counter(nullptr);
  PutTransaction(counter, tx, with_witness);
  return counter.size();
}

size_t SerializedSizeRef(const Block& block, bool with_witness) {
  Writer counter(nullptr);
  PutBlock(counter, block, with_witness);
  return counter.size();
}

std::string_view CheckTransactionRef(const Transaction& tx) {
  constexpr int64_t kMaxMoneyRef = 2'100'000'000'000'000;  // 21,000,000 coins of 10^8 satoshis
  if (tx.vin.empty()) return "bad-txns-vin-empty";
  if (tx.vout.empty()) return "bad-txns-vout-empty";
  if (SerializedSizeRef(tx, false) * 4 > 4'000'000) return "bad-txns-oversize";
  int64_t total = 0;
  for (const TxOut& txout : tx.vout) {
    if (txout.value < 0) return "bad-txns-vout-negative";
    if (txout.value > kMaxMoneyRef) return "bad-txns-vout-toolarge";
    total += txout.value;
    if (total > kMaxMoneyRef) return "bad-txns-txouttotal-toolarge";
  }
  PrevoutSet seen;
  for (const TxIn& txin : tx.vin) {
    if (!seen.Insert(txin.prevout)) return "bad-txns-inputs-duplicate";
  }
  if (IsCoinBaseRef(tx)) {
    const size_t length = tx.vin[0].script_sig.size();
    if (length < 2 || length > 100) return "bad-cb-length";
  } else {
    for (const TxIn& txin : tx.vin) {
      if (IsNullRef(txin.prevout)) return "bad-txns-prevout-null";
    }
  }
  return "";
}

size_t LegacySigOpsRef(std::span<const uint8_t> script) {
  constexpr uint8_t kPushData1 = 0x4c, kPushData2 = 0x4d, kPushData4 = 0x4e;
  constexpr uint8_t kCheckSig = 0xac, kCheckSigVerify = 0xad, kCheckMultiSig = 0xae, kCheckMultiSigVerify = 0xaf;
  constexpr size_t kMultiSigOps = 20;  // the most keys a legacy multisig may name, counted without looking
  size_t count = 0;
  size_t pos = 0;
  while (pos < script.size()) {
    const uint8_t op = script[pos++];
    if (op <= kPushData4) {
      size_t length = op;
      size_t width = 0;  // bytes of the length field
      if (op == kPushData1) width = 1;
      if (op == kPushData2) width = 2;
      if (op == kPushData4) width = 4;
      if (width > 0) {
        if (script.size() - pos < width) break;
        length = 0;
        for (size_t i = 0; i < width; ++i) length |= size_t{script[pos + i]} << (8 * i);
        pos += width;
      }
      if (script.size() - pos < length) break;
      pos += length;
    } else if (op == kCheckSig || op == kCheckSigVerify) {
      count += 1;
    } else if (op == kCheckMultiSig || op == kCheckMultiSigVerify) {
      count += kMultiSigOps;
    }
  }
  return count;
}

BlockVerdictRef CheckBlockRef(const Block& block, bool sigops_limit, bool spends) {
  if (block.vtx.empty() || SerializedSizeRef(block, false) * 4 > 4'000'000) return {"bad-blk-length"};
  if (!IsCoinBaseRef(block.vtx[0])) return {"bad-cb-missing", 0};
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    if (IsCoinBaseRef(block.vtx[i])) return {"bad-cb-multiple", i};
  }
  for (size_t i = 0; i < block.vtx.size(); ++i) {
    const std::string_view reason = CheckTransactionRef(block.vtx[i]);
    if (!reason.empty()) return {reason, i};
  }
  if (sigops_limit) {
    size_t sigops = 0;
    for (const Transaction& tx : block.vtx) {
      for (const TxIn& txin : tx.vin) sigops += LegacySigOpsRef(txin.script_sig);
      for (const TxOut& txout : tx.vout) sigops += LegacySigOpsRef(txout.script_pubkey);
    }
    if (sigops * 4 > 80'000) return {"bad-blk-sigops"};
  }
  if (!spends) return {};
  PrevoutSet spent;
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    for (const TxIn& txin : block.vtx[i].vin) {
      if (!spent.Insert(txin.prevout)) return {"bad-txns-inputs-missingorspent", i};
    }
  }
  return {};
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
