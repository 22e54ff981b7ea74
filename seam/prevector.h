// Seam: prevector<N, T>, the vector with N elements stored inline (Bitcoin Core's prevector.h).
//
// Contract the harness relies on (docs/semantics.md, "prevector"):
//   Prevector<N, T>         the standard-vector interface: insert/erase/resize/reserve/shrink_to_fit/assign/
//                           push_back/emplace_back/swap, copy and move, ==, the size-first <, capacity(),
//                           allocated_memory() (heap bytes, 0 while inline), data().
//   IsDirect(v)             whether the elements are stored inline (size() <= N after any operation that
//                           does not keep a larger capacity).
//   SerializePrevector(out, v)  appends CompactSize(size) then the elements little-endian.
//   kPrevectorSerialize     whether the subject serializes prevectors itself (Bitcoin Core: where the tree has
//                           Serialize(VectorWriter, prevector)); the serialization check runs only then.
//   kPrevectorSelfAliasing  whether insert/assign accept a value or range that aliases the object's own
//                           elements. The embedded subject does; Bitcoin Core's prevector does not (an
//                           insert that reallocates reads the freed buffer), so the harness skips those
//                           operations against Core.
// Instantiations used: N in {8, 28, 36}, T in {uint8_t, uint32_t}.
#pragma once

#include "seam/types.h"

#include <cstdint>
#include <vector>

#if SUITE_SUBJECT_CORE
#include "core/prevector.h"
namespace seam {
template <unsigned int N, typename T>
using Prevector = core_adapter::Prevector<N, T>;
using core_adapter::IsDirect;
using core_adapter::SerializePrevector;
inline constexpr bool kPrevectorSerialize = SUITE_CORE_prevector_serialize;
inline constexpr bool kPrevectorSelfAliasing = false;
}  // namespace seam
#else
#include "src/prevector.h"
#include "src/serialize.h"
namespace seam {
template <unsigned int N, typename T>
using Prevector = embedded::prevector<N, T>;
template <unsigned int N, typename T>
bool IsDirect(const Prevector<N, T>& v) {
  return v.is_direct();
}
using embedded::SerializePrevector;
inline constexpr bool kPrevectorSerialize = true;
inline constexpr bool kPrevectorSelfAliasing = true;
}  // namespace seam
#endif
