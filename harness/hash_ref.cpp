#include "hash_ref.h"

#include <openssl/sha.h>

#include <vector>

#include "check.h"
#include "wire_fields.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // reference code: no coverage feedback for the fuzzer

Hash256 DoubleSha256Ref(std::span<const uint8_t> message) {
  Hash256 once;
  Hash256 twice;
  SHA256(message.data(), message.size(), once.bytes.data());
  SHA256(once.bytes.data(), once.bytes.size(), twice.bytes.data());
  return twice;
}

Hash256 TxidRef(const Transaction& tx) {
  struct Sink {
    std::vector<uint8_t> bytes;
    void Put(const uint8_t* data, size_t n) { bytes.insert(bytes.end(), data, data + n); }
  } sink;
  PutTransaction(sink, tx, /*with_witness=*/false);
  return DoubleSha256Ref(sink.bytes);
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
