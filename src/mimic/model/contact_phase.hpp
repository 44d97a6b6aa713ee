// Which feet carry the robot: per sample (ContactPhase), or as time intervals (ContactInterval, the job
// YAML's `contacts:` and the walking schedule's output).
#pragma once

#include <vector>

namespace mimic::model {

// Which feet carry the robot at one sample.
enum class ContactPhase : unsigned char { kDoubleSupport, kRightSupport, kLeftSupport };

inline bool right_foot_in_contact(ContactPhase c) { return c != ContactPhase::kLeftSupport; }
inline bool left_foot_in_contact(ContactPhase c) { return c != ContactPhase::kRightSupport; }

// The phase over [start, end] (s, both ends included).
struct ContactInterval {
  double start = 0.0;
  double end = 0.0;
  ContactPhase phase = ContactPhase::kDoubleSupport;
};

// Per-sample phases from intervals. A sample inside several intervals takes the last one listed (a later
// entry overrides); a sample outside every interval is in double support, since the robot has no flight
// phase and standing is the safe reading of "not specified".
std::vector<ContactPhase> phases_from_intervals(const std::vector<double>& times,
                                                const std::vector<ContactInterval>& intervals);

}  // namespace mimic::model
