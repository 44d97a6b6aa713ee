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

// Each step aims this far beyond `target`, so that the linearisation's second-order error (the witness
// points turn with the arm) does not leave a pair a hair short of it; 0.1 mm is far below what a joint
// moves to clear a centimetre.
constexpr double kOvershoot = 1e-4;  // m
// Steps: a pair clears in one or two (the distance is nearly linear in the joints over a few centimetres);
// a pose that needs more is boxed in by the angle limits or by other shapes, and is left to the solver's
// verdict.
constexpr int kMaxIterations = 30;

}  // namespace

EndPoseClearance clear_end_pose(const model::Model& model, const geometry::CollisionModel& cmodel,
                                const std::vector<int>& pairs, const std::vector<int>& active,
                                const model::ScaledLimits& limits, double target, Eigen::VectorXd& q) {
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  const Eigen::VectorXd start = q;
  // A pair once below the target keeps a row (held where it is when it is clear), so that the next step
  // does not push it back in while clearing another; a joint that reached a limit is no longer moved.
  std::vector<int> held;
  std::vector<char> frozen(active.size(), 0);
  EndPoseClearance result;
  for (;; ++result.iterations) {
    geometry::compute_distance_gradients(model, data, cmodel, cdata, q);
    result.min_distance = std::numeric_limits<double>::infinity();
    for (const int p : pairs) {
      result.min_distance = std::min(result.min_distance, cdata.distance[p]);
      if (cdata.distance[p] < target && std::find(held.begin(), held.end(), p) == held.end())
        held.push_back(p);
    }
    result.cleared = result.min_distance >= target;
    if (result.cleared || result.iterations == kMaxIterations) break;

    std::vector<int> columns;  // indices into `active` that may move
    for (std::size_t k = 0; k < active.size(); ++k)
      if (!frozen[k]) columns.push_back(static_cast<int>(k));
    const Eigen::Index rows = static_cast<Eigen::Index>(held.size());
    Eigen::MatrixXd J(rows, static_cast<Eigen::Index>(columns.size()));
    Eigen::VectorXd r(rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const int p = held[static_cast<std::size_t>(i)];
      r[i] = std::max(target + kOvershoot - cdata.distance[p], 0.0);
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
  for (const int joint : active)
    result.shift = std::max(result.shift, std::abs(q[model.idx_q(joint)] - start[model.idx_q(joint)]));
  return result;
}

}  // namespace mimic::motion
