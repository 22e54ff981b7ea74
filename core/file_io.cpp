#include "core/core_log.h"
#include "core/file_io.h"
#include "core/file_io_features.h"

#include <streams.h>
#include <util/obfuscation.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ios>
#include <stdexcept>
#include <string>
#include <utility>

namespace core_adapter {

SUITE_CORE_CHECK_ANSWERS(SUITE_CORE_FILE_IO_FEATURES)

// Core's AutoFile, with the FILE* the adapter opened it with kept beside it: the handle shim's public form
// (the adapter makes every call that closes or releases the file, so it knows when the FILE* goes).
struct CoreFile : ::AutoFile {
  CoreFile(std::FILE* file, const ::Obfuscation& obfuscation) : ::AutoFile(file, obfuscation), handle(file) {}
  std::FILE* handle;
};

// Core's BufferedWriter<AutoFile>, BufferedReader<AutoFile> and BufferedFile, each in a Holding<T> named only
// where the tree has the class (core/unavailable.h, Later).
struct CoreWriter {
  virtual ~CoreWriter() = default;
};
struct CoreReader {
  virtual ~CoreReader() = default;
};
struct CoreBufferedFile {
  virtual ~CoreBufferedFile() = default;
};

namespace {

template <class Base, class T>
struct Holding final : Base {
  template <typename... Args>
  explicit Holding(Args&&... args) : object(std::forward<Args>(args)...) {}
  T object;
};

// The Core object a Holding<T> behind `base` holds; `Dep` makes the type dependent (see Later).
template <class T, class Dep, class Base>
T& Held(Base& base) {
  return static_cast<Holding<Base, Later<Dep, T>>&>(base).object;
}

// ---- the shims over AutoFile's protected members ----

template <class C = ::AutoFile>
struct OpenFile : C {
  static std::FILE* Handle(const C& f) { return f.*(&OpenFile::m_file); }
  static const std::optional<int64_t>& Position(const C& f) { return f.*(&OpenFile::m_position); }
};

template <class F>
std::FILE* HandleOf(const F& f) {
  if constexpr (kHandleInternal) {
    return OpenFile<>::Handle(f);
  } else {
    return f.handle;
  }
}

template <class F>
std::optional<uint64_t> PositionOf(F& f) {
  if constexpr (kPositionInternal) {
    const auto p = OpenFile<>::Position(f);
    if (!p) return std::nullopt;
    return static_cast<uint64_t>(*p);
  } else {
    try {
      return static_cast<uint64_t>(f.tell());  // throws when Core does not know the position
    } catch (const std::ios_base::failure&) {
      return std::nullopt;
    }
  }
}

using CoreBufferedWriter = ::BufferedWriter<::AutoFile>;
using CoreBufferedReader = ::BufferedReader<::AutoFile>;

}  // namespace

AutoFile::AutoFile(std::FILE* file, const Obfuscation& obfuscation)
    : obfuscation_(obfuscation), core_(std::make_unique<CoreFile>(file, obfuscation.core())) {
  // Core's file classes log what goes wrong (a failed close or flush); a logger never started keeps every
  // message in memory, input after input.
  QuietCoreLogging();
}

AutoFile::~AutoFile() {
  if (core_ && !core_->IsNull()) {
    core_->handle = nullptr;
    if (core_->fclose() != 0) std::fprintf(stderr, "AutoFile: fclose failed: %s\n", std::strerror(errno));
  }
}

AutoFile::AutoFile(AutoFile&& other) noexcept
    : obfuscation_(other.obfuscation_),
      core_(std::exchange(other.core_, std::make_unique<CoreFile>(nullptr, other.obfuscation_.core()))) {}

bool AutoFile::IsOpen() const { return !core_->IsNull(); }

std::optional<uint64_t> AutoFile::Position() const { return PositionOf(*core_); }

void AutoFile::Seek(int64_t offset, int origin) { core_->seek(offset, origin); }

void AutoFile::Read(std::span<uint8_t> dst) { core_->read(Bytes(dst)); }

size_t AutoFile::ReadSome(std::span<uint8_t> dst) { return core_->detail_fread(Bytes(dst)); }

void AutoFile::Ignore(uint64_t n) { core_->ignore(static_cast<size_t>(n)); }

void AutoFile::Write(std::span<const uint8_t> src) { core_->write(Bytes(src)); }

void AutoFile::WriteConsume(std::span<uint8_t> buf) { core_->write_buffer(Bytes(buf)); }

void AutoFile::Flush() {
  std::FILE* f = HandleOf(*core_);
  if (f == nullptr) throw IoError("AutoFile::Flush: file handle is nullptr");
  if (std::fflush(f) != 0) throw IoError(std::string("AutoFile::Flush: fflush failed: ") + std::strerror(errno));
}

std::optional<uint64_t> AutoFile::Size() {
  return IfTreeHas<kFileLifecycle, std::optional<uint64_t>>(
      "AutoFile::size", *core_, [](auto& f) { return std::optional<uint64_t>(static_cast<uint64_t>(f.size())); });
}

void AutoFile::Truncate(uint64_t size) {
  if (size > UINT32_MAX) throw std::invalid_argument("AutoFile::Truncate: Core's size is 32 bits");
  if (core_->IsNull()) throw IoError("AutoFile::Truncate: file handle is nullptr");
  IfTreeHas<kFileLifecycle, void>("AutoFile::Truncate", *core_, [&](auto& f) {
    if (!f.Truncate(static_cast<unsigned>(size))) {
      throw IoError(std::string("AutoFile::Truncate failed: ") + std::strerror(errno));
    }
  });
}

void AutoFile::Commit() {
  if (core_->IsNull()) throw IoError("AutoFile::Commit: file handle is nullptr");
  IfTreeHas<kFileLifecycle, void>("AutoFile::Commit", *core_, [](auto& f) {
    if (!f.Commit()) throw IoError(std::string("AutoFile::Commit failed: ") + std::strerror(errno));
  });
}

void AutoFile::Close() {
  core_->handle = nullptr;
  if (core_->fclose() != 0) throw IoError(std::string("AutoFile::fclose failed: ") + std::strerror(errno));
}

std::FILE* AutoFile::Release() {
  return IfTreeHas<kFileLifecycle, std::FILE*>("AutoFile::release", *core_, [](auto& f) {
    f.handle = nullptr;
    return f.release();
  });
}

::AutoFile& AutoFile::core() { return *core_; }

std::FILE* AutoFile::handle() const { return HandleOf(*core_); }

BufferedWriter::BufferedWriter(AutoFile& file, size_t size) : file_(file), size_(size) {
  core_ = IfTreeHas<kBufferedStreams, std::unique_ptr<CoreWriter>>(
      "BufferedWriter<AutoFile>", file.core(), [&](auto& f) -> std::unique_ptr<CoreWriter> {
        return std::make_unique<Holding<CoreWriter, Later<decltype(f), CoreBufferedWriter>>>(f, size);
      });
}

BufferedWriter::~BufferedWriter() = default;  // Core's destructor flushes

void BufferedWriter::Write(std::span<const uint8_t> src) {
  try {
    core().write(Bytes(src));
  } catch (const IoError&) {
    used_ = size_;  // Core's write throws only from the flush of a full buffer, which then stays full
    throw;
  }
  Account(src.size());
}

void BufferedWriter::Account(size_t n) {
  if (size_ > 0) used_ = (used_ + n) % size_;
}

void BufferedWriter::Flush() {
  core().flush();
  used_ = 0;
}

std::optional<uint64_t> BufferedWriter::Position() const {
  const auto p = file_.Position();
  if (!p) return std::nullopt;
  return *p + used_;
}

::BufferedWriter<::AutoFile>& BufferedWriter::core() {
  return IfTreeHas<kBufferedStreams, ::BufferedWriter<::AutoFile>&>(
      "BufferedWriter<AutoFile>", *core_,
      [](auto& held) -> auto& { return Held<CoreBufferedWriter, decltype(held)>(held); });
}

BufferedFile::BufferedFile(AutoFile& file, uint64_t size, uint64_t rewind) {
  core_ = IfTreeHas<kBufferedFile, std::unique_ptr<CoreBufferedFile>>(
      "BufferedFile", file.core(), [&](auto& f) -> std::unique_ptr<CoreBufferedFile> {
        return std::make_unique<Holding<CoreBufferedFile, Later<decltype(f), ::BufferedFile>>>(f, size, rewind);
      });
}

BufferedFile::~BufferedFile() = default;

namespace {

// Core's BufferedFile behind `held`, for a call: `call(object)`.
template <class R, class Call>
R OnBufferedFile(CoreBufferedFile& held, Call&& call) {
  return IfTreeHas<kBufferedFile, R>("BufferedFile", held,
                                     [&](auto& h) -> R { return call(Held<::BufferedFile, decltype(h)>(h)); });
}

}  // namespace

bool BufferedFile::Eof() const {
  return OnBufferedFile<bool>(*core_, [](auto& b) { return b.eof(); });
}

void BufferedFile::Read(std::span<uint8_t> dst) {
  OnBufferedFile<void>(*core_, [&](auto& b) { b.read(Bytes(dst)); });
}

void BufferedFile::SkipTo(uint64_t pos) {
  OnBufferedFile<void>(*core_, [&](auto& b) {
    if (pos < b.GetPos()) throw std::logic_error("BufferedFile::SkipTo: behind the read position (Core asserts)");
    b.SkipTo(pos);
  });
}

uint64_t BufferedFile::GetPos() const {
  return OnBufferedFile<uint64_t>(*core_, [](auto& b) { return static_cast<uint64_t>(b.GetPos()); });
}

bool BufferedFile::SetPos(uint64_t pos) {
  return OnBufferedFile<bool>(*core_, [&](auto& b) { return b.SetPos(pos); });
}

bool BufferedFile::SetLimit(uint64_t pos) {
  return OnBufferedFile<bool>(*core_, [&](auto& b) { return b.SetLimit(pos); });
}

void BufferedFile::FindByte(uint8_t byte) {
  OnBufferedFile<void>(*core_, [&](auto& b) { b.FindByte(std::byte{byte}); });
}

BufferedReader::BufferedReader(AutoFile&& file, size_t size) : file_(std::move(file)), position_(file_.Position()) {
  core_ = IfTreeHas<kBufferedStreams, std::unique_ptr<CoreReader>>(
      "BufferedReader<AutoFile>", file_.core(), [&](auto& f) -> std::unique_ptr<CoreReader> {
        return std::make_unique<Holding<CoreReader, Later<decltype(f), CoreBufferedReader>>>(std::move(f), size);
      });
}

BufferedReader::~BufferedReader() = default;

void BufferedReader::Read(std::span<uint8_t> dst) {
  try {
    IfTreeHas<kBufferedStreams, void>("BufferedReader<AutoFile>", *core_, [&](auto& held) {
      Held<CoreBufferedReader, decltype(held)>(held).read(Bytes(dst));
    });
  } catch (const IoError&) {
    position_ = file_.Position();
    throw;
  }
  if (position_) *position_ += dst.size();
}

}  // namespace core_adapter
