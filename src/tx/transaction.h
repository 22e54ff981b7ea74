// Transactions and blocks in Bitcoin's wire format (BIP144 extended format included): parse and serialize.
// Semantics: docs/semantics.md §4.
//
// Transaction: int32 version; when witness data is present, marker 0x00 and flag 0x01; vin (CompactSize
// count; each input: 32-byte hash, uint32 index, CompactSize-length scriptSig, uint32 sequence); vout (int64
// amount, CompactSize-length script); when flagged, one witness stack per input (CompactSize item count,
// each item CompactSize-length bytes); uint32 locktime. All integers little-endian.
// Block: 80-byte header (int32 version, previous block hash, merkle root, uint32 time, bits, nonce), then a
// CompactSize count of transactions.
//
// Errors: parsing fails, with a message naming the problem and its byte offset, for truncated input, a
// length or count larger than the bytes that remain (checked before anything is allocated), a non-canonical
// or oversized CompactSize, an unknown flag, a superfluous witness record, or bytes left after the whole
// object. Every byte string that parses serializes back to the identical bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "coins/coin.h"
#include "coins/outpoint.h"
#include "serialize.h"

namespace embedded {

using WitnessStack = std::vector<std::vector<uint8_t>>;

// The coinbase input's prevout index: a null prevout is the zero hash with this index, never the zero hash
// alone (docs/semantics.md §4).
constexpr uint32_t kNullIndex = 0xffffffff;
// The extended (BIP144) format: after the version, a marker that a reader without witness support takes
// for an empty vin, then a flag whose bit 0 says that witnesses follow the outputs.
constexpr uint8_t kWitnessMarker = 0x00;
constexpr uint8_t kWitnessFlag = 0x01;

inline bool IsZero(const Hash256& h) {
  for (const uint8_t b : h.bytes) {
    if (b != 0) return false;
  }
  return true;
}
inline bool IsNullPrevout(const OutPoint& p) { return p.n == kNullIndex && IsZero(p.txid); }

struct TxIn {
  OutPoint prevout;
  Script script_sig;
  uint32_t sequence = 0xffffffff;
  WitnessStack witness;  // serialized after all outputs, and only in the extended format

  friend bool operator==(const TxIn&, const TxIn&) = default;
};

struct TxOut {
  int64_t value = 0;
  Script script_pubkey;

  friend bool operator==(const TxOut&, const TxOut&) = default;
};

struct Transaction {
  int32_t version = 2;
  std::vector<TxIn> vin;
  std::vector<TxOut> vout;
  uint32_t locktime = 0;

  // Exactly one input, and its prevout is null.
  bool IsCoinBase() const { return vin.size() == 1 && IsNullPrevout(vin[0].prevout); }
  // Some input has a non-empty witness stack: only then is the extended format written.
  bool HasWitness() const;

  friend bool operator==(const Transaction&, const Transaction&) = default;
};

struct BlockHeader {
  int32_t version = 0;
  Hash256 prev_block;
  Hash256 merkle_root;
  uint32_t time = 0;
  uint32_t bits = 0;
  uint32_t nonce = 0;

  friend bool operator==(const BlockHeader&, const BlockHeader&) = default;
};

struct Block {
  BlockHeader header;
  std::vector<Transaction> vtx;

  friend bool operator==(const Block&, const Block&) = default;
};

// Appends the serialization; `with_witness` false drops marker, flag and witnesses (Core's TX_NO_WITNESS).
void SerializeTransaction(std::vector<uint8_t>& out, const Transaction& tx, bool with_witness = true);
void SerializeBlock(std::vector<uint8_t>& out, const Block& block, bool with_witness = true);
// The number of bytes the serializers above append, computed without serializing.
size_t SerializedSize(const Transaction& tx, bool with_witness);
size_t SerializedSize(const Block& block, bool with_witness);

// The transaction's id: double SHA-256 (libcrypto) of its serialization without witnesses, in the byte
// order the hash produces, which is how an outpoint stores it.
Hash256 TxidOf(const Transaction& tx);

// A transaction with its txid computed once, as Bitcoin Core's CTransaction holds its hashes: what code
// that needs a transaction's id many times takes.
struct HashedTransaction {
  explicit HashedTransaction(Transaction t) : tx(std::move(t)), txid(TxidOf(tx)) {}
  const Transaction tx;
  const Hash256 txid;
};

// Reads one transaction from `in` (more bytes may follow); the result means nothing unless in.ok() after.
Transaction ReadTransaction(SpanReader& in);
// Parse a whole byte string (bytes after the object are an error). False on malformed input, with the
// message in *error when `error` is given; the output object is then unspecified.
bool ParseTransaction(std::span<const uint8_t> bytes, Transaction& tx, std::string* error = nullptr);
bool ParseBlock(std::span<const uint8_t> bytes, Block& block, std::string* error = nullptr);

}  // namespace embedded
