#include "core/file_io.h"
#include "core/features.h"

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

static_assert(kWriterFailedFlushBug == core_features::writer_failed_flush,
              "SUITE_CORE_* disagree with core/features.h: the feature probe ran on another tree; reconfigure");

// Core's AutoFile, with the FILE* and position its subclasses may see.
class CoreAutoFile : public ::AutoFile {
 public:
  using ::AutoFile::AutoFile;
  std::FILE* file() const { return m_file; }
  std::optional<int64_t> position() const { return m_position; }
};

struct CoreWriter {
  CoreWriter(::AutoFile& file, size_t size) : writer(file, size) {}
  ::BufferedWriter<::AutoFile> writer;
};

struct CoreReader {
  CoreReader(::AutoFile& file, size_t size) : reader(std::move(file), size) {}
  ::BufferedReader<::AutoFile> reader;
};

namespace {

// Runs a call into Core, turning its std::ios_base::failure into IoError with Core's message.
template <typename F>
decltype(auto) Translate(F&& f) {
  try {
    return f();
  } catch (const std::ios_base::failure& e) {
    throw IoError(e.what());
  }
}

std::span<std::byte> Bytes(std::span<uint8_t> s) { return std::as_writable_bytes(s); }
std::span<const std::byte> Bytes(std::span<const uint8_t> s) { return std::as_bytes(s); }

}  // namespace

AutoFile::AutoFile(std::FILE* file, const Obfuscation& obfuscation)
    : obfuscation_(obfuscation), core_(std::make_unique<CoreAutoFile>(file, obfuscation.core())) {}

AutoFile::~AutoFile() {
  if (core_ && !core_->IsNull() && core_->fclose() != 0) {
    std::fprintf(stderr, "AutoFile: fclose failed: %s\n", std::strerror(errno));
  }
}

AutoFile::AutoFile(AutoFile&& other) noexcept
    : obfuscation_(other.obfuscation_),
      core_(std::exchange(other.core_, std::make_unique<CoreAutoFile>(nullptr, other.obfuscation_.core()))) {}

bool AutoFile::IsOpen() const { return !core_->IsNull(); }

std::optional<uint64_t> AutoFile::Position() const {
  const auto p = core_->position();
  if (!p) return std::nullopt;
  return static_cast<uint64_t>(*p);
}

void AutoFile::Seek(int64_t offset, int origin) { Translate([&] { core_->seek(offset, origin); }); }

void AutoFile::Read(std::span<uint8_t> dst) { Translate([&] { core_->read(Bytes(dst)); }); }

size_t AutoFile::ReadSome(std::span<uint8_t> dst) {
  return Translate([&] { return core_->detail_fread(Bytes(dst)); });
}

void AutoFile::Ignore(uint64_t n) { Translate([&] { core_->ignore(static_cast<size_t>(n)); }); }

void AutoFile::Write(std::span<const uint8_t> src) { Translate([&] { core_->write(Bytes(src)); }); }

void AutoFile::WriteConsume(std::span<uint8_t> buf) { Translate([&] { core_->write_buffer(Bytes(buf)); }); }

void AutoFile::Flush() {
  std::FILE* f = core_->file();
  if (f == nullptr) throw IoError("AutoFile::Flush: file handle is nullptr");
  if (std::fflush(f) != 0) throw IoError(std::string("AutoFile::Flush: fflush failed: ") + std::strerror(errno));
}

std::optional<uint64_t> AutoFile::Size() {
  return Translate([&] { return static_cast<uint64_t>(core_->size()); });
}

void AutoFile::Truncate(uint64_t size) {
  if (size > UINT32_MAX) throw std::invalid_argument("AutoFile::Truncate: Core's size is 32 bits");
  if (core_->IsNull()) throw IoError("AutoFile::Truncate: file handle is nullptr");
  if (!core_->Truncate(static_cast<unsigned>(size))) {
    throw IoError(std::string("AutoFile::Truncate failed: ") + std::strerror(errno));
  }
}

void AutoFile::Commit() {
  if (core_->IsNull()) throw IoError("AutoFile::Commit: file handle is nullptr");
  if (!core_->Commit()) throw IoError(std::string("AutoFile::Commit failed: ") + std::strerror(errno));
}

void AutoFile::Close() {
  if (core_->fclose() != 0) throw IoError(std::string("AutoFile::fclose failed: ") + std::strerror(errno));
}

std::FILE* AutoFile::Release() { return core_->release(); }

::AutoFile& AutoFile::core() { return *core_; }

std::FILE* AutoFile::handle() const { return core_->file(); }

BufferedWriter::BufferedWriter(AutoFile& file, size_t size)
    : file_(file), size_(size), core_(std::make_unique<CoreWriter>(file.core(), size)) {}

BufferedWriter::~BufferedWriter() = default;  // Core's destructor flushes

void BufferedWriter::Write(std::span<const uint8_t> src) {
  try {
    Translate([&] { core_->writer.write(Bytes(src)); });
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
  Translate([&] { core_->writer.flush(); });
  used_ = 0;
}

std::optional<uint64_t> BufferedWriter::Position() const {
  const auto p = file_.Position();
  if (!p) return std::nullopt;
  return *p + used_;
}

::BufferedWriter<::AutoFile>& BufferedWriter::core() { return core_->writer; }

BufferedFile::BufferedFile(AutoFile& file, uint64_t size, uint64_t rewind)
    : core_(Translate([&] { return std::make_unique<::BufferedFile>(file.core(), size, rewind); })) {}

BufferedFile::~BufferedFile() = default;

bool BufferedFile::Eof() const { return core_->eof(); }

void BufferedFile::Read(std::span<uint8_t> dst) { Translate([&] { core_->read(Bytes(dst)); }); }

void BufferedFile::SkipTo(uint64_t pos) {
  if (pos < core_->GetPos()) throw std::logic_error("BufferedFile::SkipTo: behind the read position (Core asserts)");
  Translate([&] { core_->SkipTo(pos); });
}

uint64_t BufferedFile::GetPos() const { return core_->GetPos(); }

bool BufferedFile::SetPos(uint64_t pos) { return core_->SetPos(pos); }

bool BufferedFile::SetLimit(uint64_t pos) { return core_->SetLimit(pos); }

void BufferedFile::FindByte(uint8_t byte) { Translate([&] { core_->FindByte(std::byte{byte}); }); }

BufferedReader::BufferedReader(AutoFile&& file, size_t size)
    : file_(std::move(file)), position_(file_.Position()), core_(std::make_unique<CoreReader>(file_.core(), size)) {}

BufferedReader::~BufferedReader() = default;

void BufferedReader::Read(std::span<uint8_t> dst) {
  try {
    Translate([&] { core_->reader.read(Bytes(dst)); });
  } catch (const IoError&) {
    position_ = file_.Position();
    throw;
  }
  if (position_) *position_ += dst.size();
}

}  // namespace core_adapter
