// The coins store's questions to a Bitcoin Core tree (rows as core/features.h describes them): CCoinsViewDB
// (txdb.h) on CDBWrapper (dbwrapper.h), and the functions the adapter wraps at link time.
#pragma once

#include "core/coins_cache_features.h"

#if __has_include(<dbwrapper.h>)
#include <dbwrapper.h>
#endif
#if __has_include(<random.h>)
#include <random.h>
#endif
#if __has_include(<txdb.h>)
#include <txdb.h>
#endif

namespace core_features {

template <class View, class Params = DBParams, class Options = CoinsViewOptions>
concept DbViewApi = Complete<View> && Complete<Params> && Complete<Options> && requires(Params params) {
  View(std::move(params), Options{.batch_write_bytes = 1});
  Params{.path = {}, .cache_bytes = 1, .memory_only = true, .wipe_data = false, .obfuscate = true};
};

}  // namespace core_features

// The member the adapter writes between flushes (CoinsViewOptions CCoinsViewDB::m_options) cannot be asked
// about like the cache's protected members: CCoinsViewDB is final. Only an explicit instantiation may name
// it, and that fails to compile rather than answer `no`, so cmake/core_probe.cpp asks it in a translation
// unit of its own (SUITE_CORE_PROBE_ACCESS) whose rows answer yes if it compiles: X(name, need, since, what,
// off, Class, member).
// clang-format off
#define SUITE_CORE_COINS_STORE_ACCESS(X)                                                                           \
  X(db_options, internal, "", "CCoinsViewDB's protected m_options (CoinsViewOptions::batch_write_bytes)",        \
    "form:database-reopened-for-each-new-batch-size", CCoinsViewDB, m_options)                                   \
  /* new rows go above this line */
// clang-format on

// clang-format off
#define SUITE_CORE_COINS_STORE_FEATURES(X)                                                                         \
  X(db_view, central, "", "CCoinsViewDB(DBParams, CoinsViewOptions{batch_write_bytes}) and DBParams{path, "      \
    "cache_bytes, memory_only, wipe_data, obfuscate}", "", (DbViewApi<CCoinsViewDB>))                            \
  X(db_reads, central, "", "CCoinsViewDB::GetCoin, GetBestBlock and GetHeadBlocks", "",                          \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db, const COutPoint& o), db.GetCoin(o);                               \
                   { db.GetBestBlock() } -> std::same_as<uint256>;                                               \
                   { db.GetHeadBlocks() } -> std::same_as<std::vector<uint256>>))                                \
  X(db_have_coin, api, "", "bool CCoinsViewDB::HaveCoin(const COutPoint&) const", "check:HaveCoin-on-the-store", \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db, const COutPoint& o), { db.HaveCoin(o) } -> std::same_as<bool>))   \
  X(db_batch_write, central, "", "CCoinsViewDB::BatchWrite(CoinsViewCacheCursor&, const uint256&)", "",          \
    SUITE_CORE_HAS(CCoinsViewDB, (C& db, CoinsViewCacheCursor& cursor, const uint256& h), db.BatchWrite(cursor, h))) \
  X(db_wrapper_open, central, "", "CDBWrapper(const DBParams&) (its construction is observed at link time)", "", \
    SUITE_CORE_HAS(CDBWrapper, (const DBParams& params), C(params)))                                             \
  X(db_write_batch_hook, api, "", "void CDBWrapper::WriteBatch(CDBBatch&, bool) (observed at link time)",        \
    "op:CutFlush check:partial-batches",                                                                         \
    SUITE_CORE_HAS(CDBWrapper, (), static_cast<void (C::*)(CDBBatch&, bool)>(&C::WriteBatch)))                   \
  X(db_key_draw, api, "", "void FastRandomContext::fillrand(std::span<std::byte>) (observed at link time)",      \
    "check:the-requested-obfuscation-key",                                                                       \
    SUITE_CORE_HAS(FastRandomContext, (), static_cast<void (C::*)(std::span<std::byte>) noexcept>(&C::fillrand))) \
  X(db_estimate_size, api, "", "size_t CCoinsViewDB::EstimateSize() const", "check:size-estimate",               \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db), { db.EstimateSize() } -> std::convertible_to<size_t>))           \
  X(db_cursor, api, "#35572", "CCoinsViewDB::Cursor() with Valid, GetKey, GetValue, Next and GetBestBlock",     \
    "check:coins-cursor-walk",                                                                                   \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db, COutPoint& o, Coin& coin),                                        \
                   { db.Cursor()->Valid() } -> std::same_as<bool>; db.Cursor()->GetKey(o);                        \
                   db.Cursor()->GetValue(coin); db.Cursor()->Next(); db.Cursor()->GetBestBlock()))              \
  X(db_obfuscation, internal, "", "dbwrapper_private::GetObfuscation(const CDBWrapper&) applied to bytes",      \
    "form:obfuscation-key-read-from-its-raw-record",                                                             \
    SUITE_CORE_HAS(CDBWrapper, (const C& db, std::span<std::byte> bytes), GetObfuscation(db)(bytes, size_t{0}))) \
  /* new rows go above this line */
// clang-format on

namespace core_features {
SUITE_CORE_COINS_STORE_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
