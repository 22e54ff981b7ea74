// Payloads of block and undo records that a node's writers take as objects: a serialized block or a
// serialized CBlockUndo of an exact size, drawn from a seed, built with the reference serializer so that
// Bitcoin Core's writers, which deserialize them, serialize them back to the same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace harness {

// `out` filled with bytes drawn from `seed`.
void RandomBytes(std::span<uint8_t> out, uint32_t seed);

// A serialized block of exactly `size` bytes: no transactions (81 bytes), or from 132 bytes one
// transaction with one input whose scriptSig is grown to the size; header, prevout, sequence, version,
// lock time and script bytes from `seed`. Nothing for the few sizes no such block has.
std::optional<std::vector<uint8_t>> BlockPayload(uint32_t size, uint32_t seed);

// A serialized CBlockUndo of exactly `size` (>= 1) bytes. Sizes 1..4: n transactions with no spent coins.
// From 5: one transaction spending one coin at height 0 (code VARINT 0, so no version byte), amount VARINT
// 0 or 128 (one or two bytes, whichever makes the size come out), and a raw script (VARINT(length + 6),
// then the bytes) whose first byte 0x00 keeps it out of Core's compressed script forms, so Core serializes
// the object back to exactly these bytes.
std::vector<uint8_t> UndoPayload(uint32_t size, uint32_t seed);

}  // namespace harness
