// Bitcoin Core side of seam/block_store.h: the embedded BlockStore's interface (src/io/block_store.h) over
// Core's node::BlockManager with -fastprune (64 KiB block files, 16 KiB chunks; undo files in 1 MiB chunks)
// or, with Options::node_files, without it,
// on the caller's directory, with its xor.dat written before the manager starts so that Core obfuscates
// with the caller's key. The BlockManager and the block indices it is given live behind a pointer
// (core/block_store.cpp includes Core's headers; this file does not).
//
// How the calls map onto Core: WriteBlock deserializes the payload into a CBlock (std::invalid_argument
// unless it is exactly one) and calls WriteBlock under cs_main; the adapter keeps a CBlockIndex per
// written block (file, height, data position), which WriteBlockUndo gives Core with a parent index carrying
// the previous block's hash; ReadBlock is ReadRawBlock; ReadBlockUndo reads into a CBlockUndo through a
// temporary index at the undo position and serializes it again; Info is GetBlockFileInfo.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/block_files.h"
#include "core/obfuscation.h"
#include "src/io/file_pos.h"

namespace core_adapter {

class BlockStore : public embedded::BlockFileGeometry {
 public:
  struct Options {
    std::string dir;       // must exist
    MessageStart magic{};  // one of Core's chains' (std::invalid_argument otherwise)
    Obfuscation::KeyBytes key{};
    bool node_files = false;  // a node's 128 MiB block files rather than -fastprune's (src/io/block_store.h)
  };
  explicit BlockStore(Options options);
  ~BlockStore();
  BlockStore(const BlockStore&) = delete;
  BlockStore& operator=(const BlockStore&) = delete;

  embedded::FilePos WriteBlock(std::span<const uint8_t> block, uint32_t height);
  embedded::FilePos WriteBlockUndo(std::span<const uint8_t> undo, const embedded::Hash256& prev_block_hash,
                                   const embedded::FilePos& block, uint32_t height);
  std::optional<std::vector<uint8_t>> ReadBlock(const embedded::FilePos& pos) const;
  std::optional<std::vector<uint8_t>> ReadBlockUndo(const embedded::FilePos& pos,
                                                    const embedded::Hash256& prev_block_hash) const;
  embedded::BlockFileInfo Info(int file) const;
  std::string Path(const char* prefix, int file) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace core_adapter
