// block_file_read: the block/undo record reader on a block or undo file (FramingCase). Either the input's
// bytes are the file (after a filler prefix), or they describe up to 8 records (payload size and seed)
// with corruptions: a flipped payload or checksum byte, a bad magic, a size field near the true size, at
// or past the limit, or huge, an undo record checksummed against the wrong previous block; the file may
// be cut short. The reader must agree with the reference parser record by record and never allocate
// for a header it rejects; structured files are also written with the record writer and compared.
// Block files also name up to 4 parts, ranges relative to a record's declared payload size (from its
// start, its end, past it, or with an offset or size near 2^64): each is read from every record, and the
// bytes, the position after them or the error (a bad range included) must agree with the reference.
#include <fuzzer/FuzzedDataProvider.h>

#include "check.h"
#include "block_files_tester.h"
#include "fuzz.h"

namespace {

// Enough for a valid record followed by each kind of bad one; more records only repeat the checks.
constexpr size_t kMaxRecords = 8;

HARNESS_NO_FUZZ_COVERAGE void Decode(FuzzedDataProvider& fdp, harness::FramingCase& c) {
  c.undo = fdp.ConsumeBool();
  c.raw = fdp.ConsumeIntegralInRange<int>(0, 3) == 0;
  if (fdp.ConsumeBool()) {
    for (auto& b : c.key) b = fdp.ConsumeIntegral<uint8_t>();
  }
  // A small limit makes "too large" reachable with small sizes; otherwise Bitcoin Core's 32 MiB.
  c.max_size = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, 600) : seam::kMaxRecordSize;
  c.prefix = fdp.ConsumeIntegralInRange<uint8_t>(0, 15);
  c.truncate = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, 64) : 0;
  c.mech = fdp.ConsumeIntegral<uint8_t>();
  if (!c.undo) {
    // Taken for every subject, so that an input means the same case whether or not it reads parts.
    const size_t parts = fdp.ConsumeIntegralInRange<size_t>(0, harness::FramingCase::kMaxParts);
    for (size_t i = 0; i < parts; ++i) {
      harness::FramingCase::Part& p = c.parts.emplace_back();
      p.from = static_cast<harness::PartFrom>(fdp.ConsumeIntegralInRange<uint8_t>(0, harness::kPartFromCount - 1));
      p.a = fdp.ConsumeIntegral<uint16_t>();
      p.b = fdp.ConsumeIntegral<uint16_t>();
    }
  }
  if (c.raw) {
    c.raw_bytes = fdp.ConsumeRemainingBytes<uint8_t>();
    return;
  }
  while (fdp.remaining_bytes() > 0 && c.records.size() < kMaxRecords) {
    harness::FramingCase::Record r;
    switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: r.size = fdp.ConsumeIntegralInRange<uint32_t>(0, 8); break;
      case 1: r.size = fdp.ConsumeIntegralInRange<uint32_t>(0, 100); break;
      case 2: r.size = fdp.ConsumeIntegralInRange<uint32_t>(0, 700); break;
      default: r.size = fdp.ConsumeIntegralInRange<uint32_t>(0, harness::FramingCase::kMaxPayload);
    }
    r.seed = fdp.ConsumeIntegral<uint8_t>();
    r.corruption =
        static_cast<harness::Corruption>(fdp.ConsumeIntegralInRange<uint8_t>(0, 2 * harness::kCorruptionCount));
    if (static_cast<uint8_t>(r.corruption) >= harness::kCorruptionCount) r.corruption = harness::Corruption::kNone;
    if (r.corruption != harness::Corruption::kNone) {
      r.where = fdp.ConsumeIntegral<uint16_t>();
      r.value = fdp.ConsumeIntegral<uint8_t>();
    }
    c.records.push_back(r);
  }
}

}  // namespace

FUZZ_TARGET(block_file_read) {
  FuzzedDataProvider fdp(buffer.data(), buffer.size());
  harness::FramingCase c;
  Decode(fdp, c);
  harness::CheckFramingCase(c);
}

FUZZ_TARGET_INFO(block_file_read) {
  fuzz::TargetInfo info;
  // max_len stays 0 (the engine's default): a raw case makes the rest of the input the file, so every
  // length is meaningful.
  // Raw files are the input's leading bytes (ConsumeRemainingBytes): a record header is the magic and a
  // little-endian size, at the limit or just past it.
  info.AddBytes("magic", harness::kMagic);
  info.AddLittleEndian("size_max", seam::kMaxRecordSize);
  info.AddLittleEndian("size_over_max", seam::kMaxRecordSize + 1);
  // A part's anchor is one byte taken from the input's end (ConsumeIntegralInRange, the value modulo the
  // count); its two 16-bit numbers are distances from the anchor, small where they matter (0 lands on the
  // payload's end), which need no tokens.
  info.AddEnum<harness::PartFrom>("part", harness::kPartFromCount, harness::ToString);
  return info;
}
