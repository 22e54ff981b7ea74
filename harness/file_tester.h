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
// so that the destructor's flush is what is tested; stdio's buffer is flushed before a Truncate, and the
// stream is repositioned after one.
// The file's life: Size() is the model's; Truncate cuts (or extends) it, position kept; Commit puts what
// was written on disk; after Close or Release every operation throws, Close does nothing more, and the
// position stays readable; the released FILE* is the caller's to close.
// A failing disk (fault_file.h): one write path — a write, a consuming write, a buffered write whose writer
// is then flushed or destroyed, a flush or a close after a write stdio kept, a commit, a truncation — runs
// while the k-th fwrite (failing or writing half), fflush, fclose, fdatasync or ftruncate fails, once or
// for good. Then: the call that met the failure, or the Close after it, throws (the caller learns of it);
// the process is still there; and every byte on disk is what the model had there before the step or what
// the step meant to write there (obfuscated): never plaintext, never a byte written twice or out of place,
// the file never longer than both. The input ends there (a node stops on such an error).
// Known Bitcoin Core bug writer_failed_flush (known_bugs.h, docs/core-bugs.md#writer-failed-flush): Core's
// BufferedWriter writes a buffer whose flush failed once more from its destructor; on a tree that has it the
// disk is repaired before the writer is destroyed and the disk check of that step is skipped, unless
// SUITE_CHECK_KNOWN_BUGS=1.
//
// Operations: HARNESS_FILE_OPS (stable IDs; new ones go at the end).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "check.h"
#include "file_model.h"
#include "op_list.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"

namespace harness {

// X(enumerator, id, name).
// clang-format off
#define HARNESS_FILE_OPS(X)                                                                                            \
  X(kWrite, 0, "Write")                      /* seam::AutoFile::Write(len bytes) */                                    \
  X(kWriteConsume, 1, "WriteConsume")        /* seam::AutoFile::WriteConsume(len bytes) */                             \
  /* BufferedWriter::Write(len bytes); makes a writer (buffer from `mech`) if none */                                  \
  X(kBufferedWrite, 2, "BufferedWrite")                                                                                \
  /* seam::BufferedWriter::Flush and seam::AutoFile::Flush, then disk == model */                                      \
  X(kFlush, 3, "Flush")                                                                                                \
  X(kDropWriter, 4, "DropWriter")            /* destroy the writer (its destructor flushes), then disk == model */     \
  X(kSeekSet, 5, "SeekSet")                  /* Seek(target, SEEK_SET) */                                              \
  X(kSeekCur, 6, "SeekCur")                  /* Seek(target - position, SEEK_CUR) */                                   \
  X(kSeekEnd, 7, "SeekEnd")                  /* Seek(target - size, SEEK_END) */                                       \
  /* to before offset 0 (SEEK_CUR or SEEK_SET by `mech`): throws, position kept */                                     \
  X(kSeekBeforeStart, 8, "SeekBeforeStart")                                                                            \
  X(kRead, 9, "Read")                        /* seam::AutoFile::Read(len) */                                           \
  X(kIgnore, 10, "Ignore")                   /* seam::AutoFile::Ignore(len) */                                         \
  /* Close(), then a new FILE* on the file at `target`, position from ftell */                                         \
  X(kReopen, 11, "Reopen")                                                                                             \
  X(kReaderOpen, 12, "ReaderOpen")           /* move the file into a seam::BufferedReader (buffer size from `mech`) */ \
  X(kReaderRead, 13, "ReaderRead")           /* seam::BufferedReader::Read(len) */                                     \
  X(kReaderClose, 14, "ReaderClose")         /* destroy the reader, reopen the file at the reader's position */        \
  X(kUnknownPosition, 15, "UnknownPosition") /* a stream without seek (ftell fails): obfuscated write throws */        \
  X(kSize, 16, "Size")                       /* seam::AutoFile::Size() */                                              \
  X(kTruncate, 17, "Truncate")               /* seam::AutoFile::Truncate(target) */                                    \
  X(kCommit, 18, "Commit")                   /* seam::AutoFile::Commit(), then disk == model */                        \
  /* Close (mech even) or Release the file, try every operation, then a new FILE* at `target` */                      \
  X(kClose, 19, "Close")                                                                                               \
  /* a write path (`mech`) of len bytes while the disk fails (`target`: the call, the k, the effect); ends input */   \
  X(kFail, 20, "Fail")                                                                                                 \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(FileOp, kFileOpCount, 32, HARNESS_FILE_OPS)

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
  // A failing disk ended the input: no further step applies.
  bool ended() const { return ended_; }
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
  void ApplyClose(const FileStep& step);
  void ApplyFail(const FileStep& step);

  FileModel model_;
  Scratch& scratch_;
  int fd_ = -1;
  uint64_t position_ = 0;                   // the model's position (where the next logical read or write happens)
  Direction direction_ = Direction::kNone;  // what file_'s FILE* did last since a seek or fflush
  std::optional<seam::AutoFile> file_;
  std::optional<seam::BufferedWriter> writer_;
  std::optional<seam::BufferedReader> reader_;
  bool ended_ = false;
  OpLog<FileStep> log_;
};

}  // namespace harness
