// Bitcoin Core's Assert and Assume end in assertion_fail (util/check.h), which prints the failed condition
// and aborts. Every call of it reaches this wrapper instead (core/CMakeLists.txt: --wrap, where the tree has
// it in this form, row assertion_hook), which prints the suite's failure report first (the operation trace,
// the Core call in flight, whose failure it is: harness/failure_report.h) and then lets Core's own run.
#include "harness/failure_report.h"

#include <source_location>
#include <string_view>

extern "C" {
[[noreturn]] void __real__Z14assertion_failRKSt15source_locationSt17basic_string_viewIcSt11char_traitsIcEE(
    const std::source_location& loc, std::string_view assertion);

[[noreturn]] void __wrap__Z14assertion_failRKSt15source_locationSt17basic_string_viewIcSt11char_traitsIcEE(
    const std::source_location& loc, std::string_view assertion) {
  harness::ReportAssertion("assertion", loc.file_name(), loc.line(), loc.function_name(), assertion);
  __real__Z14assertion_failRKSt15source_locationSt17basic_string_viewIcSt11char_traitsIcEE(loc, assertion);
}
}
