// prevector: the capacity policy and layout facts of docs/semantics.md §5 checked directly, exhaustive sweeps of sizes
// 0..2N+3 and positions 0..len across the inline boundary (through PrevectorTester, which checks every
// operation against std::vector and the policy), and random sequences with a printed, settable seed.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "seam/prevector.h"
#include "prevector_tester.h"
#include "rng.h"
#include "seam/types.h"
#include "serialize_ref.h"
#include "test_util.h"

namespace {

using harness::PrevectorOp;
using harness::PrevectorStep;
using Script36 = seam::Prevector<36, uint8_t>;
using Script28 = seam::Prevector<28, uint8_t>;

template <unsigned int N_, typename T_>
struct Config {
  static constexpr unsigned int N = N_;
  using T = T_;
};
using Configs = boost::mpl::list<Config<36, uint8_t>, Config<28, uint8_t>, Config<8, uint8_t>, Config<36, uint32_t>,
                                 Config<28, uint32_t>, Config<8, uint32_t>>;

PrevectorStep Step(PrevectorOp op, uint32_t pos = 0, uint32_t count = 0, uint32_t value = 0, uint32_t index = 0,
                   uint8_t side = 0) {
  PrevectorStep s;
  s.op = op;
  s.side = side;
  s.pos = pos;
  s.count = count;
  s.value = value;
  s.index = index;
  return s;
}

// Ways to reach a given length that leave different storage behind: exact inline/heap, a heap block far
// larger than the contents (a heap prevector holding <= N elements), and growth by push_back.
enum class History { kAssign, kReservedFirst, kPushBacks };

template <unsigned int N, typename T>
void Build(harness::PrevectorTester<N, T>& t, History history, uint32_t len) {
  switch (history) {
    case History::kAssign: t.Apply(Step(PrevectorOp::kAssignRange, 0, len, len)); break;
    case History::kReservedFirst:
      t.Apply(Step(PrevectorOp::kReserve, 0, 2 * N + 3));
      t.Apply(Step(PrevectorOp::kAssignRange, 0, len, len));
      break;
    case History::kPushBacks:
      for (uint32_t i = 0; i < len; ++i) t.Apply(Step(PrevectorOp::kPushBack, 0, 0, i * 7 + 1));
      break;
  }
  BOOST_REQUIRE_EQUAL(t.subject(0).size(), len);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(prevector_tests)

BOOST_AUTO_TEST_CASE(layout) {
  // N = 36 keeps the script object at 40 bytes; N = 28 was 32.
  BOOST_TEST(sizeof(Script36) == 40u);
  BOOST_TEST(sizeof(Script28) == 32u);
  // P2WPKH 22, P2PKH 25, P2TR/P2WSH 34 and P2PK 35 bytes: all inline at N = 36; only the first two at 28.
  for (const uint32_t len : {22u, 25u, 34u, 35u}) {
    const Script36 s(len, 0x51);
    const Script28 old(len, 0x51);
    BOOST_TEST_CONTEXT("script length " << len) {
      BOOST_TEST(seam::IsDirect(s));
      BOOST_TEST(s.allocated_memory() == 0u);
      BOOST_TEST(seam::IsDirect(old) == (len <= 28));
      BOOST_TEST(old.allocated_memory() == (len <= 28 ? 0u : len));
    }
  }
  const Script36 big(37, 0);
  BOOST_TEST(!seam::IsDirect(big));
  BOOST_TEST(big.allocated_memory() == 37u);
}

BOOST_AUTO_TEST_CASE(capacity_policy) {
  seam::Prevector<8, uint32_t> v;
  for (uint32_t i = 0; i < 8; ++i) v.push_back(i);
  BOOST_TEST(seam::IsDirect(v));
  BOOST_TEST(v.capacity() == 8u);
  v.push_back(8);  // 9 > 8: grow to 9 + 9 / 2
  BOOST_TEST(!seam::IsDirect(v));
  BOOST_TEST(v.capacity() == 13u);
  BOOST_TEST(v.allocated_memory() == 13u * sizeof(uint32_t));
  v.reserve(20);  // exact
  BOOST_TEST(v.capacity() == 20u);
  v.reserve(10);  // never shrinks
  BOOST_TEST(v.capacity() == 20u);
  v.resize(3);  // shrinking keeps the heap block: a heap prevector with <= N elements
  BOOST_TEST(!seam::IsDirect(v));
  BOOST_TEST(v.capacity() == 20u);
  const seam::Prevector<8, uint32_t> copy(v);  // a copy of <= N elements is inline
  BOOST_TEST(seam::IsDirect(copy));
  BOOST_TEST(copy.allocated_memory() == 0u);
  v.shrink_to_fit();  // back inline
  BOOST_TEST(seam::IsDirect(v));
  BOOST_TEST(v.capacity() == 8u);
  v.resize(30);  // growing resize: exact
  BOOST_TEST(v.capacity() == 30u);
  v.clear();
  BOOST_TEST(v.capacity() == 30u);
  v.assign(31u, 7u);  // growing assign: exact
  BOOST_TEST(v.capacity() == 31u);
  v.shrink_to_fit();  // 31 > N: an exact heap block
  BOOST_TEST(!seam::IsDirect(v));
  BOOST_TEST(v.capacity() == 31u);
}

BOOST_AUTO_TEST_CASE(move_steals_and_empties) {
  Script36 a(50, 3);
  const uint8_t* heap = a.data();
  Script36 b(std::move(a));
  BOOST_TEST(b.data() == heap);
  BOOST_TEST(a.empty());
  BOOST_TEST(seam::IsDirect(a));
  BOOST_TEST(a.allocated_memory() == 0u);
  Script36 c;
  c = std::move(b);
  BOOST_TEST(c.data() == heap);
  BOOST_TEST(b.empty());
  BOOST_TEST(seam::IsDirect(b));
}

BOOST_AUTO_TEST_CASE(size_first_order) {
  const Script36 shorter{2, 0xff};  // two bytes 0xff
  const Script36 longer{3, 0x00};   // three bytes 0x00
  BOOST_TEST((shorter < longer));   // fewer elements first, although 0xff > 0x00 lexicographically
  BOOST_TEST(!(longer < shorter));
  const std::vector<uint8_t> a{0, 9}, b{0, 10};
  BOOST_TEST((Script36(a.begin(), a.end()) < Script36(b.begin(), b.end())));
  BOOST_TEST((Script36(a.begin(), a.end()) != Script36(b.begin(), b.end())));
}

#if !SUITE_SUBJECT_CORE
// Embedded only: Bitcoin Core's prevector does not support self-aliasing inserts, and its self-move-assign
// empties the object (the README's differences table).
BOOST_AUTO_TEST_CASE(self_aliasing_insert) {
  seam::Prevector<8, uint8_t> v;
  for (uint8_t i = 1; i <= 8; ++i) v.push_back(i);
  v.insert(v.begin(), v[7]);  // reallocates while `value` refers into the old block
  const std::vector<uint8_t> want{8, 1, 2, 3, 4, 5, 6, 7, 8};
  BOOST_TEST(std::vector<uint8_t>(v.begin(), v.end()) == want, boost::test_tools::per_element());
  v.insert(v.begin() + 1, v.begin() + 5, v.end());  // a range of itself
  const std::vector<uint8_t> want2{8, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8};
  BOOST_TEST(std::vector<uint8_t>(v.begin(), v.end()) == want2, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(self_move_assign_keeps_contents) {
  Script36 a(50, 9);
  Script36& alias = a;
  a = std::move(alias);
  BOOST_TEST(a.size() == 50u);
  BOOST_TEST(a[49] == 9);
}
#endif

#if !SUITE_SUBJECT_CORE
// Embedded only (Bitcoin Core's prevector has no size cap: see the README's differences table).
// With an 8-bit size type the growth arithmetic (n + n / 2) would wrap: it must clamp to kMaxSize, and
// going past kMaxSize must throw without changing the contents.
BOOST_AUTO_TEST_CASE(capacity_arithmetic_cannot_overflow) {
  using Tiny = embedded::prevector<8, uint8_t, uint8_t, int8_t>;
  static_assert(Tiny::kMaxSize == 255 - 8 - 1);
  Tiny v;
  for (unsigned i = 0; i < Tiny::kMaxSize; ++i) v.push_back(static_cast<uint8_t>(i));
  BOOST_TEST(v.size() == Tiny::kMaxSize);
  BOOST_TEST(v.capacity() == Tiny::kMaxSize);  // 200 + 100 clamped, not wrapped to 44
  BOOST_CHECK_THROW(v.push_back(0), std::length_error);
  BOOST_CHECK_THROW(v.insert(v.begin(), 3, 0), std::length_error);
  BOOST_CHECK_THROW(v.resize(250), std::length_error);
  BOOST_CHECK_THROW(v.reserve(250), std::length_error);
  BOOST_CHECK_THROW(v.assign(uint8_t{250}, uint8_t{1}), std::length_error);
  const std::vector<uint8_t> many(250, 1);
  BOOST_CHECK_THROW(v.assign(many.begin(), many.end()), std::length_error);
  BOOST_TEST(v.size() == Tiny::kMaxSize);
  BOOST_TEST(v[100] == 100);
}
#endif

// CompactSize boundaries, worked out by hand, and the element encoding of wider T.
BOOST_AUTO_TEST_CASE(serialization,
                     *unit::Needs(seam::kPrevectorSerialize, "the subject's own prevector serialization")) {
  auto encode = [](uint64_t n) {
    std::vector<uint8_t> out;
    WriteCompactSize(out, n);
    return out;
  };
  BOOST_TEST(encode(252) == (std::vector<uint8_t>{0xfc}), boost::test_tools::per_element());
  BOOST_TEST(encode(253) == (std::vector<uint8_t>{0xfd, 0xfd, 0x00}), boost::test_tools::per_element());
  BOOST_TEST(encode(0xffff) == (std::vector<uint8_t>{0xfd, 0xff, 0xff}), boost::test_tools::per_element());
  BOOST_TEST(encode(0x10000) == (std::vector<uint8_t>{0xfe, 0x00, 0x00, 0x01, 0x00}), boost::test_tools::per_element());
  BOOST_TEST(encode(0xffffffff) == (std::vector<uint8_t>{0xfe, 0xff, 0xff, 0xff, 0xff}),
             boost::test_tools::per_element());
  BOOST_TEST(encode(0x100000000) == (std::vector<uint8_t>{0xff, 0, 0, 0, 0, 1, 0, 0, 0}),
             boost::test_tools::per_element());
  seam::Prevector<8, uint32_t> words;
  words.push_back(0x04030201);
  std::vector<uint8_t> out;
  seam::SerializePrevector(out, words);
  BOOST_TEST(out == (std::vector<uint8_t>{0x01, 0x01, 0x02, 0x03, 0x04}), boost::test_tools::per_element());
  // Long scripts: the subject and the reference agree past every CompactSize boundary.
  for (const uint32_t n : {252u, 253u, 65535u, 65536u}) {
    const std::vector<uint8_t> bytes(n, 0x6a);
    std::vector<uint8_t> subject, reference;
    seam::SerializePrevector(subject, Script36(bytes.begin(), bytes.end()));
    harness::SerializeVectorRef(reference, bytes);
    BOOST_TEST(subject == reference);
  }
}

// Every size 0..2N+3 reached three ways, then every operation at every position 0..len.
BOOST_AUTO_TEST_CASE_TEMPLATE(exhaustive_boundary_sweep, C, Configs) {
  constexpr unsigned int N = C::N;
  using T = typename C::T;
  const std::vector<std::pair<PrevectorOp, uint32_t>> ops{
      {PrevectorOp::kInsert, 0},          {PrevectorOp::kInsertCount, N}, {PrevectorOp::kInsertRange, 2},
      {PrevectorOp::kEraseOne, 0},        {PrevectorOp::kEraseRange, 3},  {PrevectorOp::kInsertSelf, 1},
      {PrevectorOp::kInsertSelfRange, N}, {PrevectorOp::kSet, 0},         {PrevectorOp::kResize, 0},
  };
  for (const History history : {History::kAssign, History::kReservedFirst, History::kPushBacks}) {
    for (uint32_t len = 0; len <= 2 * N + 3; ++len) {
      for (uint32_t pos = 0; pos <= len; ++pos) {
        // Growth by push_back costs len steps to build; three positions suffice for that history.
        if (history == History::kPushBacks && pos != 0 && pos != len / 2 && pos != len) continue;
        for (const auto& [op, count] : ops) {
          harness::PrevectorTester<N, T> t;
          Build(t, history, len);
          // Resize to pos and shrink_to_fit then sweep the other boundary direction as well.
          t.Apply(Step(op, pos, op == PrevectorOp::kResize ? pos : count, 0xa5u + pos, pos / 2));
          t.Apply(Step(PrevectorOp::kShrinkToFit));
          t.Apply(Step(PrevectorOp::kCopyConstruct, 0, 0, 0, 0, 1));
          t.Apply(Step(PrevectorOp::kPushBack, 0, 0, 1, 0, 1));
          t.Apply(Step(PrevectorOp::kSwap));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_sequences, C, Configs) {
  constexpr unsigned int N = C::N;
  const uint64_t seed = harness::TestSeed(1122);
  BOOST_TEST_MESSAGE("prevector random_sequences<" << N << ", " << sizeof(typename C::T) << "-byte T>: SEED=" << seed);
  BOOST_TEST_CONTEXT("SEED=" << seed) {
    harness::Rng rng(seed);
    size_t applied = 0;
    for (int run = 0; run < 100; ++run) {
      harness::PrevectorTester<N, typename C::T> t;
      for (int i = 0; i < 150; ++i) {
        PrevectorStep s;
        s.op = static_cast<PrevectorOp>(rng.Below(harness::kPrevectorOpCount));
        s.side = static_cast<uint8_t>(rng.Below(2));
        s.pos = static_cast<uint32_t>(rng.Below(256));
        s.index = static_cast<uint32_t>(rng.Below(256));
        s.count = static_cast<uint32_t>(rng.Below(2 * N + 4));
        s.value = static_cast<uint32_t>(rng.Next());
        t.Apply(s);
      }
      applied += t.applied();
    }
    // The generator is only useful if most random steps apply (not rejected as out of range).
    BOOST_TEST(applied > 100 * 150 * 3 / 4);
  }
}

BOOST_AUTO_TEST_SUITE_END()
