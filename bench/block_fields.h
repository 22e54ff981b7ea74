// Reading a block one field at a time from any source with `void Read(std::span<uint8_t>)` (AutoFile or
// BufferedReader): the read side of the per-field block I/O benchmark, the counterpart of
// harness/wire_fields.h. No validation beyond what the benchmark's own well-formed blocks need; the
// benchmark compares the result with the block it wrote.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tx/transaction.h"

namespace bench {

// The benchmarks measure the embedded subject (src/) against simpler baselines.
using namespace embedded;

template <typename Source>
class FieldReader {
 public:
  explicit FieldReader(Source& in) : in_(in) {}

  uint64_t LE(size_t bytes) {
    uint8_t buf[8];
    in_.Read(std::span(buf, bytes));
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= uint64_t{buf[i]} << (8 * i);
    return v;
  }
  uint64_t CompactSize() {
    const uint64_t first = LE(1);
    if (first < 253) return first;
    return LE(first == 253 ? 2 : first == 254 ? 4 : 8);
  }
  void Into(std::span<uint8_t> dst) { in_.Read(dst); }
  template <typename Bytes>  // std::vector<uint8_t> or a prevector
  void LengthPrefixed(Bytes& out) {
    out.resize(CompactSize());
    Into(std::span(out.data(), out.size()));
  }
  Hash256 Hash() {
    Hash256 h;
    Into(h.bytes);
    return h;
  }

  Transaction Tx() {
    Transaction tx;
    tx.version = static_cast<int32_t>(LE(4));
    uint64_t inputs = CompactSize();
    bool witness = false;
    if (inputs == 0) {  // the extended format's marker; the flag follows
      witness = LE(1) == kWitnessFlag;
      inputs = CompactSize();
    }
    tx.vin.resize(inputs);
    for (TxIn& in : tx.vin) {
      in.prevout.txid = Hash();
      in.prevout.n = static_cast<uint32_t>(LE(4));
      LengthPrefixed(in.script_sig);
      in.sequence = static_cast<uint32_t>(LE(4));
    }
    tx.vout.resize(CompactSize());
    for (TxOut& out : tx.vout) {
      out.value = static_cast<int64_t>(LE(8));
      LengthPrefixed(out.script_pubkey);
    }
    if (witness) {
      for (TxIn& in : tx.vin) {
        in.witness.resize(CompactSize());
        for (std::vector<uint8_t>& item : in.witness) LengthPrefixed(item);
      }
    }
    tx.locktime = static_cast<uint32_t>(LE(4));
    return tx;
  }

  Block Blk() {
    Block block;
    block.header.version = static_cast<int32_t>(LE(4));
    block.header.prev_block = Hash();
    block.header.merkle_root = Hash();
    block.header.time = static_cast<uint32_t>(LE(4));
    block.header.bits = static_cast<uint32_t>(LE(4));
    block.header.nonce = static_cast<uint32_t>(LE(4));
    block.vtx.resize(CompactSize());
    for (Transaction& tx : block.vtx) tx = Tx();
    return block;
  }

 private:
  Source& in_;
};

}  // namespace bench
