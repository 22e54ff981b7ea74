#include "replay_signature.h"

#include <sys/wait.h>

#include <array>
#include <cctype>
#include <csignal>
#include <optional>

namespace fuzz::replay {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool Contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The kinds of line FailureSignature looks for, most telling first; std::nullopt for any other line.
std::optional<size_t> Kind(std::string_view line) {
  if (StartsWith(line, "signature: ")) return 0;
  if (StartsWith(line, "SUMMARY: ") && Contains(line, "Sanitizer: ")) return 1;
  if (StartsWith(line, "terminate called after throwing an instance of '")) return 2;
  const size_t assertion = line.find("Assertion ");
  if (assertion != std::string_view::npos && line.find(" failed", assertion) != std::string_view::npos) return 3;
  return std::nullopt;
}
constexpr size_t kKinds = 4;

// `line` with what differs between inputs that fail alike replaced (see the header).
std::string Normalize(std::string_view line, std::string_view input) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  // A leak summary counts what this input leaked: "SUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s)."
  const bool leak = Contains(line, " leaked in ");
  std::string out;
  for (size_t i = 0; i < line.size();) {
    const std::string_view rest = line.substr(i);
    if (input.size() > 1 && StartsWith(rest, input)) {  // "-" (stdin) is no path
      out += "<input>";
      i += input.size();
    } else if (StartsWith(rest, "0x") && rest.size() > 2 && IsHex(rest[2])) {
      out += "0x?";
      for (i += 2; i < line.size() && IsHex(line[i]);) ++i;
    } else if (StartsWith(rest, "==") && rest.size() > 2 && IsDigit(rest[2])) {
      size_t end = 2;
      while (end < rest.size() && IsDigit(rest[end])) ++end;
      if (StartsWith(rest.substr(end), "==")) {
        out += "==?==";
        i += end + 2;
      } else {
        out += rest.substr(0, end);
        i += end;
      }
    } else if (leak && IsDigit(rest[0]) && (out.empty() || !std::isalnum(static_cast<unsigned char>(out.back())))) {
      out += '?';
      while (i < line.size() && IsDigit(line[i])) ++i;
    } else {
      out += line[i++];
    }
  }
  return out;
}

}  // namespace

std::string SignalName(int sig) {
  static constexpr std::array<std::pair<int, const char*>, 16> kNames{{
      {SIGABRT, "SIGABRT"},
      {SIGSEGV, "SIGSEGV"},
      {SIGBUS, "SIGBUS"},
      {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},
      {SIGTRAP, "SIGTRAP"},
      {SIGSYS, "SIGSYS"},
      {SIGKILL, "SIGKILL"},
      {SIGTERM, "SIGTERM"},
      {SIGINT, "SIGINT"},
      {SIGQUIT, "SIGQUIT"},
      {SIGHUP, "SIGHUP"},
      {SIGPIPE, "SIGPIPE"},
      {SIGALRM, "SIGALRM"},
      {SIGXCPU, "SIGXCPU"},
      {SIGXFSZ, "SIGXFSZ"},
  }};
  for (const auto& [number, name] : kNames) {
    if (number == sig) return name;
  }
  return "signal " + std::to_string(sig);
}

std::string FailureSignature(std::string_view report, int wait_status, std::string_view input) {
  std::array<std::optional<std::string_view>, kKinds> first;
  for (size_t at = 0; at < report.size();) {
    size_t end = report.find('\n', at);
    if (end == std::string_view::npos) end = report.size();
    const std::string_view line = report.substr(at, end - at);
    if (const auto kind = Kind(line); kind && !first[*kind]) first[*kind] = line;
    at = end + 1;
  }
  for (const auto& line : first) {
    if (line) return Normalize(*line, input);
  }
  if (WIFSIGNALED(wait_status)) return "fatal signal " + SignalName(WTERMSIG(wait_status));
  return "exit status " + std::to_string(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : wait_status);
}

}  // namespace fuzz::replay
