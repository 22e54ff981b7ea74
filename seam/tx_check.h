// Seam: context-free transaction and block checks (Bitcoin Core's CheckTransaction in
// consensus/tx_check.cpp and CheckBlock in validation.cpp without proof-of-work and merkle checks).
//
// Contract (docs/semantics.md, "Transaction checks"): CheckTransaction(tx) returns the first failing
// Reject reason in the documented order (kOk when none); CheckBlock(block) returns a BlockCheck naming the
// first failing reason and the offending transaction.
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/tx_check.h"
namespace seam {
using core_adapter::BlockCheck;
using core_adapter::CheckBlock;
using core_adapter::CheckTransaction;
using core_adapter::Reject;
}  // namespace seam
#else
#include "src/tx/check.h"
namespace seam {
using embedded::BlockCheck;
using embedded::CheckBlock;
using embedded::CheckTransaction;
using embedded::kMaxBlockWeight;
using embedded::kMaxCoinbaseScriptSig;
using embedded::kMinCoinbaseScriptSig;
using embedded::kWitnessScaleFactor;
using embedded::Reason;
using embedded::Reject;
}  // namespace seam
#endif
