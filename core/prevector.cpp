#include "core/prevector.h"
#include "core/prevector_features.h"
#include "core/unavailable.h"

namespace core_adapter {

SUITE_CORE_CHECK_ANSWERS(SUITE_CORE_PREVECTOR_FEATURES)

template <unsigned int N, typename T>
void SerializePrevector(std::vector<uint8_t>& out, const Prevector<N, T>& v) {
  IfTreeHas<SUITE_CORE_prevector_serialize, void>("Serialize(VectorWriter, prevector)", out, [&](auto& bytes) {
    Later<decltype(bytes), VectorWriter> writer{bytes, bytes.size()};
    writer << v;
  });
}

template void SerializePrevector(std::vector<uint8_t>&, const Prevector<8, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<28, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<36, uint8_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<8, uint32_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<28, uint32_t>&);
template void SerializePrevector(std::vector<uint8_t>&, const Prevector<36, uint32_t>&);

}  // namespace core_adapter
