#include "io/block_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "io/buffered.h"

namespace embedded {

namespace {

uint32_t Chunks(uint64_t bytes, uint32_t chunk) { return static_cast<uint32_t>((bytes + chunk - 1) / chunk); }

// The file opened for writing at `pos` (created if missing), or null.
std::FILE* OpenAt(const std::string& path, uint32_t pos) {
  std::FILE* f = std::fopen(path.c_str(), "rb+");
  if (f == nullptr) f = std::fopen(path.c_str(), "wb+");
  if (f != nullptr && fseeko(f, pos, SEEK_SET) != 0) {
    std::fclose(f);
    return nullptr;
  }
  return f;
}

}  // namespace

BlockStore::BlockStore(Options options) : options_(std::move(options)), files_(1) {}

std::string BlockStore::Path(const char* prefix, int file) const {
  char name[32];
  std::snprintf(name, sizeof(name), "/%s%05d.dat", prefix, file);
  return options_.dir + name;
}

void BlockStore::Allocate(const char* prefix, int file, uint32_t pos, uint32_t add, uint32_t chunk) {
  const uint32_t chunks = Chunks(uint64_t{pos} + add, chunk);
  if (chunks <= Chunks(pos, chunk)) return;
  std::FILE* f = OpenAt(Path(prefix, file), 0);
  if (f == nullptr) return;  // the write that follows fails and says so
  posix_fallocate(fileno(f), 0, static_cast<off_t>(uint64_t{chunks} * chunk));
  std::fclose(f);
}

bool BlockStore::FlushFile(const char* prefix, int file, uint32_t length, bool finalize) {
  std::FILE* f = OpenAt(Path(prefix, file), 0);
  if (f == nullptr) return false;
  bool ok = !finalize || ftruncate(fileno(f), length) == 0;
  ok = ok && std::fflush(f) == 0 && fdatasync(fileno(f)) == 0;
  return std::fclose(f) == 0 && ok;
}

FilePos BlockStore::NextBlockPos(uint32_t add, uint32_t height) {
  const uint32_t limit = options_.node_files ? kNodeMaxFileSize : kMaxFileSize;
  const uint32_t max = add >= limit ? add + 1 : limit;
  const int last = current_;
  if (files_[last].size + uint64_t{add} >= max) {
    // Finalize the undo file too if its undo data has caught up with the file's blocks.
    const bool finalize_undo = files_[last].height_last == undo_height_;
    current_ = static_cast<int>(files_.size());
    files_.emplace_back();
    undo_height_ = 0;
    // As Core: a failed flush of the file left behind is not the new block's failure (its data is written).
    FlushFile("blk", last, files_[last].size, /*finalize=*/true);
    if (finalize_undo) FlushUndoFile(last, /*finalize=*/true);
  }
  BlockFileInfo& info = files_[current_];
  const FilePos pos{current_, info.size};
  if (info.blocks == 0 || height < info.height_first) info.height_first = height;
  if (info.blocks == 0 || height > info.height_last) info.height_last = height;
  ++info.blocks;
  info.size += add;
  Allocate("blk", pos.file, pos.pos, add, options_.node_files ? kNodeBlockChunk : kBlockChunk);
  return pos;
}

FilePos BlockStore::WriteBlock(std::span<const uint8_t> block, uint32_t height) {
  const FilePos at = NextBlockPos(static_cast<uint32_t>(kRecordHeaderSize + block.size()), height);
  try {
    AutoFile file(OpenAt(Path("blk", at.file), at.pos), Obfuscation(options_.key));
    {
      BufferedWriter out(file);
      WriteBlockRecord(out, options_.magic, block);
      out.Flush();
    }
    file.Close();
  } catch (const IoError&) {
    return {};
  }
  return {at.file, static_cast<uint32_t>(at.pos + kRecordHeaderSize)};
}

FilePos BlockStore::WriteBlockUndo(std::span<const uint8_t> undo, const Hash256& prev_block_hash, const FilePos& block,
                                   uint32_t height) {
  if (const auto done = undo_of_.find(block); done != undo_of_.end()) return done->second;
  BlockFileInfo& info = files_.at(block.file);
  const FilePos at{block.file, info.undo_size};
  const auto add = static_cast<uint32_t>(kRecordHeaderSize + undo.size() + kChecksumSize);
  info.undo_size += add;
  Allocate("rev", at.file, at.pos, add, kUndoChunk);
  try {
    AutoFile file(OpenAt(Path("rev", at.file), at.pos), Obfuscation(options_.key));
    {
      BufferedWriter out(file);
      WriteUndoRecord(out, options_.magic, prev_block_hash, undo);
      out.Flush();
    }
    file.Close();
  } catch (const IoError&) {
    return {};
  }
  if (at.file < current_ && height == info.height_last) {
    FlushUndoFile(at.file, /*finalize=*/true);  // the file's last undo data: its undo file is complete
  } else if (at.file == current_ && height > undo_height_) {
    undo_height_ = height;
  }
  const FilePos pos{at.file, static_cast<uint32_t>(at.pos + kRecordHeaderSize)};
  undo_of_[block] = pos;
  return pos;
}

std::optional<std::vector<uint8_t>> BlockStore::ReadBlock(const FilePos& pos) const {
  if (pos.IsNull() || pos.pos < kRecordHeaderSize) return std::nullopt;
  try {
    AutoFile file(std::fopen(Path("blk", pos.file).c_str(), "rb"), Obfuscation(options_.key));
    file.Seek(pos.pos - kRecordHeaderSize, SEEK_SET);
    std::vector<uint8_t> block;
    ReadBlockRecord(file, options_.magic, block);
    return block;
  } catch (const IoError&) {
    return std::nullopt;
  }
}

std::optional<std::vector<uint8_t>> BlockStore::ReadBlockUndo(const FilePos& pos,
                                                              const Hash256& prev_block_hash) const {
  if (pos.IsNull() || pos.pos < kRecordHeaderSize) return std::nullopt;
  try {
    AutoFile file(std::fopen(Path("rev", pos.file).c_str(), "rb"), Obfuscation(options_.key));
    file.Seek(pos.pos - kRecordHeaderSize, SEEK_SET);
    std::vector<uint8_t> undo;
    ReadUndoRecord(file, options_.magic, prev_block_hash, undo);
    return undo;
  } catch (const IoError&) {
    return std::nullopt;
  }
}

}  // namespace embedded
