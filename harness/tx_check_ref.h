// Reference transaction and block checks (docs/semantics.md §4): the simplest correct versions of the subject's
// src/tx/check.h, to compare verdicts and reasons with.
//
// Modelled: every rule of CheckTransaction and CheckBlock in order, reasons as plain strings; duplicates by
// inserting each prevout into a std::set; the null prevout by a linear scan of the inputs; sizes by
// running the plain serializer below and counting bytes; a double spend across the transactions
// of a block by one std::set over their prevouts in block order; when asked for (Bitcoin Core's rule,
// seam::kBlockSigopsLimit), the block's legacy signature operations by walking every script's opcodes.
// Not modelled: parsing. The subject's parser is checked by round trips instead (tx_tester.h): whatever
// parses must serialize back to the same bytes, and whatever the tester builds must parse back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "seam/types.h"

namespace harness {

// "" for a valid transaction, else Core's reject reason.
std::string_view CheckTransactionRef(const Transaction& tx);

struct BlockVerdictRef {
  std::string_view reason;  // "" for a valid block
  size_t tx = SIZE_MAX;     // as seam::BlockCheck::tx
};
// `sigops_limit`: also apply Core's legacy signature-operation limit (see LegacySigOpsRef) after the
// per-transaction rules and before the double-spend rule. `spends`: apply the double-spend rule across the
// block's transactions (the subject checks it: seam::kBlockSpendCheck).
BlockVerdictRef CheckBlockRef(const Block& block, bool sigops_limit, bool spends = true);

// Bitcoin Core's legacy count (CScript::GetSigOpCount(false)) for one script: walk the opcodes, skipping
// pushed data (direct pushes 0x01..0x4b, OP_PUSHDATA1/2/4 with a 1-, 2- or 4-byte little-endian length), and
// stop at the first push that runs past the end; OP_CHECKSIG and OP_CHECKSIGVERIFY count 1, OP_CHECKMULTISIG
// and OP_CHECKMULTISIGVERIFY count 20. A block's count is the sum over every scriptSig and output script;
// more than 20,000 (80,000 at 4 per operation) fails with bad-blk-sigops.
size_t LegacySigOpsRef(std::span<const uint8_t> script);

// The wire format written field by field, and its length.
std::vector<uint8_t> SerializeTransactionRef(const Transaction& tx, bool with_witness);
std::vector<uint8_t> SerializeBlockRef(const Block& block, bool with_witness);
size_t SerializedSizeRef(const Transaction& tx, bool with_witness);
size_t SerializedSizeRef(const Block& block, bool with_witness);

}  // namespace harness
