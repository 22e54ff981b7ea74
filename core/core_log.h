// Core's logger, as every adapter meets it. It buffers messages until started once per process; the
// adapters of one process may want it quiet (the coins store: nothing to hear) or heard (the block files:
// Core says why a read failed only in its log), in either order, so both go through here.
#pragma once

#include <mutex>
#include <string>

namespace core_adapter {

// Starts Core's logger with nothing printed or written to a file (a no-op once started).
void QuietCoreLogging();

// Core's log, as the adapters hear it: the lines logged since the last Clear() (at most 4 KiB). Nothing is
// printed or written to a file.
class LogListener {
 public:
  static LogListener& Get();
  void Clear();
  std::string Lines();

 private:
  LogListener();
  std::mutex mu_;
  std::string lines_;
};

}  // namespace core_adapter
