#include "core/block_files.h"
#include "core/block_manager.h"
#include "core/convert.h"
#include "core/file_io.h"

#include <chain.h>
#include <consensus/validation.h>
#include <dbwrapper.h>
#include <flatfile.h>
#include <hash.h>
#include <kernel/blockmanager_opts.h>
#include <kernel/chainparams.h>
#include <kernel/cs_main.h>
#include <kernel/notifications_interface.h>
#include <logging.h>
#include <node/blockstorage.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <serialize.h>
#include <streams.h>
#include <sync.h>
#include <tinyformat.h>
#include <undo.h>
#include <util/fs.h>
#include <util/signalinterrupt.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

namespace core_adapter {

SUITE_CORE_CHECK_ANSWERS(SUITE_CORE_FILE_IO_FEATURES)
// The part's offset and size reach ReadRawBlock as size_t unchanged.
static_assert(sizeof(size_t) >= sizeof(uint64_t));

namespace {

// Starts `dir` over once Core has moved on to its third block file (`last_file` is the one it wrote last):
// its files stay small however long a fuzzer runs.
void ResetIfFull(BlocksDir& dir, int last_file) {
  if (last_file >= 2) dir.Reset();
}

// Removes the scratch directories of processes that died before they could (a crash, a killed fuzzer):
// core_block_files.<pid>.* whose pid no longer exists.
void RemoveOrphanedScratch(const std::filesystem::path& tmp) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view kPrefix = "core_block_files.";
    if (name.rfind(kPrefix, 0) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + kPrefix.size(), &end, 10);
    if (pid <= 0 || *end != '.') continue;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove_all(entry.path(), ec);
  }
}

// The scratch directory (unique per process, removed at exit, or by a later process if this one dies
// first): `read` holds the files being read, `written` the block files Core's writers fill.
class Scratch {
 public:
  static Scratch& Get() {
    static Scratch scratch;
    return scratch;
  }
  BlocksDir& read() { return *read_; }
  BlocksDir& written() { return *written_; }

 private:
  Scratch() {
    const std::filesystem::path tmp = std::filesystem::temp_directory_path();
    RemoveOrphanedScratch(tmp);
    std::string pattern = (tmp / ("core_block_files." + std::to_string(getpid()) + "." + std::string(6, 'X')))
                              .string();  // mkdtemp fills the X's in
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    root_ = fs::PathFromString(pattern);
    read_ = std::make_unique<BlocksDir>(root_ / "blocks", /*fast_prune=*/false);
    written_ = std::make_unique<BlocksDir>(root_ / "written", /*fast_prune=*/true);
    LogListener::Get();
  }
  ~Scratch() {
    read_.reset();
    written_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  fs::path root_;
  std::unique_ptr<BlocksDir> read_;
  std::unique_ptr<BlocksDir> written_;
};

// The key of the `written` directory's files. Any key would do (a record is read back through it); not
// zero, so that the writers' obfuscation runs.
constexpr Obfuscation::KeyBytes kWrittenKey{0x5e, 0xed, 0x0b, 0x10, 0xc4, 0xf1, 0x1e, 0x5a};

void Append(BufferedWriter& out, std::span<const uint8_t> bytes) {
  out.core() << Bytes(bytes);
  out.Account(bytes.size());
}

// The whole file's raw (still obfuscated) bytes; the file position is put back where it was.
std::vector<uint8_t> RawContents(AutoFile& in, uint64_t position) {
  std::FILE* f = in.handle();
  if (f == nullptr) throw IoError("ReadRecord: file handle is nullptr");
  std::vector<uint8_t> bytes;
  if (std::fseek(f, 0, SEEK_END) != 0) throw IoError("ReadRecord: fseek failed");
  const long size = std::ftell(f);
  if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0) throw IoError("ReadRecord: the file's size is unknown");
  bytes.resize(static_cast<size_t>(size));
  if (std::fread(bytes.data(), 1, bytes.size(), f) != bytes.size()) throw IoError("ReadRecord: fread failed");
  in.Seek(static_cast<int64_t>(position), SEEK_SET);
  return bytes;
}

// Copies `in` into the scratch directory as `name` and returns the BlockManager to read it with, and the
// position of the payload (the record's start plus the header) as Core's 32-bit file offset.
std::pair<const node::BlockManager*, unsigned int> Stage(AutoFile& in, const MessageStart& magic, uint32_t max_size,
                                                         const char* name, uint64_t& start) {
  if (max_size != kMaxRecordSize) {
    throw std::invalid_argument("Bitcoin Core's record reader has a fixed size limit (MAX_SIZE)");
  }
  const CChainParams& chain = ChainFor(magic);
  const auto position = in.Position();
  if (!position) throw IoError("ReadRecord: position unknown");
  if (*position + kRecordHeaderSize > UINT32_MAX) throw IoError("ReadRecord: past Core's 32-bit file offsets");
  start = *position;
  BlocksDir& dir = Scratch::Get().read();
  dir.Place(name, RawContents(in, start));
  const node::BlockManager& manager = dir.Manager(chain, in.obfuscation().key());
  LogListener::Get().Clear();
  return {&manager, static_cast<unsigned int>(start + kRecordHeaderSize)};
}

// The kind of a failure from what Core logged about it.
[[noreturn]] void Fail(const char* what) {
  const std::string log = LogListener::Get().Lines();
  const auto has = [&](const char* s) { return log.find(s) != std::string::npos; };
  FramingError::Kind kind;
  if (has("magic mismatch")) {
    kind = FramingError::Kind::kBadMagic;
  } else if (has("larger than maximum deserialization size")) {
    kind = FramingError::Kind::kTooLarge;
  } else if (has("Checksum mismatch")) {
    kind = FramingError::Kind::kBadChecksum;
  } else if (has("Read from block file failed") || has("Deserialize or I/O error")) {
    kind = FramingError::Kind::kTruncated;
  } else {
    throw IoError(std::string(what) + " failed, and Core logged no reason the adapter knows: " + log);
  }
  throw FramingError(kind, std::string(what) + ": " + log);
}

// Core's ReadRawBlock of bytes [offset, offset + size) of the payload of the block at `pos` (#33657). A bad
// range is returned, not logged: it becomes kBadRange here; other failures go through Fail. The call with a
// part is instantiated only for trees that have it.
template <class Manager>
std::vector<std::byte> ReadRawPart(const Manager& manager, const FlatFilePos& pos, uint64_t offset, uint64_t size) {
  if constexpr (core_features::raw_block_part) {
    auto part = UnderContract(
        CoreCall::kReadRawBlock, [&] { return manager.ReadRawBlock(pos, std::pair<size_t, size_t>{offset, size}); },
        [](const std::exception&) -> decltype(manager.ReadRawBlock(pos)) {
          throw std::logic_error("unreachable: ReadRawBlock's callers handle no exception");
        });
    if (part) return std::move(*part);
    using Error = std::remove_cvref_t<decltype(part.error())>;
    if (part.error() == Error::BadPartRange) {
      throw FramingError(FramingError::Kind::kBadRange, "ReadRawBlock: part [" + std::to_string(offset) + ", +" +
                                                            std::to_string(size) + ") is not inside the block");
    }
    Fail("ReadRawBlock");
  } else {
    throw std::logic_error("ReadRawBlock of this Bitcoin Core tree reads no parts of a block (#33657)");
  }
}

}  // namespace

embedded::Hash256 UndoChecksum(const embedded::Hash256& prev_block_hash, std::span<const uint8_t> payload) {
  HashWriter hasher{};
  hasher << ToCore(prev_block_hash) << Bytes(payload);
  const uint256 sum = hasher.GetHash();
  embedded::Hash256 out;
  std::copy(sum.begin(), sum.end(), out.bytes.begin());
  return out;
}

void WriteBlockRecord(BufferedWriter& out, const MessageStart& magic, std::span<const uint8_t> payload) {
  const CChainParams* chain = FindChain(magic);
  CBlock block;
  if (!kWriterTakesBlocks || chain == nullptr ||
      !SerializesExactly(
          payload, [&](DataStream& s) { s >> TX_WITH_WITNESS(block); },
          [&](DataStream& s) { s << TX_WITH_WITNESS(block); })) {
    const auto size = static_cast<unsigned int>(payload.size());
    out.core() << magic << size << Bytes(payload);
    out.Account(kRecordHeaderSize + payload.size());
    return;
  }
  BlocksDir& dir = Scratch::Get().written();
  node::BlockManager& manager = dir.Manager(*chain, kWrittenKey);
  LogListener::Get().Clear();
  const FlatFilePos pos = CoreWriteBlock(manager, block, /*height=*/0);
  if (pos.IsNull()) throw IoError("WriteBlock failed: " + LogListener::Get().Lines());
  Append(out, dir.ReadBack("blk", FlatFilePos{pos.nFile, pos.nPos - node::STORAGE_HEADER_BYTES},
                           kRecordHeaderSize + payload.size()));
  ResetIfFull(dir, pos.nFile);
}

void WriteUndoRecord(BufferedWriter& out, const MessageStart& magic, const embedded::Hash256& prev_block_hash,
                     std::span<const uint8_t> payload) {
  const CChainParams* chain = FindChain(magic);
  CBlockUndo undo;
  if (!kWriterTakesUndo || chain == nullptr ||
      !SerializesExactly(payload, [&](DataStream& s) { s >> undo; }, [&](DataStream& s) { s << undo; })) {
    const auto size = static_cast<uint32_t>(payload.size());
    out.core() << magic << size;
    HashWriter hasher{};
    hasher << ToCore(prev_block_hash) << Bytes(payload);
    out.core() << Bytes(payload) << hasher.GetHash();
    out.Account(kRecordHeaderSize + payload.size() + kChecksumSize);
    return;
  }
  BlocksDir& dir = Scratch::Get().written();
  node::BlockManager& manager = dir.Manager(*chain, kWrittenKey);
  LogListener::Get().Clear();
  // Undo data goes to the rev file numbered as its block's blk file: an (empty) block is written first.
  const FlatFilePos block_pos = CoreWriteBlock(manager, CBlock{}, /*height=*/0);
  if (block_pos.IsNull()) throw IoError("WriteBlock failed: " + LogListener::Get().Lines());
  const uint256 prev_hash = ToCore(prev_block_hash);
  CBlockIndex parent;
  parent.phashBlock = &prev_hash;
  FlatFilePos pos;
  {
    LOCK(::cs_main);
    CBlockIndex& index = dir.ReusedIndex();  // Core keeps a pointer to it
    index.nFile = block_pos.nFile;
    index.pprev = &parent;
    BlockValidationState state;
    const bool written = CoreWriteBlockUndo(manager, undo, state, index);
    index.pprev = nullptr;  // `parent` is about to go
    if (!written) throw IoError("WriteBlockUndo failed: " + state.ToString() + " " + LogListener::Get().Lines());
    pos = index.GetUndoPos();
  }
  Append(out, dir.ReadBack("rev", FlatFilePos{pos.nFile, pos.nPos - node::STORAGE_HEADER_BYTES},
                           kRecordHeaderSize + payload.size() + kChecksumSize));
  ResetIfFull(dir, block_pos.nFile);
}

void ReadBlockRecord(AutoFile& in, const MessageStart& magic, std::vector<uint8_t>& payload, uint32_t max_size) {
  uint64_t start = 0;
  const auto [manager, pos] = Stage(in, magic, max_size, "blk00000.dat", start);
  const std::optional<std::vector<std::byte>> block = ReadRaw(*manager, FlatFilePos{0, pos});
  if (!block) Fail("ReadRawBlock");
  payload.resize(block->size());
  std::copy(block->begin(), block->end(), reinterpret_cast<std::byte*>(payload.data()));
  in.Seek(static_cast<int64_t>(start + kRecordHeaderSize + block->size()), SEEK_SET);
}

void ReadBlockRecordPart(AutoFile& in, const MessageStart& magic, uint64_t offset, uint64_t size,
                         std::vector<uint8_t>& part, uint32_t max_size) {
  if constexpr (!kPartialBlockReads) {
    throw std::logic_error(
        "ReadBlockRecordPart needs Bitcoin Core's partial block reads (#33657), which this "
        "tree lacks: check kPartialBlockReads first");
  }
  uint64_t start = 0;
  const auto [manager, pos] = Stage(in, magic, max_size, "blk00000.dat", start);
  const std::vector<std::byte> bytes = ReadRawPart(*manager, FlatFilePos{0, pos}, offset, size);
  part.resize(bytes.size());
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<std::byte*>(part.data()));
  in.Seek(static_cast<int64_t>(start + kRecordHeaderSize + offset + bytes.size()), SEEK_SET);
}

void ReadUndoRecord(AutoFile& in, const MessageStart& magic, const embedded::Hash256& prev_block_hash,
                    std::vector<uint8_t>& payload, uint32_t max_size) {
  uint64_t start = 0;
  const auto [manager, pos] = Stage(in, magic, max_size, "rev00000.dat", start);
  // The block whose undo data this is, and its parent, whose hash the checksum covers.
  const uint256 prev_hash = ToCore(prev_block_hash);
  CBlockIndex parent;
  parent.phashBlock = &prev_hash;
  CBlockIndex index;
  index.pprev = &parent;
  {
    LOCK(::cs_main);
    index.nFile = 0;
    index.nUndoPos = pos;
    index.nStatus |= BLOCK_HAVE_UNDO;
  }
  CBlockUndo undo;
  if (!CoreReadBlockUndo(*manager, undo, index)) Fail("ReadBlockUndo");
  DataStream serialized;
  serialized << undo;
  payload.resize(serialized.size());
  std::copy(serialized.begin(), serialized.end(), reinterpret_cast<std::byte*>(payload.data()));
  in.Seek(static_cast<int64_t>(start + kRecordHeaderSize + payload.size() + kChecksumSize), SEEK_SET);
}

}  // namespace core_adapter
