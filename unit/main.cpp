// The Boost.Test module. HARNESS_CHECK throws here instead of aborting, so one failing property reports
// its operation trace and the remaining tests still run; its signature line names the running test's suite.
#define BOOST_TEST_MODULE utxo_fuzz_suite
#include <boost/test/unit_test.hpp>

#include <cstdio>

#include "behaviour.h"
#include "check.h"
#include "failure_report.h"
#include "known_bugs.h"
#include "seam/types.h"

namespace {

namespace ut = boost::unit_test;

// Makes each test case's suite (e.g. file_io_tests) the <target> of a failing check's signature.
class SuiteAsCheckContext : public ut::test_observer {
 public:
  void test_unit_start(const ut::test_unit& unit) override {
    if (unit.p_type != ut::TUT_CASE) return;
    harness::SetCheckContext(ut::framework::get<ut::test_suite>(unit.p_parent_id).p_name.get());
  }
};

struct HarnessForUnitTests {
  HarnessForUnitTests() {
    harness::RunBehaviourScenarioIfAsked();  // a child asked about the subject's behaviour runs no test
    harness::SetFailureMode(harness::FailureMode::kThrow);
    harness::InstallFailureReports();
    harness::SetCheckContext("unit");
    ut::framework::register_observer(observer);
    // A known Bitcoin Core bug's input runs on the build's fuzz binary (harness/known_bugs.h).
    harness::SetTargetRunner(SUITE_FUZZ_BINARY);
    if (seam::kSubjectIsCore) std::fprintf(stderr, "%s\n", seam::kSubjectTable);
  }
  ~HarnessForUnitTests() { ut::framework::deregister_observer(observer); }
  SuiteAsCheckContext observer;
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(HarnessForUnitTests);
