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
