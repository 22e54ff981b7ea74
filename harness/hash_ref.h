// Reference hashes: double SHA-256 with OpenSSL's one-shot SHA256() over one concatenated buffer, and a
// transaction's id computed from the reference wire format (wire_fields.h), independent of the subject's
// serializer and of its libcrypto EVP calls (src/tx/transaction.cpp).
#pragma once

#include <cstdint>
#include <span>

#include "seam/types.h"

namespace harness {

Hash256 DoubleSha256Ref(std::span<const uint8_t> message);
// Double SHA-256 of the serialization without witnesses.
Hash256 TxidRef(const Transaction& tx);

}  // namespace harness
