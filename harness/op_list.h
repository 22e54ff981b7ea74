// Operation lists declared once. A tester writes its operations (or any enumerated choice a fuzz input
// makes) as one X-macro, a line per value, closed by a comment line so that adding a value adds one line
// (every line but the last ends in a backslash):
//
//   #define HARNESS_PREVECTOR_OPS(X)
//     X(kInsert, 0, "Insert", kPos | kValue)  /* insert(pos, value) */
//     ...
//     /* new values go above this line, with the next id */
//
//   X(enumerator, id, name[, column])
//     id      the value's number: it never changes, and a new value takes the next free id;
//     name    what ToString returns: failure traces print it, dictionary tokens are named after it;
//     column  optional: one constant expression of the tester's choosing (usually a mask of the step fields
//             the operation reads), evaluated only where HARNESS_OP_COLUMN expands, so its names need to
//             be in scope only there.
//
//   HARNESS_OP_ENUM(Corruption, kCorruptionCount, HARNESS_CORRUPTIONS)
//
// declares `enum class Corruption : uint8_t { ... }`, `kCorruptionCount` and `constexpr const char*
// ToString(Corruption)` ("unknown" for a value outside the list), and does not compile unless the ids are
// 0, 1, ..., count - 1 in list order (so an id is also the index into every table built from the list).
// HARNESS_OP_COLUMN(LIST) is the column as an array initializer in id order; OpColumn reads such an array
// for one value.
//
// An operation list, the list a fuzz input's op byte chooses from, is declared with its id space instead:
//
//   HARNESS_OP_LIST(PrevectorOp, kPrevectorOpCount, 32, HARNESS_PREVECTOR_OPS)
//
// The op byte maps to an id through a table fixed for the list: its low bits, in an id space of `space`
// ids (a power of two written there, never derived from the count). Ids from the count up are reserved: a
// decoder skips them (fuzz::ConsumeOp), so that adding an operation, which takes the next reserved id,
// changes only the stored inputs that used that id, and every other input keeps its meaning. A list that
// fills its space grows it by doubling, which changes the inputs whose op bytes use the new bit: re-encode
// them then. Built with SUITE_EXTRA_OP (ctest ops.extra_id), every operation list has one more operation,
// `ExtraOp`, in its first reserved id: it reads no argument and does nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harness {

template <size_t kCount>
constexpr bool OpIdsDenseInOrder(const int (&ids)[kCount]) {
  for (size_t i = 0; i < kCount; ++i) {
    if (ids[i] != static_cast<int>(i)) return false;
  }
  return true;
}

// `column[value]`, or `fallback` for a value outside the list.
template <typename Enum, typename T, size_t kCount>
constexpr T OpColumn(const T (&column)[kCount], Enum value, T fallback = T{}) {
  const auto i = static_cast<size_t>(value);
  return i < kCount ? column[i] : fallback;
}

}  // namespace harness

#define HARNESS_OP_ENUMERATOR_(e, id, name, ...) e = id,
#define HARNESS_OP_ID_(e, id, name, ...) id,
#define HARNESS_OP_NAME_(e, id, name, ...) name,
#define HARNESS_OP_COLUMN_(e, id, name, ...) __VA_ARGS__,
#define HARNESS_OP_ONE_(e, id, name, ...) +1

#define HARNESS_OP_ENUM(Enum, count, LIST)                                                 \
  enum class Enum : uint8_t { LIST(HARNESS_OP_ENUMERATOR_) };                              \
  inline constexpr uint8_t count = 0 LIST(HARNESS_OP_ONE_);                                \
  static_assert(::harness::OpIdsDenseInOrder<count>({LIST(HARNESS_OP_ID_)}),               \
                #Enum ": ids must be 0, 1, 2, ... in list order: append, never renumber"); \
  constexpr const char* ToString(Enum value) {                                             \
    constexpr const char* kNames[] = {LIST(HARNESS_OP_NAME_)};                             \
    return ::harness::OpColumn(kNames, value, "unknown");                                  \
  }

#define HARNESS_OP_COLUMN(LIST) {LIST(HARNESS_OP_COLUMN_)}

#ifdef SUITE_EXTRA_OP
#define HARNESS_OP_EXTRA_(LIST) kExtraOp = 0 LIST(HARNESS_OP_ONE_),
#define HARNESS_OP_EXTRA_NAME_ "ExtraOp",
#define HARNESS_OP_EXTRA_ONE_ +1
#else
#define HARNESS_OP_EXTRA_(LIST)
#define HARNESS_OP_EXTRA_NAME_
#define HARNESS_OP_EXTRA_ONE_
#endif

#define HARNESS_OP_LIST(Enum, count, space, LIST)                                                        \
  enum class Enum : uint8_t { LIST(HARNESS_OP_ENUMERATOR_) HARNESS_OP_EXTRA_(LIST) };                    \
  inline constexpr uint8_t count = 0 LIST(HARNESS_OP_ONE_) HARNESS_OP_EXTRA_ONE_;                        \
  static_assert(::harness::OpIdsDenseInOrder<0 LIST(HARNESS_OP_ONE_)>({LIST(HARNESS_OP_ID_)}),           \
                #Enum ": ids must be 0, 1, 2, ... in list order: append, never renumber");               \
  static_assert((space & (space - 1)) == 0 && count <= space && space <= 256,                            \
                #Enum ": the id space is a power of two holding every operation (grow it by doubling)"); \
  /* The id space of the list (see the top of this file). */                                             \
  constexpr unsigned OpIdSpace(Enum) { return space; }                                                   \
  /* Whether `value` is an operation of the list, not a reserved id. */                                  \
  constexpr bool IsOp(Enum value) { return static_cast<uint8_t>(value) < count; }                        \
  constexpr const char* ToString(Enum value) {                                                           \
    constexpr const char* kNames[] = {LIST(HARNESS_OP_NAME_) HARNESS_OP_EXTRA_NAME_};                    \
    return ::harness::OpColumn(kNames, value, "reserved");                                               \
  }
