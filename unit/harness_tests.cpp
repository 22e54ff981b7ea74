// The harness itself: a failing HARNESS_CHECK reports a stable signature line, the condition, the message and
// the readable operation trace; operations render stably; seeds are reproducible and validated.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "seam/types.h"
#include "prevector_tester.h"
#include "rng.h"

namespace {

std::string FailureText(auto&& body) {
  try {
    body();
  } catch (const harness::CheckFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(harness_tests)

BOOST_AUTO_TEST_CASE(failure_prints_condition_message_and_trace) {
  harness::OpLog<harness::PrevectorStep> log;
  harness::PrevectorStep step;
  step.op = harness::PrevectorOp::kInsert;
  step.pos = 3;
  step.value = 7;
  log.Add(step);
  step.op = harness::PrevectorOp::kPopBack;
  step.side = 1;
  log.Add(step);
  const int size = 2;
  const std::string text = FailureText([&] { HARNESS_CHECK_EQ(size, 3, "size after ", 2, " steps"); });
  BOOST_TEST(text.find("size == 3") != std::string::npos, text);
  BOOST_TEST(text.find("size after 2 steps") != std::string::npos, text);
  BOOST_TEST(text.find("left:  2") != std::string::npos, text);
  BOOST_TEST(text.find("right: 3") != std::string::npos, text);
  BOOST_TEST(text.find("step 0: Insert(side=0, pos=3, value=7)") != std::string::npos, text);
  BOOST_TEST(text.find("step 1: PopBack(side=1)") != std::string::npos, text);
}

// The report's first line is `signature: <target>:<op>:<file>:<line>`, free of values: the same for every
// failing value at one check in one operation.
BOOST_AUTO_TEST_CASE(failure_starts_with_a_stable_signature) {
  harness::OpLog<harness::PrevectorStep> log;
  harness::PrevectorStep step;
  step.op = harness::PrevectorOp::kInsert;
  step.pos = 3;
  log.Add(step);
  int line = 0;
  const auto fail_with = [&](int value) {
    step.value = static_cast<uint32_t>(value);
    log.Add(step);  // the same operation with other arguments
    return FailureText([&] {
      line = __LINE__ + 1;  // the check's line
      HARNESS_CHECK_EQ(value, 3, "value ", value);
    });
  };
  const std::string one = fail_with(1), two = fail_with(2);
  // The suite is the target in unit tests (unit/main.cpp).
  const std::string want = "signature: harness_tests:Insert:unit/harness_tests.cpp:" + std::to_string(line) + "\n";
  BOOST_TEST(one.substr(0, want.size()) == want, one);
  BOOST_TEST(two.substr(0, want.size()) == want, two);
  BOOST_TEST(one != two);  // the values are in the rest of the report
  const std::string then = "HARNESS_CHECK failed at unit/harness_tests.cpp:" + std::to_string(line) + ": value == 3\n";
  BOOST_TEST(two.find(then) == want.size(), two);  // then the report as before

  // The op is the last one logged; the target is what the fuzz driver names.
  step.op = harness::PrevectorOp::kPopBack;
  log.Add(step);
  harness::SetCheckContext("prevector_sim");
  const std::string absolute = FailureText([] { harness::Fail("/home/me/src/utxo/harness/tester.cpp", 42, "c", ""); });
  BOOST_TEST(absolute.starts_with("signature: prevector_sim:PopBack:harness/tester.cpp:42\n"), absolute);
  harness::SetCheckContext("");
  const std::string relative = FailureText([] { harness::Fail("../../fuzz/fuzz.cpp", 7, "c", ""); });
  BOOST_TEST(relative.starts_with("signature: -:PopBack:fuzz/fuzz.cpp:7\n"), relative);
}

// Without a trace, and for a file in no folder of the repository, the signature still has its four fields.
BOOST_AUTO_TEST_CASE(signature_without_trace) {
  const std::string text = FailureText([] { harness::Fail("check.cpp", 9, "c", "a message"); });
  BOOST_TEST(text.starts_with("signature: harness_tests:-:check.cpp:9\n"), text);
  BOOST_TEST(text.find("a message") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(passing_check_is_silent_and_trace_scope_ends) {
  BOOST_TEST(FailureText([] { HARNESS_CHECK(1 + 1 == 2, "never printed"); }).empty());
  {
    harness::OpLog<harness::PrevectorStep> inner;
    inner.Add(harness::PrevectorStep{});
  }
  // The log above is gone: a failure now carries no trace.
  const std::string text = FailureText([] { HARNESS_CHECK(false); });
  BOOST_TEST(text.find("operation trace") == std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(every_prevector_op_has_a_name) {
  for (uint8_t id = 0; id < harness::kPrevectorOpCount; ++id) {
    BOOST_TEST(std::string(harness::ToString(static_cast<harness::PrevectorOp>(id))) != "reserved",
               "op id " << int{id});
  }
  BOOST_TEST(std::string(harness::ToString(static_cast<harness::PrevectorOp>(harness::kPrevectorOpCount))) ==
             "reserved");
  harness::PrevectorStep s;
  s.op = harness::PrevectorOp::kInsertSelfRange;
  s.pos = 1;
  s.index = 2;
  s.count = 3;
  BOOST_TEST(s.ToString() == "InsertSelfRange(side=0, pos=1, index=2, count=3)");
}

BOOST_AUTO_TEST_CASE(hex_rendering) {
  const std::vector<uint8_t> bytes{0x00, 0x0f, 0xa5, 0xff};
  BOOST_TEST(HexStr(bytes) == "000fa5ff");
  BOOST_TEST(HexStr(bytes, 2) == "000f...");
  BOOST_TEST(HexStr(bytes, 4) == "000fa5ff");
  BOOST_TEST(HexStr(std::string_view("\x01\xfe", 2)) == "01fe");
  BOOST_TEST(HexStr(std::span<const uint8_t>{}) == "");
}

BOOST_AUTO_TEST_CASE(rng_is_reproducible) {
  harness::Rng a(42), b(42), c(43);
  const uint64_t first = a.Next();
  BOOST_TEST(first == b.Next());
  BOOST_TEST(first != c.Next());
  // SplitMix64's published first output for seed 0 (Vigna's reference implementation).
  BOOST_TEST(harness::Rng(0).Next() == 0xe220a8397b1dcdafULL);
  for (int i = 0; i < 1000; ++i) BOOST_TEST_REQUIRE(a.Range(5, 9) >= 5u);
}

BOOST_AUTO_TEST_CASE(seed_from_environment) {
  const char* outer = std::getenv("SEED");
  const std::string saved = outer ? outer : "";
  ::unsetenv("SEED");
  BOOST_TEST(harness::TestSeed(7) == 7u);
  ::setenv("SEED", "0x10", 1);
  BOOST_TEST(harness::TestSeed(7) == 16u);
  ::setenv("SEED", "12abc", 1);
  BOOST_CHECK_THROW(harness::TestSeed(7), std::invalid_argument);
  if (outer) {
    ::setenv("SEED", saved.c_str(), 1);
  } else {
    ::unsetenv("SEED");
  }
}

BOOST_AUTO_TEST_SUITE_END()
