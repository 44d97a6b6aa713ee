// evaluation::Report, the one report of a motion (docs/ARCHITECTURE.md, "Reports"): what `mimic check`
// finds and what `mimic smooth`, the retarget and walk stages measure on the motion they write. The
// pipeline combines it with the stage reports and turns it into stdout lines and JSON
// (pipeline/reports.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/evaluation/peak.hpp"

namespace mimic::evaluation {

// kCollision: a pair of shapes closer than the safety distance; kGround: a sole corner below the floor.
enum class ViolationKind { kAngle, kVelocity, kTorque, kZmp, kSlip, kCollision, kGround };
const char* to_string(ViolationKind kind);

// The worst excess of one kind on one joint (or foot, or "ZMP").
struct Violation {
  ViolationKind kind = ViolationKind::kAngle;
  std::string where;    // joint name, "right foot" / "left foot", "ZMP" or "RARM_LINK6 / HEAD_LINK1"
  double time = 0.0;    // s, of the worst sample
  double value = 0.0;   // the offending value (rad, rad/s, N m, m of margin, m or rad of slip, m of
                        // distance between two shapes or of sole-corner height)
  double limit = 0.0;   // the limit it was held to
  double excess = 0.0;  // how far beyond the limit, in the value's unit (> 0)
  double ratio = 0.0;   // excess relative to the limit's scale (for ranking across kinds)
  int violating_samples = 0;
  // The indices of the violating samples, increasing (size violating_samples): what `mimic view` marks on
  // its timeline.
  std::vector<int> sample_indices;
};

// "kind where at t = T s (value V, limit L)": one violation in the one-line errors of the commands.
std::string describe(const Violation& violation);

// How far a motion is from the reference it imitates (the retarget stage).
struct ImitationErrors {
  double joint_rmse = 0.0;    // rad, active joints against the re-timed reference
  double position_rms = 0.0;  // m, head / hands in the waist frame against the reference
  double position_max = 0.0;  // m
};

struct Report {
  int samples = 0;
  double duration = 0.0;
  double rate = 0.0;  // Hz, from the median sample period
  bool base_reconstructed = false;
  // One peak per joint (model order; empty without samples), against the robot's own (unfactored) limits.
  std::vector<Peak> angle, velocity, torque;
  double min_zmp_margin = 0.0;  // m (negative: outside the polygon)
  double min_zmp_margin_time = 0.0;
  double max_slip_position = 0.0, max_slip_angle = 0.0;
  double max_base_residual = 0.0;  // N, base wrench the ground-reaction model leaves unexplained
  // Trapezoidal integral over the samples of tau^T tau, every joint, N^2 m^2 s.
  double torque_integral = 0.0;
  std::optional<ImitationErrors> imitation;  // set by the stage that imitates a reference
  // The geometry scan; empty when the check had no collision model.
  std::optional<GeometryReport> geometry;
  std::vector<Violation> violations;  // worst first

  bool ok() const { return violations.empty(); }
};

}  // namespace mimic::evaluation
