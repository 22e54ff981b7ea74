// FramingCase: one block or undo file read with the subject's record reader and parsed by the reference
// (block_files_ref.h); for structured cases, also written with the subject's record writer.
//
// The file is `prefix` bytes of filler, then either the case's raw bytes (arbitrary input) or records
// built from (size, seed) with at most one corruption each, then cut short by `truncate` bytes; it is
// obfuscated with `key` at its absolute offsets. Checked:
// - writing: the subject's WriteBlockRecord / WriteUndoRecord through a BufferedWriter (buffer size from
//   `mech`) after the filler gives exactly the reference encoding of the uncorrupted records;
// - reading from `prefix`, record after record (where the subject has the reader: seam::kBlockRecordReads,
//   kUndoRecordReads): each result (payload, position after the record, or the
//   error kind) equals the reference's; reading stops at the first error or the end of the file; a
//   header rejected for magic, size or truncation has allocated nothing (the payload vector's capacity
//   stays 0); no other exception escapes;
// - block files, when the subject reads parts (seam::kPartialBlockReads): each of `parts` is read from
//   every record the reader reaches (the one it fails on included) and from every record the case built
//   (after a corrupted or cut-off one too): the part's bytes and the position after it, or the error kind,
//   equal the reference's (ParsePartRef), and a rejected part has allocated nothing (as for a header: a
//   subject whose truncated reads allocate, seam::kTruncatedRecordAllocatesNothing false, is not held to
//   that for kTruncated).
// The file is a memory stream (fmemopen): the reader needs only stdio, and this keeps the target free of
// system calls; the same code on a real file is exercised by file_io_sim and the unit tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "op_list.h"
#include "seam/block_files.h"

namespace harness {

// The message start every record is written and read with: Bitcoin mainnet's.
inline constexpr seam::MessageStart kMagic{0xf9, 0xbe, 0xb4, 0xd9};

// X(enumerator, id, name). Traces print a corruption by its id.
// clang-format off
#define HARNESS_CORRUPTIONS(X)                                                                                         \
  X(kNone, 0, "none")                                                                                                  \
  X(kFlipByte, 1, "flip_byte")   /* XOR `value` (made non-zero) into the byte at `where` of payload and checksum */    \
  X(kMagic, 2, "magic")          /* XOR `value` (made non-zero) into magic byte `where` % 4 */                         \
  X(kSize, 3, "size")            /* the size field becomes SizeValue(where, size) */                                   \
  X(kWrongPrev, 4, "wrong_prev") /* undo: checksummed with the next record's previous-block hash */                    \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_ENUM(Corruption, kCorruptionCount, HARNESS_CORRUPTIONS)

// Where a part read's range lies, relative to N, the payload size the record's header declares (0 if the
// file ends inside the header): a part choice names a range that lands the same way on any record.
// X(enumerator, id, name).
// clang-format off
#define HARNESS_PART_FROMS(X)                                                                                          \
  X(kStart, 0, "start")            /* [a, a + b): inside the payload, or across its end when a + b > N */              \
  /* [N - min(a, N), N + d) with d = b as a signed 16-bit number (empty if it ends before it starts): ending */        \
  /* inside (d < 0), exactly at (d = 0) or past (d > 0) the end */                                                     \
  X(kEnd, 1, "end")                                                                                                    \
  X(kPastEnd, 2, "past_end")       /* [N + a, N + a + b): starting at or past the end */                               \
  X(kHugeOffset, 3, "huge_offset") /* offset UINT64_MAX - a, size b: offset + size wraps around 2^64 when b > a */     \
  X(kHugeSize, 4, "huge_size")     /* offset a, size UINT64_MAX - b: wraps when a > b */                               \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_ENUM(PartFrom, kPartFromCount, HARNESS_PART_FROMS)

struct FramingCase {
  struct Record {
    uint32_t size = 0;
    uint32_t seed = 0;
    Corruption corruption = Corruption::kNone;
    uint32_t where = 0;
    uint8_t value = 0;
  };
  // One part read (block files), as PartFrom says. Boundaries are small numbers: kEnd with b = 0 ends
  // exactly at the payload's end, kPastEnd with a = 0 starts there, b = 0 elsewhere makes the part empty.
  struct Part {
    PartFrom from = PartFrom::kStart;
    uint16_t a = 0;
    uint16_t b = 0;
  };
  static constexpr uint32_t kMaxPayload = 2000;  // past the 600-byte writer buffer, a few SHA-256 blocks
  // Each part is read at every record: a handful covers inside, end and past-end ranges at once.
  static constexpr size_t kMaxParts = 4;

  bool undo = false;
  std::array<uint8_t, 8> key{};
  uint32_t max_size = seam::kMaxRecordSize;
  uint8_t prefix = 0;     // filler bytes before the first record
  uint32_t truncate = 0;  // bytes cut from the end of the file
  uint8_t mech = 0;       // the writer's buffer size index (mechanics)
  bool raw = false;       // the file after the prefix is `raw_bytes`, not records
  std::vector<uint8_t> raw_bytes;
  std::vector<Record> records;
  std::vector<Part> parts;  // block files only; at most kMaxParts

  std::string ToString() const;
};

// `size` bytes of payload from `seed` that the subject's writer and reader take as a record: random bytes,
// except for objects where the subject takes them: a serialized CBlockUndo of exactly that size (empty
// for size 0, which no CBlockUndo has) for undo records when the subject's undo reader parses its payload
// (seam::kUndoHeaderChecked false) or its writers take objects (seam::kWriterTakesBlocks, kWriterTakesUndo); a
// serialized CBlock for block records of a subject whose writers take objects, for the sizes a block can have (81, and
// 132 and more; random bytes otherwise). Bitcoin Core's subject does both.
void RecordPayload(bool undo, std::vector<uint8_t>& out, uint32_t size, uint32_t seed);

// The previous-block hash the reader expects for record i (also what the writer uses).
Hash256 PrevHash(size_t i);
// The size field value kSize writes: near the true size, at and past the limits, or huge.
uint32_t SizeValue(uint32_t where, uint32_t size);

// The (offset, size) `part` names for a record whose header declares `declared` payload bytes.
std::pair<uint64_t, uint64_t> ResolvePart(const FramingCase::Part& part, uint32_t declared);

void CheckFramingCase(const FramingCase& c);

}  // namespace harness
