#include "mimic/stability/walking_pattern.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/io/number_text.hpp"
#include "mimic/io/rpy.hpp"
#include "mimic/io/zmp_frame.hpp"
#include "mimic/stability/leg_ik.hpp"
#include "mimic/stability/sampled_motion.hpp"

namespace mimic::stability {
namespace {

using spatial::SE3;
using spatial::Vec3;

// Both legs of the robot and the configuration they are solved into.
class Legs {
 public:
  Legs(const model::Model& model, const model::RobotConfig& config)
      : right_(model, config.right_sole_frame), left_(model, config.left_sole_frame) {}

  std::array<int, 12> joints() const {
    std::array<int, 12> j{};
    for (std::size_t i = 0; i < 6; ++i) {
      j[i] = right_.joints()[i];
      j[i + 6] = left_.joints()[i];
    }
    return j;
  }

  // Writes both legs' angles for the soles at `state` and the waist at `waist` into q (model layout);
  // the previous angles in q seed the IK branch choice.
  void solve(const model::Model& model, const SE3& waist, const WalkState& state, double time,
             Eigen::Ref<Eigen::VectorXd> q) const {
    solve_one(model, right_, "right", waist, state.right_sole, time, q);
    solve_one(model, left_, "left", waist, state.left_sole, time, q);
  }

 private:
  static void solve_one(const model::Model& model, const LegKinematics& leg, const char* name,
                        const SE3& waist, const SE3& sole, double time, Eigen::Ref<Eigen::VectorXd> q) {
    LegAngles seed;
    for (int i = 0; i < 6; ++i) seed(i) = q[model.idx_q(leg.joints()[static_cast<std::size_t>(i)])];
    const LegIkResult result = leg.solve(waist, sole, seed);
    if (!result.ok()) {
      std::string what = "walking pattern: t = " + io::format_number(time) + " s: " + name +
                         " leg: " + to_string(result.status);
      if (result.status == LegIkStatus::kJointLimit) {
        const int j = leg.joints()[static_cast<std::size_t>(result.limit_joint)];
        what += " (" + model.joint_names[static_cast<std::size_t>(j)] + " would be at " +
                io::format_number(result.angles(result.limit_joint)) + " rad)";
      }
      what += "; the waist is at height " + io::format_number(waist.p.z()) +
              " m: shorten the steps, slow down or change the waist height";
      throw InfeasibleError(what);
    }
    for (int i = 0; i < 6; ++i) q[model.idx_q(leg.joints()[static_cast<std::size_t>(i)])] = result.angles(i);
  }

  LegKinematics right_, left_;
};

void set_waist(const SE3& waist, Eigen::Ref<Eigen::VectorXd> q) {
  q.head<3>() = waist.p;
  q.segment<4>(3) = Eigen::Quaterniond(waist.R).coeffs();  // x y z w, as the model's contract
}

// The joints the upper-body trajectory sets: every joint but the legs'.
std::vector<int> upper_body_joints(const model::Model& model, const std::array<int, 12>& leg_joints) {
  std::vector<int> upper;
  for (int j = 0; j < model.nj; ++j)
    if (std::find(leg_joints.begin(), leg_joints.end(), j) == leg_joints.end()) upper.push_back(j);
  return upper;
}

SE3 waist_pose(double x, double y, double z, double yaw) {
  return SE3(Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix(), Vec3(x, y, z));
}

// Preview control started at rest, as if the robot had been standing on the initial reference for a whole
// preview window before t = 0. Started at t = 0 instead, the controller would see the first weight transfer
// already inside its window with the cart at rest, and kick the cart to catch up: measured 71 mm of
// multibody ZMP error in the first 20 ms of the seed-001 walk (1 s hold, 1.6 s preview). With the run-in
// every change of the reference enters the window at its far end, where the preview gains have decayed
// (preview_control.hpp), so the CoM starts moving smoothly; the samples of the run-in are dropped.
std::vector<CartState> track_from_rest(const PreviewController& controller, const std::vector<double>& zmp) {
  const std::size_t run_in = static_cast<std::size_t>(controller.preview_samples());
  std::vector<double> reference(run_in, zmp.front());
  reference.insert(reference.end(), zmp.begin(), zmp.end());
  std::vector<CartState> cart(reference.size());
  controller.track(reference, CartState{zmp.front(), 0.0, 0.0}, cart);
  return std::vector<CartState>(cart.begin() + static_cast<std::ptrdiff_t>(run_in), cart.end());
}

}  // namespace

model::Payload to_model_payload(const io::Payload& payload) {
  return {payload.link.empty() ? payload.frame : payload.link,
          spatial::Inertia(payload.mass, payload.com, payload.inertia)};
}

WalkingPattern generate_walking_pattern(const model::Model& model, const model::RobotConfig& config,
                                        const WalkSchedule& schedule, const UpperBodyTrajectory& upper_body,
                                        const WalkingOptions& options) {
  if (!model.has_free_flyer()) throw ModelError(model.source_path + ": walking needs a free-flyer model");
  const Legs legs(model, config);
  const std::array<int, 12> leg_joints = legs.joints();
  model::Data data(model);
  const double dt = options.preview.cart.period;
  if (!(dt > 0.0)) throw std::invalid_argument("generate_walking_pattern: the period must be positive");

  WalkingPattern pattern;
  const Eigen::Index n = static_cast<Eigen::Index>(std::llround(schedule.duration() / dt)) + 1;
  pattern.times.resize(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k)
    pattern.times[static_cast<std::size_t>(k)] = static_cast<double>(k) * dt;

  const std::vector<int> upper_joints = upper_body_joints(model, leg_joints);
  Eigen::VectorXd joints(model.nj);
  const auto set_upper_body = [&](double t, Eigen::VectorXd& q) {
    upper_body.at(t, joints);
    for (const int j : upper_joints) q[model.idx_q(j)] = joints[j];
  };

  // The initial pose: half-sitting with the upper body of t = 0. Its CoM height is the cart's zc. Its legs
  // also seed the IK of the first sample (the knee-forward branch).
  Eigen::VectorXd q = config.half_sitting(model);
  set_upper_body(0.0, q);
  const Vec3 half_sitting_com = dynamics::center_of_mass(model, data, q);
  pattern.com_height = half_sitting_com.z();
  const double waist_height = config.half_sitting_waist.z();

  // Preview control of the cart-table along x and y.
  pattern.zmp_reference.resize(n, 3);
  pattern.phases.resize(static_cast<std::size_t>(n));
  std::vector<double> zmp_x(static_cast<std::size_t>(n)), zmp_y(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) {
    const WalkState state = schedule.at(pattern.times[static_cast<std::size_t>(k)]);
    pattern.zmp_reference.row(k) << state.zmp.x(), state.zmp.y(), 0.0;
    pattern.phases[static_cast<std::size_t>(k)] = state.contact;
    zmp_x[static_cast<std::size_t>(k)] = state.zmp.x();
    zmp_y[static_cast<std::size_t>(k)] = state.zmp.y();
  }
  PreviewControlOptions preview = options.preview;
  preview.cart.com_height = pattern.com_height;
  const PreviewController controller(preview);
  const std::vector<CartState> cart_x = track_from_rest(controller, zmp_x);
  const std::vector<CartState> cart_y = track_from_rest(controller, zmp_y);

  // Sample by sample: waist placed so that the multibody CoM is the cart's.
  pattern.q.resize(model.nq, n);
  pattern.com.resize(n, 3);
  // Start from half-sitting's waist - CoM offset, rotated into the first sample's waist yaw.
  Eigen::Vector2d offset = (config.half_sitting_waist - half_sitting_com).head<2>();
  const WalkState first = schedule.at(0.0);
  offset = Eigen::Rotation2Dd(first.waist_yaw) * offset;
  for (Eigen::Index k = 0; k < n; ++k) {
    const double t = pattern.times[static_cast<std::size_t>(k)];
    const WalkState state = schedule.at(t);
    const Eigen::Vector2d target(cart_x[static_cast<std::size_t>(k)].position,
                                 cart_y[static_cast<std::size_t>(k)].position);
    const double z = waist_height + state.waist_height_change;
    set_upper_body(t, q);  // q's legs stay the previous sample's: they seed the IK
    Eigen::Vector2d waist_xy = target + offset;
    Eigen::Vector2d error = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
    int pass = 0;
    while (pass < options.max_com_passes) {
      const SE3 waist = waist_pose(waist_xy.x(), waist_xy.y(), z, state.waist_yaw);
      set_waist(waist, q);
      legs.solve(model, waist, state, t, q);
      const Vec3& com = dynamics::center_of_mass(model, data, q);
      error = target - com.head<2>();
      ++pass;
      if (error.norm() <= options.com_tolerance) break;
      // Fixed point: the CoM moves with the waist (by somewhat less, since the feet stay put).
      waist_xy += error;
    }
    if (!(error.norm() <= options.com_tolerance)) {
      throw InfeasibleError("walking pattern: t = " + io::format_number(t) +
                            " s: the waist correction left a CoM error of " +
                            io::format_number(error.norm()) + " m after " + std::to_string(pass) + " passes");
    }
    pattern.com_passes = std::max(pattern.com_passes, pass);
    pattern.com_error = std::max(pattern.com_error, error.norm());
    offset = waist_xy - target;
    pattern.q.col(k) = q;
    pattern.com.row(k) << target.x(), target.y(), data.com.z();
  }

  pattern.contact_intervals = schedule.contact_intervals();
  pattern.zmp = multibody_zmp(model, pattern.times, pattern.q);
  return pattern;
}

Eigen::MatrixXd multibody_zmp(const model::Model& model, const std::vector<double>& times,
                              const Eigen::MatrixXd& q) {
  const Eigen::Index n = q.cols();
  Eigen::MatrixXd v, a;
  differentiate(model, times, q, v, a);
  model::Data data(model);
  Eigen::MatrixXd zmp(n, 3);
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto p = dynamics::zmp(model, data, q.col(k), v.col(k), a.col(k), 0.0);
    if (p) {
      zmp.row(k) = p->transpose();
    } else {
      zmp.row(k).setConstant(std::numeric_limits<double>::quiet_NaN());
    }
  }
  return zmp;
}

io::MotionFiles to_motion_files(const model::Model& model, const WalkingPattern& pattern) {
  if (model.nj != io::kJointCount || !model.has_free_flyer())
    throw ModelError(model.source_path + ": sequence files need a free-flyer model with the 30 HRP-2 joints");
  const Eigen::Index n = pattern.size();
  io::MotionFiles files;
  files.pos.times = pattern.times;
  files.pos.angles = pattern.q.bottomRows(model.nj).transpose();
  io::WaistSequence waist;
  waist.times = pattern.times;
  waist.position = pattern.q.topRows(3).transpose();
  waist.rpy.resize(n, 3);
  Eigen::Vector3d previous = Eigen::Vector3d::Zero();
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Quaterniond orientation(Eigen::Vector4d(pattern.q.col(k).segment<4>(3)));
    previous = k == 0 ? io::rotation_to_rpy(orientation.toRotationMatrix())
                      : io::rotation_to_rpy(orientation.toRotationMatrix(), previous);
    waist.rpy.row(k) = previous.transpose();
  }
  files.zmp = io::zmp_sequence_from_world(pattern.zmp, waist);
  files.waist = std::move(waist);
  return files;
}

}  // namespace mimic::stability
