#include "mimic/model/contact_phase.hpp"

namespace mimic::model {

std::vector<ContactPhase> phases_from_intervals(const std::vector<double>& times,
                                                const std::vector<ContactInterval>& intervals) {
  std::vector<ContactPhase> phases(times.size(), ContactPhase::kDoubleSupport);
  for (std::size_t k = 0; k < times.size(); ++k) {
    for (const ContactInterval& interval : intervals) {
      if (times[k] < interval.start || times[k] > interval.end) continue;
      phases[k] = interval.phase;
    }
  }
  return phases;
}

}  // namespace mimic::model
