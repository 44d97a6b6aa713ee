#include "mimic/stability/leg_ik_damped_newton.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "mimic/spatial/explog.hpp"

namespace mimic::stability {

using spatial::SE3;

namespace {

constexpr int kMaxIterations = 100;
// Stop once both errors are below this (m and rad): three orders under the "solved" tolerance, a few more
// steps would only chase rounding.
constexpr double kStopError = 1e-12;
constexpr double kInitialDamping = 1e-3;
constexpr double kMinDamping = 1e-12;
constexpr double kMaxDamping = 1e8;  // the step is then ~1e-8 of the gradient: stalled
constexpr int kKnee = 3;
constexpr double kStraightKnee = 0.02;  // rad
constexpr double kKneeBend = 0.3;       // rad
constexpr int kContinuationSteps = 8;
constexpr double kRestartKneeBend = 1.2;  // rad: a crouch, from which the knee-forward solution is downhill

struct Evaluation {
  LegJacobian jacobian;
  Eigen::Matrix<double, 6, 1> error;
  double cost = 0.0, position_error = 0.0, rotation_error = 0.0;

  void at(const LegChain& chain, const SE3& root, const SE3& sole, const LegAngles& q) {
    const SE3 current = chain.sole_pose_and_jacobian(root, q, jacobian);
    error = spatial::log6(current.act_inv(sole)).to_vector();
    cost = error.squaredNorm();
    position_error = (current.p - sole.p).norm();
    rotation_error = spatial::log3(current.R.transpose() * sole.R).norm();
  }
  bool converged(double tolerance) const {
    return position_error <= tolerance && rotation_error <= tolerance;
  }
};

struct Run {
  LegAngles q;
  Evaluation at_q;
  int iterations = 0;
};

// The damped step (normal + damping I) dq = gradient over the joints that are free to move: a joint at a
// limit whose step would push it out is held there and the step is solved again without it (an active
// set), so that the remaining joints take the whole correction instead of a clamped, useless one.
LegAngles bounded_step(const Eigen::Matrix<double, 6, 6>& normal, const LegAngles& gradient, double damping,
                       const LegAngles& q, const LegAngles& lower, const LegAngles& upper) {
  std::array<bool, kLegJoints> held{};
  LegAngles step;
  for (int pass = 0; pass < kLegJoints; ++pass) {
    Eigen::Matrix<double, 6, 6> system = normal;
    LegAngles rhs = gradient;
    system.diagonal().array() += damping;
    for (int i = 0; i < kLegJoints; ++i) {
      if (!held[static_cast<std::size_t>(i)]) continue;
      system.row(i).setZero();
      system.col(i).setZero();
      system(i, i) = 1.0;
      rhs(i) = 0.0;
    }
    step = system.llt().solve(rhs);
    bool changed = false;
    for (int i = 0; i < kLegJoints; ++i) {
      const bool pushed_out = (q(i) <= lower(i) && step(i) < 0.0) || (q(i) >= upper(i) && step(i) > 0.0);
      if (pushed_out && !held[static_cast<std::size_t>(i)]) {
        held[static_cast<std::size_t>(i)] = true;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return step;
}

// Projected Levenberg-Marquardt from q within [lower, upper].
Run minimize(const LegChain& chain, const SE3& root, const SE3& sole, const LegAngles& start,
             const LegAngles& lower, const LegAngles& upper) {
  Run run;
  run.q = start.cwiseMax(lower).cwiseMin(upper);
  run.at_q.at(chain, root, sole, run.q);
  Evaluation trial;
  double damping = kInitialDamping;
  while (run.iterations < kMaxIterations && !run.at_q.converged(kStopError)) {
    ++run.iterations;
    const LegJacobian& J = run.at_q.jacobian;
    const Eigen::Matrix<double, 6, 6> normal = J.transpose() * J;
    const LegAngles gradient = J.transpose() * run.at_q.error;
    const LegAngles step = bounded_step(normal, gradient, damping, run.q, lower, upper);
    if (!step.allFinite()) break;
    const LegAngles q = (run.q + step).cwiseMax(lower).cwiseMin(upper);
    if (q == run.q) break;  // every moving joint is held at its limit
    trial.at(chain, root, sole, q);
    if (trial.cost < run.at_q.cost) {
      run.q = q;
      run.at_q = trial;
      damping = std::max(0.1 * damping, kMinDamping);
    } else {
      damping *= 10.0;
      if (damping > kMaxDamping) break;
    }
  }
  return run;
}

// The hip and ankle joints whose axes are parallel to the knee's at the zero pose (the pitch joints of a
// leg), -1 when there is none, with the sign of their axis along the knee's.
struct PitchJoints {
  int hip = -1, ankle = -1;
  double hip_sign = 1.0, ankle_sign = 1.0;
};

PitchJoints pitch_joints(const LegChain& chain) {
  std::array<spatial::Vec3, kLegJoints> axis;
  spatial::Mat3 r = spatial::Mat3::Identity();
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    r = r * chain.placements[i].R;
    axis[i] = r * chain.axes[i];
  }
  PitchJoints pitch;
  const auto parallel = [&](int first, int last, int& joint, double& sign) {
    for (int i = first; i < last; ++i) {
      const double cosine = axis[static_cast<std::size_t>(i)].dot(axis[kKnee]);
      if (std::abs(cosine) > 0.99) {
        joint = i;
        sign = cosine > 0.0 ? 1.0 : -1.0;
      }
    }
  };
  parallel(0, kKnee, pitch.hip, pitch.hip_sign);
  parallel(kKnee + 1, kLegJoints, pitch.ankle, pitch.ankle_sign);
  return pitch;
}

// The other knee solution of nearly the same sole pose: the knee angle negated, the hip and ankle pitch
// turned by it (exact for a planar leg with equal thigh and shank, h' = h + k, a' = a + k: the triangle
// hip-knee-ankle mirrored about the hip-ankle line; a start near the solution otherwise).
LegAngles mirrored_knee(const LegAngles& q, const PitchJoints& pitch) {
  LegAngles m = q;
  m(kKnee) = -q(kKnee);
  if (pitch.hip >= 0) m(pitch.hip) += pitch.hip_sign * q(kKnee);
  if (pitch.ankle >= 0) m(pitch.ankle) += pitch.ankle_sign * q(kKnee);
  return m;
}

}  // namespace

LegIkResult solve_leg_damped_newton(const LegChain& chain, const SE3& root, const SE3& sole,
                                    const LegAngles& seed) {
  LegAngles lower, upper;
  for (int i = 0; i < kLegJoints; ++i) {
    lower(i) = chain.lower[static_cast<std::size_t>(i)];
    upper(i) = chain.upper[static_cast<std::size_t>(i)];
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const LegAngles no_lower = LegAngles::Constant(-kInf), no_upper = LegAngles::Constant(kInf);
  const double knee_direction = upper(kKnee) >= -lower(kKnee) ? 1.0 : -1.0;
  const auto with_knee = [&](LegAngles q, double bend) {
    q(kKnee) = std::clamp(knee_direction * bend, lower(kKnee), upper(kKnee));
    return q;
  };

  LegIkResult result;
  Run best;  // the bounded run nearest the target so far
  const auto attempt = [&](const LegAngles& start, const SE3& target) {
    const Run run = minimize(chain, root, target, start, lower, upper);
    result.iterations += run.iterations;
    return run;
  };
  const auto keep = [&](const Run& run) {
    if (run.at_q.cost < best.at_q.cost) best = run;
    return best.at_q.converged(kLegIkTolerance);
  };

  // 1. From the seed (a straight knee bent by kKneeBend first).
  LegAngles first = seed.cwiseMax(lower).cwiseMin(upper);
  if (std::abs(first(kKnee)) < kStraightKnee) first = with_knee(first, kKneeBend);
  best = attempt(first, sole);
  bool solved = best.at_q.converged(kLegIkTolerance);
  // 2. Without the limits from where it stopped: the bounded solve mostly stalls on its way to a solution
  // outside them, typically with the knee pinned straight on its way to the other knee branch. That
  // solution's knee mirror is the start of a bounded solve again.
  Run free;
  if (!solved) {
    free = minimize(chain, root, sole, best.q, no_lower, no_upper);
    result.iterations += free.iterations;
    if (free.at_q.converged(kLegIkTolerance)) {
      LegAngles wrapped = free.q;
      if (chain.wrap_and_check_limits(wrapped) < 0) {
        free.q = wrapped;
        solved = keep(free);
      } else {
        solved = keep(attempt(mirrored_knee(wrapped, pitch_joints(chain)), sole));
      }
    }
  }
  // 3. From the seed with the knee bent kRestartKneeBend, then from a crouch: the zero pose with the knee
  // bent as much and the hip and ankle pitch taking half of it each, the sole level under the hip.
  const PitchJoints pitch = pitch_joints(chain);
  LegAngles crouch = with_knee(LegAngles::Zero(), kRestartKneeBend);
  if (pitch.hip >= 0) crouch(pitch.hip) = -0.5 * pitch.hip_sign * crouch(kKnee);
  if (pitch.ankle >= 0) crouch(pitch.ankle) = -0.5 * pitch.ankle_sign * crouch(kKnee);
  crouch = crouch.cwiseMax(lower).cwiseMin(upper);
  for (const LegAngles& start : {with_knee(first, kRestartKneeBend), crouch}) {
    if (!solved) solved = keep(attempt(start, sole));
  }
  // 4. Continuation from the crouch: the target approached in kContinuationSteps steps along the geodesic
  // from the crouch's sole pose, each solve starting where the previous one ended, so that the solution
  // follows the branch it started on.
  if (!solved) {
    const SE3 from = chain.sole_pose(root, crouch);
    const spatial::Motion path = spatial::log6(from.act_inv(sole));
    Run run;
    run.q = crouch;
    for (int k = 1; k <= kContinuationSteps; ++k) {
      const double s = static_cast<double>(k) / kContinuationSteps;
      run = attempt(run.q, k == kContinuationSteps ? sole : from * spatial::exp6(s * path));
    }
    solved = keep(run);
  }

  if (solved) {
    result.angles = best.q;
    result.position_error = best.at_q.position_error;
    result.rotation_error = best.at_q.rotation_error;
    result.status = LegIkStatus::kSolved;
    return result;
  }
  if (free.at_q.converged(kLegIkTolerance)) {
    // Reachable, but only outside the limits.
    result.angles = free.q;
    result.position_error = free.at_q.position_error;
    result.rotation_error = free.at_q.rotation_error;
    result.limit_joint = chain.wrap_and_check_limits(result.angles);
    result.status = LegIkStatus::kJointLimit;
    return result;
  }
  result.angles = best.q;
  result.position_error = best.at_q.position_error;
  result.rotation_error = best.at_q.rotation_error;
  result.status = LegIkStatus::kOutOfReach;
  return result;
}

}  // namespace mimic::stability
