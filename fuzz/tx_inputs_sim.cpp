// tx_inputs_sim: transactions built from a TxSpec (harness/tx_spec.h) — 0 to 3,000 inputs drawn from a small
// outpoint pool with heavy collisions (duplicates, zero hashes with several indexes, null prevouts in any
// position, coinbase shapes), boundary output values, witness shapes and sizes at the oversize limit — and
// checked by CheckTx: verdict and reason against the reference, serialization and the parse round trip.
#include "byte_source.h"
#include "fuzz.h"
#include "tx_spec.h"
#include "tx_tester.h"

FUZZ_TARGET(tx_inputs_sim) {
  ByteSource src(buffer);
  const harness::TxSpec spec = harness::DrawTxSpec(src, /*max_inputs=*/3000);
  harness::OpLog<harness::TxSpec> log;
  log.Add(spec);
  harness::CheckTx(harness::BuildTx(spec));
}

namespace {

// The most bytes DrawTxSpec takes from a ByteSource (harness/tx_spec.h), on its longest path: version,
// locktime and size class (3), the count of a long list (a 1-byte class and 2 bytes for 301..max_inputs),
// fill, seed, width and edit count (4), kMaxEdits edits of a kind and two 2-byte positions (an index
// below 3,000 needs 2 bytes), scriptSig length (1), output count (2), kMaxOutputs values (1 each), witness
// shape and pad (2). Bytes past it are never read.
constexpr size_t kMaxTxSpecBytes =
    3 + 3 + 4 + harness::TxSpec::kMaxEdits * 5 + 1 + 2 + harness::TxSpec::kMaxOutputs + 2;

}  // namespace

FUZZ_TARGET_INFO(tx_inputs_sim) {
  fuzz::TargetInfo info;
  info.max_len = kMaxTxSpecBytes;
  // Every byte string is a valid spec and each choice is a byte modulo its range, so tokens can only bias
  // choices: the witness shapes (whose IDs are also the input fills').
  info.AddEnum<harness::WitnessShape>("witness", harness::kWitnessShapeCount, harness::ToString);
  return info;
}
