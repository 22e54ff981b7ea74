// The suite's vocabulary: plain data types and wire codecs that the references, models and operation
// interpreters speak on either side of the seam. They come from the embedded subject's headers (namespace
// embedded) whichever subject is under test: a Bitcoin Core adapter converts them to Core's own types at
// its boundary (core/), so a harness never names a Bitcoin Core type.
#pragma once

#include "src/amount.h"
#include "src/coins/coin.h"
#include "src/coins/outpoint.h"
#include "src/hex.h"
#include "src/io/file_pos.h"
#include "src/serialize.h"
#include "src/tx/transaction.h"

#include <optional>
#include <stdexcept>
#include <string_view>

#if SUITE_SUBJECT_CORE
#include "core/contracts.h"
#include "core/unavailable.h"
#endif

using embedded::Block;
using embedded::BlockFileInfo;
using embedded::BlockHeader;
using embedded::Coin;
using embedded::CompactSizeLength;
using embedded::FilePos;
using embedded::Hash256;
using embedded::HexStr;
using embedded::kCoin;
using embedded::kMaxCompactSize;
using embedded::kMaxMoney;
using embedded::kNullIndex;
using embedded::kOpReturn;
using embedded::kWitnessFlag;
using embedded::kWitnessMarker;
using embedded::OutPoint;
using embedded::OutPointHasher;
using embedded::ParseBlock;
using embedded::ParseTransaction;
using embedded::ReadCompactSize;
using embedded::ReadTransaction;
using embedded::Script;
using embedded::SerializeBlock;
using embedded::SerializedSize;
using embedded::SerializeTransaction;
using embedded::SpanReader;
using embedded::Transaction;
using embedded::TxidOf;
using embedded::TxIn;
using embedded::TxOut;
using embedded::WitnessStack;
using embedded::WriteCompactSize;
using embedded::WriteLE;

namespace seam {
// A failure of the subject that some caller of its would not handle (core/contracts.h): the harness reports it
// with the operation trace. The embedded subject throws none.
#if SUITE_SUBJECT_CORE
using core_adapter::ContractBreak;
#else
class ContractBreak : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};
#endif

// Whether this build's subject is Bitcoin Core (the core flavor) rather than the embedded one, and what the
// tree under test lets the suite test, component by component (cmake/CoreProbe.cmake).
#if SUITE_SUBJECT_CORE
inline constexpr bool kSubjectIsCore = true;
inline const char* const& kSubjectTable = core_adapter::kCoreTable;
#else
inline constexpr bool kSubjectIsCore = false;
inline constexpr const char* kSubjectTable = "embedded subject: every component tested";
#endif

// For the failure report (harness/failure_report.h): the subject's name, the folder of its sources (a stack
// frame there is the subject's; nullptr: this repository's src/), and the contract of the subject call a
// stack frame names: which failures its callers handle, and the caller that would miss another (nullptr:
// none written down).
struct CallersContract {
  bool runtime_errors_handled;
  const char* missed_by;
};
#if SUITE_SUBJECT_CORE
inline constexpr const char* kSubjectName = "Bitcoin Core";
inline const char* SubjectSourceDir() { return core_adapter::kCoreSourceDir; }
inline std::optional<CallersContract> CallersOf(std::string_view function) {
  const core_adapter::CallContract* c = core_adapter::FindContract(function);
  if (c == nullptr) return std::nullopt;
  return CallersContract{c->runtime_errors_handled, c->missed_by};
}
#else
inline constexpr const char* kSubjectName = "the embedded subject";
inline const char* SubjectSourceDir() { return nullptr; }
inline std::optional<CallersContract> CallersOf(std::string_view) { return std::nullopt; }
#endif
}  // namespace seam
