#include "record_payloads.h"

#include <algorithm>
#include <cstring>

#include "check.h"
#include "rng.h"
#include "tx_check_ref.h"
#include "tx_spec.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // test data: no coverage feedback for the fuzzer

void RandomBytes(std::span<uint8_t> out, uint32_t seed) {
  Rng rng(seed);
  for (size_t i = 0; i < out.size(); i += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(out.data() + i, &word, std::min<size_t>(8, out.size() - i));
  }
}

namespace {

// Bitcoin Core's VARINT (serialize.h): base 128, most significant group first, each continuation group
// one less than its value.
std::vector<uint8_t> VarIntBytes(uint64_t n) {
  std::vector<uint8_t> out;
  for (bool first = true;; first = false) {
    out.insert(out.begin(), static_cast<uint8_t>((n & 0x7f) | (first ? 0x00 : 0x80)));
    if (n <= 0x7f) break;
    n = (n >> 7) - 1;
  }
  return out;
}

// Makes `out` a serialized block of its size where the reference serializer gives one (see BlockPayload;
// PadTo cannot reach the few sizes where the scriptSig's length field grows); whether it did.
bool BlockLayout(std::vector<uint8_t>& out, uint32_t seed) {
  const size_t n = out.size();
  Rng rng(seed);
  Block block;
  block.header.version = static_cast<int32_t>(rng.Next());
  RandomBytes(block.header.prev_block.bytes, static_cast<uint32_t>(rng.Next()));
  RandomBytes(block.header.merkle_root.bytes, static_cast<uint32_t>(rng.Next()));
  block.header.time = static_cast<uint32_t>(rng.Next());
  block.header.bits = static_cast<uint32_t>(rng.Next());
  block.header.nonce = static_cast<uint32_t>(rng.Next());
  if (n != SerializedSizeRef(block, true)) {
    Transaction& tx = block.vtx.emplace_back();
    tx.version = static_cast<int32_t>(rng.Next());
    tx.locktime = static_cast<uint32_t>(rng.Next());
    TxIn& in = tx.vin.emplace_back();
    RandomBytes(in.prevout.txid.bytes, static_cast<uint32_t>(rng.Next()));
    in.prevout.n = static_cast<uint32_t>(rng.Next());
    in.sequence = static_cast<uint32_t>(rng.Next());
    PadTo(in.script_sig, SerializedSizeRef(block, true), n);
    RandomBytes(std::span(in.script_sig.data(), in.script_sig.size()), static_cast<uint32_t>(rng.Next()));
  }
  if (SerializedSizeRef(block, true) != n) return false;
  out = SerializeBlockRef(block, true);
  return true;
}

}  // namespace

std::optional<std::vector<uint8_t>> BlockPayload(uint32_t size, uint32_t seed) {
  std::vector<uint8_t> out(size);
  if (!BlockLayout(out, seed)) return std::nullopt;
  return out;
}

std::vector<uint8_t> UndoPayload(uint32_t size, uint32_t seed) {
  std::vector<uint8_t> out(size, 0);
  if (size == 0) return out;  // no CBlockUndo is empty: the caller asked for what it cannot get
  if (size < 5) {
    out[0] = static_cast<uint8_t>(size - 1);
    return out;
  }
  for (uint32_t amount = 0; amount <= 128; amount += 128) {
    const std::vector<uint8_t> amount_bytes = VarIntBytes(amount);
    for (uint32_t script_size_size = 1; script_size_size <= 3; ++script_size_size) {
      const uint32_t fixed = 3 + static_cast<uint32_t>(amount_bytes.size()) + script_size_size;
      if (size < fixed) continue;
      const uint32_t len = size - fixed;
      const std::vector<uint8_t> script_size = VarIntBytes(uint64_t{len} + 6);
      if (script_size.size() != script_size_size) continue;
      std::vector<uint8_t> head{0x01, 0x01, 0x00};
      head.insert(head.end(), amount_bytes.begin(), amount_bytes.end());
      head.insert(head.end(), script_size.begin(), script_size.end());
      std::copy(head.begin(), head.end(), out.begin());
      RandomBytes(std::span(out).subspan(head.size()), seed);
      if (len > 0) out[head.size()] = 0x00;
      return out;
    }
  }
  HARNESS_CHECK(false, "no CBlockUndo layout of ", size, " bytes");
  return out;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
