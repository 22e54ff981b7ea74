// FramingCase: one block or undo file read with the subject's record reader and parsed by the reference
// (framing_ref.h); for structured cases, also written with the subject's record writer.
//
// The file is `prefix` bytes of filler, then either the case's raw bytes (arbitrary input) or records
// built from (size, seed) with at most one corruption each, then cut short by `truncate` bytes; it is
// obfuscated with `key` at its absolute offsets. Checked:
// - writing: the subject's WriteBlockRecord / WriteUndoRecord through a BufferedWriter (buffer size from
//   `mech`) after the filler gives exactly the reference encoding of the uncorrupted records;
// - reading from `prefix`, record after record: each result (payload, position after the record, or the
//   error kind) equals the reference's; reading stops at the first error or the end of the file; a
//   header rejected for magic, size or truncation has allocated nothing (the payload vector's capacity
//   stays 0); no other exception escapes.
// The file is a memory stream (fmemopen): the reader needs only stdio, and this keeps the target free of
// system calls; the same code on a real file is exercised by file_io_sim and the unit tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "seam/block_files.h"

namespace harness {

// The message start every record is written and read with: Bitcoin mainnet's.
inline constexpr seam::MessageStart kMagic{0xf9, 0xbe, 0xb4, 0xd9};

enum class Corruption : uint8_t {
  kNone = 0,
  kFlipByte = 1,   // XOR `value` (made non-zero) into the byte at `where` of payload and checksum
  kMagic = 2,      // XOR `value` (made non-zero) into magic byte `where` % 4
  kSize = 3,       // the size field becomes SizeValue(where, size)
  kWrongPrev = 4,  // undo: checksummed with the next record's previous-block hash
};
inline constexpr uint8_t kCorruptionCount = 5;

struct FramingCase {
  struct Record {
    uint32_t size = 0;
    uint32_t seed = 0;
    Corruption corruption = Corruption::kNone;
    uint32_t where = 0;
    uint8_t value = 0;
  };
  static constexpr uint32_t kMaxPayload = 2000;  // past the 600-byte writer buffer, a few SHA-256 blocks

  bool undo = false;
  std::array<uint8_t, 8> key{};
  uint32_t max_size = seam::kMaxRecordSize;
  uint8_t prefix = 0;            // filler bytes before the first record
  uint32_t truncate = 0;         // bytes cut from the end of the file
  uint8_t mech = 0;              // the writer's buffer size index (mechanics)
  bool raw = false;              // the file after the prefix is `raw_bytes`, not records
  std::vector<uint8_t> raw_bytes;
  std::vector<Record> records;

  std::string ToString() const;
};

// `size` bytes of payload from `seed` that the subject's writer and reader take as a record: random bytes,
// except for objects where the subject takes them: a serialized CBlockUndo of exactly that size (empty
// for size 0, which no CBlockUndo has) for undo records when the subject's undo reader parses its payload
// (seam::kUndoHeaderChecked false) or its writers take objects (seam::kWriterTakesObjects); a serialized
// CBlock for block records of a subject whose writers take objects, for the sizes a block can have (81,
// and 132 and more; random bytes otherwise). Bitcoin Core's subject does both.
void RecordPayload(bool undo, std::vector<uint8_t>& out, uint32_t size, uint32_t seed);

// The previous-block hash the reader expects for record i (also what the writer uses).
Hash256 PrevHash(size_t i);
// The size field value kSize writes: near the true size, at and past the limits, or huge.
uint32_t SizeValue(uint32_t where, uint32_t size);

void CheckFramingCase(const FramingCase& c);

}  // namespace harness
