// The observation log: what a harness observed of its subject, step by step and input by input, written so
// that two subjects (a base and a head Bitcoin Core tree) can be compared input for input (tools/review's
// differential). Every operation a tester logs (OpLog::Add) is a `step` record, and every HARNESS_CHECK_EQ
// records the value it saw (return values, coins, flags, sizes, positions, error kinds, reject reasons);
// testers record with HARNESS_OBSERVE what no check compares exactly (Core's memory figures, raw database
// records). Rendered canonically: no addresses, nothing that depends on timing.
//
// Off unless the environment names a file in SUITE_OBSERVE (read once, before main); off, a record costs one
// test of a bool. A record whose value depends on a Bitcoin Core change the feature probe answers
// (core/features.h) carries the change's name: two trees that answer it differently may differ there, a
// difference the suite declares.
//
// Format, one record a line: `input <name>` starts an input; `<label>: <value>`, or `[<change>] <label>:
// <value>` for a value tied to a change (HARNESS_OBSERVE_CHANGE for one record, ChangeScope for a block);
// `[<change>+<change>]` for one tied to several.
#pragma once

#include <string_view>

#include "check.h"

namespace harness::observe {

// On() and Record(label, value) are declared in check.h, whose OpLog records every step.
// The records that follow are the input `name`'s (the replay driver calls it before each input).
void BeginInput(std::string_view name);
void RecordChange(std::string_view change, std::string_view label, std::string_view value);
// While one lives, every record its thread makes (steps and checked values included) is tied to `change`, a
// change row of core/features.h: for code whose records as a whole depend on which form of the change the
// tree has (a check only one form allows, steps only one form runs). Innermost wins. `change` is a literal.
class ChangeScope {
 public:
  explicit ChangeScope(const char* change);
  ~ChangeScope();
  ChangeScope(const ChangeScope&) = delete;
  ChangeScope& operator=(const ChangeScope&) = delete;

 private:
  const char* previous_;
};
// Writes what is buffered, for a process that is about to die (a failed check's abort, a sanitizer report):
// the failing input's records up to its failure reach the log. Best effort, without locking.
void FlushBeforeDeath();

}  // namespace harness::observe

// HARNESS_OBSERVE(label, parts...): a record whose value is the parts streamed; evaluated only when on.
#define HARNESS_OBSERVE(label, ...)                                                        \
  do {                                                                                     \
    if (::harness::observe::On()) [[unlikely]]                                             \
      ::harness::observe::Record(label, ::harness::Concat("" __VA_OPT__(, ) __VA_ARGS__)); \
  } while (0)
// HARNESS_OBSERVE_CHANGE(change, label, parts...): the same, tied to a Core change (a row of core/features.h).
#define HARNESS_OBSERVE_CHANGE(change, label, ...)                                                       \
  do {                                                                                                   \
    if (::harness::observe::On()) [[unlikely]]                                                           \
      ::harness::observe::RecordChange(change, label, ::harness::Concat("" __VA_OPT__(, ) __VA_ARGS__)); \
  } while (0)
