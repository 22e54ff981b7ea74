#include "prevector_tester.h"

namespace harness {

const char* ToString(PrevectorOp op) {
  switch (op) {
    case PrevectorOp::kInsert: return "Insert";
    case PrevectorOp::kInsertCount: return "InsertCount";
    case PrevectorOp::kInsertRange: return "InsertRange";
    case PrevectorOp::kEraseOne: return "EraseOne";
    case PrevectorOp::kEraseRange: return "EraseRange";
    case PrevectorOp::kResize: return "Resize";
    case PrevectorOp::kResizeUninitialized: return "ResizeUninitialized";
    case PrevectorOp::kReserve: return "Reserve";
    case PrevectorOp::kShrinkToFit: return "ShrinkToFit";
    case PrevectorOp::kClear: return "Clear";
    case PrevectorOp::kAssignCount: return "AssignCount";
    case PrevectorOp::kAssignRange: return "AssignRange";
    case PrevectorOp::kPushBack: return "PushBack";
    case PrevectorOp::kPopBack: return "PopBack";
    case PrevectorOp::kEmplaceBack: return "EmplaceBack";
    case PrevectorOp::kSwap: return "Swap";
    case PrevectorOp::kCopyAssign: return "CopyAssign";
    case PrevectorOp::kMoveAssign: return "MoveAssign";
    case PrevectorOp::kCopyConstruct: return "CopyConstruct";
    case PrevectorOp::kMoveConstruct: return "MoveConstruct";
    case PrevectorOp::kInsertSelf: return "InsertSelf";
    case PrevectorOp::kInsertSelfRange: return "InsertSelfRange";
    case PrevectorOp::kAssignSelfRange: return "AssignSelfRange";
    case PrevectorOp::kSet: return "Set";
    case PrevectorOp::kSelfCopyAssign: return "SelfCopyAssign";
  }
  return "Unknown";
}

std::string PrevectorStep::ToString() const {
  enum : unsigned { kPos = 1, kIndex = 2, kCount = 4, kValue = 8 };
  unsigned args = 0;
  switch (op) {
    case PrevectorOp::kInsert: args = kPos | kValue; break;
    case PrevectorOp::kInsertCount:
    case PrevectorOp::kInsertRange: args = kPos | kCount | kValue; break;
    case PrevectorOp::kEraseOne: args = kPos; break;
    case PrevectorOp::kEraseRange: args = kPos | kCount; break;
    case PrevectorOp::kResize:
    case PrevectorOp::kReserve: args = kCount; break;
    case PrevectorOp::kResizeUninitialized:
    case PrevectorOp::kAssignCount:
    case PrevectorOp::kAssignRange: args = kCount | kValue; break;
    case PrevectorOp::kPushBack:
    case PrevectorOp::kEmplaceBack: args = kValue; break;
    case PrevectorOp::kInsertSelf:
    case PrevectorOp::kInsertSelfRange: args = kPos | kIndex | kCount; break;
    case PrevectorOp::kAssignSelfRange: args = kIndex | kCount; break;
    case PrevectorOp::kSet: args = kPos | kValue; break;
    default: break;
  }
  std::string out = std::string(harness::ToString(op)) + "(side=" + std::to_string(side);
  if (args & kPos) out += ", pos=" + std::to_string(pos);
  if (args & kIndex) out += ", index=" + std::to_string(index);
  if (args & kCount) out += ", count=" + std::to_string(count);
  if (args & kValue) out += ", value=" + std::to_string(value);
  return out + ")";
}

}  // namespace harness
