// Reference block/undo framing (docs/semantics.md §3): records encoded and parsed the plain way, over a file held as a
// byte array of plaintext. The checksum is DoubleSha256Ref (hash_ref.h) over one concatenated buffer,
// independently of the subject's incremental EVP digest.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "seam/block_files.h"

namespace harness {

Hash256 UndoChecksumRef(const Hash256& prev_block_hash, std::span<const uint8_t> payload);

// Appends one record: magic, size (least significant byte first), payload, and for undo the checksum.
void EncodeRecordRef(std::vector<uint8_t>& out, bool undo, const seam::MessageStart& magic,
                     const Hash256& prev_block_hash, std::span<const uint8_t> payload);

// What reading the record at `at` of `file` must give.
struct RecordRef {
  bool ok = false;
  seam::FramingError::Kind error{};  // when !ok
  uint64_t payload_at = 0;           // when ok: the payload is file[payload_at, payload_at + size)
  uint32_t size = 0;
  uint64_t end = 0;  // when ok: the offset just past the record (or part)
};
RecordRef ParseRecordRef(std::span<const uint8_t> file, uint64_t at, bool undo, const seam::MessageStart& magic,
                         const Hash256& prev_block_hash, uint32_t max_size);

// The payload size the header at `at` declares, 0 if the file ends inside it (part choices are resolved
// against it whether or not the header is valid).
uint32_t DeclaredSizeRef(std::span<const uint8_t> file, uint64_t at);

// What reading bytes [offset, offset + size) of the payload of the block record at `at` must give: the
// header's verdict as for a whole record, except that only the part's bytes must be in the file; then an
// empty part, or one that does not end inside the declared payload, is kBadRange. When ok, the part is
// file[payload_at, payload_at + size) and `end` is the position just past it.
RecordRef ParsePartRef(std::span<const uint8_t> file, uint64_t at, const seam::MessageStart& magic, uint32_t max_size,
                       uint64_t offset, uint64_t size);

}  // namespace harness
