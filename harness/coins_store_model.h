// The reference for the coins store: the expected database contents as a plain key → value map in which
// every flush is one atomic batch, the same encoding written out independently of src/store/encoding.cpp,
// and the states a flush cut short may legally leave behind.
//
// Modelled: the keys and plaintext values of docs/semantics.md §2 (coins, 'B', 'H'); a flush as an ordered list of
// writes and erases; the mid-flush states (old state, 'B' erased, 'H' = [new, old], any prefix of the
// writes in cursor order); where a flush with batch limit S splits, from LevelDB's documented WriteBatch
// record format (12-byte header; per put a tag, varint lengths, key and value; per delete a tag, a varint
// length and the key).
// Not modelled: the obfuscation key entry and XOR (the tester applies harness::XorRef to compare raw
// values), LevelDB's files.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "seam/types.h"

namespace harness {

using KvMap = std::map<std::string, std::string>;

// The encoding, formulated differently from the subject's (see the .cpp): a VARINT by length classes, amount
// compression through decimal digits, script compression by comparing with templates, an uncompressed key
// recognised by recovering it from its x coordinate.
std::string RefVarInt(uint64_t n);
uint64_t RefCompressAmount(uint64_t amount);
std::string RefCompressScript(const Script& script);
std::string RefCoinKey(const OutPoint& outpoint);
std::string RefCoinValue(const Coin& coin);

// The decoding, the same way round. Each reader consumes its bytes from the front of `in` and returns
// nullopt where the subject's decoder throws StoreCorruption (a truncated value, a VARINT past 2^64 - 1).
std::optional<uint64_t> RefReadVarInt(std::string_view& in);
// nullopt if the amount does not fit in 64 bits (the subject's DecompressAmount wraps there).
std::optional<uint64_t> RefDecompressAmount(uint64_t x);
// Ids 4/5 with an x off the curve give an empty script, as in Bitcoin Core (docs/semantics.md §2).
std::optional<Script> RefReadScript(std::string_view& in);
// A whole coin record: nullopt unless it is exactly one record, of a height code below 2^32 and a
// compressed amount that is the compression of an amount <= MAX_MONEY.
std::optional<Coin> RefDecodeCoin(std::string_view value);
std::string RefHeadBlocks(const Hash256& new_tip, const Hash256& old_tip);
inline std::string RefHash(const Hash256& h) { return std::string(h.bytes.begin(), h.bytes.end()); }

// A store's raw contents as plaintext: the obfuscation key's own entry dropped and every value XORed back
// with `key` from its first byte (harness::XorRef).
KvMap DecodeRaw(KvMap raw, const std::array<uint8_t, 8>& key);

// One entry of a flush in cursor order: a put (value) or an erase (nullopt).
struct KvWrite {
  std::string key;
  std::optional<std::string> value;
};

// What a whole flush overwrote in the state it was applied to: each key's value before (nullopt: absent).
struct FlushUndo {
  std::optional<std::string> best, head;           // 'B' and 'H'
  std::vector<std::optional<std::string>> values;  // the key of each write, in write order
};

// A flush as the reference sees it: what it writes and where a batch limit splits it.
struct FlushPlan {
  Hash256 new_tip;
  Hash256 old_tip;
  std::vector<KvWrite> writes;

  // The state after the whole flush: `before` with the writes applied, 'H' gone and 'B' = new_tip.
  KvMap Complete(const KvMap& before) const;
  // Complete in place, costing the keys it writes rather than a copy of the state; returns what it overwrote.
  FlushUndo Apply(KvMap& state) const;
  // Apply's inverse: `state`, the state after the flush, becomes the state it was applied to.
  void Revert(KvMap& state, const FlushUndo& undo) const;
  // The state after the head marker and the first `prefix` writes: 'B' gone, 'H' = [new, old].
  KvMap MidFlush(const KvMap& before, size_t prefix) const;
  // Whether `state` is one of the MidFlush states for some prefix (ambiguous writes — a put of the value
  // already there, an erase of an absent key — count as either applied or not). With `any_order`, for some
  // subset: every write applied or not, whatever the order (a store written in an order the plan does not
  // know, where any split is legal).
  bool IsLegalMidFlush(const KvMap& before, const KvMap& state, bool any_order = false) const;
  // For each partial batch a flush with `batch_limit` writes before its final one, how many of the writes
  // it has applied once that batch is written (so the size is the number of partial writes).
  std::vector<size_t> PartialBatchEnds(size_t batch_limit) const;
};

}  // namespace harness
