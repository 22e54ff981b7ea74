#include "core/tx_check.h"
#include "core/convert.h"
#include "core/coins_cache_features.h"
#include "core/coins_view_members.h"
#include "core/tx_check_features.h"
#include "core/unavailable.h"

#include <algorithm>
#include <ios>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <coins.h>
#include <consensus/amount.h>
#include <consensus/tx_check.h>
#include <consensus/tx_verify.h>
#include <consensus/validation.h>
#include <kernel/chainparams.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <serialize.h>
#include <streams.h>
#include <uint256.h>
#include <validation.h>

namespace core_adapter {
namespace {

SUITE_CORE_CHECK_ANSWERS(SUITE_CORE_TX_CHECK_FEATURES)

// Core's reject reason → the shared Reject value whose Reason() is that string.
embedded::Reject FromReason(const std::string& reason) {
  static const std::map<std::string, embedded::Reject, std::less<>> known = [] {
    std::map<std::string, embedded::Reject, std::less<>> m;
    for (uint8_t id = 1; id < embedded::kRejectCount; ++id) {
      const auto r = static_cast<embedded::Reject>(id);
      m.emplace(embedded::Reason(r), r);
    }
    return m;
  }();
  const auto it = known.find(reason);
  if (it == known.end()) {
    throw std::logic_error("Bitcoin Core rejected with '" + reason +
                           "', a reason the seam's Reject (src/tx/reject.h) does not name");
  }
  return it->second;
}

// The transaction Core's CheckBlock debug message names: "Transaction check failed (tx hash <txid>) ...".
// Identical transactions share a txid and a verdict, and Core stops at the first failing one, so the first
// transaction with that txid is the one.
size_t TxNamedBy(const CBlock& block, const std::string& debug) {
  constexpr std::string_view kTag = "tx hash ";
  const size_t at = debug.find(kTag);
  if (at != std::string::npos) {
    const std::string hex = debug.substr(at + kTag.size(), 64);
    for (size_t i = 0; i < block.vtx.size(); ++i) {
      if (block.vtx[i]->GetHash().ToString() == hex) return i;
    }
  }
  throw std::logic_error("Bitcoin Core's CheckBlock debug message names no transaction of the block: '" + debug + "'");
}

size_t OffendingTx(const CBlock& block, embedded::Reject reject, const std::string& debug) {
  switch (reject) {
    case embedded::Reject::kBlkLength:
    case embedded::Reject::kBlkSigops: return embedded::BlockCheck::kNoTx;
    case embedded::Reject::kCbMissing: return 0;
    case embedded::Reject::kCbMultiple:
      for (size_t i = 1; i < block.vtx.size(); ++i) {
        if (block.vtx[i]->IsCoinBase()) return i;
      }
      throw std::logic_error("Bitcoin Core's CheckBlock reported bad-cb-multiple without a second coinbase");
    default: return TxNamedBy(block, debug);
  }
}

// ConnectBlock's input check (see CheckBlock in the header). A prevout gets its coin from the first
// transaction that spends it: the first input of each transaction whose prevouts are all new carries the
// transaction's output total, so an honest spend passes every value rule and only a missing or already
// spent input fails. A prevout already present belongs to an earlier spender, so that transaction fails
// at HaveInputs before its values are looked at.
template <class Cache = ::CCoinsViewCache>
embedded::BlockCheck CheckSpends(const CBlock& block) {
  Cache view(members::EmptyView(), /*deterministic=*/true);
  constexpr int kCoinHeight = 1;
  constexpr int kSpendHeight = 2;
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    const CTransaction& tx = *block.vtx[i];
    CAmount value = tx.GetValueOut();
    for (const CTxIn& in : tx.vin) {
      if (view.HaveCoin(in.prevout)) continue;
      view.AddCoin(in.prevout, Coin(CTxOut(value, CScript()), kCoinHeight, /*fCoinBaseIn=*/false),
                   /*possible_overwrite=*/false);
      value = 0;
    }
  }
  for (size_t i = 1; i < block.vtx.size(); ++i) {
    const CTransaction& tx = *block.vtx[i];
    TxValidationState state;
    CAmount fee = 0;
    // Consensus::CheckTxInputs, looked up when the template is instantiated (only where the tree has it).
    using namespace ::Consensus;
    if (!CheckTxInputs(tx, state, view, kSpendHeight, fee)) return {FromReason(state.GetRejectReason()), i};
    // CheckTxInputs found every input's coin, so each spend must succeed: ConnectBlock's UpdateCoins asserts
    // it does. Only an input spent twice in one transaction, which CheckBlock rejects, can fail here.
    for (const CTxIn& in : tx.vin) {
      if (!view.SpendCoin(in.prevout)) {
        throw std::logic_error("Bitcoin Core's SpendCoin of an input of transaction " + std::to_string(i) +
                               " returned false after CheckTxInputs accepted it (ConnectBlock's UpdateCoins "
                               "asserts here): an input spent twice that CheckBlock let through");
      }
    }
  }
  return {};
}

template <class Chain = ::CChainParams>
const Consensus::Params& ConsensusParams() {
  static const std::unique_ptr<const Chain> params = Chain::Main();
  return params->GetConsensus();
}

}  // namespace

embedded::Reject CheckTransaction(const embedded::Transaction& tx) {
  const CTransaction core(ToCore(tx));
  TxValidationState state;
  if (::CheckTransaction(core, state)) return embedded::Reject::kNone;
  if (state.GetResult() != TxValidationResult::TX_CONSENSUS) {
    throw std::logic_error("Bitcoin Core's CheckTransaction failed with a non-consensus result: " + state.ToString());
  }
  return FromReason(state.GetRejectReason());
}

embedded::BlockCheck CheckBlock(const embedded::Block& block) {
  const CBlock core = ToCore(block);
  return IfTreeHas<SUITE_CORE_check_block, embedded::BlockCheck>("CheckBlock", core, [](const auto& b) {
    BlockValidationState state;
    if (!CheckBlock(b, state, ConsensusParams(), /*fCheckPOW=*/false, /*fCheckMerkleRoot=*/false)) {
      const embedded::Reject reject = FromReason(state.GetRejectReason());
      return embedded::BlockCheck{reject, OffendingTx(b, reject, state.GetDebugMessage())};
    }
    if constexpr (SUITE_CORE_check_tx_inputs) return CheckSpends(b);
    return embedded::BlockCheck{};  // seam::kBlockSpendCheck is false: the reference skips that rule too
  });
}

bool ParseTransactionSubject(std::span<const uint8_t> bytes, embedded::Transaction& tx, std::string* error) {
  CMutableTransaction core;
  return IfTreeHas<SUITE_CORE_tx_codec, bool>("TX_WITH_WITNESS through SpanReader", core, [&](auto& parsed) {
    Later<decltype(parsed), SpanReader> reader(bytes);
    try {
      reader >> TX_WITH_WITNESS(parsed);
    } catch (const std::ios_base::failure& e) {
      if (error != nullptr) *error = e.what();
      return false;
    }
    if (!reader.empty()) {
      if (error != nullptr) *error = "bytes after the end of the object: " + std::to_string(reader.size());
      return false;
    }
    tx = FromCore(parsed);
    return true;
  });
}

void SerializeTransactionSubject(std::vector<uint8_t>& out, const embedded::Transaction& tx) {
  IfTreeHas<SUITE_CORE_tx_codec, void>("TX_WITH_WITNESS through VectorWriter", out, [&](auto& bytes) {
    Later<decltype(bytes), VectorWriter> writer(bytes, bytes.size());
    writer << TX_WITH_WITNESS(ToCore(tx));
  });
}

}  // namespace core_adapter
