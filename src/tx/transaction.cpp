#include "tx/transaction.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hash256.h"

namespace embedded {

namespace {

// The fewest bytes one element can occupy. A count claiming more elements than the remaining bytes could
// hold is an error before anything is allocated (Core instead allocates in bounded chunks and fails at the
// end of the data; the verdict is the same, only the message differs).
constexpr size_t kMinTxInBytes = 32 + 4 + 1 + 4;        // hash, index, empty scriptSig, sequence
constexpr size_t kMinTxOutBytes = 8 + 1;                // amount, empty script
constexpr size_t kMinWitnessItemBytes = 1;              // an empty item
constexpr size_t kMinTransactionBytes = 4 + 1 + 1 + 4;  // version, empty vin, zero flag, locktime
constexpr size_t kHeaderBytes = 4 + 32 + 32 + 4 + 4 + 4;

size_t ReadCount(SpanReader& in, size_t min_element_bytes, const char* error) {
  const uint64_t n = ReadCompactSize(in);
  if (n > in.remaining() / min_element_bytes) in.Fail(error, n);
  return in.ok() ? static_cast<size_t>(n) : 0;
}

template <typename Bytes>
void ReadBytes(SpanReader& in, Bytes& out) {
  const std::span<const uint8_t> bytes = in.Take(ReadCompactSize(in));
  out.assign(bytes.begin(), bytes.end());
}

Hash256 ReadHash(SpanReader& in) {
  Hash256 h;
  const std::span<const uint8_t> bytes = in.Take(h.bytes.size());
  std::copy(bytes.begin(), bytes.end(), h.bytes.begin());
  return h;
}

void ReadInputs(SpanReader& in, std::vector<TxIn>& vin) {
  vin.resize(ReadCount(in, kMinTxInBytes, "input count larger than the remaining bytes can hold"));
  for (TxIn& txin : vin) {
    txin.prevout.txid = ReadHash(in);
    txin.prevout.n = in.ReadLE<uint32_t>();
    ReadBytes(in, txin.script_sig);
    txin.sequence = in.ReadLE<uint32_t>();
  }
}

void ReadOutputs(SpanReader& in, std::vector<TxOut>& vout) {
  vout.resize(ReadCount(in, kMinTxOutBytes, "output count larger than the remaining bytes can hold"));
  for (TxOut& txout : vout) {
    txout.value = static_cast<int64_t>(in.ReadLE<uint64_t>());
    ReadBytes(in, txout.script_pubkey);
  }
}

void ReadWitness(SpanReader& in, WitnessStack& stack) {
  stack.resize(ReadCount(in, kMinWitnessItemBytes, "witness item count larger than the remaining bytes can hold"));
  for (std::vector<uint8_t>& item : stack) ReadBytes(in, item);
}

void WriteHash(std::vector<uint8_t>& out, const Hash256& h) { out.insert(out.end(), h.bytes.begin(), h.bytes.end()); }

void WriteBytes(std::vector<uint8_t>& out, const std::vector<uint8_t>& bytes) {
  WriteCompactSize(out, bytes.size());
  out.insert(out.end(), bytes.begin(), bytes.end());
}

size_t BytesSize(size_t n) { return CompactSizeLength(n) + n; }

// The whole span must have been read: trailing bytes are an error. Reports the reader's error in `error`.
bool Finish(SpanReader& in, std::string* error) {
  if (in.remaining() != 0) in.Fail("bytes after the end of the object", in.remaining());
  if (!in.ok() && error != nullptr) *error = in.Error();
  return in.ok();
}

}  // namespace

bool Transaction::HasWitness() const {
  return std::any_of(vin.begin(), vin.end(), [](const TxIn& txin) { return !txin.witness.empty(); });
}

size_t SerializedSize(const Transaction& tx, bool with_witness) {
  const bool witness = with_witness && tx.HasWitness();
  size_t size = 4 + (witness ? 2 : 0) + CompactSizeLength(tx.vin.size()) + CompactSizeLength(tx.vout.size()) + 4;
  for (const TxIn& txin : tx.vin) {
    size += 32 + 4 + BytesSize(txin.script_sig.size()) + 4;
    if (!witness) continue;
    size += CompactSizeLength(txin.witness.size());
    for (const std::vector<uint8_t>& item : txin.witness) size += BytesSize(item.size());
  }
  for (const TxOut& txout : tx.vout) size += 8 + BytesSize(txout.script_pubkey.size());
  return size;
}

void SerializeTransaction(std::vector<uint8_t>& out, const Transaction& tx, bool with_witness) {
  const bool witness = with_witness && tx.HasWitness();
  out.reserve(out.size() + SerializedSize(tx, with_witness));
  WriteLE(out, static_cast<uint32_t>(tx.version));
  if (witness) {
    out.push_back(kWitnessMarker);
    out.push_back(kWitnessFlag);
  }
  WriteCompactSize(out, tx.vin.size());
  for (const TxIn& txin : tx.vin) {
    WriteHash(out, txin.prevout.txid);
    WriteLE(out, txin.prevout.n);
    SerializePrevector(out, txin.script_sig);
    WriteLE(out, txin.sequence);
  }
  WriteCompactSize(out, tx.vout.size());
  for (const TxOut& txout : tx.vout) {
    WriteLE(out, static_cast<uint64_t>(txout.value));
    SerializePrevector(out, txout.script_pubkey);
  }
  if (witness) {
    for (const TxIn& txin : tx.vin) {
      WriteCompactSize(out, txin.witness.size());
      for (const std::vector<uint8_t>& item : txin.witness) WriteBytes(out, item);
    }
  }
  WriteLE(out, tx.locktime);
}

// Core's UnserializeTransaction, rule for rule (with errors recorded in `in` instead of thrown).
Transaction ReadTransaction(SpanReader& in) {
  Transaction tx;
  tx.version = static_cast<int32_t>(in.ReadLE<uint32_t>());
  uint8_t flags = 0;
  ReadInputs(in, tx.vin);
  if (tx.vin.empty()) {
    // An empty vin is the extended format's marker (or a transaction without inputs); the flag follows.
    // With a zero flag there are no outputs either: that is how Core reads it, and how such a transaction
    // serializes.
    flags = in.ReadLE<uint8_t>();
    if (flags != 0) {
      ReadInputs(in, tx.vin);
      ReadOutputs(in, tx.vout);
    }
  } else {
    ReadOutputs(in, tx.vout);
  }
  if (flags & kWitnessFlag) {
    flags ^= kWitnessFlag;
    for (TxIn& txin : tx.vin) ReadWitness(in, txin.witness);
    // A flag with every stack empty would not serialize back to the same bytes.
    if (!tx.HasWitness()) in.Fail("superfluous witness record");
  }
  if (flags != 0) in.Fail("unknown transaction optional data, flag bits", flags);
  tx.locktime = in.ReadLE<uint32_t>();
  return tx;
}

bool ParseTransaction(std::span<const uint8_t> bytes, Transaction& tx, std::string* error) {
  SpanReader in(bytes);
  tx = ReadTransaction(in);
  return Finish(in, error);
}

size_t SerializedSize(const Block& block, bool with_witness) {
  size_t size = kHeaderBytes + CompactSizeLength(block.vtx.size());
  for (const Transaction& tx : block.vtx) size += SerializedSize(tx, with_witness);
  return size;
}

void SerializeBlock(std::vector<uint8_t>& out, const Block& block, bool with_witness) {
  out.reserve(out.size() + SerializedSize(block, with_witness));
  const BlockHeader& h = block.header;
  WriteLE(out, static_cast<uint32_t>(h.version));
  WriteHash(out, h.prev_block);
  WriteHash(out, h.merkle_root);
  WriteLE(out, h.time);
  WriteLE(out, h.bits);
  WriteLE(out, h.nonce);
  WriteCompactSize(out, block.vtx.size());
  for (const Transaction& tx : block.vtx) SerializeTransaction(out, tx, with_witness);
}

bool ParseBlock(std::span<const uint8_t> bytes, Block& block, std::string* error) {
  SpanReader in(bytes);
  block = Block();
  BlockHeader& h = block.header;
  h.version = static_cast<int32_t>(in.ReadLE<uint32_t>());
  h.prev_block = ReadHash(in);
  h.merkle_root = ReadHash(in);
  h.time = in.ReadLE<uint32_t>();
  h.bits = in.ReadLE<uint32_t>();
  h.nonce = in.ReadLE<uint32_t>();
  block.vtx.resize(ReadCount(in, kMinTransactionBytes, "transaction count larger than the remaining bytes can hold"));
  for (Transaction& tx : block.vtx) tx = ReadTransaction(in);
  return Finish(in, error);
}

Hash256 TxidOf(const Transaction& tx) {
  std::vector<uint8_t> bytes;
  bytes.reserve(SerializedSize(tx, /*with_witness=*/false));  // one allocation, not one per doubling
  SerializeTransaction(bytes, tx, /*with_witness=*/false);
  return DoubleSha256({bytes});
}

}  // namespace embedded
