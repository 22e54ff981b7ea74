#include "prevector_tester.h"

namespace harness {

std::string PrevectorStep::ToString() const {
  const uint8_t args = OpColumn(kTraits, op);
  std::string out = std::string(harness::ToString(op)) + "(side=" + std::to_string(side);
  if (args & kPos) out += ", pos=" + std::to_string(pos);
  if (args & kIndex) out += ", index=" + std::to_string(index);
  if (args & kCount) out += ", count=" + std::to_string(count);
  if (args & kValue) out += ", value=" + std::to_string(value);
  return out + ")";
}

}  // namespace harness
