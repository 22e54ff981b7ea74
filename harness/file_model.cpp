#include "file_model.h"

#include <algorithm>
#include <cstring>

#include "check.h"
#include "obfuscation_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // reference code: no coverage feedback for the fuzzer
namespace {

struct Storage {
  uint8_t bytes[FileModel::kWindows][FileModel::kWindowSize];
  bool in_use = false;
};
Storage& TheStorage() {
  static Storage storage;  // zero-initialized, and zeroed again where a model wrote
  return storage;
}

}  // namespace

void FileModel::Range::Add(uint64_t a, uint64_t b) {
  lo = std::min(lo, a);
  hi = std::max(hi, b);
}

FileModel::FileModel(const std::array<uint8_t, 8>& key) : key_(key) {
  HARNESS_CHECK(!TheStorage().in_use, "only one FileModel may exist at a time");
  TheStorage().in_use = true;
}

FileModel::~FileModel() {
  for (int w = 0; w < kWindows; ++w) {
    const Range& r = touched_[w];
    if (r.lo < r.hi) std::memset(TheStorage().bytes[w] + (r.lo - kWindowBase[w]), 0, r.hi - r.lo);
  }
  TheStorage().in_use = false;
}

int FileModel::WindowOf(uint64_t offset, uint64_t n) {
  for (int w = 0; w < kWindows; ++w) {
    if (offset >= kWindowBase[w] && offset - kWindowBase[w] <= kWindowSize &&
        n <= kWindowSize - (offset - kWindowBase[w])) {
      return w;
    }
  }
  return -1;
}

void FileModel::Write(uint64_t offset, std::span<const uint8_t> plain) {
  const int w = WindowOf(offset, plain.size());
  HARNESS_CHECK(w >= 0, "model write outside the windows at ", offset);
  if (plain.empty()) return;  // an empty write does not extend the file
  uint8_t* raw = TheStorage().bytes[w] + (offset - kWindowBase[w]);
  std::memcpy(raw, plain.data(), plain.size());
  XorRef(std::span(raw, plain.size()), key_, offset);
  touched_[w].Add(offset, offset + plain.size());
  dirty_[w].Add(offset, offset + plain.size());
  size_ = std::max(size_, offset + plain.size());
}

void FileModel::Truncate(uint64_t size) {
  for (int w = 0; w < kWindows; ++w) {
    const Range& t = touched_[w];
    if (t.lo >= t.hi || t.hi <= size) continue;
    const uint64_t lo = std::max(t.lo, size);
    std::memset(TheStorage().bytes[w] + (lo - kWindowBase[w]), 0, t.hi - lo);
    dirty_[w].Add(lo, t.hi);
  }
  size_ = size;
}

size_t FileModel::Read(uint64_t offset, std::span<uint8_t> out) const {
  const size_t n = static_cast<size_t>(Available(offset, out.size()));
  if (n == 0) return 0;
  const int w = WindowOf(offset, n);
  HARNESS_CHECK(w >= 0, "model read outside the windows at ", offset);
  std::memcpy(out.data(), TheStorage().bytes[w] + (offset - kWindowBase[w]), n);
  XorRef(out.first(n), key_, offset);
  return n;
}

std::span<const uint8_t> FileModel::Raw(int w, uint64_t lo, uint64_t hi) const {
  return {TheStorage().bytes[w] + (lo - kWindowBase[w]), static_cast<size_t>(hi - lo)};
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
