#include "tx_tester.h"

#include <algorithm>
#include <vector>

#include "check.h"
#include "seam/types.h"
#include "seam/tx_check.h"
#include "tx_check_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code: the subject is compiled out of line in src/
namespace {

// Long input lists are shown in part: a failing input is minimized before anyone reads its trace.
constexpr size_t kMaxRenderedInputs = 64;
// Larger transactions and blocks (the megabyte ones at the size limits) get the verdict and size checks
// only: copying a megabyte a few times per input cost the fuzzers over 90% of their speed. The round trips
// are exercised on everything smaller, which includes 3,000-input transactions.
constexpr size_t kMaxCopiedBytes = 256 * 1024;

std::string Render(const OutPoint& p) {
  return HexStr(p.txid.bytes) + ":" + std::to_string(p.n) + (IsNullPrevout(p) ? " (null)" : "");
}

std::string RenderIndented(const Transaction& tx, const std::string& indent) {
  std::string out = "Transaction(version=" + std::to_string(tx.version) + ", locktime=" + std::to_string(tx.locktime) +
                    ", size=" + std::to_string(SerializedSizeRef(tx, true)) +
                    ", without witness=" + std::to_string(SerializedSizeRef(tx, false)) + ")";
  for (size_t i = 0; i < tx.vin.size(); ++i) {
    if (i == kMaxRenderedInputs) {
      out += "\n" + indent + "... " + std::to_string(tx.vin.size() - i) + " more inputs";
      break;
    }
    const TxIn& in = tx.vin[i];
    out += "\n" + indent + "vin[" + std::to_string(i) + "] " + Render(in.prevout) +
           " script_sig=" + std::to_string(in.script_sig.size()) + "B witness=" + std::to_string(in.witness.size()) +
           " items";
  }
  for (size_t i = 0; i < tx.vout.size(); ++i) {
    out += "\n" + indent + "vout[" + std::to_string(i) + "] value=" + std::to_string(tx.vout[i].value) +
           " script=" + std::to_string(tx.vout[i].script_pubkey.size()) + "B";
  }
  return out;
}

std::string RenderTxIndex(size_t tx) { return tx == SIZE_MAX ? "none" : std::to_string(tx); }

bool Equal(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// Enough to see where two serializations part; a megabyte of hex helps nobody.
constexpr size_t kMaxShownBytes = 4096;

}  // namespace

bool RoundTrips(const Transaction& tx) { return !tx.vin.empty() || tx.vout.empty(); }

std::string RenderTx(const Transaction& tx) { return RenderIndented(tx, "    "); }

std::string RenderBlock(const Block& block) {
  std::string out = "Block(" + std::to_string(block.vtx.size()) + " transactions)";
  for (size_t i = 0; i < block.vtx.size(); ++i) {
    out += "\n    tx " + std::to_string(i) + ": " + RenderIndented(block.vtx[i], "      ");
  }
  return out;
}

namespace {

// Verdict, reason, sizes and (when copied) serializations against the reference, given the subject's
// serialization (empty when the transaction is too big to copy).
void CheckAgainstReference(const Transaction& tx, std::span<const uint8_t> bytes) {
  const std::string_view subject = Reason(seam::CheckTransaction(tx));
  const std::string_view reference = CheckTransactionRef(tx);
  HARNESS_CHECK_EQ(subject, reference, "CheckTransaction: subject (left) and reference (right) differ\n    ",
                   RenderTx(tx));

  const size_t size = SerializedSizeRef(tx, true);
  const size_t stripped_size = SerializedSizeRef(tx, false);
  HARNESS_CHECK_EQ(SerializedSize(tx, true), size, "SerializedSize with witness\n    ", RenderTx(tx));
  HARNESS_CHECK_EQ(SerializedSize(tx, false), stripped_size, "SerializedSize without witness\n    ", RenderTx(tx));
  if (size > kMaxCopiedBytes) return;
  const std::vector<uint8_t> ref_bytes = SerializeTransactionRef(tx, true);
  HARNESS_CHECK(Equal(bytes, ref_bytes), "serialization\n    subject:   ", HexStr(bytes, kMaxShownBytes),
                "\n    reference: ", HexStr(ref_bytes, kMaxShownBytes), "\n    ", RenderTx(tx));
  if constexpr (seam::kSubjectCodec) {
    std::vector<uint8_t> subject_bytes;
    seam::SerializeTransactionSubject(subject_bytes, tx);
    HARNESS_CHECK(subject_bytes == ref_bytes,
                  "the subject's own serialization\n    subject:   ", HexStr(subject_bytes, kMaxShownBytes),
                  "\n    reference: ", HexStr(ref_bytes, kMaxShownBytes), "\n    ", RenderTx(tx));
  }
  if (!tx.HasWitness()) return;
  std::vector<uint8_t> stripped;
  SerializeTransaction(stripped, tx, false);
  const std::vector<uint8_t> ref_stripped = SerializeTransactionRef(tx, false);
  HARNESS_CHECK(stripped == ref_stripped,
                "serialization without witness\n    subject:   ", HexStr(stripped, kMaxShownBytes),
                "\n    reference: ", HexStr(ref_stripped, kMaxShownBytes), "\n    ", RenderTx(tx));
}

}  // namespace

void CheckTx(const Transaction& tx) {
  std::vector<uint8_t> bytes;
  if (SerializedSizeRef(tx, true) <= kMaxCopiedBytes) SerializeTransaction(bytes, tx);
  CheckAgainstReference(tx, bytes);
  if (bytes.empty() || !RoundTrips(tx)) return;
  Transaction back;
  std::string error;
  HARNESS_CHECK(ParseTransaction(bytes, back, &error), "parsing the serialization failed: ", error,
                "\n    bytes: ", HexStr(bytes, kMaxShownBytes), "\n    ", RenderTx(tx));
  HARNESS_CHECK(back == tx, "parsing the serialization changed the transaction\n    before: ", RenderTx(tx),
                "\n    after:  ", RenderTx(back));
  if constexpr (seam::kSubjectCodec) {
    Transaction subject_back;
    HARNESS_CHECK(seam::ParseTransactionSubject(bytes, subject_back, &error),
                  "the subject's parser rejects the serialization: ", error,
                  "\n    bytes: ", HexStr(bytes, kMaxShownBytes), "\n    ", RenderTx(tx));
    HARNESS_CHECK(subject_back == tx, "the subject's parser changed the transaction\n    before: ", RenderTx(tx),
                  "\n    after:  ", RenderTx(subject_back));
  }
}

bool CheckTxBytes(std::span<const uint8_t> input) {
  Transaction tx;
  std::string error;
  const bool parsed = ParseTransaction(input, tx, &error);
  if constexpr (seam::kSubjectCodec) {
    Transaction subject_tx;
    std::string subject_error;
    const bool subject_parsed = seam::ParseTransactionSubject(input, subject_tx, &subject_error);
    HARNESS_CHECK(parsed == subject_parsed,
                  "parse verdicts differ\n    ParseTransaction: ", parsed ? "accepts" : "rejects: " + error,
                  "\n    subject's parser: ", subject_parsed ? "accepts" : "rejects: " + subject_error,
                  "\n    input: ", HexStr(input, kMaxShownBytes));
    if (parsed) {
      HARNESS_CHECK(subject_tx == tx, "the parsers read different transactions\n    ParseTransaction: ", RenderTx(tx),
                    "\n    subject's parser: ", RenderTx(subject_tx));
    }
  }
  if (!parsed) return false;
  std::vector<uint8_t> bytes;
  SerializeTransaction(bytes, tx);
  HARNESS_CHECK(Equal(bytes, input), "parsed bytes serialize differently\n    input:  ", HexStr(input, kMaxShownBytes),
                "\n    output: ", HexStr(bytes, kMaxShownBytes), "\n    ", RenderTx(tx));
  // Parsing `bytes` gives `tx` again: it is the input.
  CheckAgainstReference(tx, bytes);
  return true;
}

void CheckBlockCase(const Block& block) {
  const seam::BlockCheck subject = seam::CheckBlock(block);
  const BlockVerdictRef reference = CheckBlockRef(block, seam::kBlockSigopsLimit, seam::kBlockSpendCheck);
  HARNESS_CHECK(Reason(subject.reject) == reference.reason && subject.tx == reference.tx,
                "CheckBlock\n    subject:   '", Reason(subject.reject), "' at tx ", RenderTxIndex(subject.tx),
                "\n    reference: '", reference.reason, "' at tx ", RenderTxIndex(reference.tx), "\n    ",
                RenderBlock(block));

  HARNESS_CHECK_EQ(SerializedSize(block, true), SerializedSizeRef(block, true), "block SerializedSize with witness");
  HARNESS_CHECK_EQ(SerializedSize(block, false), SerializedSizeRef(block, false),
                   "block SerializedSize without witness");
  if (SerializedSizeRef(block, true) > kMaxCopiedBytes) return;
  std::vector<uint8_t> bytes;
  SerializeBlock(bytes, block);
  const std::vector<uint8_t> ref_bytes = SerializeBlockRef(block, true);
  HARNESS_CHECK(bytes == ref_bytes, "block serialization\n    subject:   ", HexStr(bytes, kMaxShownBytes),
                "\n    reference: ", HexStr(ref_bytes, kMaxShownBytes), "\n    ", RenderBlock(block));
  if (std::any_of(block.vtx.begin(), block.vtx.end(), [](const Transaction& tx) { return tx.HasWitness(); })) {
    std::vector<uint8_t> stripped;
    SerializeBlock(stripped, block, false);
    HARNESS_CHECK(stripped == SerializeBlockRef(block, false), "block serialization without witness\n    ",
                  RenderBlock(block));
  }

  if (!std::all_of(block.vtx.begin(), block.vtx.end(), [](const Transaction& tx) { return RoundTrips(tx); })) return;
  Block back;
  std::string error;
  HARNESS_CHECK(ParseBlock(bytes, back, &error), "parsing the block's serialization failed: ", error, "\n    ",
                RenderBlock(block));
  HARNESS_CHECK(back == block, "parsing the block's serialization changed it\n    before: ", RenderBlock(block),
                "\n    after:  ", RenderBlock(back));
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
