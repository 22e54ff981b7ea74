// What is wrong with a block or undo record: the kinds of FramingError, shared by the embedded subject
// (src/io/block_files.h) and the Bitcoin Core adapter (core/block_files.h), whose error classes derive
// from their own IoError but must name the same kinds.
#pragma once

#include <cstdint>

namespace embedded {

enum class FramingErrorKind : uint8_t {
  kTruncated = 0,    // the file ends inside the header, payload or checksum (Core: the read failed; for
                     // undo records also: the payload is not a CBlockUndo)
  kBadMagic = 1,     // the first 4 bytes are not the expected network magic
  kTooLarge = 2,     // the size field exceeds the limit
  kBadChecksum = 3,  // the undo checksum does not match
  kBadRange = 4,     // a requested part of a block record is empty or does not lie inside its payload
                     // (Core: ReadRawError::BadPartRange)
};

constexpr const char* ToString(FramingErrorKind kind) {
  switch (kind) {
    case FramingErrorKind::kTruncated: return "truncated";
    case FramingErrorKind::kBadMagic: return "bad magic";
    case FramingErrorKind::kTooLarge: return "too large";
    case FramingErrorKind::kBadChecksum: return "bad checksum";
    case FramingErrorKind::kBadRange: return "bad range";
  }
  return "unknown";
}

}  // namespace embedded
