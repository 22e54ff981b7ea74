// tx_check's questions to a Bitcoin Core tree (rows as core/features.h describes them): CheckTransaction,
// CheckBlock, Consensus::CheckTxInputs and the transaction codec.
#pragma once

#include "core/coins_view_members.h"
#include "core/features.h"

#if __has_include(<consensus/tx_check.h>)
#include <consensus/tx_check.h>
#endif
#if __has_include(<consensus/tx_verify.h>)
#include <consensus/tx_verify.h>
#endif
#if __has_include(<consensus/validation.h>)
#include <consensus/validation.h>
#endif
#if __has_include(<streams.h>)
#include <streams.h>
#endif
#if __has_include(<kernel/chainparams.h>)
#include <kernel/chainparams.h>
#endif
#if __has_include(<validation.h>)
#include <validation.h>
#endif

namespace core_features {
template <class Block, class State, class Chain>
concept CheckBlockApi = requires(const Block& block, State& state) {
  { CheckBlock(block, state, Chain::Main()->GetConsensus(), false, false) } -> std::same_as<bool>;
  { state.GetRejectReason() } -> std::convertible_to<std::string>;
  { state.GetDebugMessage() } -> std::convertible_to<std::string>;
};
// ConnectBlock's spend check as core/tx_check.cpp runs it: a cache on the tree's empty view, filled by AddCoin
// and emptied by SpendCoin around Consensus::CheckTxInputs.
template <class Tx, class Cache, class View = CCoinsView, class CoinT = Coin, class Outpoint = COutPoint>
concept SpendCheckApi = Complete<Cache> && core_adapter::members::kHasEmptyView<View> &&
                        requires(const Tx& tx, TxValidationState& state, Cache& cache, View* base, const Outpoint& o,
                                 CoinT coin, int64_t& fee) {
                          Cache(base, true);
                          cache.HaveCoin(o);
                          cache.AddCoin(o, std::move(coin), false);
                          cache.SpendCoin(o);
                          { CheckTxInputs(tx, state, cache, 0, fee) } -> std::same_as<bool>;
                        };
}  // namespace core_features

// clang-format off
#define SUITE_CORE_TX_CHECK_FEATURES(X)                                                                            \
  X(check_transaction, central, "", "bool CheckTransaction(const CTransaction&, TxValidationState&) with "       \
    "GetRejectReason()", "",                                                                                     \
    SUITE_CORE_HAS(CTransaction, (const C& tx, TxValidationState& state),                                        \
                   { CheckTransaction(tx, state) } -> std::same_as<bool>;                                        \
                   { state.GetRejectReason() } -> std::convertible_to<std::string>))                             \
  X(tx_codec, api, "", "TX_WITH_WITNESS through SpanReader (>> CMutableTransaction) and VectorWriter (<<)",      \
    "check:Core's-transaction-codec",                                                                            \
    SUITE_CORE_HAS(CMutableTransaction, (C& tx, std::span<const unsigned char> in, std::vector<unsigned char>& out), \
                   SpanReader(in) >> TX_WITH_WITNESS(tx); VectorWriter(out, size_t{0}) << TX_WITH_WITNESS(tx)))  \
  X(check_block, api, "", "bool CheckBlock(const CBlock&, BlockValidationState&, const Consensus::Params&, bool, " \
    "bool) and CChainParams::Main()", "target:block_check_diff check:blocks",                                    \
    (CheckBlockApi<CBlock, BlockValidationState, CChainParams>))                                                 \
  X(check_tx_inputs, api, "", "bool Consensus::CheckTxInputs(tx, state, const CCoinsViewCache&, height, fee) "   \
    "over a CCoinsViewCache on the empty view (CoinsViewEmpty, or CCoinsView where it is not abstract)",         \
    "check:spends-across-a-block's-transactions",                                                                \
    (SpendCheckApi<CTransaction, CCoinsViewCache>))                                                           \
  /* new rows go above this line */
// clang-format on

namespace core_features {
SUITE_CORE_TX_CHECK_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
