// Seam: the coins store on LevelDB, flushed in batches (Bitcoin Core's CCoinsViewDB, txdb.h, over CDBWrapper).
//
// Contract (docs/semantics.md, "Coins store"): the interface of src/store/coins_store.h — CoinsStore opened
// on a path (or an in-memory LevelDB Env) with an obfuscation key and a batch size; BatchWrite splits a flush
// into batches of about batch_size bytes, marking the flush in the head-blocks record until the last batch;
// reopening after a cut flush keeps the old tip recoverable; ForEachRaw/RawContents expose the raw records.
//   kObfuscationKeyKey       the raw key under which the obfuscation key is stored.
//   kStoreCorruptionThrows   whether an undecodable record throws StoreCorruption. The embedded store does;
//                            Bitcoin Core's CDBWrapper::Read reports it as an absent record.
//   kStoreFlushRefusalAborts whether a flush the store refuses (a null best block: std::logic_error; a block
//                            other than an interrupted flush's: StoreError) ends the process instead (Core's
//                            asserts). The harness then never asks for one; the unit tests check the abort.
//   kStoreFailedOpenLeaks    whether an open that throws leaks what it allocated (Core's CDBWrapper
//                            constructor leaks its LevelDB block cache, filter policy and logger).
// What the subject offers beyond the store's central operations (Bitcoin Core: where the tree has it):
//   kStoreCursor             ForEachCoin (CCoinsViewDB::Cursor)
//   kStoreEstimateSize       EstimateSize
//   kStoreHaveCoin           HaveCoin of the store itself (a cache above it has its own)
//   kStoreCutsFlushes        after_partial_write is called after each partial batch (Core: its WriteBatch
//                            is observed at link time), so flushes can be cut there
//   kStoreChoosesKey         a new database gets the obfuscation key asked for (Core: its key draw is
//                            observed at link time); else it gets a key of its own, which obfuscation() reports
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/coins_store.h"
namespace seam {
using core_adapter::CoinsStore;
using core_adapter::kObfuscationKeyKey;
using core_adapter::kStoreChoosesKey;
using core_adapter::kStoreCorruptionThrows;
using core_adapter::kStoreCursor;
using core_adapter::kStoreCutsFlushes;
using core_adapter::kStoreEstimateSize;
using core_adapter::kStoreFailedOpenLeaks;
using core_adapter::kStoreFlushRefusalAborts;
using core_adapter::kStoreHaveCoin;
using core_adapter::StoreCorruption;
using core_adapter::StoreError;
}  // namespace seam
#else
#include "src/store/coins_store.h"
#include "src/store/encoding.h"
namespace seam {
using embedded::CoinsStore;
using embedded::kObfuscationKeyKey;
using embedded::StoreCorruption;
using embedded::StoreError;
inline constexpr bool kStoreCorruptionThrows = true;
inline constexpr bool kStoreFlushRefusalAborts = false;
inline constexpr bool kStoreFailedOpenLeaks = false;
inline constexpr bool kStoreCursor = true;
inline constexpr bool kStoreEstimateSize = true;
inline constexpr bool kStoreHaveCoin = true;
inline constexpr bool kStoreCutsFlushes = true;
inline constexpr bool kStoreChoosesKey = true;
}  // namespace seam
#endif
