// What the Bitcoin Core tree under test offers, found by feature (a requires expression over its headers),
// never by version number: a pull request branch based anywhere between two Core versions has whatever mix
// of their APIs it has. cmake/BitcoinCore.cmake compiles cmake/core_probe.cpp, which includes this file,
// reads each answer out of the object file and
//   - stops at configure time, naming every missing row, when a `required` row is false (the tree is older
//     than the oldest supported one, or changed an API the suite does not know yet);
//   - defines SUITE_CORE_<NAME> = 0 or 1 for every `change` row, from which the core adapters' headers
//     derive the seam's data constants (each adapter checks its constants against these answers).
// The adapters (core/*.cpp) include this file and choose a call's form with `if constexpr` on these
// constants inside templates, so the form a tree lacks is never compiled.
//
// Supported: Bitcoin Core master from 6356041e58d1 (2025-12-01) to b88bffe550a3 (2026-08-18), and branches
// based between them. SUITE_CORE_FEATURES is the one list: X(name, need, since, what, answer).
#pragma once

#include <cstring>  // util/obfuscation.h uses std::memcpy without including <cstring> (master of 2026-08)

#include <coins.h>
#include <consensus/params.h>
#include <consensus/tx_check.h>
#include <consensus/tx_verify.h>
#include <consensus/validation.h>
#include <dbwrapper.h>
#include <node/blockstorage.h>
#include <primitives/block.h>
#include <streams.h>
#include <txdb.h>
#include <undo.h>
#include <util/obfuscation.h>
#include <validation.h>
#if __has_include(<util/threadpool.h>)
#include <util/threadpool.h>
#endif

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

// Declared here so that the checks below may name them in every tree; complete only where Core has them.
class CoinsViewEmpty;
class CoinsViewOverlay;
class ThreadPool;

namespace core_features {

// Every check is a requirement on a template parameter standing for the Core class it asks about, so that
// an absent member is a false answer, not a compile error. SUITE_CORE_HAS(Class, (parameters), requirement...)
// asks whether `requirement` holds for C = Class.
#define SUITE_CORE_HAS(Class, parameters, ...) \
  []<class C = Class>() { return requires parameters { __VA_ARGS__; }; }()

template <class T>
concept Complete = requires { sizeof(T); };

// The protected state the adapter reads (entries, the flagged list's sentinel, the coins' usage counter).
template <class C>
struct Internals : C {
  static constexpr bool Check() {
    return requires(Internals& c, CoinsCachePair& p) {
      c.cacheCoins.find(p.first);
      c.m_sentinel.second.Next();
      { c.cachedCoinsUsage } -> std::convertible_to<size_t>;
    };
  }
};

template <class C, class R>
concept WritesReturn = requires(C& c, CoinsViewCacheCursor& cursor, const uint256& h) {
  { c.Flush() } -> std::same_as<R>;
  { c.Sync() } -> std::same_as<R>;
  { c.BatchWrite(cursor, h) } -> std::same_as<R>;
};

template <class Overlay, class Pool>
concept OverlayApi = Complete<Overlay> && Complete<Pool> &&
    requires(Overlay& o, const Overlay& co, CCoinsView* base, std::shared_ptr<Pool> pool, const CBlock& block,
             Pool& p) {
      Overlay(base, pool, /*deterministic=*/true);
      o.StartFetching(block);
      { co.AllInputsConsumed() } -> std::same_as<bool>;
      p.Start(1);
      p.WorkersCount();
    };

// The overlay's Sync is CCoinsViewCache's, which knows nothing of the fetchers.
template <class Overlay>
concept OverlaySyncInherited = OverlayApi<Overlay, ThreadPool> && requires {
  requires std::is_same_v<decltype(&Overlay::Sync), void (CCoinsViewCache::*)()>;
};

}  // namespace core_features

// X(name, need, since, what, answer). need: `required` (every supported tree has it), `change` (a Core
// change inside the supported range: `since` names the pull request; the answer says whether this tree has
// it) or `known_bug` (a bug the suite found in Core, written up where `since` points: the answer says
// whether the tree still has the code it lives in; its check is then marked known-failing). `what` is
// printed by configure; plain ASCII without semicolons. One row per API the adapters call, so that a
// missing one is named.
#define SUITE_CORE_FEATURES(X)                                                                                     \
  X(cache_constructor, required, "", "CCoinsViewCache(CCoinsView* base, bool deterministic)",                    \
    SUITE_CORE_HAS(CCoinsViewCache, (CCoinsView* base), C(base, true)))                                          \
  X(cache_get_coin, required, "", "std::optional<Coin> CCoinsViewCache::GetCoin(const COutPoint&) const",        \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                                            \
                   { c.GetCoin(o) } -> std::same_as<std::optional<Coin>>))                                       \
  X(cache_have_coin, required, "", "bool CCoinsViewCache::HaveCoin(const COutPoint&) const",                     \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o), { c.HaveCoin(o) } -> std::same_as<bool>))  \
  X(cache_have_coin_in_cache, required, "", "bool CCoinsViewCache::HaveCoinInCache(const COutPoint&) const",     \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                                            \
                   { c.HaveCoinInCache(o) } -> std::same_as<bool>))                                              \
  X(cache_access_coin, required, "", "const Coin& CCoinsViewCache::AccessCoin(const COutPoint&) const",          \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const COutPoint& o),                                            \
                   { c.AccessCoin(o) } -> std::same_as<const Coin&>))                                            \
  X(cache_add_coin, required, "", "CCoinsViewCache::AddCoin(const COutPoint&, Coin&&, bool possible_overwrite)", \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o, Coin coin), c.AddCoin(o, std::move(coin), true))) \
  X(cache_spend_coin, required, "", "bool CCoinsViewCache::SpendCoin(const COutPoint&, Coin* moveto)",           \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o, Coin* out), { c.SpendCoin(o, out) }              \
                                                                             -> std::same_as<bool>))             \
  X(cache_uncache, required, "", "CCoinsViewCache::Uncache(const COutPoint&)",                                   \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const COutPoint& o), c.Uncache(o)))                                   \
  X(cache_best_block, required, "", "CCoinsViewCache::SetBestBlock(const uint256&) and GetBestBlock()",          \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const uint256& h), c.SetBestBlock(h);                                \
                   { c.GetBestBlock() } -> std::same_as<uint256>))                                               \
  X(cache_sizes, required, "", "CCoinsViewCache::GetCacheSize() and DynamicMemoryUsage()",                       \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), c.GetCacheSize();                                              \
                   { c.DynamicMemoryUsage() } -> std::same_as<size_t>))                                          \
  X(cache_sanity_check, required, "", "CCoinsViewCache::SanityCheck() const",                                    \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), c.SanityCheck()))                                              \
  X(cache_internals, required, "", "CCoinsViewCache's protected cacheCoins, m_sentinel and cachedCoinsUsage",    \
    Internals<CCoinsViewCache>::Check())                                                                         \
  X(cache_cursor, required, "", "CoinsViewCacheCursor: Begin(), End(), NextAndMaybeErase(pair), WillErase(pair)", \
    SUITE_CORE_HAS(CoinsViewCacheCursor, (C& cursor, CoinsCachePair& p),                                         \
                   { cursor.Begin() } -> std::same_as<CoinsCachePair*>;                                          \
                   { cursor.End() } -> std::same_as<CoinsCachePair*>;                                            \
                   { cursor.NextAndMaybeErase(p) } -> std::same_as<CoinsCachePair*>;                             \
                   { cursor.WillErase(p) } -> std::same_as<bool>))                                               \
  X(cache_entry_flags, required, "", "CCoinsCacheEntry: SetDirty, SetFresh, IsDirty, IsFresh, Next, Prev",       \
    SUITE_CORE_HAS(CCoinsCacheEntry, (const C& e, CoinsCachePair& p), C::SetDirty(p, p); C::SetFresh(p, p);      \
                   { e.IsDirty() } -> std::same_as<bool>; { e.IsFresh() } -> std::same_as<bool>;                 \
                   { e.Next() } -> std::same_as<CoinsCachePair*>; { e.Prev() } -> std::same_as<CoinsCachePair*>)) \
  X(cache_emplace, required, "", "CCoinsViewCache::EmplaceCoinInternalDANGER(COutPoint&& or const COutPoint&, " \
    "Coin&&)", SUITE_CORE_HAS(CCoinsViewCache, (C& c, Coin coin), c.EmplaceCoinInternalDANGER(COutPoint{}, std::move(coin)))) \
  X(cache_have_inputs, required, "", "bool CCoinsViewCache::HaveInputs(const CTransaction&) const",            \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const CTransaction& tx), { c.HaveInputs(tx) } -> std::same_as<bool>)) \
  X(cache_backed_store_reads, required, "", "CCoinsViewCache::GetHeadBlocks() and EstimateSize() (CCoinsViewBacked)", \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c), { c.GetHeadBlocks() } -> std::same_as<std::vector<uint256>>;   \
                   { c.EstimateSize() } -> std::same_as<size_t>))                                                \
  X(add_coins, required, "", "void AddCoins(CCoinsViewCache&, const CTransaction&, int height, bool check)",     \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c, const CTransaction& tx), AddCoins(c, tx, 0, true)))                   \
  X(access_by_txid, required, "", "const Coin& AccessByTxid(const CCoinsViewCache&, const Txid&)",             \
    SUITE_CORE_HAS(CCoinsViewCache, (const C& c, const Txid& txid), { AccessByTxid(c, txid) } -> std::same_as<const Coin&>)) \
  X(error_catcher, required, "", "CCoinsViewErrorCatcher(CCoinsView*) with AddReadErrCallback, GetCoin and "    \
    "HaveCoin", SUITE_CORE_HAS(CCoinsViewErrorCatcher, (C& c, CCoinsView* base, const COutPoint& o),             \
                              C(base); c.AddReadErrCallback([] {}); c.GetCoin(o); c.HaveCoin(o)))                 \
  X(batch_write, required, "", "CCoinsViewCache::BatchWrite, Flush and Sync returning bool (before #33866) "     \
    "or void (#33866)", (WritesReturn<CCoinsViewCache, bool> || WritesReturn<CCoinsViewCache, void>))            \
  X(db_view, required, "", "CCoinsViewDB(DBParams, CoinsViewOptions{batch_write_bytes}) and DBParams{path, "    \
    "cache_bytes, memory_only, wipe_data, obfuscate}",                                                           \
    SUITE_CORE_HAS(CCoinsViewDB, (DBParams params),                                                              \
                   C(std::move(params), CoinsViewOptions{.batch_write_bytes = 1});                               \
                   DBParams{.path = {}, .cache_bytes = 1, .memory_only = true, .wipe_data = false,               \
                            .obfuscate = true}))                                                                 \
  X(db_reads, required, "", "CCoinsViewDB::GetCoin, HaveCoin, GetBestBlock, GetHeadBlocks and EstimateSize",     \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db, const COutPoint& o), db.GetCoin(o); db.HaveCoin(o);               \
                   db.GetBestBlock(); { db.GetHeadBlocks() } -> std::same_as<std::vector<uint256>>;              \
                   { db.EstimateSize() } -> std::same_as<size_t>))                                               \
  X(db_batch_write, required, "", "CCoinsViewDB::BatchWrite(CoinsViewCacheCursor&, const uint256&)",             \
    SUITE_CORE_HAS(CCoinsViewDB, (C& db, CoinsViewCacheCursor& cursor, const uint256& h), db.BatchWrite(cursor, h))) \
  X(db_cursor, required, "", "CCoinsViewDB::Cursor() with Valid, GetKey, GetValue, Next and GetBestBlock",       \
    SUITE_CORE_HAS(CCoinsViewDB, (const C& db, COutPoint& o, Coin& coin),                                        \
                   { db.Cursor()->Valid() } -> std::same_as<bool>; db.Cursor()->GetKey(o);                        \
                   db.Cursor()->GetValue(coin); db.Cursor()->Next(); db.Cursor()->GetBestBlock()))              \
  X(db_obfuscation, required, "", "dbwrapper_private::GetObfuscation(const CDBWrapper&) applied to bytes",        \
    SUITE_CORE_HAS(CDBWrapper, (const C& db, std::span<std::byte> bytes),                                        \
                   dbwrapper_private::GetObfuscation(db)(bytes, size_t{0})))                                     \
  X(obfuscation, required, "", "Obfuscation (util/obfuscation.h): KEY_SIZE, a key of KEY_SIZE bytes, "          \
    "operator()(bytes, offset), HexKey(), operator bool",                                                        \
    SUITE_CORE_HAS(Obfuscation, (const C& o, std::span<std::byte> data),                                         \
                   C(std::declval<std::span<const std::byte, C::KEY_SIZE>>()); o(data, size_t{0});               \
                   { o.HexKey() } -> std::convertible_to<std::string>; bool{o}))                                 \
  X(auto_file, required, "", "AutoFile(FILE*, Obfuscation) with read, write, write_buffer, seek, ignore, "       \
    "fclose and IsNull",                                                                                         \
    SUITE_CORE_HAS(AutoFile, (C& f, std::FILE* handle, Obfuscation key, std::span<std::byte> buf),        \
                   C(handle, key); f.read(buf); f.write(buf); f.write_buffer(buf);                       \
                   f.seek(int64_t{0}, SEEK_SET); f.ignore(size_t{0}); { f.fclose() } -> std::same_as<int>;       \
                   { f.IsNull() } -> std::same_as<bool>))                                                        \
  X(auto_file_lifecycle, required, "", "AutoFile::release(), Truncate(unsigned), Commit() and size()",           \
    SUITE_CORE_HAS(AutoFile, (C& f), { f.release() } -> std::same_as<std::FILE*>;                               \
                   { f.Truncate(0u) } -> std::same_as<bool>; { f.Commit() } -> std::same_as<bool>; f.size()))  \
  X(buffered_file, required, "", "BufferedFile(AutoFile&, size, rewind) with read, SkipTo, GetPos, SetPos, "    \
    "SetLimit, FindByte and eof",                                                                                \
    SUITE_CORE_HAS(BufferedFile, (C& b, AutoFile& f, std::span<std::byte> buf),                                  \
                   C(f, uint64_t{2}, uint64_t{1}); b.read(buf); b.SkipTo(uint64_t{0}); b.GetPos();              \
                   { b.SetPos(uint64_t{0}) } -> std::same_as<bool>; { b.SetLimit(uint64_t{0}) } -> std::same_as<bool>; \
                   b.FindByte(std::byte{0}); { b.eof() } -> std::same_as<bool>))                                 \
  X(buffered_streams, required, "", "BufferedWriter<AutoFile>(AutoFile&, size) and "                             \
    "BufferedReader<AutoFile>(AutoFile&&, size)",                                                                \
    SUITE_CORE_HAS(AutoFile, (C& f), BufferedWriter<C>(f, size_t{1}); BufferedReader<C>(std::move(f), size_t{1}))) \
  X(write_block, required, "", "FlatFilePos node::BlockManager::WriteBlock(const CBlock&, int height)",          \
    SUITE_CORE_HAS(node::BlockManager, (C& m, const CBlock& block), { m.WriteBlock(block, 0) }                  \
                                                                      -> std::same_as<FlatFilePos>))             \
  X(block_undo, required, "", "node::BlockManager::WriteBlockUndo(undo, state, index) and "                      \
    "ReadBlockUndo(undo, index)",                                                                                \
    SUITE_CORE_HAS(node::BlockManager, (C& m, const CBlockUndo& cundo, CBlockUndo& undo,                          \
                                        BlockValidationState& state, CBlockIndex& index),                         \
                   { m.WriteBlockUndo(cundo, state, index) } -> std::same_as<bool>;                              \
                   { m.ReadBlockUndo(undo, index) } -> std::same_as<bool>))                                      \
  X(read_raw_block, required, "", "node::BlockManager::ReadRawBlock into a vector (before #33657) or "           \
    "returning the bytes of the block or of a part of it (#33657)",                                              \
    (SUITE_CORE_HAS(node::BlockManager, (const C& m, std::vector<std::byte>& out, const FlatFilePos& pos),        \
                    { m.ReadRawBlock(out, pos) } -> std::same_as<bool>) ||                                       \
     raw_block_part_answer))                                                                                     \
  X(check_transaction, required, "", "bool CheckTransaction(const CTransaction&, TxValidationState&)",           \
    SUITE_CORE_HAS(CTransaction, (const C& tx, TxValidationState& state),                                        \
                   { CheckTransaction(tx, state) } -> std::same_as<bool>))                                       \
  X(check_block, required, "", "bool CheckBlock(const CBlock&, BlockValidationState&, const Consensus::Params&, " \
    "bool, bool)",                                                                                               \
    SUITE_CORE_HAS(CBlock, (const C& block, BlockValidationState& state, const Consensus::Params& params),        \
                   { CheckBlock(block, state, params, false, false) } -> std::same_as<bool>))                    \
  X(check_tx_inputs, required, "", "bool Consensus::CheckTxInputs(tx, state, const CCoinsViewCache&, height, fee)", \
    SUITE_CORE_HAS(CTransaction, (const C& tx, TxValidationState& state, const CCoinsViewCache& view, CAmount& fee), \
                   { Consensus::CheckTxInputs(tx, state, view, 0, fee) } -> std::same_as<bool>))                  \
  X(void_batch_write, change, "#33866", "BatchWrite, Flush and Sync return void: a refused batch is an exception", \
    (WritesReturn<CCoinsViewCache, void>))                                                                         \
  X(abstract_coins_view, change, "#34124", "CCoinsView is pure virtual, CoinsViewEmpty is the empty view",        \
    (std::is_abstract_v<CCoinsView> && Complete<CoinsViewEmpty>))                                                  \
  X(peek_coin, change, "#34165", "CCoinsView::PeekCoin: a lookup that caches nothing at any level",               \
    SUITE_CORE_HAS(CCoinsView, (const C& v, const COutPoint& o), { v.PeekCoin(o) } -> std::same_as<std::optional<Coin>>)) \
  X(dirty_count, change, "#33512", "CCoinsViewCache::GetDirtyCount: a counter of DIRTY entries, checked by "      \
    "SanityCheck", SUITE_CORE_HAS(CCoinsViewCache, (const C& c), { c.GetDirtyCount() } -> std::same_as<size_t>))   \
  X(reset_guard, change, "#34164", "CCoinsViewCache::Reset through CreateResetGuard: one view reused per block",  \
    SUITE_CORE_HAS(CCoinsViewCache, (C& c), c.CreateResetGuard()))                                               \
  X(coins_view_overlay, change, "#34165 #35295", "CoinsViewOverlay: StartFetching a block's prevouts on a "       \
    "ThreadPool", (OverlayApi<CoinsViewOverlay, ThreadPool>))                                                     \
  X(cursor_on_db_only, change, "#35572", "Cursor() exists only on CCoinsViewDB, not on CCoinsView",               \
    (!SUITE_CORE_HAS(CCoinsView, (const C& v), v.Cursor())))                                                       \
  X(raw_block_part, change, "#33657", "ReadRawBlock reads a part of a block: (offset, size), BadPartRange",       \
    raw_block_part_answer)                                                                                         \
  X(writer_failed_flush, known_bug, "docs/core-bugs.md#writer-failed-flush", "BufferedWriter keeps a buffer "  \
    "whose flush failed, obfuscated in place, and writes it again from its noexcept destructor",              \
    std::is_nothrow_destructible_v<BufferedWriter<AutoFile>>)                                                    \
  X(overlay_sync_races, known_bug, "docs/core-bugs.md#overlay-sync", "CoinsViewOverlay has no Sync of its own: "  \
    "CCoinsViewCache::Sync writes the base while the fetchers read it", OverlaySyncInherited<CoinsViewOverlay>)

namespace core_features {
// Used by two rows: ReadRawBlock returning the bytes, of the whole block or of a part (#33657).
inline constexpr bool raw_block_part_answer = SUITE_CORE_HAS(
    node::BlockManager, (const C& m, const FlatFilePos& pos),
    { *m.ReadRawBlock(pos, std::optional<std::pair<size_t, size_t>>{std::pair<size_t, size_t>{0, 1}}) }
        -> std::convertible_to<std::vector<std::byte>>;
    std::remove_cvref_t<decltype(m.ReadRawBlock(pos).error())>::BadPartRange);
}  // namespace core_features

namespace core_features {
#define SUITE_CORE_FEATURE_CONSTANT(name, need, since, what, answer) inline constexpr bool name = answer;
SUITE_CORE_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
#undef SUITE_CORE_FEATURE_CONSTANT
}  // namespace core_features
