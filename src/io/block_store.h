// BlockStore: where a node keeps its blocks and their undo data: block records appended to blk?????.dat
// files and undo records to the rev?????.dat file of the same number, each file growing in preallocated
// chunks up to a maximum size, then cut to its length and left for the next (Bitcoin Core's
// node::BlockManager with its FlatFileSeq pair). Semantics: docs/semantics.md §3, "Block files".
//
// A block goes into the current file unless it would bring the file to its maximum size (64 KiB by default:
// Core's -fastprune; 128 MiB with Options::node_files, as a node without it; a record of that size or more raises the
// maximum past itself); then into a new file after the highest one, and the file it leaves is finalized (flushed and
// cut to its length) together with its undo file when the undo data has caught up with the file's blocks. Undo data
// goes at the end of the undo file of its block's file, once per block; the undo file of an earlier block file is
// finalized when the undo data of that file's highest block is written; for the current file the store remembers the
// highest height whose undo data it has. Files grow in chunks (16 KiB of blocks, or 16 MiB with node_files;
// 1 MiB of undo data) allocated ahead of the data.
//
// Errors: a write that fails (the disk full, an I/O error) returns the null position; the node must stop.
// Reads return nothing for a record that is not there or not intact.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/block_files.h"
#include "io/file_pos.h"
#include "obfuscation.h"

namespace embedded {

class BlockStore : public BlockFileGeometry {
 public:
  struct Options {
    std::string dir;  // must exist
    MessageStart magic{};
    Obfuscation::KeyBytes key{};  // all zero: none
    // A node's geometry instead of -fastprune's (BlockFileGeometry, which the harness's model assumes):
    // for benchmarks, where a file per block would measure file creation.
    bool node_files = false;
  };
  explicit BlockStore(Options options);

  // Appends a block record with `block` (a serialized block) of a block at `height`; its position, or null
  // if a write failed.
  FilePos WriteBlock(std::span<const uint8_t> block, uint32_t height);
  // Appends the undo record of the block written at `block` (at `height`), checksummed with the hash of its
  // previous block; its position, or null if a write failed. A block whose undo data is already written
  // gets its first position back and nothing is written.
  FilePos WriteBlockUndo(std::span<const uint8_t> undo, const Hash256& prev_block_hash, const FilePos& block,
                         uint32_t height);
  std::optional<std::vector<uint8_t>> ReadBlock(const FilePos& pos) const;
  std::optional<std::vector<uint8_t>> ReadBlockUndo(const FilePos& pos, const Hash256& prev_block_hash) const;
  // What the store knows of block file `file` (which it must have written to).
  BlockFileInfo Info(int file) const { return files_.at(static_cast<size_t>(file)); }
  // The path of a file of the store: "blk" or "rev", and its number.
  std::string Path(const char* prefix, int file) const;

 private:
  // Where the next `add` bytes of block records go (moving to a new file if needed), as WriteBlock finds it.
  FilePos NextBlockPos(uint32_t add, uint32_t height);
  // Extends the file to the chunk boundary past [pos, pos + add) if that crosses one.
  void Allocate(const char* prefix, int file, uint32_t pos, uint32_t add, uint32_t chunk);
  // Flushes one file to the disk, first cutting it to `length` if `finalize`. False on failure.
  bool FlushFile(const char* prefix, int file, uint32_t length, bool finalize);
  bool FlushUndoFile(int file, bool finalize) { return FlushFile("rev", file, files_.at(file).undo_size, finalize); }

  Options options_;
  std::vector<BlockFileInfo> files_;
  int current_ = 0;
  uint32_t undo_height_ = 0;            // of the current file: the highest height whose undo data is written
  std::map<FilePos, FilePos> undo_of_;  // a block's position → its undo data's
};

}  // namespace embedded
