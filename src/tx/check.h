// Context-free transaction and block checks with the specialised duplicate-input check.
// Semantics: docs/semantics.md §4.
//
// CheckTransaction applies, in this order, each rule with its reject reason: empty vin; empty vout;
// oversize (serialization without witness × 4 > 4,000,000); per output in order: negative value, value
// above MAX_MONEY, running total above MAX_MONEY; duplicate inputs; for a coinbase, scriptSig length outside
// 2..100; otherwise a null prevout.
//
// CheckBlock is Core's CheckBlock restricted to these rules (so without Core's legacy signature-operation
// limit, bad-blk-sigops), followed by the part of ConnectBlock that a
// double spend inside the block trips over: block length, then the first transaction must be the only
// coinbase, then every transaction is checked in order (duplicate check included), then no outpoint may be
// spent by two transactions of the block.
#pragma once

#include <cstddef>
#include <cstdint>

#include "amount.h"
#include "tx/reject.h"
#include "tx/transaction.h"

namespace embedded {

Reject CheckTransaction(const Transaction& tx);

BlockCheck CheckBlock(const Block& block);

}  // namespace embedded
