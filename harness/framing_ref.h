// Reference block/undo framing (docs/semantics.md §3): records encoded and parsed the plain way, over a file held as a
// byte array of plaintext. The checksum hashes one concatenated buffer with OpenSSL's one-shot SHA256(),
// independently of the subject's incremental EVP digest.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "seam/block_files.h"

namespace harness {

Hash256 UndoChecksumRef(const Hash256& prev_block_hash, std::span<const uint8_t> payload);

// Appends one record: magic, size (least significant byte first), payload, and for undo the checksum.
void EncodeRecordRef(std::vector<uint8_t>& out, bool undo, const seam::MessageStart& magic, const Hash256& prev_block_hash,
                     std::span<const uint8_t> payload);

// What reading the record at `at` of `file` must give.
struct RecordRef {
  bool ok = false;
  seam::FramingError::Kind error{};   // when !ok
  uint64_t payload_at = 0;      // when ok: the payload is file[payload_at, payload_at + size)
  uint32_t size = 0;
  uint64_t end = 0;             // when ok: the offset just past the record
};
RecordRef ParseRecordRef(std::span<const uint8_t> file, uint64_t at, bool undo, const seam::MessageStart& magic,
                         const Hash256& prev_block_hash, uint32_t max_size);

}  // namespace harness
