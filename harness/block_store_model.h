// BlockStoreModel: the reference for a node's block files (docs/semantics.md §3, "Block files"), written
// from the rules there: which file and offset each record gets, what the store knows of each file, and how
// long each file is on disk (chunks allocated ahead, files cut to their length when finalized).
// Modelled: block records of any size (one of 64 KiB or more gets a file of its own), undo records once per
// block, the current file and the height up to which its undo data is written, finalizing on roll-over
// and on the last undo data of an earlier file. Not modelled: the records' bytes (the tester keeps them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "seam/block_store.h"

namespace harness {

class BlockStoreModel {
 public:
  static constexpr uint32_t kHeader = 8;
  static constexpr uint32_t kChecksum = 32;

  struct File {
    BlockFileInfo info;
    // Length on disk of the blk and rev file; nullopt: no such file.
    std::optional<uint64_t> blk_length;
    std::optional<uint64_t> rev_length;
  };

  BlockStoreModel() : files_(1) {}

  // Where a block record with a payload of `size` bytes goes, and what that does to the files.
  FilePos WriteBlock(uint32_t size, uint32_t height);
  // Where the undo record (payload of `size` bytes) of the block at `block` goes; the first position again,
  // changing nothing, for a block that has undo data. `block` must be a position WriteBlock returned.
  FilePos WriteBlockUndo(const FilePos& block, uint32_t size, uint32_t height);
  // Whether the block at `block` has undo data.
  bool HasUndo(const FilePos& block) const { return undo_of_.count(block) != 0; }

  const std::vector<File>& files() const { return files_; }
  int current() const { return current_; }

 private:
  // The file grown to [pos, pos + add) in chunks of `chunk`, then written to pos + add.
  static void Grow(std::optional<uint64_t>& length, uint32_t pos, uint32_t add, uint32_t chunk);

  std::vector<File> files_;
  int current_ = 0;
  uint32_t undo_height_ = 0;
  std::map<FilePos, FilePos> undo_of_;
};

}  // namespace harness
