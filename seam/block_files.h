// Seam: block and undo records in block files (Bitcoin Core's node::BlockManager WriteBlock, ReadRawBlock,
// ReadBlock, WriteBlockUndo, ReadBlockUndo), and parts of a block record's payload (ReadRawBlock with a part).
//
// Contract (docs/semantics.md, "Block and undo records"): a record is the 4-byte network magic, a 4-byte
// little-endian length and the payload; undo records are followed by a 32-byte checksum over the previous
// block hash and the payload. Reading a truncated, corrupt or oversized record throws FramingError (never
// reads past the file's end or allocates from an unchecked length). ReadBlockRecordPart reads bytes
// [offset, offset + size) of a block record's payload: an empty range or one not inside the payload is
// FramingError kBadRange, checked after the header and before anything is read or allocated; bytes of the
// record past the part are never read.
// Where Bitcoin Core's contract differs, a constant says which way this build's subject goes (each is
// explained in core/block_files.h):
//   kRecordLimitIsParameter           the readers take the size limit as a parameter (else only kMaxRecordSize)
//   kTruncatedRecordAllocatesNothing  a record cut short is found out before its payload is allocated
//   kUndoHeaderChecked                the undo reader checks the magic and size field (else the payload
//                                     must be a serialized CBlockUndo, which delimits itself)
//   kWriterRejectsOversized           the writers refuse a payload over kMaxRecordSize
//   kWriterTakesBlocks, kWriterTakesUndo
//                                     the writers hand a payload that is a serialized block (undo data) to
//                                     the node's own block (undo) writer and frame other payloads
//                                     themselves: testers give such a subject object payloads
//   kBlockRecordReads, kUndoRecordReads
//                                     ReadBlockRecord (ReadUndoRecord) is available (a Bitcoin Core tree
//                                     without a ReadRawBlock, or without BlockManager's undo I/O, of a form
//                                     the suite knows: those reads are not made)
//   kPartialBlockReads                ReadBlockRecordPart is available (Bitcoin Core PR #33657; on a tree
//                                     without it the function must not be called)
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/block_files.h"
namespace seam {
using core_adapter::FramingError;
using core_adapter::kBlockRecordReads;
using core_adapter::kChecksumSize;
using core_adapter::kMaxRecordSize;
using core_adapter::kPartialBlockReads;
using core_adapter::kRecordHeaderSize;
using core_adapter::kRecordLimitIsParameter;
using core_adapter::kTruncatedRecordAllocatesNothing;
using core_adapter::kUndoHeaderChecked;
using core_adapter::kUndoRecordReads;
using core_adapter::kWriterRejectsOversized;
using core_adapter::kWriterTakesBlocks;
using core_adapter::kWriterTakesUndo;
using core_adapter::MessageStart;
using core_adapter::ReadBlockRecord;
using core_adapter::ReadBlockRecordPart;
using core_adapter::ReadUndoRecord;
using core_adapter::UndoChecksum;
using core_adapter::WriteBlockRecord;
using core_adapter::WriteUndoRecord;
}  // namespace seam
#else
#include "src/io/block_files.h"
namespace seam {
using embedded::FramingError;
using embedded::kChecksumSize;
using embedded::kMaxRecordSize;
using embedded::kRecordHeaderSize;
using embedded::MessageStart;
using embedded::ReadBlockRecord;
using embedded::ReadBlockRecordPart;
using embedded::ReadUndoRecord;
using embedded::UndoChecksum;
using embedded::WriteBlockRecord;
using embedded::WriteUndoRecord;
inline constexpr bool kRecordLimitIsParameter = true;
inline constexpr bool kTruncatedRecordAllocatesNothing = true;
inline constexpr bool kUndoHeaderChecked = true;
inline constexpr bool kWriterRejectsOversized = true;
inline constexpr bool kWriterTakesBlocks = false;
inline constexpr bool kWriterTakesUndo = false;
inline constexpr bool kBlockRecordReads = true;
inline constexpr bool kUndoRecordReads = true;
inline constexpr bool kPartialBlockReads = true;
}  // namespace seam
#endif
