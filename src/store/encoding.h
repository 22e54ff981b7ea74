// The coins store's on-disk encoding: Bitcoin Core's VARINT, amount compression, script compression and
// the coin record. Semantics: docs/semantics.md §2 (key 'C' + txid + varint(index) → varint(height·2 +
// coinbase) + compressed amount + script). Where it is silent this follows Bitcoin Core's chainstate
// format, so the records are the ones a node writes and a node's records read back here.
//
// Decoding never trusts its input: every read is bounds-checked, and a malformed record throws
// StoreCorruption instead of reading past the end or allocating by an unchecked length.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "amount.h"  // kMaxMoney: no stored coin exceeds it, so a larger amount marks corruption
#include "coins/coin.h"
#include "coins/outpoint.h"

namespace embedded {

// A stored record that cannot be decoded: truncated, overlong, or with values no writer produces.
class StoreCorruption : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads bytes from a record front to back; every accessor throws StoreCorruption past the end.
class RecordReader {
 public:
  explicit RecordReader(std::span<const uint8_t> data) : data_(data) {}
  uint8_t Byte();
  std::span<const uint8_t> Bytes(size_t n);
  // Bitcoin Core's VARINT (MSB base-128 with the "+1" carry); throws past 2^64 - 1.
  uint64_t VarInt();
  size_t remaining() const { return data_.size() - pos_; }
  // Throws unless every byte was consumed.
  void ExpectEnd(const char* what) const;

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

// Bitcoin Core's VARINT: 7 bits per byte, most significant group first, the high bit set on all but the
// last byte, and 1 subtracted from each continued group so that every value has exactly one encoding.
void WriteVarInt(std::string& out, uint64_t n);

// Amount compression (Bitcoin Core): trailing decimal zeros become an exponent, so round amounts take one
// or two varint bytes. Decompress(Compress(n)) == n for every n.
uint64_t CompressAmount(uint64_t n);
uint64_t DecompressAmount(uint64_t x);

// Script compression (Bitcoin Core's ScriptCompression): P2PKH → 0x00 + 20-byte hash, P2SH → 0x01 + 20
// bytes, P2PK with a compressed key → 0x02/0x03 + 32-byte x coordinate, P2PK with an uncompressed key
// (0x04 ‖ x ‖ y) whose point is on the curve → 0x04 | (y mod 2) + x; any other script, an uncompressed
// key off the curve or a hybrid (0x06/0x07) key included → varint(size + 6) + the bytes. Decompressing
// ids 4/5 recovers y with libsecp256k1.
void CompressScript(std::string& out, const Script& script);
// The inverse of CompressScript. As Bitcoin Core, which ignores DecompressScript's failure: ids 4/5 with
// an x not on the curve (which no writer produces) consume their 32 bytes and give an empty script, not
// an error; a script longer than kMaxScriptSize gives a single OP_RETURN.
Script DecompressScript(RecordReader& in);

// Keys. 'C' + txid + varint(index) for a coin, 'B' for the best block, 'H' for the head blocks of a flush
// in progress; the obfuscation key lives under a key no coin or marker can take.
inline constexpr char kCoinPrefix = 'C';
inline constexpr char kBestBlockKey[] = "B";
inline constexpr char kHeadBlocksKey[] = "H";
// Bitcoin Core's "\0obfuscate_key" serialized as a string: a length byte (14) and the 14 bytes.
inline const std::string kObfuscationKeyKey{"\x0e\x00obfuscate_key", 15};

std::string CoinKey(const OutPoint& outpoint);
// The outpoint of a coin key; throws StoreCorruption if `key` is not one.
OutPoint DecodeCoinKey(std::span<const uint8_t> key);

// A coin record: varint(height·2 + coinbase), varint(compressed amount), compressed script.
// Requires an unspent coin with 0 <= amount <= kMaxMoney.
std::string EncodeCoin(const Coin& coin);
// Throws StoreCorruption unless `value` is exactly one well-formed record of an amount <= kMaxMoney (an
// uncompressed-key script off the curve is not an error: see DecompressScript).
Coin DecodeCoin(std::span<const uint8_t> value);

// Head blocks [new, old] as Core serializes a vector of hashes: CompactSize count (2), then the hashes.
std::string EncodeHeadBlocks(const Hash256& new_tip, const Hash256& old_tip);
// Throws StoreCorruption unless `value` is exactly two hashes.
std::pair<Hash256, Hash256> DecodeHeadBlocks(std::span<const uint8_t> value);

}  // namespace embedded
