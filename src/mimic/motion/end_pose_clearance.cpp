#include "mimic/motion/end_pose_clearance.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/data.hpp"

namespace mimic::motion {

namespace {

// --- least-norm steps (the first method) ---------------------------------------------------------------

// Each step aims this far beyond `target`, so that the linearisation's second-order error (the witness
// points turn with the arm) does not leave a pair a hair short of it; 0.1 mm is far below what a joint
// moves to clear a centimetre. Both methods aim there.
constexpr double kOvershoot = 1e-4;  // m
// Steps: a pair clears in one or two (the distance is nearly linear in the joints over a few centimetres);
// a pose that needs more is handed to the trust-region steps.
constexpr int kMaxLeastNormIterations = 30;

EndPoseClearance least_norm_steps(const model::Model& model, const geometry::CollisionModel& cmodel,
                                  const std::vector<int>& pairs, const std::vector<int>& active,
                                  const model::ScaledLimits& limits, const std::vector<double>& targets,
                                  Eigen::VectorXd& q) {
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  // A pair once below the target keeps a row (held where it is when it is clear), so that the next step
  // does not push it back in while clearing another; a joint that reached a limit is no longer moved.
  std::vector<int> held;  // indices into `pairs`
  std::vector<char> frozen(active.size(), 0);
  EndPoseClearance result;
  for (;; ++result.iterations) {
    geometry::compute_distance_gradients(model, data, cmodel, cdata, q);
    result.min_distance = std::numeric_limits<double>::infinity();
    result.cleared = true;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const double d = cdata.distance[pairs[i]];
      result.min_distance = std::min(result.min_distance, d);
      if (d < targets[i]) {
        result.cleared = false;
        if (std::find(held.begin(), held.end(), static_cast<int>(i)) == held.end())
          held.push_back(static_cast<int>(i));
      }
    }
    if (result.cleared || result.iterations == kMaxLeastNormIterations) break;

    std::vector<int> columns;  // indices into `active` that may move
    for (std::size_t k = 0; k < active.size(); ++k)
      if (!frozen[k]) columns.push_back(static_cast<int>(k));
    const Eigen::Index rows = static_cast<Eigen::Index>(held.size());
    Eigen::MatrixXd J(rows, static_cast<Eigen::Index>(columns.size()));
    Eigen::VectorXd r(rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const auto h = static_cast<std::size_t>(held[static_cast<std::size_t>(i)]);
      const int p = pairs[h];
      r[i] = std::max(targets[h] + kOvershoot - cdata.distance[p], 0.0);
      for (std::size_t c = 0; c < columns.size(); ++c)
        J(i, static_cast<Eigen::Index>(c)) = cdata.distance_gradient(p, model.idx_v(active[columns[c]]));
    }
    // Least-norm step J^T (J J^T)^-1 r; the tiny ridge keeps two rows of nearly parallel gradients (a hand
    // between two shapes) solvable.
    Eigen::MatrixXd JJt = J * J.transpose();
    JJt.diagonal().array() += 1e-12;
    const Eigen::VectorXd dq = J.transpose() * JJt.ldlt().solve(r);
    bool moved = false;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const int k = columns[c], joint = active[static_cast<std::size_t>(k)];
      double& value = q[model.idx_q(joint)];
      const double wanted = value + dq[static_cast<Eigen::Index>(c)];
      const double clamped = std::clamp(wanted, limits.lower[joint], limits.upper[joint]);
      if (clamped != wanted) frozen[static_cast<std::size_t>(k)] = 1;
      moved = moved || clamped != value;
      value = clamped;
    }
    if (!moved) break;
  }
  return result;
}

// --- trust-region steps (for what the least-norm steps leave) ------------------------------------------

// The trust region of one step (rad, the largest joint change): the distance is nearly linear in the
// joints over a few centimetres only. A hand 5 to 10 cm inside a shape (G1's arms hanging at its sides)
// asks a Gauss-Newton step of radians of several joints at once, which swings the arm through the other
// shapes; 0.2 rad moves a hand by at most about 10 cm. A step outside it is not scaled down (an
// ill-conditioned J^T J makes the Gauss-Newton direction a swing of a nearly useless joint combination,
// measured: steps of up to 80 rad cut to 0.2 rad gained 1 mm each) but damped more, which turns it
// towards the gradient.
constexpr double kMaxStep = 0.2;  // rad
// Levenberg-Marquardt damping (m^2/rad^2, against entries of J^T J of about 0.01 .. 0.1 for a 0.1 .. 0.3 m
// lever): a step outside the trust region or that does not reduce the shortfall is retried with 4x the
// damping, an accepted one divides it by 3 for the next.
constexpr double kInitialDamping = 1e-6, kMinDamping = 1e-9, kMaxDamping = 1e2;
// Accepted steps: G1's boxing ends, 5 and 11 cm deep, clear well within them (measured: the last, the
// right hand in the head, in 12; tests/motion/end_pose_clearance.cpp). A pose that needs more is boxed in
// by the angle limits or by other shapes, and is left to the caller's verdict.
constexpr int kMaxIterations = 60;

// Sum of squared shortfalls below the pairs' goals (their targets + kOvershoot): what a step must reduce.
double shortfall(const Eigen::VectorXd& distance, const std::vector<int>& pairs,
                 const std::vector<double>& targets) {
  double sum = 0.0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const double s = std::max(targets[i] + kOvershoot - distance[pairs[i]], 0.0);
    sum += s * s;
  }
  return sum;
}

EndPoseClearance trust_region_steps(const model::Model& model, const geometry::CollisionModel& cmodel,
                                    const std::vector<int>& pairs, const std::vector<int>& active,
                                    const model::ScaledLimits& limits, const std::vector<double>& targets,
                                    Eigen::VectorXd& q) {
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  const auto n_active = static_cast<Eigen::Index>(active.size());
  double damping = kInitialDamping;
  EndPoseClearance result;
  for (;; ++result.iterations) {
    geometry::compute_distance_gradients(model, data, cmodel, cdata, q);
    result.min_distance = std::numeric_limits<double>::infinity();
    result.cleared = true;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      result.min_distance = std::min(result.min_distance, cdata.distance[pairs[i]]);
      result.cleared = result.cleared && cdata.distance[pairs[i]] >= targets[i];
    }
    if (result.cleared || result.iterations == kMaxIterations) break;

    // Nonlinear least squares on the shortfalls: a row per pair below the goal, residual goal - d_p; a
    // pair that is clear has no row, and one that a step pushes in adds to the shortfall, so the step is
    // refused (the damping grows) or the pair gets its row at the next iteration.
    std::vector<std::size_t> rows;  // indices into `pairs`
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (cdata.distance[pairs[i]] < targets[i] + kOvershoot) rows.push_back(i);
    Eigen::MatrixXd J(static_cast<Eigen::Index>(rows.size()), n_active);
    Eigen::VectorXd r(J.rows());
    for (Eigen::Index i = 0; i < J.rows(); ++i) {
      const std::size_t h = rows[static_cast<std::size_t>(i)];
      const int p = pairs[h];
      r[i] = targets[h] + kOvershoot - cdata.distance[p];
      for (Eigen::Index k = 0; k < n_active; ++k)
        J(i, k) = cdata.distance_gradient(p, model.idx_v(active[static_cast<std::size_t>(k)]));
    }
    // A joint at an angle limit that the descent direction pushes further out does not move.
    const Eigen::VectorXd descent = J.transpose() * r;
    Eigen::VectorXd free = Eigen::VectorXd::Ones(n_active);
    for (Eigen::Index k = 0; k < n_active; ++k) {
      const int joint = active[static_cast<std::size_t>(k)];
      const double value = q[model.idx_q(joint)];
      if ((descent[k] < 0.0 && value <= limits.lower[joint]) ||
          (descent[k] > 0.0 && value >= limits.upper[joint]))
        free[k] = 0.0;
    }
    const Eigen::MatrixXd JtJ = J.transpose() * J;
    const double before = shortfall(cdata.distance, pairs, targets);
    const Eigen::VectorXd from = q;
    bool improved = false;
    while (!improved && damping <= kMaxDamping) {
      Eigen::MatrixXd H = free.asDiagonal() * JtJ * free.asDiagonal();
      H.diagonal().array() += damping;
      Eigen::VectorXd dq = free.cwiseProduct(H.ldlt().solve(free.cwiseProduct(descent)));
      // Outside the trust region: more damping (kMaxStep).
      if (dq.cwiseAbs().maxCoeff() > kMaxStep) {
        damping *= 4.0;
        continue;
      }
      q = from;
      for (Eigen::Index k = 0; k < n_active; ++k) {
        const int joint = active[static_cast<std::size_t>(k)];
        double& value = q[model.idx_q(joint)];
        value = std::clamp(value + dq[k], limits.lower[joint], limits.upper[joint]);
      }
      geometry::compute_distances(model, data, cmodel, cdata, q);
      improved = shortfall(cdata.distance, pairs, targets) < before;
      damping = improved ? std::max(damping / 3.0, kMinDamping) : damping * 4.0;
    }
    if (!improved) {
      q = from;
      break;
    }
  }
  return result;
}

}  // namespace

EndPoseClearance clear_end_pose(const model::Model& model, const geometry::CollisionModel& cmodel,
                                const std::vector<int>& pairs, const std::vector<int>& active,
                                const model::ScaledLimits& limits, const std::vector<double>& targets,
                                Eigen::VectorXd& q) {
  const Eigen::VectorXd start = q;
  EndPoseClearance result = least_norm_steps(model, cmodel, pairs, active, limits, targets, q);
  if (!result.cleared) {
    // From the captured pose again: the least-norm steps may have left joints at their limits.
    Eigen::VectorXd retry = start;
    const EndPoseClearance second = trust_region_steps(model, cmodel, pairs, active, limits, targets, retry);
    if (second.cleared || second.min_distance > result.min_distance) {
      const int first_iterations = result.iterations;
      result = second;
      result.iterations += first_iterations;
      q = retry;
    }
  }
  for (const int joint : active)
    result.shift = std::max(result.shift, std::abs(q[model.idx_q(joint)] - start[model.idx_q(joint)]));
  return result;
}

EndPoseClearance clear_end_pose(const model::Model& model, const geometry::CollisionModel& cmodel,
                                const std::vector<int>& pairs, const std::vector<int>& active,
                                const model::ScaledLimits& limits, double target, Eigen::VectorXd& q) {
  return clear_end_pose(model, cmodel, pairs, active, limits, std::vector<double>(pairs.size(), target), q);
}

}  // namespace mimic::motion
