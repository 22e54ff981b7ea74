#include "block_store_model.h"

#include <algorithm>

#include "check.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // reference code: no coverage feedback for the fuzzer

void BlockStoreModel::Grow(std::optional<uint64_t>& length, uint32_t pos, uint32_t add, uint32_t chunk) {
  const uint64_t end = uint64_t{pos} + add;
  const uint64_t chunks_before = (uint64_t{pos} + chunk - 1) / chunk;
  const uint64_t chunks_after = (end + chunk - 1) / chunk;
  uint64_t l = length.value_or(0);
  if (chunks_after > chunks_before) l = std::max(l, chunks_after * chunk);
  length = std::max(l, end);
}

FilePos BlockStoreModel::WriteBlock(uint32_t size, uint32_t height) {
  const uint32_t add = size + kHeader;
  const uint64_t max = add >= seam::BlockStore::kMaxFileSize ? uint64_t{add} + 1 : seam::BlockStore::kMaxFileSize;
  if (files_[current_].info.size + uint64_t{add} >= max) {
    File& left = files_[current_];
    const bool finalize_undo = left.info.height_last == undo_height_;
    left.blk_length = left.info.size;  // cut to its length
    if (finalize_undo) left.rev_length = left.info.undo_size;
    files_.emplace_back();
    current_ = static_cast<int>(files_.size()) - 1;
    undo_height_ = 0;
  }
  File& f = files_[current_];
  BlockFileInfo& info = f.info;
  const FilePos at{current_, info.size};
  if (info.blocks == 0 || height < info.height_first) info.height_first = height;
  if (info.blocks == 0 || height > info.height_last) info.height_last = height;
  ++info.blocks;
  info.size += add;
  Grow(f.blk_length, at.pos, add, seam::BlockStore::kBlockChunk);
  return {at.file, at.pos + kHeader};
}

FilePos BlockStoreModel::WriteBlockUndo(const FilePos& block, uint32_t size, uint32_t height) {
  if (const auto done = undo_of_.find(block); done != undo_of_.end()) return done->second;
  File& f = files_.at(static_cast<size_t>(block.file));
  const FilePos at{block.file, f.info.undo_size};
  const uint32_t add = kHeader + size + kChecksum;
  f.info.undo_size += add;
  Grow(f.rev_length, at.pos, add, seam::BlockStore::kUndoChunk);
  if (block.file < current_ && height == f.info.height_last) {
    f.rev_length = f.info.undo_size;
  } else if (block.file == current_ && height > undo_height_) {
    undo_height_ = height;
  }
  const FilePos pos{at.file, at.pos + kHeader};
  undo_of_[block] = pos;
  return pos;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
