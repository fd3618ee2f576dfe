#include "base/time.h"

namespace hostloop::base {
namespace {

class SteadyTickClock final : public TickClock {
 public:
  TimePoint Now() const override {
    return std::chrono::time_point_cast<Duration>(std::chrono::steady_clock::now());
  }
};

}  // namespace

const TickClock* TickClock::Default() {
  static const SteadyTickClock clock;
  return &clock;
}

}  // namespace hostloop::base
