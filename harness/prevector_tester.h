// PrevectorTester: applies one operation at a time to two prevector<N, T> objects and to two std::vector<T>
// references, then checks they agree.
//
// Modelled: contents, the capacity policy of docs/semantics.md §5 (exact capacity after every operation), inline/heap
// state (also from where data() points), allocated_memory(), ==, the size-first operator<, serialized bytes,
// self-aliasing inserts and assigns, copies, moves and swaps between the two objects.
// Not modelled: allocation failure and the length_error past kMaxSize (sizes here stay below kMaxLen).
//
// Operations: HARNESS_PREVECTOR_OPS (stable IDs; new ones go at the end). Adding one is its line in the list
// and its Fit/Subject/Reference functions in PrevectorTester, next to the others.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "check.h"
#include "op_list.h"
#include "seam/prevector.h"
#include "seam/types.h"

namespace harness {

// X(enumerator, id, name, traits). Traits: the step fields the operation reads (printed by
// PrevectorStep::ToString) and what Apply must know of it (kAliasing, kChangesOther).
// [first, last): values of an array outside both objects; b: the side's begin().
// clang-format off
#define HARNESS_PREVECTOR_OPS(X)                                                                                       \
  X(kInsert, 0, "Insert", kPos | kValue)                                         /* insert(pos, value) */              \
  X(kInsertCount, 1, "InsertCount", kPos | kCount | kValue)                      /* insert(pos, count, value) */       \
  X(kInsertRange, 2, "InsertRange", kPos | kCount | kValue)                      /* insert(pos, first, last) */        \
  X(kEraseOne, 3, "EraseOne", kPos)                                              /* erase(pos) */                      \
  X(kEraseRange, 4, "EraseRange", kPos | kCount)                                 /* erase(pos, pos + count) */         \
  X(kResize, 5, "Resize", kCount)                                                /* resize(count) */                   \
  X(kResizeUninitialized, 6, "ResizeUninitialized", kCount | kValue)             /* resize_uninitialized + writes */   \
  X(kReserve, 7, "Reserve", kCount)                                              /* reserve(count) */                  \
  X(kShrinkToFit, 8, "ShrinkToFit", 0)                                           /* shrink_to_fit() */                 \
  X(kClear, 9, "Clear", 0)                                                       /* clear() */                         \
  X(kAssignCount, 10, "AssignCount", kCount | kValue)                            /* assign(count, value) */            \
  X(kAssignRange, 11, "AssignRange", kCount | kValue)                            /* assign(first, last) */             \
  X(kPushBack, 12, "PushBack", kValue)                                           /* push_back(value) */                \
  X(kPopBack, 13, "PopBack", 0)                                                  /* pop_back() */                      \
  X(kEmplaceBack, 14, "EmplaceBack", kValue)                                     /* emplace_back(value) */             \
  X(kSwap, 15, "Swap", kChangesOther)                                            /* swap(side, other) */               \
  X(kCopyAssign, 16, "CopyAssign", 0)                                            /* side = other */                    \
  X(kMoveAssign, 17, "MoveAssign", kChangesOther)                                /* side = std::move(other) */         \
  X(kCopyConstruct, 18, "CopyConstruct", 0)                                      /* side re-made as a copy of other */ \
  X(kMoveConstruct, 19, "MoveConstruct", kChangesOther)                          /* side re-made by moving other */    \
  X(kInsertSelf, 20, "InsertSelf", kPos | kIndex | kCount | kAliasing)           /* insert(pos, count, side[index]) */ \
  /* insert(pos, b+index, b+index+count) */                                                                            \
  X(kInsertSelfRange, 21, "InsertSelfRange", kPos | kIndex | kCount | kAliasing)                                       \
  X(kAssignSelfRange, 22, "AssignSelfRange", kIndex | kCount | kAliasing)        /* assign(b+index, b+index+count) */  \
  X(kSet, 23, "Set", kPos | kValue)                                              /* side[pos] = value */               \
  X(kSelfCopyAssign, 24, "SelfCopyAssign", 0)                                    /* side = side */                     \
  X(kRangeConstruct, 25, "RangeConstruct", kIndex | kCount)                      /* side re-made from other's range */ \
  /* new values go above this line, with the next id */
// clang-format on

HARNESS_OP_LIST(PrevectorOp, kPrevectorOpCount, 32, HARNESS_PREVECTOR_OPS)

// One operation with its arguments as applied (positions already reduced to valid ones).
struct PrevectorStep {
  enum Trait : uint8_t {
    kPos = 1,
    kIndex = 2,
    kCount = 4,
    kValue = 8,
    kAliasing = 16,      // reads a value or range of the object it changes (Core's prevector forbids that)
    kChangesOther = 32,  // changes the other object too
  };
  static constexpr uint8_t kTraits[] = HARNESS_OP_COLUMN(HARNESS_PREVECTOR_OPS);
  static constexpr bool Has(PrevectorOp op, Trait t) { return (OpColumn(kTraits, op) & t) != 0; }

  PrevectorOp op{};
  uint8_t side = 0;    // which of the two objects is changed; the other is the source for copies/moves
  uint32_t pos = 0;    // where to insert, erase or set
  uint32_t index = 0;  // an element read from the changed object, or the first of a range of them
  uint32_t count = 0;
  uint32_t value = 0;  // truncated to T; seeds the values of outside ranges
  std::string ToString() const;
};

template <unsigned int N, typename T>
class PrevectorTester {
 public:
  using Pre = seam::Prevector<N, T>;
  // Operations that would grow past this are skipped: past 2N + 3 (the sweep bound), small enough to keep
  // each check cheap.
  static constexpr uint32_t kMaxLen = 3 * N + 8;
  // The longest serialization: a 1-byte CompactSize (kMaxLen < 253) and the elements.
  static constexpr size_t kMaxBytes = 1 + kMaxLen * sizeof(T);
  static_assert(kMaxLen < 253);
  static_assert(std::endian::native == std::endian::little, "the serialization check compares memory images");

  // Reference and scratch storage is reserved once for the largest length, so that growing them costs no
  // allocations per step: under ASan those dominated the target's time.
  PrevectorTester() {
    for (auto& p : pre_) p.emplace();
    for (auto& v : ref_) v.reserve(kMaxLen);
    subject_bytes_.reserve(kMaxBytes);
  }

  // Reduces the step's arguments to valid ones, applies it to both sides, records it, and checks. Returns
  // false (and changes nothing) when the step does not apply, e.g. pop_back on an empty vector.
  bool Apply(PrevectorStep step) {
    if (!Normalize(step)) return false;
    if (Step::Has(step.op, Step::kAliasing) && !seam::kPrevectorSelfAliasing) return false;
    log_.Add(step);
    ApplySubject(step);
    ApplyReference(step);
    // The other object changes only with kChangesOther; it was checked after its own last change.
    CheckOne(step.side);
    if (Step::Has(step.op, Step::kChangesOther)) CheckOne(1 - step.side);
    CheckOrder();
    return true;
  }

  // Steps applied so far (rejected ones are not counted).
  size_t applied() const { return log_.size(); }

  // Subject vs reference for both objects plus the comparisons between them.
  HARNESS_NO_FUZZ_COVERAGE void CheckEquivalent() const {
    CheckOne(0);
    CheckOne(1);
    CheckOrder();
  }

  const Pre& subject(int side) const { return *pre_[side]; }
  const std::vector<T>& reference(int side) const { return ref_[side]; }

 private:
  using Step = PrevectorStep;
  using enum PrevectorOp;
  template <PrevectorOp op>
  using On = std::integral_constant<PrevectorOp, op>;

  // What the capacity policy says about one object: inline, or heap with an exact capacity.
  struct Shape {
    bool direct = true;
    uint32_t capacity = N;
  };
  HARNESS_NO_FUZZ_COVERAGE static Shape Heap(uint32_t capacity) { return Shape{false, capacity}; }
  HARNESS_NO_FUZZ_COVERAGE static Shape ShapeOfCopy(size_t n) {
    return n <= N ? Shape{} : Heap(static_cast<uint32_t>(n));
  }

  // A range of `count` deterministic values derived from `seed`, standing for an outside container. On the
  // stack: a heap allocation per operation costs more than the operation under ASan.
  struct Values {
    Values(uint32_t seed, uint32_t count) : n(count) {
      for (uint32_t i = 0; i < count; ++i) items[i] = static_cast<T>(seed * 2654435761u + i * 40503u);
    }
    const T* begin() const { return items.data(); }
    const T* end() const { return items.data() + n; }
    std::array<T, kMaxLen> items;
    uint32_t n;
  };

  // The three dispatchers, generated from the list: the per-operation functions below inline into them, and
  // code is instrumented for the fuzzer or not as the function it ends up in is (inlining ignores the
  // attribute), so the subject's calls get a dispatcher of their own.
  // The side is reduced to 0 or 1, then the operation's Fit; false for a value outside the list.
  HARNESS_NO_FUZZ_COVERAGE bool Normalize(Step& s) const {
    s.side &= 1;
    switch (s.op) {
#define HARNESS_PREVECTOR_FIT(op, ...) \
  case op: return Fit(On<op>{}, s);
      HARNESS_PREVECTOR_OPS(HARNESS_PREVECTOR_FIT)
#undef HARNESS_PREVECTOR_FIT
    }
    return false;
  }
  void ApplySubject(const Step& s) {
    Pre& p = *pre_[s.side];
    switch (s.op) {
#define HARNESS_PREVECTOR_SUBJECT(op, ...) \
  case op: return Subject(On<op>{}, p, s);
      HARNESS_PREVECTOR_OPS(HARNESS_PREVECTOR_SUBJECT)
#undef HARNESS_PREVECTOR_SUBJECT
    }
  }
  HARNESS_NO_FUZZ_COVERAGE void ApplyReference(const Step& s) {
    switch (s.op) {
#define HARNESS_PREVECTOR_REFERENCE(op, ...) \
  case op: return Reference(On<op>{}, ref_[s.side], s);
      HARNESS_PREVECTOR_OPS(HARNESS_PREVECTOR_REFERENCE)
#undef HARNESS_PREVECTOR_REFERENCE
    }
  }

  // The other object (copies, moves, swaps), the changed object's length, the step's value as a T.
  HARNESS_NO_FUZZ_COVERAGE Pre& Other(const Step& s) { return *pre_[1 - s.side]; }
  HARNESS_NO_FUZZ_COVERAGE std::vector<T>& RefOther(const Step& s) { return ref_[1 - s.side]; }
  HARNESS_NO_FUZZ_COVERAGE size_t Len(const Step& s) const { return ref_[s.side].size(); }
  HARNESS_NO_FUZZ_COVERAGE static T Value(const Step& s) { return static_cast<T>(s.value); }

  // Argument shapes several operations share. `pos` an insertion point, `count` elements added:
  HARNESS_NO_FUZZ_COVERAGE bool FitInsert(Step& s) const {
    s.pos %= Len(s) + 1;
    return Len(s) + s.count <= kMaxLen;
  }
  // `pos` an element:
  HARNESS_NO_FUZZ_COVERAGE bool FitElement(Step& s) const {
    if (Len(s) == 0) return false;
    s.pos %= Len(s);
    return true;
  }
  // `count` a new size or capacity:
  HARNESS_NO_FUZZ_COVERAGE static bool FitSize(Step& s) {
    s.count %= kMaxLen + 1;
    return true;
  }
  // [index, index + count) a range of the changed object, `pos` an insertion point:
  HARNESS_NO_FUZZ_COVERAGE bool FitSelfRange(Step& s) const {
    const size_t len = Len(s);
    if (len == 0) return false;
    s.index %= len;
    s.count %= len - s.index + 1;
    s.pos %= len + 1;
    return true;
  }

  // The capacity policy's prediction for the changed object, called before the reference changes. Growth by
  // insertion: to new_size + new_size / 2 when the capacity is short.
  HARNESS_NO_FUZZ_COVERAGE void GrowForInsert(const Step& s, size_t added) {
    const size_t new_size = Len(s) + added;
    if (new_size > shape_[s.side].capacity) shape_[s.side] = Heap(static_cast<uint32_t>(new_size + new_size / 2));
  }
  // Growth by reserve / resize / assign: to exactly n when the capacity is short.
  HARNESS_NO_FUZZ_COVERAGE void GrowExact(const Step& s, size_t n) {
    if (n > shape_[s.side].capacity) shape_[s.side] = Heap(static_cast<uint32_t>(n));
  }

  // What each operation does. Per operation, next to each other:
  //   Fit        reduces the arguments to valid ones for the objects as they are, or says (false) that the
  //              operation does not apply; an operation without one always applies;
  //   Subject    the prevector `p` (the `side` object): the only code whose coverage guides the fuzzer;
  //   Reference  the std::vector `v` and the capacity policy's prediction.
  // Fit and Reference are not instrumented: their branches would only add features that say nothing about the
  // subject. Only the `side` object changes, unless the operation has kChangesOther.
  template <PrevectorOp op>
  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<op>, Step&) const {
    return true;
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kInsert>, Step& s) const {
    s.count = 1;
    return FitInsert(s);
  }
  void Subject(On<kInsert>, Pre& p, const Step& s) { p.insert(p.begin() + s.pos, Value(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kInsert>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, 1);
    v.insert(v.begin() + s.pos, Value(s));
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kInsertCount>, Step& s) const { return FitInsert(s); }
  void Subject(On<kInsertCount>, Pre& p, const Step& s) { p.insert(p.begin() + s.pos, s.count, Value(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kInsertCount>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, s.count);
    v.insert(v.begin() + s.pos, s.count, Value(s));
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kInsertRange>, Step& s) const { return FitInsert(s); }
  void Subject(On<kInsertRange>, Pre& p, const Step& s) {
    const Values values(s.value, s.count);
    p.insert(p.begin() + s.pos, values.begin(), values.end());
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kInsertRange>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, s.count);
    const Values values(s.value, s.count);
    v.insert(v.begin() + s.pos, values.begin(), values.end());
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kEraseOne>, Step& s) const { return FitElement(s); }
  void Subject(On<kEraseOne>, Pre& p, const Step& s) { p.erase(p.begin() + s.pos); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kEraseOne>, std::vector<T>& v, const Step& s) {
    v.erase(v.begin() + s.pos);
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kEraseRange>, Step& s) const {
    if (!FitElement(s)) return false;
    s.count %= Len(s) - s.pos + 1;
    return true;
  }
  void Subject(On<kEraseRange>, Pre& p, const Step& s) { p.erase(p.begin() + s.pos, p.begin() + s.pos + s.count); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kEraseRange>, std::vector<T>& v, const Step& s) {
    v.erase(v.begin() + s.pos, v.begin() + s.pos + s.count);
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kResize>, Step& s) const { return FitSize(s); }
  void Subject(On<kResize>, Pre& p, const Step& s) { p.resize(s.count); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kResize>, std::vector<T>& v, const Step& s) {
    GrowExact(s, s.count);
    v.resize(s.count);
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kResizeUninitialized>, Step& s) const { return FitSize(s); }
  void Subject(On<kResizeUninitialized>, Pre& p, const Step& s) {
    const uint32_t old = p.size();
    p.resize_uninitialized(s.count);
    for (uint32_t i = old; i < s.count; ++i) p[i] = Value(s);
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kResizeUninitialized>, std::vector<T>& v, const Step& s) {
    GrowExact(s, s.count);
    v.resize(s.count, Value(s));
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kReserve>, Step& s) const { return FitSize(s); }
  void Subject(On<kReserve>, Pre& p, const Step& s) { p.reserve(s.count); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kReserve>, std::vector<T>&, const Step& s) { GrowExact(s, s.count); }

  void Subject(On<kShrinkToFit>, Pre& p, const Step&) { p.shrink_to_fit(); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kShrinkToFit>, std::vector<T>& v, const Step& s) {
    shape_[s.side] = ShapeOfCopy(v.size());
  }

  void Subject(On<kClear>, Pre& p, const Step&) { p.clear(); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kClear>, std::vector<T>& v, const Step&) { v.clear(); }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kAssignCount>, Step& s) const { return FitSize(s); }
  void Subject(On<kAssignCount>, Pre& p, const Step& s) { p.assign(s.count, Value(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kAssignCount>, std::vector<T>& v, const Step& s) {
    GrowExact(s, s.count);
    v.assign(s.count, Value(s));
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kAssignRange>, Step& s) const { return FitSize(s); }
  void Subject(On<kAssignRange>, Pre& p, const Step& s) {
    const Values values(s.value, s.count);
    p.assign(values.begin(), values.end());
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kAssignRange>, std::vector<T>& v, const Step& s) {
    GrowExact(s, s.count);
    const Values values(s.value, s.count);
    v.assign(values.begin(), values.end());
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kPushBack>, Step& s) const { return Len(s) + 1 <= kMaxLen; }
  void Subject(On<kPushBack>, Pre& p, const Step& s) { p.push_back(Value(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kPushBack>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, 1);
    v.push_back(Value(s));
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kPopBack>, Step& s) const { return Len(s) > 0; }
  void Subject(On<kPopBack>, Pre& p, const Step&) { p.pop_back(); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kPopBack>, std::vector<T>& v, const Step&) { v.pop_back(); }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kEmplaceBack>, Step& s) const { return Len(s) + 1 <= kMaxLen; }
  void Subject(On<kEmplaceBack>, Pre& p, const Step& s) {
    // Bitcoin Core's emplace_back returns void (the README's differences table); the element is still
    // compared by the state check after every operation.
    if constexpr (std::is_void_v<decltype(p.emplace_back(Value(s)))>) {
      p.emplace_back(Value(s));
    } else {
      HARNESS_CHECK_EQ(uint64_t{p.emplace_back(Value(s))}, uint64_t{Value(s)}, "emplace_back returns the new element");
    }
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kEmplaceBack>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, 1);
    v.push_back(Value(s));
  }

  void Subject(On<kSwap>, Pre& p, const Step& s) { p.swap(Other(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kSwap>, std::vector<T>& v, const Step& s) {
    std::swap(v, RefOther(s));
    std::swap(shape_[s.side], shape_[1 - s.side]);
  }

  void Subject(On<kCopyAssign>, Pre& p, const Step& s) { p = Other(s); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kCopyAssign>, std::vector<T>& v, const Step& s) {
    GrowExact(s, RefOther(s).size());  // as assign(first, last): this object's storage is reused
    v = RefOther(s);
  }

  void Subject(On<kMoveAssign>, Pre& p, const Step& s) { p = std::move(Other(s)); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kMoveAssign>, std::vector<T>& v, const Step& s) { ReferenceMove(v, s); }

  void Subject(On<kCopyConstruct>, Pre&, const Step& s) {
    pre_[s.side].reset();
    pre_[s.side].emplace(Other(s));
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kCopyConstruct>, std::vector<T>& v, const Step& s) {
    v = RefOther(s);
    shape_[s.side] = ShapeOfCopy(v.size());
  }

  void Subject(On<kMoveConstruct>, Pre&, const Step& s) {
    pre_[s.side].reset();
    pre_[s.side].emplace(std::move(Other(s)));
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kMoveConstruct>, std::vector<T>& v, const Step& s) { ReferenceMove(v, s); }

  // Either move: the elements and the storage (so its shape) go over; the source is left empty and inline.
  HARNESS_NO_FUZZ_COVERAGE void ReferenceMove(std::vector<T>& v, const Step& s) {
    v.assign(RefOther(s).begin(), RefOther(s).end());  // not a vector move: keep both reservations
    RefOther(s).clear();
    shape_[s.side] = std::exchange(shape_[1 - s.side], Shape{});
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kInsertSelf>, Step& s) const {
    if (Len(s) == 0) return false;
    s.index %= Len(s);
    return FitInsert(s);
  }
  void Subject(On<kInsertSelf>, Pre& p, const Step& s) { p.insert(p.begin() + s.pos, s.count, p[s.index]); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kInsertSelf>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, s.count);
    const T copy = v[s.index];
    v.insert(v.begin() + s.pos, s.count, copy);
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kInsertSelfRange>, Step& s) const {
    return FitSelfRange(s) && Len(s) + s.count <= kMaxLen;
  }
  void Subject(On<kInsertSelfRange>, Pre& p, const Step& s) {
    p.insert(p.begin() + s.pos, p.begin() + s.index, p.begin() + s.index + s.count);
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kInsertSelfRange>, std::vector<T>& v, const Step& s) {
    GrowForInsert(s, s.count);
    const std::vector<T> copy(v.begin() + s.index, v.begin() + s.index + s.count);
    v.insert(v.begin() + s.pos, copy.begin(), copy.end());
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kAssignSelfRange>, Step& s) const { return FitSelfRange(s); }
  void Subject(On<kAssignSelfRange>, Pre& p, const Step& s) {
    p.assign(p.begin() + s.index, p.begin() + s.index + s.count);
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kAssignSelfRange>, std::vector<T>& v, const Step& s) {
    // No growth: the range is at most the current size.
    v.erase(v.begin() + s.index + s.count, v.end());
    v.erase(v.begin(), v.begin() + s.index);
  }

  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kSet>, Step& s) const { return FitElement(s); }
  void Subject(On<kSet>, Pre& p, const Step& s) { p[s.pos] = Value(s); }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kSet>, std::vector<T>& v, const Step& s) { v[s.pos] = Value(s); }

  void Subject(On<kSelfCopyAssign>, Pre& p, const Step& s) { p = *pre_[s.side]; }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kSelfCopyAssign>, std::vector<T>&, const Step&) {}

  // [index, index + count) a range of the other object.
  HARNESS_NO_FUZZ_COVERAGE bool Fit(On<kRangeConstruct>, Step& s) const {
    const size_t other = ref_[1 - s.side].size();
    s.index %= other + 1;
    s.count %= other - s.index + 1;
    return true;
  }
  void Subject(On<kRangeConstruct>, Pre&, const Step& s) {
    const Pre& o = Other(s);
    pre_[s.side].reset();
    pre_[s.side].emplace(o.begin() + s.index, o.begin() + s.index + s.count);
  }
  HARNESS_NO_FUZZ_COVERAGE void Reference(On<kRangeConstruct>, std::vector<T>& v, const Step& s) {
    v.assign(RefOther(s).begin() + s.index, RefOther(s).begin() + s.index + s.count);
    shape_[s.side] = ShapeOfCopy(v.size());
  }

  // The checks.
  HARNESS_NO_FUZZ_COVERAGE void CheckOrder() const {
    const Pre& a = *pre_[0];
    const Pre& b = *pre_[1];
    const auto& va = ref_[0];
    const auto& vb = ref_[1];
    HARNESS_CHECK_EQ(a == b, va == vb, "operator==");
    HARNESS_CHECK_EQ(a < b, SizeFirstLess(va, vb), "operator< (size first, then elements)");
    HARNESS_CHECK_EQ(b < a, SizeFirstLess(vb, va), "operator< (size first, then elements)");
  }

  static bool SizeFirstLess(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  }

  HARNESS_NO_FUZZ_COVERAGE void CheckOne(int side) const {
    const Pre& p = *pre_[side];
    const std::vector<T>& v = ref_[side];
    const Shape& s = shape_[side];
    HARNESS_CHECK_EQ(p.size(), v.size(), "size of side ", side);
    HARNESS_CHECK(std::equal(v.begin(), v.end(), p.begin()), "contents of side ", side);
    if (!v.empty()) {
      HARNESS_CHECK_EQ(uint64_t{p.front()}, uint64_t{v.front()}, "front of side ", side);
      HARNESS_CHECK_EQ(uint64_t{p.back()}, uint64_t{v.back()}, "back of side ", side);
    }
    HARNESS_CHECK_EQ(seam::IsDirect(p), s.direct, "inline state of side ", side);
    HARNESS_CHECK_EQ(p.capacity(), s.capacity, "capacity of side ", side);
    HARNESS_CHECK_EQ(p.allocated_memory(), s.direct ? 0 : sizeof(T) * s.capacity, "allocated_memory of side ", side);
    const auto* object = reinterpret_cast<const unsigned char*>(&p);
    const auto* data = reinterpret_cast<const unsigned char*>(p.data());
    const bool data_inside = data >= object && data < object + sizeof(Pre);
    HARNESS_CHECK_EQ(data_inside, s.direct, "data() inside the object iff inline, side ", side);
    // The encoding is a one-byte CompactSize (kMaxLen < 253) and the elements little-endian, which on the
    // little-endian hosts this runs on is their memory image. (SerializeVectorRef spells the encoding out;
    // the unit tests compare with it past every CompactSize boundary.)
    if constexpr (seam::kPrevectorSerialize) {
      subject_bytes_.clear();
      seam::SerializePrevector(subject_bytes_, p);
      HARNESS_CHECK(subject_bytes_.size() == 1 + v.size() * sizeof(T) && subject_bytes_[0] == v.size() &&
                        std::memcmp(subject_bytes_.data() + 1, v.data(), v.size() * sizeof(T)) == 0,
                    "serialized bytes of side ", side);
    }
  }

  std::optional<Pre> pre_[2];
  std::vector<T> ref_[2];
  Shape shape_[2];
  // Scratch for the serialization check, reserved once.
  mutable std::vector<uint8_t> subject_bytes_;
  OpLog<PrevectorStep> log_;
};

}  // namespace harness
