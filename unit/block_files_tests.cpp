// Block and undo records in blk/rev files (seam/block_files.h, docs/semantics.md §3): records and undo
// checksums worked out by hand, round trips with a printed, settable seed, framing errors, partial block reads
// swept around the payload's end and on truncated files, the header judged before the range, oversized
// payloads, and seeded random runs of the FramingCase property.
// Real files live in a fresh directory under $TMPDIR (or /tmp), removed when each test ends.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_files_ref.h"
#include "block_files_tester.h"
#include "rng.h"
#include "seam/block_files.h"
#include "seam/file_io.h"
#include "test_util.h"

namespace {

using unit::Bytes;
using unit::CountingSink;
using unit::FromHex;
using unit::kBitKey;
using unit::Open;
using unit::RawBytes;
using unit::TempDir;

constexpr seam::MessageStart kMagic{0xf9, 0xbe, 0xb4, 0xd9};

// Partial block reads exist only where the subject has them (seam::kPartialBlockReads; Bitcoin Core before
// PR #33657 has none). Elsewhere a test that needs them says in the log that it was skipped, and why.
bool PartialReadsOrSkip(const char* test) {
  if (seam::kPartialBlockReads) return true;
  BOOST_TEST_MESSAGE("block_files " << test << ": SKIPPED, the subject has no partial block reads "
                                    << "(seam::kPartialBlockReads is false: a Bitcoin Core tree without PR #33657)");
  return false;
}

// A part read rendered for comparison: "bytes <hex> at <position after>" or "error <kind>", plus
// " (allocated)" when a rejected part left memory behind where the subject promises none.
std::string ReadPart(seam::AutoFile& in, uint64_t at, uint64_t offset, uint64_t size, uint32_t max_size) {
  std::vector<uint8_t> part;
  in.Seek(static_cast<int64_t>(at), SEEK_SET);
  try {
    seam::ReadBlockRecordPart(in, kMagic, offset, size, part, max_size);
  } catch (const seam::FramingError& e) {
    const bool promised = e.kind() != seam::FramingError::Kind::kTruncated || seam::kTruncatedRecordAllocatesNothing;
    return std::string("error ") + ToString(e.kind()) + (promised && part.capacity() != 0 ? " (allocated)" : "");
  }
  return "bytes " + HexStr(part) + " at " + std::to_string(in.Position().value_or(0));
}

// The contract's answer for a part of the well-formed block record at `at` (its header's magic right, its
// size field `declared` within the limit) of a plaintext file whose first `file_size` bytes are present.
std::string ExpectPart(std::span<const uint8_t> plain, uint64_t file_size, uint64_t at, uint32_t declared,
                       uint64_t offset, uint64_t size) {
  if (file_size < at + 8) return "error truncated";
  if (size == 0 || offset > declared || size > declared - offset) return "error bad range";
  if (at + 8 + offset + size > file_size) return "error truncated";
  return "bytes " + HexStr(plain.subspan(at + 8 + offset, size)) + " at " + std::to_string(at + 8 + offset + size);
}

// The reference's answer, rendered the same way.
std::string RefPart(std::span<const uint8_t> plain, uint64_t at, uint32_t max_size, uint64_t offset, uint64_t size) {
  const harness::RecordRef ref = harness::ParsePartRef(plain, at, kMagic, max_size, offset, size);
  if (!ref.ok) return std::string("error ") + ToString(ref.error);
  return "bytes " + HexStr(plain.subspan(ref.payload_at, ref.size)) + " at " + std::to_string(ref.end);
}

// Offsets or sizes to sweep: 0..3, n-3..n+3, and the four values below 2^64 (where offset + size wraps).
std::vector<uint64_t> AroundEnd(uint64_t n) {
  std::vector<uint64_t> v{0, 1, 2, 3, UINT64_MAX - 3, UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX};
  for (uint64_t d = 0; d <= 6; ++d) {
    if (n + d >= 3) v.push_back(n + d - 3);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(block_files_tests)

BOOST_AUTO_TEST_CASE(known_answer_records, *unit::Needs(seam::kUndoRecordReads, "an undo record reader")) {
  TempDir dir;
  const std::string path = dir.File("blk");
  {
    seam::AutoFile f = Open(path, "wb", seam::Obfuscation(kBitKey));
    seam::BufferedWriter w(f);
    seam::WriteBlockRecord(w, kMagic, std::vector<uint8_t>{0xaa, 0xbb, 0xcc});
    w.Flush();
    f.Close();
  }
  // f9 be b4 d9 | 03 00 00 00 | aa bb cc, XOR 01 02 04 08 10 20 40 80 01 02 04 by offset.
  BOOST_TEST(RawBytes(path, 0, 100) == FromHex("f8bcb0d113204080abb9c8"), boost::test_tools::per_element());

  // Undo checksums computed independently with Python's hashlib as sha256(sha256(prev + payload)).
  Hash256 prev;
  prev.bytes.fill(0x11);
  const std::vector<uint8_t> abc{'a', 'b', 'c'};
  const Hash256 sum = seam::UndoChecksum(prev, abc);
  BOOST_TEST(std::vector<uint8_t>(sum.bytes.begin(), sum.bytes.end()) ==
                 FromHex("41dc6804c43ff34e0de117dd10812f89aff060d806161a15b586adcd6214d4f9"),
             boost::test_tools::per_element());
  const Hash256 zero_sum = seam::UndoChecksum(Hash256{}, {});
  BOOST_TEST(std::vector<uint8_t>(zero_sum.bytes.begin(), zero_sum.bytes.end()) ==
                 FromHex("2b32db6c2c0a6235fb1397e8225ea85e0f0e6e8c7b126d0016ccbde0e667151e"),
             boost::test_tools::per_element());

  const std::string undo_path = dir.File("rev");
  {
    seam::AutoFile f = Open(undo_path, "wb");
    {
      seam::BufferedWriter w(f, 5);
      seam::WriteUndoRecord(w, kMagic, prev, abc);
    }
    f.Close();
  }
  // Zero key: plaintext. f9 be b4 d9 | 03 00 00 00 | 61 62 63 | the checksum above.
  BOOST_TEST(RawBytes(undo_path, 0, 100) == FromHex("f9beb4d903000000616263"
                                                    "41dc6804c43ff34e0de117dd10812f89aff060d806161a15b586adcd6214d4f9"),
             boost::test_tools::per_element());
  // Read back. A subject whose undo reader parses the payload as a CBlockUndo (seam::kUndoHeaderChecked
  // false) gets one: 01 01 00 00 07 00 is one transaction spending one coin (height 0, amount 0, the
  // one-byte script 00).
  const std::vector<uint8_t> undo_payload = seam::kUndoHeaderChecked ? abc : FromHex("010100000700");
  if (!seam::kUndoHeaderChecked) {
    seam::AutoFile f = Open(undo_path, "wb");
    {
      seam::BufferedWriter w(f, 5);
      seam::WriteUndoRecord(w, kMagic, prev, undo_payload);
    }
    f.Close();
  }
  seam::AutoFile in = Open(undo_path, "rb");
  std::vector<uint8_t> payload;
  seam::ReadUndoRecord(in, kMagic, prev, payload);
  BOOST_TEST(payload == undo_payload, boost::test_tools::per_element());
  BOOST_TEST(in.Position() == std::optional<uint64_t>(8 + undo_payload.size() + 32));
}

BOOST_AUTO_TEST_CASE(record_round_trips) {
  const uint64_t seed = harness::TestSeed(20261122);
  BOOST_TEST_MESSAGE("block_files record_round_trips: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    TempDir dir;
    for (const bool undo : {false, true}) {
      if (!(undo ? seam::kUndoRecordReads : seam::kBlockRecordReads)) {
        BOOST_TEST_MESSAGE("record_round_trips: the subject has no " << (undo ? "undo" : "block") << " record reader");
        continue;
      }
      const std::string path = dir.File(undo ? "rev" : "blk");
      seam::Obfuscation::KeyBytes key;
      for (auto& b : key) b = static_cast<uint8_t>(rng.Next());
      std::vector<std::vector<uint8_t>> payloads;
      for (int i = 0; i < 300; ++i) {
        uint64_t size = rng.Chance(5) ? rng.Below(200000) : rng.Chance(50) ? rng.Below(64) : rng.Below(3000);
        if (undo && !seam::kUndoHeaderChecked) {
          if (size == 0) size = 1;  // no CBlockUndo is empty
          // Core reads an undo script longer than MAX_SCRIPT_SIZE (10,000 bytes) back as OP_RETURN: only
          // shorter ones round-trip.
          size = std::min<uint64_t>(size, 10'000);
        }
        if ((undo ? seam::kWriterTakesUndo : seam::kWriterTakesBlocks) || (undo && !seam::kUndoHeaderChecked)) {
          // Objects, which such a subject writes with the node's own writers (random bytes otherwise).
          payloads.emplace_back();
          harness::RecordPayload(undo, payloads.back(), static_cast<uint32_t>(size), static_cast<uint32_t>(rng.Next()));
        } else {
          payloads.push_back(Bytes(rng, size));
        }
      }
      {
        seam::AutoFile f = Open(path, "wb", seam::Obfuscation(key));
        seam::BufferedWriter w(f, rng.Chance(50) ? seam::BufferedWriter::kDefaultSize : rng.Range(1, 5000));
        for (size_t i = 0; i < payloads.size(); ++i) {
          if (undo) {
            seam::WriteUndoRecord(w, kMagic, harness::PrevHash(i), payloads[i]);
          } else {
            seam::WriteBlockRecord(w, kMagic, payloads[i]);
          }
        }
        w.Flush();
        f.Close();
      }
      seam::AutoFile in = Open(path, "rb", seam::Obfuscation(key));
      const uint64_t size = *in.Size();
      std::vector<uint8_t> payload;
      for (size_t i = 0; i < payloads.size(); ++i) {
        if (undo) {
          seam::ReadUndoRecord(in, kMagic, harness::PrevHash(i), payload);
        } else {
          seam::ReadBlockRecord(in, kMagic, payload);
        }
        BOOST_TEST_REQUIRE(payload == payloads[i], (undo ? "undo" : "block")
                                                       << " record " << i << " of " << payloads[i].size()
                                                       << " bytes read back as " << payload.size());
      }
      BOOST_TEST(in.Position() == std::optional<uint64_t>(size));
      BOOST_CHECK_EXCEPTION(
          seam::ReadBlockRecord(in, kMagic, payload), seam::FramingError,
          [](const seam::FramingError& e) { return e.kind() == seam::FramingError::Kind::kTruncated; });
    }
  }
}

BOOST_AUTO_TEST_CASE(framing_errors,
                     *unit::Needs(seam::kBlockRecordReads&& seam::kUndoRecordReads, "block and undo record readers")) {
  TempDir dir;
  const std::string path = dir.File("bad");
  auto write_file = [&](const std::vector<uint8_t>& bytes) {
    seam::AutoFile f = Open(path, "wb");
    f.Write(bytes);
    f.Close();
  };
  // A limit of 1000 where the subject takes one (seam::kRecordLimitIsParameter), else its fixed limit.
  const uint32_t limit = seam::kRecordLimitIsParameter ? 1000 : seam::kMaxRecordSize;
  auto read_error = [&](bool undo, const Hash256& prev) -> seam::FramingError {
    seam::AutoFile in = Open(path, "rb");
    std::vector<uint8_t> payload;
    try {
      if (undo) {
        seam::ReadUndoRecord(in, kMagic, prev, payload, limit);
      } else {
        seam::ReadBlockRecord(in, kMagic, payload, limit);
      }
    } catch (const seam::FramingError& e) {
      BOOST_TEST_MESSAGE(e.what());
      if (e.kind() != seam::FramingError::Kind::kBadChecksum)
        BOOST_TEST(payload.capacity() == 0u);  // nothing allocated
      // (for a subject that allocates before finding a record truncated, kTruncatedRecordAllocatesNothing
      // false, this sees only that the caller's vector is left alone)
      return e;
    }
    BOOST_FAIL("no error");
    throw;
  };
  using Kind = seam::FramingError::Kind;
  write_file(FromHex("f9beb4d90300"));  // header cut short
  BOOST_TEST((read_error(false, {}).kind() == Kind::kTruncated));
  write_file(FromHex("f9beb4d8030000000102"));  // last magic byte wrong
  const seam::FramingError bad_magic = read_error(false, {});
  BOOST_TEST((bad_magic.kind() == Kind::kBadMagic));
  BOOST_TEST(std::string(bad_magic.what()).find("f9beb4d8") != std::string::npos);  // the message shows it
  write_file(FromHex("f9beb4d9ffffffff0102"));  // 4 GiB declared: rejected before any allocation
  BOOST_TEST((read_error(false, {}).kind() == Kind::kTooLarge));
  if (seam::kRecordLimitIsParameter) {
    write_file(FromHex("f9beb4d9e9030000"));  // 1001 > the limit of 1000 used here
    BOOST_TEST((read_error(false, {}).kind() == Kind::kTooLarge));
  } else {
    write_file(FromHex("f9beb4d901000002"));  // the fixed limit plus one
    BOOST_TEST((read_error(false, {}).kind() == Kind::kTooLarge));
  }
  write_file(FromHex("f9beb4d9e8030000aabb"));  // 1000 declared, 2 present
  BOOST_TEST((read_error(false, {}).kind() == Kind::kTruncated));
  // Undo: the payload fits but the 32-byte checksum does not (a reader that parses the payload as a
  // CBlockUndo runs out of bytes too: aa = 170 transactions).
  write_file(FromHex("f9beb4d902000000aabb00000000"));
  BOOST_TEST((read_error(true, {}).kind() == Kind::kTruncated));

  // An undo record checked against another previous-block hash, or with one payload bit flipped.
  std::vector<uint8_t> good;
  Hash256 prev;
  prev.bytes.fill(0x11);
  std::vector<uint8_t> undo_payload;
  harness::RecordPayload(true, undo_payload, 6, 1);
  harness::EncodeRecordRef(good, true, kMagic, prev, undo_payload);
  write_file(good);
  Hash256 other = prev;
  other.bytes[31] ^= 1;
  BOOST_TEST((read_error(true, other).kind() == Kind::kBadChecksum));
  good[8 + undo_payload.size() - 1] ^= 0x40;  // the last payload byte (for a CBlockUndo: a script byte)
  write_file(good);
  BOOST_TEST((read_error(true, prev).kind() == Kind::kBadChecksum));

  BOOST_TEST(std::string(ToString(Kind::kTruncated)) == "truncated");
  BOOST_TEST(std::string(ToString(Kind::kBadMagic)) == "bad magic");
  BOOST_TEST(std::string(ToString(Kind::kTooLarge)) == "too large");
  BOOST_TEST(std::string(ToString(Kind::kBadChecksum)) == "bad checksum");
  BOOST_TEST(std::string(ToString(static_cast<Kind>(9))) == "unknown");
}

// Every (offset, size) around the start and the end of each record's payload, and sizes that end exactly at,
// one before and one past it, on records of 0 to 300 bytes one after another in an obfuscated file: a part
// that does not end inside its record's payload is a bad range even where the next record's bytes follow.
BOOST_AUTO_TEST_CASE(block_part_sweeps_around_the_payload_end) {
  if (!PartialReadsOrSkip("block_part_sweeps_around_the_payload_end")) return;
  harness::Rng rng(20261201);
  const std::vector<uint32_t> sizes{0, 1, 7, 81, 300, 2};
  std::vector<uint8_t> plain{0x11, 0x22, 0x33};  // filler: the records start at odd offsets
  std::vector<uint64_t> starts;
  for (const uint32_t n : sizes) {
    starts.push_back(plain.size());
    harness::EncodeRecordRef(plain, false, kMagic, Hash256{}, Bytes(rng, n));
  }
  TempDir dir;
  const std::string path = dir.File("blk");
  {
    seam::AutoFile f = Open(path, "wb", seam::Obfuscation(kBitKey));
    f.Write(plain);
    f.Close();
  }
  seam::AutoFile in = Open(path, "rb", seam::Obfuscation(kBitKey));
  size_t reads = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const uint64_t n = sizes[i];
    for (const uint64_t offset : AroundEnd(n)) {
      std::vector<uint64_t> part_sizes = AroundEnd(n);
      if (offset <= n) {
        for (uint64_t d = 0; d <= 2; ++d) {
          if (n - offset + d >= 1) part_sizes.push_back(n - offset + d - 1);
        }
      }
      for (const uint64_t size : part_sizes) {
        BOOST_TEST_CONTEXT("record " << i << " (" << n << " bytes at " << starts[i] << "), part [" << offset << ", +"
                                     << size << ")") {
          const std::string want = ExpectPart(plain, plain.size(), starts[i], sizes[i], offset, size);
          BOOST_TEST(RefPart(plain, starts[i], seam::kMaxRecordSize, offset, size) == want);
          BOOST_TEST(ReadPart(in, starts[i], offset, size, seam::kMaxRecordSize) == want);
          ++reads;
        }
      }
    }
  }
  BOOST_TEST_MESSAGE("block_files block_part_sweeps_around_the_payload_end: " << reads << " part reads");
}

// A file cut at every length from nothing to whole: the header must be in the file, then the range is
// checked against the declared size, then only the part's own bytes must be there (a part of a record
// whose tail is cut off reads). Every (offset, size) of a 16-byte payload, and the wrapping ones.
BOOST_AUTO_TEST_CASE(block_part_on_truncated_files) {
  if (!PartialReadsOrSkip("block_part_on_truncated_files")) return;
  harness::Rng rng(20261202);
  constexpr uint32_t kSize = 16;
  std::vector<uint8_t> plain{0xee, 0xdd};  // the record starts at 2
  harness::EncodeRecordRef(plain, false, kMagic, Hash256{}, Bytes(rng, kSize));
  std::vector<uint64_t> values;
  for (uint64_t v = 0; v <= kSize + 1; ++v) values.push_back(v);
  values.push_back(UINT64_MAX - kSize);
  values.push_back(UINT64_MAX);
  TempDir dir;
  const std::string path = dir.File("blk");
  size_t reads = 0;
  for (uint64_t length = 2; length <= plain.size(); ++length) {
    {
      seam::AutoFile f = Open(path, "wb", seam::Obfuscation(kBitKey));
      f.Write(std::span(plain).first(length));
      f.Close();
    }
    seam::AutoFile in = Open(path, "rb", seam::Obfuscation(kBitKey));
    for (const uint64_t offset : values) {
      for (const uint64_t size : values) {
        BOOST_TEST_CONTEXT("file cut to " << length << " of " << plain.size() << " bytes, part [" << offset << ", +"
                                          << size << ")") {
          const std::string want = ExpectPart(plain, length, 2, kSize, offset, size);
          BOOST_TEST(RefPart(std::span(plain).first(length), 2, seam::kMaxRecordSize, offset, size) == want);
          BOOST_TEST(ReadPart(in, 2, offset, size, seam::kMaxRecordSize) == want);
          ++reads;
        }
      }
    }
  }
  BOOST_TEST_MESSAGE("block_files block_part_on_truncated_files: " << reads << " part reads");
}

// The header is judged before the range: a bad magic or an oversized size field wins over an empty or
// out-of-range part, and nothing is allocated for either.
BOOST_AUTO_TEST_CASE(block_part_header_checked_first) {
  if (!PartialReadsOrSkip("block_part_header_checked_first")) return;
  TempDir dir;
  const std::string path = dir.File("blk");
  auto read = [&](const std::string& hex, uint64_t offset, uint64_t size, uint32_t max_size = seam::kMaxRecordSize) {
    {
      seam::AutoFile f = Open(path, "wb");
      f.Write(FromHex(hex));
      f.Close();
    }
    seam::AutoFile in = Open(path, "rb");
    return ReadPart(in, 0, offset, size, max_size);
  };
  BOOST_TEST(read("f9beb4d90300", 0, 0) == "error truncated");
  BOOST_TEST(read("f9beb4d8030000000102", 0, 0) == "error bad magic");
  BOOST_TEST(read("f9beb4d8030000000102", UINT64_MAX, 2) == "error bad magic");
  BOOST_TEST(read("f9beb4d9ffffffff0102", 0, 1) == "error too large");
  BOOST_TEST(read("f9beb4d901000002", 0, 0) == "error too large");  // the fixed limit plus one
  if (seam::kRecordLimitIsParameter) {
    BOOST_TEST(read("f9beb4d9e90300000102", 0, 1, 1000) == "error too large");
    BOOST_TEST(read("f9beb4d9e80300000102", 0, 1, 1000) == "bytes 01 at 9");
  }
  // 1000 bytes declared, 2 present: the range is judged against the 1000, the bytes against the file.
  BOOST_TEST(read("f9beb4d9e8030000aabb", 999, 2) == "error bad range");
  BOOST_TEST(read("f9beb4d9e8030000aabb", 1000, 1) == "error bad range");
  BOOST_TEST(read("f9beb4d9e8030000aabb", 0, 2) == "bytes aabb at 10");
  BOOST_TEST(read("f9beb4d9e8030000aabb", 1, 1) == "bytes bb at 10");
  BOOST_TEST(read("f9beb4d9e8030000aabb", 0, 3) == "error truncated");
  BOOST_TEST(read("f9beb4d9e8030000aabb", 998, 2) == "error truncated");
  // An empty payload has no part at all.
  BOOST_TEST(read("f9beb4d900000000", 0, 1) == "error bad range");
  BOOST_TEST(read("f9beb4d900000000", 0, 0) == "error bad range");
}

// Where the subject has no partial reads, calling for one is a programming error, not a framing error.
BOOST_AUTO_TEST_CASE(block_part_needs_the_feature) {
  TempDir dir;
  const std::string path = dir.File("blk");
  {
    seam::AutoFile f = Open(path, "wb");
    f.Write(FromHex("f9beb4d902000000aabb"));
    f.Close();
  }
  seam::AutoFile in = Open(path, "rb");
  std::vector<uint8_t> part;
  if (seam::kPartialBlockReads) {
    seam::ReadBlockRecordPart(in, kMagic, 1, 1, part);
    BOOST_TEST(part == std::vector<uint8_t>{0xbb});
  } else {
    BOOST_TEST_MESSAGE(
        "block_files block_part_needs_the_feature: the subject has no partial block reads; checking "
        "that asking for one throws std::logic_error");
    BOOST_CHECK_THROW(seam::ReadBlockRecordPart(in, kMagic, 1, 1, part), std::logic_error);
    BOOST_TEST(part.empty());
  }
  BOOST_TEST(std::string(ToString(seam::FramingError::Kind::kBadRange)) == "bad range");
}

BOOST_AUTO_TEST_CASE(oversized_payload_is_not_written) {
  CountingSink sink;
  seam::AutoFile f(sink.Open());
  const std::vector<uint8_t> huge(size_t{seam::kMaxRecordSize} + 1);
  {
    seam::BufferedWriter w(f, 16);
    if (seam::kWriterRejectsOversized) {
      BOOST_CHECK_THROW(seam::WriteBlockRecord(w, kMagic, huge), seam::FramingError);
      BOOST_CHECK_THROW(seam::WriteUndoRecord(w, kMagic, Hash256{}, huge), seam::FramingError);
    } else {
      seam::WriteBlockRecord(w, kMagic, huge);  // written like any other record
    }
    BOOST_TEST(w.buffered() == (seam::kWriterRejectsOversized ? 0u : (8 + huge.size()) % 16));
  }
  BOOST_TEST(sink.bytes.size() == (seam::kWriterRejectsOversized ? 0u : 8 + huge.size()));
  f.Close();
}

BOOST_AUTO_TEST_CASE(random_framing_cases) {
  const uint64_t seed = harness::TestSeed(20261124);
  BOOST_TEST_MESSAGE("block_files random_framing_cases: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    for (int run = 0; run < 400; ++run) {
      harness::FramingCase c;
      c.undo = rng.Chance(50);
      if (rng.Chance(70)) {
        for (auto& b : c.key) b = static_cast<uint8_t>(rng.Next());
      }
      c.max_size = rng.Chance(30) ? static_cast<uint32_t>(rng.Below(600)) : seam::kMaxRecordSize;
      c.prefix = static_cast<uint8_t>(rng.Below(16));
      c.truncate = rng.Chance(20) ? static_cast<uint32_t>(rng.Below(64)) : 0;
      c.mech = static_cast<uint8_t>(rng.Next());
      c.raw = rng.Chance(10);
      if (c.raw) {
        c.raw_bytes = Bytes(rng, rng.Below(100));
        if (rng.Chance(50) && c.raw_bytes.size() >= 4) std::copy(kMagic.begin(), kMagic.end(), c.raw_bytes.begin());
      }
      for (uint64_t n = c.undo ? 0 : rng.Below(harness::FramingCase::kMaxParts + 1); n > 0; --n) {
        harness::FramingCase::Part& p = c.parts.emplace_back();
        p.from = static_cast<harness::PartFrom>(rng.Below(harness::kPartFromCount));
        p.a = static_cast<uint16_t>(rng.Chance(50) ? rng.Below(8) : rng.Below(2100));
        // -8..8 (for kEnd: ending just before, at or just past the end), or anywhere up to 2100.
        const int b = rng.Chance(50) ? static_cast<int>(rng.Below(17)) - 8 : static_cast<int>(rng.Below(2100));
        p.b = static_cast<uint16_t>(b);
      }
      for (uint64_t n = rng.Below(8); n > 0 && !c.raw; --n) {
        harness::FramingCase::Record r;
        r.size =
            static_cast<uint32_t>(rng.Chance(80) ? rng.Below(300) : rng.Below(harness::FramingCase::kMaxPayload + 1));
        r.seed = static_cast<uint32_t>(rng.Next());
        if (rng.Chance(25))
          r.corruption = static_cast<harness::Corruption>(rng.Range(1, harness::kCorruptionCount - 1));
        r.where = static_cast<uint32_t>(rng.Next());
        r.value = static_cast<uint8_t>(rng.Next());
        c.records.push_back(r);
      }
      harness::CheckFramingCase(c);  // fails through HARNESS_CHECK with the case printed
    }
    BOOST_TEST(true);
  }
}

// Framing needs the file's size, which a file with no position (a pipe) cannot tell.
BOOST_AUTO_TEST_CASE(record_on_a_pipe, *unit::Needs(seam::kBlockRecordReads, "a block record reader")) {
  int fds[2];
  BOOST_REQUIRE(pipe(fds) == 0);
  seam::AutoFile out(fdopen(fds[1], "wb"), seam::Obfuscation(kBitKey));
  seam::AutoFile in(fdopen(fds[0], "rb"), seam::Obfuscation(kBitKey));
  out.Close();  // first: a subject that reads before it asks for the size would wait forever on a live writer
  std::vector<uint8_t> payload(3);
  BOOST_CHECK_THROW(seam::ReadBlockRecord(in, kMagic, payload), seam::IoError);
  in.Close();
}

BOOST_AUTO_TEST_SUITE_END()
