// BufferedFile: reads a file through a ring buffer that keeps the last bytes it read, so that a reader
// scanning a stream for records can search forward, remember a position and go back to it (Bitcoin Core's
// BufferedFile in streams.h, with which a node reads blk files given by -loadblock or on a reindex).
// Semantics: docs/semantics.md §3, "Reading with rewind".
//
// The buffer of `size` bytes holds the last `size` bytes read from the file (its source position minus
// `size` up to the source position). Reading refills it only once every byte in it has been consumed, and
// then never overwrites the `rewind` bytes before the read position: so a position up to `rewind` bytes
// before the furthest one read can always be returned to.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "io/file.h"

namespace embedded {

class BufferedFile {
 public:
  static constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

  // `file` must outlive this and be read only through it. Throws IoError unless rewind < size.
  BufferedFile(AutoFile& file, uint64_t size, uint64_t rewind);

  // Every byte read from the file is consumed and the file reported its end.
  bool Eof() const;
  // Fills `dst` from the read position. Throws IoError, having read nothing, if that would go past the
  // limit; throws IoError at the end of the file, having consumed the bytes that were there.
  void Read(std::span<uint8_t> dst);
  // Reads up to `pos` (>= GetPos(), else std::logic_error) and discards, as Read.
  void SkipTo(uint64_t pos);
  uint64_t GetPos() const { return read_pos_; }
  // Moves the read position to `pos` if the buffer holds it: [source position - size, source position].
  // Else moves as far towards it as that allows and returns false.
  bool SetPos(uint64_t pos);
  // Reads may not go past `pos` (kNoLimit: no limit). False, changing nothing, if `pos` < GetPos().
  bool SetLimit(uint64_t pos = kNoLimit);
  // Moves the read position to the next byte equal to `byte` (perhaps the current one) and stays on it.
  // Ignores the limit, as Core's does. Throws IoError at the end of the file, having consumed every byte.
  void FindByte(uint8_t byte);

 private:
  // Reads more of the file into the buffer; throws IoError at the end of the file or on a read error.
  void Fill();
  // Consumes up to `length` bytes that are in the buffer (filling it first if it has none), checking the
  // limit for all `length`; returns where they are and how many.
  std::span<const uint8_t> Advance(uint64_t length);

  AutoFile& file_;
  std::vector<uint8_t> buf_;
  uint64_t rewind_;
  uint64_t source_pos_ = 0;  // bytes read from the file
  uint64_t read_pos_ = 0;    // bytes consumed
  uint64_t limit_ = kNoLimit;
  bool at_end_ = false;  // the file reported its end
};

}  // namespace embedded
