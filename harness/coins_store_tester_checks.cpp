// CoinsStoreTester's checks of the store (coins_store_tester.h): its raw records against the reference, its
// cursor, the head blocks and size estimate through every view, the touched cache entry, the final sweep.
#include <leveldb/env.h>

#include <string>
#include <vector>

#include "coins_checks.h"
#include "coins_store_tester.h"
#include "coins_tables.h"
#include "obfuscation_ref.h"
#include "observe.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code

bool CoinsStoreTester::StoreMatches(const KvMap& expected) const {
  const std::string stored_key = std::string("\x08") + std::string(key_.begin(), key_.end());
  bool same = true, key_entry = false;
  auto next = expected.begin();
  std::string plain;
  store_->ForEachRaw([&](std::string_view key, std::string_view raw) {
    if (key == seam::kObfuscationKeyKey) {
      key_entry = true;
      HARNESS_CHECK(!IsZero(key_) && raw == stored_key, "the obfuscation key entry must hold the key, unobfuscated");
      return;
    }
    HARNESS_OBSERVE("raw record", HexStr(key, key.size()), " = ", HexStr(raw, raw.size()));
    plain.assign(raw);
    XorRef(std::span(reinterpret_cast<uint8_t*>(plain.data()), plain.size()), key_, 0);
    // The key bytes that meet this value (offset 0 onwards): if any is non-zero, the value must change.
    const bool key_covers =
        !std::all_of(key_.begin(), key_.begin() + std::min<size_t>(raw.size(), 8), [](uint8_t b) { return b == 0; });
    HARNESS_CHECK(!key_covers || plain != raw, "value of ", HexStr(key, kShownBytes), " is stored in plaintext");
    same = same && next != expected.end() && next->first == key && next->second == plain;
    if (next != expected.end()) ++next;
  });
  HARNESS_CHECK_EQ(key_entry, !IsZero(key_), "an obfuscation key entry exists exactly when there is a key");
  return same && next == expected.end();
}

KvMap CoinsStoreTester::Plaintext() const {
  KvMap raw = store_->RawContents();
  raw.erase(seam::kObfuscationKeyKey);
  return DecodeRaw(raw, key_);
}

void CoinsStoreTester::CheckStore(const KvMap& expected, const char* when, Depth depth) {
  if (!StoreMatches(expected)) {
    const KvMap got = Plaintext();
    HARNESS_CHECK(false, "store contents ", when, " differ from the reference:", Diff(got, expected));
  }
  if (depth == Depth::kWhole) CheckCursor(expected, when);
  CheckStoreViews(when, depth);
  whole_checked_ = depth == Depth::kWhole;
}

void CoinsStoreTester::CheckCursor(const KvMap& expected, const char* when) const {
  if constexpr (!seam::kStoreCursor) return;  // the subject has no cursor: the raw records are checked
  // Compared as the cursor walks (nothing is copied), against the coin records in key order.
  auto next = expected.lower_bound("C");
  const auto coins_end = expected.lower_bound("D");
  size_t i = 0;
  const Hash256 best = store_->ForEachCoin([&](const OutPoint& outpoint, const Coin& coin) {
    HARNESS_CHECK(next != coins_end, "the cursor ", when, " yields a coin past the ", i,
                  " stored: ", outpoint.ToString());
    HARNESS_CHECK(RefCoinKey(outpoint) == next->first, "coin ", i, " of the cursor ", when, " is ", outpoint.ToString(),
                  ", in key order the store has ", HexStr(next->first), " there");
    const std::optional<Coin> want = RefDecodeCoin(next->second);
    HARNESS_CHECK(want && coin == *want, "the cursor ", when, " decodes ", outpoint.ToString(), " as ", coin.ToString(),
                  ", the reference as ", Render(want));
    ++next;
    ++i;
  });
  HARNESS_CHECK(next == coins_end, "the cursor ", when, " ended after ", i, " coins; the next stored one is ",
                next == coins_end ? std::string() : HexStr(next->first));
  const auto b = expected.find("B");
  const Hash256 want_best = b == expected.end() ? Hash256{} : [&] {
    Hash256 h;
    std::copy(b->second.begin(), b->second.end(), h.bytes.begin());
    return h;
  }();
  HARNESS_CHECK(best == want_best, "the cursor's best block ", when);
}

void CoinsStoreTester::CheckStoreViews(const char* when, Depth depth) const {
  // Read through the catcher (where the subject has one) and the cache (where it reads through to the store).
  if constexpr (!seam::kCoinsApi.backed_store_reads) return;
  const std::vector<Hash256> heads = store_->GetHeadBlocks();
  HARNESS_CHECK(CacheParent()->GetHeadBlocks() == heads && cache_->GetHeadBlocks() == heads,
                "the head blocks read through the catcher and the cache ", when, " are not the store's");
  if constexpr (!seam::kStoreEstimateSize) return;
  if (depth != Depth::kWhole) return;
  // LevelDB's estimate is offsets inside its table files: never more than their bytes. Its background
  // compaction changes both whenever it likes, so they are compared when a round of reads saw neither change.
  const auto table_bytes = [this] {
    std::vector<std::string> files;
    HARNESS_CHECK(env_->GetChildren(kPath, &files).ok(), "cannot list the database's files");
    uint64_t bytes = 0;
    for (const std::string& f : files) {
      uint64_t size = 0;
      if (f.size() > 4 && f.compare(f.size() - 4, 4, ".ldb") == 0 &&
          env_->GetFileSize(std::string(kPath) + "/" + f, &size).ok()) {
        bytes += size;
      }
    }
    return bytes;
  };
  for (int round = 0;; ++round) {
    const uint64_t bytes = table_bytes();
    const size_t estimate = store_->EstimateSize();
    const size_t through_catcher = CacheParent()->EstimateSize();
    const size_t through_cache = cache_->EstimateSize();
    if (store_->EstimateSize() != estimate || table_bytes() != bytes) {
      HARNESS_CHECK(round < 100000, "the database's tables changed in every one of 100,000 rounds of reads");
      continue;
    }
    HARNESS_CHECK(through_catcher == estimate && through_cache == estimate,
                  "the size estimate read through the catcher and the cache ", when, " is not the store's");
    HARNESS_CHECK(estimate <= bytes, "EstimateSize ", when, " is ", estimate, " bytes; the table files hold ", bytes);
    return;
  }
}

void CoinsStoreTester::CheckCache(CoinsStackModel::Key touched) const {
  CheckSizes(*cache_, model_, 0, /*deep=*/false);
  try {
    cache_->SanityCheck();
  } catch (const std::logic_error& e) {
    HARNESS_CHECK(false, "cache: ", e.what());
  }
  CheckEntry(*cache_, model_, 0, touched, [](CoinsStackModel::Key k) -> const OutPoint& { return OutpointTable()[k]; });
}

void CoinsStoreTester::CheckAll() {
  if (ended_) return;
  for (CoinsStackModel::Key k = 0; k < kTableSize; ++k) {
    if (!(touched_ >> k & 1)) continue;
    const OutPoint& o = OutpointTable()[k];
    const auto stored = store_->PeekCoin(o);
    HARNESS_CHECK(stored == model_.base(k), "store coin ", o.ToString(), ": subject ", Render(stored), ", reference ",
                  Render(model_.base(k)));
  }
  // The records were compared after the last step that changed them; the cursor and the estimate, unless
  // that step opened the store, are compared here.
  if (!whole_checked_) CheckStore(reference_, "at the end of the input");
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
