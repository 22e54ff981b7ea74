#include "tx_spec.h"

#include <limits>

#include "rng.h"
#include "seam/tx_check.h"
#include "tx_check_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // test-case construction: mechanics, not the subject
namespace {

Hash256 HashFromBytes(std::initializer_list<std::pair<size_t, uint8_t>> set_bytes) {
  Hash256 h;
  for (const auto& [at, value] : set_bytes) h.bytes[at] = value;
  return h;
}

// A hash that is neither zero nor near any pool entry.
Hash256 DerivedHash(uint64_t key) {
  Rng rng(key * 0x2545f4914f6cdd1d + 0x1234567);
  Hash256 h;
  for (size_t i = 0; i < h.bytes.size(); i += 8) {
    const uint64_t word = rng.Next();
    for (size_t k = 0; k < 8; ++k) h.bytes[i + k] = static_cast<uint8_t>(word >> (8 * k));
  }
  h.bytes[0] |= 0x10;  // never zero
  return h;
}

// The boundaries of the value rules: 0, 1, MAX_MONEY and its neighbours, halves and thirds that sum to it
// exactly or one over, negative values, the int64 extremes.
constexpr std::array<int64_t, TxSpec::kValueCount> kValues = {
    0,
    1,
    546,
    50 * kCoin,
    kMaxMoney,
    kMaxMoney - 1,
    kMaxMoney + 1,
    kMaxMoney / 2,
    kMaxMoney / 2 + 1,
    -1,
    std::numeric_limits<int64_t>::min(),
    std::numeric_limits<int64_t>::max(),
    kMaxMoney / 3,
    kCoin,
    -kMaxMoney,
    2 * kMaxMoney,
};

// Input 0's scriptSig length: around both ends of the coinbase rule (2..100).
constexpr std::array<uint16_t, TxSpec::kScriptSigCount> kScriptSigLengths = {0, 1, 2, 3, 40, 99, 100, 101, 150};

// Output scripts by position: P2WPKH, a witness commitment (OP_RETURN, 38 bytes: on the heap), P2PKH, empty.
Script OutputScript(size_t position) {
  switch (position) {
    case 0: {
      Script s(22, 0x5a);
      s[0] = 0x00;
      s[1] = 0x14;
      return s;
    }
    case 1: {
      Script s(38, 0x77);
      const uint8_t head[] = {0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed};
      std::copy(std::begin(head), std::end(head), s.begin());
      return s;
    }
    case 2: {
      Script s(25, 0x3c);
      const uint8_t head[] = {0x76, 0xa9, 0x14};
      std::copy(std::begin(head), std::end(head), s.begin());
      s[23] = 0x88;
      s[24] = 0xac;
      return s;
    }
    default: return Script();
  }
}

OutPoint FillOutpoint(const TxSpec& spec, size_t i) {
  switch (spec.fill) {
    case InputFill::kPool: return OutpointPool()[spec.picks[i] % kPoolSize];
    case InputFill::kDistinct: return {DerivedHash(uint64_t{spec.seed} << 32 | i), static_cast<uint32_t>(i % 3)};
    case InputFill::kFamilies: {
      const size_t width = std::max<size_t>(spec.width, 1);
      return {DerivedHash(uint64_t{spec.seed} << 32 | i / width), static_cast<uint32_t>(i % width)};
    }
    case InputFill::kZeroRun: return {Hash256{}, static_cast<uint32_t>(spec.seed % 2 ? i : 0xfffffffe - i)};
  }
  return {};
}

// The script a pad grows: output 0's, else input 0's scriptSig; none for an empty transaction.
Script* PadScript(Transaction& tx) {
  if (!tx.vout.empty()) return &tx.vout[0].script_pubkey;
  if (!tx.vin.empty()) return &tx.vin[0].script_sig;
  return nullptr;
}

// 1, 2, 3: just under, at and just over the 1,000,000-byte limit; 0: no pad.
size_t PadTarget(uint8_t pad) { return 1000000 + pad - 2; }

std::string Join(const uint8_t* values, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += (i ? " " : "") + std::to_string(values[i]);
  return out;
}

}  // namespace

void PadTo(Script& bytes, size_t size, size_t target) {
  if (size >= target) return;
  const size_t with_prefix = bytes.size() + CompactSizeLength(bytes.size()) + (target - size);
  for (const size_t prefix : {1, 3, 5, 9}) {
    const size_t length = with_prefix - prefix;
    if (with_prefix >= prefix && CompactSizeLength(length) == prefix) {
      const size_t old_size = bytes.size();
      bytes.resize_uninitialized(static_cast<Script::size_type>(length));
      const size_t grown = length - old_size;
      constexpr uint8_t kOpPushData4 = 0x4e;  // then the data's length in 4 little-endian bytes
      if (grown >= 5) {
        uint8_t* push = bytes.data() + old_size;
        push[0] = kOpPushData4;
        for (size_t i = 0; i < 4; ++i) push[1 + i] = static_cast<uint8_t>((grown - 5) >> (8 * i));
      }
      return;
    }
  }
}

const std::array<OutPoint, kPoolSize>& OutpointPool() {
  static const std::array<OutPoint, kPoolSize> pool = [] {
    const Hash256 zero;
    const Hash256 low = HashFromBytes({{31, 0x01}});  // zero but for the last byte: sorts after the zero run
    const Hash256 high = HashFromBytes({{0, 0x01}});  // zero but for the first byte
    const Hash256 a = DerivedHash(1000);
    Hash256 a_last = a;  // a, but for the last byte
    a_last.bytes[31] ^= 0x01;
    Hash256 a_first = a;  // a, but for the first byte
    a_first.bytes[0] ^= 0x80;
    Hash256 ones;
    ones.bytes.fill(0xff);
    return std::array<OutPoint, kPoolSize>{{
        {zero, kNullIndex},  // 0: null
        {zero, 0},
        {zero, 1},
        {zero, 0x7fffffff},
        {zero, 0xfffffffe},
        {low, kNullIndex},
        {low, 0},
        {high, kNullIndex},
        {high, 0},
        {a, 0},
        {a, 1},
        {a, 2},
        {a, kNullIndex},
        {a_last, 0},
        {a_last, 1},
        {a_first, 0},
        {ones, kNullIndex},
        {ones, 0},
        {DerivedHash(1001), 0},
        {DerivedHash(1001), 1},
        {DerivedHash(1002), 0},
        {DerivedHash(1003), 0},
        {DerivedHash(1004), 0},
        {DerivedHash(1005), 0},
        {DerivedHash(1006), 7},
        {DerivedHash(1007), 0},
        {DerivedHash(1008), 0},
        {DerivedHash(1009), 0},
        {DerivedHash(1010), 0},
        {DerivedHash(1011), 0},
        {DerivedHash(1012), 0},
        {DerivedHash(1013), 0},
    }};
  }();
  return pool;
}

std::string TxSpec::ToString() const {
  std::string out = "Tx(inputs=" + std::to_string(inputs) + ", fill=" + harness::ToString(fill);
  if (fill == InputFill::kPool) {
    out += ", picks=[" + Join(picks.data(), std::min<size_t>(inputs, kMaxPicks)) + "]";
  } else {
    out += ", seed=" + std::to_string(seed) + ", width=" + std::to_string(width) + ", edits=[";
    for (size_t i = 0; i < edit_count && i < kMaxEdits; ++i) {
      const InputEdit& e = edits[i];
      out += (i ? " " : "") + std::to_string(e.at) + "=" + harness::ToString(e.kind) + std::to_string(e.from);
    }
    out += "]";
  }
  out += ", script_sig=" + std::to_string(kScriptSigLengths[script_sig % kScriptSigCount]) + "B, values=[";
  for (size_t i = 0; i < outputs && i < kMaxOutputs; ++i) {
    out += (i ? " " : "") + std::to_string(kValues[values[i] % kValueCount]);
  }
  out += "], witness=" + std::string(harness::ToString(witness)) + ", pad=" + std::to_string(pad) +
         ", version=" + std::to_string(version) + ", locktime=" + std::to_string(locktime) + ")";
  return out;
}

std::string BlockSpec::ToString() const {
  std::string out = "Block(header_seed=" + std::to_string(header_seed) + ", txs=" + std::to_string(txs) +
                    ", pad=" + std::to_string(pad) + ")";
  for (size_t i = 0; i < txs && i < kMaxTxs; ++i) out += "\n    tx " + std::to_string(i) + ": " + tx[i].ToString();
  return out;
}

TxSpec CoinbaseSpec(uint8_t script_sig, uint8_t outputs) {
  TxSpec s;
  s.inputs = 1;
  s.fill = InputFill::kPool;
  s.picks[0] = kPoolNull;
  s.script_sig = script_sig;
  s.outputs = outputs;
  return s;
}

Transaction BuildTx(const TxSpec& spec) {
  Transaction tx;
  tx.version = spec.version;
  tx.locktime = spec.locktime;
  const size_t n = spec.fill == InputFill::kPool ? std::min<size_t>(spec.inputs, TxSpec::kMaxPicks) : spec.inputs;
  tx.vin.resize(n);
  for (size_t i = 0; i < n; ++i) {
    tx.vin[i].prevout = FillOutpoint(spec, i);
    tx.vin[i].sequence = i % 2 ? 0xfffffffd : 0xffffffff;
  }
  for (size_t i = 0; i < spec.edit_count && i < TxSpec::kMaxEdits && n > 0; ++i) {
    const InputEdit& e = spec.edits[i];
    tx.vin[e.at % n].prevout =
        e.kind == EditKind::kPool ? OutpointPool()[e.from % kPoolSize] : tx.vin[e.from % n].prevout;
  }
  if (n > 0) tx.vin[0].script_sig.assign(kScriptSigLengths[spec.script_sig % TxSpec::kScriptSigCount], 0x51);
  tx.vout.reserve(spec.outputs);
  for (size_t i = 0; i < spec.outputs && i < TxSpec::kMaxOutputs; ++i) {
    tx.vout.push_back({kValues[spec.values[i] % TxSpec::kValueCount], OutputScript(i)});
  }
  switch (spec.witness) {
    case WitnessShape::kNone: break;
    case WitnessShape::kSpends:
      for (size_t i = 0; i < n && i < 2; ++i) {
        tx.vin[i].witness = {std::vector<uint8_t>(72, static_cast<uint8_t>(0x30 + i)), std::vector<uint8_t>(33, 0x02)};
      }
      break;
    case WitnessShape::kOneEmptyItem:
      if (n > 0) tx.vin[0].witness = {{}};
      break;
    case WitnessShape::kReservedValue:
      if (n > 0) tx.vin[n - 1].witness = {std::vector<uint8_t>(32, 0)};
      break;
  }
  Script* pad = PadScript(tx);
  if (spec.pad >= 1 && spec.pad <= 3 && pad != nullptr) PadTo(*pad, SerializedSizeRef(tx, false), PadTarget(spec.pad));
  return tx;
}

Block BuildBlock(const BlockSpec& spec) {
  Block block;
  Rng rng(spec.header_seed);
  block.header.version = static_cast<int32_t>(0x20000000 | (rng.Next() & 0xff));
  block.header.prev_block = DerivedHash(rng.Next());
  block.header.merkle_root = DerivedHash(rng.Next());
  block.header.time = static_cast<uint32_t>(rng.Next());
  block.header.bits = 0x1703a30c;
  block.header.nonce = static_cast<uint32_t>(rng.Next());
  for (size_t i = 0; i < spec.txs && i < BlockSpec::kMaxTxs; ++i) block.vtx.push_back(BuildTx(spec.tx[i]));
  Script* pad = block.vtx.empty() ? nullptr : PadScript(block.vtx.back());
  if (spec.pad >= 1 && spec.pad <= 3 && pad != nullptr) {
    PadTo(*pad, SerializedSizeRef(block, false), PadTarget(spec.pad));
  }
  return block;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
