// Bitcoin Core side of seam/coins_store.h: the embedded CoinsStore's interface over Core's CCoinsViewDB
// (txdb.h) on CDBWrapper (dbwrapper.h) and Core's bundled LevelDB. Core's classes live behind a pointer
// (core/coins_store.cpp includes Core's headers; this file does not).
//
// How the store maps onto Core:
// - Options{path, env, batch_size, new_obfuscation_key} become DBParams{path, memory_only = (env != nullptr),
//   obfuscate = key requested} and CoinsViewOptions{batch_write_bytes = batch_size}. Core fixes the batch
//   size when the view is built (-dbbatchsize is a start-up option); set_batch_size() changes the view's
//   options member in place (core/coins_store.cpp says how), as a restart with another -dbbatchsize would,
//   but without closing the database.
// - Flushes from a cache over CoreView() run Core's own CCoinsViewDB::BatchWrite. The adapter never sits
//   in that call; it observes and cuts it at the link level (no edit of Core's sources). Every binary that
//   links this adapter is linked with `-Wl,--wrap=` for these Core/LevelDB functions (core/CMakeLists.txt),
//   each of which Core calls across object files, so the wrap sees Core's calls:
//     CDBWrapper::WriteBatch (called by txdb.o, defined in dbwrapper.o): after each batch of a flush the
//       adapter reads the raw 'B' record; none means a partial batch, and after_partial_write(n) is
//       called, which may throw (the flush is abandoned with the batch on disk) or end the process.
//     CDBWrapper::CDBWrapper(const DBParams&) (txdb.o -> dbwrapper.o) and leveldb::DB::Open (dbwrapper.o ->
//       db_impl.o): while the adapter builds its view, the CDBWrapper and the leveldb::DB it opens are
//       recorded, so the adapter can tell its own batches apart and read the raw records through LevelDB's
//       own iterator (ForEachRaw: the bytes on disk, the obfuscated values as stored, not Core's decoding).
//     leveldb::NewMemEnv (dbwrapper.o -> memenv.o): Core makes a fresh in-memory Env each time it opens a
//       memory_only database and deletes it on close, so nothing could be reopened. While the adapter opens
//       a store with Options::env set, NewMemEnv returns a forwarding Env over that one instead (Core
//       deletes only the forwarder); the caller's Env keeps the files across reopens, and a fresh Env per
//       test case (per fuzz input) keeps no state across them. Outside the adapter's opens, unchanged.
//     FastRandomContext::fillrand (dbwrapper.o -> random.o): Core draws a new database's obfuscation key
//       from FastRandomContext and offers no way to choose it. While the adapter opens a store asking for a
//       key, the 8-byte draw Core makes for that key returns the requested bytes; Core itself decides
//       whether the database gets a key (only when new and empty), writes and uses it. Every open first
//       makes Core's randomness deterministic (MakeRandDeterministicDANGEROUS, as Core's tests do), so any
//       other draw is reproducible too. obfuscation() reports the key Core actually uses, read back from
//       Core (dbwrapper_private::GetObfuscation), not the one asked for.
// - Core's logger is started quiet (core/core_log.h) so fuzzing stays quiet.
//
// Where Core's contract differs from the embedded one (docs/bitcoin-core.md, the differences table; the traits
// below are what the harness reads):
// - Undecodable records are not errors: CDBWrapper::Read swallows the decoding exception, so a corrupt coin
//   reads as no coin (or as another coin: Core ignores trailing bytes), a corrupt 'B' as no best block, a
//   corrupt 'H' as no head blocks, a corrupt obfuscation key record as no obfuscation. StoreCorruption is
//   never thrown (kStoreCorruptionThrows).
// - A flush towards another block while the store is mid-flush, or a flush with a null best block, trips
//   an assert in CCoinsViewDB::BatchWrite: the process aborts (kStoreFlushRefusalAborts) instead of a
//   StoreError / logic_error.
// - LevelDB failures inside a flush run by Core's cache arrive as Core's dbwrapper_error (a runtime_error);
//   the adapter's own calls translate dbwrapper_error and filesystem errors to StoreError.
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

#include "core/coins_cache.h"
#include "core/obfuscation.h"
#include "core/unavailable.h"
#include "src/coins/coin.h"
#include "src/coins/outpoint.h"

class CCoinsView;    // Bitcoin Core's
class CCoinsViewDB;  // Bitcoin Core's
class CDBWrapper;    // Bitcoin Core's
namespace leveldb {
class DB;
class Env;
}  // namespace leveldb

namespace core_adapter {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Never thrown against Core (see kStoreCorruptionThrows); declared because the seam names it.
class StoreCorruption : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Core's CDBWrapper::OBFUSCATION_KEY ("\0obfuscate_key") serialized as a string key: length byte 14, bytes.
inline const std::string kObfuscationKeyKey{"\x0e\x00obfuscate_key", 15};

// What the tree offers beyond the store's central operations (core/coins_store_features.h): seam/coins_store.h.
inline constexpr bool kStoreCursor = SUITE_CORE_db_cursor;                 // ForEachCoin (CCoinsViewDB::Cursor)
inline constexpr bool kStoreEstimateSize = SUITE_CORE_db_estimate_size;    // EstimateSize
inline constexpr bool kStoreHaveCoin = SUITE_CORE_db_have_coin;            // HaveCoin
inline constexpr bool kStoreCutsFlushes = SUITE_CORE_db_write_batch_hook;  // after_partial_write is called
inline constexpr bool kStoreChoosesKey = SUITE_CORE_db_key_draw;           // new_obfuscation_key is the key used

// Whether an undecodable record throws StoreCorruption: Core's reads report it as an absent record.
inline constexpr bool kStoreCorruptionThrows = false;
// Whether a flush the store must refuse (a null best block, or another block than the interrupted flush's)
// ends the process (Core's assert) rather than throwing.
inline constexpr bool kStoreFlushRefusalAborts = true;
// Whether an open that throws leaks: CDBWrapper's constructor allocates the LevelDB block cache, filter
// policy and logger into a context whose destructor does not free them (its own destructor does), so a
// failed open (e.g. a directory it cannot create) leaks them. The adapter deletes those it saw passed to
// leveldb::DB::Open (and the database, if it opened); a throw before that still leaks.
inline constexpr bool kStoreFailedOpenLeaks = true;

class CoinsStore : public CoinsView {
 public:
  // Core's DEFAULT_DB_CACHE_BATCH (kernel/caches.h), the default -dbbatchsize.
  static constexpr size_t kDefaultBatchSize = size_t{32} << 20;

  struct Options {
    std::string path;  // the database directory (in `env`'s file system)
    // nullptr: the real file system (DBParams::memory_only = false). Otherwise an in-memory Env (from
    // leveldb::NewMemEnv) that must outlive the store; Core's memory_only database is opened on it.
    leveldb::Env* env = nullptr;
    size_t batch_size = kDefaultBatchSize;  // CoinsViewOptions::batch_write_bytes, >= 1
    // Asks for DBParams::obfuscate with exactly this key; Core writes it only if the database is new and
    // empty. nullopt: obfuscate = false.
    std::optional<Obfuscation::KeyBytes> new_obfuscation_key;
  };

  // Opens (creating if missing). Throws std::invalid_argument for an empty path or a zero batch size,
  // StoreError if Core cannot open the database.
  explicit CoinsStore(const Options& options);
  ~CoinsStore() override;
  CoinsStore(const CoinsStore&) = delete;
  CoinsStore& operator=(const CoinsStore&) = delete;

  std::optional<embedded::Coin> GetCoin(const embedded::OutPoint& outpoint) override { return PeekCoin(outpoint); }
  std::optional<embedded::Coin> PeekCoin(const embedded::OutPoint& outpoint) const override;
  bool HaveCoin(const embedded::OutPoint& outpoint) override;
  // All-zero when none is recorded (a new database, or a flush in progress).
  embedded::Hash256 GetBestBlock() const override;
  // Core's CCoinsViewDB::BatchWrite on the Core cursor that `cursor` wraps (a cache stacked on CoreView()
  // calls it without the adapter). A null best block, or one that cannot complete an interrupted flush,
  // aborts (kStoreFlushRefusalAborts).
  void BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) override;
  ::CCoinsView* CoreView() override;

  // Core's CCoinsViewDB::GetHeadBlocks: [new, old] while a flush is in progress (or was interrupted), else
  // empty.
  std::vector<embedded::Hash256> GetHeadBlocks() const override;
  // Core's CCoinsViewDB::EstimateSize.
  size_t EstimateSize() const override;
  bool IsMidFlush() const { return !GetHeadBlocks().empty() && GetBestBlock() == embedded::Hash256{}; }

  // The key Core uses (all zero: none).
  const Obfuscation& obfuscation() const { return obfuscation_; }
  size_t batch_size() const { return batch_size_; }
  // Sets the view's CoinsViewOptions::batch_write_bytes for the next flush. Throws std::invalid_argument for 0.
  void set_batch_size(size_t bytes);
  // Called with n = 1, 2, ... after the n-th partial (not the final) batch of a flush is written. It may
  // throw to abandon the flush there, or end the process.
  std::function<void(size_t)> after_partial_write;

  // Core's CCoinsViewDB::Cursor() (on the database view only since Core #35572): every coin it yields,
  // converted, in its order; returns the cursor's best block. Throws StoreCorruption for a record Core's
  // cursor cannot decode.
  embedded::Hash256 ForEachCoin(
      const std::function<void(const embedded::OutPoint&, const embedded::Coin&)>& visit) const;
  // Every key and its raw (still obfuscated) value in key order, read through the leveldb::DB Core opened.
  void ForEachRaw(const std::function<void(std::string_view key, std::string_view value)>& visit) const;
  std::map<std::string, std::string> RawContents() const;

  // For the link-level wraps (core/coins_store.cpp).
  struct Hooks;

 private:
  // Builds Core's view on the database; `key` is the obfuscation key to ask for (nullopt: none).
  void Open(const std::optional<Obfuscation::KeyBytes>& key);
  // The key Core uses (all zero: none): Core's own obfuscation of zeros where the tree has
  // dbwrapper_private::GetObfuscation, else the key record read as Core reads it.
  Obfuscation::KeyBytes KeyInUse() const;
  template <class DB>
  static embedded::Hash256 WalkCursor(
      const DB& db, const std::function<void(const embedded::OutPoint&, const embedded::Coin&)>& visit);
  void Close();
  // Called by the WriteBatch wrap after Core wrote one of this store's batches.
  void AfterCoreBatch();

  std::string path_;
  leveldb::Env* env_;
  size_t batch_size_;
  Obfuscation obfuscation_;
  // The view is built in this storage, so CoreView() is stable.
  struct ViewStorage;
  std::unique_ptr<ViewStorage> view_;
  const CDBWrapper* core_db_ = nullptr;  // Core's wrapper of the open database (recorded by the wraps)
  leveldb::DB* raw_db_ = nullptr;        // the LevelDB handle Core opened (read-only use)
  size_t partial_writes_ = 0;            // partial batches of the flush in progress
};

}  // namespace core_adapter
