// Bitcoin Core side of seam/prevector.h: Core's own prevector template, used directly.
#pragma once

#include <prevector.h>  // Bitcoin Core's src/prevector.h (an include directory of the core flavor)

#include <cstdint>
#include <vector>

namespace core_adapter {

template <unsigned int N, typename T>
using Prevector = ::prevector<N, T>;

// Core keeps is_direct() private; inline storage is exactly "data() points into the object itself".
template <unsigned int N, typename T>
bool IsDirect(const Prevector<N, T>& v) {
  const auto* object = reinterpret_cast<const unsigned char*>(&v);
  const auto* data = reinterpret_cast<const unsigned char*>(v.data());
  return data >= object && data < object + sizeof(v);
}

// Core's Serialize(stream, prevector) into `out` (appended). Defined in prevector.cpp for N in {8, 28, 36}
// and T in {uint8_t, uint32_t}, so the harness never sees Core's serialize.h.
template <unsigned int N, typename T>
void SerializePrevector(std::vector<uint8_t>& out, const Prevector<N, T>& v);

}  // namespace core_adapter
