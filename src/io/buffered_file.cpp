#include "io/buffered_file.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace embedded {

BufferedFile::BufferedFile(AutoFile& file, uint64_t size, uint64_t rewind) : file_(file), rewind_(rewind) {
  if (rewind >= size) throw IoError("BufferedFile: the rewind limit must be less than the buffer size");
  buf_.resize(size);
}

bool BufferedFile::Eof() const { return read_pos_ == source_pos_ && at_end_; }

void BufferedFile::Fill() {
  const uint64_t size = buf_.size();
  const size_t at = static_cast<size_t>(source_pos_ % size);
  // Up to the end of the buffer, keeping what is unread and the `rewind` bytes before the read position.
  const uint64_t room = size - (source_pos_ - read_pos_) - rewind_;
  const size_t n = static_cast<size_t>(std::min<uint64_t>(size - at, room));
  const size_t got = file_.ReadSome(std::span(buf_).subspan(at, n));
  if (got < n) at_end_ = true;
  if (got == 0) throw IoError("BufferedFile: end of file");
  source_pos_ += got;
}

std::span<const uint8_t> BufferedFile::Advance(uint64_t length) {
  if (read_pos_ > limit_ || length > limit_ - read_pos_) throw IoError("BufferedFile: read past the limit");
  if (read_pos_ == source_pos_ && length > 0) Fill();
  const uint64_t size = buf_.size();
  const size_t at = static_cast<size_t>(read_pos_ % size);
  const uint64_t n = std::min({length, size - at, source_pos_ - read_pos_});
  read_pos_ += n;
  return {buf_.data() + at, static_cast<size_t>(n)};
}

void BufferedFile::Read(std::span<uint8_t> dst) {
  while (!dst.empty()) {
    const auto chunk = Advance(dst.size());
    std::memcpy(dst.data(), chunk.data(), chunk.size());
    dst = dst.subspan(chunk.size());
  }
}

void BufferedFile::SkipTo(uint64_t pos) {
  if (pos < read_pos_)
    throw std::logic_error("BufferedFile::SkipTo: " + std::to_string(pos) + " is behind the read position");
  while (read_pos_ < pos) Advance(pos - read_pos_);
}

bool BufferedFile::SetPos(uint64_t pos) {
  const uint64_t size = buf_.size();
  if (pos + size < source_pos_) {
    read_pos_ = source_pos_ - size;
    return false;
  }
  if (pos > source_pos_) {
    read_pos_ = source_pos_;
    return false;
  }
  read_pos_ = pos;
  return true;
}

bool BufferedFile::SetLimit(uint64_t pos) {
  if (pos < read_pos_) return false;
  limit_ = pos;
  return true;
}

void BufferedFile::FindByte(uint8_t byte) {
  const uint64_t size = buf_.size();
  while (true) {
    if (read_pos_ == source_pos_) Fill();
    const size_t at = static_cast<size_t>(read_pos_ % size);
    const size_t n = static_cast<size_t>(std::min(size - at, source_pos_ - read_pos_));
    const uint8_t* begin = buf_.data() + at;
    const uint8_t* found = std::find(begin, begin + n, byte);
    read_pos_ += static_cast<uint64_t>(found - begin);
    if (found != begin + n) return;
  }
}

}  // namespace embedded
