// Real-world-shaped transactions, built by hand from the standard script templates (no bytes copied from
// any chain): a legacy P2PKH spend, a segwit P2WPKH spend, a coinbase with a witness commitment, and a
// many-input consolidation. They seed corpus/tx_check_diff/ and the txcheck samples, and the unit tests
// pin their verdicts and round trips. All are valid; signatures and keys are well-formed in shape only.
#pragma once

#include <string>
#include <vector>

#include "seam/types.h"

namespace harness {

struct TxSample {
  std::string name;
  Transaction tx;
};

std::vector<TxSample> SampleTransactions();

}  // namespace harness
