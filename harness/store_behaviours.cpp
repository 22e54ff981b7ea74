#include "store_behaviours.h"

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "coins_store_model.h"
#include "fault_env.h"
#include "seam/coins_cache.h"
#include "seam/coins_store.h"
#include "seam/obfuscation.h"

namespace harness {
namespace {

constexpr const char* kPath = "/behaviour";

// A store on an in-memory Env behind a fault layer, with coins written by flushes.
struct ScratchStore {
  std::unique_ptr<leveldb::Env> env{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv faults{env.get()};

  std::unique_ptr<seam::CoinsStore> Open() {
    seam::CoinsStore::Options options;
    options.path = kPath;
    options.env = &faults;
    options.new_obfuscation_key = seam::Obfuscation::KeyBytes{1, 2, 3, 4, 5, 6, 7, 8};
    return std::make_unique<seam::CoinsStore>(options);
  }
  // The coin for outpoint `n` flushed into a store opened afresh, which LevelDB then keeps in a table file.
  void Write(uint32_t n) {
    auto store = Open();
    seam::CoinsViewCache cache(store.get());
    cache.AddCoin(Outpoint(n), Coin(1000 + n, Script(25, 0x51), 1, false), /*possible_overwrite=*/true);
    Hash256 best;
    best.bytes[0] = static_cast<uint8_t>(n);
    cache.SetBestBlock(best);
    cache.Flush();
  }
  static OutPoint Outpoint(uint32_t n) {
    OutPoint o;
    o.txid.bytes[0] = 0xbe;
    o.n = n;
    return o;
  }
  // Rewrites the raw value of outpoint `n`'s record (the store closed).
  void Poke(uint32_t n, const std::string& raw) {
    leveldb::Options options;
    options.env = env.get();
    leveldb::DB* db = nullptr;
    if (!leveldb::DB::Open(options, kPath, &db).ok()) throw std::runtime_error("cannot open the database raw");
    const std::unique_ptr<leveldb::DB> owned(db);
    if (!db->Put(leveldb::WriteOptions(), RefCoinKey(Outpoint(n)), raw).ok()) throw std::runtime_error("cannot poke");
  }
};

void Reached() {
  std::fprintf(stderr, "%s\n", kReached);
  std::fflush(stderr);
}

int ReadErrorScenario() {
  ScratchStore disk;
  disk.Write(1);
  disk.Open().reset();
  disk.Write(2);  // the second coin in a table of its own, which no read of the open brings into LevelDB's cache
  auto store = disk.Open();
  disk.faults.Arm(FaultEnv::Kind::kRead, 1);
  Reached();
  try {
    store->PeekCoin(ScratchStore::Outpoint(2));
  } catch (const std::runtime_error&) {
    return 0;
  }
  std::fprintf(stderr, "read_error_fatal: the read %s\n",
               disk.faults.injected() ? "failed, yet returned" : "never failed");
  return 3;
}

int BadRecordScenario() {
  ScratchStore disk;
  disk.Write(1);
  disk.Poke(1, "\x01");  // too short for any coin: no lookup can decode it
  auto store = disk.Open();
  Reached();
  try {
    store->PeekCoin(ScratchStore::Outpoint(1));
  } catch (const seam::StoreCorruption&) {
  }
  return 0;
}

int CursorScenario() {
  ScratchStore disk;
  disk.Write(1);
  disk.Poke(1, "\x01");  // too short for any coin: no cursor can decode it
  auto store = disk.Open();
  Reached();
  try {
    store->ForEachCoin([](const OutPoint&, const Coin&) {});
  } catch (const seam::StoreCorruption&) {
    return 0;
  }
  std::fprintf(stderr, "cursor_aborts_on_bad_record: the walk passed over the undecodable record\n");
  return 3;
}

}  // namespace

const Behaviour kReadErrorFatal{"read_error_fatal", "a failed database read throws (the error catcher's callbacks run)",
                                "a failed database read aborts the process inside the database wrapper",
                                ReadErrorScenario};
const Behaviour kBadRecordFatal{"bad_record_fatal", "a lookup of an undecodable coin record reads no coin, or an error",
                                "a lookup of an undecodable coin record aborts the process inside the database wrapper",
                                BadRecordScenario};
const Behaviour kCursorAbortsOnBadRecord{
    "cursor_aborts_on_bad_record", "the coins cursor reports an undecodable record",
    "the coins cursor aborts the process on an undecodable record", CursorScenario};
HARNESS_BEHAVIOUR(kReadErrorFatal);
HARNESS_BEHAVIOUR(kBadRecordFatal);
HARNESS_BEHAVIOUR(kCursorAbortsOnBadRecord);

}  // namespace harness
