// A record's place in a node's block files: the file's number and the offset of the record's payload (past
// its 8-byte header), as Bitcoin Core's FlatFilePos. Vocabulary of the block store on either side of its
// seam (seam/block_store.h).
#pragma once

#include <cstdint>

namespace embedded {

struct FilePos {
  int file = -1;  // -1: null, no record
  uint32_t pos = 0;
  bool IsNull() const { return file < 0; }
  friend bool operator==(const FilePos&, const FilePos&) = default;
  friend bool operator<(const FilePos& a, const FilePos& b) { return a.file != b.file ? a.file < b.file : a.pos < b.pos; }
};

}  // namespace embedded
