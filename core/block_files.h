// Bitcoin Core side of seam/block_files.h: block and undo record framing (src/io/block_files.h) over Core's
// node::BlockManager (node/blockstorage.cpp).
//
// The seam reads a record from any file at any offset; BlockManager reads only blk?????.dat and rev?????.dat
// in its blocks directory, at a position from the block index, with the key in that directory's xor.dat.
// So the adapter keeps a scratch blocks directory (unique per process, removed at exit) and, for each read,
// copies the file's raw (obfuscated) bytes to blk00000.dat or rev00000.dat, makes sure the BlockManager
// there was started with an xor.dat holding the file's key, and asks Core for the record at the file's
// position: ReadRawBlock for a block record (with the part, for a part of its payload), ReadBlockUndo
// (with a block index whose parent has the given hash) for an undo record. Core reports a failed read only
// in its log (except a bad part range, which ReadRawBlock returns without logging); the adapter listens to
// Core's log and turns the message into the FramingError kind.
// Writing: BlockManager writes only whole CBlock / CBlockUndo objects, in block files and at positions it
// chooses. So a payload that is exactly a serialized CBlock (or CBlockUndo), with the message start of one
// of Core's chains, is written by WriteBlock (WriteBlockUndo, after an empty block that gives it a block
// file) into a second scratch blocks directory, and the record Core wrote there is read back and appended
// to the caller's writer. Any other payload is framed through Core's BufferedWriter with Core's serializer
// and HashWriter, statement for statement as WriteBlock and WriteBlockUndo frame one.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/unavailable.h"
#include "src/coins/outpoint.h"  // embedded::Hash256, the suite's 256-bit hash
#include "src/io/framing_error_kind.h"

namespace core_adapter {

using MessageStart = std::array<uint8_t, 4>;

inline constexpr size_t kRecordHeaderSize = 8;
inline constexpr size_t kChecksumSize = 32;
// Core's MAX_SIZE, the limit ReadRawBlock checks before allocating.
inline constexpr uint32_t kMaxRecordSize = 0x02000000;

// Core's limit is fixed (MAX_SIZE); the embedded reader takes it as a parameter. The adapter accepts only
// kMaxRecordSize and throws std::invalid_argument for anything else.
inline constexpr bool kRecordLimitIsParameter = false;
// ReadRawBlock allocates the size field's bytes (up to MAX_SIZE, zeroed; for a part, the part's size)
// before it finds the file too short; the embedded reader checks the file's length first. (The adapter
// fills the caller's vector only on success, so the caller cannot see Core's allocation either way.)
inline constexpr bool kTruncatedRecordAllocatesNothing = false;
// ReadBlockUndo starts at the payload (the index stores the position after the header) and checks neither
// the magic nor the size field: the payload's own encoding, a serialized CBlockUndo, says where it ends.
// Payloads that are not a CBlockUndo are rejected; a successful read returns Core's CBlockUndo serialized
// again, and the file position is set after its checksum.
inline constexpr bool kUndoHeaderChecked = false;
// WriteBlock / WriteBlockUndo do not check the payload's size: nothing is rejected as too large.
inline constexpr bool kWriterRejectsOversized = false;
// Payloads that are serialized blocks (undo data) are written by Core's own writers (above), where the tree
// has WriteBlock (WriteBlockUndo); elsewhere they are framed as any payload.
inline constexpr bool kWriterTakesBlocks = SUITE_CORE_write_block;
inline constexpr bool kWriterTakesUndo = SUITE_CORE_block_undo;
// Block records are read by ReadRawBlock, undo records by ReadBlockUndo: each only where the tree has it
// (ReadBlockRecord, ReadUndoRecord throw Unavailable elsewhere).
inline constexpr bool kBlockRecordReads = SUITE_CORE_read_raw_block;
inline constexpr bool kUndoRecordReads = SUITE_CORE_block_undo;
// Bitcoin Core PR #33657: ReadRawBlock reads a part (offset, size) of a block and reports an empty or
// out-of-payload range as BadPartRange (SUITE_CORE_raw_block_part from cmake/BitcoinCore.cmake's feature
// probe; core/block_files.cpp checks it against core/features.h). A tree without it has no partial reads:
// ReadBlockRecordPart then throws std::logic_error.
inline constexpr bool kPartialBlockReads = SUITE_CORE_raw_block_part;

class FramingError : public IoError {
 public:
  using Kind = embedded::FramingErrorKind;
  FramingError(Kind kind, const std::string& message) : IoError(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Core's HashWriter over the previous block hash and the payload bytes (double SHA-256).
embedded::Hash256 UndoChecksum(const embedded::Hash256& prev_block_hash, std::span<const uint8_t> payload);

void WriteBlockRecord(BufferedWriter& out, const MessageStart& magic, std::span<const uint8_t> payload);
void WriteUndoRecord(BufferedWriter& out, const MessageStart& magic, const embedded::Hash256& prev_block_hash,
                     std::span<const uint8_t> payload);

// `magic` must be the message start of one of Core's chains (std::invalid_argument otherwise): it picks
// the chain parameters the BlockManager is built with.
void ReadBlockRecord(AutoFile& in, const MessageStart& magic, std::vector<uint8_t>& payload,
                     uint32_t max_size = kMaxRecordSize);
void ReadUndoRecord(AutoFile& in, const MessageStart& magic, const embedded::Hash256& prev_block_hash,
                    std::vector<uint8_t>& payload, uint32_t max_size = kMaxRecordSize);
// The contract of embedded::ReadBlockRecordPart (src/io/block_files.h), through ReadRawBlock with the part:
// BadPartRange is kBadRange, the other failures are kinds as for ReadBlockRecord. `part` is filled only on
// success. Requires kPartialBlockReads (std::logic_error otherwise) and `magic` as for ReadBlockRecord.
void ReadBlockRecordPart(AutoFile& in, const MessageStart& magic, uint64_t offset, uint64_t size,
                         std::vector<uint8_t>& part, uint32_t max_size = kMaxRecordSize);

}  // namespace core_adapter
