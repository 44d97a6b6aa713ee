#include "mimic/walking/walking_pattern.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
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

// Why both legs could not be placed at one sample, as the error of the pattern.
std::string reach_failure(const model::Model& model, const Legs& legs, const stability::LegRefit& refit,
                          double time, double waist_height) {
  return "walking pattern: t = " + format_number(time) + " s: " +
         stability::describe_failure(model, legs.leg[static_cast<std::size_t>(refit.failed_leg)],
                                     refit.result) +
         "; the waist is at height " + format_number(waist_height) +
         " m: shorten the steps, slow down or change the waist height";
}

// The smallest function >= `wanted` (per sample) of the shape WalkingOptions::lowering_smoothing describes:
// the running maximum over +-3h, then three running means over +-h (ends held). Each mean over +-h of a
// function that is >= w(t) within +-r of t is >= w(t) within +-(r - h), so the result is >= wanted.
std::vector<double> smooth_cover(const std::vector<double>& wanted, int h) {
  const int n = static_cast<int>(wanted.size());
  const auto at = [n](const std::vector<double>& v, int k) {
    return v[static_cast<std::size_t>(std::clamp(k, 0, n - 1))];
  };
  std::vector<double> out(wanted.size());
  for (int k = 0; k < n; ++k) {
    double m = 0.0;
    for (int j = k - 3 * h; j <= k + 3 * h; ++j) m = std::max(m, at(wanted, j));
    out[static_cast<std::size_t>(k)] = m;
  }
  for (int pass = 0; pass < 3; ++pass) {
    const std::vector<double> in = out;
    for (int k = 0; k < n; ++k) {
      double sum = 0.0;
      for (int j = k - h; j <= k + h; ++j) sum += at(in, j);
      out[static_cast<std::size_t>(k)] = sum / (2 * h + 1);
    }
  }
  return out;
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

  // Fills pattern.motion.q and pattern.com (and the convergence fields, pattern.waist_lowering) for the CoM
  // targets (N x 2). Where the legs do not reach, the waist is lowered (WalkingOptions::reach_margin) and
  // the samples placed again; the lowering found is kept for the next call (the dynamics filter's).
  void place(const Eigen::MatrixXd& com_target, WalkingPattern& pattern) {
    const std::size_t n = static_cast<std::size_t>(pattern.size());
    if (lowering_.size() != n) lowering_.assign(n, 0.0);
    const int h = std::max(
        1, static_cast<int>(std::lround(options_.lowering_smoothing / options_.preview.cart.period)));
    for (int round = 0;; ++round) {
      std::vector<double> extra(n, 0.0);
      if (place_once(com_target, pattern, round < options_.max_lowering_rounds, extra)) break;
      std::vector<double> wanted = lowering_;
      for (std::size_t k = 0; k < n; ++k)
        if (extra[k] > 0.0) wanted[k] = lowering_[k] + extra[k] + options_.reach_margin;
      lowering_ = smooth_cover(wanted, h);
    }
    pattern.waist_lowering = lowering_;
  }

 private:
  // One placement of every sample with the waist lowered by lowering_. With may_lower, a sample whose legs
  // do not reach is placed with the waist lowered further, just enough (reachable_height), the extra
  // lowering is written into `extra` and false is returned; without, it throws.
  bool place_once(const Eigen::MatrixXd& com_target, WalkingPattern& pattern, bool may_lower,
                  std::vector<double>& extra) {
    const std::vector<double>& times = pattern.motion.times;
    const Eigen::Index n = pattern.size();
    bool reached = true;
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
      const double planned_z =
          waist_height_ + state.waist_height_change - lowering_[static_cast<std::size_t>(k)];
      double z = planned_z;
      set_upper_body(t, q);  // q's legs stay the previous sample's: they seed the IK
      Eigen::Vector2d waist_xy = target + offset;
      Eigen::Vector2d error = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
      Eigen::Vector2d last_waist, last_com;
      int pass = 0;
      while (pass < options_.max_com_passes) {
        SE3 waist = waist_pose(waist_xy.x(), waist_xy.y(), z, state.waist_yaw);
        const stability::LegRefit refit =
            stability::refit_legs(model_, legs_, waist, state.right_sole, state.left_sole, q);
        const bool lowered = !refit.ok();
        if (lowered) {
          const std::optional<double> lower = may_lower ? reachable_height(waist, state, q) : std::nullopt;
          if (!lower) throw InfeasibleError(reach_failure(model_, legs_, refit, t, z));
          z = *lower;
          waist.p.z() = z;
          extra[static_cast<std::size_t>(k)] = planned_z - z;
          reached = false;
        }
        set_waist(waist, q);
        const Eigen::Vector2d com = dynamics::center_of_mass(model_, data_, q).head<2>();
        error = target - com;
        // Secant estimate of d(CoM)/d(waist) per axis: about 0.8, as the feet stay put while the rest of
        // the body follows the waist. It changes little from sample to sample, so it is kept. (Not from a
        // pass that lowered the waist: the CoM moved with it.)
        for (int axis = 0; axis < 2 && pass > 0 && !lowered; ++axis) {
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
        // A leg at the edge of its reach (the knee nearly straight, near the singularity where the IK's
        // precision and the CoM's sensitivity to the waist degrade: G1's first weight transfer) is lowered
        // as an unreachable one; the round is placed again (place()), so this sample's CoM may stay off.
        if (!may_lower) {
          throw InfeasibleError("walking pattern: t = " + format_number(t) +
                                " s: the waist correction left a CoM error of " +
                                format_number(error.norm()) + " m after " + std::to_string(pass) + " passes");
        }
        extra[static_cast<std::size_t>(k)] = planned_z - z + options_.reach_margin;
        reached = false;
      }
      pattern.com_passes = std::max(pattern.com_passes, pass);
      pattern.com_error = std::max(pattern.com_error, error.norm());
      offset = waist_xy - target;
      pattern.motion.q.col(k) = q;
      pattern.com.row(k) << target.x(), target.y(), data_.com.z();
    }
    return reached;
  }

  // The highest waist height below waist.p.z() (down to max_lowering of the nominal height) at which both
  // legs reach the soles of `state`, within 0.1 mm: 5 mm steps down, then bisection. The legs of q are the
  // seed; on success they hold the solution there.
  std::optional<double> reachable_height(const SE3& waist, const WalkState& state, Eigen::VectorXd& q) const {
    const auto reaches = [&](double z, Eigen::VectorXd& trial) {
      trial = q;
      SE3 lowered = waist;
      lowered.p.z() = z;
      return stability::refit_legs(model_, legs_, lowered, state.right_sole, state.left_sole, trial).ok();
    };
    const double lowest = waist.p.z() - options_.max_lowering * waist_height_;
    constexpr double kScan = 0.005, kTolerance = 1e-4;  // m
    Eigen::VectorXd trial;
    double high = waist.p.z(), low = high;
    bool found = false;
    while (!found && low > lowest) {
      high = low;
      low = std::max(lowest, low - kScan);
      found = reaches(low, trial);
    }
    if (!found) return std::nullopt;
    Eigen::VectorXd best = trial;
    while (high - low > kTolerance) {
      const double mid = 0.5 * (low + high);
      if (reaches(mid, trial)) {
        low = mid;
        best = trial;
      } else {
        high = mid;
      }
    }
    q = best;
    return low;
  }

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
  std::vector<double> lowering_;  // per sample, m (WalkingPattern::waist_lowering)
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
  if (!(options.reach_margin >= 0.0 && options.lowering_smoothing > 0.0 && options.max_lowering >= 0.0 &&
        options.max_lowering < 1.0 && options.max_lowering_rounds >= 0))
    throw std::invalid_argument("generate_walking_pattern: bad waist lowering options");

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
