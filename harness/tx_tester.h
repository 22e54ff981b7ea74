// Transaction and block testers: the subject's checks, serializers and parser (src/tx/) against the
// reference (tx_check_ref.h), one transaction or block at a time.
//
// Checked for a transaction: CheckTransaction's verdict and reason equal CheckTransactionRef's; the
// subject's serialization with and without witness equals the reference serializer's, and SerializedSize
// equals its length; parsing the serialization gives back the transaction (whenever the format can express
// it: see RoundTrips). For a byte string: if ParseTransaction accepts it, serializing the result gives back
// exactly those bytes, and the transaction passes every check above. Together the two round trips pin the
// parser down: it accepts every serialization, and nothing else.
// When the subject brings its own codec (seam::kSubjectCodec: Bitcoin Core's), also: its serialization
// equals the reference serializer's, it parses every serialization back to the same transaction, and on any
// byte string it accepts exactly what ParseTransaction accepts, with the same fields.
// For a block: CheckBlock's reason and transaction index equal CheckBlockRef's (with Core's legacy sigop
// limit when seam::kBlockSigopsLimit); serialization, sizes and the round trip as for a transaction.
// Not modelled: which error a rejected byte string gets (the unit tests pin those); rejecting an input is
// not a failure.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "seam/types.h"

namespace harness {

// Core's format cannot express a transaction without inputs but with outputs: its empty vin reads as the
// extended-format marker and the output count as the flag. Every other transaction round-trips.
bool RoundTrips(const Transaction& tx);

// Lowercase hex, cut off after 4 KiB.
std::string RenderTx(const Transaction& tx);
std::string RenderBlock(const Block& block);

// Every check on one transaction; a failure HARNESS_CHECKs with the transaction rendered.
void CheckTx(const Transaction& tx);
// Parses `bytes` as a whole transaction: false (nothing checked but the subject parser's agreement) when
// they do not parse; otherwise the byte-identical round trip, then CheckTx.
bool CheckTxBytes(std::span<const uint8_t> bytes);
void CheckBlockCase(const Block& block);

}  // namespace harness
