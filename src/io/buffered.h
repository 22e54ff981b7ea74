// Buffered writing and reading on top of AutoFile (docs/semantics.md §3; after Bitcoin Core's BufferedWriter and
// BufferedReader). Both leave obfuscation to the file, which keys it by absolute offset, so the bytes on
// disk equal those of unbuffered AutoFile calls whatever the buffer size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "io/file.h"

namespace embedded {

// Collects writes and hands them to the file a whole buffer at a time: one WriteConsume (one fwrite,
// obfuscated in place at the file position where the buffer lands) per full buffer.
// Contract: while the writer holds unflushed data, the file must not be written, read or moved directly;
// Flush() first. The file position is read at each flush, so direct use in between is fine.
class BufferedWriter {
 public:
  // 64 KiB, Bitcoin Core's default: block data is written in few large calls.
  static constexpr size_t kDefaultSize = size_t{1} << 16;

  // `file` must outlive the writer; `size` >= 1 (0 is taken as 1).
  explicit BufferedWriter(AutoFile& file, size_t size = kDefaultSize);
  // Flushes. A destructor cannot throw: a failed flush is swallowed here, and the file, which marks itself
  // failed on any failed write, reports it from Close(). Call Flush() to get the error directly.
  ~BufferedWriter();
  BufferedWriter(const BufferedWriter&) = delete;
  BufferedWriter& operator=(const BufferedWriter&) = delete;

  // Appends `src` (never modified); writes the buffer out each time it fills. Throws IoError from the file.
  void Write(std::span<const uint8_t> src);
  // Writes out what is buffered (nothing if empty). On failure the buffered data is dropped (the file is
  // marked failed) and IoError is thrown.
  void Flush();

  size_t buffered() const { return used_; }
  // Where the next byte written will land: the file position plus what is buffered.
  std::optional<uint64_t> Position() const;

 private:
  AutoFile& file_;
  std::vector<uint8_t> buf_;
  size_t used_ = 0;
};

// Serves reads from a read-ahead buffer. It owns the file (moved in): the file's own position runs ahead
// of what has been consumed, so nobody else may use it.
class BufferedReader {
 public:
  static constexpr size_t kDefaultSize = size_t{1} << 16;

  // `size` >= 1 (0 is taken as 1).
  explicit BufferedReader(AutoFile&& file, size_t size = kDefaultSize);

  // Fills `dst` exactly. If fewer bytes remain in the file, the ones that remain are copied to the front
  // of `dst` and consumed, the rest of `dst` is untouched, and IoError is thrown.
  void Read(std::span<uint8_t> dst);
  // The position of the next byte Read returns: the file position minus the read-ahead not yet consumed.
  std::optional<uint64_t> Position() const;

 private:
  AutoFile file_;
  std::vector<uint8_t> buf_;
  size_t begin_ = 0;  // buf_[begin_, end_) is read ahead and not yet consumed
  size_t end_ = 0;
};

}  // namespace embedded
