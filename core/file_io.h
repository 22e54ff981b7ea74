// Bitcoin Core side of seam/file_io.h: the embedded AutoFile, BufferedWriter and BufferedReader interface
// (src/io/file.h, src/io/buffered.h) over Core's AutoFile, BufferedWriter<AutoFile> and
// BufferedReader<AutoFile> (streams.h), obfuscated with Core's Obfuscation (core/obfuscation.h).
//
// Core signals errors with std::ios_base::failure, which is the seam's IoError here: Core's exceptions pass
// through the adapter as they are, and the adapter's own failures are thrown as the same type.
// Ownership mirrors the embedded classes: AutoFile owns its FILE*, a BufferedWriter refers to a file the
// caller keeps, a BufferedReader owns the file moved into it (Core's reader only refers to it, so the
// adapter keeps the file beside Core's reader). Where Core's contract differs, the adapter passes Core's
// behaviour through and says so in a constant below (the harness reads them through seam/file_io.h; the
// differences table of docs/bitcoin-core.md has one row each).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ios>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>

#include "core/obfuscation.h"
#include "core/unavailable.h"

class AutoFile;  // Bitcoin Core's
template <typename S>
class BufferedWriter;  // Bitcoin Core's

namespace core_adapter {

// The embedded side's bytes as the std::byte spans Core's streams take.
inline std::span<std::byte> Bytes(std::span<uint8_t> s) { return std::as_writable_bytes(s); }
inline std::span<const std::byte> Bytes(std::span<const uint8_t> s) { return std::as_bytes(s); }

// An ignore that comes up short leaves Core's position short of the file's: Core counts only the whole
// 4 KiB chunks it skipped, not the bytes of the last, partial one that fread consumed.
inline constexpr bool kShortIgnorePositionExact = false;
// size() needs the position: Core throws when it is unknown (the embedded Size() returns nothing).
inline constexpr bool kSizeUnknownPositionThrows = true;
// Core keeps no record of a failed write: its position stays where the write started, later writes are
// attempted and Close() reports only what fclose says (the embedded file marks itself failed, forgets its
// position, and every later write and Close() throws).
inline constexpr bool kFailedWriteRemembered = false;
// Core switches a stream from reading to writing without a positioning call (C requires one; glibc
// tolerates it, so a failing seek there goes unnoticed); the embedded file seeks on every change of direction.
inline constexpr bool kDirectionChangeSeeks = false;
// A seek whose ftell fails, and a size() that cannot seek back, leave Core's previous position in place (the
// embedded file forgets its position: it no longer knows where the stream is).
inline constexpr bool kPositionUnknownAfterFailedSeek = false;
// A BufferedWriter or BufferedReader of size 0: Core takes the size as given (a writer of size 0 drops
// every byte); the embedded classes take it as 1. The adapter passes the size through unchanged.
inline constexpr bool kZeroBufferSizeIsOne = false;

// The APIs beyond AutoFile's central ones, where the tree has them (core/file_io_features.h): seam::kFileApi.
inline constexpr bool kFileLifecycle = SUITE_CORE_auto_file_lifecycle;  // release, Truncate, Commit, size
inline constexpr bool kBufferedStreams = SUITE_CORE_buffered_streams;   // BufferedWriter, BufferedReader
inline constexpr bool kBufferedFile = SUITE_CORE_buffered_file;         // BufferedFile
// The shims over AutoFile's protected members: its FILE* (else the one the adapter opened it with, kept
// beside it) and its position (else read with tell(), which throws where Core does not know it).
inline constexpr bool kHandleInternal = SUITE_CORE_auto_file_handle;
inline constexpr bool kPositionInternal = SUITE_CORE_auto_file_position;

// Not a class of the adapter's: catching and throwing every failure again as one cost a twelfth of
// file_io_sim's time.
using IoError = std::ios_base::failure;

// Core's AutoFile, BufferedWriter<AutoFile> and BufferedReader<AutoFile>, each held through a base of the
// adapter's (core/file_io.cpp), so that a class the tree lacks is never named.
struct CoreFile;
struct CoreWriter;
struct CoreReader;
struct CoreBufferedFile;

class AutoFile {
 public:
  // Takes ownership of `file` (null is allowed: Core then throws from every operation but Close).
  explicit AutoFile(std::FILE* file, const Obfuscation& obfuscation = {});
  // Closes the file with Core's fclose() if still open, printing a failure to stderr. (Core's own
  // destructor requires a file that was written to be closed explicitly first.)
  ~AutoFile();
  // Core's AutoFile cannot move: the adapter moves its pointer to it and leaves a null Core file behind.
  AutoFile(AutoFile&& other) noexcept;
  AutoFile(const AutoFile&) = delete;
  AutoFile& operator=(const AutoFile&) = delete;
  AutoFile& operator=(AutoFile&&) = delete;

  bool IsOpen() const;
  // Core's m_position (its tell() throws when unknown).
  std::optional<uint64_t> Position() const;
  // The key the file was built with (Core has no getter; the adapter keeps a copy).
  const Obfuscation& obfuscation() const { return obfuscation_; }

  void Seek(int64_t offset, int origin);      // seek()
  void Read(std::span<uint8_t> dst);          // read()
  size_t ReadSome(std::span<uint8_t> dst);    // detail_fread(), what Core's readers refill with
  void Ignore(uint64_t n);                    // ignore()
  void Write(std::span<const uint8_t> src);   // write()
  void WriteConsume(std::span<uint8_t> buf);  // write_buffer()
  // fflush on Core's FILE*: Core has no call that only hands stdio's buffer to the system (Commit() also
  // fsyncs). Throws IoError if fflush fails.
  void Flush();
  // size(); see kSizeUnknownPositionThrows.
  std::optional<uint64_t> Size();
  // Truncate(): Core takes the size as a 32-bit unsigned (blk and rev files stay far below 4 GiB) and
  // does not flush stdio first, so the caller must (Flush). Throws IoError if it returns false, and
  // std::invalid_argument for a size over 2^32 - 1 rather than cutting at the wrong place.
  void Truncate(uint64_t size);
  // Commit() (fflush, then fdatasync): throws IoError if it returns false.
  void Commit();
  // fclose(): throws IoError if it returns non-zero. Closing a closed file does nothing.
  void Close();
  // release(): the FILE*, which the caller must close; Core's position stays.
  std::FILE* Release();

  // For the other adapters (core/*.cpp): Core's object, and its FILE* (null when closed).
  ::AutoFile& core();
  std::FILE* handle() const;

 private:
  Obfuscation obfuscation_;
  std::unique_ptr<CoreFile> core_;
};

class BufferedWriter {
 public:
  static constexpr size_t kDefaultSize = size_t{1} << 16;  // Core's default

  // `file` must outlive the writer.
  explicit BufferedWriter(AutoFile& file, size_t size = kDefaultSize);
  // Core's destructor flushes (see kWriterFailedFlushBug).
  ~BufferedWriter();
  BufferedWriter(const BufferedWriter&) = delete;
  BufferedWriter& operator=(const BufferedWriter&) = delete;

  void Write(std::span<const uint8_t> src);  // write()
  void Flush();                              // flush()

  // Core does not expose its fill level; the adapter follows Core's rule (the buffer is written out
  // each time it becomes full), so after n more bytes it holds (held + n) mod size.
  size_t buffered() const { return used_; }
  std::optional<uint64_t> Position() const;

  // For the other adapters: Core's writer, and Account(n) after writing n bytes through it directly.
  // Requires kBufferedStreams.
  ::BufferedWriter<::AutoFile>& core();
  void Account(size_t n);

 private:
  AutoFile& file_;
  size_t size_;
  size_t used_ = 0;
  std::unique_ptr<CoreWriter> core_;
};

// Core's BufferedFile over the adapter's AutoFile (which must outlive it). Its errors are IoError, as
// everywhere here; SkipTo behind the read position is std::logic_error here (Core asserts).
class BufferedFile {
 public:
  static constexpr uint64_t kNoLimit = UINT64_MAX;

  BufferedFile(AutoFile& file, uint64_t size, uint64_t rewind);
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  bool Eof() const;
  void Read(std::span<uint8_t> dst);
  void SkipTo(uint64_t pos);
  uint64_t GetPos() const;
  bool SetPos(uint64_t pos);
  bool SetLimit(uint64_t pos = kNoLimit);
  void FindByte(uint8_t byte);

 private:
  std::unique_ptr<CoreBufferedFile> core_;
};

class BufferedReader {
 public:
  static constexpr size_t kDefaultSize = size_t{1} << 16;

  explicit BufferedReader(AutoFile&& file, size_t size = kDefaultSize);
  ~BufferedReader();
  BufferedReader(const BufferedReader&) = delete;
  BufferedReader& operator=(const BufferedReader&) = delete;

  void Read(std::span<uint8_t> dst);  // read()
  // Core's reader has no position: the adapter counts the bytes handed out. After a read that throws it
  // is the file's position, since Core's reader throws only from a direct read of the file once its
  // buffer is drained.
  std::optional<uint64_t> Position() const { return position_; }

 private:
  AutoFile file_;
  std::optional<uint64_t> position_;
  std::unique_ptr<CoreReader> core_;  // refers to file_: declared after it, destroyed before it
};

}  // namespace core_adapter
