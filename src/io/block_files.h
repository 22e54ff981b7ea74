// Block and undo records as Bitcoin Core lays them out in blk*.dat and rev*.dat (docs/semantics.md §3):
//   block record: [4-byte magic][4-byte little-endian payload size][payload]
//   undo record:  [4-byte magic][4-byte little-endian payload size][payload][32-byte checksum]
// where checksum = SHA256(SHA256(previous block hash || payload)), binding the undo data to its block.
// Records are written through a BufferedWriter and read from an AutoFile, so they are obfuscated by file
// offset like everything else in the file.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "coins/outpoint.h"  // Hash256: the project's one 256-bit hash type
#include "io/buffered.h"
#include "io/file.h"
#include "io/framing_error_kind.h"

namespace embedded {

using MessageStart = std::array<uint8_t, 4>;

inline constexpr size_t kRecordHeaderSize = 8;
inline constexpr size_t kChecksumSize = 32;
// The largest payload a read accepts: Bitcoin Core's MAX_SIZE (32 MiB), which its raw block reader checks
// before allocating (no serialized object may be larger). It caps allocation, not validity: consensus
// limits a block to 4 MB and is checked elsewhere.
inline constexpr uint32_t kMaxRecordSize = 0x02000000;

// A record that cannot be read: the reason, and a message that says where and what was found.
class FramingError : public IoError {
 public:
  using Kind = FramingErrorKind;
  FramingError(Kind kind, const std::string& message) : IoError(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// SHA256(SHA256(prev_block_hash || payload)), with OpenSSL's libcrypto.
Hash256 UndoChecksum(const Hash256& prev_block_hash, std::span<const uint8_t> payload);

// Append one record to `out`. Throw FramingError(kTooLarge) for a payload over kMaxRecordSize (nothing is
// written then), IoError from the file.
void WriteBlockRecord(BufferedWriter& out, const MessageStart& magic, std::span<const uint8_t> payload);
void WriteUndoRecord(BufferedWriter& out, const MessageStart& magic, const Hash256& prev_block_hash,
                     std::span<const uint8_t> payload);

// Read the record at the file's position into `payload` (replacing its contents); afterwards the position
// is just past the record. The file's size must be known (a regular file or memory stream). The header is
// checked before anything is allocated: magic, then size <= max_size, then that the file still holds
// the payload (and checksum); `payload` is resized only after that, so a corrupt size never drives an
// allocation. Throws FramingError for a truncated or corrupt record, IoError for a failed read; the
// position and `payload` are then unspecified.
void ReadBlockRecord(AutoFile& in, const MessageStart& magic, std::vector<uint8_t>& payload,
                     uint32_t max_size = kMaxRecordSize);
void ReadUndoRecord(AutoFile& in, const MessageStart& magic, const Hash256& prev_block_hash,
                    std::vector<uint8_t>& payload, uint32_t max_size = kMaxRecordSize);

// Read bytes [offset, offset + size) of the payload of the block record at the file's position into `part`
// (replacing its contents); afterwards the position is just past those bytes. The file's size must be
// known. Checked in this order, each before anything is allocated: the header is in the file (else
// kTruncated), its magic (kBadMagic), size field <= max_size (kTooLarge); then the range: size > 0 and
// offset + size <= the size field, computed without overflow for any 64-bit offset and size (else
// kBadRange); then that the file holds the part's bytes (else kTruncated). Bytes of the record past the
// part are never read and need not be in the file: a part may be read from a record whose tail is cut
// off. Throws FramingError as listed, IoError for a failed read; the position and `part` are then
// unspecified, except that a part rejected by these checks has not been allocated.
void ReadBlockRecordPart(AutoFile& in, const MessageStart& magic, uint64_t offset, uint64_t size,
                         std::vector<uint8_t>& part, uint32_t max_size = kMaxRecordSize);

}  // namespace embedded
