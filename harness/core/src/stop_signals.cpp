#include "gpusizer/stop_signals.hpp"

#include <csignal>

namespace gpusizer {
namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{0};
struct sigaction g_old_int {};
struct sigaction g_old_term {};

extern "C" void gpusizer_on_stop_signal(int sig) {
  g_signal.store(sig);
  g_requested.store(true);
}

}  // namespace

StopSignals::StopSignals() {
  g_requested.store(false);
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = gpusizer_on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>& StopSignals::requested() {
  return g_requested;
}

int StopSignals::signal_number() {
  return g_signal.load();
}

}  // namespace gpusizer
