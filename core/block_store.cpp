#include "core/block_store.h"
#include "core/block_manager.h"
#include "core/convert.h"

#include <chain.h>
#include <consensus/validation.h>
#include <flatfile.h>
#include <kernel/cs_main.h>
#include <node/blockstorage.h>
#include <primitives/block.h>
#include <serialize.h>
#include <streams.h>
#include <sync.h>
#include <undo.h>

#include <deque>
#include <map>
#include <stdexcept>
#include <utility>

namespace core_adapter {

static_assert(BlockStore::kUndoChunk == node::UNDOFILE_CHUNK_SIZE, "Core's undo chunk");
static_assert(BlockStore::kNodeBlockChunk == node::BLOCKFILE_CHUNK_SIZE, "Core's block chunk");
static_assert(BlockStore::kNodeMaxFileSize == node::MAX_BLOCKFILE_SIZE, "Core's block file size");

struct BlockStore::Impl {
  Impl(const Options& options)
      : dir(fs::PathFromString(options.dir), /*fast_prune=*/!options.node_files),
        chain(ChainFor(options.magic)),
        key(options.key) {}
  BlocksDir dir;
  const CChainParams& chain;
  Obfuscation::KeyBytes key;
  node::BlockManager& manager() { return dir.Manager(chain, key); }
  // The index of each written block, by its position; and the parents WriteBlockUndo needs, which must
  // outlive the call only (Core keeps a pointer to the block's index, not to its parent).
  std::map<embedded::FilePos, CBlockIndex*> blocks;
};

BlockStore::BlockStore(Options options) : impl_(std::make_unique<Impl>(options)) {
  LogListener::Get();  // Core's log goes to the listener, not to the terminal
  impl_->manager();
}

BlockStore::~BlockStore() = default;

embedded::FilePos BlockStore::WriteBlock(std::span<const uint8_t> block_bytes, uint32_t height) {
  CBlock block;
  if (!SerializesExactly(
          block_bytes, [&](DataStream& s) { s >> TX_WITH_WITNESS(block); },
          [&](DataStream& s) { s << TX_WITH_WITNESS(block); })) {
    throw std::invalid_argument("BlockStore::WriteBlock: the payload is not a serialized block");
  }
  node::BlockManager& manager = impl_->manager();
  const FlatFilePos pos = CoreWriteBlock(manager, block, static_cast<int>(height));
  if (pos.IsNull()) return {};
  const embedded::FilePos at{pos.nFile, pos.nPos};
  CBlockIndex& index = impl_->dir.NewIndex();
  {
    LOCK(::cs_main);
    index.nFile = pos.nFile;
    index.nDataPos = pos.nPos;
    index.nHeight = static_cast<int>(height);
    index.nStatus |= BLOCK_HAVE_DATA;
  }
  impl_->blocks[at] = &index;
  return at;
}

embedded::FilePos BlockStore::WriteBlockUndo(std::span<const uint8_t> undo_bytes,
                                             const embedded::Hash256& prev_block_hash, const embedded::FilePos& block,
                                             uint32_t height) {
  CBlockUndo undo;
  if (!SerializesExactly(undo_bytes, [&](DataStream& s) { s >> undo; }, [&](DataStream& s) { s << undo; })) {
    throw std::invalid_argument("BlockStore::WriteBlockUndo: the payload is not a serialized CBlockUndo");
  }
  const auto it = impl_->blocks.find(block);
  if (it == impl_->blocks.end()) throw std::invalid_argument("BlockStore::WriteBlockUndo: no block written there");
  CBlockIndex& index = *it->second;
  const uint256 prev_hash = ToCore(prev_block_hash);
  CBlockIndex parent;
  parent.phashBlock = &prev_hash;
  LOCK(::cs_main);
  index.nHeight = static_cast<int>(height);
  index.pprev = &parent;
  BlockValidationState state;
  const bool written = CoreWriteBlockUndo(impl_->manager(), undo, state, index);
  index.pprev = nullptr;  // `parent` is about to go
  if (!written) return {};
  const FlatFilePos pos = index.GetUndoPos();
  return {pos.nFile, pos.nPos};
}

std::optional<std::vector<uint8_t>> BlockStore::ReadBlock(const embedded::FilePos& pos) const {
  if (pos.IsNull()) return std::nullopt;
  const auto block = ReadRaw(impl_->manager(), FlatFilePos{pos.file, pos.pos});
  if (!block) return std::nullopt;
  const auto* begin = reinterpret_cast<const uint8_t*>(block->data());
  return std::vector<uint8_t>(begin, begin + block->size());
}

std::optional<std::vector<uint8_t>> BlockStore::ReadBlockUndo(const embedded::FilePos& pos,
                                                              const embedded::Hash256& prev_block_hash) const {
  if (pos.IsNull()) return std::nullopt;
  const uint256 prev_hash = ToCore(prev_block_hash);
  CBlockIndex parent;
  parent.phashBlock = &prev_hash;
  CBlockIndex index;
  {
    LOCK(::cs_main);
    index.nFile = pos.file;
    index.nUndoPos = pos.pos;
    index.nStatus = BLOCK_HAVE_UNDO;
    index.pprev = &parent;
  }
  CBlockUndo undo;
  if (!CoreReadBlockUndo(impl_->manager(), undo, index)) return std::nullopt;
  DataStream out;
  out << undo;
  const auto* begin = reinterpret_cast<const uint8_t*>(out.data());
  return std::vector<uint8_t>(begin, begin + out.size());
}

embedded::BlockFileInfo BlockStore::Info(int file) const {
  LOCK(::cs_main);
  const auto& info = *impl_->manager().GetBlockFileInfo(static_cast<size_t>(file));
  return {info.nSize, info.nUndoSize, info.nBlocks, info.nHeightFirst, info.nHeightLast};
}

std::string BlockStore::Path(const char* prefix, int file) const {
  return fs::PathToString(impl_->dir.FilePath(prefix, file));
}

}  // namespace core_adapter
