// Compiled (never linked) by cmake/BitcoinCore.cmake against the Bitcoin Core tree under test: each row of
// SUITE_CORE_FEATURES (core/features.h) leaves one line in the object file, read back with file(STRINGS):
//   SUITE_CORE_FEATURE|<name>|<need>|<since>|<what>|<0 or 1>
#include "core/features.h"

#include <array>
#include <cstddef>

namespace {

template <size_t N>
constexpr std::array<char, N + 1> Line(const char (&text)[N], bool answer) {
  std::array<char, N + 1> out{};
  for (size_t i = 0; i + 1 < N; ++i) out[i] = text[i];
  out[N - 1] = answer ? '1' : '0';
  return out;
}

#define SUITE_CORE_PROBE_LINE(name, need, since, what, answer)                              \
  [[gnu::used]] constexpr auto probe_##name =                                                \
      Line("SUITE_CORE_FEATURE|" #name "|" #need "|" since "|" what "|", core_features::name);
SUITE_CORE_FEATURES(SUITE_CORE_PROBE_LINE)
#undef SUITE_CORE_PROBE_LINE

}  // namespace
