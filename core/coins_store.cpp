#include "core/coins_store.h"
#include "core/coins_store_features.h"
#include "core/convert.h"
#include "core/core_log.h"

#include <coins.h>
#include <dbwrapper.h>
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/status.h>
#include <primitives/transaction.h>
#include <random.h>
#include <script/script.h>
#include <txdb.h>
#include <uint256.h>
#include <util/fs.h>
#include <util/obfuscation.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

// Defined in Core's random.cpp for tests, declared by none of its headers (Core's test/util/random.cpp
// declares it the same way): makes every later draw of Core's randomness a function of `seed`.
void MakeRandDeterministicDANGEROUS(const uint256& seed) noexcept;

// CCoinsViewDB keeps its CoinsViewOptions in a protected member, read afresh by every BatchWrite, and has no
// setter (Core takes -dbbatchsize once, at start-up). set_batch_size changes it in place between flushes
// (the shim's internal form; reopening the database for every new batch size made a fuzz input's flushes
// cost a LevelDB open each, which is the public form, kept for trees without the member). The member is
// reached through a pointer to member formed in an explicit instantiation, which the language exempts from
// access checking ([temp.spec.general]); an explicit instantiation is no template, so a tree without the
// member must not see it at all: the preprocessor leaves it out (SUITE_CORE_db_options, asked in a probe
// unit of its own: core/coins_store_features.h).
#if SUITE_CORE_db_options
template <CoinsViewOptions CCoinsViewDB::* Member>
struct CoinsViewOptionsAccess {
  friend CoinsViewOptions CCoinsViewDB::* CoinsViewOptionsMember() { return Member; }
};
CoinsViewOptions CCoinsViewDB::* CoinsViewOptionsMember();
template struct CoinsViewOptionsAccess<&CCoinsViewDB::m_options>;
#endif

namespace core_adapter {

// Core's view, built in place so that CoreView() never moves.
struct CoinsStore::ViewStorage {
  std::optional<CCoinsViewDB> db;
};

namespace {

// LevelDB's block cache and write buffers come from this (DBParams::cache_bytes: a quarter each for the
// two write buffers): 8 MiB keeps every test flush in the memory table, so no background compaction runs
// in the middle of a test, and nothing is large.
constexpr size_t kCacheBytes = size_t{8} << 20;
// The seed of Core's randomness at every open: any fixed value makes the runs reproducible.
constexpr uint8_t kRandomSeedByte = 0x5c;

// An Env that forwards everything to the caller's in-memory Env; Core deletes it on close, not the target.
class ForwardingEnv final : public leveldb::EnvWrapper {
 public:
  explicit ForwardingEnv(leveldb::Env* target) : leveldb::EnvWrapper(target) {}
};

// The adapter open in progress on this thread (the wraps act only while it is set), and the stores whose
// Core wrappers are open, for the WriteBatch wrap to find its store.
thread_local CoinsStore* opening = nullptr;
thread_local leveldb::Env* opening_env = nullptr;
thread_local std::optional<Obfuscation::KeyBytes> key_to_inject;
std::mutex stores_mutex;

// What CDBWrapper's constructor allocated for the database of the adapter's open in progress, as the wraps
// saw it: what ~CDBWrapper deletes, and a constructor that throws leaves behind (kStoreFailedOpenLeaks).
// Deleted when it throws, so that a fuzzing process keeps no memory (nor a database with a background
// thread) from a failed open: otherwise libFuzzer, seeing more allocations than frees, runs a whole-heap
// leak scan after every input with one (about half of coins_db_flush's time against Core).
struct FailedOpenLeftovers {
  leveldb::DB* db = nullptr;
  const leveldb::FilterPolicy* filter_policy = nullptr;
  leveldb::Logger* info_log = nullptr;
  leveldb::Cache* block_cache = nullptr;
  leveldb::Env* env = nullptr;  // the ForwardingEnv of WrapNewMemEnv

  // In ~CDBWrapper's order: the database before what it uses.
  void Delete() {
    delete db;
    delete filter_policy;
    delete info_log;
    delete block_cache;
    delete env;
    *this = {};
  }
};
thread_local FailedOpenLeftovers leftovers;
std::vector<std::pair<const CDBWrapper*, CoinsStore*>> open_stores;

}  // namespace

struct CoinsStore::Hooks {
  static void Constructed(const CDBWrapper* db) {
    if (opening != nullptr) opening->core_db_ = db;
  }
  static void Opened(leveldb::DB* db) {
    if (opening != nullptr) opening->raw_db_ = db;
  }
  static void Wrote(const CDBWrapper* db) {
    CoinsStore* store = nullptr;
    {
      const std::lock_guard lock(stores_mutex);
      for (const auto& [wrapper, s] : open_stores) {
        if (wrapper == db) store = s;
      }
    }
    if (store != nullptr) store->AfterCoreBatch();
  }
  static void Register(CoinsStore* store) {
    const std::lock_guard lock(stores_mutex);
    open_stores.emplace_back(store->core_db_, store);
  }
  static void Unregister(CoinsStore* store) {
    const std::lock_guard lock(stores_mutex);
    std::erase_if(open_stores, [&](const auto& entry) { return entry.second == store; });
  }
};

// The link-level wraps (`-Wl,--wrap=<symbol>`, core/CMakeLists.txt): the linker sends Core's calls of
// <symbol> to __wrap_<symbol> and __real_<symbol> to the original. Declared here as free functions under
// those assembler names; a member function's `this` is its first argument in the Itanium C++ ABI.
namespace wraps {

leveldb::Env* RealNewMemEnv(leveldb::Env* base) __asm__("__real__ZN7leveldb9NewMemEnvEPNS_3EnvE");
leveldb::Env* WrapNewMemEnv(leveldb::Env* base) __asm__("__wrap__ZN7leveldb9NewMemEnvEPNS_3EnvE");
leveldb::Env* WrapNewMemEnv(leveldb::Env* base) {
  if (opening_env == nullptr) return RealNewMemEnv(base);
  leftovers.env = new ForwardingEnv(opening_env);
  return leftovers.env;
}

leveldb::Status RealOpen(const leveldb::Options& options, const std::string& name, leveldb::DB** db) __asm__(
    "__real__ZN7leveldb2DB4OpenERKNS_7OptionsERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEPPS0_");
leveldb::Status WrapOpen(const leveldb::Options& options, const std::string& name, leveldb::DB** db) __asm__(
    "__wrap__ZN7leveldb2DB4OpenERKNS_7OptionsERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEPPS0_");
leveldb::Status WrapOpen(const leveldb::Options& options, const std::string& name, leveldb::DB** db) {
  if (opening != nullptr) {
    leftovers.filter_policy = options.filter_policy;
    leftovers.info_log = options.info_log;
    leftovers.block_cache = options.block_cache;
  }
  leveldb::Status status = RealOpen(options, name, db);
  if (status.ok()) {
    if (opening != nullptr) leftovers.db = *db;
    CoinsStore::Hooks::Opened(*db);
  }
  return status;
}

void RealConstruct(CDBWrapper* self, const DBParams& params) __asm__("__real__ZN10CDBWrapperC1ERK8DBParams");
void WrapConstruct(CDBWrapper* self, const DBParams& params) __asm__("__wrap__ZN10CDBWrapperC1ERK8DBParams");
void WrapConstruct(CDBWrapper* self, const DBParams& params) {
  leftovers = {};
  try {
    RealConstruct(self, params);
  } catch (...) {
    if (opening != nullptr) leftovers.Delete();
    throw;
  }
  leftovers = {};  // the wrapper owns them now
  CoinsStore::Hooks::Constructed(self);
}

// The optional hooks exist only where the tree has the function in the form their symbol names (the rows
// db_write_batch_hook, db_key_draw); core/CMakeLists.txt wraps the symbol only then. A link-level symbol
// cannot live in a template, so the preprocessor leaves a missing one's hook out.
#if SUITE_CORE_db_write_batch_hook
void RealWriteBatch(CDBWrapper* self, CDBBatch& batch,
                    bool sync) __asm__("__real__ZN10CDBWrapper10WriteBatchER8CDBBatchb");
void WrapWriteBatch(CDBWrapper* self, CDBBatch& batch,
                    bool sync) __asm__("__wrap__ZN10CDBWrapper10WriteBatchER8CDBBatchb");
void WrapWriteBatch(CDBWrapper* self, CDBBatch& batch, bool sync) {
  RealWriteBatch(self, batch, sync);
  CoinsStore::Hooks::Wrote(self);
}
#endif

#if SUITE_CORE_db_key_draw
void RealFillrand(FastRandomContext* self, std::span<std::byte> out) noexcept
    __asm__("__real__ZN17FastRandomContext8fillrandESt4spanISt4byteLm18446744073709551615EE");
void WrapFillrand(FastRandomContext* self, std::span<std::byte> out) noexcept
    __asm__("__wrap__ZN17FastRandomContext8fillrandESt4spanISt4byteLm18446744073709551615EE");
void WrapFillrand(FastRandomContext* self, std::span<std::byte> out) noexcept {
  // The one draw of a new database's key (Obfuscation::KEY_SIZE bytes), once per open.
  if (opening != nullptr && key_to_inject && out.size() == Obfuscation::kKeySize) {
    std::memcpy(out.data(), key_to_inject->data(), out.size());
    key_to_inject.reset();
    return;
  }
  RealFillrand(self, out);
}
#endif

}  // namespace wraps

CoinsStore::CoinsStore(const Options& options)
    : path_(options.path), env_(options.env), batch_size_(options.batch_size), view_(std::make_unique<ViewStorage>()) {
  if (options.path.empty()) throw std::invalid_argument("coins store: empty database path");
  if (options.batch_size == 0) throw std::invalid_argument("coins store: dbbatchsize must be at least 1 byte, got 0");
  QuietCoreLogging();
  Open(options.new_obfuscation_key);
}

CoinsStore::~CoinsStore() { Close(); }

void CoinsStore::Open(const std::optional<Obfuscation::KeyBytes>& key) {
  uint256 seed;
  std::fill(seed.begin(), seed.end(), kRandomSeedByte);
  MakeRandDeterministicDANGEROUS(seed);
  DBParams params{
      .path = fs::PathFromString(path_),
      .cache_bytes = kCacheBytes,
      .memory_only = env_ != nullptr,
      .wipe_data = false,
      .obfuscate = key.has_value(),
  };
  opening = this;
  opening_env = env_;
  key_to_inject = key;
  struct Reset {
    ~Reset() {
      opening = nullptr;
      opening_env = nullptr;
      key_to_inject.reset();
    }
  } reset;
  try {
    view_->db.emplace(std::move(params), CoinsViewOptions{.batch_write_bytes = batch_size_});
  } catch (const std::exception& e) {
    core_db_ = nullptr;
    raw_db_ = nullptr;
    const bool known =
        dynamic_cast<const dbwrapper_error*>(&e) || dynamic_cast<const std::filesystem::filesystem_error*>(&e);
    if (!known) throw;
    throw StoreError(std::string("coins store: cannot open ") + path_ + ": " + e.what());
  }
  if (core_db_ == nullptr || raw_db_ == nullptr) {
    view_->db.reset();
    throw std::logic_error(
        "coins store: the link-level wraps did not see Core open the database (link with "
        "core_subject's --wrap options)");
  }
  Hooks::Register(this);
  obfuscation_ = Obfuscation(KeyInUse());
}

Obfuscation::KeyBytes CoinsStore::KeyInUse() const {
  Obfuscation::KeyBytes key{};
  if constexpr (SUITE_CORE_db_obfuscation) {
    // Internal form: Core's own obfuscation of 8 zero bytes at offset 0 (dbwrapper_private::GetObfuscation).
    IfTreeHas<SUITE_CORE_db_obfuscation, void>("dbwrapper_private::GetObfuscation", *core_db_, [&](const auto& db) {
      using namespace ::dbwrapper_private;
      GetObfuscation(db)(std::as_writable_bytes(std::span(key)), size_t{0});
    });
  } else {
    // Public form: the key record as LevelDB holds it (stored without obfuscation: a CompactSize 8, then
    // the key), read as Core reads it, so that a record Core cannot decode means no key.
    std::string value;
    const leveldb::Status status = raw_db_->Get(leveldb::ReadOptions(), kObfuscationKeyKey, &value);
    if (status.ok() && value.size() == 1 + key.size() && value[0] == static_cast<char>(key.size())) {
      std::memcpy(key.data(), value.data() + 1, key.size());
    } else if (!status.ok() && !status.IsNotFound()) {
      throw StoreError("coins store: read: " + status.ToString());
    }
  }
  return key;
}

void CoinsStore::Close() {
  Hooks::Unregister(this);
  view_->db.reset();
  core_db_ = nullptr;
  raw_db_ = nullptr;
  partial_writes_ = 0;
}

void CoinsStore::set_batch_size(size_t bytes) {
  if (bytes == 0) throw std::invalid_argument("coins store: dbbatchsize must be at least 1 byte, got 0");
  if (bytes == batch_size_) return;
  batch_size_ = bytes;
#if SUITE_CORE_db_options
  ((*view_->db).*CoinsViewOptionsMember()).batch_write_bytes = bytes;
#else
  // Public form: a restart with another -dbbatchsize. The view is rebuilt in the same storage, so the
  // caches stacked on CoreView() keep a valid parent; the database keeps its key (Core reads it back).
  Close();
  Open(std::nullopt);
#endif
}

::CCoinsView* CoinsStore::CoreView() { return &*view_->db; }

std::optional<embedded::Coin> CoinsStore::PeekCoin(const embedded::OutPoint& outpoint) const {
  try {
    if (const auto coin = view_->db->GetCoin(ToCore(outpoint))) return FromCore(*coin);
    return std::nullopt;
  } catch (const dbwrapper_error& e) {
    throw StoreError(std::string("coins store: read: ") + e.what());
  }
}

bool CoinsStore::HaveCoin(const embedded::OutPoint& outpoint) {
  try {
    return IfTreeHas<kStoreHaveCoin, bool>("CCoinsViewDB::HaveCoin", *view_->db,
                                           [&](const auto& db) { return db.HaveCoin(ToCore(outpoint)); });
  } catch (const dbwrapper_error& e) {
    throw StoreError(std::string("coins store: read: ") + e.what());
  }
}

embedded::Hash256 CoinsStore::GetBestBlock() const {
  try {
    return FromCore(view_->db->GetBestBlock());
  } catch (const dbwrapper_error& e) {
    throw StoreError(std::string("coins store: read: ") + e.what());
  }
}

std::vector<embedded::Hash256> CoinsStore::GetHeadBlocks() const {
  std::vector<uint256> heads;
  try {
    heads = view_->db->GetHeadBlocks();
  } catch (const dbwrapper_error& e) {
    throw StoreError(std::string("coins store: read: ") + e.what());
  }
  std::vector<embedded::Hash256> out;
  for (const uint256& h : heads) out.push_back(FromCore(h));
  return out;
}

size_t CoinsStore::EstimateSize() const {
  return IfTreeHas<SUITE_CORE_db_estimate_size, size_t>("CCoinsViewDB::EstimateSize", *view_->db,
                                                        [](const auto& db) { return db.EstimateSize(); });
}

void CoinsStore::BatchWrite(CoinsCursor& cursor, const embedded::Hash256& best_block) {
  view_->db->BatchWrite(cursor.core(), ToCore(best_block));
}

void CoinsStore::AfterCoreBatch() {
  std::string best;
  const leveldb::Status status = raw_db_->Get(leveldb::ReadOptions(), leveldb::Slice("B", 1), &best);
  if (status.ok()) {  // the final batch records the best block; no partial batch does
    partial_writes_ = 0;
    return;
  }
  if (!status.IsNotFound()) throw StoreError("coins store: read: " + status.ToString());
  ++partial_writes_;
  if (!after_partial_write) return;
  try {
    after_partial_write(partial_writes_);
  } catch (...) {
    partial_writes_ = 0;  // the flush is abandoned here
    throw;
  }
}

embedded::Hash256 CoinsStore::ForEachCoin(
    const std::function<void(const embedded::OutPoint&, const embedded::Coin&)>& visit) const {
  return IfTreeHas<SUITE_CORE_db_cursor, embedded::Hash256>("CCoinsViewDB::Cursor", *view_->db,
                                                            [&](const auto& db) { return WalkCursor(db, visit); });
}

template <class DB>
embedded::Hash256 CoinsStore::WalkCursor(
    const DB& db, const std::function<void(const embedded::OutPoint&, const embedded::Coin&)>& visit) {
  try {
    const auto cursor = db.Cursor();
    for (; cursor->Valid(); cursor->Next()) {
      COutPoint outpoint;
      ::Coin coin;
      if (!cursor->GetKey(outpoint) || !cursor->GetValue(coin)) {
        throw StoreCorruption("coins store: Core's cursor cannot decode the record at " +
                              FromCore(outpoint).ToString());
      }
      visit(FromCore(outpoint), FromCore(coin));
    }
    return FromCore(cursor->GetBestBlock());
  } catch (const dbwrapper_error& e) {
    throw StoreError(std::string("coins store: cursor: ") + e.what());
  }
}

void CoinsStore::ForEachRaw(const std::function<void(std::string_view, std::string_view)>& visit) const {
  std::unique_ptr<leveldb::Iterator> it(raw_db_->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    visit({it->key().data(), it->key().size()}, {it->value().data(), it->value().size()});
  }
  if (!it->status().ok()) throw StoreError("coins store: iterate: " + it->status().ToString());
}

std::map<std::string, std::string> CoinsStore::RawContents() const {
  std::map<std::string, std::string> out;
  ForEachRaw([&](std::string_view key, std::string_view value) { out.emplace(key, value); });
  return out;
}

}  // namespace core_adapter
