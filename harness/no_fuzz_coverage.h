// HARNESS_NO_FUZZ_COVERAGE: oracle code out of libFuzzer's feedback. Its own header, as the Core adapters'
// check-only shims (core/coins_cache_shims.h) use it too without the rest of the harness.
#pragma once

// Marks oracle code (comparisons of subject with reference, reference bookkeeping) as uninteresting to
// coverage-guided fuzzers: its loops and compares give the engine no signal about the subject, but with
// -fsanitize=fuzzer they add per-compare callbacks and a stream of loop-count features that slowed the
// model-based targets several-fold. Sanitizers still check it; source-based coverage still counts it.
#if defined(__clang__) && __has_attribute(no_sanitize)
#define HARNESS_NO_FUZZ_COVERAGE __attribute__((no_sanitize("coverage")))
// The same for every function defined between BEGIN and END: for files that are oracle code throughout
// and reach the subject only through calls it compiles out of line (so the subject stays instrumented).
#define HARNESS_NO_FUZZ_COVERAGE_BEGIN \
  _Pragma("clang attribute push(__attribute__((no_sanitize(\"coverage\"))), apply_to = function)")
#define HARNESS_NO_FUZZ_COVERAGE_END _Pragma("clang attribute pop")
#else
#define HARNESS_NO_FUZZ_COVERAGE
#define HARNESS_NO_FUZZ_COVERAGE_BEGIN
#define HARNESS_NO_FUZZ_COVERAGE_END
#endif
