// CoinsStore: the UTXO set on the system LevelDB, the base view under the coins caches. Semantics:
// docs/semantics.md §2.
//
// A flush (BatchWrite) is split into batches of about `batch_size` bytes (Bitcoin Core's -dbbatchsize). The
// first batch erases the best block 'B' and records the head blocks 'H' = [new, old]; each DIRTY entry is
// then written (unspent) or erased (spent), and a batch is written whenever its size estimate exceeds the
// limit; the last batch erases 'H' and writes 'B'. LevelDB applies each batch atomically and in order, so a
// crash anywhere leaves the old state, the new state, or a "mid-flush" state (no 'B', 'H' set, a prefix of
// the coin writes) from which re-running the same flush reaches the new state.
//
// Values (never keys) are XORed with an 8-byte key stored unobfuscated under its own key; a key is created
// only when a new, empty database is opened with one.
//
// Errors: LevelDB failures throw StoreError; undecodable records throw StoreCorruption (encoding.h); misuse
// (a null best block, an impossible option) throws std::logic_error / std::invalid_argument.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "coins/view.h"
#include "obfuscation.h"

namespace leveldb {
class DB;
class Env;
class WriteBatch;
}  // namespace leveldb

namespace embedded {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CoinsStore : public CoinsView {
 public:
  // Bitcoin Core's default -dbbatchsize.
  static constexpr size_t kDefaultBatchSize = size_t{32} << 20;

  struct Options {
    std::string path;  // the database directory (in `env`'s file system)
    // nullptr: the real file system. Otherwise an Env that must outlive the store, e.g. an in-memory one
    // from leveldb::NewMemEnv, which keeps the files after the store is closed so it can be reopened.
    leveldb::Env* env = nullptr;
    size_t batch_size = kDefaultBatchSize;  // bytes, >= 1
    // Written as the obfuscation key if the database is new and empty; ignored otherwise. nullopt: none.
    std::optional<Obfuscation::KeyBytes> new_obfuscation_key;
  };

  // Opens (creating if missing). Throws std::invalid_argument for an empty path or a zero batch size,
  // StoreError if LevelDB cannot open the database, StoreCorruption for an unreadable obfuscation key.
  explicit CoinsStore(const Options& options);
  ~CoinsStore() override;
  CoinsStore(const CoinsStore&) = delete;
  CoinsStore& operator=(const CoinsStore&) = delete;

  std::optional<Coin> GetCoin(const OutPoint& outpoint) override { return PeekCoin(outpoint); }
  // Throws StoreCorruption (naming the outpoint) if the stored record cannot be decoded.
  std::optional<Coin> PeekCoin(const OutPoint& outpoint) const override;
  // The best block; all-zero when none is recorded (a new database, or a flush in progress).
  Hash256 GetBestBlock() const override;
  // Requires a non-null best block. Throws StoreError if the database is mid-flush towards another block.
  void BatchWrite(CoinsCursor& cursor, const Hash256& best_block) override;

  // [new, old] while a flush is in progress (or was interrupted), else empty.
  std::vector<Hash256> GetHeadBlocks() const override;
  // LevelDB's estimate of the bytes the coin records take in its table files (records still only in the
  // write-ahead log and the memtable count nothing).
  size_t EstimateSize() const override;
  // True when the last flush did not complete: no best block, head blocks recorded.
  bool IsMidFlush() const { return !GetHeadBlocks().empty() && GetBestBlock() == Hash256{}; }

  const Obfuscation& obfuscation() const { return obfuscation_; }
  size_t batch_size() const { return batch_size_; }
  // Throws std::invalid_argument for 0.
  void set_batch_size(size_t bytes);
  // Called with n = 1, 2, ... after the n-th partial (not the final) batch of a flush is written. It may
  // throw to abandon the flush there, or end the process: how tests simulate a crash.
  std::function<void(size_t)> after_partial_write;

  // The cursor (Bitcoin Core's CCoinsViewDB::Cursor, what dumptxoutset and gettxoutsetinfo read): calls
  // `visit` with every stored coin, decoded, in key order, as the store was when the walk began; returns
  // the best block recorded then. Throws StoreCorruption for a record it cannot decode.
  Hash256 ForEachCoin(const std::function<void(const OutPoint&, const Coin&)>& visit) const;
  // Calls `visit` with every key and its raw (still obfuscated) value, in key order, for tests and
  // inspection; the views are valid only during the call.
  void ForEachRaw(const std::function<void(std::string_view key, std::string_view value)>& visit) const;
  std::map<std::string, std::string> RawContents() const;

 private:
  std::optional<std::string> Read(const std::string& key) const;
  void Write(leveldb::WriteBatch& batch, bool sync);
  // XORs a value with the obfuscation key from the value's first byte.
  std::string Obfuscate(std::string value) const;

  std::unique_ptr<leveldb::DB> db_;
  Obfuscation obfuscation_;
  size_t batch_size_;
};

}  // namespace embedded
