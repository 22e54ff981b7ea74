// What Bitcoin Core's own callers rely on when a call the adapters make fails (docs/semantics.md, "Failure
// contracts", which gives the callers function by function): a failure form every caller handles is
// accepted, and the adapter maps it to the seam's failure form; an exception that some caller would miss is
// a finding, thrown as ContractBreak naming the call, the exception and that caller. The harness reports it
// with the input and the operation trace.
//
// X(name, call, runtime_errors_handled, missed_by):
//   runtime_errors_handled  every caller catches std::runtime_error (std::ios_base::failure, dbwrapper_error and
//                           std::filesystem::filesystem_error are runtime errors) where this call fails;
//                           another exception type, or any exception where false, is a break;
//   missed_by               the caller (file: function) that would miss the exception a break names.
// Only exceptions are judged here: the return values the callers check (a null position, false) are the
// calls' ordinary failure forms, and a destructor that ends the process on the way out (std::terminate) is
// no exception anyone can catch (it is a crash, and a known bug where written up: harness/known_bugs.h).
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>

#include "core/unavailable.h"

// clang-format off
#define SUITE_CORE_CALL_CONTRACTS(X)                                                                               \
  X(kWriteBlock, "node::BlockManager::WriteBlock", true,                                                         \
    "validation.cpp: ChainstateManager::AcceptBlock (its catch is for std::runtime_error only; anything else "   \
    "reaches ProcessNewBlock's callers, and crosses the C API from btck_chainstate_manager_process_block)")      \
  X(kWriteBlockUndo, "node::BlockManager::WriteBlockUndo", false,                                                \
    "validation.cpp: Chainstate::ConnectBlock (no catch there, in ConnectTip or ActivateBestChainStep: "         \
    "std::terminate where ProcessGetData or the initload thread connected the block, an abort mid-reorg)")       \
  X(kReadRawBlock, "node::BlockManager::ReadRawBlock", false,                                                    \
    "net_processing.cpp: PeerManagerImpl::ProcessGetBlockData (reached from ProcessGetData outside "             \
    "ProcessMessages' try: std::terminate on the message handler thread)")                                       \
  X(kReadBlockUndo, "node::BlockManager::ReadBlockUndo", false,                                                  \
    "validation.cpp: Chainstate::DisconnectBlock (no catch up to ActivateBestChain's callers; index/base.cpp: "  \
    "BaseIndex::ProcessBlock, std::terminate on the index thread)")                                              \
  /* new calls go above this line */
// clang-format on

namespace core_adapter {

#define SUITE_CORE_CALL_ENUMERATOR_(e, ...) e,
enum class CoreCall { SUITE_CORE_CALL_CONTRACTS(SUITE_CORE_CALL_ENUMERATOR_) };
#undef SUITE_CORE_CALL_ENUMERATOR_

// A failure of a Core call that some caller of Core's would not handle.
class ContractBreak : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct CallContract {
  const char* call;
  bool runtime_errors_handled;
  const char* missed_by;
};

inline const CallContract& ContractOf(CoreCall call) {
#define SUITE_CORE_CALL_ROW_(e, name, handled, missed) CallContract{name, handled, missed},
  static const CallContract kContracts[] = {SUITE_CORE_CALL_CONTRACTS(SUITE_CORE_CALL_ROW_)};
#undef SUITE_CORE_CALL_ROW_
  return kContracts[static_cast<int>(call)];
}

// The C++ name of `e`'s type.
inline std::string TypeName(const std::exception& e) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status),
                                                    std::free);
  return status == 0 && name ? name.get() : typeid(e).name();
}

// The contract of the Core call a stack frame names (`function`, as the symbolizer prints it: qualified, with
// its parameters), or nullptr where none is written down.
inline const CallContract* FindContract(std::string_view function) {
#define SUITE_CORE_CALL_FIND_(e, ...) CoreCall::e,
  for (const CoreCall call : {SUITE_CORE_CALL_CONTRACTS(SUITE_CORE_CALL_FIND_)}) {
    const CallContract& c = ContractOf(call);
    const std::string_view name = c.call;
    if (function.substr(0, name.size()) == name && (function.size() == name.size() || function[name.size()] == '(')) {
      return &c;
    }
  }
#undef SUITE_CORE_CALL_FIND_
  return nullptr;
}

// f(), the Core call alone, with an exception that leaves it judged by `call`'s contract: one every caller
// handles is passed to `accepted` (whose result is returned: the adapter's failure form); any other becomes
// a ContractBreak. (Unavailable is the adapter's own: it passes.)
template <typename F, typename Accepted>
decltype(auto) UnderContract(CoreCall call, F&& f, Accepted&& accepted) {
  const CallContract& contract = ContractOf(call);
  const auto breaks = [&](const std::exception& e) {
    return ContractBreak(std::string(contract.call) + " let " + TypeName(e) + " (\"" + e.what() + "\") escape, but " +
                         contract.missed_by + " does not catch it");
  };
  try {
    return f();
  } catch (const std::runtime_error& e) {
    if (!contract.runtime_errors_handled) throw breaks(e);
    return accepted(e);
  } catch (const Unavailable&) {
    throw;
  } catch (const ContractBreak&) {
    throw;
  } catch (const std::exception& e) {
    throw breaks(e);
  }
}

}  // namespace core_adapter
