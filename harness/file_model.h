// FileModel: the reference for the file I/O subject (docs/semantics.md §3): the file as the bytes on disk, in memory,
// with bytewise XOR (obfuscation_ref.h) and no buffering. It sees only logical operations: write these
// bytes at this offset, read n bytes at this offset.
//
// Modelled: the raw (obfuscated) bytes at two windows of absolute offsets, [0, 256 KiB) and 256 KiB around
// 2^32, so a file can be sparse with data above 4 GiB; holes (never written) are raw zeros, so they read
// back as the key; the file size (end of the last byte written); short reads at end of file.
// Not modelled: bytes outside the windows (testers keep every access inside one window).
// The window storage is static and reused: one model exists at a time, and it zeroes only what the
// previous one touched, so a model costs no allocation and no 512 KiB clear per fuzz input.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace harness {

class FileModel {
 public:
  static constexpr int kWindows = 2;
  static constexpr uint64_t kWindowSize = uint64_t{1} << 18;
  static constexpr std::array<uint64_t, kWindows> kWindowBase{0, (uint64_t{1} << 32) - kWindowSize / 2};

  // A half-open range of absolute offsets; empty when lo >= hi.
  struct Range {
    uint64_t lo = UINT64_MAX;
    uint64_t hi = 0;
    void Add(uint64_t a, uint64_t b);
  };

  explicit FileModel(const std::array<uint8_t, 8>& key);
  ~FileModel();
  FileModel(const FileModel&) = delete;
  FileModel& operator=(const FileModel&) = delete;

  // The window holding all of [offset, offset + n), or -1.
  static int WindowOf(uint64_t offset, uint64_t n);

  const std::array<uint8_t, 8>& key() const { return key_; }
  uint64_t size() const { return size_; }

  // Stores `plain` obfuscated at `offset`; the range must lie in one window.
  void Write(uint64_t offset, std::span<const uint8_t> plain);
  // The file cut to (or extended with a hole to) `size` bytes.
  void Truncate(uint64_t size);
  // How many of n bytes at `offset` exist (0 at or past the end of the file).
  uint64_t Available(uint64_t offset, uint64_t n) const { return offset < size_ ? std::min(n, size_ - offset) : 0; }
  // Plaintext of the first Available(offset, out.size()) bytes into `out`; returns that count. Those bytes
  // must lie in one window.
  size_t Read(uint64_t offset, std::span<uint8_t> out) const;

  // The raw bytes of a range inside window w.
  std::span<const uint8_t> Raw(int w, uint64_t lo, uint64_t hi) const;
  // Written since construction, and since the last ClearDirty(), per window.
  const Range& touched(int w) const { return touched_[w]; }
  const Range& dirty(int w) const { return dirty_[w]; }
  void ClearDirty() { dirty_ = {}; }

 private:
  std::array<uint8_t, 8> key_;
  uint64_t size_ = 0;
  std::array<Range, kWindows> touched_{};
  std::array<Range, kWindows> dirty_{};
};

}  // namespace harness
