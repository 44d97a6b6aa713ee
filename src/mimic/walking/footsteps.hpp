// Footstep plans for the walking pattern generator, read from a strict YAML file (config/walk/*.yaml):
//
//   initial_stance:                        # where the soles stand at t = 0 (flat on z = 0)
//     right: { position: [0.00949, -0.095], yaw: 0.0 }
//     left:  { position: [0.00949, 0.095], yaw: 0.0 }
//   timing:                                # defaults of every step
//     single_support: 0.8                  # s, the swing of the stepping foot
//     double_support: 0.2                  # s, the weight transfer before it lifts off
//     step_height: 0.05                    # m, optional (default 0.05)
//   initial_hold: 1.0                      # s on both feet before the first transfer (optional)
//   final_hold: 1.0                        # s on both feet after the last transfer (optional)
//   upper_body: bar_upper_body.yaml        # optional: keyframe YAML or .pos, relative to this file
//   steps:
//     - { foot: right, displacement: [0.15, 0.0], waist_height_change: -0.01 }
//     - { foot: left, position: [0.3, 0.095], yaw: 0.0, single_support: 0.9 }
//
// A step names the foot that moves and where it lands: `position` (world x, y of the sole frame) or
// `displacement` (relative to that foot's previous placement, in the axes of that placement), and
// optionally `yaw` (absolute, rad; default: the foot keeps its yaw). Every step may override the timing
// keys, and may lower or raise the waist by `waist_height_change` (m, spread smoothly over the step's
// transfer and swing; seed 001 lowers the pelvis while walking).
//
// Unknown, duplicate, missing or mistyped keys are InputErrors "file:line N: key.path: ...".
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/spatial/se3.hpp"

namespace mimic::walking {

enum class Foot : unsigned char { kRight, kLeft };

const char* to_string(Foot foot);  // "right", "left"
inline Foot other_foot(Foot foot) { return foot == Foot::kRight ? Foot::kLeft : Foot::kRight; }

// A sole lying flat on the ground (z = 0): position of the sole frame's origin and its yaw.
struct FootPlacement {
  Eigen::Vector2d position = Eigen::Vector2d::Zero();  // m, world
  double yaw = 0.0;                                    // rad, about the world z axis

  // The sole frame at height z (world): Rz(yaw), (x, y, z).
  spatial::SE3 pose(double z = 0.0) const;
  // A point given in the sole frame's ground plane, in world x, y.
  Eigen::Vector2d to_world(const Eigen::Vector2d& local) const;
};

struct StepTiming {
  double single_support = 0.0;  // s
  double double_support = 0.0;  // s
  // m. A choice: a few centimetres clear a flat floor; jrl-walkgen's HRP-2 straight-walking example (the
  // S7 code base of hrp2.md) uses 0.07 m with 0.2 m steps, a lower foot swings with smaller leg forces.
  double step_height = 0.05;
};

struct Footstep {
  Foot foot = Foot::kRight;
  FootPlacement target;              // where the foot lands (resolved to world coordinates)
  StepTiming timing;                 // transfer (double support) then swing (single support)
  double waist_height_change = 0.0;  // m, added to the waist height over the step
  int line = 0;                      // line of the step in the source file (for messages), 0 if none
};

struct FootstepPlan {
  std::string source;  // the YAML file, for messages
  FootPlacement initial_right, initial_left;
  double initial_hold = 1.0;    // s; about 3.5 Tc (Tc = sqrt(zc / g) = 0.29 s for HRP-2): the CoM at rest
  double final_hold = 1.0;      // s; the CoM settles over the middle of the feet (exp(-3.5) = 3 % left)
  double final_transfer = 0.0;  // s, ZMP back to the middle; = timing.double_support of the file
  // m added to the waist height over the final transfer and hold (not a YAML key: a clip's plan raises
  // the waist it lowered for the walk there, pipeline/clip_footstep_plan.hpp, rather than during its last
  // step, which may be a long one).
  double final_waist_height_change = 0.0;
  std::filesystem::path upper_body;  // resolved against the YAML's folder; empty = none
  std::vector<Footstep> steps;

  // initial_hold + sum over steps (double + single support) + final_transfer + final_hold.
  double duration() const;
};

// Reads a plan. A missing file is an InputError; relative paths inside are resolved against its folder.
FootstepPlan load_footsteps(const std::filesystem::path& path);
// The same over text in memory; `source` names it in errors and anchors relative paths.
FootstepPlan parse_footsteps(std::string_view yaml, const std::filesystem::path& source);

}  // namespace mimic::walking
