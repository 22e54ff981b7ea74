// Seam: 64-bit XOR obfuscation keyed by absolute position (Bitcoin Core's util/obfuscation.h).
//
// Contract (docs/semantics.md, "Obfuscation"):
//   Obfuscation(KeyBytes key)     KeyBytes = std::array<uint8_t, 8>, kKeySize = 8; the all-zero key is "off".
//   explicit operator bool        false exactly for the all-zero key.
//   operator()(span, offset)      XORs byte j with key[(offset + j) mod 8], any offset, length, alignment.
//   ToString()                    the key as 16 lower-case hex digits, in key order.
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/obfuscation.h"
namespace seam {
using core_adapter::Obfuscation;
}  // namespace seam
#else
#include "src/obfuscation.h"
namespace seam {
using embedded::Obfuscation;
}  // namespace seam
#endif
