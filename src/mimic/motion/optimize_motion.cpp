#include "mimic/motion/optimize_motion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/geometry/motion_distances.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/collision_screening.hpp"
#include "mimic/motion/end_pose_clearance.hpp"
#include "mimic/motion/reference_clearance.hpp"
#include "mimic/motion/refine.hpp"
#include "mimic/motion/torque_objective_start.hpp"

namespace mimic::motion {

namespace {

std::string format(const char* pattern, double a, double b) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, pattern, a, b);
  return buffer;
}

void check_pinned_ends(const model::Model& model, const MotionInput& input, const model::ScaledLimits& limits,
                       const std::vector<int>& active) {
  for (const int row : {0, input.sample_count() - 1}) {
    for (const int j : active) {
      const double q = input.joint(model, j, row);
      if (q < limits.lower[j] - 1e-12 || q > limits.upper[j] + 1e-12) {
        throw InfeasibleError(
            "motion optimisation: " + model.joint_names[j] +
            format(" at t=%.3f s is pinned to the reference %.4g rad, outside its (factored) "
                   "angle limits; the motion must start and end within them",
                   row / input.rate, q));
      }
    }
  }
}

// Configurations (nq x N) of the joint samples (nj x N) with the base at the identity: distances between
// shapes do not depend on the base.
Eigen::MatrixXd waist_frame_configurations(const model::Model& model, const Eigen::MatrixXd& joints) {
  Eigen::MatrixXd q(model.nq, joints.cols());
  Eigen::VectorXd column(model.nq);
  model::set_base_pose(model, column, spatial::SE3::Identity());
  for (Eigen::Index n = 0; n < joints.cols(); ++n) {
    column.tail(model.nj) = joints.col(n);
    q.col(n) = column;
  }
  return q;
}

// The joints (nj x N) as the problem holds them: the passive ones as in the clip, or at MotionInput::rest
// when it is given, and the active ones from `active_joints` (m x N, in the order of `active`).
Eigen::MatrixXd problem_joints(const model::Model& model, const MotionInput& input,
                               const std::vector<int>& active, const Eigen::MatrixXd& active_joints) {
  Eigen::MatrixXd joints = input.rest.size() == model.nj
                               ? Eigen::MatrixXd(input.rest.replicate(1, input.sample_count()))
                               : Eigen::MatrixXd(input.motion.q.bottomRows(model.nj));
  for (std::size_t p = 0; p < active.size(); ++p)
    joints.row(active[p]) = active_joints.row(static_cast<Eigen::Index>(p));
  return joints;
}

// The torques (nj x N) of the initial guess (from `start_joints` when not null, else from the reference).
// The probe problem has no limit or pair rows: only its spline fit and its torques are used.
Eigen::MatrixXd initial_guess_torques(const model::Model& model, const model::RobotDescription& description,
                                      const MotionInput& input, ProblemOptions options,
                                      const Eigen::MatrixXd* start_joints) {
  options.torque_samples.clear();
  options.pair_only_samples.clear();
  options.collision_pairs.clear();
  const MotionProblem probe(model, description, input, options);
  const Eigen::VectorXd x0 =
      start_joints != nullptr ? probe.initial_guess(*start_joints) : probe.initial_guess();
  return probe.torques(probe.joint_samples(x0));
}

}  // namespace

MotionResult optimize_motion(const model::Model& model, const model::RobotDescription& description,
                             const MotionInput& input, const MotionSettings& settings,
                             const ProgressCallback& progress) {
  validate_input(model, input);
  const model::ScaledLimits limits = model::scaled_limits(model, settings.limits);
  const std::vector<int> active = active_joint_indices(model, description);
  check_pinned_ends(model, input, limits, active);

  const int n = input.sample_count();
  std::set<int> torque_samples;
  // The torque objective's coarse grid (ProblemOptions::objective_stride) holds its limit and pair rows
  // too: one RNEA pass serves the residual and the limits. Where its start stays far below the limits, its
  // minimum does too (boxing: 0.35 of them), and the samples keep only their pair rows (pair_only, chosen
  // below once the start is known: MotionSettings::torque_objective_row_ratio).
  const bool torque_objective = settings.objective == Objective::kTorque;
  const int stride = torque_objective && settings.torque_objective_stride > 1
                         ? settings.torque_objective_stride
                         : std::max(settings.torque_stride, 1);
  for (int i = 0; i < n; i += stride) torque_samples.insert(i);
  torque_samples.insert(n - 1);
  std::set<int> pair_only;

  MotionResult result;
  // The input the problem is built from: the reference with its pinned ends cleared of self-collision.
  MotionInput problem_input = input;
  ProblemOptions options;
  options.objective = settings.objective;
  options.sigma = settings.sigma;
  options.torque_weight = settings.torque_weight;
  options.objective_stride = settings.torque_objective_stride;
  options.limits = settings.limits;
  options.knot_spacing = settings.knot_spacing;

  options.geometry = settings.geometry;
  options.geometry.safety_distance += kStabilizerMargin;

  // Self-collision pairs: screened on the reference (passive joints as the problem holds them), extended
  // by the check of each solution (settings comment).
  const geometry::CollisionModel* cmodel = settings.geometry.collision.get();
  // The screening's per-sample distances run on the solve's number of threads (the scans do not depend on
  // it).
  core::ThreadPool pool(core::thread_count(settings.solver.threads));
  const double safety = settings.geometry.safety_distance;
  std::vector<int> movable;
  std::set<int> pairs;
  // Rows of this function's own added by the check (a pair the screening left out, the limit rows of a
  // pair-only sample): refine() solves again (RefineSteps::rows_added).
  bool rows_added = false;
  // The pairs that come within the activation distance somewhere on `configurations` (waist frame) get
  // rows; where they are inside the safety distance the solution must give way, and rows there from the
  // start save the rounds that would find those samples one solve at a time.
  // One pass of distances over the samples serves both scans.
  const auto screen = [&](const Eigen::MatrixXd& configurations) {
    const Eigen::MatrixXd distance =
        geometry::motion_distances(model, *cmodel, configurations, &pool).distance;
    const PairScan near = scan_pairs(distance, movable, safety + settings.collision_activation);
    pairs.insert(near.near_pairs.begin(), near.near_pairs.end());
    const PairScan inside = scan_pairs(distance, near.near_pairs, safety + kStabilizerMargin);
    torque_samples.insert(inside.near_samples.begin(), inside.near_samples.end());
  };
  if (cmodel != nullptr) {
    movable = movable_pairs(model, *cmodel, active);
    Eigen::MatrixXd reference_active(static_cast<Eigen::Index>(active.size()), n);
    for (std::size_t p = 0; p < active.size(); ++p)
      reference_active.row(static_cast<Eigen::Index>(p)) = input.motion.q.row(model.idx_q(active[p]));
    const Eigen::MatrixXd reference_q =
        waist_frame_configurations(model, problem_joints(model, input, active, reference_active));
    screen(reference_q);
    // Where the reference goes deep into a shape, the rows' gradient is no guide: the runs around such
    // samples are cleared first (reference_clearance.hpp), with the margin the rows ask for. A reference
    // without deep collisions is left as it is.
    Eigen::MatrixXd cleared_q = reference_q;
    result.reference_clearance = clear_deep_collisions(
        model, *cmodel, movable, active, limits, safety + kStabilizerMargin,
        imitated_frames(model, description), cleared_q, problem_input.end_effectors, &pool);
    if (result.reference_clearance.runs > 0) {
      for (const int j : active) problem_input.motion.q.row(model.idx_q(j)) = cleared_q.row(model.idx_q(j));
      model::differentiate(model, problem_input.motion);
    }
    // The ends are pinned to the reference (at rest): rows there are constants. An end inside the safety
    // distance (the clip starts or ends with a hand at the head or the thighs) could never leave it: it is
    // moved out first (end_pose_clearance.hpp), with the margin the rows ask for.
    for (const int row : {0, n - 1}) {
      Eigen::VectorXd q = cleared_q.col(row);
      const EndPoseClearance clearance =
          clear_end_pose(model, *cmodel, movable, active, limits, safety + kStabilizerMargin, q);
      if (!clearance.cleared) {
        throw InfeasibleError(
            "motion optimisation: the clip's " + std::string(row == 0 ? "first" : "last") +
            format(" pose (t=%.3f s) keeps two shapes %.4g m apart, closer than the safety distance, and "
                   "moving the arms within their angle limits does not clear it",
                   row / input.rate, clearance.min_distance));
      }
      for (const int j : active) problem_input.motion.q(model.idx_q(j), row) = q[model.idx_q(j)];
      result.end_shift = std::max(result.end_shift, clearance.shift);
    }
    if (result.end_shift > 0.0) model::differentiate(model, problem_input.motion);
  }

  // The torque objective starts from the shape of its minima (torque_objective_start.hpp), not from the
  // reference it does not imitate.
  std::optional<TorqueObjectiveStart> start;
  if (settings.objective == Objective::kTorque && settings.torque_objective_start) {
    start = torque_objective_start(model, active, problem_input, limits, settings.start_velocity_fraction,
                                   cmodel, safety + kStabilizerMargin);
    // Its posture brings other shapes together than the reference (an arm hanging by a thigh): they are
    // screened on it as on the reference.
    if (start && cmodel != nullptr)
      screen(waist_frame_configurations(model, problem_joints(model, input, active, start->joints)));
  }

  if (torque_objective && settings.torque_objective_row_ratio > 0.0) {
    // The pinned ends keep their limit rows: they are constants the pre-check verifies
    // (MotionProblem::check_pinned_torques).
    const std::vector<int> samples = pair_only_samples(
        std::vector<int>(torque_samples.begin(), torque_samples.end()),
        initial_guess_torques(model, description, problem_input, options, start ? &start->joints : nullptr),
        active, limits, settings.torque_objective_row_ratio);
    pair_only.insert(samples.begin(), samples.end());
  }

  std::optional<MotionProblem> problem;
  RefineSteps steps;
  steps.build = [&](const std::vector<int>& samples) -> optim::Problem& {
    options.torque_samples = samples;
    options.pair_only_samples.assign(pair_only.begin(), pair_only.end());
    options.collision_pairs.assign(pairs.begin(), pairs.end());
    result.collision_pairs = static_cast<int>(pairs.size());
    return problem.emplace(model, description, problem_input, options);
  };
  steps.rows_added = [&] { return std::exchange(rows_added, false); };
  steps.initial_guess = [&] {
    return start ? problem->initial_guess(start->joints) : problem->initial_guess();
  };
  steps.row_keys = [&](terms::RowKind kind) { return problem->row_keys(kind); };
  // The 200 Hz check. Angles and velocities hold by the convex-hull argument (motion_problem.hpp) up to
  // the solver's tolerance; torques are checked sample by sample.
  steps.violating = [&](const Eigen::VectorXd& x) {
    const trajectory::JointSamples joints = problem->joint_samples(x);
    const Eigen::MatrixXd tau = problem->torques(joints);
    MotionMetrics metrics;
    std::vector<int> violating;
    for (int i = 0; i < n; ++i) {
      bool violated = false;
      const double weight = i == 0 || i == n - 1 ? 0.5 / input.rate : 1.0 / input.rate;
      for (const int j : active) {
        metrics.active_torque_integral += weight * tau(j, i) * tau(j, i);
        const double middle = 0.5 * (limits.upper[j] + limits.lower[j]);
        const double half = 0.5 * (limits.upper[j] - limits.lower[j]);
        const std::string& name = model.joint_names[j];
        const double time = i / input.rate, angle = joints.q(j, i);
        metrics.angle.raise(std::abs(angle - middle) / half, angle,
                            angle < middle ? limits.lower[j] : limits.upper[j], name, time);
        metrics.velocity.raise(std::abs(joints.qdot(j, i)) / limits.velocity[j], joints.qdot(j, i),
                               limits.velocity[j], name, time);
        const double torque_ratio = std::abs(tau(j, i)) / limits.torque[j];
        metrics.torque.raise(torque_ratio, tau(j, i), limits.torque[j], name, time);
        violated = violated || torque_ratio > 1.0 + kLimitTolerance;
      }
      if (violated) {
        violating.push_back(i);
        // A sample without limit rows gets them in the next round.
        rows_added = pair_only.erase(i) > 0 || rows_added;
      }
    }
    if (cmodel != nullptr) {
      // Inside the safety distance (the rows ask for kStabilizerMargin more): a new sample, and a pair
      // screened out before, get rows in the next round. The pinned ends were cleared before the solve.
      const int first = 1, count = n - 2;
      PairScan scan =
          scan_pairs(model, *cmodel, movable,
                     waist_frame_configurations(model, joints.q.middleCols(first, count)), safety, &pool);
      for (int& sample : scan.near_samples) sample += first;
      scan.closest_sample += first;
      for (const int p : scan.near_pairs) rows_added = pairs.insert(p).second || rows_added;
      std::vector<int> merged;
      std::set_union(violating.begin(), violating.end(), scan.near_samples.begin(), scan.near_samples.end(),
                     std::back_inserter(merged));
      violating = std::move(merged);
      if (scan.closest_pair >= 0) {
        metrics.min_distance = scan.min_distance;
        metrics.closest_pair = cmodel->pair_name(scan.closest_pair);
        metrics.closest_time = scan.closest_sample / input.rate;
      }
    }
    double joint_squares = 0.0, position_squares = 0.0;
    for (const int j : active)
      joint_squares += (joints.q.row(j) - input.motion.q.row(model.idx_q(j))).squaredNorm();
    const Eigen::MatrixXd points = problem->end_effector_positions(joints.q);
    for (int i = 0; i < n; ++i) {
      for (int f = 0; f < 3; ++f) {
        const double e = (points.block<3, 1>(3 * f, i) - input.end_effectors.block<3, 1>(3 * f, i)).norm();
        position_squares += e * e;
        metrics.imitation.position_max = std::max(metrics.imitation.position_max, e);
      }
    }
    metrics.imitation.joint_rmse = std::sqrt(joint_squares / (static_cast<double>(n) * active.size()));
    metrics.imitation.position_rms = std::sqrt(position_squares / (3.0 * n));
    result.metrics = metrics;
    result.joints = joints.q;
    result.variables = x;
    return violating;
  };
  const RefineResult refined = refine(steps, std::move(torque_samples),
                                      {settings.solver, settings.max_refinements, "motion"}, progress);
  result.solve = refined.solve;
  result.solves = refined.solves;
  result.total_iterations = refined.total_iterations;
  result.total_seconds = refined.solver_seconds;
  result.torque_samples = static_cast<int>(refined.torque_samples.size());

  const MotionMetrics& m = result.metrics;
  // A solve that stopped short of the stationarity tolerance on a feasible point (stalled, iteration or
  // time cap) is not a failure, as in `smooth`: the motion is within the limits, which the 200 Hz check
  // below verifies anyway; it is only less optimal than an optimum (the caller warns).
  if (!result.solve.success() && !result.solve.feasible) {
    result.failure = std::string("solver ") + optim::to_string(result.solve.status) + ": " +
                     (result.solve.worst ? "worst violated constraint: " + result.solve.worst->description
                                         : result.solve.reason);
  } else if (m.min_distance < safety) {
    result.failure = "200 Hz check after " + std::to_string(result.solves) + " solves: " + m.closest_pair +
                     format(" at t=%.3f s is %.4g m apart, closer than the safety distance", m.closest_time,
                            m.min_distance);
  } else if (m.angle.ratio > 1.0 + kLimitTolerance || m.velocity.ratio > 1.0 + kLimitTolerance ||
             m.torque.ratio > 1.0 + kLimitTolerance) {
    const auto worst = [&](const evaluation::Peak& a, const char* kind) {
      return a.joint + " " + kind + format(" at t=%.3f s is %.6g times its limit", a.time, a.ratio);
    };
    const evaluation::Peak* peaks[] = {&m.angle, &m.velocity, &m.torque};
    const char* kinds[] = {"angle", "velocity", "torque"};
    int k = 0;
    for (int i = 1; i < 3; ++i) k = peaks[i]->ratio > peaks[k]->ratio ? i : k;
    result.failure =
        "200 Hz check after " + std::to_string(result.solves) + " solves: " + worst(*peaks[k], kinds[k]);
  }
  result.success = result.failure.empty();
  return result;
}

void require_success(const MotionResult& result) {
  if (!result.success) throw InfeasibleError("motion optimisation: " + result.failure);
}

std::vector<int> pair_only_samples(const std::vector<int>& torque_samples, const Eigen::MatrixXd& tau,
                                   const std::vector<int>& active, const model::ScaledLimits& limits,
                                   double ratio) {
  if (torque_samples.size() <= 2) return {};
  const std::vector<int> interior(std::next(torque_samples.begin()), std::prev(torque_samples.end()));
  for (const int s : interior) {
    for (const int j : active) {
      // Written so that a NaN torque counts as near.
      if (!(std::abs(tau(j, s)) < ratio * limits.torque[j])) return {};
    }
  }
  return interior;
}

}  // namespace mimic::motion
