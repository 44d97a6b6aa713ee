#include "mimic/motion/motion_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/optim/sparse.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::motion {

namespace {

using trajectory::EndSpec;

// True when body `a` is `b` or one of its ancestors.
bool supports(const model::Model& model, int a, int b) {
  for (int body = b; body >= 0; body = model.parents[body]) {
    if (body == a) return true;
  }
  return false;
}

std::vector<double> sample_times(int n, double rate) {
  std::vector<double> times(n);
  for (int i = 0; i < n; ++i) times[i] = i / rate;
  // The last sample is tf exactly, so that no rounding puts it outside the basis' interval.
  times.back() = (n - 1) / rate;
  return times;
}

std::vector<double> subset(const std::vector<double>& times, const std::vector<int>& samples) {
  std::vector<double> out;
  out.reserve(samples.size());
  for (const int s : samples) {
    if (s < 0 || s >= static_cast<int>(times.size())) {
      throw std::invalid_argument("MotionProblem: torque sample " + std::to_string(s) + " out of range");
    }
    out.push_back(times[s]);
  }
  return out;
}

trajectory::SplineParameterization make_parameterization(const MotionInput& input,
                                                         const std::vector<int>& active,
                                                         double knot_spacing) {
  const int m = static_cast<int>(active.size());
  Eigen::VectorXd start(m), end(m);
  for (int p = 0; p < m; ++p) {
    start[p] = input.joints(0, active[p]);
    end[p] = input.joints(input.sample_count() - 1, active[p]);
  }
  return {trajectory::QuarticBspline(0.0, input.duration(), knot_spacing), m, EndSpec::fixed_at_rest(start),
          EndSpec::fixed_at_rest(end)};
}

std::string format(const char* pattern, double a, double b, double c) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

}  // namespace

MotionProblem::MotionProblem(const model::Model& model, const MotionInput& input, ProblemOptions options)
    : model_(model),
      options_(std::move(options)),
      limits_(scaled_limits(model, options_.limits)),
      active_(active_joint_indices(model)),
      m_(static_cast<int>(active_.size())),
      n_(input.sample_count()),
      dt_(1.0 / input.rate),
      times_(sample_times(input.sample_count(), input.rate)),
      base_(base_motion_from_waist(input.waist, input.rate)),
      parameterization_(make_parameterization(input, active_, options_.knot_spacing)),
      basis_(parameterization_, times_),
      torque_basis_(parameterization_, subset(times_, options_.torque_samples)),
      data_(model),
      derivatives_(model) {
  reference_joints_.resize(m_, n_);
  for (int p = 0; p < m_; ++p) reference_joints_.row(p) = input.joints.col(active_[p]).transpose();
  reference_points_ = input.end_effectors.transpose();

  // Passive joints: held at `rest`, or following the reference with finite-difference rates.
  const int nj = model.nj;
  passive_q_ = input.joints.transpose();
  passive_v_.setZero(nj, n_);
  passive_a_.setZero(nj, n_);
  if (input.rest.size() == nj) {
    passive_q_ = input.rest.replicate(1, n_);
  } else {
    for (int i = 0; i < n_; ++i) {
      const int i0 = std::max(i - 1, 0), i1 = std::min(i + 1, n_ - 1);
      passive_v_.col(i) = (passive_q_.col(i1) - passive_q_.col(i0)) * input.rate / (i1 - i0);
    }
    for (int i = 0; i < n_; ++i) {
      const int i0 = std::max(i - 1, 0), i1 = std::min(i + 1, n_ - 1);
      passive_a_.col(i) = (passive_v_.col(i1) - passive_v_.col(i0)) * input.rate / (i1 - i0);
    }
  }

  // Which active joints move each end-effector frame, and which ones each active torque depends on:
  // tau_j = S_j^T (force of the subtree of j), which involves the subtree's joints (its motion) and the
  // supporting joints (the subtree's placement, velocity and acceleration in the base frame).
  for (const char* name : {"gaze", "r_gripper", "l_gripper"}) {
    const int frame = model.frame_index(name);
    frames_.push_back(frame);
    std::vector<int> chain;
    for (int p = 0; p < m_; ++p) {
      if (supports(model, model::Model::body_of_joint(active_[p]), model.frames[frame].body))
        chain.push_back(p);
    }
    frame_chain_.push_back(chain);
  }
  for (int p = 0; p < m_; ++p) {
    const int body = model::Model::body_of_joint(active_[p]);
    std::vector<int> chain;
    for (int k = 0; k < m_; ++k) {
      const int other = model::Model::body_of_joint(active_[k]);
      if (supports(model, body, other) || supports(model, other, body)) chain.push_back(k);
    }
    torque_chain_.push_back(chain);
  }

  // Velocity rows on the derivative's control polygon (see the header).
  {
    std::vector<int> coordinates(static_cast<std::size_t>(m_));
    std::vector<double> limits(static_cast<std::size_t>(m_));
    for (int p = 0; p < m_; ++p) {
      coordinates[static_cast<std::size_t>(p)] = p;
      limits[static_cast<std::size_t>(p)] = limits_.velocity[active_[p]];
    }
    velocity_ = terms::VelocityRows(parameterization_, coordinates, limits);
  }
  velocity_rows_ = velocity_.num_rows();
  torque_rows_ = 2 * m_ * static_cast<int>(options_.torque_samples.size());
  residual_rows_ = n_ * (options_.objective == Objective::kImitation ? m_ + 9 : m_);

  q_.resize(model.nq);
  v_.resize(model.nv);
  a_.resize(model.nv);
  frame_jacobian_.resize(6, model.nv);
  dq_.resize(m_);
  dv_.resize(m_);
  da_.resize(m_);
  samples_.q.resize(m_, n_);
  samples_.qdot.resize(m_, n_);
  samples_.qddot.resize(m_, n_);
}

void MotionProblem::variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const {
  // Sized here: the solvers pass empty vectors (problem.hpp says "sized n on entry", optim's callers do not).
  lower.resize(num_variables());
  upper.resize(num_variables());
  for (int s = 0; s < parameterization_.num_slots(); ++s) {
    for (int p = 0; p < m_; ++p) {
      lower[parameterization_.variable_index(s, p)] = limits_.lower[active_[p]];
      upper[parameterization_.variable_index(s, p)] = limits_.upper[active_[p]];
    }
  }
}

optim::SparseMatrix MotionProblem::residual_jacobian_pattern() const {
  optim::PatternBuilder builder(residual_rows_, num_variables());
  std::vector<int> columns;
  int row = 0;
  for (int n = 0; n < n_; ++n) {
    for (int p = 0; p < m_; ++p) {
      const std::vector<int>& joints =
          options_.objective == Objective::kImitation ? std::vector<int>{p} : torque_chain_[p];
      columns.clear();
      basis_.append_columns(n, joints, columns);
      builder.add_columns(row++, columns);
    }
    if (options_.objective != Objective::kImitation) continue;
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      columns.clear();
      basis_.append_columns(n, frame_chain_[f], columns);
      for (int c = 0; c < 3; ++c) builder.add_columns(row++, columns);
    }
  }
  return builder.build();
}

optim::SparseMatrix MotionProblem::inequality_jacobian_pattern() const {
  optim::PatternBuilder builder(num_inequalities(), num_variables());
  velocity_.add_pattern(builder, 0);
  int row = velocity_rows_;
  std::vector<int> columns;
  for (int k = 0; k < torque_basis_.num_samples(); ++k) {
    for (int p = 0; p < m_; ++p) {
      columns.clear();
      torque_basis_.append_columns(k, torque_chain_[p], columns);
      builder.add_columns(row++, columns);
      builder.add_columns(row++, columns);
    }
  }
  return builder.build();
}

void MotionProblem::evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) {
  basis_.evaluate(x, samples_);
  if (options_.objective == Objective::kImitation) {
    evaluate_imitation(jacobians, out);
  } else {
    evaluate_torque_objective(jacobians, out);
  }
  evaluate_velocity(x, jacobians, out);
  if (torque_rows_ > 0) {
    torque_basis_.evaluate(x, torque_samples_);
    evaluate_torque_limits(jacobians, out);
  }
}

// q_ (and v_, a_ when with_base) at input sample n: the base at the identity (waist frame) or at the given
// base motion, the passive joints given, the active ones from samples_ column n.
void MotionProblem::set_configuration(int sample, bool with_base) {
  if (with_base) {
    q_.head<7>() = base_.q.col(sample);
    v_.head<6>() = base_.v.col(sample);
    a_.head<6>() = base_.a.col(sample);
  } else {
    model::set_base_pose(model_, q_, spatial::SE3::Identity());
    v_.head<6>().setZero();
    a_.head<6>().setZero();
  }
  q_.tail(model_.nj) = passive_q_.col(sample);
  v_.tail(model_.nj) = passive_v_.col(sample);
  a_.tail(model_.nj) = passive_a_.col(sample);
}

void MotionProblem::evaluate_imitation(bool jacobians, optim::Evaluation& out) {
  const double wq = std::sqrt(dt_);
  const double wp = std::sqrt(options_.sigma * dt_);
  int row = 0;
  for (int n = 0; n < n_; ++n) {
    for (int p = 0; p < m_; ++p, ++row) {
      out.residuals[row] = wq * (samples_.q(p, n) - reference_joints_(p, n));
      if (!jacobians) continue;
      double* values = optim::row_values(out.residual_jacobian, row).data();
      for (int k = 0; k < basis_.slot_count(n); ++k) values[k] = wq * basis_.coefficient(n, 0, k);
    }
    set_configuration(n, false);
    for (int p = 0; p < m_; ++p) q_[model_.idx_q(active_[p])] = samples_.q(p, n);
    dynamics::forward_kinematics(model_, data_, q_);
    for (std::size_t f = 0; f < frames_.size(); ++f) {
      // The base is the identity, so world coordinates are waist coordinates.
      const spatial::Vec3 position = dynamics::update_frame_placement(model_, data_, frames_[f]).p;
      if (jacobians) {
        dynamics::frame_jacobian(model_, data_, frames_[f], dynamics::ReferenceFrame::kLocalWorldAligned,
                                 frame_jacobian_);
      }
      const std::vector<int>& chain = frame_chain_[f];
      const auto count = static_cast<Eigen::Index>(chain.size());
      for (int c = 0; c < 3; ++c, ++row) {
        out.residuals[row] = wp * (position[c] - reference_points_(3 * static_cast<int>(f) + c, n));
        if (!jacobians) continue;
        // Linear rows of the LOCAL_WORLD_ALIGNED Jacobian: d(frame origin)/d(joint) in waist axes.
        for (Eigen::Index i = 0; i < count; ++i)
          dq_[i] = wp * frame_jacobian_(c, model_.idx_v(active_[chain[i]]));
        dv_.head(count).setZero();
        da_.head(count).setZero();
        basis_.chain_rule(n, chain, dq_.head(count), dv_.head(count), da_.head(count),
                          optim::row_values(out.residual_jacobian, row).data());
      }
    }
  }
}

void MotionProblem::rnea_derivatives_at(int sample, const trajectory::JointSamples& active, int column) {
  set_configuration(sample, true);
  for (int p = 0; p < m_; ++p) {
    q_[model_.idx_q(active_[p])] = active.q(p, column);
    v_[model_.idx_v(active_[p])] = active.qdot(p, column);
    a_[model_.idx_v(active_[p])] = active.qddot(p, column);
  }
  dynamics::compute_rnea_derivatives(model_, derivatives_, q_, v_, a_);
}

void MotionProblem::evaluate_torque_objective(bool jacobians, optim::Evaluation& out) {
  const double w = std::sqrt(dt_);
  int row = 0;
  for (int n = 0; n < n_; ++n) {
    rnea_derivatives_at(n, samples_, n);
    for (int p = 0; p < m_; ++p, ++row) {
      const int r = model_.idx_v(active_[p]);
      out.residuals[row] = w * derivatives_.tau[r];
      if (!jacobians) continue;
      const std::vector<int>& chain = torque_chain_[p];
      const auto count = static_cast<Eigen::Index>(chain.size());
      for (Eigen::Index i = 0; i < count; ++i) {
        const int c = model_.idx_v(active_[chain[i]]);
        dq_[i] = w * derivatives_.dtau_dq(r, c);
        dv_[i] = w * derivatives_.dtau_dv(r, c);
        da_[i] = w * derivatives_.dtau_da(r, c);
      }
      basis_.chain_rule(n, chain, dq_.head(count), dv_.head(count), da_.head(count),
                        optim::row_values(out.residual_jacobian, row).data());
    }
  }
}

void MotionProblem::evaluate_velocity(const Eigen::VectorXd& x, bool jacobians,
                                      optim::Evaluation& out) const {
  velocity_.evaluate(x, out.inequalities, jacobians ? &out.inequality_jacobian : nullptr, 0);
}

void MotionProblem::evaluate_torque_limits(bool jacobians, optim::Evaluation& out) {
  int row = velocity_rows_;
  for (int k = 0; k < torque_basis_.num_samples(); ++k) {
    rnea_derivatives_at(options_.torque_samples[k], torque_samples_, k);
    for (int p = 0; p < m_; ++p, row += 2) {
      const int r = model_.idx_v(active_[p]);
      const double inverse_limit = 1.0 / limits_.torque[active_[p]];
      const double scaled = derivatives_.tau[r] * inverse_limit;
      out.inequalities[row] = scaled - 1.0;
      out.inequalities[row + 1] = -scaled - 1.0;
      if (!jacobians) continue;
      const std::vector<int>& chain = torque_chain_[p];
      const auto count = static_cast<Eigen::Index>(chain.size());
      for (Eigen::Index i = 0; i < count; ++i) {
        const int c = model_.idx_v(active_[chain[i]]);
        dq_[i] = inverse_limit * derivatives_.dtau_dq(r, c);
        dv_[i] = inverse_limit * derivatives_.dtau_dv(r, c);
        da_[i] = inverse_limit * derivatives_.dtau_da(r, c);
      }
      double* upper = optim::row_values(out.inequality_jacobian, row).data();
      torque_basis_.chain_rule(k, chain, dq_.head(count), dv_.head(count), da_.head(count), upper);
      const std::span<double> lower = optim::row_values(out.inequality_jacobian, row + 1);
      for (std::size_t i = 0; i < lower.size(); ++i) lower[i] = -upper[i];
    }
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
  if (kind == ConstraintKind::kInequality && index < velocity_rows_) {
    const int joint = active_[velocity_.limited_joint(index)];
    const double limit = limits_.velocity[joint];
    return model_.joint_names[joint] +
           format(" velocity (control polygon near t=%.3f s) exceeds its limit %.4g rad/s by %.3g rad/s",
                  velocity_.time(index), limit, value * limit);
  }
  if (kind == ConstraintKind::kInequality && index < velocity_rows_ + torque_rows_) {
    const int k = (index - velocity_rows_) / 2;
    const int sample = options_.torque_samples[k / m_];
    const int joint = active_[k % m_];
    const double limit = limits_.torque[joint];
    return model_.joint_names[joint] + format(" torque at t=%.3f s exceeds its limit %.4g N m by %.3g N m",
                                              times_[sample], limit, value * limit);
  }
  return optim::Problem::describe_constraint(kind, index, value);
}

}  // namespace mimic::motion
