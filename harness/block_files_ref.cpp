#include "block_files_ref.h"

#include <algorithm>

#include "check.h"
#include "hash_ref.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // reference code: no coverage feedback for the fuzzer

Hash256 UndoChecksumRef(const Hash256& prev_block_hash, std::span<const uint8_t> payload) {
  std::vector<uint8_t> message(prev_block_hash.bytes.begin(), prev_block_hash.bytes.end());
  message.insert(message.end(), payload.begin(), payload.end());
  return DoubleSha256Ref(message);
}

void EncodeRecordRef(std::vector<uint8_t>& out, bool undo, const seam::MessageStart& magic,
                     const Hash256& prev_block_hash, std::span<const uint8_t> payload) {
  out.insert(out.end(), magic.begin(), magic.end());
  const uint64_t size = payload.size();
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(size >> (8 * i)));
  out.insert(out.end(), payload.begin(), payload.end());
  if (undo) {
    const Hash256 checksum = UndoChecksumRef(prev_block_hash, payload);
    out.insert(out.end(), checksum.bytes.begin(), checksum.bytes.end());
  }
}

RecordRef ParseRecordRef(std::span<const uint8_t> file, uint64_t at, bool undo, const seam::MessageStart& magic,
                         const Hash256& prev_block_hash, uint32_t max_size) {
  RecordRef r;
  const uint64_t left = at < file.size() ? file.size() - at : 0;
  r.error = seam::FramingError::Kind::kTruncated;
  if (left < 8) return r;
  const uint8_t* p = file.data() + at;
  r.error = seam::FramingError::Kind::kBadMagic;
  if (!std::equal(magic.begin(), magic.end(), p)) return r;
  const uint32_t size = p[4] | (p[5] << 8) | (p[6] << 16) | (uint32_t{p[7]} << 24);
  r.error = seam::FramingError::Kind::kTooLarge;
  if (size > max_size) return r;
  const uint64_t trailer = undo ? 32 : 0;
  r.error = seam::FramingError::Kind::kTruncated;
  if (left < 8 + uint64_t{size} + trailer) return r;
  r.payload_at = at + 8;
  r.size = size;
  r.end = r.payload_at + size + trailer;
  if (undo) {
    const Hash256 want = UndoChecksumRef(prev_block_hash, file.subspan(r.payload_at, size));
    r.error = seam::FramingError::Kind::kBadChecksum;
    if (!std::equal(want.bytes.begin(), want.bytes.end(), file.data() + r.payload_at + size)) return r;
  }
  r.ok = true;
  return r;
}

uint32_t DeclaredSizeRef(std::span<const uint8_t> file, uint64_t at) {
  if (at >= file.size() || file.size() - at < 8) return 0;
  const uint8_t* p = file.data() + at;
  return p[4] | (p[5] << 8) | (p[6] << 16) | (uint32_t{p[7]} << 24);
}

RecordRef ParsePartRef(std::span<const uint8_t> file, uint64_t at, const seam::MessageStart& magic, uint32_t max_size,
                       uint64_t offset, uint64_t size) {
  RecordRef r;
  const uint64_t left = at < file.size() ? file.size() - at : 0;
  r.error = seam::FramingError::Kind::kTruncated;
  if (left < 8) return r;
  r.error = seam::FramingError::Kind::kBadMagic;
  if (!std::equal(magic.begin(), magic.end(), file.data() + at)) return r;
  const uint32_t declared = DeclaredSizeRef(file, at);
  r.error = seam::FramingError::Kind::kTooLarge;
  if (declared > max_size) return r;
  // In 128-bit arithmetic, where offset + size cannot wrap.
  const unsigned __int128 part_end = static_cast<unsigned __int128>(offset) + size;
  r.error = seam::FramingError::Kind::kBadRange;
  if (size == 0 || part_end > declared) return r;
  r.error = seam::FramingError::Kind::kTruncated;
  if (8 + part_end > left) return r;
  r.payload_at = at + 8 + offset;
  r.size = static_cast<uint32_t>(size);
  r.end = r.payload_at + size;
  r.ok = true;
  return r;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
