// Seam: context-free transaction and block checks (Bitcoin Core's CheckTransaction in
// consensus/tx_check.cpp and CheckBlock in validation.cpp without proof-of-work and merkle checks), and the
// subject's own transaction wire codec.
//
// Contract (docs/semantics.md §4):
//   CheckTransaction(tx)     the first failing Reject reason in the documented order (kNone when none).
//   CheckBlock(block)        a BlockCheck naming the first failing reason and the offending transaction;
//                            after the per-transaction rules, no outpoint may be spent by two transactions
//                            of the block (bad-txns-inputs-missingorspent, ConnectBlock's verdict; every
//                            prevout is taken to exist before the block).
//   ParseTransactionSubject(bytes, tx, error)
//                            the subject's own parser: true when `bytes` are exactly one transaction in the
//                            extended (BIP144) format, which is then stored in `tx`; false otherwise, with
//                            a message in *error when `error` is given. The harness requires the same
//                            accept/reject verdict and the same fields as the suite's parser
//                            (ParseTransaction, seam/types.h).
//   SerializeTransactionSubject(out, tx)
//                            appends the subject's own serialization of `tx` with witness data.
//   kSubjectCodec            whether the two above are the subject's own codec. The embedded subject's codec
//                            is the suite's (seam/types.h), so there they are the same functions and the
//                            harness skips comparing them; Bitcoin Core's is its own.
//   Reject, Reason, BlockCheck and the limits: the shared vocabulary (src/tx/reject.h).
//   kBlockSigopsLimit        whether CheckBlock also rejects a block whose legacy signature operations
//                            (OP_CHECKSIG[VERIFY] 1, OP_CHECKMULTISIG[VERIFY] 20, in every scriptSig and
//                            output script) exceed 20,000 ("bad-blk-sigops", block-wide, after the
//                            per-transaction rules). Bitcoin Core does; the embedded subject does not. The
//                            reference applies the rule exactly when this is true.
//   kBlockChecks             whether CheckBlock exists at all (a Core tree without it: block checks are off).
//   kBlockSpendCheck         whether CheckBlock's last rule (no outpoint spent twice in a block) is checked:
//                            against Core it is ConnectBlock's Consensus::CheckTxInputs, where the tree has
//                            it; the reference applies the rule exactly when this is true.
#pragma once

#include "seam/types.h"
#include "src/tx/reject.h"

namespace seam {
using embedded::BlockCheck;
using embedded::kMaxBlockWeight;
using embedded::kMaxCoinbaseScriptSig;
using embedded::kMinCoinbaseScriptSig;
using embedded::kRejectCount;
using embedded::kWitnessScaleFactor;
using embedded::Reason;
using embedded::Reject;
}  // namespace seam

#if SUITE_SUBJECT_CORE
#include "core/tx_check.h"
namespace seam {
using core_adapter::CheckBlock;
using core_adapter::CheckTransaction;
using core_adapter::ParseTransactionSubject;
using core_adapter::SerializeTransactionSubject;
inline constexpr bool kBlockSigopsLimit = core_adapter::kBlockSigopsLimit;
inline constexpr bool kSubjectCodec = SUITE_CORE_tx_codec;
inline constexpr bool kBlockChecks = SUITE_CORE_check_block;
inline constexpr bool kBlockSpendCheck = SUITE_CORE_check_tx_inputs;
}  // namespace seam
#else
#include "src/tx/check.h"
namespace seam {
using embedded::CheckBlock;
using embedded::CheckTransaction;
inline bool ParseTransactionSubject(std::span<const uint8_t> bytes, Transaction& tx, std::string* error = nullptr) {
  return embedded::ParseTransaction(bytes, tx, error);
}
inline void SerializeTransactionSubject(std::vector<uint8_t>& out, const Transaction& tx) {
  embedded::SerializeTransaction(out, tx, /*with_witness=*/true);
}
inline constexpr bool kBlockSigopsLimit = false;
inline constexpr bool kSubjectCodec = false;
inline constexpr bool kBlockChecks = true;
inline constexpr bool kBlockSpendCheck = true;
}  // namespace seam
#endif
