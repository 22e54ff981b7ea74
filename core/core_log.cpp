#include "core/core_log.h"

#include <logging.h>

#include <stdexcept>

namespace core_adapter {
namespace {

std::mutex g_mu;
bool g_started = false;  // under g_mu: StartLogging (or DisableLogging, which calls it) has run

// Requires g_mu. Core asserts that the logger starts once, and DisableLogging only before.
void Start(bool listening) {
  if (g_started) return;
  g_started = true;
  if (!listening) {
    LogInstance().DisableLogging();
    return;
  }
  if (!LogInstance().StartLogging()) throw std::runtime_error("Bitcoin Core's logger did not start");
}

}  // namespace

void QuietCoreLogging() {
  const std::lock_guard lock(g_mu);
  Start(/*listening=*/false);
}

LogListener& LogListener::Get() {
  static LogListener listener;
  return listener;
}

void LogListener::Clear() {
  std::lock_guard lock(mu_);
  lines_.clear();
}

std::string LogListener::Lines() {
  std::lock_guard lock(mu_);
  return lines_;
}

LogListener::LogListener() {
  const std::lock_guard lock(g_mu);
  LogInstance().m_print_to_console = false;
  LogInstance().m_print_to_file = false;
  // A callback added after the logger started (quiet) is heard from then on.
  LogInstance().PushBackCallback([this](const std::string& line) {
    std::lock_guard lock(mu_);
    if (lines_.size() < 4096) lines_ += line;
  });
  Start(/*listening=*/true);
}

}  // namespace core_adapter
