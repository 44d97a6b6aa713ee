#include "mimic/motion/reference_clearance.hpp"

#include <algorithm>
#include <cmath>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/geometry/motion_distances.hpp"
#include "mimic/model/data.hpp"
#include "mimic/motion/end_pose_clearance.hpp"

namespace mimic::motion {

namespace {

// Bisection steps on the offset's fraction (step 3 of the header): 2^-12 of an offset of at most a few
// radians is below a milliradian.
constexpr int kShrinkSteps = 12;
// Step 4: pairs within 1 mm of their target bind the offset; each step aims 0.1 mm beyond it, so that a
// linearisation error of that size still leaves the pose clear; at most 20 steps, stopping when a step
// shortens the offset by less than 1e-4 rad.
constexpr double kActive = 1e-3, kPullMargin = 1e-4, kPullTolerance = 1e-4;
constexpr int kPullIterations = 20;

// One sample's clearance: the listed pairs, each with its target.
struct SampleClearance {
  const model::Model& model;
  const geometry::CollisionModel& cmodel;
  const std::vector<int>& pairs;
  const std::vector<int>& active;
  const model::ScaledLimits& limits;
  std::vector<double> targets;  // per pair
  Eigen::VectorXd reference;    // the sample's configuration
  model::Data data{model};
  geometry::CollisionData cdata{model, cmodel};

  // The reference with `offset` added to the active joints, within their limits.
  Eigen::VectorXd pose(const Eigen::VectorXd& offset) const {
    Eigen::VectorXd q = reference;
    for (std::size_t i = 0; i < active.size(); ++i) {
      const int joint = active[i];
      double& value = q[model.idx_q(joint)];
      value =
          std::clamp(value + offset[static_cast<Eigen::Index>(i)], limits.lower[joint], limits.upper[joint]);
    }
    return q;
  }
  Eigen::VectorXd offset_of(const Eigen::VectorXd& q) const {
    Eigen::VectorXd offset(static_cast<Eigen::Index>(active.size()));
    for (std::size_t i = 0; i < active.size(); ++i)
      offset[static_cast<Eigen::Index>(i)] = q[model.idx_q(active[i])] - reference[model.idx_q(active[i])];
    return offset;
  }
  // Every pair at least its target apart at q.
  bool clear(const Eigen::VectorXd& q) {
    geometry::compute_distances(model, data, cmodel, cdata, q);
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (cdata.distance[pairs[i]] < targets[i]) return false;
    return true;
  }

  // Steps 1-4 of the header from the previous sample's offset; returns this sample's.
  Eigen::VectorXd offset(const Eigen::VectorXd& previous) {
    // 1-2. The previous offset continued, cleared from there.
    Eigen::VectorXd q = pose(previous);
    if (!clear_end_pose(model, cmodel, pairs, active, limits, targets, q).cleared) return offset_of(q);
    // 3. Shrunk along its direction to the smallest clear fraction (the reference, fraction 0, is not).
    const Eigen::VectorXd full = offset_of(q);
    double in = 0.0, out = 1.0;
    for (int s = 0; s < kShrinkSteps; ++s) {
      const double mid = 0.5 * (in + out);
      (clear(pose(mid * full)) ? out : in) = mid;
    }
    Eigen::VectorXd delta = out * full;
    // 4. Pulled back: Gauss-Newton steps towards the least-norm clear offset. The pairs within kActive of
    // their targets bind; the least-norm offset on their linearised boundary,
    // delta' = J^T (J J^T)^-1 (J delta + target - d), is the projection of the reference onto it; the
    // step towards it is halved until the pose is clear and the offset shorter.
    const auto m = static_cast<Eigen::Index>(active.size());
    for (int iteration = 0; iteration < kPullIterations; ++iteration) {
      geometry::compute_distance_gradients(model, data, cmodel, cdata, pose(delta));
      std::vector<std::size_t> rows;
      for (std::size_t i = 0; i < pairs.size(); ++i)
        if (cdata.distance[pairs[i]] < targets[i] + kActive) rows.push_back(i);
      Eigen::VectorXd wanted = Eigen::VectorXd::Zero(m);
      if (!rows.empty()) {
        Eigen::MatrixXd J(static_cast<Eigen::Index>(rows.size()), m);
        Eigen::VectorXd r(J.rows());
        for (Eigen::Index k = 0; k < J.rows(); ++k) {
          const std::size_t h = rows[static_cast<std::size_t>(k)];
          r[k] = targets[h] + kPullMargin - cdata.distance[pairs[h]];
          for (Eigen::Index i = 0; i < m; ++i)
            J(k, i) = cdata.distance_gradient(pairs[h], model.idx_v(active[static_cast<std::size_t>(i)]));
        }
        Eigen::MatrixXd JJt = J * J.transpose();
        JJt.diagonal().array() += 1e-12;  // as end_pose_clearance: nearly parallel rows stay solvable
        wanted = J.transpose() * JJt.ldlt().solve(J * delta + r);
      }
      const double length = delta.norm();
      bool accepted = false;
      for (double t = 1.0; t >= 1.0 / 64.0 && !accepted; t *= 0.5) {
        const Eigen::VectorXd trial = offset_of(pose(delta + t * (wanted - delta)));
        if (trial.norm() < length && clear(pose(trial))) {
          delta = trial;
          accepted = true;
        }
      }
      if (!accepted || delta.norm() > length - kPullTolerance) break;
    }
    return delta;
  }
};

}  // namespace

bool deep_collision(const geometry::CollisionPair& pair, double distance) {
  return pair.kind == geometry::PairKind::kCapsuleCapsule &&
         distance < -std::max(pair.first_radius, pair.second_radius);
}

ReferenceClearance clear_deep_collisions(const model::Model& model, const geometry::CollisionModel& cmodel,
                                         const std::vector<int>& pairs, const std::vector<int>& active,
                                         const model::ScaledLimits& limits, double target,
                                         const std::vector<int>& frames, Eigen::MatrixXd& q,
                                         Eigen::MatrixXd& frame_targets, core::ThreadPool* pool) {
  const Eigen::Index n = q.cols();
  const auto np = static_cast<Eigen::Index>(pairs.size());
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  ReferenceClearance result;

  // The listed pairs' distances on the reference (np x N), and the deepest collision.
  const Eigen::MatrixXd distance = geometry::motion_distances(model, cmodel, q, pool).distance;
  Eigen::MatrixXd reference_distance(np, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    for (Eigen::Index i = 0; i < np; ++i) {
      const int p = pairs[static_cast<std::size_t>(i)];
      const double d = reference_distance(i, k) = distance(p, k);
      if (deep_collision(cmodel.pairs[static_cast<std::size_t>(p)], d) && -d > result.deepest) {
        result.deepest = -d;
        result.deepest_pair = p;
        result.deepest_sample = static_cast<int>(k);
      }
    }
  }
  // Per pair, its runs inside `target` that go deep somewhere: where it is cleared to `target`.
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> cleared =
      Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(np, n, false);
  for (Eigen::Index i = 0; i < np; ++i) {
    const geometry::CollisionPair& pair =
        cmodel.pairs[static_cast<std::size_t>(pairs[static_cast<std::size_t>(i)])];
    for (Eigen::Index begin = 0, end = 0; begin < n; begin = end) {
      end = begin + 1;
      if (!(reference_distance(i, begin) < target)) continue;
      bool deep = false;
      for (end = begin; end < n && reference_distance(i, end) < target; ++end)
        deep = deep || deep_collision(pair, reference_distance(i, end));
      if (deep) cleared.row(i).segment(begin, end - begin).setConstant(true);
    }
  }

  SampleClearance sample{model, cmodel, pairs, active, limits, std::vector<double>(pairs.size()), {}};
  Eigen::VectorXd offset = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(active.size()));
  bool in_run = false;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (!cleared.col(k).any()) {
      in_run = false;
      continue;
    }
    if (!in_run) {
      ++result.runs;
      offset.setZero();
      in_run = true;
    }
    // The pairs of a deep run are cleared to `target`; the others are kept at least as far apart as on
    // the reference (to `target` at most): a shallow overlap stays the solver's, and is not made deeper.
    for (Eigen::Index i = 0; i < np; ++i)
      sample.targets[static_cast<std::size_t>(i)] =
          cleared(i, k) ? target : std::min(target, reference_distance(i, k));
    sample.reference = q.col(k);
    offset = sample.offset(offset);
    const Eigen::VectorXd moved = sample.pose(offset);
    geometry::compute_distances(model, data, cmodel, cdata, moved);
    for (Eigen::Index i = 0; i < np; ++i) {
      if (!cleared(i, k)) continue;
      const double d = cdata.distance[pairs[static_cast<std::size_t>(i)]];
      result.min_distance = std::min(result.min_distance, d);
    }
    if (!sample.clear(moved)) ++result.uncleared;
    result.shift = std::max(result.shift, offset.cwiseAbs().maxCoeff());
    ++result.samples;

    // The frame targets move with the frames.
    dynamics::forward_kinematics(model, data, sample.reference);
    std::vector<Eigen::Vector3d> before;
    for (const int f : frames) before.push_back(dynamics::update_frame_placement(model, data, f).p);
    dynamics::forward_kinematics(model, data, moved);
    for (std::size_t f = 0; f < frames.size(); ++f) {
      frame_targets.block<3, 1>(3 * static_cast<Eigen::Index>(f), k) +=
          dynamics::update_frame_placement(model, data, frames[f]).p - before[f];
    }
    q.col(k) = moved;
  }
  return result;
}

}  // namespace mimic::motion
