#include "block_files_tester.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "check.h"
#include "observe.h"
#include "seam/types.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"
#include "obfuscation_ref.h"
#include "record_payloads.h"
#include "rng.h"
#include "block_files_ref.h"
#include "tx_check_ref.h"
#include "tx_spec.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // tester and reference: the subject is compiled out of line in src/io/
namespace {

// The writer's buffer sizes: odd, a header, a typical record, the default (one-byte buffers are
// file_io_sim's: here they cost a write call per byte and cut the exec rate in half).
constexpr std::array<size_t, 4> kWriterSizes{13, 8, 600, seam::BufferedWriter::kDefaultSize};

void Payload(const FramingCase& c, std::vector<uint8_t>& out, uint32_t size, uint32_t seed) {
  RecordPayload(c.undo, out, size, seed);
}

struct CaseTrace {
  const FramingCase* c;
  std::string ToString() const { return c->ToString(); }
};

uint8_t NonZero(uint8_t v) { return v != 0 ? v : 1; }

// The file as the subject's writer lays it out: the filler, then the uncorrupted records.
void CheckWriter(const FramingCase& c, std::span<const uint8_t> filler, std::span<const uint8_t> expected_plain) {
  std::vector<uint8_t> out(expected_plain.size() + 1);  // + 1: room for the NUL fmemopen may append
  seam::AutoFile file(fmemopen(out.data(), out.size(), "w+b"), seam::Obfuscation(c.key));
  HARNESS_CHECK(file.IsOpen(), "fmemopen failed");
  file.Write(filler);
  {
    seam::BufferedWriter writer(file, kWriterSizes[c.mech % kWriterSizes.size()]);
    std::vector<uint8_t> payload;
    for (size_t i = 0; i < c.records.size(); ++i) {
      Payload(c, payload, c.records[i].size, c.records[i].seed);
      if (c.undo) {
        seam::WriteUndoRecord(writer, kMagic, PrevHash(i), payload);
      } else {
        seam::WriteBlockRecord(writer, kMagic, payload);
      }
    }
  }
  HARNESS_CHECK_EQ(file.Position().value_or(0), expected_plain.size(), "position after writing the records");
  file.Close();
  std::vector<uint8_t> expected(expected_plain.begin(), expected_plain.end());
  XorRef(expected, c.key, 0);
  const auto diff = std::mismatch(expected.begin(), expected.end(), out.begin());
  HARNESS_CHECK(diff.first == expected.end(), "written file differs from the reference encoding at offset ",
                diff.first - expected.begin());
}

// A subject whose undo reader checks no header (seam::kUndoHeaderChecked false: Bitcoin Core's, whose undo
// payload is a serialized CBlockUndo that delimits itself) cannot be held to the reference's verdict on
// bytes it parses by their own encoding. What it must still do: return or throw FramingError (no crash,
// no read past the file: the sanitizers watch), and accept a record only if the 32 bytes after the payload
// it returns are the checksum of that payload over the expected previous-block hash.
// `intact[i]`: record i is whole in the file and its payload and checksum are untouched (a changed magic
// or size field does not count: such a reader ignores them), so it must be read back exactly.
void CheckSelfDelimitingUndo(const FramingCase& c, std::span<const uint8_t> plain, seam::AutoFile& in,
                             const std::vector<bool>& intact) {
  uint64_t at = c.prefix;
  for (size_t i = 0; at < plain.size(); ++i) {
    const bool must_read = !c.raw && i < intact.size() && intact[i];
    std::vector<uint8_t> payload;
    try {
      seam::ReadUndoRecord(in, kMagic, PrevHash(i), payload, seam::kMaxRecordSize);
    } catch (const seam::FramingError& e) {
      HARNESS_CHECK(!must_read, "record ", i, " at ", at, ": the subject rejected an intact undo record: ", e.what());
      return;
    }
    if (must_read) {
      std::vector<uint8_t> want;
      Payload(c, want, c.records[i].size, c.records[i].seed);
      HARNESS_CHECK(payload == want, "record ", i, ": payload differs\n    subject:   ", HexStr(payload),
                    "\n    reference: ", HexStr(want));
    }
    const uint64_t end = at + seam::kRecordHeaderSize + payload.size() + seam::kChecksumSize;
    HARNESS_CHECK(end <= plain.size(), "record ", i, " at ", at, ": accepted a record running past the file's end");
    HARNESS_CHECK_EQ(in.Position().value_or(0), end, "record ", i, ": position after the record");
    const Hash256 want = UndoChecksumRef(PrevHash(i), payload);
    HARNESS_CHECK(std::equal(want.bytes.begin(), want.bytes.end(), plain.begin() + (end - seam::kChecksumSize)),
                  "record ", i, " at ", at, ": accepted without its checksum in the file");
    at = end;
  }
}

// Every part of the case read from the block record at each of `positions` (block_files_tester.h).
void CheckParts(const FramingCase& c, std::span<const uint8_t> plain, seam::AutoFile& in, uint32_t max_size,
                std::span<const uint64_t> positions) {
  for (const uint64_t at : positions) {
    const uint32_t declared = DeclaredSizeRef(plain, at);
    for (size_t j = 0; j < c.parts.size(); ++j) {
      const auto [offset, size] = ResolvePart(c.parts[j], declared);
      const RecordRef ref = ParsePartRef(plain, at, kMagic, max_size, offset, size);
      std::vector<uint8_t> part;
      in.Seek(static_cast<int64_t>(at), SEEK_SET);
      try {
        seam::ReadBlockRecordPart(in, kMagic, offset, size, part, max_size);
      } catch (const seam::FramingError& e) {
        HARNESS_CHECK(!ref.ok, "part ", j, " [", offset, ", +", size, ") of the record at ", at,
                      ": the subject rejected a part the reference reads: ", e.what());
        HARNESS_CHECK(e.kind() == ref.error, "part ", j, " [", offset, ", +", size, ") of the record at ", at,
                      ": error '", ToString(e.kind()), "', the reference says '", ToString(ref.error), "' (", e.what(),
                      ")");
        if (e.kind() != seam::FramingError::Kind::kTruncated || seam::kTruncatedRecordAllocatesNothing) {
          HARNESS_CHECK_EQ(part.capacity(), size_t{0}, "part ", j, " [", offset, ", +", size, ") of the record at ", at,
                           ": memory allocated for a rejected part");
        }
        continue;
      }
      HARNESS_CHECK(ref.ok, "part ", j, " [", offset, ", +", size, ") of the record at ", at,
                    ": the subject read a part the reference rejects as '", ToString(ref.error), "'");
      const auto want = plain.subspan(ref.payload_at, ref.size);
      HARNESS_CHECK(std::equal(part.begin(), part.end(), want.begin(), want.end()), "part ", j, " [", offset, ", +",
                    size, ") of the record at ", at, ": bytes differ\n    subject:   ", HexStr(part),
                    "\n    reference: ", HexStr(want));
      HARNESS_CHECK_EQ(in.Position().value_or(0), ref.end, "part ", j, " [", offset, ", +", size, ") of the record at ",
                       at, ": position after the part");
    }
  }
}

// `starts`: where the case's records begin (before any cut), for part reads past a bad record.
void CheckReader(const FramingCase& c, std::span<const uint8_t> plain, const std::vector<bool>& intact,
                 std::span<const uint64_t> starts) {
  if (c.undo ? !seam::kUndoRecordReads : !seam::kBlockRecordReads) return;  // the subject has no such reader
  std::vector<uint8_t> file(plain.begin(), plain.end());
  XorRef(file, c.key, 0);
  seam::AutoFile in(fmemopen(file.data(), file.size(), "rb"), seam::Obfuscation(c.key));
  HARNESS_CHECK(in.IsOpen(), "fmemopen failed");
  in.Seek(c.prefix, SEEK_SET);
  if (c.undo && !seam::kUndoHeaderChecked) {
    CheckSelfDelimitingUndo(c, plain, in, intact);
    return;
  }
  // A subject with a fixed limit (seam::kRecordLimitIsParameter false) is held to that limit.
  const uint32_t max_size = seam::kRecordLimitIsParameter ? c.max_size : seam::kMaxRecordSize;
  if (!c.undo && seam::kPartialBlockReads && !c.parts.empty()) {
    // Only a tree with partial reads (Core #33657) gets here: what this block records is tied to that change.
    const observe::ChangeScope tag("raw_block_part");
    // The records the reader below reaches, the one it stops at included, and those the case built.
    std::vector<uint64_t> positions;
    for (uint64_t at = c.prefix; at < plain.size();) {
      positions.push_back(at);
      const RecordRef ref = ParseRecordRef(plain, at, false, kMagic, Hash256{}, max_size);
      if (!ref.ok) break;
      at = ref.end;
    }
    for (const uint64_t start : starts) {
      if (start < plain.size()) positions.push_back(start);
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    CheckParts(c, plain, in, max_size, positions);
    in.Seek(c.prefix, SEEK_SET);
  }
  uint64_t at = c.prefix;
  for (size_t i = 0; at < plain.size(); ++i) {
    const RecordRef ref = ParseRecordRef(plain, at, c.undo, kMagic, PrevHash(i), max_size);
    std::vector<uint8_t> payload;
    try {
      if (c.undo) {
        seam::ReadUndoRecord(in, kMagic, PrevHash(i), payload, max_size);
      } else {
        seam::ReadBlockRecord(in, kMagic, payload, max_size);
      }
    } catch (const seam::FramingError& e) {
      HARNESS_CHECK(!ref.ok, "record ", i, " at ", at, ": the subject rejected a valid record: ", e.what());
      HARNESS_CHECK(e.kind() == ref.error, "record ", i, " at ", at, ": error '", ToString(e.kind()),
                    "', the reference says '", ToString(ref.error), "' (", e.what(), ")");
      const bool allocation_checked =
          e.kind() != seam::FramingError::Kind::kTruncated || seam::kTruncatedRecordAllocatesNothing;
      if (e.kind() != seam::FramingError::Kind::kBadChecksum && allocation_checked) {
        HARNESS_CHECK_EQ(payload.capacity(), size_t{0}, "record ", i, ": memory allocated for a rejected header");
      }
      return;
    }
    HARNESS_CHECK(ref.ok, "record ", i, " at ", at, ": the subject accepted a record the reference rejects as '",
                  ToString(ref.error), "'");
    const auto want = plain.subspan(ref.payload_at, ref.size);
    HARNESS_CHECK(std::equal(payload.begin(), payload.end(), want.begin(), want.end()), "record ", i,
                  ": payload differs\n    subject:   ", HexStr(payload), "\n    reference: ", HexStr(want));
    HARNESS_CHECK_EQ(in.Position().value_or(0), ref.end, "record ", i, ": position after the record");
    at = ref.end;
  }
}

}  // namespace

void RecordPayload(bool undo, std::vector<uint8_t>& out, uint32_t size, uint32_t seed) {
  const bool objects = undo ? !seam::kUndoHeaderChecked || seam::kWriterTakesUndo : seam::kWriterTakesBlocks;
  if (objects && undo && size > 0) {
    out = UndoPayload(size, seed);
    return;
  }
  out.assign(size, 0);
  RandomBytes(out, seed);
  if (objects && !undo) {
    if (auto block = BlockPayload(size, seed)) out = std::move(*block);
  }
}

std::pair<uint64_t, uint64_t> ResolvePart(const FramingCase::Part& part, uint32_t declared) {
  const uint64_t n = declared;
  switch (part.from) {
    case PartFrom::kStart: return {part.a, part.b};
    case PartFrom::kEnd: {
      const uint64_t offset = n - std::min<uint64_t>(part.a, n);
      const int64_t end = static_cast<int64_t>(n) + static_cast<int16_t>(part.b);
      return {offset, end > static_cast<int64_t>(offset) ? static_cast<uint64_t>(end) - offset : 0};
    }
    case PartFrom::kPastEnd: return {n + part.a, part.b};
    case PartFrom::kHugeOffset: return {UINT64_MAX - part.a, part.b};
    case PartFrom::kHugeSize: return {part.a, UINT64_MAX - part.b};
  }
  HARNESS_CHECK(false, "part anchor ", static_cast<int>(part.from), " out of range");
  return {};
}

Hash256 PrevHash(size_t i) {
  Hash256 h;
  Rng rng(0x5eed0000 + i);
  for (size_t j = 0; j < h.bytes.size(); j += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(h.bytes.data() + j, &word, 8);
  }
  return h;
}

uint32_t SizeValue(uint32_t where, uint32_t size) {
  switch (where % 6) {
    case 0: return size + 1 + where / 6 % 64;  // past the payload: the next record's bytes, or the end
    case 1: return size > where / 6 % 64 ? size - 1 - where / 6 % 64 : 0;  // short of it
    case 2: return seam::kMaxRecordSize;
    case 3: return seam::kMaxRecordSize + 1;
    case 4: return UINT32_MAX;
    default: return where;
  }
}

std::string FramingCase::ToString() const {
  std::string out = std::string(undo ? "Undo" : "Block") + "File(key=" + HexStr(key) +
                    ", max_size=" + std::to_string(max_size) + ", prefix=" + std::to_string(prefix) +
                    ", truncate=" + std::to_string(truncate) + ", mech=" + std::to_string(mech);
  if (!parts.empty()) {
    out += ", parts=[";
    for (size_t i = 0; i < parts.size(); ++i) {
      const Part& p = parts[i];
      const int b = p.from == PartFrom::kEnd ? static_cast<int16_t>(p.b) : p.b;  // as ResolvePart reads it
      out +=
          (i ? " " : "") + std::string(harness::ToString(p.from)) + ":" + std::to_string(p.a) + ":" + std::to_string(b);
    }
    out += "]";
  }
  if (raw) return out + ", raw=" + HexStr(raw_bytes) + ")";
  out += ", records=[";
  for (size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    out += (i ? " " : "") + std::to_string(r.size) + "/" + std::to_string(r.seed);
    if (r.corruption != Corruption::kNone) {
      out += "/c" + std::to_string(static_cast<int>(r.corruption)) + ":" + std::to_string(r.where) + ":" +
             std::to_string(r.value);
    }
  }
  return out + "])";
}

void CheckFramingCase(const FramingCase& c) {
  OpLog<CaseTrace> log;  // the case by reference: copying its vectors into the log cost 10% of an input
  log.Add(CaseTrace{&c});
  std::vector<uint8_t> plain(c.prefix);
  for (size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<uint8_t>(i * 37 + 11);
  std::vector<bool> untouched;  // per record: a non-empty payload and its checksum unchanged; and its end
  std::vector<size_t> record_end;
  std::vector<uint64_t> record_start;
  try {
    if (c.raw) {
      plain.insert(plain.end(), c.raw_bytes.begin(), c.raw_bytes.end());
    } else {
      std::vector<uint8_t> clean = plain;
      std::vector<uint8_t> payload;
      for (size_t i = 0; i < c.records.size(); ++i) {
        const FramingCase::Record& r = c.records[i];
        HARNESS_CHECK(r.size <= FramingCase::kMaxPayload, "malformed case");
        Payload(c, payload, r.size, r.seed);
        EncodeRecordRef(clean, c.undo, kMagic, PrevHash(i), payload);
        const size_t at = plain.size();
        record_start.push_back(at);
        EncodeRecordRef(plain, c.undo, kMagic, PrevHash(r.corruption == Corruption::kWrongPrev ? i + 1 : i), payload);
        const size_t body = r.size + (c.undo ? seam::kChecksumSize : 0);
        if (r.corruption == Corruption::kFlipByte && body > 0) plain[at + 8 + r.where % body] ^= NonZero(r.value);
        if (r.corruption == Corruption::kMagic) plain[at + r.where % 4] ^= NonZero(r.value);
        if (r.corruption == Corruption::kSize) {
          const uint32_t v = SizeValue(r.where, r.size);
          for (int b = 0; b < 4; ++b) plain[at + 4 + b] = static_cast<uint8_t>(v >> (8 * b));
        }
        untouched.push_back(r.size > 0 && (r.corruption == Corruption::kNone || r.corruption == Corruption::kMagic ||
                                           r.corruption == Corruption::kSize));
        record_end.push_back(plain.size());
      }
      CheckWriter(c, std::span(plain).first(c.prefix), clean);
    }
    plain.resize(plain.size() - std::min<size_t>(c.truncate, plain.size()));
    std::vector<bool> intact(untouched.size());
    for (size_t i = 0; i < intact.size(); ++i) intact[i] = untouched[i] && record_end[i] <= plain.size();
    if (plain.size() > c.prefix) CheckReader(c, plain, intact, record_start);
  } catch (const seam::IoError& e) {
    HARNESS_CHECK(false, "unexpected IoError: ", e.what());
  }
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
