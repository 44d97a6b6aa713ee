// What `mimic view` draws (issue 18): a motion read from its files, decimated to the frames the page
// plays, with every body's placement computed here by forward kinematics (the page has no kinematics of
// its own), the ZMP and the support polygon of each frame, the kinematic reference as joint origins when the
// retarget saved X.reference.* beside the motion, and the violations `mimic check` finds, mapped to the
// frames and to the bodies they concern. Robot-independent: the bodies, shapes and names are the model's
// and its collision model's. page.hpp turns a scene into the HTML page.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mimic/evaluation/check.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/pipeline/robot.hpp"

namespace mimic::view {

struct SceneOptions {
  // Hz of the frames the page holds. 50 Hz is smoother than the eye needs at 1x (a display refreshes at
  // 60 Hz) and keeps an 8 s motion's page a fraction of a 200 Hz one's size; a slower motion keeps its
  // own samples.
  double rate = 50.0;
  // The rate of a .csv motion, which carries no time (io/csv_motion.hpp): required for one.
  std::optional<double> csv_rate;
  std::vector<model::ContactInterval> contacts;  // the job's phases; empty: detected, as `mimic check`
  evaluation::CheckOptions check;                // as `mimic check` would check the motion
};

// One violation of the check as the page shows it.
struct MarkedViolation {
  std::string label;  // "torque RLEG_JOINT3", "collision A / B", "ZMP"
  evaluation::ViolationKind kind = evaluation::ViolationKind::kAngle;
  std::vector<int> bodies;  // model bodies to colour (empty: the ZMP)
  std::vector<int> frames;  // frames holding a violating sample, increasing
};

struct Scene {
  std::string title;                             // the motion's file name
  std::vector<std::string> body_names;           // model bodies (URDF links)
  std::vector<int> parents;                      // parents[0] = -1
  std::vector<geometry::CollisionShape> shapes;  // in their body's frame

  std::vector<double> times;  // s, one per frame
  std::vector<int> samples;   // the motion sample each frame shows (the nearest one to its time)
  // Per frame f, rows 7 b .. 7 b + 6: body b's position (3) and orientation quaternion x y z w (4), world.
  Eigen::MatrixXd placements;
  Eigen::MatrixXd zmp;         // 3 x frames, world; NaN where the ground would have to pull
  bool zmp_from_file = false;  // X.zmp beside the motion, else computed from the dynamics
  std::vector<std::vector<Eigen::Vector2d>> support;  // per frame: the support polygon (ccw, ground)
  std::vector<double> ground_heights;                 // per frame: the ground height of that polygon, m
  // Per frame, rows 3 b .. 3 b + 2: the reference's body b origin (world); empty without X.reference.*.
  Eigen::MatrixXd reference;
  std::vector<MarkedViolation> violations;
  evaluation::Report report;
};

// The frames a motion of `sample_times` is drawn with at `rate` Hz: the sample nearest to each of
// t0, t0 + 1 / rate, ... up to the last sample (every sample when the motion is not faster than `rate`).
std::vector<int> frame_samples(const std::vector<double>& sample_times, double rate);

// The frame of each sample: the one whose shown sample is nearest in time (so a violation of one sample
// between two frames still marks a frame).
std::vector<int> frame_of_samples(const std::vector<double>& sample_times,
                                  const std::vector<int>& frame_samples);

// The bodies a violation of the check concerns: a joint's child body, both bodies of a pair of shapes, the
// foot of a "right foot" / "left foot" entry (ground, slip); none for the ZMP or a name the robot lacks.
std::vector<int> violation_bodies(const pipeline::Robot& robot, const evaluation::Violation& violation);

// Reads X.pos (X.waist / X.hip / X.zmp and X.reference.* beside it when present), checks it as `mimic check`
// does with `options.check`, and builds the scene. InputError for unreadable files, as `mimic check`.
Scene build_scene(const pipeline::Robot& robot, const std::filesystem::path& motion,
                  const SceneOptions& options);

}  // namespace mimic::view
