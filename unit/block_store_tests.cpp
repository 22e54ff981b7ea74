// A node's block files (docs/semantics.md §3, "Block files"): where records go as files fill and roll
// over, a record too large for a file, undo data and when undo files are cut to length, every record read
// back, writes on a failing disk; and random sequences against the reference (BlockStoreTester) with a
// printed, settable seed. block_store_sim fuzzes the same.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <optional>
#include <vector>

#include "block_files_tester.h"
#include "coins_tables.h"
#include "block_store_model.h"
#include "block_store_tester.h"
#include "fault_file.h"
#include "known_bugs.h"
#include "record_payloads.h"
#include "rng.h"
#include "seam/block_store.h"
#include "seam/file_io.h"
#include "test_util.h"

namespace {

using unit::kBitKey;

struct Store {
  unit::TempDir dir;
  seam::BlockStore store{seam::BlockStore::Options{dir.path().string(), harness::kMagic, kBitKey}};
  harness::BlockStoreModel model;

  std::optional<uint64_t> Length(const char* prefix, int file) const {
    struct stat st;
    if (stat(store.Path(prefix, file).c_str(), &st) != 0) return std::nullopt;
    return static_cast<uint64_t>(st.st_size);
  }
  // Writes a block of `size` bytes at `height`; checks the position against the model's.
  FilePos Block(uint32_t size, uint32_t height, std::vector<uint8_t>* payload = nullptr) {
    std::optional<std::vector<uint8_t>> block = harness::BlockPayload(size, size + height);
    BOOST_REQUIRE(block.has_value());
    const FilePos want = model.WriteBlock(size, height);
    const FilePos got = store.WriteBlock(*block, height);
    BOOST_TEST((got == want), "block of " << size << " at " << height << ": " << got.file << ":" << got.pos
                                          << ", the model's " << want.file << ":" << want.pos);
    if (payload != nullptr) *payload = *block;
    return got;
  }
  FilePos Undo(const FilePos& block, uint32_t size, uint32_t height) {
    const std::vector<uint8_t> undo = harness::UndoPayload(size, height);
    const FilePos want = model.WriteBlockUndo(block, size, height);
    const FilePos got = store.WriteBlockUndo(undo, Prev(height), block, height);
    BOOST_TEST((got == want), "undo of " << size << " at " << height);
    const auto back = store.ReadBlockUndo(got, Prev(height));
    BOOST_TEST((back == std::optional(undo)));
    return got;
  }
  static Hash256 Prev(uint32_t height) { return harness::BlockHash(static_cast<uint8_t>(height)); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(block_store_tests)

// Blocks fill a file until the next would bring it to 64 KiB; the file left is cut to its length, the new
// one starts at 0; a block of 64 KiB or more gets a file of its own.
BOOST_AUTO_TEST_CASE(files_roll_over_at_their_size) {
  Store s;
  std::vector<std::pair<FilePos, std::vector<uint8_t>>> written;
  for (uint32_t h = 1; h <= 12; ++h) {
    std::vector<uint8_t> payload;
    const FilePos pos = s.Block(20000, h, &payload);
    written.emplace_back(pos, payload);
  }
  BOOST_TEST(written[0].first.file == 0);
  BOOST_TEST(written[3].first.file == 1);  // 3 x 20,008 fit, a fourth would reach 64 KiB
  BOOST_TEST((s.Length("blk", 0) == std::optional<uint64_t>(3 * 20008)));   // cut to its length
  BOOST_TEST((s.Length("blk", 3) == std::optional<uint64_t>(4 * 0x4000)));  // chunks allocated ahead
  const FilePos big = s.Block(70000, 13);
  BOOST_TEST(big.file == 4);
  BOOST_TEST(big.pos == 8u);
  BOOST_TEST(s.Block(81, 14).file == 5);  // a file of its own: the next block starts another
  for (const auto& [pos, payload] : written) BOOST_TEST((s.store.ReadBlock(pos) == std::optional(payload)));
  // Records of exactly 64 KiB in all: the second starts a new file.
  Store exact;
  BOOST_TEST(exact.Block(32760, 1).file == 0);
  BOOST_TEST(exact.Block(32760, 2).file == 1);
  const auto info = s.store.Info(1);
  BOOST_TEST(info.blocks == 3u);
  BOOST_TEST(info.height_first == 4u);
  BOOST_TEST(info.height_last == 6u);
}

// Undo data goes to its block's file's rev file; once the highest block of an earlier file has its undo data
// the rev file is cut to its length; a block's undo data is written once.
BOOST_AUTO_TEST_CASE(undo_files_are_cut_when_complete) {
  Store s;
  std::vector<FilePos> blocks;
  for (uint32_t h = 1; h <= 4; ++h) blocks.push_back(s.Block(20000, h));  // the fourth starts file 1
  BOOST_TEST(blocks[3].file == 1);
  const FilePos u1 = s.Undo(blocks[0], 500, 1);
  BOOST_TEST(u1.file == 0);
  BOOST_TEST(u1.pos == 8u);
  BOOST_TEST((s.Length("rev", 0) == std::optional<uint64_t>(0x100000)));  // a chunk allocated ahead
  s.Undo(blocks[1], 300, 2);
  const FilePos again = s.store.WriteBlockUndo(harness::UndoPayload(10, 9), Store::Prev(2), blocks[1], 2);
  BOOST_TEST((again == s.model.WriteBlockUndo(blocks[1], 10, 2)));
  s.Undo(blocks[2], 200, 3);  // file 0's highest block: its rev file is complete
  BOOST_TEST((s.Length("rev", 0) == std::optional<uint64_t>(s.model.files()[0].info.undo_size)));
  BOOST_TEST(s.store.Info(0).undo_size == s.model.files()[0].info.undo_size);
  BOOST_TEST(s.Undo(blocks[3], 100, 4).file == 1);
}

// When a file is left with its undo data caught up (the highest undo height is its highest block's), its
// rev file is cut to length with the blk file.
BOOST_AUTO_TEST_CASE(caught_up_undo_is_cut_at_roll_over) {
  Store s;
  std::vector<FilePos> blocks;
  for (uint32_t h = 1; h <= 3; ++h) {
    blocks.push_back(s.Block(20000, h));
    s.Undo(blocks.back(), 400, h);
  }
  BOOST_TEST(!s.Length("rev", 1).has_value());
  s.Block(20000, 4);  // file 1
  BOOST_TEST((s.Length("rev", 0) == std::optional<uint64_t>(3 * (8 + 400 + 32))));
}

// A write that fails on the disk returns the null position (the node stops); what was written before reads
// back.
BOOST_AUTO_TEST_CASE(failing_disk) {
  Store s;
  std::vector<uint8_t> first;
  const FilePos pos = s.Block(500, 1, &first);
  {
    const harness::fault_file::Armed fault(
        {harness::fault_file::Call::kClose, 1, harness::fault_file::Effect::kFail, EIO, false});
    BOOST_TEST(s.store.WriteBlock(*harness::BlockPayload(600, 2), 2).IsNull());
  }
  BOOST_TEST((s.store.ReadBlock(pos) == std::optional(first)));
  {
    // The first fclose is the allocation's (a new rev file gets its first chunk), whose failure changes
    // nothing; the second, the record's.
    const harness::fault_file::Armed fault(
        {harness::fault_file::Call::kClose, 2, harness::fault_file::Effect::kFail, ENOSPC, false});
    BOOST_TEST(s.store.WriteBlockUndo(harness::UndoPayload(50, 1), Store::Prev(1), pos, 1).IsNull());
  }
  if (harness::KnownBugCheckRuns(harness::KnownBug::kWriterBlockTerminate) &&
      harness::KnownBugCheckRuns(harness::KnownBug::kWriterPlaintext)) {
    const harness::fault_file::Armed fault(
        {harness::fault_file::Call::kWrite, 1, harness::fault_file::Effect::kShort, ENOSPC, false});
    BOOST_TEST(s.store.WriteBlock(*harness::BlockPayload(5000, 3), 3).IsNull());
  }
  BOOST_TEST((s.store.ReadBlock(pos) == std::optional(first)));
}

BOOST_AUTO_TEST_CASE(random_sequences) {
  const uint64_t seed = harness::TestSeed(7);
  BOOST_TEST_MESSAGE("block_store random_sequences: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    size_t files = 0;
    for (int run = 0; run < 6; ++run) {
      seam::Obfuscation::KeyBytes key{};
      if (run % 2) key = kBitKey;
      harness::BlockStoreTester tester(key);
      for (int i = 0; i < 60; ++i) {
        harness::BlockStoreStep step;
        step.op = static_cast<harness::BlockStoreOp>(rng.Below(3));  // the failing disk is fuzzed, not here
        const uint64_t size_class = rng.Below(4);
        step.size = static_cast<uint32_t>(size_class == 0   ? rng.Range(81, 400)
                                          : size_class == 1 ? rng.Range(400, 5000)
                                          : size_class == 2 ? rng.Range(15000, 22000)
                                                            : rng.Range(65000, 70000));
        if (step.op == harness::BlockStoreOp::kUndo) step.size = static_cast<uint32_t>(rng.Range(1, 3000));
        step.seed = static_cast<uint32_t>(rng.Next());
        step.back = rng.Chance(80) ? 0 : static_cast<uint8_t>(rng.Below(8));
        step.which = static_cast<uint8_t>(rng.Next());
        tester.Apply(step);
      }
      tester.CheckAll();
      files += tester.files();
    }
    BOOST_TEST(files > 30u);  // files rolled over again and again
  }
}

BOOST_AUTO_TEST_SUITE_END()
