#include "tx/reject.h"

namespace embedded {

const char* Reason(Reject r) {
  switch (r) {
    case Reject::kNone: return "";
    case Reject::kVinEmpty: return "bad-txns-vin-empty";
    case Reject::kVoutEmpty: return "bad-txns-vout-empty";
    case Reject::kOversize: return "bad-txns-oversize";
    case Reject::kVoutNegative: return "bad-txns-vout-negative";
    case Reject::kVoutTooLarge: return "bad-txns-vout-toolarge";
    case Reject::kTxoutTotalTooLarge: return "bad-txns-txouttotal-toolarge";
    case Reject::kInputsDuplicate: return "bad-txns-inputs-duplicate";
    case Reject::kCbLength: return "bad-cb-length";
    case Reject::kPrevoutNull: return "bad-txns-prevout-null";
    case Reject::kBlkLength: return "bad-blk-length";
    case Reject::kCbMissing: return "bad-cb-missing";
    case Reject::kCbMultiple: return "bad-cb-multiple";
    case Reject::kInputsMissingOrSpent: return "bad-txns-inputs-missingorspent";
    case Reject::kBlkSigops: return "bad-blk-sigops";
  }
  return "unknown";
}

}  // namespace embedded
