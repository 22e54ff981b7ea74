// A record's place in a node's block files: the file's number and the offset of the record's payload (past
// its 8-byte header), as Bitcoin Core's FlatFilePos; and what a store knows of one block file, as Core's
// CBlockFileInfo. Vocabulary of the block store on either side of its seam (seam/block_store.h).
#pragma once

#include <cstdint>

namespace embedded {

struct FilePos {
  int file = -1;  // -1: null, no record
  uint32_t pos = 0;
  bool IsNull() const { return file < 0; }
  friend bool operator==(const FilePos&, const FilePos&) = default;
  friend bool operator<(const FilePos& a, const FilePos& b) {
    return a.file != b.file ? a.file < b.file : a.pos < b.pos;
  }
};

// The block store's file geometry, on both sides of the seam: Core's -fastprune block file size and block
// chunk (so that files roll over after a few records), and Core's undo chunk.
struct BlockFileGeometry {
  static constexpr uint32_t kMaxFileSize = 0x10000;
  static constexpr uint32_t kBlockChunk = 0x4000;
  static constexpr uint32_t kUndoChunk = 0x100000;
  // A node's (without -fastprune): BlockStore::Options::node_files.
  static constexpr uint32_t kNodeMaxFileSize = 0x8000000;
  static constexpr uint32_t kNodeBlockChunk = 0x1000000;
};

struct BlockFileInfo {
  uint32_t size = 0;       // bytes of block records
  uint32_t undo_size = 0;  // bytes of undo records in the rev file of the same number
  uint32_t blocks = 0;
  uint32_t height_first = 0;
  uint32_t height_last = 0;
  friend bool operator==(const BlockFileInfo&, const BlockFileInfo&) = default;
};

}  // namespace embedded
