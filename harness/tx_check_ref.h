// Reference transaction and block checks (docs/semantics.md §4): the simplest correct versions of the subject's
// src/tx/check.h, to compare verdicts and reasons with.
//
// Modelled: every rule of CheckTransaction and CheckBlock in order, reasons as plain strings; duplicates by
// inserting each prevout into a std::set; the null prevout by a linear scan of the inputs; sizes by
// running the plain serializer below and counting bytes; a double spend across the transactions
// of a block by one std::set over their prevouts in block order.
// Not modelled: parsing. The subject's parser is checked by round trips instead (tx_tester.h): whatever
// parses must serialize back to the same bytes, and whatever the tester builds must parse back.
#pragma once

#include <cstddef>
#include <cstdint>
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
BlockVerdictRef CheckBlockRef(const Block& block);

// The wire format written field by field, and its length.
std::vector<uint8_t> SerializeTransactionRef(const Transaction& tx, bool with_witness);
std::vector<uint8_t> SerializeBlockRef(const Block& block, bool with_witness);
size_t SerializedSizeRef(const Transaction& tx, bool with_witness);
size_t SerializedSizeRef(const Block& block, bool with_witness);

}  // namespace harness
