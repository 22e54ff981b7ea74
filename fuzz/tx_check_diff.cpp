// tx_check_diff: the input bytes are a serialized transaction. When the subject's parser accepts them, the
// transaction must serialize back to exactly those bytes (subject and reference serializer), parse back
// to itself, and get the same verdict and reason from CheckTransaction and the reference. Bytes that do not
// parse are not a failure.
#include "fuzz.h"
#include "tx_tester.h"

FUZZ_TARGET(tx_check_diff) { harness::CheckTxBytes(buffer); }
