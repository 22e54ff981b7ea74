#include "core/prevector.h"

#include <serialize.h>
#include <streams.h>

namespace core_adapter {

template <unsigned int N, typename T>
void SerializePrevector(std::vector<uint8_t>& out, const Prevector<N, T>& v) {
  VectorWriter writer{out, out.size()};
  writer << v;
}

template void SerializePrevector(std::vector<uint8_t>&, const Prevector<8, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<28, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<36, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<8, uint32_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<28, uint32_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<36, uint32_t>&);

}  // namespace core_adapter
