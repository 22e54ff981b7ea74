// prevector's questions to a Bitcoin Core tree (rows as core/features.h describes them): prevector.h.
#pragma once

#include "core/features.h"

#if __has_include(<prevector.h>)
#include <prevector.h>
#endif
#if __has_include(<streams.h>)
#include <streams.h>
#endif

namespace core_features {
// prevector is a class template, which no declaration here could stand in for: its questions name it
// through this alias, defined only where the header exists (a prevector.h without the template is then a
// compile error of this component's probe, which turns prevector off and prints the error).
#if __has_include(<prevector.h>)
inline constexpr bool kPrevectorHeader = true;
template <unsigned int N, class T>
using CorePrevector = ::prevector<N, T>;
#else
inline constexpr bool kPrevectorHeader = false;
template <unsigned int N, class T>
struct CorePrevector;
#endif
using Prevector36 = CorePrevector<36, uint8_t>;  // named once: a macro argument cannot hold its comma
}  // namespace core_features

// clang-format off
#define SUITE_CORE_PREVECTOR_FEATURES(X)                                                                           \
  X(prevector, central, "", "prevector<N, T> (prevector.h) with std::vector's interface, allocated_memory() and " \
    "data() pointing into the object when inline", "",                                                           \
    (kPrevectorHeader && SUITE_CORE_HAS(Prevector36, (C& v, const C& w, uint8_t x), \
                                        v.insert(v.begin(), x); v.insert(v.end(), size_t{2}, x);                 \
                                        v.insert(v.end(), w.begin(), w.end()); v.erase(v.begin());               \
                                        v.erase(v.begin(), v.end()); v.resize(size_t{1}); v.resize_uninitialized(size_t{1}); \
                                        v.reserve(size_t{1}); v.shrink_to_fit(); v.assign(size_t{1}, x);         \
                                        v.assign(w.begin(), w.end()); v.swap(v); v.push_back(x);                 \
                                        v.emplace_back(x); v.pop_back(); v.clear(); w.data(); w.size();          \
                                        w.capacity(); w.empty(); w.allocated_memory(); w == w; w < w; C(w);      \
                                        C(std::move(v)); v = w; v = std::move(v))))                              \
  X(prevector_serialize, api, "", "Serialize(VectorWriter, prevector<N, T>) (serialize.h, streams.h)",           \
    "check:Core's-serialization-of-a-prevector",                                                                 \
    (kPrevectorHeader && SUITE_CORE_HAS(Prevector36,                              \
                                        (const C& v, std::vector<unsigned char>& out),                          \
                                        VectorWriter(out, size_t{0}) << v)))                                     \
  /* new rows go above this line */
// clang-format on

namespace core_features {
SUITE_CORE_PREVECTOR_FEATURES(SUITE_CORE_FEATURE_CONSTANT)
}  // namespace core_features
