#include "store/coins_store.h"

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <algorithm>

#include "store/encoding.h"

namespace embedded {

namespace {

std::span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string HashBytes(const Hash256& h) { return std::string(h.bytes.begin(), h.bytes.end()); }

// The key as Core stores it: a serialized byte vector, CompactSize(8) then the 8 bytes.
std::string EncodeObfuscationKey(const Obfuscation::KeyBytes& key) {
  std::string out(1, static_cast<char>(key.size()));
  out.append(key.begin(), key.end());
  return out;
}

void Check(const leveldb::Status& status, const std::string& what) {
  if (!status.ok()) throw StoreError("coins store: " + what + ": " + status.ToString());
}

}  // namespace

CoinsStore::CoinsStore(const Options& options) : batch_size_(options.batch_size) {
  if (options.path.empty()) throw std::invalid_argument("coins store: empty database path");
  set_batch_size(options.batch_size);
  leveldb::Options open;
  open.create_if_missing = true;
  // As Bitcoin Core's chainstate: values are hashes and scripts that do not compress, and LevelDB should
  // report corruption it notices rather than skip over it.
  open.compression = leveldb::kNoCompression;
  open.paranoid_checks = true;
  if (options.env != nullptr) open.env = options.env;
  leveldb::DB* db = nullptr;
  Check(leveldb::DB::Open(open, options.path, &db), "cannot open " + options.path);
  db_.reset(db);

  if (const auto stored = Read(kObfuscationKeyKey)) {
    RecordReader in(AsBytes(*stored));
    Obfuscation::KeyBytes key;
    if (in.Byte() != key.size()) throw StoreCorruption("obfuscation key: not an 8-byte vector");
    const auto bytes = in.Bytes(key.size());
    in.ExpectEnd("obfuscation key");
    std::copy(bytes.begin(), bytes.end(), key.begin());
    obfuscation_ = Obfuscation(key);
  } else if (options.new_obfuscation_key) {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    it->SeekToFirst();
    Check(it->status(), "reading " + options.path);
    // As Core: only a new database gets a key, so existing plaintext values are never misread.
    if (!it->Valid()) {
      leveldb::WriteBatch batch;
      batch.Put(kObfuscationKeyKey, EncodeObfuscationKey(*options.new_obfuscation_key));
      Write(batch, /*sync=*/true);
      obfuscation_ = Obfuscation(*options.new_obfuscation_key);
    }
  }
}

CoinsStore::~CoinsStore() = default;

void CoinsStore::set_batch_size(size_t bytes) {
  if (bytes == 0) throw std::invalid_argument("coins store: dbbatchsize must be at least 1 byte, got 0");
  batch_size_ = bytes;
}

std::optional<std::string> CoinsStore::Read(const std::string& key) const {
  std::string value;
  const leveldb::Status status = db_->Get(leveldb::ReadOptions(), key, &value);
  if (status.IsNotFound()) return std::nullopt;
  Check(status, "read");
  return value;
}

void CoinsStore::Write(leveldb::WriteBatch& batch, bool sync) {
  leveldb::WriteOptions options;
  options.sync = sync;
  Check(db_->Write(options, &batch), "write");
}

std::string CoinsStore::Obfuscate(std::string value) const {
  obfuscation_(std::span(reinterpret_cast<uint8_t*>(value.data()), value.size()), 0);
  return value;
}

std::optional<Coin> CoinsStore::PeekCoin(const OutPoint& outpoint) const {
  const auto raw = Read(CoinKey(outpoint));
  if (!raw) return std::nullopt;
  const std::string value = Obfuscate(*raw);
  try {
    return DecodeCoin(AsBytes(value));
  } catch (const StoreCorruption& e) {
    throw StoreCorruption("coin " + outpoint.ToString() + ": " + e.what());
  }
}

Hash256 CoinsStore::GetBestBlock() const {
  Hash256 best;
  if (const auto raw = Read(kBestBlockKey)) {
    const std::string value = Obfuscate(*raw);
    if (value.size() != best.bytes.size()) throw StoreCorruption("best block: not a 32-byte hash");
    std::copy(value.begin(), value.end(), best.bytes.begin());
  }
  return best;
}

size_t CoinsStore::EstimateSize() const {
  const std::string begin(1, kCoinPrefix);
  const std::string end(1, static_cast<char>(kCoinPrefix + 1));
  const leveldb::Range range(begin, end);
  uint64_t size = 0;
  db_->GetApproximateSizes(&range, 1, &size);
  return static_cast<size_t>(size);
}

std::vector<Hash256> CoinsStore::GetHeadBlocks() const {
  const auto raw = Read(kHeadBlocksKey);
  if (!raw) return {};
  const std::string value = Obfuscate(*raw);
  const auto [new_tip, old_tip] = DecodeHeadBlocks(AsBytes(value));
  return {new_tip, old_tip};
}

void CoinsStore::BatchWrite(CoinsCursor& cursor, const Hash256& best_block) {
  if (best_block == Hash256{}) throw std::logic_error("coins store: BatchWrite needs a non-null best block");
  Hash256 old_tip = GetBestBlock();
  if (old_tip == Hash256{}) {
    if (const auto heads = GetHeadBlocks(); !heads.empty()) {
      // An interrupted flush can only be completed by the same flush: its target must match, and the old
      // tip it recorded stays the old tip however often it is interrupted.
      if (heads[0] != best_block) {
        throw StoreError("coins store: a flush to " + heads[0].ToShortString() + " was interrupted; this flush to " +
                         best_block.ToShortString() + " cannot complete it (reindex the chainstate)");
      }
      old_tip = heads[1];
    }
  }

  leveldb::WriteBatch batch;
  batch.Delete(kBestBlockKey);
  batch.Put(kHeadBlocksKey, Obfuscate(EncodeHeadBlocks(best_block, old_tip)));
  size_t partial_writes = 0;
  for (CoinsCachePair* p = cursor.Begin(); p != cursor.End();) {
    const std::string key = CoinKey(p->first);
    if (p->second.coin.IsSpent()) {
      batch.Delete(key);
    } else {
      batch.Put(key, Obfuscate(EncodeCoin(p->second.coin)));
    }
    p = cursor.Next(*p);  // the entry may be gone after this
    // Checked after whole entries only, so a split never falls inside one.
    if (batch.ApproximateSize() > batch_size_) {
      Write(batch, /*sync=*/false);
      batch.Clear();
      if (after_partial_write) after_partial_write(++partial_writes);
    }
  }
  batch.Delete(kHeadBlocksKey);
  batch.Put(kBestBlockKey, Obfuscate(HashBytes(best_block)));
  Write(batch, /*sync=*/true);
}

Hash256 CoinsStore::ForEachCoin(const std::function<void(const OutPoint&, const Coin&)>& visit) const {
  leveldb::ReadOptions options;
  options.snapshot = db_->GetSnapshot();
  const std::unique_ptr<const leveldb::Snapshot, std::function<void(const leveldb::Snapshot*)>> snapshot(
      options.snapshot, [this](const leveldb::Snapshot* s) { db_->ReleaseSnapshot(s); });
  Hash256 best;
  std::string value;
  const leveldb::Status status = db_->Get(options, kBestBlockKey, &value);
  if (status.ok()) {
    value = Obfuscate(std::move(value));
    if (value.size() != best.bytes.size()) throw StoreCorruption("best block: not a 32-byte hash");
    std::copy(value.begin(), value.end(), best.bytes.begin());
  } else if (!status.IsNotFound()) {
    Check(status, "read");
  }
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(options));
  for (it->Seek(std::string(1, kCoinPrefix)); it->Valid() && it->key()[0] == kCoinPrefix; it->Next()) {
    const OutPoint outpoint = DecodeCoinKey(AsBytes(it->key().ToString()));
    try {
      visit(outpoint, DecodeCoin(AsBytes(Obfuscate(it->value().ToString()))));
    } catch (const StoreCorruption& e) {
      throw StoreCorruption("coin " + outpoint.ToString() + ": " + e.what());
    }
  }
  Check(it->status(), "iterate");
  return best;
}

void CoinsStore::ForEachRaw(const std::function<void(std::string_view, std::string_view)>& visit) const {
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    visit({it->key().data(), it->key().size()}, {it->value().data(), it->value().size()});
  }
  Check(it->status(), "iterate");
}

std::map<std::string, std::string> CoinsStore::RawContents() const {
  std::map<std::string, std::string> out;
  ForEachRaw([&](std::string_view key, std::string_view value) { out.emplace(key, value); });
  return out;
}

}  // namespace embedded
