#include "mimic/evaluation/check.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::evaluation {

using model::ContactPhase;

namespace {

// Keeps the worst violation per (kind, where) and the violating samples.
class ViolationLog {
 public:
  void add(ViolationKind kind, const std::string& where, Eigen::Index sample, double time, double value,
           double limit, double excess, double scale) {
    auto& v = worst_[{static_cast<int>(kind), where}];
    ++v.violating_samples;
    const double ratio = excess / std::max(scale, 1e-12);
    if (v.violating_samples == 1 || ratio > v.ratio) {
      const int count = v.violating_samples;
      std::vector<int> samples = std::move(v.sample_indices);
      v = Violation{kind, where, time, value, limit, excess, ratio, count, std::move(samples)};
    }
    // A joint above and below its range in one sample is not possible, so a sample is listed once.
    if (v.sample_indices.empty() || v.sample_indices.back() != static_cast<int>(sample))
      v.sample_indices.push_back(static_cast<int>(sample));
  }
  std::vector<Violation> sorted() const {
    std::vector<Violation> out;
    for (const auto& [key, v] : worst_) out.push_back(v);
    std::sort(out.begin(), out.end(),
              [](const Violation& a, const Violation& b) { return a.ratio > b.ratio; });
    return out;
  }

 private:
  std::map<std::pair<int, std::string>, Violation> worst_;
};

double rotation_angle(const Eigen::Matrix3d& R) { return spatial::log3(R).norm(); }

// A centimetre of depth ranks with a centimetre of ZMP margin: both are distances with no limit of their
// own to scale by (the safety distance is a margin, and the floor's is 0).
constexpr double kGeometryScale = 0.01;  // m

// The geometry's offences as violations: each pair closer than the safety distance, each foot with a
// corner below the floor.
void add_geometry_violations(const GeometryReport& geometry, const GeometryCheckOptions& options,
                             std::vector<Violation>& violations) {
  for (const GeometryOffence& o : geometry.pair_offences) {
    const double excess = options.safety_distance - o.value;
    violations.push_back({ViolationKind::kCollision, o.where, o.time, o.value, options.safety_distance,
                          excess, excess / kGeometryScale, o.samples, o.sample_indices});
  }
  for (const GeometryOffence& o : geometry.foot_offences)
    violations.push_back({ViolationKind::kGround, o.where, o.time, o.value, 0.0, -o.value,
                          -o.value / kGeometryScale, o.samples, o.sample_indices});
}

}  // namespace

Report check_motion(const model::Model& model, const stability::Feet& feet,
                    const model::SampledMotion& motion, const CheckOptions& options, core::ThreadPool* pool) {
  Report report;
  const Eigen::Index n = motion.size();
  report.samples = static_cast<int>(n);
  report.base_reconstructed = motion.base_reconstructed;
  if (n == 0) return report;
  report.duration = motion.times.back() - motion.times.front();
  if (n > 1) {
    std::vector<double> dt(static_cast<std::size_t>(n - 1));
    for (std::size_t k = 0; k + 1 < motion.times.size(); ++k) dt[k] = motion.times[k + 1] - motion.times[k];
    std::nth_element(dt.begin(), dt.begin() + static_cast<long>(dt.size() / 2), dt.end());
    report.rate = 1.0 / dt[dt.size() / 2];
  }

  const int nj = model.nj;
  for (std::vector<Peak>* peaks : {&report.angle, &report.velocity, &report.torque}) {
    peaks->resize(static_cast<std::size_t>(nj));
    for (int j = 0; j < nj; ++j)
      (*peaks)[static_cast<std::size_t>(j)].joint = model.joint_names[static_cast<std::size_t>(j)];
  }
  const auto& f = options.factors;
  const Eigen::VectorXd middle = 0.5 * (model.lower_limit + model.upper_limit);
  const Eigen::VectorXd half_range = 0.5 * (model.upper_limit - model.lower_limit);
  const Eigen::VectorXd lower = middle - f.angle_factor * half_range,
                        upper = middle + f.angle_factor * half_range;
  const Eigen::VectorXd vmax = f.velocity_factor * model.velocity_limit;
  const Eigen::VectorXd tmax = f.torque_factor * model.effort_limit;

  ViolationLog log;
  report.min_zmp_margin = std::numeric_limits<double>::infinity();
  // Support-foot anchoring: where each foot was when its current support interval began.
  spatial::SE3 anchor[2];
  bool anchored[2] = {false, false};
  const int sole_frame[2] = {feet.right_sole_frame, feet.left_sole_frame};
  const char* foot_name[2] = {"right foot", "left foot"};
  // The samples' kinematics and dynamics on the pool, each sample writing its own entries, then every
  // peak, sum and violation in sample order below: the report does not depend on the threads.
  const auto workers = static_cast<std::size_t>(core::worker_count(pool));
  std::vector<model::Data> datas(workers, model::Data(model));
  Eigen::Matrix2Xd sole_height(2, n);
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    model::Data& data = datas[static_cast<std::size_t>(worker)];
    for (int k = first; k < last; ++k) {
      dynamics::forward_kinematics(model, data, motion.q.col(k));
      for (int s = 0; s < 2; ++s)
        sole_height(s, k) = dynamics::update_frame_placement(model, data, sole_frame[s]).p.z();
    }
  });
  double ground = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < n; ++k)
    for (int s = 0; s < 2; ++s) ground = std::min(ground, sole_height(s, k));
  Eigen::MatrixXd torques(nj, n);
  std::vector<double> residuals(static_cast<std::size_t>(n)), margins(static_cast<std::size_t>(n));
  std::vector<spatial::SE3> right_soles(static_cast<std::size_t>(n)), left_soles(static_cast<std::size_t>(n));
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    model::Data& data = datas[static_cast<std::size_t>(worker)];
    for (int k = first; k < last; ++k) {
      const auto sample = static_cast<std::size_t>(k);
      const auto q = motion.q.col(k), v = motion.v.col(k), a = motion.a.col(k);
      const ContactPhase phase = motion.phases[sample];
      torques.col(k) = stability::joint_torques_with_ground_reaction(model, data, feet, phase, q, v, a,
                                                                     &residuals[sample]);
      // ZMP of the contact wrench (data holds this sample's momentum rate after the torque computation).
      const auto& oMr = right_soles[sample] =
          dynamics::update_frame_placement(model, data, feet.right_sole_frame);
      const auto& oMl = left_soles[sample] =
          dynamics::update_frame_placement(model, data, feet.left_sole_frame);
      const auto polygon =
          stability::SupportPolygon::of_feet(phase, oMr, oMl, feet.right_outline, feet.left_outline);
      const auto wrench = dynamics::contact_wrench(model, data, q, v, a);
      const auto zmp = dynamics::zmp_from_wrench(wrench, ground);
      margins[sample] =
          zmp ? polygon.signed_distance(zmp->head<2>()) : -std::numeric_limits<double>::infinity();
    }
  });

  for (Eigen::Index k = 0; k < n; ++k) {
    const double t = motion.times[static_cast<std::size_t>(k)];
    const auto sample = static_cast<std::size_t>(k);
    const auto q = motion.q.col(k), v = motion.v.col(k);
    const ContactPhase phase = motion.phases[sample];
    const Eigen::VectorXd tau = torques.col(k);  // a vector as it was computed: the same sums' order
    report.max_base_residual = std::max(report.max_base_residual, residuals[sample]);
    // Trapezoid: half weights on the end samples.
    const double h0 = k > 0 ? t - motion.times[static_cast<std::size_t>(k - 1)] : 0.0;
    const double h1 = k + 1 < n ? motion.times[static_cast<std::size_t>(k + 1)] - t : 0.0;
    report.torque_integral += 0.5 * (h0 + h1) * tau.squaredNorm();
    for (int j = 0; j < nj; ++j) {
      const auto& name = model.joint_names[static_cast<std::size_t>(j)];
      const auto joint = static_cast<std::size_t>(j);
      const double qj = q[model.idx_q(j)], vj = v[model.idx_v(j)];
      report.angle[joint].raise(std::abs(qj - middle[j]) / half_range[j], qj,
                                qj < middle[j] ? model.lower_limit[j] : model.upper_limit[j], t);
      const double angle_slack = options.limit_tolerance * half_range[j];
      if (qj < lower[j] - angle_slack)
        log.add(ViolationKind::kAngle, name, k, t, qj, lower[j], lower[j] - qj, half_range[j]);
      if (qj > upper[j] + angle_slack)
        log.add(ViolationKind::kAngle, name, k, t, qj, upper[j], qj - upper[j], half_range[j]);
      report.velocity[joint].raise(std::abs(vj) / model.velocity_limit[j], vj, model.velocity_limit[j], t);
      if (std::abs(vj) > vmax[j] * (1.0 + options.limit_tolerance))
        log.add(ViolationKind::kVelocity, name, k, t, vj, vmax[j], std::abs(vj) - vmax[j], vmax[j]);
      report.torque[joint].raise(std::abs(tau[j]) / model.effort_limit[j], tau[j], model.effort_limit[j], t);
      if (std::abs(tau[j]) > tmax[j] * (1.0 + options.limit_tolerance))
        log.add(ViolationKind::kTorque, name, k, t, tau[j], tmax[j], std::abs(tau[j]) - tmax[j], tmax[j]);
    }
    const spatial::SE3& oMr = right_soles[sample];
    const spatial::SE3& oMl = left_soles[sample];
    const double margin = margins[sample];
    if (margin < report.min_zmp_margin) report.min_zmp_margin = margin, report.min_zmp_margin_time = t;
    if (margin < options.zmp_margin)
      log.add(ViolationKind::kZmp, "ZMP", k, t, margin, options.zmp_margin, options.zmp_margin - margin,
              0.01);
    // Slip: a foot in support must stay where its support began.
    for (int s = 0; s < 2; ++s) {
      const bool in_support =
          s == 0 ? model::right_foot_in_contact(phase) : model::left_foot_in_contact(phase);
      const auto& oMs = s == 0 ? oMr : oMl;
      if (!in_support) {
        anchored[s] = false;
        continue;
      }
      if (!anchored[s]) anchor[s] = oMs, anchored[s] = true;
      const double dp = (oMs.p - anchor[s].p).norm();
      const double dr = rotation_angle(anchor[s].R.transpose() * oMs.R);
      report.max_slip_position = std::max(report.max_slip_position, dp);
      report.max_slip_angle = std::max(report.max_slip_angle, dr);
      if (dp > options.slip_position)
        log.add(ViolationKind::kSlip, foot_name[s], k, t, dp, options.slip_position,
                dp - options.slip_position, options.slip_position);
      if (dr > options.slip_angle)
        log.add(ViolationKind::kSlip, std::string(foot_name[s]) + " (rotation)", k, t, dr, options.slip_angle,
                dr - options.slip_angle, options.slip_angle);
    }
  }
  report.violations = log.sorted();
  // A robot without collision shapes and sole corners has no geometry to certify (the report says so).
  if (options.collision && !(options.collision->pairs.empty() && options.collision->corners.empty())) {
    report.geometry = check_geometry(model, *options.collision, motion, options.geometry, pool);
    add_geometry_violations(*report.geometry, options.geometry, report.violations);
    std::stable_sort(report.violations.begin(), report.violations.end(),
                     [](const Violation& a, const Violation& b) { return a.ratio > b.ratio; });
  }
  return report;
}

}  // namespace mimic::evaluation
