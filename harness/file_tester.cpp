#include "file_tester.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "fault_file.h"
#include "known_bugs.h"
#include "seam/types.h"
#include "rng.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // tester and model: the subject is compiled out of line in src/io/
namespace {

// Filled into read destinations: bytes a read must not touch keep it.
constexpr uint8_t kSentinel = 0xa5;

// The offset of the first difference between two equal-length byte ranges, or -1.
int64_t FirstDifference(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0) return -1;  // fast path: most calls
  const auto m = std::mismatch(a.begin(), a.end(), b.begin());
  return m.first == a.end() ? -1 : m.first - a.begin();
}

// A stream that accepts writes, has nothing to read and cannot seek, so ftell fails: a stand-in for a pipe
// with no system calls.
ssize_t SinkWrite(void*, const char*, size_t n) { return static_cast<ssize_t>(n); }
ssize_t EmptyRead(void*, char*, size_t) { return 0; }

}  // namespace

struct FileIoTester::Scratch {
  uint8_t plain[kMaxLen];
  alignas(8) uint8_t copy[kMaxLen + 8];  // + 8: room to start the data at any alignment
  alignas(8) uint8_t got[kMaxLen + 8];
  uint8_t expected[kMaxLen];
  uint8_t disk[FileModel::kWindowSize];
};

FileIoTester::Scratch& FileIoTester::SharedScratch() {
  static Scratch scratch;
  return scratch;
}

std::string FileStep::ToString() const {
  return std::string(harness::ToString(op)) + "(len=" + std::to_string(len) + ", target=" + std::to_string(target) +
         ", mech=" + std::to_string(mech) + ", seed=" + std::to_string(seed) + ")";
}

FileIoTester::FileIoTester(const std::array<uint8_t, 8>& key) : model_(key), scratch_(SharedScratch()) {
  fd_ = memfd_create("file_io_sim", MFD_CLOEXEC);
  HARNESS_CHECK(fd_ >= 0, "memfd_create failed: ", std::strerror(errno));
  OpenAt(0);
}

FileIoTester::~FileIoTester() {
  writer_.reset();
  reader_.reset();
  file_.reset();
  if (fd_ >= 0) close(fd_);
}

void FileIoTester::OpenAt(uint64_t offset) {
  HARNESS_CHECK(lseek(fd_, static_cast<off_t>(offset), SEEK_SET) == static_cast<off_t>(offset), "lseek failed");
  const int fd = dup(fd_);
  HARNESS_CHECK(fd >= 0, "dup failed: ", std::strerror(errno));
  std::FILE* f = fdopen(fd, "r+b");
  HARNESS_CHECK(f != nullptr, "fdopen failed: ", std::strerror(errno));
  file_.emplace(f, seam::Obfuscation(model_.key()));
  position_ = offset;
  direction_ = Direction::kNone;
}

std::span<const uint8_t> FileIoTester::Plain(uint32_t seed, uint32_t len) {
  // Whole words, then the start of one more: a copy of constant size is a store, where one of a size known
  // only at run time is a call into the sanitizer's memcpy.
  Rng rng(seed);
  uint32_t i = 0;
  for (; len - i >= 8; i += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(scratch_.plain + i, &word, 8);
  }
  if (i < len) {
    const uint64_t word = rng.Next();
    std::memcpy(scratch_.plain + i, &word, len - i);
  }
  return {scratch_.plain, len};
}

// C lets a stream switch between output and input only across an fflush or a positioning call. The
// embedded file makes that call itself; Core's AutoFile leaves it to its caller (kDirectionChangeSeeks), and
// without it glibc silently drops buffered output when a read of a whole buffer follows a write.
void FileIoTester::Use(Direction d) {
  if (!seam::kDirectionChangeSeeks && direction_ != Direction::kNone && direction_ != d) file_->Seek(0, SEEK_CUR);
  direction_ = d;
}

void FileIoTester::FlushWriterForDirectUse() {
  if (!writer_) return;
  Use(Direction::kWriting);
  writer_->Flush();
}

void FileIoTester::DropWriter() {
  if (!writer_) return;
  Use(Direction::kWriting);
  writer_.reset();  // the destructor's flush, not ours
  file_->Flush();
  direction_ = Direction::kNone;
  CheckDisk(false);
}

void FileIoTester::CheckPosition() const {
  if (file_) {
    const uint64_t buffered = writer_ ? writer_->buffered() : 0;
    HARNESS_CHECK(file_->Position() == std::optional<uint64_t>(position_ - buffered), "file position ",
                  file_->Position().value_or(UINT64_MAX), ", expected ", position_ - buffered);
    if (writer_) {
      HARNESS_CHECK(writer_->Position() == std::optional<uint64_t>(position_), "writer position ",
                    writer_->Position().value_or(UINT64_MAX), ", expected ", position_);
    }
  }
  if (reader_) {
    HARNESS_CHECK(reader_->Position() == std::optional<uint64_t>(position_), "reader position ",
                  reader_->Position().value_or(UINT64_MAX), ", expected ", position_);
  }
}

void FileIoTester::CheckDisk(bool all) {
  struct stat st;
  HARNESS_CHECK(fstat(fd_, &st) == 0, "fstat failed");
  HARNESS_CHECK_EQ(static_cast<uint64_t>(st.st_size), model_.size(), "file size on disk");
  for (int w = 0; w < FileModel::kWindows; ++w) {
    FileModel::Range r = all ? model_.touched(w) : model_.dirty(w);
    r.hi = std::min(r.hi, model_.size());  // a truncated file ends before what was once written
    if (r.lo >= r.hi) continue;
    const size_t n = static_cast<size_t>(r.hi - r.lo);
    HARNESS_CHECK(pread(fd_, scratch_.disk, n, static_cast<off_t>(r.lo)) == static_cast<ssize_t>(n), "pread failed");
    const auto want = model_.Raw(w, r.lo, r.hi);
    const int64_t at = FirstDifference({scratch_.disk, n}, want);
    HARNESS_CHECK(at < 0, "raw bytes on disk differ from plaintext XOR key at offset ", r.lo + at, " (checked [", r.lo,
                  ", ", r.hi, "))\n    disk:  ", HexStr(std::span<const uint8_t>{scratch_.disk + at, n - at}),
                  "\n    model: ", HexStr(want.subspan(at)));
  }
  model_.ClearDirty();
}

void FileIoTester::CheckRead(const uint8_t* dst, uint64_t at, uint32_t len, size_t got, bool threw) {
  const size_t n = model_.Read(at, {scratch_.expected, len});
  HARNESS_CHECK_EQ(got, n, "bytes the model says exist at ", at);
  HARNESS_CHECK_EQ(threw, n < len, "a read throws exactly when it comes up short (", n, " of ", len, " bytes exist)");
  const int64_t diff = FirstDifference({dst, n}, {scratch_.expected, n});
  HARNESS_CHECK(diff < 0, "read at ", at, " differs at +", diff,
                "\n    subject: ", HexStr(std::span<const uint8_t>{dst + diff, n - diff}),
                "\n    model:   ", HexStr(std::span<const uint8_t>{scratch_.expected + diff, n - diff}));
  const uint8_t* tail = std::find_if(dst + n, dst + len, [](uint8_t b) { return b != kSentinel; });
  HARNESS_CHECK(tail == dst + len, "a short read changed the destination past the ", n, " bytes read, at +",
                tail - dst);
}

void FileIoTester::ApplyUnknownPosition() {
  cookie_io_functions_t io{};
  io.write = SinkWrite;
  io.read = EmptyRead;
  seam::AutoFile f(fopencookie(nullptr, "r+", io), seam::Obfuscation(model_.key()));
  HARNESS_CHECK(!f.Position(), "a stream without seek has an unknown position");
  const bool on = static_cast<bool>(f.obfuscation());
  uint8_t bytes[3] = {1, 2, 3};
  bool threw = false;
  try {
    f.Write(bytes);
  } catch (const seam::IoError&) {
    threw = true;
  }
  HARNESS_CHECK_EQ(threw, on, "a write at an unknown position throws exactly when obfuscation is on");
  try {
    f.Read(bytes);
    HARNESS_CHECK(false, "a read from an empty stream succeeded");
  } catch (const seam::IoError&) {
  }
  HARNESS_CHECK(bytes[0] == 1 && bytes[1] == 2 && bytes[2] == 3, "a failed read changed the destination");
  f.Close();
}

void FileIoTester::ApplyClose(const FileStep& step) {
  DropWriter();
  Use(Direction::kWriting);
  file_->Flush();
  const std::optional<uint64_t> at = file_->Position();
  std::FILE* released = nullptr;
  if (step.mech % 2 == 0) {
    file_->Close();
  } else {
    released = file_->Release();
    HARNESS_CHECK(released != nullptr, "Release() of an open file returned no FILE*");
    HARNESS_CHECK(file_->Release() == nullptr, "a second Release() returned a FILE* again");
  }
  HARNESS_CHECK(!file_->IsOpen(), "the file is open after ", step.mech % 2 == 0 ? "Close" : "Release");
  HARNESS_CHECK(file_->Position() == at, "the position changed with ", step.mech % 2 == 0 ? "Close" : "Release");
  uint8_t bytes[4] = {1, 2, 3, 4};
  const auto throws = [](const char* what, const auto& call) {
    bool threw = false;
    try {
      call();
    } catch (const seam::IoError&) {
      threw = true;
    }
    HARNESS_CHECK(threw, what, " on a closed file did not throw");
  };
  throws("Read", [&] { file_->Read(bytes); });
  throws("Write", [&] { file_->Write(bytes); });
  throws("WriteConsume", [&] { file_->WriteConsume(bytes); });
  throws("Ignore", [&] { file_->Ignore(1); });
  throws("Seek", [&] { file_->Seek(0, SEEK_SET); });
  throws("Flush", [&] { file_->Flush(); });
  throws("Size", [&] { file_->Size(); });
  throws("Truncate", [&] { file_->Truncate(0); });
  throws("Commit", [&] { file_->Commit(); });
  file_->Close();  // nothing more to do
  if (released != nullptr) HARNESS_CHECK(std::fclose(released) == 0, "fclose of the released FILE* failed");
  file_.reset();
  CheckDisk(false);
  OpenAt(step.target);
}

void FileIoTester::ApplyFail(const FileStep& step) {
  using fault_file::Call;
  const int path = step.mech % 8;
  const size_t buffer = kBufferSizes[step.mech / 8 % kBufferSizes.size()];
  fault_file::Fault fault;
  fault.call = static_cast<Call>(step.target % fault_file::kCallCount);
  fault.at = 1 + static_cast<uint32_t>(step.target / 5 % 4);
  fault.effect = step.target / 20 % 2 ? fault_file::Effect::kShort : fault_file::Effect::kFail;
  fault.persistent = step.target / 40 % 2;
  fault.error = step.target / 80 % 2 ? EIO : ENOSPC;

  // Everything before this step is on disk, as the model says.
  DropWriter();
  Use(Direction::kWriting);
  file_->Flush();
  direction_ = Direction::kNone;
  CheckDisk(false);
  const uint64_t at = position_;
  const uint64_t size_before = model_.size();
  const int w = FileModel::WindowOf(at, step.len);
  const auto old_raw = model_.Raw(w, at, at + step.len);
  std::vector<uint8_t> before(old_raw.begin(), old_raw.end());
  const auto data = Plain(step.seed, step.len);
  const std::span<uint8_t> src(scratch_.copy, data.size());
  std::copy(data.begin(), data.end(), src.begin());
  if (path >= 6) {
    // Commit and Truncate: the data is written and flushed first; only the call itself meets the disk.
    Use(Direction::kWriting);
    file_->Write(src);
    file_->Flush();
    model_.Write(at, data);
    position_ += step.len;
    CheckDisk(false);
  }
  bool threw = false, skipped = false;
  {
    const fault_file::Armed armed(fault);
    try {
      Use(Direction::kWriting);
      switch (path) {
        case 0: file_->Write(src); break;
        case 1: file_->WriteConsume(src); break;
        case 2:
        case 3:
          writer_.emplace(*file_, buffer);
          writer_->Write(src);
          if (path == 3) writer_->Flush();
          break;
        case 4:
          file_->Write(src);
          file_->Flush();
          break;
        case 5:
          file_->Write(src);
          file_->Close();
          break;
        case 6: file_->Commit(); break;
        default: file_->Truncate(at + step.len / 2); break;
      }
    } catch (const seam::IoError&) {
      threw = true;
    }
    if (writer_) {
      // The writer's destructor flushes what it holds: a write path too, still under the fault. Where that
      // ends the process (writer_failed_flush's destructor_terminate) the disk works again first; where it
      // writes a failed flush's buffer again (its plaintext form), the disk is not checked.
      if (writer_->buffered() > 0) {
        if (!KnownBugCheckRuns(KnownBug::kWriterPlaintext)) skipped = fault_file::Injected();
        if (!KnownBugCheckRuns(KnownBug::kWriterDestructorTerminate)) fault_file::Disarm();
      }
      writer_.reset();
    }
  }
  const bool injected = fault_file::Injected();
  bool close_threw = false;
  try {
    file_->Close();
  } catch (const seam::IoError&) {
    close_threw = true;
  }
  file_.reset();
  HARNESS_CHECK(!(threw || close_threw) || injected, "a write path threw without a failing disk");
  HARNESS_CHECK(!injected || threw || close_threw || skipped, "the ", fault_file::ToString(fault.call),
                " that failed went unreported: neither the call that met it nor Close() threw");
  ended_ = true;
  if (skipped) return;

  struct stat st;
  HARNESS_CHECK(fstat(fd_, &st) == 0, "fstat failed");
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (path == 7) {
    // A truncation happened or did not: nothing in between.
    if (!injected) model_.Truncate(at + step.len / 2);
    HARNESS_CHECK_EQ(size, model_.size(), "file size after a truncation ", injected ? "that failed" : "that worked");
    CheckDisk(true);
    return;
  }
  if (path == 6) {
    CheckDisk(true);
    return;
  }
  HARNESS_CHECK(size >= size_before && size <= std::max(size_before, at + step.len), "after a failing ",
                fault_file::ToString(fault.call), " the file is ", size, " bytes; before the step ", size_before,
                ", with all of it ", std::max(size_before, at + step.len));
  // Every byte the step meant to write is what was there before or what it meant to write there.
  model_.Write(at, data);
  const auto new_raw = model_.Raw(w, at, at + step.len);
  const size_t n = static_cast<size_t>(std::min<uint64_t>(step.len, size > at ? size - at : 0));
  HARNESS_CHECK(pread(fd_, scratch_.disk, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n), "pread failed");
  for (size_t i = 0; i < n; ++i) {
    const uint8_t d = scratch_.disk[i];
    HARNESS_CHECK(d == before[i] || d == new_raw[i], "after a failing ", fault_file::ToString(fault.call),
                  " the byte at ", at + i, " is ", int{d}, ": neither the old ", int{before[i]}, " nor the written ",
                  int{new_raw[i]}, d == data[i] ? " (it is the plaintext)" : "");
  }
  // Nothing else on disk changed.
  model_.ClearDirty();
  for (int v = 0; v < FileModel::kWindows; ++v) {
    const FileModel::Range& r = model_.touched(v);
    if (r.lo >= r.hi) continue;
    for (const auto& [lo, hi] : {std::pair(r.lo, std::min(r.hi, at)), std::pair(std::max(r.lo, at + step.len), r.hi)}) {
      if (lo >= hi || lo >= size) continue;
      const size_t m = static_cast<size_t>(std::min(hi, size) - lo);
      HARNESS_CHECK(pread(fd_, scratch_.disk, m, static_cast<off_t>(lo)) == static_cast<ssize_t>(m), "pread failed");
      const int64_t diff = FirstDifference({scratch_.disk, m}, model_.Raw(v, lo, lo + m));
      HARNESS_CHECK(diff < 0, "after a failing ", fault_file::ToString(fault.call), " the byte at ", lo + diff,
                    " outside the step's range changed");
    }
  }
}

bool FileIoTester::Apply(FileStep step) {
  if (ended_) return false;
  try {
    if (!ApplyStep(step)) return false;
  } catch (const seam::IoError& e) {
    HARNESS_CHECK(false, "unexpected IoError: ", e.what());
  }
  if (!ended_) CheckPosition();
  return true;
}

bool FileIoTester::ApplyStep(const FileStep& step) {
  const bool has_file = file_.has_value();
  const FileOp op = step.op;
  switch (op) {
    case FileOp::kWrite:
    case FileOp::kWriteConsume:
    case FileOp::kBufferedWrite: {
      if (!has_file || FileModel::WindowOf(position_, step.len) < 0) return false;
      log_.Add(step);
      const auto data = Plain(step.seed, step.len);
      const std::span<uint8_t> src(scratch_.copy + (step.mech >> 3) % 8, data.size());  // any alignment
      std::copy(data.begin(), data.end(), src.begin());
      if (op != FileOp::kBufferedWrite) FlushWriterForDirectUse();
      Use(Direction::kWriting);
      if (op == FileOp::kWriteConsume) {
        file_->WriteConsume(src);
      } else {
        if (op == FileOp::kWrite) {
          file_->Write(src);
        } else {
          if (!writer_) writer_.emplace(*file_, kBufferSizes[step.mech % kBufferSizes.size()]);
          writer_->Write(src);
        }
        const int64_t at = FirstDifference(data, src);
        HARNESS_CHECK(at < 0, "the write changed the caller's data at +", at);
      }
      model_.Write(position_, data);
      position_ += step.len;
      break;
    }
    case FileOp::kFlush:
      if (!has_file) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      file_->Flush();
      direction_ = Direction::kNone;
      CheckDisk(false);
      break;
    case FileOp::kDropWriter:
      if (!writer_) return false;
      log_.Add(step);
      DropWriter();
      break;
    case FileOp::kSeekSet:
    case FileOp::kSeekCur:
    case FileOp::kSeekEnd: {
      if (!has_file || FileModel::WindowOf(step.target, 0) < 0) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      const int64_t target = static_cast<int64_t>(step.target);
      if (op == FileOp::kSeekSet) file_->Seek(target, SEEK_SET);
      if (op == FileOp::kSeekCur) file_->Seek(target - static_cast<int64_t>(position_), SEEK_CUR);
      if (op == FileOp::kSeekEnd) file_->Seek(target - static_cast<int64_t>(model_.size()), SEEK_END);
      position_ = step.target;
      direction_ = Direction::kNone;
      break;
    }
    case FileOp::kSeekBeforeStart: {
      if (!has_file) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      const int64_t before = 1 + step.len % 64;
      bool threw = false;
      try {
        if (step.mech % 2 == 0) file_->Seek(-before, SEEK_SET);
        if (step.mech % 2 == 1) file_->Seek(-static_cast<int64_t>(position_) - before, SEEK_CUR);
      } catch (const seam::IoError&) {
        threw = true;
      }
      HARNESS_CHECK(threw, "a seek before offset 0 succeeded");
      break;
    }
    case FileOp::kRead:
    case FileOp::kIgnore:
    case FileOp::kReaderRead: {
      if ((op == FileOp::kReaderRead) != reader_.has_value() || (op != FileOp::kReaderRead && !has_file)) return false;
      const uint64_t available = model_.Available(position_, step.len);
      if (FileModel::WindowOf(position_, available) < 0) return false;
      log_.Add(step);
      const std::span<uint8_t> dst(scratch_.got + step.mech % 8, step.len);  // any alignment
      std::fill(dst.begin(), dst.end(), kSentinel);
      bool threw = false;
      try {
        if (op == FileOp::kReaderRead) {
          reader_->Read(dst);
        } else {
          FlushWriterForDirectUse();
          Use(Direction::kReading);
          if (op == FileOp::kRead) file_->Read(dst);
          if (op == FileOp::kIgnore) file_->Ignore(step.len);
        }
      } catch (const seam::IoError&) {
        threw = true;
      }
      if (op == FileOp::kIgnore) {
        HARNESS_CHECK_EQ(threw, available < step.len, "ignore throws exactly when it comes up short");
        if (threw && !seam::kShortIgnorePositionExact) {
          // The subject's position is unspecified now (seam/file_io.h): it must not have run past the end
          // of the file, and a seek to where the file is sets it again.
          HARNESS_CHECK(file_->Position().value_or(0) <= position_ + available, "position ",
                        file_->Position().value_or(0), " past the end of the file after a short ignore");
          file_->Seek(static_cast<int64_t>(position_ + available), SEEK_SET);
          direction_ = Direction::kNone;
        }
      } else {
        CheckRead(dst.data(), position_, step.len, static_cast<size_t>(available), threw);
      }
      position_ += available;
      break;
    }
    case FileOp::kReopen:
      if (!has_file || FileModel::WindowOf(step.target, 0) < 0) return false;
      log_.Add(step);
      DropWriter();
      file_->Close();
      file_.reset();
      CheckDisk(false);
      OpenAt(step.target);
      break;
    case FileOp::kReaderOpen:
      if (!has_file) return false;
      log_.Add(step);
      DropWriter();
      Use(Direction::kReading);
      reader_.emplace(std::move(*file_), kBufferSizes[step.mech % kBufferSizes.size()]);
      file_.reset();
      break;
    case FileOp::kReaderClose:
      if (!reader_) return false;
      log_.Add(step);
      reader_.reset();
      OpenAt(position_);
      break;
    case FileOp::kUnknownPosition:
      log_.Add(step);
      ApplyUnknownPosition();
      break;
    case FileOp::kSize: {
      if (!has_file) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      Use(Direction::kReading);
      const auto size = file_->Size();
      HARNESS_CHECK(size == std::optional<uint64_t>(model_.size()), "Size() is ", size.value_or(UINT64_MAX),
                    ", the model's ", model_.size());
      direction_ = Direction::kNone;
      break;
    }
    case FileOp::kTruncate:
      // Core's Truncate takes 32 bits.
      if (!has_file || step.target > UINT32_MAX || FileModel::WindowOf(step.target, 0) < 0) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      Use(Direction::kWriting);
      file_->Flush();
      file_->Truncate(step.target);
      model_.Truncate(step.target);
      // stdio does not know the file changed under it (a stale read buffer, a sticky end of file): a seek
      // to where the file stands starts it afresh, as any caller must.
      file_->Seek(static_cast<int64_t>(position_), SEEK_SET);
      direction_ = Direction::kNone;
      CheckDisk(false);
      break;
    case FileOp::kCommit:
      if (!has_file) return false;
      log_.Add(step);
      FlushWriterForDirectUse();
      Use(Direction::kWriting);
      file_->Commit();
      direction_ = Direction::kNone;
      CheckDisk(false);
      break;
    case FileOp::kClose:
      if (!has_file || FileModel::WindowOf(step.target, 0) < 0) return false;
      log_.Add(step);
      ApplyClose(step);
      break;
    case FileOp::kFail:
      if (!has_file || FileModel::WindowOf(position_, step.len) < 0) return false;
      if (step.mech % 8 == 7 && position_ + step.len / 2 > UINT32_MAX) return false;  // Core's Truncate: 32 bits
      log_.Add(step);
      ApplyFail(step);
      break;
  }
  return true;
}

void FileIoTester::Finish() {
  if (ended_) return;
  try {
    if (file_) {
      DropWriter();
      file_->Close();
      file_.reset();
    }
  } catch (const seam::IoError& e) {
    HARNESS_CHECK(false, "unexpected IoError: ", e.what());
  }
  reader_.reset();
  CheckDisk(true);
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
