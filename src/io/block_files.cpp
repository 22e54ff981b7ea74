#include "io/block_files.h"

#include <algorithm>

#include "hash256.h"
#include "hex.h"

namespace embedded {

namespace {

void WriteHeader(BufferedWriter& out, const MessageStart& magic, std::span<const uint8_t> payload) {
  if (payload.size() > kMaxRecordSize) {
    throw FramingError(FramingError::Kind::kTooLarge, "record payload of " + std::to_string(payload.size()) +
                                                          " bytes exceeds the limit of " +
                                                          std::to_string(kMaxRecordSize));
  }
  const uint32_t size = static_cast<uint32_t>(payload.size());
  uint8_t header[kRecordHeaderSize];
  std::copy(magic.begin(), magic.end(), header);
  for (int i = 0; i < 4; ++i) header[4 + i] = static_cast<uint8_t>(size >> (8 * i));
  out.Write(header);
}

// The header of the record at the file's position, read and checked (magic, then size <= max_size): the
// payload size and how many bytes of the file follow the header.
struct Header {
  uint32_t size;
  uint64_t after;  // bytes in the file past the header
  std::string where;
};

Header ReadHeader(AutoFile& in, const MessageStart& magic, uint32_t max_size) {
  const auto file_size = in.Size();
  if (!file_size) throw IoError("record read: the file's size (or position) is unknown");
  const uint64_t at = *in.Position();
  std::string where = "record at offset " + std::to_string(at) + ": ";
  const uint64_t remaining = *file_size > at ? *file_size - at : 0;
  if (remaining < kRecordHeaderSize) {
    throw FramingError(FramingError::Kind::kTruncated,
                       where + "the file ends after " + std::to_string(remaining) + " of 8 header bytes");
  }
  uint8_t header[kRecordHeaderSize];
  in.Read(header);
  if (!std::equal(magic.begin(), magic.end(), header)) {
    throw FramingError(FramingError::Kind::kBadMagic,
                       where + "magic " + HexStr(std::span(header, 4)) + ", expected " + HexStr(magic));
  }
  uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= uint32_t{header[4 + i]} << (8 * i);
  if (size > max_size) {
    throw FramingError(FramingError::Kind::kTooLarge,
                       where + "size " + std::to_string(size) + " exceeds the limit of " + std::to_string(max_size));
  }
  return {size, remaining - kRecordHeaderSize, std::move(where)};
}

// The header as ReadHeader checks it, plus that the file holds the payload and `trailer` bytes after it
// (the undo checksum). Returns the payload size.
uint32_t ReadWholeHeader(AutoFile& in, const MessageStart& magic, uint32_t max_size, size_t trailer) {
  const Header h = ReadHeader(in, magic, max_size);
  if (h.after < uint64_t{h.size} + trailer) {
    throw FramingError(FramingError::Kind::kTruncated, h.where + "size " + std::to_string(h.size) +
                                                           (trailer ? " plus checksum" : "") + ", but only " +
                                                           std::to_string(h.after) + " bytes follow the header");
  }
  return h.size;
}

}  // namespace

Hash256 UndoChecksum(const Hash256& prev_block_hash, std::span<const uint8_t> payload) {
  return DoubleSha256({prev_block_hash.bytes, payload});
}

void WriteBlockRecord(BufferedWriter& out, const MessageStart& magic, std::span<const uint8_t> payload) {
  WriteHeader(out, magic, payload);
  out.Write(payload);
}

void WriteUndoRecord(BufferedWriter& out, const MessageStart& magic, const Hash256& prev_block_hash,
                     std::span<const uint8_t> payload) {
  const Hash256 checksum = UndoChecksum(prev_block_hash, payload);
  WriteHeader(out, magic, payload);
  out.Write(payload);
  out.Write(checksum.bytes);
}

void ReadBlockRecord(AutoFile& in, const MessageStart& magic, std::vector<uint8_t>& payload, uint32_t max_size) {
  const uint32_t size = ReadWholeHeader(in, magic, max_size, 0);
  payload.resize(size);
  in.Read(payload);
}

void ReadBlockRecordPart(AutoFile& in, const MessageStart& magic, uint64_t offset, uint64_t size,
                         std::vector<uint8_t>& part, uint32_t max_size) {
  const Header h = ReadHeader(in, magic, max_size);
  // offset <= h.size first, so that h.size - offset cannot wrap and offset + size is never formed.
  if (size == 0 || offset > h.size || size > h.size - offset) {
    throw FramingError(FramingError::Kind::kBadRange, h.where + "part [" + std::to_string(offset) + ", +" +
                                                          std::to_string(size) + ") of a payload of " +
                                                          std::to_string(h.size) + " bytes");
  }
  // Both at most h.size now: the sum cannot overflow.
  if (h.after < offset + size) {
    throw FramingError(FramingError::Kind::kTruncated, h.where + "part [" + std::to_string(offset) + ", +" +
                                                           std::to_string(size) + "), but only " +
                                                           std::to_string(h.after) + " bytes follow the header");
  }
  in.Seek(static_cast<int64_t>(offset), SEEK_CUR);
  part.resize(size);
  in.Read(part);
}

void ReadUndoRecord(AutoFile& in, const MessageStart& magic, const Hash256& prev_block_hash,
                    std::vector<uint8_t>& payload, uint32_t max_size) {
  const uint64_t at = in.Position().value_or(0);
  const uint32_t size = ReadWholeHeader(in, magic, max_size, kChecksumSize);
  payload.resize(size);
  in.Read(payload);
  Hash256 stored;
  in.Read(stored.bytes);
  const Hash256 expected = UndoChecksum(prev_block_hash, payload);
  if (stored != expected) {
    throw FramingError(FramingError::Kind::kBadChecksum, "undo record at offset " + std::to_string(at) + ": checksum " +
                                                             HexStr(stored.bytes) + ", expected " +
                                                             HexStr(expected.bytes));
  }
}

}  // namespace embedded
