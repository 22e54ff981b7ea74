#include "io/buffered.h"

#include <algorithm>
#include <string>

namespace embedded {

BufferedWriter::BufferedWriter(AutoFile& file, size_t size) : file_(file), buf_(std::max<size_t>(size, 1)) {}

BufferedWriter::~BufferedWriter() {
  try {
    Flush();
  } catch (const IoError&) {
    // The file is marked failed and Close() reports it (see the declaration).
  }
}

void BufferedWriter::Write(std::span<const uint8_t> src) {
  while (!src.empty()) {
    const size_t n = std::min(src.size(), buf_.size() - used_);
    std::copy_n(src.begin(), n, buf_.begin() + used_);
    used_ += n;
    src = src.subspan(n);
    if (used_ == buf_.size()) Flush();
  }
}

void BufferedWriter::Flush() {
  if (used_ == 0) return;
  const size_t n = used_;
  used_ = 0;  // dropped on failure: after WriteConsume the buffer may be half obfuscated
  file_.WriteConsume(std::span(buf_).first(n));
}

std::optional<uint64_t> BufferedWriter::Position() const {
  const auto at = file_.Position();
  if (!at) return std::nullopt;
  return *at + used_;
}

BufferedReader::BufferedReader(AutoFile&& file, size_t size)
    : file_(std::move(file)), buf_(std::max<size_t>(size, 1)) {}

void BufferedReader::Read(std::span<uint8_t> dst) {
  const size_t ready = std::min(dst.size(), end_ - begin_);
  std::copy_n(buf_.begin() + begin_, ready, dst.begin());
  begin_ += ready;
  dst = dst.subspan(ready);
  if (dst.empty()) return;
  // The buffer is used up. A read at least as large as the buffer goes straight into `dst`.
  begin_ = end_ = 0;
  if (dst.size() >= buf_.size()) return file_.Read(dst);
  end_ = file_.ReadSome(buf_);
  const size_t n = std::min(dst.size(), end_);
  std::copy_n(buf_.begin(), n, dst.begin());
  begin_ = n;
  if (n < dst.size()) {
    throw IoError("BufferedReader::read: end of file after " + std::to_string(ready + n) + " of " +
                  std::to_string(ready + dst.size()) + " bytes");
  }
}

std::optional<uint64_t> BufferedReader::Position() const {
  const auto at = file_.Position();
  if (!at) return std::nullopt;
  return *at - (end_ - begin_);
}

}  // namespace embedded
