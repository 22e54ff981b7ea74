// TxSpec and BlockSpec: transactions and blocks described by a few small choices — indexes into an outpoint
// pool with heavy collisions, fill patterns for long input lists, edits that plant duplicates and null or
// zero-hash prevouts at any position, indexes into value and length tables — so that fuzz bytes (or a
// seeded Rng) are spent on structure, never on bulk. Build*() turns a spec into the transaction or block.
//
// The pool (kPoolSize outpoints) has the null prevout; the zero hash with indexes 0, 1, 0x7fffffff and
// 0xfffffffe (not null); hashes one bit away from zero at either end (sorting right after the zero run);
// hashes sharing all but one byte; and a hash with several indexes including 0xffffffff. Long input lists
// start from a fill (distinct hashes; families sharing a hash over several indexes; a run of zero hashes)
// and then take up to kMaxEdits edits, each setting one input to a pool entry or to a copy of another input.
//
// Drawing (DrawTxSpec, DrawBlockSpec) takes any Source with `uint64_t Range(lo, hi)`: the fuzz targets pass
// their input bytes (fuzz/byte_source.h), the unit tests harness::Rng. Input counts are biased toward 1 to 3
// inputs (the subject's special cases) and small lists, with occasional lists of up to `max_inputs` (3,000).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "check.h"
#include "op_list.h"
#include "seam/types.h"

namespace harness {

inline constexpr size_t kPoolSize = 32;
const std::array<OutPoint, kPoolSize>& OutpointPool();
// Pool entry 0 is the null prevout (the coinbase's).
inline constexpr uint8_t kPoolNull = 0;

// Stable IDs (append only). X(enumerator, id, name).
// clang-format off
#define HARNESS_INPUT_FILLS(X)                                                                                         \
  X(kPool, 0, "pool")         /* input i is pool[picks[i]]; only for up to TxSpec::kMaxPicks inputs */                 \
  X(kDistinct, 1, "distinct") /* input i has its own hash (derived from seed and i), index i % 3 */                    \
  X(kFamilies, 2, "families") /* inputs in families of `width` sharing one hash, with indexes 0 .. width-1 */          \
  X(kZeroRun, 3, "zero-run")  /* input i is the zero hash with index i (seed odd) or 0xfffffffe - i (seed even) */     \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_ENUM(InputFill, kInputFillCount, HARNESS_INPUT_FILLS)

// Named after where the new prevout comes from.
// clang-format off
#define HARNESS_EDIT_KINDS(X)                                                                                          \
  X(kPool, 0, "pool")  /* inputs[at % n] = pool[from % kPoolSize] */                                                   \
  X(kCopy, 1, "input") /* inputs[at % n] = inputs[from % n] (as edited so far) */                                      \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_ENUM(EditKind, kEditKindCount, HARNESS_EDIT_KINDS)

struct InputEdit {
  EditKind kind = EditKind::kPool;
  uint16_t at = 0;
  uint16_t from = 0;
};

// clang-format off
#define HARNESS_WITNESS_SHAPES(X)                                                                                      \
  X(kNone, 0, "none")                                                                                                  \
  /* the first (up to 2) inputs carry [72-byte signature, 33-byte key], as P2WPKH */                                   \
  X(kSpends, 1, "spends")                                                                                              \
  /* input 0 carries a stack of one empty item (a witness, though an empty one) */                                     \
  X(kOneEmptyItem, 2, "one-empty-item")                                                                                \
  /* the last input carries one 32-byte zero item (a coinbase's witness reserved value) */                             \
  X(kReservedValue, 3, "reserved-value")                                                                               \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_ENUM(WitnessShape, kWitnessShapeCount, HARNESS_WITNESS_SHAPES)

struct TxSpec {
  // Pool picks are spent on up to this many inputs; longer lists use a fill plus edits.
  static constexpr size_t kMaxPicks = 8;
  static constexpr size_t kMaxEdits = 16;
  static constexpr size_t kMaxOutputs = 4;
  // Value and scriptSig length tables (see tx_spec.cpp): the boundaries of every rule of docs/semantics.md §4.
  static constexpr size_t kValueCount = 16;
  static constexpr size_t kScriptSigCount = 9;

  int32_t version = 2;
  uint32_t locktime = 0;
  uint16_t inputs = 0;
  InputFill fill = InputFill::kPool;
  uint8_t seed = 0;   // distinguishes the hashes of kDistinct and kFamilies fills (equal seeds collide)
  uint8_t width = 2;  // kFamilies: inputs per hash
  std::array<uint8_t, kMaxPicks> picks{};
  uint8_t edit_count = 0;
  std::array<InputEdit, kMaxEdits> edits{};
  uint8_t script_sig = 0;  // input 0's scriptSig length, as an index into the length table
  uint8_t outputs = 0;
  std::array<uint8_t, kMaxOutputs> values{};  // indexes into the value table
  WitnessShape witness = WitnessShape::kNone;
  // 0: none; 1, 2, 3: grow output 0's script (or, without outputs, input 0's scriptSig) until the size
  // without witness is 1,000,000 - 1, 1,000,000 or 1,000,000 + 1 bytes: just under, at and over the limit.
  uint8_t pad = 0;

  std::string ToString() const;
};

struct BlockSpec {
  static constexpr size_t kMaxTxs = 8;

  uint32_t header_seed = 0;
  uint8_t txs = 0;
  std::array<TxSpec, kMaxTxs> tx{};
  // As TxSpec::pad, for the block's size: grows the last transaction (the transactions' own pads are 0).
  uint8_t pad = 0;

  std::string ToString() const;
};

Transaction BuildTx(const TxSpec& spec);
Block BuildBlock(const BlockSpec& spec);

// A coinbase-shaped spec: one null input, the scriptSig length from the table, the given outputs.
TxSpec CoinbaseSpec(uint8_t script_sig, uint8_t outputs);

// A megabyte-sized object now and then.
template <typename Source>
HARNESS_NO_FUZZ_COVERAGE uint8_t DrawPad(Source& src) {
  const uint64_t pad = src.Range(0, 255);
  return static_cast<uint8_t>(pad >= 253 ? pad - 252 : 0);
}

template <typename Source>
HARNESS_NO_FUZZ_COVERAGE TxSpec DrawTxSpec(Source& src, uint16_t max_inputs) {
  TxSpec s;
  s.version = static_cast<int32_t>(src.Range(0, 3));
  s.locktime = static_cast<uint32_t>(src.Range(0, 1) ? 0 : 500000000);
  // 1 to 3 inputs (the subject's special cases) most often, then pool-sized lists, then fills. Lists past
  // 300 inputs cost milliseconds under ASan (the reference's std::set alone allocates per input), so they
  // take a second, rarer choice.
  const uint64_t size_class = src.Range(0, 63);
  if (size_class == 0) {
    s.inputs = 0;
  } else if (size_class <= 36) {
    s.inputs = static_cast<uint16_t>(1 + (size_class - 1) / 12);
  } else if (size_class <= 52) {
    s.inputs = static_cast<uint16_t>(src.Range(4, TxSpec::kMaxPicks));
  } else if (size_class <= 61 || max_inputs <= 64) {
    s.inputs = static_cast<uint16_t>(src.Range(TxSpec::kMaxPicks + 1, std::min<uint16_t>(64, max_inputs)));
  } else if (max_inputs <= 300 || src.Range(0, 15) != 0) {
    s.inputs = static_cast<uint16_t>(src.Range(65, std::min<uint16_t>(300, max_inputs)));
  } else {
    s.inputs = static_cast<uint16_t>(src.Range(301, max_inputs));
  }
  if (s.inputs <= TxSpec::kMaxPicks) {
    s.fill = InputFill::kPool;
    for (size_t i = 0; i < s.inputs; ++i) s.picks[i] = static_cast<uint8_t>(src.Range(0, kPoolSize - 1));
  } else {
    s.fill = static_cast<InputFill>(src.Range(1, kInputFillCount - 1));  // every fill but kPool
    s.seed = static_cast<uint8_t>(src.Range(0, 3));
    s.width = static_cast<uint8_t>(src.Range(2, 8));
    s.edit_count = static_cast<uint8_t>(src.Range(0, TxSpec::kMaxEdits));
    for (size_t i = 0; i < s.edit_count; ++i) {
      InputEdit& e = s.edits[i];
      e.kind = static_cast<EditKind>(src.Range(0, kEditKindCount - 1));
      e.at = static_cast<uint16_t>(src.Range(0, s.inputs - 1));
      e.from = static_cast<uint16_t>(src.Range(0, e.kind == EditKind::kPool ? kPoolSize - 1 : s.inputs - 1));
    }
  }
  s.script_sig = static_cast<uint8_t>(src.Range(0, TxSpec::kScriptSigCount - 1));
  s.outputs = static_cast<uint8_t>(src.Range(0, 7) == 0 ? 0 : src.Range(1, TxSpec::kMaxOutputs));
  for (size_t i = 0; i < s.outputs; ++i) s.values[i] = static_cast<uint8_t>(src.Range(0, TxSpec::kValueCount - 1));
  s.witness = static_cast<WitnessShape>(src.Range(0, kWitnessShapeCount - 1));
  s.pad = DrawPad(src);
  return s;
}

// Transaction 0 is coinbase-shaped most of the time; later ones draw from the whole TxSpec space with a
// smaller input bound (a pool pick of the null entry as their only input makes a second coinbase).
template <typename Source>
HARNESS_NO_FUZZ_COVERAGE BlockSpec DrawBlockSpec(Source& src) {
  constexpr uint16_t kMaxBlockTxInputs = 16;  // block rules need several transactions, not long ones
  BlockSpec b;
  b.header_seed = static_cast<uint32_t>(src.Range(0, 0xffffffff));
  b.txs = static_cast<uint8_t>(src.Range(0, 15) == 0 ? 0 : src.Range(1, BlockSpec::kMaxTxs));
  for (size_t i = 0; i < b.txs; ++i) {
    if (i == 0 && src.Range(0, 7) != 0) {
      b.tx[0] = CoinbaseSpec(static_cast<uint8_t>(src.Range(0, TxSpec::kScriptSigCount - 1)),
                             static_cast<uint8_t>(src.Range(1, 2)));
      b.tx[0].values[0] = static_cast<uint8_t>(src.Range(0, TxSpec::kValueCount - 1));
      b.tx[0].witness = src.Range(0, 1) ? WitnessShape::kReservedValue : WitnessShape::kNone;
    } else {
      b.tx[i] = DrawTxSpec(src, kMaxBlockTxInputs);
      b.tx[i].pad = 0;
    }
  }
  b.pad = DrawPad(src);
  return b;
}

// Grows `bytes` (a scriptSig or script inside an object whose size without witness is `size`) so that the size
// becomes `target`; no change when it is already that large. The length prefix may grow with the script: pick the
// length whose prefix makes the total exact. The new bytes (five or more) are one push (OP_PUSHDATA4 and its
// length), so a script parser (Core's signature-operation count, the reference's) that reaches them steps over them
// at once instead of opcode by opcode. The pushed data is left unwritten (zeroing a megabyte per input was most of a
// fuzzer's time): the transaction tester copies and compares byte-wise only objects under kMaxCopiedBytes
// (tx_tester.cpp); a caller that serializes the object writes them first.
void PadTo(Script& bytes, size_t size, size_t target);

}  // namespace harness
