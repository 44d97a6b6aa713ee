#include "mimic/walking/walking_pattern.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/stability/leg_refit.hpp"

namespace mimic::walking {

using core::format_number;
using stability::CartBoundary;
using stability::CartState;
using stability::Legs;
using stability::solve_com_for_zmp;

namespace {

using spatial::SE3;
using spatial::Vec3;

// Both legs' angles in q for the soles at `state` with the waist at `waist`, seeded by the angles already
// in q (the previous sample's: the IK keeps to the branch it is on). Throws InfeasibleError naming the time.
void refit_legs(const model::Model& model, const Legs& legs, const SE3& waist, const WalkState& state,
                double time, Eigen::Ref<Eigen::VectorXd> q) {
  const stability::LegRefit refit =
      stability::refit_legs(model, legs, waist, state.right_sole, state.left_sole, q);
  if (refit.ok()) return;
  throw InfeasibleError(
      "walking pattern: t = " + format_number(time) + " s: " +
      stability::describe_failure(model, legs.leg[static_cast<std::size_t>(refit.failed_leg)], refit.result) +
      "; the waist is at height " + format_number(waist.p.z()) +
      " m: shorten the steps, slow down or change the waist height");
}

void set_waist(const SE3& waist, Eigen::Ref<Eigen::VectorXd> q) {
  q.head<3>() = waist.p;
  q.segment<4>(3) = Eigen::Quaterniond(waist.R).coeffs();  // x y z w, as the model's contract
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

// The whole body at each sample: upper body from its trajectory, waist height and yaw from the schedule,
// waist x, y such that the multibody CoM is at a given target, legs by IK to the schedule's soles.
class WholeBody {
 public:
  WholeBody(const model::Model& model, const model::RobotDescription& description,
            const WalkSchedule& schedule, const UpperBodyTrajectory& upper_body,
            const WalkingOptions& options)
      : model_(model),
        schedule_(schedule),
        upper_body_(upper_body),
        options_(options),
        legs_(Legs::of(model, stability::Feet::from(model, description))),
        data_(model),
        joints_(model.nj),
        waist_height_(description.nominal_pose.waist.z()) {
    const auto legs = legs_.joints();
    for (int j = 0; j < model.nj; ++j)
      if (std::find(legs.begin(), legs.end(), j) == legs.end()) upper_joints_.push_back(j);
    // The initial pose: half-sitting with the upper body of t = 0. Its CoM height is the cart's zc; its
    // legs seed the IK of the first sample (the knee-forward branch); its waist - CoM offset, turned to the
    // first waist yaw, the first waist guess.
    initial_q_ = description.nominal_q(model);
    set_upper_body(0.0, initial_q_);
    initial_com_ = dynamics::center_of_mass(model, data_, initial_q_);
    initial_offset_ = Eigen::Rotation2Dd(schedule.at(0.0).waist_yaw) *
                      (description.nominal_pose.waist - initial_com_).head<2>();
  }

  const Vec3& initial_com() const { return initial_com_; }

  // Fills pattern.motion.q and pattern.com (and the convergence fields) for the CoM targets (N x 2).
  void place(const Eigen::MatrixXd& com_target, WalkingPattern& pattern) {
    const std::vector<double>& times = pattern.motion.times;
    const Eigen::Index n = pattern.size();
    pattern.motion.q.resize(model_.nq, n);
    pattern.com.resize(n, 3);
    pattern.com_passes = 0;
    pattern.com_error = 0.0;
    Eigen::VectorXd q = initial_q_;
    Eigen::Vector2d offset = initial_offset_;
    for (Eigen::Index k = 0; k < n; ++k) {
      const double t = times[static_cast<std::size_t>(k)];
      const WalkState state = schedule_.at(t);
      const Eigen::Vector2d target = com_target.row(k).transpose();
      const double z = waist_height_ + state.waist_height_change;
      set_upper_body(t, q);  // q's legs stay the previous sample's: they seed the IK
      Eigen::Vector2d waist_xy = target + offset;
      Eigen::Vector2d error = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
      Eigen::Vector2d last_waist, last_com;
      int pass = 0;
      while (pass < options_.max_com_passes) {
        const SE3 waist = waist_pose(waist_xy.x(), waist_xy.y(), z, state.waist_yaw);
        set_waist(waist, q);
        refit_legs(model_, legs_, waist, state, t, q);
        const Eigen::Vector2d com = dynamics::center_of_mass(model_, data_, q).head<2>();
        error = target - com;
        // Secant estimate of d(CoM)/d(waist) per axis: about 0.8, as the feet stay put while the rest of
        // the body follows the waist. It changes little from sample to sample, so it is kept.
        for (int axis = 0; axis < 2 && pass > 0; ++axis) {
          const double step = waist_xy[axis] - last_waist[axis];
          if (std::abs(step) > 1e-9)
            sensitivity_[axis] = std::clamp((com[axis] - last_com[axis]) / step, 0.3, 1.5);
        }
        last_waist = waist_xy;
        last_com = com;
        ++pass;
        if (error.norm() <= options_.com_tolerance) break;
        waist_xy += error.cwiseQuotient(sensitivity_);
      }
      if (!(error.norm() <= options_.com_tolerance)) {
        throw InfeasibleError("walking pattern: t = " + format_number(t) +
                              " s: the waist correction left a CoM error of " + format_number(error.norm()) +
                              " m after " + std::to_string(pass) + " passes");
      }
      pattern.com_passes = std::max(pattern.com_passes, pass);
      pattern.com_error = std::max(pattern.com_error, error.norm());
      offset = waist_xy - target;
      pattern.motion.q.col(k) = q;
      pattern.com.row(k) << target.x(), target.y(), data_.com.z();
    }
  }

 private:
  void set_upper_body(double t, Eigen::VectorXd& q) {
    upper_body_.at(t, joints_);
    for (const int j : upper_joints_) q[model_.idx_q(j)] = joints_[j];
  }

  const model::Model& model_;
  const WalkSchedule& schedule_;
  const UpperBodyTrajectory& upper_body_;
  const WalkingOptions& options_;
  Legs legs_;
  model::Data data_;
  Eigen::VectorXd joints_;
  std::vector<int> upper_joints_;
  double waist_height_;
  Eigen::VectorXd initial_q_;
  Vec3 initial_com_;
  Eigen::Vector2d initial_offset_;
  Eigen::Vector2d sensitivity_ = Eigen::Vector2d::Ones();
};

}  // namespace

WalkingPattern generate_walking_pattern(const model::Model& model, const model::RobotDescription& description,
                                        const WalkSchedule& schedule, const UpperBodyTrajectory& upper_body,
                                        const WalkingOptions& options) {
  if (!model.has_free_flyer()) throw ModelError(model.source_path + ": walking needs a free-flyer model");
  const double dt = options.preview.cart.period;
  if (!(dt > 0.0)) throw std::invalid_argument("generate_walking_pattern: the period must be positive");
  if (options.dynamics_filter_passes < 0)
    throw std::invalid_argument("generate_walking_pattern: negative dynamics_filter_passes");

  WalkingPattern pattern;
  const Eigen::Index n = static_cast<Eigen::Index>(std::llround(schedule.duration() / dt)) + 1;
  model::SampledMotion& motion = pattern.motion;
  motion.times.resize(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k)
    motion.times[static_cast<std::size_t>(k)] = static_cast<double>(k) * dt;
  pattern.contact_intervals = schedule.contact_intervals();

  WholeBody body(model, description, schedule, upper_body, options);
  pattern.com_height = body.initial_com().z();

  // The ZMP reference and the preview control of the cart-table along x and y.
  pattern.zmp_reference.resize(n, 3);
  motion.phases.resize(static_cast<std::size_t>(n));
  std::vector<double> zmp_x(static_cast<std::size_t>(n)), zmp_y(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) {
    const WalkState state = schedule.at(motion.times[static_cast<std::size_t>(k)]);
    pattern.zmp_reference.row(k) << state.zmp.x(), state.zmp.y(), 0.0;
    motion.phases[static_cast<std::size_t>(k)] = state.contact;
    zmp_x[static_cast<std::size_t>(k)] = state.zmp.x();
    zmp_y[static_cast<std::size_t>(k)] = state.zmp.y();
  }
  PreviewControlOptions preview = options.preview;
  preview.cart.com_height = pattern.com_height;
  const PreviewController controller(preview);
  const std::vector<CartState> cart_x = track_from_rest(controller, zmp_x);
  const std::vector<CartState> cart_y = track_from_rest(controller, zmp_y);
  Eigen::MatrixXd com_target(n, 2);
  for (Eigen::Index k = 0; k < n; ++k)
    com_target.row(k) << cart_x[static_cast<std::size_t>(k)].position,
        cart_y[static_cast<std::size_t>(k)].position;

  // The waist placed over the CoM targets, then the motion's velocities, accelerations and multibody ZMP.
  const auto place = [&] {
    body.place(com_target, pattern);
    model::differentiate(model, motion);
    pattern.zmp = multibody_zmp(model, motion);
  };
  place();

  // Kajita 2003 section IV ("dynamics filter"): the cart-table ignores the legs' and the upper body's own
  // dynamics and the changes of the CoM height, so the multibody ZMP strays from the reference (22 mm in the
  // seed-001 walk); the cart-table's CoM for the error p_ref - p_multibody, added to the cart's, cancels
  // most of it (2.5 mm left). Kajita runs a second preview control on the error; the whole error being known
  // here, the exact bounded solution of the cart-table (cart_table.hpp, the cart at rest before and after)
  // is used instead: a preview run from t = 0 would find the error already inside its window and kick the
  // correction, which made the walk leave t = 0 at 0.8 mm/s.
  for (int pass = 0; pass < options.dynamics_filter_passes; ++pass) {
    for (const int axis : {0, 1}) {
      std::vector<double> error(static_cast<std::size_t>(n));
      for (Eigen::Index k = 0; k < n; ++k) {
        const double e = pattern.zmp_reference(k, axis) - pattern.zmp(k, axis);
        error[static_cast<std::size_t>(k)] = std::isfinite(e) ? e : 0.0;
      }
      std::vector<double> correction(static_cast<std::size_t>(n));
      solve_com_for_zmp(controller.cart(), error, correction, CartBoundary::kHeldStill);
      for (Eigen::Index k = 0; k < n; ++k) com_target(k, axis) += correction[static_cast<std::size_t>(k)];
    }
    place();
  }
  return pattern;
}

Eigen::MatrixXd multibody_zmp(const model::Model& model, const model::SampledMotion& motion) {
  model::Data data(model);
  Eigen::MatrixXd zmp(motion.size(), 3);
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    const auto p = dynamics::zmp(model, data, motion.q.col(k), motion.v.col(k), motion.a.col(k), 0.0);
    if (p) {
      zmp.row(k) = p->transpose();
    } else {
      zmp.row(k).setConstant(std::numeric_limits<double>::quiet_NaN());
    }
  }
  return zmp;
}

}  // namespace mimic::walking
