#include "failure_report.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "seam/types.h"

// Set when a sanitizer runtime is linked: the function, file and line of a code address, inlined frames
// included (each a '\0'-terminated entry, innermost first).
extern "C" [[gnu::weak]] void __sanitizer_symbolize_pc(void* pc, const char* fmt, char* out, size_t out_size);

namespace harness {
namespace fault_file {
// The failing disk (fault_file.h), where the build has it (the file_io component).
[[gnu::weak]] const char* StruckNow();
[[gnu::weak]] void Disarm();
}  // namespace fault_file

void StopFailingTheDisk() {
  if (fault_file::Disarm != nullptr) fault_file::Disarm();
}

namespace {

enum class Owner { kSubject, kSuite, kOther };

struct Frame {
  std::string function;
  std::string file;  // absolute, normalized; empty when unknown
  unsigned line = 0;
  Owner owner = Owner::kOther;
};

const uint8_t* g_input = nullptr;
size_t g_input_size = 0;
// One report per process: the first way of ending wins (a terminate handler's abort is no second failure).
std::atomic<bool> g_reported{false};

const std::string& SuiteDir() {
  static const std::string dir = std::filesystem::path(SUITE_SOURCE_DIR).lexically_normal().string();
  return dir;
}

const std::string& SubjectDir() {
  static const std::string dir = seam::SubjectSourceDir() != nullptr
                                     ? std::filesystem::path(seam::SubjectSourceDir()).lexically_normal().string()
                                     : SuiteDir() + "/src";
  return dir;
}

bool Under(const std::string& file, const std::string& dir) {
  return file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 && file[dir.size()] == '/';
}

// The subject's tree first: a Bitcoin Core tree may sit inside this repository (build/core-src/).
Owner OwnerOf(const std::string& file) {
  if (Under(file, SubjectDir())) return Owner::kSubject;
  if (Under(file, SuiteDir())) return Owner::kSuite;
  return Owner::kOther;
}

std::string Demangle(const char* name) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && out ? out.get() : name;
}

// The frames of this thread's stack, innermost first, inlined ones each as a frame of its own.
std::vector<Frame> Stack() {
  void* pcs[128];
  const int n = backtrace(pcs, static_cast<int>(std::size(pcs)));
  std::vector<Frame> frames;
  for (int i = 0; i < n; ++i) {
    // A return address points after its call: the call's own line is the byte before.
    void* pc = i == 0 ? pcs[i] : static_cast<char*>(pcs[i]) - 1;
    if (__sanitizer_symbolize_pc == nullptr) {
      Dl_info info;
      if (dladdr(pc, &info) != 0 && info.dli_sname != nullptr) frames.push_back({Demangle(info.dli_sname), "", 0});
      continue;
    }
    char text[8192] = {};
    __sanitizer_symbolize_pc(pc, "%f\x1f%s\x1f%l", text, sizeof text);
    for (const char* entry = text; *entry != '\0' && entry < text + sizeof text; entry += std::strlen(entry) + 1) {
      std::string fields[3];
      int f = 0;
      for (const char* c = entry; *c != '\0'; ++c) {
        if (*c == '\x1f' && f < 2) {
          ++f;
        } else {
          fields[f] += *c;
        }
      }
      Frame frame;
      frame.function = fields[0];
      if (!fields[1].empty() && fields[1] != "<null>") {
        // Debug information names files relative to the repository (CMakeLists.txt: -fdebug-prefix-map).
        const std::filesystem::path file(fields[1]);
        frame.file = (file.is_relative() ? SuiteDir() / file : file).lexically_normal().string();
        frame.owner = OwnerOf(frame.file);
      }
      frame.line = static_cast<unsigned>(std::strtoul(fields[2].c_str(), nullptr, 10));
      frames.push_back(std::move(frame));
    }
  }
  return frames;
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Frames of the reporting itself and of the machinery a failure passes through on its way here: this file,
// the adapters' hook of Core's assertion_fail, Core's util/check (Assert, Assume), terminate and unwinding.
bool Machinery(const Frame& f) {
  for (const char* name : {"harness::", "__wrap_", "__assert_fail", "assertion_fail", "inline_assertion_check",
                           "std::terminate", "__clang_call_terminate", "__cxa_", "__gxx_personality", "_Unwind_",
                           "__sanitizer", "__asan", "__ubsan", "__tsan"}) {
    if (StartsWith(f.function, name)) {
      // The harness's own frames are machinery only in this file; a check or tester of the harness is not.
      return std::string_view(name) != "harness::" || f.file.ends_with("harness/failure_report.cpp");
    }
  }
  return f.file.ends_with("/util/check.h") || f.file.ends_with("/util/check.cpp") ||
         f.file.ends_with("harness/failure_report.cpp") || f.file.ends_with("core/assertion_hook.cpp");
}

// A frame's file from the subject's folder or the repository ("src/streams.h:416", "core/file_io.cpp:88").
std::string Where(const Frame& f) {
  if (f.file.empty()) return "?";
  const std::string& dir = f.owner == Owner::kSubject ? SubjectDir() : SuiteDir();
  std::string shown = f.owner == Owner::kOther ? f.file : f.file.substr(dir.size() + 1);
  if (f.owner == Owner::kSubject && seam::SubjectSourceDir() == nullptr) shown = "src/" + shown;
  return shown + ":" + std::to_string(f.line);
}

// A function's qualified name without its return type and parameters, template arguments kept:
// "auto FlatFilePos core_adapter::CoreWriteBlock<node::BlockManager>(node::BlockManager&, ...)" reads
// "core_adapter::CoreWriteBlock<node::BlockManager>".
std::string Bare(std::string_view function) {
  std::string text(function);
  for (const std::string_view noise : {"(anonymous namespace)::", "decltype(auto) "}) {
    for (size_t at; (at = text.find(noise)) != std::string::npos;) text.erase(at, noise.size());
  }
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth != 0) continue;
    if (c == ' ') start = i + 1;
    if (c == '(' && i > start) return text.substr(start, i - start);
  }
  return text.substr(start);
}
bool IsDestructor(std::string_view function) { return Bare(function).find("::~") != std::string::npos; }

std::string Owned(Owner owner) {
  return owner == Owner::kSubject ? (seam::kSubjectIsCore ? "the tree" : "the subject") : "the suite";
}

struct Failure {
  std::string kind;           // the signature's <kind>: assertion, assert, terminate, a sanitizer's name
  std::string what;           // the headline: what failed
  std::string site;           // the signature's <site>, value-free
  std::string verdict;        // whose failure it is, and why
  std::string call;           // the subject call the suite was in
  std::vector<Frame> frames;  // the subject's and the suite's, from the failing one outward
};

// Judges `f` from its frames (see the header) and fills in verdict and call. `rule`: the assertion's text,
// empty for other kinds of failure; `struck`: the call the failing disk failed, nullptr if none.
void Judge(Failure& f, std::string_view rule, const char* struck) {
  if (f.frames.empty()) {
    f.verdict = "neither the subject's nor the suite's: no frame of either is on this thread's stack";
    return;
  }
  const Frame& site = f.frames.front();
  // The subject call the suite was in: the subject's outermost frame inside the suite's innermost.
  const Frame* entered = nullptr;
  const Frame* from = nullptr;
  for (const Frame& frame : f.frames) {
    if (frame.owner == Owner::kSuite) {
      from = &frame;
      break;
    }
    entered = &frame;
  }
  if (entered != nullptr && from != nullptr) {
    f.call = std::string(seam::kSubjectName) + " call in flight: " + Bare(entered->function) + ", from the suite's " +
             Bare(from->function) + " (" + Where(*from) + ")";
  }
  if (site.owner == Owner::kSuite) {
    f.verdict = "a bug of the suite: it fails in its own code, " + Bare(site.function) + " (" + Where(site) + ")";
    return;
  }
  const Frame* caller = f.frames.size() > 1 ? &f.frames[1] : nullptr;
  if (!rule.empty() && IsDestructor(site.function) && caller != nullptr && caller->owner == Owner::kSuite) {
    f.verdict = "a bug of the suite: " + Bare(caller->function) + " (" + Where(*caller) + ") destroyed " +
                seam::kSubjectName + "'s object in a state the tree's own rule forbids (`" + std::string(rule) +
                "` in " + Bare(site.function) + ", " + Where(site) +
                "); the adapters follow the rules a tree's asserts state";
    return;
  }
  // "<call>'s error path (...) <fails what>", or "<call> <fails what>": the call named where it is not the site.
  std::string verdict = "a finding against " + Owned(Owner::kSubject) + ": ";
  const bool inside = entered != nullptr && Bare(entered->function) != Bare(site.function);
  if (inside) verdict += Bare(entered->function) + (struck != nullptr ? "'s error path" : "");
  if (struck != nullptr) {
    verdict += std::string(inside ? " " : "on an error path ") + "(the failing disk failed an " + struck + ")";
  }
  if (inside || struck != nullptr) verdict += ": ";
  if (f.kind == "terminate") {
    verdict += "an exception left " + Bare(site.function) + " (" + Where(site) + "), which may not throw: the " +
               "process ends, and no caller of " + seam::kSubjectName + "'s can handle it";
  } else if (!rule.empty()) {
    verdict += std::string(seam::kSubjectName) + "'s own assertion `" + std::string(rule) + "` in " +
               Bare(site.function) + " (" + Where(site) + ") fails";
  } else {
    verdict += "the error is in " + Bare(site.function) + " (" + Where(site) + ")";
  }
  if (entered != nullptr) {
    if (const std::optional<seam::CallersContract> callers = seam::CallersOf(entered->function)) {
      verdict += callers->runtime_errors_handled
                     ? "; its callers handle its failures as std::runtime_error (" + std::string(callers->missed_by) +
                           "), so the process ends where the node would have reported the failure"
                     : "; no caller of it handles an exception (" + std::string(callers->missed_by) + ")";
    }
  }
  f.verdict = std::move(verdict);
}

void Print(Failure f, std::string_view rule) {
  if (g_reported.exchange(true)) return;
  // What ends the process next writes files of its own (a fuzzing engine's crash input): the disk works again.
  const char* struck = fault_file::StruckNow != nullptr ? fault_file::StruckNow() : nullptr;
  StopFailingTheDisk();
  // The subject's and the suite's frames up to the fuzz target's entry (the driver's own say nothing), each
  // function once where inlined lambdas and helpers repeat it.
  for (const Frame& frame : Stack()) {
    if (frame.owner == Owner::kOther || Machinery(frame)) continue;
    if (frame.file.ends_with("/fuzz/replay_main.cpp") || frame.file.ends_with("/fuzz/replay_loop.cpp") ||
        frame.file.ends_with("/fuzz/engine_main.cpp")) {
      break;
    }
    if (!f.frames.empty() && Bare(f.frames.back().function) == Bare(frame.function)) continue;
    f.frames.push_back(frame);
  }
  if (f.site.empty()) f.site = f.frames.empty() ? "-" : Bare(f.frames.front().function);
  Judge(f, rule, struck);
  std::ostringstream out;
  out << "signature: " << CheckContext() << ":" << TraceOpName() << ":" << f.kind << ":" << f.site << "\n";
  out << f.what << "\n  " << f.verdict << "\n";
  if (!f.call.empty()) out << "  " << f.call << "\n";
  RenderTrace(out);
  out << "stack (" << seam::kSubjectName << "'s and the suite's frames, innermost first):\n";
  for (const Frame& frame : f.frames) {
    out << "  " << (frame.owner == Owner::kSubject ? "[subject] " : "[suite]   ") << Bare(frame.function) << "  "
        << Where(frame) << "\n";
  }
  RenderInput(out);
  std::cerr << out.str() << std::flush;
}

std::string TypeOf(const std::exception_ptr& e, std::string& what) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    what = x.what();
    return Demangle(typeid(x).name());
  } catch (...) {
    const std::type_info* t = abi::__cxa_current_exception_type();
    return t != nullptr ? Demangle(t->name()) : "an exception";
  }
}

[[noreturn]] void OnTerminate() {
  Failure f;
  f.kind = "terminate";
  if (const std::exception_ptr e = std::current_exception()) {
    std::string what;
    const std::string type = TypeOf(e, what);
    f.what = "terminate: " + type + (what.empty() ? "" : " (\"" + what + "\")") +
             " was thrown where it could not be "
             "caught";
  } else {
    f.what = "terminate without an exception";
  }
  Print(std::move(f), {});
  std::abort();
}

}  // namespace

void InstallFailureReports() { std::set_terminate(OnTerminate); }

void RenderInput(std::ostream& out) {
  if (g_input == nullptr) return;
  constexpr size_t kShown = 512;
  static constexpr char kHex[] = "0123456789abcdef";
  out << "input: " << g_input_size << " bytes: ";
  for (size_t i = 0; i < std::min(g_input_size, kShown); ++i) out << kHex[g_input[i] >> 4] << kHex[g_input[i] & 15];
  if (g_input_size > kShown) out << "...";
  out << "\n";
}

void SetFailureInput(const uint8_t* data, size_t size) {
  g_input = data;
  g_input_size = size;
}

void ReportAssertion(std::string_view kind, std::string_view file, unsigned line, std::string_view function,
                     std::string_view assertion) {
  Failure f;
  f.kind = std::string(kind);
  const std::string_view base = file.substr(file.rfind('/') + 1);
  f.site = std::string(base) + ":" + std::to_string(line);
  f.what = std::string(kind == "assertion" ? seam::kSubjectName : "a C") + " assertion failed: `" +
           std::string(assertion) + "` in " + std::string(function) + " (" + std::string(base) + ":" +
           std::to_string(line) + ")";
  Print(std::move(f), assertion);
}

}  // namespace harness

// The C assert (glibc's __assert_fail), in this binary's code and in the subject's static libraries alike:
// the report, then what glibc would print, then abort.
extern "C" [[noreturn]] void __assert_fail(const char* assertion, const char* file, unsigned int line,
                                           const char* function) noexcept {
  harness::ReportAssertion("assert", file, line, function, assertion);
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
  std::abort();
}

// A sanitizer's report ends with its summary line, printed through this hook: the summary, then the report.
extern "C" void __sanitizer_report_error_summary(const char* summary) {
  std::fprintf(stderr, "%s\n", summary);
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
  // ThreadSanitizer calls this inside its report, holding its own locks: instrumented code here (building the
  // report) can wait on them forever. Its report, printed above, stands alone; the replay groups it by its
  // SUMMARY line.
  return;
#endif
#endif
  harness::Failure f;
  // "SUMMARY: AddressSanitizer: heap-use-after-free file:line in function": the tool and the error's kind.
  std::string_view text = summary;
  if (text.starts_with("SUMMARY: ")) text.remove_prefix(9);
  const size_t colon = text.find(": ");
  f.kind = std::string(text.substr(0, colon));
  f.what = std::string(text);
  if (colon != std::string_view::npos) {
    const std::string_view rest = text.substr(colon + 2);
    f.site = std::string(rest.substr(0, rest.find(' ')));
  }
  harness::Print(std::move(f), {});
}
