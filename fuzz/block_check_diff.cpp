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
