// LeakCheckPause: while alive (and `active`), LeakSanitizer does not report what this thread allocates. For
// calls into a subject that leaks on a documented path (seam::kStoreFailedOpenLeaks), so that the report
// stays about the leaks nobody has accounted for. A no-op in builds without LeakSanitizer.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define HARNESS_LEAK_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HARNESS_LEAK_CHECKS 1
#endif
#endif
#if HARNESS_LEAK_CHECKS
#include <sanitizer/lsan_interface.h>
#endif

namespace harness {

class LeakCheckPause {
 public:
  explicit LeakCheckPause([[maybe_unused]] bool active) : active_(active) {
#if HARNESS_LEAK_CHECKS
    if (active_) __lsan_disable();
#endif
  }
  ~LeakCheckPause() {
#if HARNESS_LEAK_CHECKS
    if (active_) __lsan_enable();
#endif
  }
  LeakCheckPause(const LeakCheckPause&) = delete;
  LeakCheckPause& operator=(const LeakCheckPause&) = delete;

 private:
  [[maybe_unused]] bool active_;
};

}  // namespace harness
