#include "mimic/smoothing/smoothing_problem.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/optim/sparse.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::smoothing {

namespace {

using spatial::Force;
using spatial::Mat3;
using spatial::SE3;
using spatial::Vec3;
using trajectory::EndSpec;

constexpr int kRight = 0, kLeft = 1;

std::string format(const char* pattern, double a, double b, double c = 0.0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

Mat3 base_rotation(const Eigen::Ref<const Eigen::VectorXd>& q) {
  return Eigen::Quaterniond(q[6], q[3], q[4], q[5]).normalized().toRotationMatrix();
}

double uniform_period(const std::vector<double>& times) {
  if (times.size() < 3) throw InputError("smoothing: the planned motion has fewer than 3 samples");
  const double dt = times[1] - times[0];
  for (std::size_t k = 1; k < times.size(); ++k) {
    if (std::abs(times[k] - times[k - 1] - dt) > 1e-6) {
      throw InputError("smoothing: the planned motion's samples are not evenly spaced (t = " +
                       std::to_string(times[k - 1]) + " s to " + std::to_string(times[k]) + " s; expected " +
                       std::to_string(dt) + " s)");
    }
  }
  return dt;
}

trajectory::SplineParameterization make_parameterization(const stability::SampledMotion& planned,
                                                         const Legs& legs, const model::Model& model,
                                                         double knot_spacing) {
  const Eigen::Index last = planned.size() - 1;
  Eigen::VectorXd start = Eigen::VectorXd::Zero(kCoordinates), end = Eigen::VectorXd::Zero(kCoordinates);
  for (int i = 0; i < kLegJoints; ++i) {
    start[kBaseCoordinates + i] = planned.q(model.idx_q(legs.joints[i]), 0);
    end[kBaseCoordinates + i] = planned.q(model.idx_q(legs.joints[i]), last);
  }
  const double t0 = planned.times.front(), tf = planned.times.back();
  if (tf - t0 < 2.0 * knot_spacing - 1e-12) {
    throw InputError("smoothing: the planned motion lasts " + std::to_string(tf - t0) +
                     " s, less than two knot intervals of " + std::to_string(knot_spacing) + " s");
  }
  return {trajectory::QuarticBspline(t0, tf, knot_spacing), kCoordinates, EndSpec::fixed_at_rest(start),
          EndSpec::fixed_at_rest(end)};
}

std::vector<int> checked(std::vector<int> samples, int n, const char* what) {
  std::sort(samples.begin(), samples.end());
  samples.erase(std::unique(samples.begin(), samples.end()), samples.end());
  for (const int s : samples) {
    if (s < 0 || s >= n)
      throw std::invalid_argument(std::string("SmoothingProblem: ") + what + " sample " + std::to_string(s) +
                                  " out of range");
  }
  return samples;
}

}  // namespace

Legs Legs::of(const model::Model& model, const stability::Feet& feet) {
  Legs legs;
  int k = 0;
  for (const int body : {feet.right_foot_body, feet.left_foot_body}) {
    std::vector<int> chain;
    for (int b = body; b > 0; b = model.parents[b]) chain.push_back(model::Model::joint_of_body(b));
    if (chain.size() != 6 || model.parents[model::Model::body_of_joint(chain.back())] != 0) {
      throw ModelError(model.source_path +
                       ": smoothing expects 6 joints from the waist to each sole, found " +
                       std::to_string(chain.size()));
    }
    std::reverse(chain.begin(), chain.end());
    for (const int j : chain) legs.joints[static_cast<std::size_t>(k++)] = j;
  }
  return legs;
}

SmoothingProblem::SmoothingProblem(const model::Model& model, const stability::Feet& feet,
                                   const stability::SampledMotion& planned, ProblemOptions options)
    : model_(model),
      feet_(feet),
      planned_(planned),
      options_(std::move(options)),
      limits_(motion::scaled_limits(model, options_.limits)),
      legs_(Legs::of(model, feet)),
      n_(static_cast<int>(planned.size())),
      dt_(uniform_period(planned.times)),
      parameterization_(make_parameterization(planned, legs_, model, options_.knot_spacing)),
      basis_(parameterization_, planned.times),
      data_(model),
      derivatives_(model) {
  if (!model.has_free_flyer()) throw ModelError(model.source_path + ": smoothing needs a free-flyer model");
  if (static_cast<int>(planned.phases.size()) != n_ || planned.q.cols() != n_ || planned.v.cols() != n_ ||
      planned.a.cols() != n_)
    throw std::invalid_argument("SmoothingProblem: planned motion sizes disagree");
  options_.torque_samples = checked(options_.torque_samples, n_, "torque");
  options_.equality_samples = checked(options_.equality_samples, n_, "equality");

  sole_frames_ = {feet.right_sole_frame, feet.left_sole_frame};
  foot_bodies_ = {feet.right_foot_body, feet.left_foot_body};
  const std::array<model::SoleRectangle, 2> outlines = {feet.right_outline, feet.left_outline};
  rotations_.resize(static_cast<std::size_t>(n_));
  for (int f = 0; f < 2; ++f) {
    sole_reference_[f].resize(static_cast<std::size_t>(n_));
    sole_centre_[f].resize(static_cast<std::size_t>(n_));
  }
  for (int n = 0; n < n_; ++n) {
    rotations_[n] = base_rotation(planned.q.col(n));
    dynamics::forward_kinematics(model, data_, planned.q.col(n));
    for (int f = 0; f < 2; ++f) {
      const SE3 pose = dynamics::update_frame_placement(model, data_, sole_frames_[f]);
      sole_reference_[f][n] = pose;
      const auto& o = outlines[f];
      sole_centre_[f][n] = pose.act(Vec3(0.5 * (o.x_min + o.x_max), 0.5 * (o.y_min + o.y_max), 0.0));
    }
  }

  // The plan's leg angles that the spline cannot represent (header comment): r = q_planned - fit, with the
  // planned rates and accelerations minus the fit's analytic ones.
  {
    Eigen::MatrixXd reference = Eigen::MatrixXd::Zero(kCoordinates, n_);
    for (int i = 0; i < kLegJoints; ++i)
      reference.row(kBaseCoordinates + i) = planned.q.row(model.idx_q(legs_.joints[i]));
    fit_ = trajectory::fit_spline(parameterization_, planned.times, reference);
    trajectory::JointSamples fitted;
    basis_.evaluate(fit_, fitted);
    leg_offset_q_.resize(kLegJoints, n_);
    leg_offset_v_.resize(kLegJoints, n_);
    leg_offset_a_.resize(kLegJoints, n_);
    for (int i = 0; i < kLegJoints; ++i) {
      const int j = legs_.joints[i];
      leg_offset_q_.row(i) = planned.q.row(model.idx_q(j)) - fitted.q.row(kBaseCoordinates + i);
      leg_offset_v_.row(i) = planned.v.row(model.idx_v(j)) - fitted.qdot.row(kBaseCoordinates + i);
      leg_offset_a_.row(i) = planned.a.row(model.idx_v(j)) - fitted.qddot.row(kBaseCoordinates + i);
    }
  }

  leg_of_dof_.assign(static_cast<std::size_t>(model.nv), -1);
  for (int i = 0; i < kLegJoints; ++i) leg_of_dof_[model.idx_v(legs_.joints[i])] = i < 6 ? kRight : kLeft;
  for (int c = 0; c < kCoordinates; ++c) all_coordinates_.push_back(c);
  for (int c = 0; c < kBaseCoordinates; ++c) base_coordinates_.push_back(c);
  for (int f = 0; f < 2; ++f) {
    foot_coordinates_[f] = base_coordinates_;
    for (int i = 0; i < 6; ++i) foot_coordinates_[f].push_back(kBaseCoordinates + 6 * f + i);
  }

  // Row layout, sample by sample (rows of one sample share their columns: one dense Gram block each).
  residual_row_.assign(static_cast<std::size_t>(n_), 0);
  equality_row_.assign(static_cast<std::size_t>(n_), -1);
  torque_row_.assign(static_cast<std::size_t>(n_), -1);
  for (int n = 0; n < n_; ++n) {
    residual_row_[n] = residual_rows_;
    residual_rows_ += model.nj + 6 * (in_contact(n, kRight) + in_contact(n, kLeft));
  }
  for (const int n : options_.equality_samples) {
    if (basis_.slot_count(n) == 0) continue;  // fully pinned: the planned pose, exactly
    const int rows = 6 * (in_contact(n, kRight) + in_contact(n, kLeft));
    if (rows == 0) continue;
    equality_row_[n] = equality_rows_;
    equality_rows_ += rows;
  }

  // Velocity rows on the derivative's control polygon (motion/velocity_rows.hpp), leg joints only.
  {
    std::vector<int> coordinates(kLegJoints);
    std::vector<double> limits(kLegJoints);
    for (int p = 0; p < kLegJoints; ++p) {
      coordinates[static_cast<std::size_t>(p)] = kBaseCoordinates + p;
      // The spline's rate plus the offset's: the spline gets what the offset leaves of the limit.
      limits[static_cast<std::size_t>(p)] =
          limits_.velocity[legs_.joints[p]] - leg_offset_v_.row(p).cwiseAbs().maxCoeff();
    }
    velocity_ = motion::VelocityRows(parameterization_, coordinates, limits);
  }
  velocity_rows_ = velocity_.num_rows();
  int torque_rows = velocity_rows_;
  for (const int n : options_.torque_samples) {
    torque_row_[n] = torque_rows;
    torque_rows += 2 * model.nj;
  }
  torque_rows_ = torque_rows - velocity_rows_;

  const int nv = model.nv;
  q_.resize(model.nq);
  v_.resize(nv);
  a_.resize(nv);
  fext_.assign(static_cast<std::size_t>(model.nbodies), Force::Zero());
  dW_dq_.resize(6, nv);
  dW_dv_.resize(6, nv);
  dW_da_.resize(6, nv);
  dcom_dq_.resize(3, nv);
  dp_dq_.resize(3, nv);
  de_dq_.resize(3, nv);
  for (auto* m : {&dWr_dq_, &dWr_dv_, &dWr_da_, &dWl_dq_, &dWl_dv_, &dWl_da_}) m->resize(6, nv);
  Gq_.resize(model.nj, nv);
  Gv_.resize(model.nj, nv);
  Ga_.resize(model.nj, nv);
  ds_dq_.resize(nv);
  zero_row_ = Eigen::RowVectorXd::Zero(nv);
  for (auto* p : {&pq_, &pv_, &pa_, &pqs_, &pvs_, &pas_}) p->resize(kCoordinates);
  samples_.q.resize(kCoordinates, n_);
  samples_.qdot.resize(kCoordinates, n_);
  samples_.qddot.resize(kCoordinates, n_);
}

bool SmoothingProblem::in_contact(int n, int foot) const {
  const stability::ContactPhase phase = planned_.phases[static_cast<std::size_t>(n)];
  return foot == kRight ? stability::right_foot_in_contact(phase) : stability::left_foot_in_contact(phase);
}

void SmoothingProblem::variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const {
  lower.setConstant(num_variables(), -std::numeric_limits<double>::infinity());
  upper.setConstant(num_variables(), std::numeric_limits<double>::infinity());
  // Angle = spline + offset: the spline's control points are bounded by the limits minus the offset's
  // extremes, so the convex hull keeps the angle inside at every t.
  for (int s = 0; s < parameterization_.num_slots(); ++s) {
    for (int p = 0; p < kLegJoints; ++p) {
      const double low = leg_offset_q_.row(p).minCoeff(), high = leg_offset_q_.row(p).maxCoeff();
      double& l = lower[parameterization_.variable_index(s, kBaseCoordinates + p)];
      double& u = upper[parameterization_.variable_index(s, kBaseCoordinates + p)];
      l = limits_.lower[legs_.joints[p]] - low;
      u = limits_.upper[legs_.joints[p]] - high;
      if (p == 3 || p == 9)  // RLEG_JOINT3, LLEG_JOINT3: hip yaw, roll, pitch, knee, ...
        l = std::max(l, std::min(options_.min_knee_flexion - low, u));
    }
  }
}

const std::vector<int>& SmoothingProblem::torque_coordinates(int joint) const {
  return leg_of_dof_[model_.idx_v(joint)] >= 0 ? all_coordinates_ : base_coordinates_;
}

optim::SparseMatrix SmoothingProblem::residual_jacobian_pattern() const {
  optim::PatternBuilder builder(residual_rows_, num_variables());
  std::vector<int> columns;
  const auto add = [&](int n, int row, const std::vector<int>& coordinates) {
    columns.clear();
    basis_.append_columns(n, coordinates, columns);
    builder.add_columns(row, columns);
  };
  for (int n = 0; n < n_; ++n) {
    int row = residual_row_[n];
    for (int j = 0; j < model_.nj; ++j) add(n, row++, torque_coordinates(j));
    for (int f = 0; f < 2; ++f) {
      if (!in_contact(n, f)) continue;
      for (int c = 0; c < 6; ++c) add(n, row++, foot_coordinates_[f]);
    }
  }
  return builder.build();
}

optim::SparseMatrix SmoothingProblem::equality_jacobian_pattern() const {
  optim::PatternBuilder builder(equality_rows_, num_variables());
  std::vector<int> columns;
  for (int n = 0; n < n_; ++n) {
    if (equality_row_[n] < 0) continue;
    int row = equality_row_[n];
    for (int f = 0; f < 2; ++f) {
      if (!in_contact(n, f)) continue;
      columns.clear();
      basis_.append_columns(n, foot_coordinates_[f], columns);
      for (int c = 0; c < 6; ++c) builder.add_columns(row++, columns);
    }
  }
  return builder.build();
}

optim::SparseMatrix SmoothingProblem::inequality_jacobian_pattern() const {
  optim::PatternBuilder builder(num_inequalities(), num_variables());
  velocity_.add_pattern(builder, 0);
  std::vector<int> columns;
  for (const int n : options_.torque_samples) {
    for (int j = 0; j < model_.nj; ++j) {
      columns.clear();
      basis_.append_columns(n, torque_coordinates(j), columns);
      builder.add_columns(torque_row_[n] + 2 * j, columns);
      builder.add_columns(torque_row_[n] + 2 * j + 1, columns);
    }
  }
  return builder.build();
}

void SmoothingProblem::set_state(int n) {
  const Mat3& R = rotations_[n];
  const Vec3 d(samples_.q(0, n), samples_.q(1, n), 0.0);
  const Vec3 rate(samples_.qdot(0, n), samples_.qdot(1, n), 0.0);
  const Vec3 acceleration(samples_.qddot(0, n), samples_.qddot(1, n), 0.0);
  const Vec3 local_rate = R.transpose() * rate;  // R^T d'
  const Vec3 omega = planned_.v.col(n).segment<3>(3);
  q_ = planned_.q.col(n);
  v_ = planned_.v.col(n);
  a_ = planned_.a.col(n);
  q_.head<3>() += d;
  v_.head<3>() += local_rate;
  a_.head<3>() += R.transpose() * acceleration - omega.cross(local_rate);
  for (int i = 0; i < kLegJoints; ++i) {
    const int j = legs_.joints[i];
    q_[model_.idx_q(j)] = samples_.q(kBaseCoordinates + i, n) + leg_offset_q_(i, n);
    v_[model_.idx_v(j)] = samples_.qdot(kBaseCoordinates + i, n) + leg_offset_v_(i, n);
    a_[model_.idx_v(j)] = samples_.qddot(kBaseCoordinates + i, n) + leg_offset_a_(i, n);
  }
}

// Seed 001 III-C with the lever rule (ground_reaction.hpp), sole centres at their planned places c_R, c_L:
// single support puts W on the support foot; double support gives the right foot
//   W_R = s W + s (1 - s) [0; (c_R - c_L) x f],  s = d_L / (d_L + d_R)
// (the force share s f at c_R plus the share s of the couple left by the two forces; W_L = W - W_R).
void SmoothingProblem::foot_wrenches(int n, const Force& W, const Vec3& com, Force& right,
                                     Force& left) const {
  const stability::ContactPhase phase = planned_.phases[static_cast<std::size_t>(n)];
  const Vec3& cr = sole_centre_[kRight][n];
  const Vec3& cl = sole_centre_[kLeft][n];
  const double s = stability::right_foot_share(phase, com, cr, cl);
  right.f = s * W.f;
  right.tau = s * W.tau + s * (1.0 - s) * (cr - cl).cross(W.f);
  left.f = W.f - right.f;
  left.tau = W.tau - right.tau;
}

void SmoothingProblem::chain_rows(int n, const std::vector<int>& coordinates, const RowRef& gq,
                                  const RowRef& gv, const RowRef& ga, double* values) {
  const Mat3& R = rotations_[n];
  const Vec3 omega = planned_.v.col(n).segment<3>(3);
  const Vec3 g_q = gq.head<3>().transpose(), g_v = gv.head<3>().transpose(), g_a = ga.head<3>().transpose();
  // d = (d_x, d_y, 0) in the world: the first two components of R g (header comment).
  pq_.head<kBaseCoordinates>() = (R * g_q).head<kBaseCoordinates>();
  pv_.head<kBaseCoordinates>() = (R * (g_v + omega.cross(g_a))).head<kBaseCoordinates>();
  pa_.head<kBaseCoordinates>() = (R * g_a).head<kBaseCoordinates>();
  for (int i = 0; i < kLegJoints; ++i) {
    const int dof = model_.idx_v(legs_.joints[i]);
    pq_[kBaseCoordinates + i] = gq[dof];
    pv_[kBaseCoordinates + i] = gv[dof];
    pa_[kBaseCoordinates + i] = ga[dof];
  }
  const auto count = static_cast<Eigen::Index>(coordinates.size());
  for (Eigen::Index i = 0; i < count; ++i) {
    pqs_[i] = pq_[coordinates[i]];
    pvs_[i] = pv_[coordinates[i]];
    pas_[i] = pa_[coordinates[i]];
  }
  basis_.chain_rule(n, coordinates, pqs_.head(count), pvs_.head(count), pas_.head(count), values);
}

void SmoothingProblem::write_foot_rows(int n, int foot, bool jacobians, double position_weight,
                                       double rotation_weight, Eigen::VectorXd& values,
                                       optim::SparseMatrix& jacobian, int row) {
  const SE3& reference = sole_reference_[foot][n];
  if (!jacobians) {
    const SE3& pose = dynamics::update_frame_placement(model_, data_, sole_frames_[foot]);
    values.segment<3>(row) = position_weight * (pose.p - reference.p);
    values.segment<3>(row + 3) = rotation_weight * spatial::log3(reference.R.transpose() * pose.R);
    return;
  }
  const Vec3 p = dynamics::frame_position_derivative(model_, derivatives_, sole_frames_[foot], dp_dq_);
  const Vec3 e = dynamics::frame_orientation_error_derivative(model_, derivatives_, sole_frames_[foot],
                                                              reference.R, de_dq_);
  values.segment<3>(row) = position_weight * (p - reference.p);
  values.segment<3>(row + 3) = rotation_weight * e;
  dp_dq_ *= position_weight;
  de_dq_ *= rotation_weight;
  for (int c = 0; c < 3; ++c) {
    chain_rows(n, foot_coordinates_[foot], dp_dq_.row(c), zero_row_, zero_row_,
               optim::row_values(jacobian, row + c).data());
    chain_rows(n, foot_coordinates_[foot], de_dq_.row(c), zero_row_, zero_row_,
               optim::row_values(jacobian, row + 3 + c).data());
  }
}

void SmoothingProblem::evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) {
  basis_.evaluate(x, samples_);
  for (int n = 0; n < n_; ++n) evaluate_sample(n, jacobians, out);
  velocity_.evaluate(x, out.inequalities, jacobians ? &out.inequality_jacobian : nullptr, 0);
}

void SmoothingProblem::write_support_rows(int n, bool jacobians, double w, optim::Evaluation& out) {
  int row = residual_row_[n] + model_.nj;
  for (int f = 0; f < 2; ++f) {
    if (!in_contact(n, f)) continue;
    write_foot_rows(n, f, jacobians, w * options_.foot_position_weight, w * options_.foot_rotation_weight,
                    out.residuals, out.residual_jacobian, row);
    if (equality_row_[n] >= 0) {
      const int e = equality_row_[n] + (f == kLeft && in_contact(n, kRight) ? 6 : 0);
      write_foot_rows(n, f, jacobians, 1.0 / kPositionScale, 1.0 / kAngleScale, out.equalities,
                      out.equality_jacobian, e);
    }
    row += 6;
  }
}

void SmoothingProblem::evaluate_sample(int n, bool jacobians, optim::Evaluation& out) {
  set_state(n);
  const int nj = model_.nj;
  const double w = std::sqrt(dt_);
  const stability::ContactPhase phase = planned_.phases[static_cast<std::size_t>(n)];
  const auto right_body = static_cast<std::size_t>(foot_bodies_[kRight]);
  const auto left_body = static_cast<std::size_t>(foot_bodies_[kLeft]);
  Force Wr, Wl;
  const Eigen::VectorXd* tau = nullptr;

  if (!jacobians) {
    const Force W = dynamics::contact_wrench(model_, data_, q_, v_, a_);  // forward kinematics too
    foot_wrenches(n, W, data_.com, Wr, Wl);
    for (auto& f : fext_) f.setZero();
    fext_[right_body] = data_.oMi[right_body].act_inv(Wr);
    fext_[left_body] = data_.oMi[left_body].act_inv(Wl);
    // Foot placements before rnea (which leaves the other oMi as forward_kinematics set them anyway).
    write_support_rows(n, false, w, out);
    tau = &dynamics::rnea(model_, data_, q_, v_, a_, fext_);
  } else {
    // Share of the right foot and its derivative (double support: through the CoM only).
    double s = phase == stability::ContactPhase::kRightSupport ? 1.0 : 0.0;
    ds_dq_.setZero();
    Vec3 com = Vec3::Zero();
    if (phase == stability::ContactPhase::kDoubleSupport) {
      com = dynamics::com_derivatives(model_, derivatives_, q_, dcom_dq_);
      const Vec3& cr = sole_centre_[kRight][n];
      const Vec3& cl = sole_centre_[kLeft][n];
      const Eigen::Vector2d u = com.head<2>() - cr.head<2>(), v = com.head<2>() - cl.head<2>();
      const double dr = u.norm(), dl = v.norm(), sum = dr + dl;
      s = stability::right_foot_share(phase, com, cr, cl);
      if (sum > 1e-12 && dr > 1e-12 && dl > 1e-12) {
        const Eigen::Vector2d ds_dcom = (dr * v / dl - dl * u / dr) / (sum * sum);
        ds_dq_ = ds_dcom.transpose() * dcom_dq_.topRows<2>();
      }
    }
    const Force W =
        dynamics::contact_wrench_derivatives(model_, derivatives_, q_, v_, a_, dW_dq_, dW_dv_, dW_da_);
    foot_wrenches(n, W, com, Wr, Wl);
    // dW_R = s dW + (W + (1 - 2 s) [0; dc x f]) ds + s (1 - s) [0; dc x df],  dW_L = dW - dW_R.
    const Vec3 dc = sole_centre_[kRight][n] - sole_centre_[kLeft][n];
    const double k = s * (1.0 - s);
    Eigen::Matrix<double, 6, 1> ds_column;
    ds_column << W.f, W.tau + (1.0 - 2.0 * s) * dc.cross(W.f);
    const std::array<dynamics::Matrix6x*, 3> dW = {&dW_dq_, &dW_dv_, &dW_da_};
    const std::array<Eigen::Matrix<double, 6, Eigen::Dynamic>*, 3> dWr = {&dWr_dq_, &dWr_dv_, &dWr_da_};
    const std::array<Eigen::Matrix<double, 6, Eigen::Dynamic>*, 3> dWl = {&dWl_dq_, &dWl_dv_, &dWl_da_};
    for (int o = 0; o < 3; ++o) {
      *dWr[o] = s * *dW[o];
      if (k != 0.0) {
        for (int c = 0; c < model_.nv; ++c)
          dWr[o]->col(c).tail<3>() += k * dc.cross(Vec3(dW[o]->col(c).head<3>()));
      }
      if (o == 0) dWr[o]->noalias() += ds_column * ds_dq_;
      *dWl[o] = *dW[o] - *dWr[o];
    }
    for (auto& f : fext_) f.setZero();
    fext_[right_body] = derivatives_.oMi[right_body].act_inv(Wr);
    fext_[left_body] = derivatives_.oMi[left_body].act_inv(Wl);
    dynamics::compute_rnea_derivatives(model_, derivatives_, q_, v_, a_, fext_,
                                       dynamics::ExternalForceDependence::kWorldFixed);
    tau = &derivatives_.tau;
    // Held fixed in the world by kWorldFixed; their own dependence on x enters through -S_r . dW_foot.
    Gq_ = derivatives_.dtau_dq.bottomRows(nj);
    Gv_ = derivatives_.dtau_dv.bottomRows(nj);
    Ga_ = derivatives_.dtau_da.bottomRows(nj);
    for (int dof = 6; dof < model_.nv; ++dof) {
      const int leg = leg_of_dof_[dof];
      if (leg < 0) continue;
      const Eigen::Matrix<double, 1, 6> S = derivatives_.J.row(dof);
      const int r = dof - 6;
      Gq_.row(r).noalias() -= S * (leg == kRight ? dWr_dq_ : dWl_dq_);
      Gv_.row(r).noalias() -= S * (leg == kRight ? dWr_dv_ : dWl_dv_);
      Ga_.row(r).noalias() -= S * (leg == kRight ? dWr_da_ : dWl_da_);
    }
    write_support_rows(n, true, w, out);
  }

  const int first = residual_row_[n];
  for (int j = 0; j < nj; ++j) {
    out.residuals[first + j] = w * (*tau)[6 + j];
    if (jacobians) {
      double* values = optim::row_values(out.residual_jacobian, first + j).data();
      chain_rows(n, torque_coordinates(j), Gq_.row(j), Gv_.row(j), Ga_.row(j), values);
      const auto count =
          static_cast<Eigen::Index>(optim::row_values(out.residual_jacobian, first + j).size());
      Eigen::Map<Eigen::VectorXd>(values, count) *= w;
    }
  }
  if (torque_row_[n] < 0) return;
  const int row = torque_row_[n];
  for (int j = 0; j < nj; ++j) {
    const double inverse_limit = 1.0 / limits_.torque[j];
    const double scaled = (*tau)[6 + j] * inverse_limit;
    out.inequalities[row + 2 * j] = scaled - 1.0;
    out.inequalities[row + 2 * j + 1] = -scaled - 1.0;
    if (!jacobians) continue;
    const std::span<double> upper = optim::row_values(out.inequality_jacobian, row + 2 * j);
    const std::span<double> lower = optim::row_values(out.inequality_jacobian, row + 2 * j + 1);
    chain_rows(n, torque_coordinates(j), Gq_.row(j), Gv_.row(j), Ga_.row(j), upper.data());
    for (std::size_t i = 0; i < upper.size(); ++i) {
      upper[i] *= inverse_limit;
      lower[i] = -upper[i];
    }
  }
}

Eigen::VectorXd SmoothingProblem::initial_guess() const {
  Eigen::VectorXd lower, upper;
  variable_bounds(lower, upper);
  return fit_.cwiseMax(lower).cwiseMin(upper);
}

Eigen::MatrixXd SmoothingProblem::configurations(const Eigen::VectorXd& x) const {
  trajectory::JointSamples samples;
  basis_.evaluate(x, samples);
  Eigen::MatrixXd q = planned_.q;
  for (int n = 0; n < n_; ++n) {
    q.col(n).head<kBaseCoordinates>() += samples.q.col(n).head<kBaseCoordinates>();
    for (int i = 0; i < kLegJoints; ++i)
      q(model_.idx_q(legs_.joints[i]), n) = samples.q(kBaseCoordinates + i, n) + leg_offset_q_(i, n);
  }
  return q;
}

Eigen::MatrixXd SmoothingProblem::torques(const Eigen::VectorXd& x) {
  basis_.evaluate(x, samples_);
  Eigen::MatrixXd tau(model_.nj, n_);
  Force Wr, Wl;
  for (int n = 0; n < n_; ++n) {
    set_state(n);
    const Force W = dynamics::contact_wrench(model_, data_, q_, v_, a_);
    foot_wrenches(n, W, data_.com, Wr, Wl);
    for (auto& f : fext_) f.setZero();
    const auto rb = static_cast<std::size_t>(foot_bodies_[kRight]);
    const auto lb = static_cast<std::size_t>(foot_bodies_[kLeft]);
    fext_[rb] = data_.oMi[rb].act_inv(Wr);
    fext_[lb] = data_.oMi[lb].act_inv(Wl);
    tau.col(n) = dynamics::rnea(model_, data_, q_, v_, a_, fext_).tail(model_.nj);
  }
  return tau;
}

std::string SmoothingProblem::describe_constraint(optim::ConstraintKind kind, int index, double value) const {
  using optim::ConstraintKind;
  if (kind == ConstraintKind::kLowerBound || kind == ConstraintKind::kUpperBound) {
    const int coordinate = index % kCoordinates;
    if (coordinate >= kBaseCoordinates) {
      const int joint = legs_.joints[coordinate - kBaseCoordinates];
      const bool lower = kind == ConstraintKind::kLowerBound;
      return model_.joint_names[joint] +
             format(lower ? " angle (a control point) is below its lower limit %.4g rad by %.3g rad"
                          : " angle (a control point) is above its upper limit %.4g rad by %.3g rad",
                    lower ? limits_.lower[joint] : limits_.upper[joint], value);
    }
  }
  if (kind == ConstraintKind::kEquality) {
    for (int n = 0; n < n_; ++n) {
      if (equality_row_[n] < 0 || index < equality_row_[n]) continue;
      const int rows = 6 * (in_contact(n, kRight) + in_contact(n, kLeft));
      if (index >= equality_row_[n] + rows) continue;
      const int local = index - equality_row_[n];
      const int foot = local >= 6 || !in_contact(n, kRight) ? kLeft : kRight;
      const bool position = local % 6 < 3;
      return std::string(foot == kRight ? "right" : "left") + " support foot " +
             (position ? format("position at t=%.3f s is off its planned placement by %.3g mm",
                                planned_.times[n], value * kPositionScale * 1e3)
                       : format("orientation at t=%.3f s is off its planned placement by %.3g deg",
                                planned_.times[n], value * kAngleScale * 180.0 / M_PI));
    }
  }
  if (kind == ConstraintKind::kInequality && index < velocity_rows_) {
    const int joint = legs_.joints[velocity_.limited_joint(index)];
    const double limit = limits_.velocity[joint];
    return model_.joint_names[joint] +
           format(" velocity (control polygon near t=%.3f s) exceeds its limit %.4g rad/s by %.3g rad/s",
                  velocity_.time(index), limit, value * limit);
  }
  if (kind == ConstraintKind::kInequality) {
    for (int n = 0; n < n_; ++n) {
      if (torque_row_[n] < 0 || index < torque_row_[n] || index >= torque_row_[n] + 2 * model_.nj) continue;
      const int joint = (index - torque_row_[n]) / 2;
      const double limit = limits_.torque[joint];
      return model_.joint_names[joint] + format(" torque at t=%.3f s exceeds its limit %.4g N m by %.3g N m",
                                                planned_.times[n], limit, value * limit);
    }
  }
  return optim::Problem::describe_constraint(kind, index, value);
}

}  // namespace mimic::smoothing
