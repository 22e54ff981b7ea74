// Bitcoin Core's node::BlockManager as the adapters for block files use it (core/block_files.cpp,
// core/block_store.cpp): the chain a message start names, Core's log as the adapters hear it, a blocks
// directory with the BlockManager on it, and the calls whose form differs between Core trees. Included
// only by core/*.cpp: it needs Core's headers.
#pragma once

#include <chain.h>
#include <consensus/validation.h>
#include <kernel/cs_main.h>
#include <sync.h>
#include <undo.h>
#include <kernel/chainparams.h>
#include <kernel/notifications_interface.h>
#include <node/blockstorage.h>
#include <streams.h>
#include <util/fs.h>
#include <util/signalinterrupt.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/block_files.h"
#include "core/contracts.h"
#include "core/core_log.h"
#include "core/file_io_features.h"
#include "core/unavailable.h"
#include "core/obfuscation.h"

namespace core_adapter {

// The chain with this message start, of those a caller may name (built once); null if none.
const CChainParams* FindChain(const MessageStart& magic);
// As FindChain; throws std::invalid_argument if none.
const CChainParams& ChainFor(const MessageStart& magic);

// A blocks directory and the BlockManager on it, rebuilt when the chain or the key changes (Core reads
// xor.dat only when a BlockManager starts) or on Reset().
class BlocksDir {
 public:
  // `fast_prune`: Core's test mode of 64 KiB block files (instead of 128 MiB, preallocated 16 MiB at a time).
  BlocksDir(fs::path path, bool fast_prune);
  ~BlocksDir();  // the manager before the indices it may point to

  node::BlockManager& Manager(const CChainParams& chain, const Obfuscation::KeyBytes& key);
  // Empties the directory: the next Manager() starts a BlockManager with no block files.
  void Reset();
  // A block index that lives as long as the BlockManager that may keep a pointer to it (WriteBlockUndo
  // marks the index dirty).
  CBlockIndex& NewIndex() { return indices_.emplace_back(); }
  // For a caller that needs an index for one call only (a single undo write): the same one every time, as
  // a new one would be (no position, no status, no parent). A new index per call would grow this process's
  // memory (the indices, Core's set of dirty ones) with every fuzz input, and libFuzzer runs a whole-heap
  // leak scan after each input that frees less than it allocates.
  CBlockIndex& ReusedIndex() EXCLUSIVE_LOCKS_REQUIRED(::cs_main);
  // The record of `size` bytes at `pos` in the block (blk) or undo (rev) file, read back through the key.
  std::vector<uint8_t> ReadBack(const char* prefix, const FlatFilePos& pos, size_t size) const;
  // Replaces the file `name` with `bytes` (unless it holds them already).
  void Place(const std::string& name, std::vector<uint8_t> bytes);
  // The path of a block (blk) or undo (rev) file.
  fs::path FilePath(const char* prefix, int file) const;

 private:
  fs::path path_;
  bool fast_prune_;
  util::SignalInterrupt interrupt_;
  kernel::Notifications notifications_;
  std::deque<CBlockIndex> indices_;
  CBlockIndex reused_;
  std::unique_ptr<node::BlockManager> manager_;
  std::map<std::string, std::vector<uint8_t>> placed_;
  const CChainParams* chain_ = nullptr;
  Obfuscation::KeyBytes key_{};
};

// Whether `payload` is exactly a serialization: `read` consumes all of it without an error and `write`
// (of what was read) gives the same bytes back.
bool SerializesExactly(std::span<const uint8_t> payload, const std::function<void(DataStream&)>& read,
                       const std::function<void(DataStream&)>& write);

// Core's ReadRawBlock of the whole block at `pos` (into a vector before #33657; returning it since); nullopt
// when it fails. Throws Unavailable where the tree has neither form.
template <class Manager>
std::optional<std::vector<std::byte>> ReadRaw(const Manager& manager, const FlatFilePos& pos) {
  using Result = std::optional<std::vector<std::byte>>;
  return UnderContract(
      CoreCall::kReadRawBlock,
      [&]() -> Result {
        if constexpr (core_features::raw_block_part) {
          auto block = manager.ReadRawBlock(pos);
          if (!block) return std::nullopt;
          return std::move(*block);
        } else if constexpr (SUITE_CORE_read_raw_block) {
          std::vector<std::byte> block;
          if (!manager.ReadRawBlock(block, pos)) return std::nullopt;
          return block;
        } else {
          throw Unavailable("node::BlockManager::ReadRawBlock in a form the suite knows");
        }
      },
      [](const std::exception&) -> Result { return std::nullopt; });
}

// BlockManager's writers and undo reader, each where the tree has it (Unavailable elsewhere), under their
// callers' contracts (core/contracts.h): WriteBlock under cs_main (annotated from 2026, required on every
// tree; a runtime error its callers catch is its null position), WriteBlockUndo (the caller holds cs_main),
// ReadBlockUndo.
template <class Manager>
FlatFilePos CoreWriteBlock(Manager& manager, const CBlock& block, int height) {
  return IfTreeHas<SUITE_CORE_write_block, FlatFilePos>("node::BlockManager::WriteBlock", manager, [&](auto& m) {
    return UnderContract(
        CoreCall::kWriteBlock, [&] { return WITH_LOCK(::cs_main, return m.WriteBlock(block, height)); },
        [](const std::exception&) { return FlatFilePos{}; });
  });
}
template <class Manager>
bool CoreWriteBlockUndo(Manager& manager, const CBlockUndo& undo, BlockValidationState& state, CBlockIndex& index) {
  return IfTreeHas<SUITE_CORE_block_undo, bool>("node::BlockManager::WriteBlockUndo", manager, [&](auto& m) {
    return UnderContract(
        CoreCall::kWriteBlockUndo, [&] { return m.WriteBlockUndo(undo, state, index); },
        [](const std::exception&) { return false; });
  });
}
template <class Manager>
bool CoreReadBlockUndo(const Manager& manager, CBlockUndo& undo, const CBlockIndex& index) {
  return IfTreeHas<SUITE_CORE_block_undo, bool>("node::BlockManager::ReadBlockUndo", manager, [&](auto& m) {
    return UnderContract(
        CoreCall::kReadBlockUndo, [&] { return m.ReadBlockUndo(undo, index); },
        [](const std::exception&) { return false; });
  });
}

}  // namespace core_adapter
