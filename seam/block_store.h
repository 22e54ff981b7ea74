// Seam: a node's block files (Bitcoin Core's node::BlockManager: WriteBlock, WriteBlockUndo, ReadRawBlock,
// ReadBlockUndo over the blk/rev FlatFileSeq pair, with -fastprune's 64 KiB block files).
//
// Contract (docs/semantics.md §3, "Block files"): the interface of src/io/block_store.h — BlockStore made
// on a directory with a network magic and an obfuscation key; WriteBlock(serialized block, height) and
// WriteBlockUndo(serialized undo data, previous block hash, the block's position, height) return the
// record's FilePos (null: a write failed); ReadBlock and ReadBlockUndo return the payload or nothing;
// Info(file) is what the store keeps of a block file (sizes, block count, heights); Path names a file.
// The payloads are what a node writes: a serialized CBlock and a serialized CBlockUndo (Core's writers
// take those objects; the adapter deserializes the bytes and refuses anything else).
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/block_store.h"
namespace seam {
using core_adapter::BlockStore;
}  // namespace seam
#else
#include "src/io/block_store.h"
namespace seam {
using embedded::BlockStore;
}  // namespace seam
#endif
