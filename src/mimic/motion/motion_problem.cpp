#include "mimic/motion/motion_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/problem_budget.hpp"
#include "mimic/terms/frame_imitation.hpp"
#include "mimic/terms/joint_imitation.hpp"
#include "mimic/terms/self_collision.hpp"
#include "mimic/terms/torque_limits.hpp"
#include "mimic/terms/torque_residual.hpp"

namespace mimic::motion {

namespace {

using trajectory::EndSpec;

std::vector<double> sample_times(int n, double rate) {
  std::vector<double> times(n);
  for (int i = 0; i < n; ++i) times[i] = i / rate;
  // The last sample is tf exactly, so that no rounding puts it outside the basis' interval.
  times.back() = (n - 1) / rate;
  return times;
}

trajectory::SplineParameterization make_parameterization(const model::Model& model, const MotionInput& input,
                                                         const std::vector<int>& active,
                                                         double knot_spacing) {
  const int m = static_cast<int>(active.size());
  Eigen::VectorXd start(m), end(m);
  for (int p = 0; p < m; ++p) {
    start[p] = input.joint(model, active[p], 0);
    end[p] = input.joint(model, active[p], input.sample_count() - 1);
  }
  check_problem_budget({"motion optimisation", "trajectory.knot_spacing", input.duration(), knot_spacing,
                        input.sample_count(), m});
  return {trajectory::QuarticBspline(0.0, input.duration(), knot_spacing), m, EndSpec::fixed_at_rest(start),
          EndSpec::fixed_at_rest(end)};
}

// Coordinate p of the spline moves the velocity dof of active joint p.
std::vector<std::vector<int>> coordinate_dofs(const model::Model& model, const std::vector<int>& active) {
  std::vector<std::vector<int>> dofs;
  for (const int joint : active) dofs.push_back({model.idx_v(joint)});
  return dofs;
}

std::string format(const char* pattern, double a, double b, double c) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

}  // namespace

std::vector<int> imitated_frames(const model::Model& model, const model::RobotDescription& description) {
  const model::OperationalFrames& f = description.frames;
  return {model.frame_index(f.gaze), model.frame_index(f.right_gripper), model.frame_index(f.left_gripper)};
}

MotionProblem::MotionProblem(const model::Model& model, const model::RobotDescription& description,
                             const MotionInput& input, ProblemOptions options)
    : MotionProblem(model, active_joint_indices(model, description), imitated_frames(model, description),
                    input, std::move(options)) {}

MotionProblem::MotionProblem(const model::Model& model, std::vector<int> active, std::vector<int> frames,
                             const MotionInput& input, ProblemOptions options)
    : SplineProblem(model, make_parameterization(model, input, active, options.knot_spacing),
                    sample_times(input.sample_count(), input.rate), coordinate_dofs(model, active)),
      options_(std::move(options)),
      limits_(model::scaled_limits(model, options_.limits)),
      active_(std::move(active)),
      frames_(std::move(frames)),
      m_(static_cast<int>(active_.size())),
      n_(input.sample_count()) {
  for (const auto* samples : {&options_.torque_samples, &options_.pair_only_samples}) {
    for (const int s : *samples) {
      if (s < 0 || s >= n_)
        throw std::invalid_argument("MotionProblem: torque sample " + std::to_string(s) + " out of range");
    }
  }
  reference_joints_.resize(m_, n_);
  for (int p = 0; p < m_; ++p) reference_joints_.row(p) = input.motion.q.row(model.idx_q(active_[p]));
  // The given base motion and the passive joints take their rates from the reference motion
  // (model::differentiate), or are held at `rest`. q.tail(nj) and v.tail(nj) are the joints (model.hpp), so
  // the rows above them are the base's.
  const int nj = model.nj;
  base_q_ = input.motion.q.topRows(model.nq - nj);
  base_v_ = input.motion.v.topRows(model.nv - nj);
  base_a_ = input.motion.a.topRows(model.nv - nj);
  if (input.rest.size() == nj) {
    passive_q_ = input.rest.replicate(1, n_);
    passive_v_.setZero(nj, n_);
    passive_a_.setZero(nj, n_);
  } else {
    passive_q_ = input.motion.q.bottomRows(nj);
    passive_v_ = input.motion.v.bottomRows(nj);
    passive_a_ = input.motion.a.bottomRows(nj);
  }

  lower_.resize(num_variables());
  upper_.resize(num_variables());
  for (int s = 0; s < parameterization_.num_slots(); ++s) {
    for (int p = 0; p < m_; ++p) {
      lower_[parameterization_.variable_index(s, p)] = limits_.lower[active_[p]];
      upper_[parameterization_.variable_index(s, p)] = limits_.upper[active_[p]];
    }
  }
  {
    std::vector<int> coordinates(static_cast<std::size_t>(m_));
    std::vector<double> limits(static_cast<std::size_t>(m_));
    for (int p = 0; p < m_; ++p) {
      coordinates[static_cast<std::size_t>(p)] = p;
      limits[static_cast<std::size_t>(p)] = limits_.velocity[active_[p]];
    }
    set_velocity_rows(terms::VelocityRows(parameterization_, coordinates, limits));
  }
  add_rows(input);
  finish();
  check_pinned_torques();
}

void MotionProblem::check_pinned_torques() const {
  // The boundary conditions fix q, qdot and qddot of the active joints at both ends (q = the reference, at
  // rest), and the base and passive joints are given: the torques there do not depend on x. A torque-limit
  // row at an end that is violated is a constant the solver would chase with an ever larger penalty.
  model::Data data(model_);
  Eigen::VectorXd q(model_.nq), v(model_.nv), a(model_.nv);
  for (const int n : options_.torque_samples) {
    if (n != 0 && n != n_ - 1) continue;
    q << base_q_.col(n), passive_q_.col(n);
    v << base_v_.col(n), passive_v_.col(n);
    a << base_a_.col(n), passive_a_.col(n);
    for (int p = 0; p < m_; ++p) {
      q[model_.idx_q(active_[p])] = reference_joints_(p, n);
      v[model_.idx_v(active_[p])] = 0.0;
      a[model_.idx_v(active_[p])] = 0.0;
    }
    const Eigen::VectorXd& tau = dynamics::rnea(model_, data, q, v, a);
    for (const int j : active_) {
      const double value = tau[model_.idx_v(j)];
      const double limit = limits_.torque[j];
      // The 200 Hz check's tolerance (optimize_motion.hpp's kLimitTolerance): what passes it may stay.
      if (std::abs(value) > (1.0 + 1e-6) * limit) {
        throw InfeasibleError("motion optimisation: " + model_.joint_names[j] +
                              format(" torque at t=%.3f s is %.4g N m, beyond its (factored) limit %.4g N m",
                                     times()[static_cast<std::size_t>(n)], value, limit) +
                              " at the motion's " + (n == 0 ? "first" : "last") +
                              " sample, which the boundary conditions pin to the reference at rest: no "
                              "motion meets the torque limits (raise limits.torque_factor)");
      }
    }
  }
}

// Row order: per sample the imitation (active joints, then the frames) or the torque residual (both in the
// blended objective); after the velocity rows, per torque sample the upper and lower torque-limit rows of
// each active joint (none at pair_only_samples), then those of each collision pair.
void MotionProblem::add_rows(const MotionInput& input) {
  const model::Model& model = model_;
  const double dt = 1.0 / input.rate;
  Eigen::VectorXd torque_limits(m_);
  for (int p = 0; p < m_; ++p) torque_limits[p] = limits_.torque[active_[p]];
  const auto limits = std::make_shared<terms::TorqueLimits>(model, active_, torque_limits);
  const auto torque = std::make_shared<terms::TorqueResidual>(model, active_);
  const bool any_collision = !options_.collision_pairs.empty();

  // Per sample: whether it has torque-limit rows, and pair rows (a row at a pinned end is a constant).
  std::vector<char> limited(static_cast<std::size_t>(n_), 0), paired(static_cast<std::size_t>(n_), 0);
  for (const int s : options_.torque_samples) {
    limited[static_cast<std::size_t>(s)] = 1;
    paired[static_cast<std::size_t>(s)] = any_collision && s > 0 && s < n_ - 1;
  }
  for (const int s : options_.pair_only_samples) limited[static_cast<std::size_t>(s)] = 0;

  // The world-state row set of each combination that occurs, made on first use: the torque residual's weight
  // (0: none), the limit rows and the pair rows. RNEA with the given base motion: one pass serves the
  // residual and the limits at a sample, so both live in one set. -1: a sample with none of them.
  std::map<std::tuple<double, bool, bool>, int> sets;
  const auto set_for = [&](double weight, int n) {
    const bool limit = limited[static_cast<std::size_t>(n)], pair = paired[static_cast<std::size_t>(n)];
    if (weight == 0.0 && !limit && !pair) return -1;
    const auto [found, added] = sets.try_emplace({weight, limit, pair}, -1);
    if (added) {
      terms::TermSum sum(model);
      if (limit) sum.add("torque limits", limits);
      if (pair) {
        sum.add("self-collision", std::make_shared<terms::SelfCollision>(model, options_.geometry.collision,
                                                                         options_.collision_pairs,
                                                                         options_.geometry.safety_distance));
      }
      if (weight > 0.0) sum.add("torque", torque, weight);
      found->second = add_row_set(std::move(sum), kWorld);
    }
    return found->second;
  };
  const auto add_world_blocks = [&](const std::function<double(int)>& weight) {
    for (int n = 0; n < n_; ++n) {
      const int set = set_for(weight(n), n);
      if (set >= 0) add_block(n, set);
    }
  };

  if (options_.objective == Objective::kImitation) {
    terms::TermSum imitation(model);
    imitation.add("joints", std::make_shared<terms::JointImitation>(model, active_, reference_joints_),
                  std::sqrt(dt));
    imitation.add("frames", std::make_shared<terms::FrameImitation>(model, frames_, input.end_effectors),
                  std::sqrt(options_.sigma * dt));
    const int residual = add_row_set(std::move(imitation), kWaistFrame);
    for (int n = 0; n < n_; ++n) add_block(n, residual);
    const double weight = options_.torque_weight > 0.0 ? std::sqrt(options_.torque_weight * dt) : 0.0;
    add_world_blocks([&](int) { return weight; });
    return;
  }
  const int stride = std::max(options_.objective_stride, 1);
  // With stride k > 1, the rectangle rule on the coarse grid of every k-th sample
  // (ProblemOptions::objective_stride): each sample of the clip counts at the grid sample nearest to it
  // (ties: the later one; past the last multiple of k, the last sample), which thus weighs (its samples) *
  // dt. The weights add up to the dense sum's. The grid matches optimize_motion's torque samples for this
  // objective, so the torque rows share the RNEA pass of the limit rows.
  std::vector<int> group_size(static_cast<std::size_t>(n_), 0);
  for (int n = 0; n < n_; ++n) {
    const int grid = std::min(stride * ((n + stride / 2) / stride), n_ - 1);
    ++group_size[static_cast<std::size_t>(grid)];
  }
  add_world_blocks([&](int n) {
    const int size = group_size[static_cast<std::size_t>(n)];
    return size == 0 ? 0.0 : std::sqrt(size * dt);
  });
}

void MotionProblem::set_state(int n, int state, SplineProblemData& data) const {
  terms::SampleData& sample = data.sample;
  const trajectory::JointSamples& active = data.samples;
  sample.index = n;
  const Eigen::Index base_v = base_v_.rows();
  if (state == kWorld) {
    sample.q.head(base_q_.rows()) = base_q_.col(n);
    sample.v.head(base_v) = base_v_.col(n);
    sample.a.head(base_v) = base_a_.col(n);
  } else {
    model::set_base_pose(model_, sample.q, spatial::SE3::Identity());
    sample.v.head(base_v).setZero();
    sample.a.head(base_v).setZero();
  }
  sample.q.tail(model_.nj) = passive_q_.col(n);
  sample.v.tail(model_.nj) = passive_v_.col(n);
  sample.a.tail(model_.nj) = passive_a_.col(n);
  for (int p = 0; p < m_; ++p) {
    sample.q[model_.idx_q(active_[p])] = active.q(p, n);
    sample.v[model_.idx_v(active_[p])] = active.qdot(p, n);
    sample.a[model_.idx_v(active_[p])] = active.qddot(p, n);
  }
}

double MotionProblem::control_point_time(int slot) const {
  const auto& knots = parameterization_.basis().knots();
  for (int i = 0; i < parameterization_.basis().num_control_points(); ++i) {
    if (parameterization_.slot_of_control_point(i) == slot) {
      return (knots[i + 1] + knots[i + 2] + knots[i + 3] + knots[i + 4]) / 4.0;  // Greville abscissa
    }
  }
  return 0.0;
}

std::string MotionProblem::describe_constraint(optim::ConstraintKind kind, int index, double value) const {
  using optim::ConstraintKind;
  if (kind == ConstraintKind::kLowerBound || kind == ConstraintKind::kUpperBound) {
    const int joint = active_[index % m_];
    const bool lower = kind == ConstraintKind::kLowerBound;
    return model_.joint_names[joint] +
           format(lower
                      ? " angle (control point near t=%.3f s) is below its lower limit %.4g rad by %.3g rad"
                      : " angle (control point near t=%.3f s) is above its upper limit %.4g rad by %.3g rad",
                  control_point_time(index / m_), lower ? limits_.lower[joint] : limits_.upper[joint], value);
  }
  if (kind == ConstraintKind::kInequality && index < velocity().num_rows())
    return describe_velocity_row(index, value, active_, limits_.velocity);
  int row = 0;
  bool upper = true;
  const Block* block = kind == ConstraintKind::kInequality
                           ? block_of(terms::RowKind::kInequality, index, row, upper)
                           : nullptr;
  if (block != nullptr) {
    const RowSet& set = row_sets()[block->set];
    const double limit = upper ? set.upper[row] : -set.lower[row];
    const terms::TermSum::Item* item = set.sum.item_at(terms::RowKind::kInequality, row);
    if (item != nullptr && dynamic_cast<const terms::SelfCollision*>(item->term.get()) != nullptr) {
      // The lower-bound row 1 - d / d_s: value * d_s is how far inside the safety distance.
      return item->term->describe(row - item->offset) +
             format(" at t=%.3f s is below the safety distance %.4g m by %.3g m", times()[block->sample],
                    limit, value * limit);
    }
    if (item != nullptr) {
      return item->term->describe(row - item->offset) +
             format(" at t=%.3f s exceeds its limit %.4g N m by %.3g N m", times()[block->sample], limit,
                    value * limit);
    }
  }
  return optim::Problem::describe_constraint(kind, index, value);
}

}  // namespace mimic::motion
