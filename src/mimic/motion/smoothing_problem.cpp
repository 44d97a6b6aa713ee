#include "mimic/motion/smoothing_problem.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/motion/problem_budget.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::motion {

namespace {

using spatial::Mat3;
using spatial::SE3;
using spatial::Vec3;
using terms::RowKind;
using trajectory::EndSpec;

constexpr int kRight = 0, kLeft = 1;

// A geometry row is broken when one of its normalised bounds exceeds the solvers' default feasibility
// tolerance (optim::AlmOptions, IpoptOptions): the check agrees with what a solve calls feasible.
constexpr double kFeasibility = 1e-6;

double normalised_violation(double u, double lower, double upper) {
  return std::max(u / upper - 1.0, u / lower - 1.0);
}

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

trajectory::SplineParameterization make_parameterization(const model::SampledMotion& planned,
                                                         const std::vector<int>& leg_joints,
                                                         const model::Model& model, double knot_spacing) {
  uniform_period(planned.times);  // the grid's checks come first
  const Eigen::Index last = planned.size() - 1;
  const int coordinates = kBaseCoordinates + static_cast<int>(leg_joints.size());
  Eigen::VectorXd start = Eigen::VectorXd::Zero(coordinates), end = Eigen::VectorXd::Zero(coordinates);
  for (std::size_t i = 0; i < leg_joints.size(); ++i) {
    start[kBaseCoordinates + static_cast<Eigen::Index>(i)] = planned.q(model.idx_q(leg_joints[i]), 0);
    end[kBaseCoordinates + static_cast<Eigen::Index>(i)] = planned.q(model.idx_q(leg_joints[i]), last);
  }
  const double t0 = planned.times.front(), tf = planned.times.back();
  if (tf - t0 < 2.0 * knot_spacing - 1e-12) {
    throw InputError("smoothing: the planned motion lasts " + std::to_string(tf - t0) +
                     " s, less than two knot intervals of " + std::to_string(knot_spacing) + " s");
  }
  check_problem_budget({"smoothing", "trajectory.knot_spacing", tf - t0, knot_spacing,
                        static_cast<long long>(planned.size()), coordinates});
  return {trajectory::QuarticBspline(t0, tf, knot_spacing), coordinates, EndSpec::fixed_at_rest(start),
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

std::vector<int> joint_list(const model::Model& model, const stability::Feet& feet) {
  const auto joints = stability::Legs::of(model, feet).joints();
  return {joints.begin(), joints.end()};
}

// The base coordinates d map through the base's linear tangent (dofs 0 .. 2, SmoothingProblem::
// map_partials); each leg coordinate is its joint's dof.
std::vector<std::vector<int>> coordinate_dofs(const model::Model& model, const std::vector<int>& leg_joints) {
  std::vector<std::vector<int>> dofs(kBaseCoordinates, std::vector<int>{0, 1, 2});
  for (const int j : leg_joints) dofs.push_back({model.idx_v(j)});
  return dofs;
}

}  // namespace

std::vector<int> objective_weights(int samples, int stride) {
  if (stride < 1) throw std::invalid_argument("SmoothingProblem: objective_stride must be >= 1");
  std::vector<int> weights(static_cast<std::size_t>(std::max(samples, 0)), 0);
  if (samples <= 0) return weights;
  const int last = (samples - 1) / stride * stride;  // the last node
  for (int m = 0; m < samples; ++m) {
    // The nearest node (ties to the earlier one), the last one for the samples after it.
    const int node = std::min((m + (stride - 1) / 2) / stride * stride, last);
    ++weights[static_cast<std::size_t>(node)];
  }
  return weights;
}

SmoothingProblem::SmoothingProblem(const model::Model& model, const stability::Feet& feet,
                                   const model::SampledMotion& planned, SmoothingOptions options)
    : SplineProblem(model,
                    make_parameterization(planned, joint_list(model, feet), model, options.knot_spacing),
                    planned.times, coordinate_dofs(model, joint_list(model, feet)),
                    terms::GroundReaction(model, feet.right_foot_body, feet.left_foot_body)),
      feet_(feet),
      planned_(planned),
      options_(std::move(options)),
      limits_(model::scaled_limits(model, options_.limits)),
      legs_(stability::Legs::of(model, feet)),
      leg_joints_(joint_list(model, feet)),
      n_(static_cast<int>(planned.size())),
      dt_(uniform_period(planned.times)) {
  if (!model.has_free_flyer()) throw ModelError(model.source_path + ": smoothing needs a free-flyer model");
  if (static_cast<int>(planned.phases.size()) != n_ || planned.q.cols() != n_ || planned.v.cols() != n_ ||
      planned.a.cols() != n_)
    throw std::invalid_argument("SmoothingProblem: planned motion sizes disagree");
  options_.torque_samples = checked(options_.torque_samples, n_, "torque");
  options_.equality_samples = checked(options_.equality_samples, n_, "equality");
  const int legs = static_cast<int>(leg_joints_.size());

  const std::array<int, 2> sole_frames = {feet.right_sole_frame, feet.left_sole_frame};
  const std::array<model::SoleRectangle, 2> outlines = {feet.right_outline, feet.left_outline};
  std::array<std::vector<SE3>, 2> sole_reference;  // planned sole poses per sample
  rotations_.resize(static_cast<std::size_t>(n_));
  for (int f = 0; f < 2; ++f) {
    sole_reference[f].resize(static_cast<std::size_t>(n_));
    sole_centre_[f].resize(static_cast<std::size_t>(n_));
  }
  const geometry::CollisionModel* cmodel = options_.geometry.collision.get();
  if (cmodel) {
    std::vector<char> leg_dof(static_cast<std::size_t>(model.nv), 0);
    for (const int j : leg_joints_) leg_dof[static_cast<std::size_t>(model.idx_v(j))] = 1;
    for (int p = 0; p < static_cast<int>(cmodel->pairs.size()); ++p) {
      const geometry::CollisionPair& pair = cmodel->pairs[static_cast<std::size_t>(p)];
      bool movable = false;
      for (const auto* columns : {&pair.first_only, &pair.second_only})
        for (const int c : *columns) movable = movable || leg_dof[static_cast<std::size_t>(c)];
      if (movable) movable_pairs_.push_back(p);
    }
  }
  std::vector<char> near(cmodel ? cmodel->pairs.size() : 0, 0);
  pair_near_.assign(near.size(), {});
  const double activation = options_.geometry.safety_distance + options_.collision_activation;
  std::optional<geometry::PlacedShapes> placed;
  if (cmodel) placed.emplace(*cmodel);
  model::Data data(model);
  for (int n = 0; n < n_; ++n) {
    rotations_[n] = base_rotation(planned.q.col(n));
    dynamics::forward_kinematics(model, data, planned.q.col(n));
    if (cmodel) {
      geometry::place_shapes(*cmodel, data.oMi, *placed);
      for (const int p : movable_pairs_) {
        if (!(geometry::bounding_gap(*cmodel, *placed, p) < activation &&
              geometry::pair_distance(*cmodel, *placed, p).distance < activation))
          continue;
        near[static_cast<std::size_t>(p)] = 1;
        std::vector<char>& at = pair_near_[static_cast<std::size_t>(p)];
        if (at.empty()) at.assign(static_cast<std::size_t>(n_), 0);
        at[static_cast<std::size_t>(n)] = 1;
      }
    }
    for (int f = 0; f < 2; ++f) {
      const SE3 pose = dynamics::update_frame_placement(model, data, sole_frames[f]);
      sole_reference[f][n] = pose;
      const auto& o = outlines[f];
      sole_centre_[f][n] = pose.act(Vec3(0.5 * (o.x_min + o.x_max), 0.5 * (o.y_min + o.y_max), 0.0));
    }
  }

  // The plan's leg angles that the spline cannot represent (header comment): r = q_planned - fit, with the
  // planned rates and accelerations minus the fit's analytic ones.
  {
    Eigen::MatrixXd reference = Eigen::MatrixXd::Zero(coordinate_count(), n_);
    for (int i = 0; i < legs; ++i)
      reference.row(kBaseCoordinates + i) = planned.q.row(model.idx_q(leg_joints_[i]));
    fit_ = trajectory::fit_spline(parameterization_, planned.times, reference);
    trajectory::JointSamples fitted;
    basis_.evaluate(fit_, fitted);
    leg_offset_q_.resize(legs, n_);
    leg_offset_v_.resize(legs, n_);
    leg_offset_a_.resize(legs, n_);
    for (int i = 0; i < legs; ++i) {
      const int j = leg_joints_[i];
      leg_offset_q_.row(i) = planned.q.row(model.idx_q(j)) - fitted.q.row(kBaseCoordinates + i);
      leg_offset_v_.row(i) = planned.v.row(model.idx_v(j)) - fitted.qdot.row(kBaseCoordinates + i);
      leg_offset_a_.row(i) = planned.a.row(model.idx_v(j)) - fitted.qddot.row(kBaseCoordinates + i);
    }
  }

  if (cmodel) {
    for (const int p : options_.collision_pairs) {
      if (p < 0 || p >= static_cast<int>(cmodel->pairs.size()))
        throw std::invalid_argument("SmoothingProblem: collision pair " + std::to_string(p) +
                                    " out of range");
      near[static_cast<std::size_t>(p)] = 1;
      // Not near along the plan: its rows go on every pair sample (header comment).
      pair_near_[static_cast<std::size_t>(p)].assign(static_cast<std::size_t>(n_), 1);
    }
    for (int p = 0; p < static_cast<int>(near.size()); ++p)
      if (near[static_cast<std::size_t>(p)]) collision_pairs_.push_back(p);
  }
  build_geometry_terms(sole_reference);

  // Velocity rows on the derivative's control polygon (terms/velocity_rows.hpp), leg joints only.
  {
    std::vector<int> coordinates(static_cast<std::size_t>(legs));
    std::vector<double> limits(static_cast<std::size_t>(legs));
    for (int p = 0; p < legs; ++p) {
      coordinates[static_cast<std::size_t>(p)] = kBaseCoordinates + p;
      // The spline's rate plus the offset's: the spline gets what the offset leaves of the limit.
      limits[static_cast<std::size_t>(p)] =
          limits_.velocity[leg_joints_[p]] - leg_offset_v_.row(p).cwiseAbs().maxCoeff();
    }
    set_velocity_rows(terms::VelocityRows(parameterization_, coordinates, limits));
  }
  set_bounds();

  // The terms (header comment). Torques of every joint, in joint order.
  std::vector<int> joints(static_cast<std::size_t>(model.nj));
  for (int j = 0; j < model.nj; ++j) joints[static_cast<std::size_t>(j)] = j;
  torque_ = std::make_shared<terms::TorqueResidual>(model, joints, &ground_);
  torque_limits_ = std::make_shared<terms::TorqueLimits>(model, joints, limits_.torque, &ground_);
  for (int f = 0; f < 2; ++f) {
    foot_residual_[f] =
        std::make_shared<terms::SupportFoot>(model, sole_frames[f], sole_reference[f], RowKind::kResidual,
                                             options_.foot_position_weight, options_.foot_rotation_weight);
    foot_equality_[f] =
        std::make_shared<terms::SupportFoot>(model, sole_frames[f], sole_reference[f], RowKind::kEquality,
                                             1.0 / kSupportPositionScale, 1.0 / kSupportAngleScale);
  }
  add_rows();
  finish();
}

void SmoothingProblem::build_geometry_terms(const std::array<std::vector<SE3>, 2>& sole_reference) {
  const auto& collision = options_.geometry.collision;
  if (!collision) return;
  const double safety = options_.geometry.safety_distance;
  if (!movable_pairs_.empty())
    movable_collision_ = std::make_shared<terms::SelfCollision>(model_, collision, movable_pairs_, safety);
  const std::array<int, 2> sole_frames = {feet_.right_sole_frame, feet_.left_sole_frame};
  for (int f = 0; f < 2; ++f) {
    std::vector<int> corners;
    for (int c = 0; c < static_cast<int>(collision->corners.size()); ++c)
      if (collision->corners[static_cast<std::size_t>(c)].foot == (f == kRight ? "right" : "left"))
        corners.push_back(c);
    if (!corners.empty())
      swing_clearance_[f] = std::make_shared<terms::SoleClearance>(model_, collision, std::move(corners));
    std::vector<Mat3> planned(static_cast<std::size_t>(n_));
    for (int n = 0; n < n_; ++n) planned[static_cast<std::size_t>(n)] = sole_reference[f][n].R;
    swing_orientation_[f] = std::make_shared<terms::SwingSoleOrientation>(
        model_, sole_frames[f], std::move(planned), options_.geometry.max_swing_tilt);
  }
}

int SmoothingProblem::swing_foot(int n) const {
  const bool right = in_contact(n, kRight), left = in_contact(n, kLeft);
  return right == left ? -1 : (right ? kLeft : kRight);
}

int SmoothingProblem::row_set(model::ContactPhase phase, bool equalities, bool torque_limits,
                              const std::vector<int>& pairs, int objective_samples) {
  const bool right = model::right_foot_in_contact(phase), left = model::left_foot_in_contact(phase);
  const int key = 8 * (4 * objective_samples + static_cast<int>(phase)) + 2 * equalities + torque_limits;
  for (std::size_t k = 0; k < row_set_keys_.size(); ++k) {
    if (row_set_keys_[k].first == key && row_set_keys_[k].second == pairs) return static_cast<int>(k);
  }
  // Row order within a sample: torques, then the right foot, then the left (residuals and equalities).
  // The torques' quadrature weight is the time of the samples they stand for (header comment); with
  // objective_stride 1 that is sqrt(1 * dt) = sqrt(dt) exactly, the problem as it was.
  const double w = std::sqrt(dt_);
  terms::TermSum sum(model_);
  if (objective_samples > 0) sum.add("torque", torque_, std::sqrt(objective_samples * dt_));
  const std::array<bool, 2> contact = {right, left};
  const std::array<const char*, 2> side = {"right", "left"};
  for (int f = 0; f < 2; ++f) {
    if (contact[f]) sum.add(std::string(side[f]) + " support foot", foot_residual_[f], w);
  }
  for (int f = 0; f < 2 && equalities; ++f) {
    if (contact[f]) sum.add(std::string(side[f]) + " support foot placement", foot_equality_[f]);
  }
  // The pair rows on the torque samples and every pair_stride-th sample; the swing sole's on every sample
  // of single support (header comment).
  const int swing = right == left ? -1 : (right ? kLeft : kRight);
  if (torque_limits) sum.add("torque limits", torque_limits_);
  if (!pairs.empty()) {
    std::shared_ptr<const terms::SelfCollision>& term = pair_terms_[pairs];
    if (!term)
      term = std::make_shared<terms::SelfCollision>(model_, options_.geometry.collision, pairs,
                                                    options_.geometry.safety_distance);
    sum.add("self-collision", term);
  }
  if (swing >= 0 && swing_clearance_[swing]) sum.add("swing sole clearance", swing_clearance_[swing]);
  if (swing >= 0 && swing_orientation_[swing]) sum.add("swing sole orientation", swing_orientation_[swing]);
  row_set_keys_.emplace_back(key, pairs);
  // The feet's residuals and equalities take their factor before the chain rule; the torques and every
  // inequality row after it (file comment).
  return add_row_set(std::move(sum), 0, [](const terms::Term& term) {
    const bool after =
        term.kind() == RowKind::kInequality || dynamic_cast<const terms::JointTorqueRows*>(&term) != nullptr;
    return after ? ScaleOrder::kAfterChainRule : ScaleOrder::kBeforeChainRule;
  });
}

// One block per sample, in sample order (the rows of one sample share their columns: one dense Gram block
// each). Its equalities: on an equality sample with free slots (a fully pinned sample is the planned pose,
// exactly) and a foot in support.
void SmoothingProblem::add_rows() {
  std::vector<char> equality(static_cast<std::size_t>(n_), 0), torque(static_cast<std::size_t>(n_), 0);
  for (const int n : options_.equality_samples)
    equality[static_cast<std::size_t>(n)] =
        basis_.slot_count(n) > 0 && (in_contact(n, kRight) || in_contact(n, kLeft));
  for (const int n : options_.torque_samples) torque[static_cast<std::size_t>(n)] = 1;
  const std::vector<int> objective = objective_weights(n_, options_.objective_stride);
  std::vector<int> pairs;
  for (int n = 0; n < n_; ++n) {
    const auto i = static_cast<std::size_t>(n);
    // Every constrained pair on a torque sample; on the other pair_stride-th samples those near there
    // along the plan (header comment).
    pairs.clear();
    if (torque[i] != 0) {
      pairs = collision_pairs_;
    } else if (options_.pair_stride > 0 && n % options_.pair_stride == 0) {
      for (const int p : collision_pairs_)
        if (pair_near_[static_cast<std::size_t>(p)][i]) pairs.push_back(p);
    }
    add_block(n, row_set(planned_.phases[i], equality[i] != 0, torque[i] != 0, pairs, objective[i]));
  }
}

bool SmoothingProblem::in_contact(int n, int foot) const {
  const model::ContactPhase phase = planned_.phases[static_cast<std::size_t>(n)];
  return foot == kRight ? model::right_foot_in_contact(phase) : model::left_foot_in_contact(phase);
}

void SmoothingProblem::set_bounds() {
  Eigen::VectorXd& lower = lower_;
  Eigen::VectorXd& upper = upper_;
  lower.setConstant(num_variables(), -std::numeric_limits<double>::infinity());
  upper.setConstant(num_variables(), std::numeric_limits<double>::infinity());
  const int leg_size = static_cast<int>(leg_joints_.size()) / 2;
  // Angle = spline + offset: the spline's control points are bounded by the limits minus the offset's
  // extremes, so the convex hull keeps the angle inside at every t.
  for (int s = 0; s < parameterization_.num_slots(); ++s) {
    for (int p = 0; p < static_cast<int>(leg_joints_.size()); ++p) {
      const double low = leg_offset_q_.row(p).minCoeff(), high = leg_offset_q_.row(p).maxCoeff();
      double& l = lower[parameterization_.variable_index(s, kBaseCoordinates + p)];
      double& u = upper[parameterization_.variable_index(s, kBaseCoordinates + p)];
      l = limits_.lower[leg_joints_[p]] - low;
      u = limits_.upper[leg_joints_[p]] - high;
      if (p % leg_size == stability::Legs::kKnee)
        l = std::max(l, std::min(options_.min_knee_flexion - low, u));
    }
  }
}

void SmoothingProblem::set_state(int n, int /*state*/, SplineProblemData& data) const {
  const trajectory::JointSamples& samples = data.samples;
  terms::SampleData& sample = data.sample;
  const Mat3& R = rotations_[n];
  const Vec3 d(samples.q(0, n), samples.q(1, n), 0.0);
  const Vec3 rate(samples.qdot(0, n), samples.qdot(1, n), 0.0);
  const Vec3 acceleration(samples.qddot(0, n), samples.qddot(1, n), 0.0);
  const Vec3 local_rate = R.transpose() * rate;  // R^T d'
  const Vec3 omega = planned_.v.col(n).segment<3>(3);
  sample.index = n;
  sample.contact.phase = planned_.phases[static_cast<std::size_t>(n)];
  sample.contact.right_sole_centre = sole_centre_[kRight][n];
  sample.contact.left_sole_centre = sole_centre_[kLeft][n];
  sample.q = planned_.q.col(n);
  sample.v = planned_.v.col(n);
  sample.a = planned_.a.col(n);
  sample.q.head<3>() += d;
  sample.v.head<3>() += local_rate;
  sample.a.head<3>() += R.transpose() * acceleration - omega.cross(local_rate);
  for (int i = 0; i < static_cast<int>(leg_joints_.size()); ++i) {
    const int j = leg_joints_[i];
    sample.q[model_.idx_q(j)] = samples.q(kBaseCoordinates + i, n) + leg_offset_q_(i, n);
    sample.v[model_.idx_v(j)] = samples.qdot(kBaseCoordinates + i, n) + leg_offset_v_(i, n);
    sample.a[model_.idx_v(j)] = samples.qddot(kBaseCoordinates + i, n) + leg_offset_a_(i, n);
  }
}

void SmoothingProblem::map_partials(int n, const RowRef& gq, const RowRef& gv, const RowRef& ga,
                                    SplineProblemData& data) const {
  const Mat3& R = rotations_[n];
  const Vec3 omega = planned_.v.col(n).segment<3>(3);
  const Vec3 g_q = gq.head<3>().transpose(), g_v = gv.head<3>().transpose(), g_a = ga.head<3>().transpose();
  // d = (d_x, d_y, 0) in the world: the first two components of R g (header comment).
  data.pq.head<kBaseCoordinates>() = (R * g_q).head<kBaseCoordinates>();
  data.pv.head<kBaseCoordinates>() = (R * (g_v + omega.cross(g_a))).head<kBaseCoordinates>();
  data.pa.head<kBaseCoordinates>() = (R * g_a).head<kBaseCoordinates>();
  for (int i = 0; i < static_cast<int>(leg_joints_.size()); ++i) {
    const int dof = model_.idx_v(leg_joints_[i]);
    data.pq[kBaseCoordinates + i] = gq[dof];
    data.pv[kBaseCoordinates + i] = gv[dof];
    data.pa[kBaseCoordinates + i] = ga[dof];
  }
}

GeometryBreaches SmoothingProblem::geometry_breaches(const Eigen::MatrixXd& q) const {
  GeometryBreaches breaches;
  if (!options_.geometry.collision) return breaches;
  terms::SampleData sample(model_);
  std::unique_ptr<terms::TermData> pairs = movable_collision_ ? movable_collision_->create_data() : nullptr;
  std::array<std::unique_ptr<terms::TermData>, 4> soles;
  std::vector<char> unconstrained(options_.geometry.collision->pairs.size(), 0);
  const double safety = options_.geometry.safety_distance;
  for (int n = 0; n < n_; ++n) {
    sample.index = n;
    sample.q = q.col(n);
    sample.fill(terms::kKinematics, false);
    bool broken = false;
    if (movable_collision_) {
      movable_collision_->calc(sample, *pairs, false);
      for (int r = 0; r < movable_collision_->rows(); ++r) {
        breaches.min_distance = std::min(breaches.min_distance, pairs->value[r] + 2.0 * safety);
        if (normalised_violation(pairs->value[r], movable_collision_->lower()[r],
                                 movable_collision_->upper()[r]) <= kFeasibility)
          continue;
        broken = true;
        const int pair = movable_pairs_[static_cast<std::size_t>(r)];
        if (!std::binary_search(collision_pairs_.begin(), collision_pairs_.end(), pair))
          unconstrained[static_cast<std::size_t>(pair)] = 1;
      }
    }
    const int swing = swing_foot(n);
    const std::array<const terms::Term*, 2> sole_terms = {
        swing >= 0 ? swing_clearance_[swing].get() : nullptr,
        swing >= 0 ? swing_orientation_[swing].get() : nullptr};
    for (std::size_t t = 0; t < sole_terms.size(); ++t) {
      const terms::Term* term = sole_terms[t];
      if (!term) continue;
      auto& own = soles[2 * t + static_cast<std::size_t>(swing)];
      if (!own) own = term->create_data();
      term->calc(sample, *own, false);
      for (int r = 0; r < term->rows(); ++r) {
        const double u = own->value[r];
        if (t == 0)
          breaches.min_corner_height =
              std::min(breaches.min_corner_height, u + terms::SoleClearance::kHeightUnit);
        else
          breaches.max_tilt = std::max(breaches.max_tilt, std::abs(u));
        broken = broken || normalised_violation(u, term->lower()[r], term->upper()[r]) > kFeasibility;
      }
    }
    if (broken) breaches.samples.push_back(n);
  }
  for (int p = 0; p < static_cast<int>(unconstrained.size()); ++p)
    if (unconstrained[static_cast<std::size_t>(p)]) breaches.unconstrained.push_back(p);
  return breaches;
}

Eigen::VectorXd SmoothingProblem::initial_guess() const { return clamped(fit_); }

Eigen::MatrixXd SmoothingProblem::configurations(const Eigen::VectorXd& x) const {
  trajectory::JointSamples samples;
  basis_.evaluate(x, samples);
  Eigen::MatrixXd q = planned_.q;
  for (int n = 0; n < n_; ++n) {
    q.col(n).head<kBaseCoordinates>() += samples.q.col(n).head<kBaseCoordinates>();
    for (int i = 0; i < static_cast<int>(leg_joints_.size()); ++i)
      q(model_.idx_q(leg_joints_[i]), n) = samples.q(kBaseCoordinates + i, n) + leg_offset_q_(i, n);
  }
  return q;
}

Eigen::MatrixXd SmoothingProblem::torques(const Eigen::VectorXd& x) const {
  SmoothingProblemData data(*this);
  basis_.evaluate(x, data.samples);
  Eigen::MatrixXd tau(model_.nj, n_);
  for (int n = 0; n < n_; ++n) {
    set_state(n, 0, data);
    data.sample.fill(terms::kTorquesWithGroundReaction, false);
    tau.col(n) = data.sample.joint_torque;
  }
  return tau;
}

std::string SmoothingProblem::describe_constraint(optim::ConstraintKind kind, int index, double value) const {
  using optim::ConstraintKind;
  if (kind == ConstraintKind::kLowerBound || kind == ConstraintKind::kUpperBound) {
    const int coordinate = index % coordinate_count();
    if (coordinate >= kBaseCoordinates) {
      const int joint = leg_joints_[coordinate - kBaseCoordinates];
      const bool lower = kind == ConstraintKind::kLowerBound;
      return model_.joint_names[joint] +
             format(lower ? " angle (a control point) is below its lower limit %.4g rad by %.3g rad"
                          : " angle (a control point) is above its upper limit %.4g rad by %.3g rad",
                    lower ? limits_.lower[joint] : limits_.upper[joint], value);
    }
  }
  if (kind == ConstraintKind::kInequality && index < velocity().num_rows())
    return describe_velocity_row(index, value, leg_joints_, limits_.velocity);
  const RowKind row_kind = kind == ConstraintKind::kEquality ? RowKind::kEquality : RowKind::kInequality;
  int row = 0;
  bool upper = true;
  const Block* block = kind == ConstraintKind::kEquality || kind == ConstraintKind::kInequality
                           ? block_of(row_kind, index, row, upper)
                           : nullptr;
  const terms::TermSum::Item* item = block ? row_sets()[block->set].sum.item_at(row_kind, row) : nullptr;
  if (item == nullptr) return optim::Problem::describe_constraint(kind, index, value);
  const int n = block->sample;
  const int local = row - item->offset;
  if (row_kind == RowKind::kEquality) {
    const bool position = local < 3;
    return std::string(item->term == foot_equality_[kRight] ? "right" : "left") + " support foot " +
           (position ? format("position at t=%.3f s is off its planned placement by %.3g mm",
                              planned_.times[n], value * kSupportPositionScale * 1e3)
                     : format("orientation at t=%.3f s is off its planned placement by %.3g deg",
                              planned_.times[n], value * kSupportAngleScale * 180.0 / M_PI));
  }
  if (item->term == torque_limits_) {
    const double limit = limits_.torque[local];
    return model_.joint_names[local] + format(" torque at t=%.3f s exceeds its limit %.4g N m by %.3g N m",
                                              planned_.times[n], limit, value * limit);
  }
  const RowSet& set = row_sets()[block->set];
  const double bound = upper ? set.upper[row] : set.lower[row];
  return item->name + ": " + item->term->describe(local) +
         format(upper ? " at t=%.3f s is above its bound %.4g by %.3g"
                      : " at t=%.3f s is below its bound %.4g by %.3g",
                planned_.times[n], bound, value * std::abs(bound));
}

}  // namespace mimic::motion
