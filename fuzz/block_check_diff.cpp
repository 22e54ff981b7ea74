// block_check_diff: blocks of up to 8 transactions (of up to 16 inputs) built from a BlockSpec
// (harness/tx_spec.h), whose inputs come from one shared outpoint pool, so that one transaction or two
// spend the same outpoint, a coinbase is missing or repeated, and one bad transaction hides among good
// ones. CheckBlockCase: CheckBlock's reason and transaction index against the reference, serialization
// and the parse round trip.
#include "byte_source.h"
#include "fuzz.h"
#include "tx_spec.h"
#include "tx_tester.h"

FUZZ_TARGET(block_check_diff) {
  ByteSource src(buffer);
  const harness::BlockSpec spec = harness::DrawBlockSpec(src);
  harness::OpLog<harness::BlockSpec> log;
  log.Add(spec);
  harness::CheckBlockCase(harness::BuildBlock(spec));
}

namespace {

// The most bytes DrawBlockSpec takes from a ByteSource (harness/tx_spec.h): the header seed (4), the
// transaction count (2), the coinbase-or-not choice (1), and kMaxTxs transactions of at most 16 inputs, each
// at most: version, locktime, size class and count (4), fill, seed, width and edit count (4), kMaxEdits
// edits of three 1-byte fields, scriptSig length (1), output count (2), kMaxOutputs values, witness shape
// and pad (2); then the block's pad (1). Bytes past it are never read.
constexpr size_t kMaxTxBytes = 4 + 4 + harness::TxSpec::kMaxEdits * 3 + 1 + 2 + harness::TxSpec::kMaxOutputs + 2;
constexpr size_t kMaxBlockSpecBytes = 4 + 2 + 1 + harness::BlockSpec::kMaxTxs * kMaxTxBytes + 1;

}  // namespace

FUZZ_TARGET_INFO(block_check_diff) {
  fuzz::TargetInfo info;
  info.max_len = kMaxBlockSpecBytes;
  // As tx_inputs_sim: every byte string is a valid spec, so tokens can only bias choices.
  info.AddEnum<harness::WitnessShape>("witness", harness::kWitnessShapeCount, harness::ToString);
  return info;
}
