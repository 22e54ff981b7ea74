#include "buffered_file_tester.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "obfuscation_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // tester and model: the subject is compiled out of line
namespace {

constexpr uint8_t kSentinel = 0xa5;

}  // namespace

std::string BufferedFileStep::ToString() const {
  std::string out = std::string(harness::ToString(op)) + "(";
  switch (op) {
    case BufferedFileOp::kRead:
    case BufferedFileOp::kSkipTo:
    case BufferedFileOp::kSetLimit: out += "len=" + std::to_string(len); break;
    case BufferedFileOp::kSetPos: {
      static constexpr const char* kAnchors[] = {"read position", "furthest read", "0"};
      static constexpr const char* kSpans[] = {"", " - rewind", " - size"};
      out += std::string(kAnchors[anchor % 3]) + kSpans[anchor / 3 % 3] + " + " + std::to_string(delta);
      break;
    }
    case BufferedFileOp::kFindByte: out += "byte=" + std::to_string(byte); break;
    case BufferedFileOp::kEof: break;
  }
  return out + ")";
}

BufferedFileTester::BufferedFileTester(Config config) : config_(std::move(config)) {
  fd_ = memfd_create("buffered_file_sim", MFD_CLOEXEC);
  HARNESS_CHECK(fd_ >= 0, "memfd_create failed: ", std::strerror(errno));
  std::vector<uint8_t> raw = config_.content;
  XorRef(raw, config_.key, 0);
  HARNESS_CHECK(pwrite(fd_, raw.data(), raw.size(), 0) == static_cast<ssize_t>(raw.size()), "pwrite failed");
  const int fd = dup(fd_);
  HARNESS_CHECK(fd >= 0 && lseek(fd, static_cast<off_t>(config_.start), SEEK_SET) >= 0, "dup or lseek failed");
  std::FILE* f = fdopen(fd, "rb");
  HARNESS_CHECK(f != nullptr, "fdopen failed");
  file_.emplace(f, seam::Obfuscation(config_.key));
  reader_.emplace(*file_, config_.size, config_.rewind);
}

BufferedFileTester::~BufferedFileTester() {
  reader_.reset();
  file_.reset();
  if (fd_ >= 0) close(fd_);
}

std::span<const uint8_t> BufferedFileTester::Plain(uint64_t at, uint64_t n) const {
  return std::span(config_.content).subspan(config_.start + at, n);
}

void BufferedFileTester::CheckPos(const char* after) const {
  HARNESS_CHECK(reader_->GetPos() == pos_, "GetPos() after ", after, " is ", reader_->GetPos(), ", expected ", pos_);
}

void BufferedFileTester::Apply(BufferedFileStep step) {
  log_.Add(step);
  const char* name = harness::ToString(step.op);
  switch (step.op) {
    case BufferedFileOp::kRead:
    case BufferedFileOp::kSkipTo: {
      got_.assign(step.len, kSentinel);
      bool threw = false;
      try {
        if (step.op == BufferedFileOp::kRead) {
          reader_->Read(got_);
        } else {
          reader_->SkipTo(pos_ + step.len);
        }
      } catch (const seam::IoError&) {
        threw = true;
      }
      const bool past_limit = step.len > 0 && (pos_ > limit_ || step.len > limit_ - pos_);
      const uint64_t available = std::min<uint64_t>(step.len, length() - std::min(pos_, length()));
      HARNESS_CHECK_EQ(threw, past_limit || available < step.len, name,
                       " throws exactly at the limit or the end of the file");
      const uint64_t consumed = past_limit ? 0 : available;
      if (step.op == BufferedFileOp::kRead) {
        const auto want = Plain(pos_, consumed);
        HARNESS_CHECK(std::equal(want.begin(), want.end(), got_.begin()), "Read at ", pos_,
                      " returned other bytes than the file's");
        HARNESS_CHECK(std::all_of(got_.begin() + consumed, got_.end(), [](uint8_t b) { return b == kSentinel; }),
                      "Read wrote past the bytes it consumed");
      }
      pos_ += consumed;
      furthest_ = std::max(furthest_, pos_);
      break;
    }
    case BufferedFileOp::kSetPos: {
      const int64_t anchor = static_cast<int64_t>(step.anchor % 3 == 0 ? pos_ : step.anchor % 3 == 1 ? furthest_ : 0);
      const int64_t span = static_cast<int64_t>(step.anchor / 3 % 3 == 0   ? 0
                                                : step.anchor / 3 % 3 == 1 ? config_.rewind
                                                                           : config_.size);
      const uint64_t target = static_cast<uint64_t>(std::max<int64_t>(0, anchor - span + step.delta));
      const bool ok = reader_->SetPos(target);
      const uint64_t rewindable = furthest_ - std::min(furthest_, config_.rewind);
      if (target >= rewindable && target <= furthest_) {
        HARNESS_CHECK(ok, "SetPos(", target, ") failed, though it is within ", config_.rewind,
                      " bytes of the furthest read ", furthest_);
      }
      if (target > length() || target + config_.size < furthest_) {
        HARNESS_CHECK(!ok, "SetPos(", target, ") succeeded outside what the buffer can hold (file length ", length(),
                      ", furthest read ", furthest_, ", buffer ", config_.size, ")");
      }
      const uint64_t now = reader_->GetPos();
      if (ok) {
        HARNESS_CHECK(now == target, "SetPos(", target, ") succeeded but GetPos() is ", now);
      } else {
        HARNESS_CHECK(now <= length() && now + config_.size >= furthest_, "a failed SetPos(", target,
                      ") left GetPos() at ", now, ", outside what the buffer can hold");
      }
      pos_ = now;
      // Moving forward inside the buffer consumes nothing the reader has not read from the file already.
      furthest_ = std::max(furthest_, pos_);
      break;
    }
    case BufferedFileOp::kSetLimit: {
      const uint64_t limit = step.len == 0 ? seam::BufferedFile::kNoLimit : pos_ + step.len - 1;
      HARNESS_CHECK(reader_->SetLimit(limit), "SetLimit(", limit, ") at or past the read position ", pos_, " failed");
      limit_ = limit;
      const bool behind = pos_ > 0 && !reader_->SetLimit(pos_ - 1);
      HARNESS_CHECK(pos_ == 0 || behind, "SetLimit behind the read position succeeded");
      break;
    }
    case BufferedFileOp::kFindByte: {
      bool threw = false;
      try {
        reader_->FindByte(step.byte);
      } catch (const seam::IoError&) {
        threw = true;
      }
      const auto rest = Plain(std::min(pos_, length()), length() - std::min(pos_, length()));
      const auto at = std::find(rest.begin(), rest.end(), step.byte);
      HARNESS_CHECK_EQ(threw, at == rest.end(), "FindByte throws exactly when the byte does not occur before the end");
      pos_ = at == rest.end() ? length() : pos_ + static_cast<uint64_t>(at - rest.begin());
      furthest_ = std::max(furthest_, pos_);
      break;
    }
    case BufferedFileOp::kEof:
      HARNESS_CHECK(pos_ >= length() || !reader_->Eof(), "Eof() before the end of the file, at ", pos_);
      break;
  }
  CheckPos(name);
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
