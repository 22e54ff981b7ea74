// Bitcoin Core side of seam/tx_check.h: the embedded checks' interface over Bitcoin Core's CheckTransaction
// (consensus/tx_check.cpp), CheckBlock (validation.cpp), the spend step of ConnectBlock
// (Consensus::CheckTxInputs over a CCoinsViewCache) and Core's transaction serialization (TX_WITH_WITNESS).
//
// The suite's Transaction and Block (src/tx/transaction.h) are converted to Core's CMutableTransaction and
// CBlock field by field, never through bytes, so a codec bug on either side cannot hide a check's verdict.
// Core's reject reason strings are mapped back onto the shared Reject values; a reason the vocabulary does
// not name, or a debug message that does not identify the failing transaction, throws std::logic_error
// (Core's contract has changed: the adapter must be taught, not guess).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "src/tx/reject.h"
#include "src/tx/transaction.h"

namespace core_adapter {

// Core's CheckBlock limits a block's legacy signature operations (× 4 against MAX_BLOCK_SIGOPS_COST,
// 80,000: more than 20,000 fail with "bad-blk-sigops"), after the per-transaction checks.
inline constexpr bool kBlockSigopsLimit = true;

// Core's CheckTransaction on the converted transaction.
embedded::Reject CheckTransaction(const embedded::Transaction& tx);

// Core's CheckBlock (Main's consensus parameters; fCheckPOW and fCheckMerkleRoot false, so the header is
// not looked at), then, when it passes, ConnectBlock's input check: every prevout spent by a transaction
// after the coinbase is taken to exist before the block, as an unspent, non-coinbase coin in a
// CCoinsViewCache whose values cover each transaction's outputs exactly; each transaction in block order
// goes through Consensus::CheckTxInputs and then spends its inputs. The transaction index comes from
// Core's debug message ("tx hash ...") for a per-transaction reason, is 0 for bad-cb-missing, the first
// later coinbase for bad-cb-multiple (Core's message names none), and none for the block-wide reasons.
embedded::BlockCheck CheckBlock(const embedded::Block& block);

// Core's deserializer (SpanReader >> TX_WITH_WITNESS) on `bytes`; bytes left after the transaction are an
// error, as in Core's DecodeHexTx. On success the result is converted back field by field into `tx`.
bool ParseTransactionSubject(std::span<const uint8_t> bytes, embedded::Transaction& tx, std::string* error = nullptr);

// Core's serializer (TX_WITH_WITNESS) on the converted transaction, appended to `out`.
void SerializeTransactionSubject(std::vector<uint8_t>& out, const embedded::Transaction& tx);

}  // namespace core_adapter
