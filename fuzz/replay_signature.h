// The signature of a failed replay input: one line that says how it failed and holds nothing that varies from
// one input to another, so that every input failing the same way gets the same line (fuzz/replay_loop.h
// groups failures by it).
#pragma once

#include <string>
#include <string_view>

namespace fuzz::replay {

// From `report`, what the input's process wrote to stderr, the first line of the most telling kind:
//   1. `signature: ...`, what a failed HARNESS_CHECK prints first (harness/check.h);
//   2. `SUMMARY: <name>Sanitizer: ...`;
//   3. `terminate called after throwing an instance of '...'`;
//   4. an `Assertion ... failed` line (assert, _GLIBCXX_ASSERTIONS);
// else, from `wait_status` (as waitpid returns it), `fatal signal SIGABRT` or `exit status 3`.
// In the line taken, `input` (the input's path) reads `<input>`, hexadecimal numbers `0x?`, a sanitizer's
// `==<pid>==` `==?==`, and in a leak summary the byte and allocation counts `?`.
std::string FailureSignature(std::string_view report, int wait_status, std::string_view input);

// "SIGSEGV" and the like for the signals a test process dies of; "signal <n>" for the others.
std::string SignalName(int sig);

}  // namespace fuzz::replay
