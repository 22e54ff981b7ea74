// The reference wire format (docs/semantics.md §4), written one field at a time to any sink with
// `void Put(const uint8_t* data, size_t n)`. The reference serializer (tx_check_ref.cpp) puts the fields into
// a byte counter or a buffer; the block I/O benchmark (bench/) puts each one straight into a file, as a
// node without a write buffer does. Plain loops, independent of the subject's src/serialize.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "check.h"
#include "seam/types.h"

namespace harness {

// `bytes` bytes of `v`, least significant first.
template <typename Sink>
HARNESS_NO_FUZZ_COVERAGE void PutLE(Sink& w, uint64_t v, size_t bytes) {
  uint8_t buf[8];
  for (size_t i = 0; i < bytes; ++i) buf[i] = static_cast<uint8_t>(v >> (8 * i));
  w.Put(buf, bytes);
}

// One byte below 253, else a marker byte and 2, 4 or 8 bytes.
template <typename Sink>
HARNESS_NO_FUZZ_COVERAGE void PutCompactSize(Sink& w, uint64_t n) {
  if (n < 253) {
    PutLE(w, n, 1);
  } else if (n < 65536) {
    PutLE(w, 253, 1);
    PutLE(w, n, 2);
  } else if (n < 4294967296) {
    PutLE(w, 254, 1);
    PutLE(w, n, 4);
  } else {
    PutLE(w, 255, 1);
    PutLE(w, n, 8);
  }
}

// A length-prefixed byte string.
template <typename Sink>
HARNESS_NO_FUZZ_COVERAGE void PutBytes(Sink& w, const uint8_t* data, size_t n) {
  PutCompactSize(w, n);
  w.Put(data, n);
}

template <typename Sink>
HARNESS_NO_FUZZ_COVERAGE void PutTransaction(Sink& w, const Transaction& tx, bool with_witness) {
  bool witness = false;
  for (const TxIn& txin : tx.vin) witness = witness || !txin.witness.empty();
  witness = witness && with_witness;
  PutLE(w, static_cast<uint32_t>(tx.version), 4);
  if (witness) {
    PutLE(w, 0, 1);
    PutLE(w, 1, 1);
  }
  PutCompactSize(w, tx.vin.size());
  for (const TxIn& txin : tx.vin) {
    w.Put(txin.prevout.txid.bytes.data(), txin.prevout.txid.bytes.size());
    PutLE(w, txin.prevout.n, 4);
    PutBytes(w, txin.script_sig.data(), txin.script_sig.size());
    PutLE(w, txin.sequence, 4);
  }
  PutCompactSize(w, tx.vout.size());
  for (const TxOut& txout : tx.vout) {
    PutLE(w, static_cast<uint64_t>(txout.value), 8);
    PutBytes(w, txout.script_pubkey.data(), txout.script_pubkey.size());
  }
  if (witness) {
    for (const TxIn& txin : tx.vin) {
      PutCompactSize(w, txin.witness.size());
      for (const std::vector<uint8_t>& item : txin.witness) PutBytes(w, item.data(), item.size());
    }
  }
  PutLE(w, tx.locktime, 4);
}

template <typename Sink>
HARNESS_NO_FUZZ_COVERAGE void PutBlock(Sink& w, const Block& block, bool with_witness) {
  PutLE(w, static_cast<uint32_t>(block.header.version), 4);
  w.Put(block.header.prev_block.bytes.data(), block.header.prev_block.bytes.size());
  w.Put(block.header.merkle_root.bytes.data(), block.header.merkle_root.bytes.size());
  PutLE(w, block.header.time, 4);
  PutLE(w, block.header.bits, 4);
  PutLE(w, block.header.nonce, 4);
  PutCompactSize(w, block.vtx.size());
  for (const Transaction& tx : block.vtx) PutTransaction(w, tx, with_witness);
}

}  // namespace harness
