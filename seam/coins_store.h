// Seam: the coins store on LevelDB, flushed in batches (Bitcoin Core's CCoinsViewDB, txdb.h, over CDBWrapper).
//
// Contract (docs/semantics.md, "Coins store"): the interface of src/store/coins_store.h — CoinsStore opened
// on a path (or an in-memory LevelDB Env) with an obfuscation key and a batch size; BatchWrite splits a flush
// into batches of about batch_size bytes, marking the flush in the head-blocks record until the last batch;
// reopening after a cut flush keeps the old tip recoverable; ForEachRaw/RawContents expose the raw records.
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/coins_store.h"
namespace seam {
using core_adapter::CoinsStore;
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
}  // namespace seam
#endif
