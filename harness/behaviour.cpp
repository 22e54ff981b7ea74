#include "behaviour.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "child_run.h"
#include "seam/types.h"

namespace harness {
namespace {

std::map<std::string, const Behaviour*>& Registry() {
  static std::map<std::string, const Behaviour*> behaviours;
  return behaviours;
}

bool Decide(const Behaviour& b) {
  // The child records no observations and no coverage of its own: a review's log and profile are the
  // asking process's.
  const ChildRun run =
      RunChild(SelfPath(), {}, {std::string("SUITE_BEHAVIOUR_SCENARIO=") + b.name, "LLVM_PROFILE_FILE=/dev/null"},
               {"SUITE_OBSERVE", "FUZZ"});
  if (run.exited && (run.status == 0 || run.status == 1)) return run.status == 1;
  if (!run.exited && run.output.find(kReached) != std::string::npos) return true;
  throw std::logic_error(std::string("behaviour ") + b.name + ": its scenario ended neither way (" +
                         (run.exited ? "exit status " : "signal ") + std::to_string(run.status) + "):\n" + run.output);
}

}  // namespace

bool RegisterBehaviour(const Behaviour& b) { return Registry().emplace(b.name, &b).second; }

bool HasSecondForm(const Behaviour& b) {
  if (!seam::kSubjectIsCore) return false;
  static std::mutex mutex;
  static std::map<std::string, bool> answers;
  const std::lock_guard lock(mutex);
  const auto it = answers.find(b.name);
  if (it != answers.end()) return it->second;
  const bool second = Decide(b);
  answers.emplace(b.name, second);
  std::cerr << "Bitcoin Core behaviour " << b.name << ": " << (second ? b.second : b.first) << "\n";
  return second;
}

void RunBehaviourScenarioIfAsked() {
  const char* name = std::getenv("SUITE_BEHAVIOUR_SCENARIO");
  if (name == nullptr || *name == '\0') return;
  const auto it = Registry().find(name);
  if (it == Registry().end()) {
    std::fprintf(stderr, "behaviour scenario '%s': not in this binary\n", name);
    std::_Exit(3);
  }
  const int answer = it->second->scenario();
  std::fflush(nullptr);
  std::_Exit(answer);
}

}  // namespace harness
