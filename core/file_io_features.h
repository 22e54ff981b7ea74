// file_io's questions to a Bitcoin Core tree (rows as core/features.h describes them): AutoFile,
// BufferedWriter, BufferedReader and BufferedFile (streams.h), and node::BlockManager's block and undo files
// (node/blockstorage.h).
#pragma once

#include "core/features.h"

#if __has_include(<streams.h>)
#include <streams.h>
#endif
#if __has_include(<chain.h>)
#include <chain.h>
#endif
#if __has_include(<consensus/validation.h>)
#include <consensus/validation.h>
#endif
#if __has_include(<kernel/chainparams.h>)
#include <kernel/chainparams.h>
#endif
#if __has_include(<kernel/notifications_interface.h>)
#include <kernel/notifications_interface.h>
#endif
#if __has_include(<node/blockstorage.h>)
#include <node/blockstorage.h>
#endif
#if __has_include(<undo.h>)
#include <undo.h>
#endif
#if __has_include(<util/signalinterrupt.h>)
#include <util/signalinterrupt.h>
#endif

namespace util {
class SignalInterrupt;
}  // namespace util
namespace kernel {
class Notifications;
}  // namespace kernel

namespace core_features {

// A BlockManager on a blocks directory of the adapter's, as core/block_manager.cpp starts one.
template <class Manager, class Chain = CChainParams, class Interrupt = util::SignalInterrupt,
          class Notifications = kernel::Notifications, class Params = DBParams>
concept BlockManagerApi =
    Complete<Manager> && Complete<Interrupt> && Complete<Notifications> &&
    requires(const Interrupt& interrupt, const Chain& chain, Notifications& notifications, Manager& m) {
      Manager(interrupt, typename Manager::Options{
                             .chainparams = chain,
                             .fast_prune = true,
                             .blocks_dir = {},
                             .notifications = notifications,
                             .block_tree_db_params = Params{.path = {}, .cache_bytes = 1, .memory_only = true}});
      m.GetBlockFileInfo(size_t{0})->nSize;
      Chain::Main();
      Chain::RegTest({});
    };

}  // namespace core_features

// clang-format off
#define SUITE_CORE_FILE_IO_FEATURES(X)                                                                             \
  X(auto_file, central, "", "AutoFile(FILE*, Obfuscation) with read, write, write_buffer, seek, tell, ignore, "   \
    "detail_fread, fclose and IsNull", "",                                                                       \
    SUITE_CORE_HAS(AutoFile, (C& f, std::FILE* handle, Obfuscation key, std::span<std::byte> buf),              \
                   C(handle, key); f.read(buf); f.write(buf); f.write_buffer(buf);                               \
                   f.seek(int64_t{0}, SEEK_SET); { f.tell() } -> std::convertible_to<int64_t>;                   \
                   f.ignore(size_t{0}); f.detail_fread(buf);                                                     \
                   { f.fclose() } -> std::same_as<int>; { f.IsNull() } -> std::same_as<bool>))                  \
  X(auto_file_lifecycle, api, "", "AutoFile::release(), Truncate(unsigned), Commit() and size()",                \
    "op:Size op:Truncate op:Commit check:Release",                                                               \
    SUITE_CORE_HAS(AutoFile, (C& f), { f.release() } -> std::same_as<std::FILE*>;                               \
                   { f.Truncate(0u) } -> std::same_as<bool>; { f.Commit() } -> std::same_as<bool>; f.size()))  \
  X(buffered_streams, api, "", "BufferedWriter<AutoFile>(AutoFile&, size) with write and flush, and "            \
    "BufferedReader<AutoFile>(AutoFile&&, size) with read",                                                      \
    "op:BufferedWrite op:Flush op:DropWriter op:ReaderOpen op:Fail target:block_file_read suite:block_files "    \
    "file:core/block_files.cpp file:harness/block_files_tester.cpp",                                             \
    SUITE_CORE_HAS(AutoFile, (C& f, std::span<std::byte> buf), BufferedWriter<C>(f, size_t{1}).write(buf);       \
                   BufferedWriter<C>(f, size_t{1}).flush(); BufferedReader<C>(std::move(f), size_t{1}).read(buf))) \
  X(buffered_file, api, "", "BufferedFile(AutoFile&, size, rewind) with read, SkipTo, GetPos, SetPos, SetLimit, " \
    "FindByte and eof", "target:buffered_file_sim suite:buffered_file",                                          \
    SUITE_CORE_HAS(BufferedFile, (C& b, AutoFile& f, std::span<std::byte> buf),                                  \
                   C(f, uint64_t{2}, uint64_t{1}); b.read(buf); b.SkipTo(uint64_t{0}); b.GetPos();              \
                   { b.SetPos(uint64_t{0}) } -> std::same_as<bool>; { b.SetLimit(uint64_t{0}) } -> std::same_as<bool>; \
                   b.FindByte(std::byte{0}); { b.eof() } -> std::same_as<bool>))                                 \
  X(block_manager, api, "", "node::BlockManager(SignalInterrupt, Options{chainparams, fast_prune, blocks_dir, "  \
    "notifications, block_tree_db_params}) and GetBlockFileInfo", "target:block_file_read target:block_store_sim " \
    "suite:block_files suite:block_store file:core/block_files.cpp file:core/block_manager.cpp "                 \
    "file:core/block_store.cpp file:harness/block_files_tester.cpp file:harness/block_store_tester.cpp",         \
    (BlockManagerApi<node::BlockManager>))                                                                       \
  X(write_block, api, "", "FlatFilePos node::BlockManager::WriteBlock(const CBlock&, int height)",               \
    "target:block_store_sim suite:block_store file:core/block_store.cpp file:harness/block_store_tester.cpp "     \
    "check:block-records-written-by-WriteBlock",                                                                 \
    SUITE_CORE_HAS(node::BlockManager, (C& m, const CBlock& block), { m.WriteBlock(block, 0) }                  \
                                                                      -> std::same_as<FlatFilePos>))             \
  X(block_undo, api, "", "node::BlockManager::WriteBlockUndo(undo, state, index) and ReadBlockUndo(undo, index)", \
    "op:Undo check:undo-records-written-and-read-by-BlockManager",                                               \
    SUITE_CORE_HAS(node::BlockManager, (C& m, const CBlockUndo& cundo, CBlockUndo& undo,                          \
                                        BlockValidationState& state, CBlockIndex& index),                         \
                   { m.WriteBlockUndo(cundo, state, index) } -> std::same_as<bool>;                              \
                   { m.ReadBlockUndo(undo, index) } -> std::same_as<bool>))                                      \
  X(read_raw_block, api, "", "node::BlockManager::ReadRawBlock into a vector (before #33657) or returning the "  \
    "bytes (#33657)", "op:ReadAll check:block-records-read-by-ReadRawBlock",                                     \
    (SUITE_CORE_HAS(node::BlockManager, (const C& m, std::vector<std::byte>& out, const FlatFilePos& pos),       \
                    { m.ReadRawBlock(out, pos) } -> std::same_as<bool>) ||                                       \
     raw_block_part_answer))                                                                                     \
  X(raw_block_part, change, "#33657", "ReadRawBlock reads a part of a block: (offset, size), BadPartRange", "",   \
    raw_block_part_answer)                                                                                       \
  X(auto_file_handle, internal, "", "AutoFile's protected m_file", "form:FILE*-kept-by-the-adapter",             \
    SUITE_CORE_HAS_PROTECTED(AutoFile, { O::m_file } -> std::convertible_to<std::FILE*>))                        \
  X(auto_file_position, internal, "", "AutoFile's protected m_position", "form:position-read-with-tell",         \
    SUITE_CORE_HAS_PROTECTED(AutoFile, { O::m_position } -> std::convertible_to<std::optional<int64_t>>))        \
  /* new rows go above this line */
// clang-format on

namespace core_features {
// Used by two rows: ReadRawBlock returning the bytes, of the whole block or of a part (#33657).
inline constexpr bool raw_block_part_answer =
    SUITE_CORE_HAS(node::BlockManager, (const C& m, const FlatFilePos& pos),
                   { *m.ReadRawBlock(pos, std::optional<std::pair<size_t, size_t>>{std::pair<size_t, size_t>{0, 1}}) }
                   -> std::convertible_to<std::vector<std::byte>>;
                   std::remove_cvref_t<decltype(m.ReadRawBlock(pos).error())>::BadPartRange);
SUITE_CORE_FILE_IO_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
