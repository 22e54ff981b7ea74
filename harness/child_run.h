// Running a program in a child process and collecting what it printed: how the harness asks questions whose
// answer may be that the program ends (a known bug's input, a behaviour that aborts) without ending the
// asking process.
#pragma once

#include <string>
#include <vector>

namespace harness {

struct ChildRun {
  bool exited = false;  // exited normally (else killed by a signal: abort, a sanitizer's report, ...)
  int status = 0;       // the exit status, or the signal's number
  std::string output;   // stdout and stderr together
  bool Failed() const { return !exited || status != 0; }
};

// `program` with `args` (argv[1..]) and the environment, where `set` holds NAME=VALUE entries that replace
// any entry of the same name, and `unset` names entries left out. Throws std::runtime_error if it cannot run.
ChildRun RunChild(const std::string& program, const std::vector<std::string>& args, const std::vector<std::string>& set,
                  const std::vector<std::string>& unset = {});

// This binary's path, for a child that runs this very program.
std::string SelfPath();

}  // namespace harness
