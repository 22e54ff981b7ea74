// AutoFile: an owned stdio FILE* that knows its absolute position, so data can be XOR-obfuscated by file
// offset as it is read and written (docs/semantics.md §3; after Bitcoin Core's AutoFile).
//
// Position: ftell's answer when the file is wrapped, then kept up to date by every read, write, ignore and
// seek; unknown when ftell fails (a pipe). Obfuscated I/O needs the position and throws when it is unknown;
// with the all-zero key the data passes through unchanged and the position may be unknown.
// Errors: every failure throws IoError. A failed write marks the file failed for good: later writes throw,
// and Close() throws even if fclose succeeds, so no call reports success for data that was not written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "obfuscation.h"

namespace embedded {

// Any failure of the file layer: a failed or short read, a failed write, seek, flush or close, obfuscated
// I/O at an unknown position, use of a closed file.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class AutoFile {
 public:
  // Takes ownership of `file` (null is allowed: every operation but Close then throws).
  explicit AutoFile(std::FILE* file, const Obfuscation& obfuscation = {});
  // Closes the file if still open. A destructor cannot throw: a close error (or an earlier failed write)
  // is printed to stderr. Anyone who wrote must call Close() to learn whether the data reached the file.
  ~AutoFile();
  AutoFile(AutoFile&& other) noexcept;
  AutoFile(const AutoFile&) = delete;
  AutoFile& operator=(const AutoFile&) = delete;
  AutoFile& operator=(AutoFile&&) = delete;

  bool IsOpen() const { return file_ != nullptr; }
  std::optional<uint64_t> Position() const { return position_; }
  const Obfuscation& obfuscation() const { return obfuscation_; }

  // fseek(offset, origin) for SEEK_SET, SEEK_CUR or SEEK_END; the position is then ftell's (unknown if
  // ftell fails). Throws IoError if fseek fails; the position is then unchanged.
  void Seek(int64_t offset, int origin);

  // Reads exactly dst.size() bytes and deobfuscates them at the position before the read. On a short read
  // (end of file or a read error) it deobfuscates only the bytes actually read, advances the position past
  // them, leaves the rest of `dst` untouched, and throws IoError.
  void Read(std::span<uint8_t> dst);
  // Reads up to dst.size() bytes (fewer only at end of file) and returns how many, deobfuscated; throws
  // IoError on a read error. For read-ahead buffers.
  size_t ReadSome(std::span<uint8_t> dst);
  // Reads and discards n bytes (works on pipes too); throws IoError if fewer remain.
  void Ignore(uint64_t n);

  // Writes `src` obfuscated at the position; `src` is never modified (obfuscation works on a bounded copy).
  void Write(std::span<const uint8_t> src);
  // Writes `buf` with one fwrite after obfuscating it in place: for buffers the caller owns and will
  // discard. Afterwards the contents of `buf` are unspecified.
  void WriteConsume(std::span<uint8_t> buf);
  // Hands stdio's buffered output to the operating system (fflush). Throws IoError if that fails.
  void Flush();

  // Bytes in the file (seeks to the end and back); unknown when the position is.
  std::optional<uint64_t> Size();
  // Cuts the file to `size` bytes (or extends it with zeros); the position stays where it is. Writes still
  // in stdio's buffer go out first. Throws IoError if that or the truncation fails.
  void Truncate(uint64_t size);
  // Flush(), then asks the operating system to put the file's data on the disk (fdatasync). Throws IoError
  // if either fails.
  void Commit();

  // Closes the file (fclose). Throws IoError if fclose fails or an earlier write failed; the file is
  // closed either way. Closing a closed file does nothing.
  void Close();
  // Hands the FILE* to the caller, who must close it; this object is then closed (as after Close, but
  // nothing is flushed or reported). Null if already closed. The position stays readable.
  std::FILE* Release();

 private:
  enum class Direction : uint8_t { kNone, kRead, kWrite };
  std::FILE* Handle(const char* what) const;
  // Flushes stdio's output before a seek or a read, so that a failure is a failed write (and not data that
  // fseek silently drops).
  void SettleWrites(const char* what);
  // C stdio needs a flush or seek between output and input on one stream; this does it when the
  // direction changes.
  void Turn(Direction to);
  // fread and deobfuscation shared by Read and ReadSome.
  size_t ReadUpTo(std::span<uint8_t> dst, const char* what);
  // Checks the position is known if obfuscation is on, and that no earlier write failed.
  uint64_t WritePosition(const char* what);
  [[noreturn]] void WriteFailed(const char* what);

  std::FILE* file_;
  Obfuscation obfuscation_;
  std::optional<uint64_t> position_;
  Direction direction_ = Direction::kNone;
  bool failed_ = false;  // a write failed: the file's contents are not what the caller wrote
};

}  // namespace embedded
