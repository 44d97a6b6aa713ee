// The one peak type of every evaluation (issue 12): where a joint's angle, velocity or torque comes
// closest to its limit. `mimic check`, `mimic smooth`, the retarget stage, the 200 Hz check of the motion
// optimisation and the walk summary all measure their peaks as this type, so that every report reads and
// prints them alike (pipeline/reports.hpp).
#pragma once

#include <string>
#include <vector>

namespace mimic::evaluation {

struct Peak {
  double value = 0.0;  // the quantity at the peak sample (rad, rad/s or N m; signed)
  double limit = 0.0;  // the limit it is held to (the nearer bound for an angle)
  // How close to the limit: |value| / limit for a velocity or a torque, |value - middle| / half range for
  // an angle; <= 1 within it.
  double ratio = 0.0;
  std::string joint;
  double time = 0.0;  // s

  // Keeps the sample with the larger ratio (the first of equal ones): the peak of one joint.
  void raise(double sample_ratio, double sample_value, double sample_limit, double sample_time) {
    if (sample_ratio > ratio)
      ratio = sample_ratio, value = sample_value, limit = sample_limit, time = sample_time;
  }
  // The same over several joints: the peak also names the joint.
  void raise(double sample_ratio, double sample_value, double sample_limit, const std::string& sample_joint,
             double sample_time) {
    if (sample_ratio > ratio) *this = {sample_value, sample_limit, sample_ratio, sample_joint, sample_time};
  }
};

// The peak of the largest ratio over joints (the last of equal ones, so that a motion at rest names the
// last joint, as the reports always did); an empty peak when there are none.
const Peak& worst(const std::vector<Peak>& peaks);

}  // namespace mimic::evaluation
