// The coins store's behaviours in two forms (behaviour.h): how a failed or undecodable read ends.
#pragma once

#include "behaviour.h"

namespace harness {

// A database read that fails (a LevelDB error): the store throws (and an error catcher above it runs its
// callbacks), or the process aborts inside the database wrapper.
extern const Behaviour kReadErrorFatal;
// A coin record the store cannot decode, read by a lookup: it reads as no coin (Core) or as an error
// (StoreCorruption: the embedded store), or the process aborts inside the database wrapper.
extern const Behaviour kBadRecordFatal;
// A coin record the store's cursor cannot decode: the walk reports it (ForEachCoin throws StoreCorruption),
// or the process aborts inside the cursor.
extern const Behaviour kCursorAbortsOnBadRecord;

}  // namespace harness
