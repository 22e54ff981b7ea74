// Questions about the subject that only running it can answer: a behaviour Bitcoin Core has in two forms
// (docs/bitcoin-core.md, "Behaviours in two forms"), one of which may end the process. Each question is a
// scenario, run once per process in a child process of this very binary, so that "it aborts" is an answer
// rather than the end of the asker; the model follows the answer. The embedded subject's behaviour is the
// suite's contract: it is never asked.
//
// A scenario exits 0 for the first form and 1 for the second; a form that ends the process ends it after the
// scenario printed kReached, which counts as the second form. Anything else (an exit before kReached, another
// status) is an error naming the scenario and what it printed.
#pragma once

namespace harness {

struct Behaviour {
  const char* name;    // the scenario's name (SUITE_BEHAVIOUR_SCENARIO=<name> runs it)
  const char* first;   // the first form, for people: the one the embedded subject has
  const char* second;  // the second form
  int (*scenario)();   // the scenario; run only in the child
};

// What a scenario prints once it has reached the call whose form ends the process.
inline constexpr const char* kReached = "SUITE_SCENARIO_REACHED";

// Whether the subject has `b`'s second form: false for the embedded subject; against Core the scenario's
// answer (decided once per process, printed once). `b` must be registered (HARNESS_BEHAVIOUR).
bool HasSecondForm(const Behaviour& b);

// Registers `b` at static initialization, so that the child finds its scenario by name.
bool RegisterBehaviour(const Behaviour& b);
#define HARNESS_BEHAVIOUR(variable) \
  [[maybe_unused]] const bool variable##_registered_ = ::harness::RegisterBehaviour(variable)

// Every binary that can be asked calls this first: in a child asked to run a scenario
// (SUITE_BEHAVIOUR_SCENARIO), runs it and exits with its answer; elsewhere returns at once.
void RunBehaviourScenarioIfAsked();

}  // namespace harness
