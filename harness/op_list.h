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
//     id      the code fuzz inputs and dictionaries select the value by. It never changes and a new value
//             takes the next free id, so that old corpora keep their meaning;
//     name    what ToString returns: failure traces print it, dictionary tokens are named after it;
//     column  optional: one constant expression of the tester's choosing (usually a mask of the step fields
//             the operation reads), evaluated only where HARNESS_OP_COLUMN expands, so its names need to
//             be in scope only there.
//
//   HARNESS_OP_ENUM(PrevectorOp, kPrevectorOpCount, HARNESS_PREVECTOR_OPS)
//
// declares `enum class PrevectorOp : uint8_t { kInsert = 0, ... }`, `kPrevectorOpCount` and
// `constexpr const char* ToString(PrevectorOp)` ("unknown" for a value outside the list), and does not
// compile unless the ids are 0, 1, ..., count - 1 in list order (so an id is also the index into every
// table built from the list). HARNESS_OP_COLUMN(LIST) is the column as an array initializer in id order;
// OpColumn reads such an array for one value.
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

#define HARNESS_OP_ENUM(Enum, count, LIST)                                               \
  enum class Enum : uint8_t { LIST(HARNESS_OP_ENUMERATOR_) };                            \
  inline constexpr uint8_t count = 0 LIST(HARNESS_OP_ONE_);                              \
  static_assert(::harness::OpIdsDenseInOrder<count>({LIST(HARNESS_OP_ID_)}),             \
                #Enum ": ids must be 0, 1, 2, ... in list order: append, never renumber"); \
  constexpr const char* ToString(Enum value) {                                          \
    constexpr const char* kNames[] = {LIST(HARNESS_OP_NAME_)};                           \
    return ::harness::OpColumn(kNames, value, "unknown");                                \
  }

#define HARNESS_OP_COLUMN(LIST) {LIST(HARNESS_OP_COLUMN_)}
