// FileIoTester: AutoFile, BufferedWriter and BufferedReader on a real file (a memfd: a tmpfs file with no
// name to clean up, sparse, offsets above 2^32) in lockstep with FileModel.
//
// Checked: every read's bytes (and on a short read: that it threw, the bytes that did exist, the rest of
// the destination untouched, the position advanced past the existing bytes only); the position after
// every operation (file, writer and reader); the caller's data unchanged by Write; after every flush
// (and when a writer is destroyed, a handle closed, and at the end) the raw bytes on disk, read with
// pread, equal the model's (plaintext XOR key[offset mod 8]) over everything written since the last
// check, and the file size matches; Close() succeeds; obfuscated I/O at an unknown position throws.
// Mechanics that must not change results: the writer's buffer size, when it flushes, the reader's buffer
// size, reopening the file (a new FILE* whose position comes from ftell).
// Contract kept by the tester, as by any caller: a writer holding data is flushed (Flush) before the file
// is used directly; a writer is destroyed (not flushed) before its file is closed or handed to a reader,
// so that the destructor's flush is what is tested.
// Not modelled: failing writes (the unit tests inject ENOSPC and file-size limits), Size().
//
// Operations (stable IDs; add new ones at the end): see FileOp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "check.h"
#include "file_model.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"

namespace harness {

enum class FileOp : uint8_t {
  kWrite = 0,            // seam::AutoFile::Write(len bytes)
  kWriteConsume = 1,     // seam::AutoFile::WriteConsume(len bytes)
  kBufferedWrite = 2,    // seam::BufferedWriter::Write(len bytes); makes a writer (buffer size from `mech`) if none
  kFlush = 3,            // seam::BufferedWriter::Flush and seam::AutoFile::Flush, then disk == model
  kDropWriter = 4,       // destroy the writer (its destructor flushes), then disk == model
  kSeekSet = 5,          // Seek(target, SEEK_SET)
  kSeekCur = 6,          // Seek(target - position, SEEK_CUR)
  kSeekEnd = 7,          // Seek(target - size, SEEK_END)
  kSeekBeforeStart = 8,  // Seek to before offset 0 (SEEK_CUR or SEEK_SET by `mech`): throws, position kept
  kRead = 9,             // seam::AutoFile::Read(len)
  kIgnore = 10,          // seam::AutoFile::Ignore(len)
  kReopen = 11,          // Close(), then a new FILE* on the file at `target`, position from ftell
  kReaderOpen = 12,      // move the file into a seam::BufferedReader (buffer size from `mech`)
  kReaderRead = 13,      // seam::BufferedReader::Read(len)
  kReaderClose = 14,     // destroy the reader, reopen the file at the reader's position
  kUnknownPosition = 15, // a stream without seek (ftell fails): position unknown; obfuscated write throws
};
inline constexpr uint8_t kFileOpCount = 16;
const char* ToString(FileOp op);

struct FileStep {
  FileOp op{};
  uint32_t len = 0;     // bytes to write, read or ignore
  uint64_t target = 0;  // absolute offset for seeks and reopen; kept inside a model window
  uint8_t mech = 0;     // mechanics: buffer size index for writers and readers, data alignment
  uint32_t seed = 0;    // plaintext bytes are derived from it
  std::string ToString() const;
};

class FileIoTester {
 public:
  static constexpr uint32_t kMaxLen = 70000;  // more than the default 64 KiB buffer, and many 4 KiB chunks
  // Buffer sizes for writers and readers, chosen by `mech`: tiny (one flush per byte), odd, word-sized,
  // a page, and the 64 KiB default.
  static constexpr std::array<size_t, 8> kBufferSizes{1, 3, 8, 13, 64, 1000, 4096, 65536};

  explicit FileIoTester(const std::array<uint8_t, 8>& key);
  ~FileIoTester();
  FileIoTester(const FileIoTester&) = delete;
  FileIoTester& operator=(const FileIoTester&) = delete;

  // Applies one step; false (nothing done) if it does not apply in the current state.
  bool Apply(FileStep step);
  // Destroys the writer and reader, closes the file, and compares everything written with the disk.
  void Finish();

 private:
  struct Scratch;  // static buffers for data and comparisons (static for the reason FileModel's storage is)
  static Scratch& SharedScratch();
  bool ApplyStep(const FileStep& step);
  void CheckPosition() const;
  void CheckDisk(bool all);
  void CheckRead(const uint8_t* dst, uint64_t at, uint32_t len, size_t got, bool threw);
  std::span<const uint8_t> Plain(uint32_t seed, uint32_t len);
  enum class Direction { kNone, kReading, kWriting };
  void Use(Direction d);
  void FlushWriterForDirectUse();
  void DropWriter();
  void OpenAt(uint64_t offset);
  void ApplyUnknownPosition();

  FileModel model_;
  Scratch& scratch_;
  int fd_ = -1;
  uint64_t position_ = 0;  // the model's position (where the next logical read or write happens)
  Direction direction_ = Direction::kNone;  // what file_'s FILE* did last since a seek or fflush
  std::optional<seam::AutoFile> file_;
  std::optional<seam::BufferedWriter> writer_;
  std::optional<seam::BufferedReader> reader_;
  OpLog<FileStep> log_;
};

}  // namespace harness
