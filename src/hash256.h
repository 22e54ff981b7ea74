// Bitcoin's hash256 (SHA-256 applied twice) of the concatenation of byte ranges, from libcrypto: txids and
// undo-record checksums. Throws std::runtime_error if libcrypto fails.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>

#include "coins/outpoint.h"

namespace embedded {

Hash256 DoubleSha256(std::initializer_list<std::span<const uint8_t>> parts);

}  // namespace embedded
