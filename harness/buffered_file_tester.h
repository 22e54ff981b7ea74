// BufferedFileTester: BufferedFile (the -loadblock reader) over an obfuscated file on a memfd, against the
// file's plaintext and what docs/semantics.md §3 ("Reading with rewind") promises.
//
// Modelled: the read position, the limit, the furthest position consumed, the file's length. Checked after
// every operation: the bytes read are the file's at the positions read; a read or skip throws exactly when
// it would pass the limit (consuming nothing) or the end of the file (consuming what was there); FindByte
// stops on the next occurrence of the byte, or throws at the end having consumed everything; SetPos
// succeeds (and moves exactly there) for any position from `rewind` bytes before the furthest position
// consumed up to it, fails for one past the end of the file or more than a buffer before the furthest
// position, and either way leaves the read position inside what the buffer can hold; SetLimit refuses a
// limit behind the read position; Eof is false before the end of the file; GetPos is the model's.
// Not modelled: when the buffer refills (positions where SetPos may go either way are resynchronised from
// GetPos after being checked against those bounds).
//
// Operations: HARNESS_BUFFERED_FILE_OPS (stable IDs; new ones go at the end).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "op_list.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"

namespace harness {

// X(enumerator, id, name).
// clang-format off
#define HARNESS_BUFFERED_FILE_OPS(X)                                                                                   \
  X(kRead, 0, "Read")           /* Read(len) */                                                                        \
  X(kSkipTo, 1, "SkipTo")       /* SkipTo(read position + len) */                                                      \
  /* SetPos(anchor - span + delta): anchor the read position, the furthest read or 0; span 0, rewind or size */   \
  X(kSetPos, 2, "SetPos")                                                                                              \
  X(kSetLimit, 3, "SetLimit")   /* SetLimit(read position + len), or no limit when len is 0 */                         \
  X(kFindByte, 4, "FindByte")   /* FindByte(byte) */                                                                   \
  X(kEof, 5, "Eof")             /* Eof() */                                                                            \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(BufferedFileOp, kBufferedFileOpCount, 8, HARNESS_BUFFERED_FILE_OPS)

struct BufferedFileStep {
  BufferedFileOp op{};
  uint32_t len = 0;    // Read, SkipTo, SetLimit
  uint8_t anchor = 0;  // SetPos: % 3 picks the anchor, / 3 % 3 the span
  int32_t delta = 0;   // SetPos
  uint8_t byte = 0;    // FindByte
  std::string ToString() const;
};

class BufferedFileTester {
 public:
  struct Config {
    std::array<uint8_t, 8> key{};
    std::vector<uint8_t> content;  // the file's plaintext
    uint64_t start = 0;            // where the file stands when the reader is made (its position 0)
    uint64_t size = 2;             // the reader's buffer
    uint64_t rewind = 1;           // < size
  };
  explicit BufferedFileTester(Config config);
  ~BufferedFileTester();
  BufferedFileTester(const BufferedFileTester&) = delete;
  BufferedFileTester& operator=(const BufferedFileTester&) = delete;

  void Apply(BufferedFileStep step);

 private:
  uint64_t length() const { return config_.content.size() - config_.start; }  // what the reader can read
  void CheckPos(const char* after) const;
  // The file's plaintext at reader positions [at, at + n).
  std::span<const uint8_t> Plain(uint64_t at, uint64_t n) const;

  Config config_;
  int fd_ = -1;
  std::optional<seam::AutoFile> file_;
  std::optional<seam::BufferedFile> reader_;
  uint64_t pos_ = 0;
  uint64_t furthest_ = 0;
  uint64_t limit_ = UINT64_MAX;
  std::vector<uint8_t> got_;
  OpLog<BufferedFileStep> log_;
};

}  // namespace harness
