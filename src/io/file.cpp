#include "io/file.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace embedded {

namespace {

// Obfuscated writes XOR a copy of the caller's data in chunks of this size (as Bitcoin Core does): a fixed
// stack buffer, whatever the length of the write. Any size works; a page keeps fwrite calls few.
constexpr size_t kWriteChunk = 4096;

std::string ErrnoText(int err) { return err != 0 ? std::string(": ") + std::strerror(err) : std::string(); }

}  // namespace

AutoFile::AutoFile(std::FILE* file, const Obfuscation& obfuscation) : file_(file), obfuscation_(obfuscation) {
  if (file_ != nullptr) {
    const off_t at = ftello(file_);
    if (at >= 0) position_ = static_cast<uint64_t>(at);
  }
}

AutoFile::~AutoFile() {
  if (file_ == nullptr) return;
  const int err = std::fclose(file_) != 0 ? errno : 0;
  if (err != 0 || failed_) {
    std::fprintf(stderr, "AutoFile: data may be lost: %s%s (call Close() to get this as an exception)\n",
                 failed_ ? "an earlier write failed" : "fclose failed", ErrnoText(err).c_str());
  }
}

AutoFile::AutoFile(AutoFile&& other) noexcept
    : file_(other.file_),
      obfuscation_(other.obfuscation_),
      position_(other.position_),
      direction_(other.direction_),
      failed_(other.failed_) {
  other.file_ = nullptr;
}

std::FILE* AutoFile::Handle(const char* what) const {
  if (file_ == nullptr) throw IoError(std::string("AutoFile::") + what + ": file is closed");
  return file_;
}

void AutoFile::SettleWrites(const char* what) {
  if (direction_ == Direction::kWrite && std::fflush(file_) != 0) WriteFailed(what);
}

void AutoFile::Turn(Direction to) {
  if (to == Direction::kRead) SettleWrites("read");
  if (direction_ == Direction::kRead && to == Direction::kWrite && position_ && fseeko(file_, 0, SEEK_CUR) != 0) {
    throw IoError("AutoFile::write: cannot switch from reading to writing" + ErrnoText(errno));
  }
  direction_ = to;
}

void AutoFile::Seek(int64_t offset, int origin) {
  std::FILE* f = Handle("seek");
  SettleWrites("seek");
  if (fseeko(f, static_cast<off_t>(offset), origin) != 0) {
    throw IoError("AutoFile::seek: fseek(" + std::to_string(offset) + ", " + std::to_string(origin) + ") failed" +
                  ErrnoText(errno));
  }
  direction_ = Direction::kNone;
  const off_t at = ftello(f);
  position_.reset();
  if (at >= 0) position_ = static_cast<uint64_t>(at);
}

size_t AutoFile::ReadUpTo(std::span<uint8_t> dst, const char* what) {
  std::FILE* f = Handle(what);
  // Checked before reading (Bitcoin Core checks after): a failed call should not consume data.
  if (obfuscation_ && !position_) throw IoError(std::string("AutoFile::") + what + ": position unknown");
  Turn(Direction::kRead);
  const size_t got = std::fread(dst.data(), 1, dst.size(), f);
  if (position_) {
    obfuscation_(dst.first(got), *position_);
    *position_ += got;
  }
  if (got < dst.size() && std::ferror(f)) throw IoError(std::string("AutoFile::") + what + ": fread failed");
  return got;
}

void AutoFile::Read(std::span<uint8_t> dst) {
  const size_t got = ReadUpTo(dst, "read");
  if (got < dst.size()) {
    throw IoError("AutoFile::read: end of file after " + std::to_string(got) + " of " + std::to_string(dst.size()) +
                  " bytes");
  }
}

size_t AutoFile::ReadSome(std::span<uint8_t> dst) { return ReadUpTo(dst, "read"); }

void AutoFile::Ignore(uint64_t n) {
  std::FILE* f = Handle("ignore");
  Turn(Direction::kRead);
  std::array<uint8_t, kWriteChunk> scratch;
  while (n > 0) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n, scratch.size()));
    const size_t got = std::fread(scratch.data(), 1, want, f);
    if (position_) *position_ += got;
    n -= got;
    if (got < want) throw IoError("AutoFile::ignore: end of file with " + std::to_string(n) + " bytes to go");
  }
}

uint64_t AutoFile::WritePosition(const char* what) {
  Handle(what);
  if (failed_) throw IoError(std::string("AutoFile::") + what + ": an earlier write failed");
  if (obfuscation_ && !position_) throw IoError(std::string("AutoFile::") + what + ": position unknown");
  Turn(Direction::kWrite);
  return position_.value_or(0);
}

void AutoFile::WriteFailed(const char* what) {
  const int err = errno;
  failed_ = true;
  position_.reset();  // stdio may have taken part of the data: where the file stands is not known
  throw IoError(std::string("AutoFile::") + what + ": write failed" + ErrnoText(err));
}

void AutoFile::Write(std::span<const uint8_t> src) {
  const uint64_t at = WritePosition("write");
  if (!obfuscation_) {
    if (std::fwrite(src.data(), 1, src.size(), file_) != src.size()) WriteFailed("write");
  } else {
    std::array<uint8_t, kWriteChunk> chunk;
    for (size_t done = 0; done < src.size();) {
      const size_t n = std::min(chunk.size(), src.size() - done);
      std::copy_n(src.begin() + done, n, chunk.begin());
      obfuscation_(std::span(chunk).first(n), at + done);
      if (std::fwrite(chunk.data(), 1, n, file_) != n) WriteFailed("write");
      done += n;
    }
  }
  if (position_) *position_ += src.size();
}

void AutoFile::WriteConsume(std::span<uint8_t> buf) {
  const uint64_t at = WritePosition("write");
  obfuscation_(buf, at);
  if (std::fwrite(buf.data(), 1, buf.size(), file_) != buf.size()) WriteFailed("write");
  if (position_) *position_ += buf.size();
}

void AutoFile::Flush() {
  if (std::fflush(Handle("flush")) != 0) WriteFailed("flush");
}

std::optional<uint64_t> AutoFile::Size() {
  std::FILE* f = Handle("size");
  if (!position_) return std::nullopt;
  SettleWrites("size");
  if (fseeko(f, 0, SEEK_END) != 0) throw IoError("AutoFile::size: fseek to the end failed" + ErrnoText(errno));
  const off_t end = ftello(f);
  direction_ = Direction::kNone;
  if (end < 0 || fseeko(f, static_cast<off_t>(*position_), SEEK_SET) != 0) {
    position_.reset();
    throw IoError("AutoFile::size: cannot return to the position" + ErrnoText(errno));
  }
  return static_cast<uint64_t>(end);
}

void AutoFile::Truncate(uint64_t size) {
  std::FILE* f = Handle("truncate");
  SettleWrites("truncate");
  if (ftruncate(fileno(f), static_cast<off_t>(size)) != 0) {
    throw IoError("AutoFile::truncate: ftruncate failed" + ErrnoText(errno));
  }
}

void AutoFile::Commit() {
  Flush();
  if (fdatasync(fileno(file_)) != 0) throw IoError("AutoFile::commit: fdatasync failed" + ErrnoText(errno));
}

std::FILE* AutoFile::Release() {
  std::FILE* f = file_;
  file_ = nullptr;
  return f;
}

void AutoFile::Close() {
  if (file_ == nullptr) return;
  const int err = std::fclose(file_) != 0 ? errno : 0;
  file_ = nullptr;
  if (failed_) throw IoError("AutoFile::close: an earlier write failed, the file is incomplete");
  if (err != 0) throw IoError("AutoFile::close: fclose failed" + ErrnoText(err));
}

}  // namespace embedded
