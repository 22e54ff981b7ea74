// What a Bitcoin Core tree offers, found by feature, never by version number: a pull request branch has
// whatever mix of APIs it has. Each component asks its own questions in core/<component>_features.h; this
// file holds what they share: the way a question is written, the Core names they may ask about, and the
// questions more than one component depends on.
//
// A question is a row X(name, need, since, what, off, answer) of a component's list:
//   need    central   the component cannot run without it: `no` turns the component off (the components
//                     named in `off`, for a shared row);
//           api       a public API that only some operations, checks or targets use: `no` turns off what
//                     `off` names, and nothing else;
//           internal  a protected member or helper an adapter reads or writes through a shim (core/*_shims.h):
//                     `no` makes the shim take its public fallback, which `off` names (form:<what>);
//           change    a contract Core changed (`since` names the pull request): the adapters
//                     and the model follow whichever form the tree has; nothing turns off.
//   what    the API in C++ terms, printed by configure. `off` is space-separated kind:name tokens
//           (component:, target:, suite:, file:, op:, check:, form:), which configure prints and CMake reads
//           (component, target, suite and file tokens leave those out of the build). Plain ASCII without
//           `|` or `;`.
//   answer  a constant expression: whether the tree has it.
//
// cmake/CoreProbe.cmake compiles cmake/core_probe.cpp against the tree's headers with every list in one
// translation unit and, where that unit fails, each component's list (and the shared rows) alone, so a
// question that cannot even be asked of a tree (an unforeseen compile error) turns off that component only,
// never another, and says why. Inside one list, every question is a requirement on a template parameter
// standing for the Core class it asks about, and every class it names is declared below: a class, member,
// function or header the tree lacks is a `no`, not a compile error. The probe defines SUITE_CORE_<name> = 0
// or 1 for every row; the adapters check those against the constants below (a probe of another tree means:
// reconfigure).
#pragma once

#include <cstring>  // util/obfuscation.h uses std::memcpy without including <cstring> (master of 2026-08)

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if __has_include(<util/obfuscation.h>)
#include <util/obfuscation.h>
#endif
#if __has_include(<coins.h>)
#include <coins.h>
#endif
#if __has_include(<primitives/block.h>)
#include <primitives/block.h>
#endif
#if __has_include(<util/check.h>)
#include <util/check.h>
#endif
#include <source_location>

// Every Core class a question names, declared so that each question compiles whether or not the tree has
// the class; complete only where Core defines it. (The tag must be Core's: clang warns on a mismatch.)
class AutoFile;
class BlockValidationState;
class BufferedFile;
class CBlock;
class CBlockIndex;
class CBlockUndo;
class CChainParams;
class CCoinsView;
class CCoinsViewBacked;
class CCoinsViewCache;
class CCoinsViewDB;
class CCoinsViewErrorCatcher;
class CDBBatch;
class CDBWrapper;
class CMutableTransaction;
class COutPoint;
class CTransaction;
class CTxOut;
class Coin;
class CoinsViewEmpty;
class CoinsViewOverlay;
class FastRandomContext;
class Obfuscation;
class ThreadPool;
class TxValidationState;
class SpanReader;
class VectorWriter;
class uint256;
struct CCoinsCacheEntry;
struct CoinsViewCacheCursor;
struct CoinsViewOptions;
struct DBParams;
struct FlatFilePos;
template <typename S>
class BufferedReader;
template <typename S>
class BufferedWriter;
namespace node {
class BlockManager;
}  // namespace node
// Namespaces whose functions a question calls: declared so that the using-directives below always compile;
// a function the tree lacks is then a failed lookup at instantiation, which is a `no`.
namespace Consensus {
struct Params;
}  // namespace Consensus
namespace dbwrapper_private {}  // namespace dbwrapper_private

namespace core_features {

// Unqualified, dependent calls find these namespaces' functions where the tree has them.
using namespace ::Consensus;
using namespace ::dbwrapper_private;

// SUITE_CORE_HAS(Class, (parameters), requirement...): whether `requirement` holds for C = Class. Every name
// of C's is looked up only when the question is asked, so a missing one is a false answer.
// clang-format off
#define SUITE_CORE_HAS(Class, parameters, ...) \
  []<class C = Class>() { return requires parameters { __VA_ARGS__; }; }()
// clang-format on

template <class T>
concept Complete = requires { sizeof(T); };

// SUITE_CORE_HAS_PROTECTED(Class, requirement...): whether `requirement` holds inside a class O derived from
// Class, where Class's protected members are accessible (e.g. `&O::cacheCoins`): the question of an
// `internal` row. A final class cannot be asked this way (see core/coins_store_features.h).
#define SUITE_CORE_HAS_PROTECTED(Class, ...)                             \
  []<class C = Class>() {                                                \
    if constexpr (!::core_features::Complete<C> || std::is_final_v<C>) { \
      return false;                                                      \
    } else {                                                             \
      struct O : C {                                                     \
        static constexpr bool Has() {                                    \
          return requires { __VA_ARGS__; };                              \
        }                                                                \
      };                                                                 \
      return O::Has();                                                   \
    }                                                                    \
  }()

// SUITE_CORE_CHECK_ANSWERS(LIST): each row's SUITE_CORE_<row>, which cmake/CoreProbe.cmake defines from the
// probe's answer, equals the answer here (an `internal` row may say 0 where the tree has it: its public form
// forced), so every adapter compiles against the tree the probe asked, never a stale answer.
#define SUITE_CORE_CHECK_ANSWER(name, need, since, what, off, answer)                                              \
  static_assert(                                                                                                   \
      SUITE_CORE_##name == ::core_features::name || (std::string_view(#need) == "internal" && !SUITE_CORE_##name), \
      "SUITE_CORE_" #name " is another tree's answer: the feature probe ran on another tree; reconfigure");
#define SUITE_CORE_CHECK_ANSWERS(LIST) LIST(SUITE_CORE_CHECK_ANSWER)

// The adapters' vocabulary (core/convert.h): outpoints, coins, outputs, transactions and blocks with the
// fields converted one by one. Every component that converts asks it (`shared` rows below).
template <class Outpoint, class CoinT, class Tx, class Block>
concept Vocabulary = Complete<Outpoint> && Complete<CoinT> && Complete<Tx> && Complete<Block> &&
                     requires(Outpoint o, CoinT c, Tx tx, Block b) {
                       o.hash.ToUint256();
                       o.n;
                       c.out.nValue;
                       c.out.scriptPubKey;
                       c.nHeight;
                       c.fCoinBase;
                       c.IsSpent();
                       tx.version;
                       tx.nLockTime;
                       tx.vin.emplace_back().prevout;
                       tx.vin.back().scriptSig;
                       tx.vin.back().nSequence;
                       tx.vin.back().scriptWitness.stack;
                       tx.vout;
                       b.vtx;
                       b.hashPrevBlock;
                       b.hashMerkleRoot;
                     };

}  // namespace core_features

// The rows every component may depend on. `off` names the components a `no` turns off.
// clang-format off
#define SUITE_CORE_SHARED_FEATURES(X)                                                                              \
  X(vocabulary, central, "", "COutPoint, Coin, CTxOut, CMutableTransaction and CBlock with the fields the "       \
    "adapters convert (core/convert.h)", "component:file_io component:coins_cache component:coins_store "         \
    "component:tx_check", (core_features::Vocabulary<COutPoint, Coin, CMutableTransaction, CBlock>))              \
  X(obfuscation, central, "", "Obfuscation (util/obfuscation.h): KEY_SIZE, a key of KEY_SIZE bytes, "            \
    "operator()(bytes, offset), HexKey(), operator bool", "component:file_io component:coins_store",              \
    SUITE_CORE_HAS(Obfuscation, (const C& o, std::span<std::byte> data),                                         \
                   C(std::declval<std::span<const std::byte, C::KEY_SIZE>>()); o(data, size_t{0});               \
                   { o.HexKey() } -> std::convertible_to<std::string>; bool{o}))                                 \
  X(assertion_hook, api, "", "void assertion_fail(const std::source_location&, std::string_view) (util/check.h, " \
    "Assert and Assume, observed at link time)", "check:the-report-of-a-failed-Core-assertion",                  \
    ([]<class C = std::source_location>() {                                                                      \
      return requires(const C& loc, std::string_view text) { assertion_fail(loc, text); };                       \
    }()))                                                                                                         \
  /* new rows go above this line */
// clang-format on

namespace core_features {
#define SUITE_CORE_FEATURE_CONSTANT(name, need, since, what, off, answer) inline constexpr bool name = answer;
SUITE_CORE_SHARED_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
