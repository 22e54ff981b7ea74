// Replaying inputs past a failure: every input runs, in order, and each distinct failure is reported once,
// with how many inputs failed so and the smallest of them. The plain replay main uses it
// (fuzz/replay_main.cpp); fuzz/replay_loop_test.cpp tests it.
//
// How: the calling process (the parent) runs no input. It forks a child that runs the inputs one after
// another in-process; the child writes its stderr to a file of the parent's and, before each input, notes in
// a page shared with the parent which input it starts and where that input's output begins. When the child
// dies (an abort, a signal, a sanitizer's nonzero exit) the parent reads what input was running and what it
// wrote, records the failure, and forks the next child to go on after it. A passing run costs one fork.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz::replay {

// The size of an input that is no file (stdin): larger than any, so a file of the same failure is shown first.
inline constexpr uint64_t kUnknownSize = UINT64_MAX;

// What a summary says of an input. The loop asks for it only for inputs that fail: a passing replay spends
// nothing on names and sizes.
struct Input {
  std::string name;  // a path, or "-" for stdin
  uint64_t size;     // bytes, or kUnknownSize; the smallest failing input of a signature is shown
};
using DescribeInput = std::function<Input(size_t index)>;

// Stands for the input of a failure that came after the last input, as the child exited (a leak report).
inline constexpr size_t kAtExit = SIZE_MAX;

// One distinct failure (fuzz/replay_signature.h) and the inputs that failed with it.
struct Failure {
  std::string signature;
  size_t count = 0;     // failing inputs (or 1 for a failure at exit)
  size_t smallest = 0;  // index of the smallest of them (by size, then name), or kAtExit
  Input input;          // what DescribeInput said of it
  std::string report;   // everything its run wrote to stderr, up to its process's death
};

struct Outcome {
  size_t failed = 0;              // the failing inputs
  std::vector<Failure> failures;  // distinct signatures, in the order they first occurred
  // The run stopped at an input RunInput could not run (returned false), or the loop could not go on
  // (no temporary file, no fork); the reason has been written to stderr. Status 2, as a usage error.
  bool stopped = false;
};

// Runs input `index` in a child. Returns false, having said why on stderr, when the input cannot be run at
// all (an unreadable file); dies when the input fails; returns true when it passes.
using RunInput = std::function<bool(size_t index)>;

// Runs inputs 0 .. count - 1 in order through `run`, in children forked from the caller (which must have no
// other thread), and returns what failed. The children's stderr output for passing inputs is copied to
// stderr when each child ends; for each failing input one line `replay: <name> failed: <signature>` is
// written to stderr. Each child exits through std::exit after its last input, so its exit handlers (a leak
// check, the coverage profile) run there; a child's coverage profile goes to its own file when
// LLVM_PROFILE_FILE holds %p.
Outcome RunKeepGoing(size_t count, const RunInput& run, const DescribeInput& describe);

// Writes to `out` for each distinct failure its count, its smallest input and that input's report, then a
// list of the signatures with their counts as the last lines. `count`: how many inputs ran.
void PrintSummary(std::FILE* out, std::string_view target, size_t count, const Outcome& outcome);

}  // namespace fuzz::replay
