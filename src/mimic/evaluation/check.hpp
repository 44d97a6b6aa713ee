// `mimic check`: a motion (ours or another tool's) against the robot at the motion's own sample rate:
// joint angle, velocity and torque limits (torques with the ground reaction of seed 001 III-C), the ZMP's
// margin inside the support polygon, the slip of the support feet, and, given the robot's collision model,
// its geometry (issue 13: no pair of shapes closer than the safety distance, no sole corner below the
// floor; geometry_check.hpp).
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::evaluation {

struct CheckOptions {
  model::LimitFactors factors;             // limits scaled by safety factors (angle range about its middle)
  double zmp_margin = 0.0;                 // m the ZMP must stay inside the support polygon
  double slip_position = 1.0e-3;           // m a support foot may drift while in support
  double slip_angle = 0.1 * M_PI / 180.0;  // rad
  // Relative excess over an angle, velocity or torque limit that still counts as within it: the solvers
  // meet constraints to a feasibility tolerance of 1e-6 of the limit (issue 6: "violation <= 1e-6 of the
  // limit"), so a check stricter than that would reject what they guarantee.
  double limit_tolerance = 1.0e-6;
  // The robot's collision shapes; null, or a model without pairs and sole corners (a robot without
  // <collision> elements), certifies the limits only, and the report says so.
  std::shared_ptr<const geometry::CollisionModel> collision;
  GeometryCheckOptions geometry;
};

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
};

struct JointPeak {
  std::string joint;
  double velocity_ratio = 0.0;  // max |qdot| / velocity limit
  double torque_ratio = 0.0;    // max |tau| / effort limit
  double torque_time = 0.0;
};

struct CheckReport {
  int samples = 0;
  double duration = 0.0;
  double rate = 0.0;  // Hz, from the median sample period
  bool base_reconstructed = false;
  std::vector<JointPeak> joints;
  double peak_velocity_ratio = 0.0, peak_torque_ratio = 0.0;
  std::string peak_velocity_joint, peak_torque_joint;
  double min_zmp_margin = 0.0;  // m (negative: outside the polygon)
  double min_zmp_margin_time = 0.0;
  double max_slip_position = 0.0, max_slip_angle = 0.0;
  double max_base_residual = 0.0;  // N, base wrench the ground-reaction model leaves unexplained
  // The geometry scan; empty when the check had no collision model.
  std::optional<GeometryReport> geometry;
  std::vector<Violation> violations;  // worst first

  bool ok() const { return violations.empty(); }
};

CheckReport check_motion(const model::Model& model, const stability::Feet& feet,
                         const model::SampledMotion& motion, const CheckOptions& options = {});

// Human-readable summary, with at most `max_offenders` violations listed.
std::string format_check_report(const CheckReport& report, int max_offenders = 10);

}  // namespace mimic::evaluation
