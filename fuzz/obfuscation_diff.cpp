// obfuscation_diff: the 64-bit XOR subject against the bytewise reference (ObfuscationCase). The bytes
// choose the key (often all-zero or one-byte patterns), an offset with a bias toward 0, 2^32 and 2^64
// boundaries, the length, the pointer alignment and the chunking; the plaintext is derived from a seed.
#include <fuzzer/FuzzedDataProvider.h>

#include <limits>

#include "fuzz.h"
#include "seam/obfuscation.h"
#include "obfuscation_tester.h"

namespace {

uint64_t ConsumeOffset(FuzzedDataProvider& fdp) {
  const uint64_t small = fdp.ConsumeIntegral<uint16_t>();
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return small;
    case 1: return (uint64_t{1} << 32) - 64 + small;  // across 2^32
    case 2: return ~uint64_t{0} - small;              // near the top of the range
    default: return fdp.ConsumeIntegral<uint64_t>();
  }
}

}  // namespace

FUZZ_TARGET(obfuscation_diff) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  harness::ObfuscationCase c;
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: break;  // the all-zero key: obfuscation off
    case 1: c.key[fdp.ConsumeIntegralInRange<size_t>(0, 7)] = fdp.ConsumeIntegral<uint8_t>(); break;
    default:
      for (auto& b : c.key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  c.offset = ConsumeOffset(fdp);
  c.length = fdp.ConsumeIntegralInRange<uint32_t>(0, harness::ObfuscationCase::kMaxLength);
  c.alignment = fdp.ConsumeIntegralInRange<uint8_t>(0, 7);
  c.data_seed = fdp.ConsumeIntegral<uint32_t>();
  while (fdp.remaining_bytes() > 0 && c.chunks.size() < 64)
    c.chunks.push_back(fdp.ConsumeIntegralInRange<uint32_t>(0, 40));
  harness::CheckObfuscationCase(c);
}

FUZZ_TARGET_INFO(obfuscation_diff) {
  fuzz::TargetInfo info;
  // Key (class byte and up to 8 bytes), offset (2 + 1 + 8), length (2), alignment (1), seed (4), 64 chunks.
  info.max_len = (1 + seam::Obfuscation::kKeySize) + (2 + 1 + 8) + 2 + 1 + 4 + 64;
  // Offsets the 64-bit XOR must handle like any other, as ConsumeOffset's arbitrary-offset case reads them:
  // the first byte past 32 bits, and the last offset there is.
  info.AddLittleEndian("offset_2_pow_32", uint64_t{1} << 32);
  info.AddLittleEndian("offset_max", std::numeric_limits<uint64_t>::max());
  return info;
}
