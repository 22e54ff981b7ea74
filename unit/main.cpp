// The Boost.Test module. HARNESS_CHECK throws here instead of aborting, so one failing property reports
// its operation trace and the remaining tests still run.
#define BOOST_TEST_MODULE utxo_fuzz_suite
#include <boost/test/unit_test.hpp>

#include "check.h"

namespace {
struct ThrowOnHarnessFailure {
  ThrowOnHarnessFailure() { harness::SetFailureMode(harness::FailureMode::kThrow); }
};
}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(ThrowOnHarnessFailure);
