// ctest replay.keeps_going: the replay loop (fuzz/replay_loop.h) runs every input once, in order, past inputs
// that die in different ways, and reports each distinct failure once with its count, its smallest input and
// that input's report. The inputs are names with made-up sizes; what each does is in kInputs. Exits 0 when
// every expectation holds, else 1 after printing the ones that do not.
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cassert>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "check.h"
#include "replay_loop.h"
#include "replay_signature.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REPLAY_TEST_ASAN 1
#endif
#endif
#ifndef REPLAY_TEST_ASAN
#define REPLAY_TEST_ASAN 0
#endif

namespace {

using fuzz::replay::Failure;
using fuzz::replay::Input;
using fuzz::replay::Outcome;

enum class Act { kPass, kPrint, kCheck, kThrow, kSignal, kExit, kAssert, kUseAfterFree, kUnreadable, kExitFails };

struct Case {
  const char* name;
  uint64_t size;
  Act act;
};

// Sizes chosen so that the smallest failing input of a kind is not the first to fail so, and two checks tie
// in size (d.check, f.check: the first by name is shown). A passing input comes last.
constexpr std::array kInputs{
    Case{"a.print", 10, Act::kPrint},      Case{"b.check", 30, Act::kCheck},      Case{"c.pass", 5, Act::kPass},
    Case{"d.check", 20, Act::kCheck},      Case{"e.throw", 7, Act::kThrow},       Case{"f.check", 20, Act::kCheck},
    Case{"g.signal", 3, Act::kSignal},     Case{"h.exit", 4, Act::kExit},         Case{"i.assert", 9, Act::kAssert},
    Case{"j.uaf", 41, Act::kUseAfterFree}, Case{"k.uaf", 40, Act::kUseAfterFree}, Case{"l.pass", 1, Act::kPass},
};

// Runs per input, counted by the children in a page shared with this process.
std::atomic<int>* g_runs = nullptr;

int g_failures = 0;

void Expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "replay_loop_test: FAILED: %s\n", what.c_str());
  ++g_failures;
}

// The one check every kCheck input fails, so that they share a signature.
void FailingCheck(const char* name) { HARNESS_CHECK(name == nullptr, "input ", name, " fails on purpose"); }

// The one assertion every kAssert input fails (builds without NDEBUG); its signature names the line.
void FailingAssert([[maybe_unused]] const char* name) { assert(name == nullptr && "fails on purpose"); }
constexpr int kAssertLine = __LINE__ - 1;

[[gnu::noinline]] void ReadAfterFree() {
  int* block = new int[4]{1, 2, 3, 4};
  delete[] block;
  volatile int* dangling = block;
  std::printf("%d\n", dangling[2]);
}

void ExitFailsHandler() { std::_Exit(4); }

bool Perform(const std::vector<Case>& cases, size_t index) {
  const Case& c = cases[index];
  g_runs[index].fetch_add(1);
  switch (c.act) {
    case Act::kPass: return true;
    case Act::kPrint: std::fprintf(stderr, "%s passes and says so\n", c.name); return true;
    case Act::kCheck: FailingCheck(c.name); return true;
    case Act::kThrow: throw std::runtime_error(std::string(c.name) + " throws");
    case Act::kSignal: std::raise(SIGTERM); return true;
    case Act::kExit: std::_Exit(3);
    case Act::kAssert: FailingAssert(c.name); return true;
    case Act::kUseAfterFree:
      if (REPLAY_TEST_ASAN) ReadAfterFree();
      return true;
    case Act::kUnreadable: std::fprintf(stderr, "%s cannot be read\n", c.name); return false;
    case Act::kExitFails: std::atexit(ExitFailsHandler); return true;
  }
  return true;
}

// Runs `cases` through the loop with this process's stderr captured; returns the outcome and sets `output`.
Outcome Run(const std::vector<Case>& cases, std::string& output) {
  for (size_t i = 0; i < cases.size(); ++i) g_runs[i].store(0);
  std::fflush(stderr);
  const int saved = dup(STDERR_FILENO);
  std::FILE* capture = std::tmpfile();
  if (capture == nullptr || saved < 0) {
    std::perror("replay_loop_test: cannot capture stderr");
    std::exit(1);
  }
  dup2(fileno(capture), STDERR_FILENO);
  const Outcome outcome = fuzz::replay::RunKeepGoing(
      cases.size(), [&](size_t i) { return Perform(cases, i); },
      [&](size_t i) { return Input{cases[i].name, cases[i].size}; });
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  output.clear();
  std::rewind(capture);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, capture)) > 0;) output.append(buffer, n);
  std::fclose(capture);
  return outcome;
}

std::string Summary(size_t count, const Outcome& outcome) {
  std::FILE* out = std::tmpfile();
  if (out == nullptr) {
    std::perror("replay_loop_test: tmpfile");
    std::exit(1);
  }
  fuzz::replay::PrintSummary(out, "replay_loop_test", count, outcome);
  std::rewind(out);
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, out)) > 0;) text.append(buffer, n);
  std::fclose(out);
  return text;
}

bool Has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

size_t Occurrences(std::string_view text, std::string_view part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The failure whose signature holds `part`, or nullptr.
const Failure* Find(const Outcome& outcome, std::string_view part) {
  for (const Failure& f : outcome.failures) {
    if (Has(f.signature, part)) return &f;
  }
  return nullptr;
}

// Expects a failure whose signature holds `part`, failed by `count` inputs, the smallest `smallest`.
void ExpectFailure(const Outcome& outcome, std::string_view part, size_t count, std::string_view smallest) {
  const Failure* f = Find(outcome, part);
  Expect(f != nullptr, "a failure with a signature holding " + std::string(part));
  if (f == nullptr) return;
  Expect(f->count == count,
         f->signature + ": " + std::to_string(f->count) + " inputs, expected " + std::to_string(count));
  const std::string shown = f->smallest == fuzz::replay::kAtExit ? "(at exit)" : f->input.name;
  Expect(shown == smallest, f->signature + ": smallest " + shown + ", expected " + std::string(smallest));
}

void TestKeepsGoing() {
  const std::vector<Case> cases(kInputs.begin(), kInputs.end());
  std::string output;
  const Outcome outcome = Run(cases, output);
  std::fprintf(stderr, "--- the loop's stderr:\n%s--- end\n", output.c_str());
  for (size_t i = 0; i < cases.size(); ++i) {
    Expect(g_runs[i].load() == 1, std::string(cases[i].name) + " ran " + std::to_string(g_runs[i].load()) + " times");
  }
  const size_t uaf = REPLAY_TEST_ASAN ? 2 : 0;
#ifndef NDEBUG
  const size_t asserts = 1;
#else
  const size_t asserts = 0;
#endif
  Expect(!outcome.stopped, "the loop ran to the end");
  Expect(outcome.failed == 6 + asserts + uaf, "failed inputs: " + std::to_string(outcome.failed));
  Expect(outcome.failures.size() == 4 + asserts + (uaf ? 1 : 0),
         "distinct failures: " + std::to_string(outcome.failures.size()));
  ExpectFailure(outcome, "signature: replay_loop_test:-:fuzz/replay_loop_test.cpp:", 3, "d.check");
  ExpectFailure(outcome, "terminate called after throwing an instance of 'std::runtime_error'", 1, "e.throw");
  ExpectFailure(outcome, "fatal signal SIGTERM", 1, "g.signal");
  ExpectFailure(outcome, "exit status 3", 1, "h.exit");
  // An assertion and a sanitizer's report come with the failure report's signature (harness/failure_report.h).
  if (asserts)
    ExpectFailure(outcome, "signature: replay_loop_test:-:assert:replay_loop_test.cpp:" + std::to_string(kAssertLine),
                  1, "i.assert");
  if (uaf) ExpectFailure(outcome, "signature: replay_loop_test:-:AddressSanitizer:heap-use-after-free", 2, "k.uaf");
  if (const Failure* check = Find(outcome, "signature: ")) {
    Expect(Has(check->report, "input d.check fails on purpose") && !Has(check->report, "b.check"),
           "the check's report is d.check's:\n" + check->report);
  }
  if (const Failure* sanitizer = Find(outcome, "AddressSanitizer")) {
    Expect(!Has(sanitizer->signature, "0x") || Has(sanitizer->signature, "0x?"),
           "no address in " + sanitizer->signature);
    Expect(Has(sanitizer->report, "SUMMARY: AddressSanitizer: heap-use-after-free "),
           "the sanitizer's own summary "
           "stays in the report:\n" +
               sanitizer->report);
  }
  // What passing inputs print is passed on once; each failing input gets one line as it fails.
  Expect(Occurrences(output, "a.print passes and says so\n") == 1, "a.print's output passed on once");
  Expect(Occurrences(output, "replay: b.check failed: signature: replay_loop_test:") == 1, "b.check's line");
  Expect(Occurrences(output, " failed: ") == outcome.failed, "one line per failing input");

  const std::string summary = Summary(cases.size(), outcome);
  std::fprintf(stderr, "--- the summary:%s--- end\n", summary.c_str());
  Expect(Has(summary, "replay: replay_loop_test: " + std::to_string(outcome.failed) + " of 12 inputs failed:\n"),
         "the summary's count");
  Expect(Has(summary, "replay:   3 x signature: replay_loop_test:-:fuzz/replay_loop_test.cpp:"), "the checks' line");
  Expect(Has(summary, "replay:   1 x fatal signal SIGTERM\n"), "the signal's line");
  Expect(Has(summary, "replay: smallest: d.check (20 bytes); its report:\nsignature: replay_loop_test:"),
         "d.check's report follows its name");
  if (uaf)
    Expect(Has(summary, "replay:   2 x signature: replay_loop_test:-:AddressSanitizer:heap-use-after-free\n"),
           "the sanitizer's line");
}

// An input that cannot be run stops the loop (status 2); one that fails as its process exits is no input's.
void TestStopsAndExits() {
  std::string output;
  const Outcome stopped =
      Run({{"a.check", 1, Act::kCheck}, {"b.unreadable", 1, Act::kUnreadable}, {"c.pass", 1, Act::kPass}}, output);
  Expect(stopped.stopped && stopped.failed == 1, "an unreadable input stops the loop");
  Expect(g_runs[2].load() == 0, "nothing runs after an unreadable input");
  Expect(Has(output, "b.unreadable cannot be read\n"), "the unreadable input's message is passed on");

  const Outcome at_exit = Run({{"a.pass", 1, Act::kExitFails}, {"b.pass", 1, Act::kPass}}, output);
  Expect(!at_exit.stopped && at_exit.failed == 0 && at_exit.failures.size() == 1, "a failure at exit is reported");
  ExpectFailure(at_exit, "exit status 4", 1, "(at exit)");
  Expect(g_runs[1].load() == 1, "the input before the failing exit ran");

  const Outcome passing = Run({{"a.print", 1, Act::kPrint}, {"b.pass", 1, Act::kPass}}, output);
  Expect(!passing.stopped && passing.failures.empty(), "a passing run passes");
  Expect(output == "a.print passes and says so\n", "a passing run prints what its inputs print:\n" + output);
}

void TestSignatures() {
  using fuzz::replay::FailureSignature;
  const int aborted = SIGABRT;  // a wait status: killed by SIGABRT
  Expect(FailureSignature("x\nsignature: t:Op:harness/a.cpp:3\nSUMMARY: AddressSanitizer: SEGV\n", aborted,
                          "/work/in") == "signature: t:Op:harness/a.cpp:3",
         "a harness signature comes first");
  Expect(FailureSignature("==123==ERROR: AddressSanitizer: SEGV on 0x1234\nSUMMARY: AddressSanitizer: SEGV "
                          "(/bin/fuzz+0xdeadbeef) in f\n==123==ABORTING\n",
                          1 << 8, "/work/in") == "SUMMARY: AddressSanitizer: SEGV (/bin/fuzz+0x?) in f",
         "addresses are stripped");
  Expect(FailureSignature("SUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).\n", 1 << 8, "") ==
             "SUMMARY: AddressSanitizer: ? byte(s) leaked in ? allocation(s).",
         "leak counts are stripped");
  Expect(FailureSignature("fuzz: /c/x.cpp:7: void f(): Assertion `/in/put' failed.\n", aborted, "/in/put") ==
             "fuzz: /c/x.cpp:7: void f(): Assertion `<input>' failed.",
         "the input's path is stripped");
  Expect(FailureSignature("==42==ERROR: LeakSanitizer: detected memory leaks\n", 1 << 8, "") == "exit status 1",
         "without a known line, the exit status");
  Expect(FailureSignature("", SIGSEGV, "") == "fatal signal SIGSEGV", "without a known line, the signal");
}

}  // namespace

int main() {
  harness::SetCheckContext("replay_loop_test");
  void* page = mmap(nullptr, sizeof(std::atomic<int>) * kInputs.size(), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    std::perror("replay_loop_test: mmap");
    return 1;
  }
  g_runs = static_cast<std::atomic<int>*>(page);
  for (size_t i = 0; i < kInputs.size(); ++i) new (&g_runs[i]) std::atomic<int>(0);
  TestSignatures();
  TestKeepsGoing();
  TestStopsAndExits();
  if (g_failures == 0) std::fprintf(stderr, "replay_loop_test: every expectation holds\n");
  return g_failures == 0 ? 0 : 1;
}
