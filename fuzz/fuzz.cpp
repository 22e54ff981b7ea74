#include "fuzz.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

// Per-target binaries (OSS-Fuzz) define this to the target they run when FUZZ is unset.
extern "C" [[gnu::weak]] const char* const fuzz_default_target = nullptr;

namespace fuzz {
namespace {

std::map<std::string_view, TargetFn>& MutableTargets() {
  static std::map<std::string_view, TargetFn> targets;
  return targets;
}

void PrintKnown() {
  std::fprintf(stderr, "known targets:\n");
  for (const auto& [name, fn] : Targets()) std::fprintf(stderr, "  %.*s\n", static_cast<int>(name.size()), name.data());
}

}  // namespace

const std::map<std::string_view, TargetFn>& Targets() { return MutableTargets(); }

bool Register(std::string_view name, TargetFn fn) {
  if (!MutableTargets().emplace(name, fn).second) {
    std::fprintf(stderr, "fuzz: target '%.*s' is registered twice\n", static_cast<int>(name.size()), name.data());
    std::abort();
  }
  return true;
}

std::string_view SelectedName() {
  const char* name = std::getenv("FUZZ");
  if (name == nullptr || *name == '\0') name = fuzz_default_target;
  return name == nullptr ? std::string_view{} : std::string_view{name};
}

TargetFn SelectTarget() {
  const std::string_view name = SelectedName();
  if (name.empty()) {
    std::fprintf(stderr, "fuzz: set FUZZ to the target to run, e.g. FUZZ=%s\n",
                 Targets().empty() ? "name" : Targets().begin()->first.data());
    PrintKnown();
    std::exit(2);
  }
  const auto it = Targets().find(name);
  if (it == Targets().end()) {
    std::fprintf(stderr, "fuzz: unknown target '%.*s' (FUZZ)\n", static_cast<int>(name.size()), name.data());
    PrintKnown();
    std::exit(2);
  }
  return it->second;
}

void HandleListFlag(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--list") == 0 || std::strcmp(argv[i], "-list") == 0) {
      for (const auto& [name, fn] : Targets()) std::printf("%.*s\n", static_cast<int>(name.size()), name.data());
      std::exit(0);
    }
  }
}

}  // namespace fuzz
