// BlockStoreTester: a node's block files (seam::BlockStore) in a scratch directory, against BlockStoreModel.
//
// Checked after every write: the position returned is the model's; what the store knows of every file
// (sizes, blocks, heights) is the model's; every blk and rev file exists exactly when the model says and
// has the model's length on disk (chunks allocated ahead, finalized files cut to their length); the
// record's bytes on disk are the reference encoding (magic, size, payload and for undo data the checksum)
// obfuscated by file offset; the record reads back. After a roll-over to a new file, and at the end, every
// record written so far reads back.
// A failing disk (fault_file.h): a block or undo record written while the k-th fwrite, fflush, fclose,
// fdatasync or ftruncate fails (once or for good). The write returns the null position, or its position
// when what failed was not the record (a flush of the file it left, an allocation), and the process goes
// on; then every record written before reads back, a record whose position was returned reads back, and
// the bytes where a failed record was to go are zeros (not written) or its own bytes (obfuscated), never
// anything else. The input ends there (a node stops on such an error).
// Known Bitcoin Core bug writer_failed_flush (known_bugs.h): Core's block and undo writers end the program
// when their writer's fwrite fails, so on a tree that has it no fwrite is made to fail, unless
// SUITE_CHECK_KNOWN_BUGS=1.
//
// Operations: HARNESS_BLOCK_STORE_OPS (stable IDs; new ones go at the end).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "block_store_model.h"
#include "check.h"
#include "op_list.h"
#include "seam/block_store.h"
#include "seam/file_io.h"
#include "seam/obfuscation.h"

namespace harness {

// X(enumerator, id, name).
// clang-format off
#define HARNESS_BLOCK_STORE_OPS(X)                                                                                     \
  X(kBlock, 0, "Block")       /* WriteBlock(a block of `size`, the next height less `back`) */                         \
  X(kUndo, 1, "Undo")         /* WriteBlockUndo(undo data of `size`) of the `which`-th block written */                \
  X(kReadAll, 2, "ReadAll")   /* every record read back */                                                             \
  X(kFail, 3, "Fail")         /* a Block (`which` even) or Undo while the disk fails (`fault`); ends the input */       \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(BlockStoreOp, kBlockStoreOpCount, 8, HARNESS_BLOCK_STORE_OPS)

struct BlockStoreStep {
  BlockStoreOp op{};
  // Payload bytes. For a block, a size below 81 asks for one that fills the current file to its maximum,
  // give or take `size` % 5 - 2 bytes (records of 64 KiB in all are where files roll over).
  uint32_t size = 0;
  uint32_t seed = 0;  // payload bytes are drawn from it
  uint8_t back = 0;   // Block: how far below the next height
  uint8_t which = 0;  // Fail: bit 0 picks undo data or a block; Undo and Fail: which block (which / 2)
  uint8_t fault = 0;  // Fail: the call, the k, the effect, persistence
  std::string ToString() const;
};

class BlockStoreTester {
 public:
  explicit BlockStoreTester(const seam::Obfuscation::KeyBytes& key);
  ~BlockStoreTester();
  BlockStoreTester(const BlockStoreTester&) = delete;
  BlockStoreTester& operator=(const BlockStoreTester&) = delete;

  // False (nothing done) if the step does not apply.
  bool Apply(BlockStoreStep step);
  // Every record read back.
  HARNESS_NO_FUZZ_COVERAGE void CheckAll();
  bool ended() const { return ended_; }
  size_t files() const { return model_.files().size(); }

 private:
  struct Record {
    FilePos pos;
    bool undo = false;
    std::vector<uint8_t> payload;
    Hash256 prev;
    uint32_t height = 0;
    FilePos block;  // undo data: its block's position
  };

  bool ApplyWrite(const BlockStoreStep& step, bool undo, bool failing);
  // The record's bytes on disk are the reference encoding; `or_zero`: bytes still zero (never written) pass.
  HARNESS_NO_FUZZ_COVERAGE void CheckRaw(const Record& r, bool or_zero) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckRead(const Record& r) const;
  HARNESS_NO_FUZZ_COVERAGE void CheckFiles() const;
  std::vector<uint8_t> Payload(bool undo, uint32_t size, uint32_t seed) const;

  std::string dir_;
  seam::Obfuscation::KeyBytes key_;
  std::optional<seam::BlockStore> store_;
  BlockStoreModel model_;
  std::vector<Record> records_;
  uint32_t next_height_ = 1;
  bool ended_ = false;
  OpLog<BlockStoreStep> log_;
};

}  // namespace harness
