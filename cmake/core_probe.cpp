// Compiled (never linked) by cmake/BitcoinCore.cmake against the Bitcoin Core tree under test. The command
// line names the lists of questions to ask: -include core/<component>_features.h (and core/features.h for
// the shared list) and -D'SUITE_CORE_PROBE_UNITS(U)=U(<component>, <list macro>) ...'. Each row leaves one
// line in the object file, read back with file(STRINGS):
//   SUITE_CORE_FEATURE|<component>|<name>|<need>|<since>|<what>|<off>|<0 or 1>
// Rows that only an explicit instantiation can ask (a list X(name, need, since, what, off, Class, member),
// named by -D'SUITE_CORE_PROBE_ACCESS_UNITS(U)=U(<component>, <list macro>)') say 0, unless the unit is
// compiled with -DSUITE_CORE_PROBE_ACCESS=1: then it instantiates each row's member pointer and says 1,
// which it can do only when it compiles (cmake/BitcoinCore.cmake then takes the 1).
#include <array>
#include <cstddef>

namespace {

constexpr char kPrefix[] = "SUITE_CORE_FEATURE|";

// kPrefix, then `component`, '|', `row` (which ends in '|') and the answer's digit.
template <size_t A, size_t B>
constexpr std::array<char, sizeof kPrefix + A + B> Line(const char (&component)[A], const char (&row)[B], bool answer) {
  std::array<char, sizeof kPrefix + A + B> out{};
  size_t at = 0;
  for (size_t i = 0; i + 1 < sizeof kPrefix; ++i) out[at++] = kPrefix[i];
  for (size_t i = 0; i + 1 < A; ++i) out[at++] = component[i];
  out[at++] = '|';
  for (size_t i = 0; i + 1 < B; ++i) out[at++] = row[i];
  out[at] = answer ? '1' : '0';
  return out;
}

#ifndef SUITE_CORE_PROBE_ACCESS
#define SUITE_CORE_PROBE_ACCESS 0
#endif

#define SUITE_CORE_PROBE_LINE(name, need, since, what, off, answer) \
  [[gnu::used]] constexpr auto probe_##name =                       \
      Line(kComponent, #name "|" #need "|" since "|" what "|" off "|", core_features::name);
#define SUITE_CORE_PROBE_UNIT(component, LIST) \
  namespace probe_##component {                \
    constexpr char kComponent[] = #component;  \
    LIST(SUITE_CORE_PROBE_LINE)                \
  }
#if defined(SUITE_CORE_PROBE_UNITS) && !SUITE_CORE_PROBE_ACCESS
SUITE_CORE_PROBE_UNITS(SUITE_CORE_PROBE_UNIT)
#endif

}  // namespace

#ifdef SUITE_CORE_PROBE_ACCESS_UNITS
// A pointer to a member named in an explicit instantiation's template argument is exempt from access
// checking ([temp.spec.general]); the instantiation fails to compile where the member does not exist.
template <auto Member>
struct SuiteCoreAccessProbe {};
#define SUITE_CORE_PROBE_INSTANTIATE(name, need, since, what, off, Class, member) \
  template struct SuiteCoreAccessProbe<&Class::member>;
#define SUITE_CORE_PROBE_INSTANTIATE_UNIT(component, LIST) LIST(SUITE_CORE_PROBE_INSTANTIATE)
#if SUITE_CORE_PROBE_ACCESS
SUITE_CORE_PROBE_ACCESS_UNITS(SUITE_CORE_PROBE_INSTANTIATE_UNIT)
#endif
namespace {
#define SUITE_CORE_PROBE_ACCESS_LINE(name, need, since, what, off, Class, member) \
  [[gnu::used]] constexpr auto probe_##name =                                     \
      Line(kComponent, #name "|" #need "|" since "|" what "|" off "|", SUITE_CORE_PROBE_ACCESS);
#define SUITE_CORE_PROBE_ACCESS_UNIT(component, LIST) \
  namespace access_##component {                      \
    constexpr char kComponent[] = #component;         \
    LIST(SUITE_CORE_PROBE_ACCESS_LINE)                \
  }
SUITE_CORE_PROBE_ACCESS_UNITS(SUITE_CORE_PROBE_ACCESS_UNIT)
}  // namespace
#endif
