// tx_check_diff: the input bytes are a serialized transaction. When the subject's parser accepts them, the
// transaction must serialize back to exactly those bytes (subject and reference serializer), parse back
// to itself, and get the same verdict and reason from CheckTransaction and the reference. Bytes that do not
// parse are not a failure.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "seam/types.h"
#include "fuzz.h"
#include "seam/tx_check.h"
#include "tx_tester.h"

FUZZ_TARGET(tx_check_diff) { harness::CheckTxBytes(buffer); }

namespace {

std::vector<uint8_t> CompactSize(uint64_t n) {
  std::vector<uint8_t> bytes;
  WriteCompactSize(bytes, n);
  return bytes;
}

}  // namespace

FUZZ_TARGET_INFO(tx_check_diff) {
  fuzz::TargetInfo info;
  // max_len stays 0 (the engine's default): the parser takes transactions of any size (the size rule is at
  // 1,000,000 bytes, beyond what mutation reaches; tx_inputs_sim builds those).
  const uint8_t witness[] = {kWitnessMarker, kWitnessFlag};
  info.AddBytes("witness_marker_flag", witness);
  // Also the final sequence number (TxIn's default): the same bytes.
  info.AddLittleEndian("null_index", kNullIndex);
  const Hash256 zero;
  std::vector<uint8_t> null_prevout(zero.bytes.begin(), zero.bytes.end());
  WriteLE(null_prevout, kNullIndex);
  info.AddBytes("null_prevout", null_prevout);
  // The largest CompactSize of each width, and its first byte alone: the width's marker.
  const std::vector<uint8_t> widths[] = {CompactSize(std::numeric_limits<uint16_t>::max()),
                                         CompactSize(std::numeric_limits<uint32_t>::max()),
                                         CompactSize(std::numeric_limits<uint64_t>::max())};
  for (const std::vector<uint8_t>& bytes : widths) {
    const std::string bits = std::to_string(8 * (bytes.size() - 1));
    info.AddBytes("compact_size_" + bits + "_max", bytes);
    info.AddBytes("compact_size_" + bits + "_marker", std::span(bytes).first(1));
  }
  // Lengths and counts at Core's MAX_SIZE and one past it.
  info.AddBytes("compact_size_max_size", CompactSize(kMaxCompactSize));
  info.AddBytes("compact_size_over_max_size", CompactSize(kMaxCompactSize + 1));
  // Output values at the MAX_MONEY rules, and a negative one.
  info.AddLittleEndian("value_max_money", kMaxMoney);
  info.AddLittleEndian("value_over_max_money", kMaxMoney + 1);
  info.AddLittleEndian("value_negative", int64_t{-1});
  // The coinbase scriptSig length rule's bounds, as CompactSize lengths.
  info.AddBytes("coinbase_script_sig_min", CompactSize(seam::kMinCoinbaseScriptSig));
  info.AddBytes("coinbase_script_sig_max", CompactSize(seam::kMaxCoinbaseScriptSig));
  return info;
}
