#include "mimic/stability/zmp_stabilizer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/stability/cart_table.hpp"
#include "mimic/stability/leg_refit.hpp"

namespace mimic::stability {

using spatial::SE3;
using spatial::Vec3;

namespace {

// The sampling period of a uniform grid; InputError otherwise (the cart-table is discretized on it).
double uniform_period(const std::vector<double>& times) {
  if (times.size() < 2) return 0.005;  // a single sample has no dynamics; any period will do
  const double dt = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  for (std::size_t k = 1; k < times.size(); ++k)
    if (!(std::abs(times[k] - times[k - 1] - dt) <= 1e-6 * dt))
      throw InputError(input_error_message("motion", "sample " + std::to_string(k),
                                           "ZMP stabilization needs a uniform time grid (period " +
                                               std::to_string(dt) + " s, here " +
                                               std::to_string(times[k] - times[k - 1]) + " s)"));
  return dt;
}

// Re-solves both legs of configuration q (seeded by its own angles) so that the soles stay where the
// support sequence has them at sample k; throws naming the sample.
void keep_soles(const model::Model& model, const Legs& legs, const SupportSequence& support, std::size_t k,
                double time, Eigen::Ref<Eigen::VectorXd> q) {
  const LegRefit refit =
      refit_legs(model, legs, model::base_pose(model, q), support.right_soles[k], support.left_soles[k], q);
  if (refit.ok()) return;
  char where[64];
  std::snprintf(where, sizeof where, "t = %.3f s", time);
  throw InfeasibleError(input_error_message(
      "ZMP stabilization", where,
      "after the waist shift " +
          describe_failure(model, legs.leg[static_cast<std::size_t>(refit.failed_leg)], refit.result) +
          " (waist at x = " + std::to_string(q(0)) + ", y = " + std::to_string(q(1)) + " m)"));
}

// One model::Data per thread of `pool`.
std::vector<model::Data> thread_data(const model::Model& model, core::ThreadPool* pool) {
  return std::vector<model::Data>(static_cast<std::size_t>(core::worker_count(pool)), model::Data(model));
}

// zc: the mean height of the CoM above the ground of each sample (summed in sample order).
double mean_com_height(const model::Model& model, std::vector<model::Data>& datas, const Eigen::MatrixXd& q,
                       const SupportSequence& support, core::ThreadPool* pool) {
  Eigen::VectorXd height(q.cols());
  core::for_each_range(pool, static_cast<int>(q.cols()), [&](int first, int last, int worker) {
    for (int k = first; k < last; ++k)
      height[k] = dynamics::center_of_mass(model, datas[static_cast<std::size_t>(worker)], q.col(k)).z() -
                  support.ground_heights[static_cast<std::size_t>(k)];
  });
  double sum = 0.0;
  for (Eigen::Index k = 0; k < q.cols(); ++k) sum += height[k];
  return sum / static_cast<double>(q.cols());
}

// Runs set(k) for every sample on `pool`; when some throw, the error of the first such sample is rethrown
// (whichever thread reached it first), as a single thread would have.
template <class SampleTask>
void for_each_sample_in_order(core::ThreadPool* pool, std::size_t n, const SampleTask& task) {
  std::vector<std::exception_ptr> errors(n);
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    for (auto k = static_cast<std::size_t>(first); k < static_cast<std::size_t>(last); ++k) {
      try {
        task(k, worker);
      } catch (...) {
        errors[k] = std::current_exception();
        return;  // a single thread would have stopped here
      }
    }
  });
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

// Horizontal CoM displacement per unit waist displacement with the feet fixed, per axis, measured on the
// first sample by a 1 mm waist shift (the legs, and the feet not at all, move less than the waist: for
// HRP-2 in half-sitting about 0.8). 1 when the probe cannot be solved.
Eigen::Vector2d com_per_waist(const model::Model& model, model::Data& data, const Legs& legs,
                              const SupportSequence& support, const Eigen::VectorXd& q0) {
  constexpr double kProbe = 1e-3;
  const Vec3 com0 = dynamics::center_of_mass(model, data, q0);
  Eigen::Vector2d ratio = Eigen::Vector2d::Ones();
  for (int axis = 0; axis < 2; ++axis) {
    Eigen::VectorXd q = q0;
    q(axis) += kProbe;
    if (!refit_legs(model, legs, model::base_pose(model, q), support.right_soles[0], support.left_soles[0], q)
             .ok())
      continue;
    const double r = (dynamics::center_of_mass(model, data, q)(axis) - com0(axis)) / kProbe;
    // A ratio outside (0.3, 1.5] would mean a strange model; fall back to 1 (the loop still converges).
    if (r > 0.3 && r <= 1.5) ratio(axis) = r;
  }
  return ratio;
}

}  // namespace

std::string StabilizationReport::summary() const {
  char line[320];
  std::snprintf(line, sizeof line,
                "ZMP margin %.4f m (sample %d) -> %.4f m (sample %d) after %d correction(s)%s; %d sample(s) "
                "were inside by less than the margin; waist shift <= %.4f m; zc %.4f m",
                initial_worst_margin, initial_worst_sample, final_worst_margin, final_worst_sample,
                iterations, converged ? "" : " -- NOT inside the margin (iteration cap)",
                samples_outside_margin, max_waist_shift, com_height);
  return line;
}

StabilizedMotion stabilize_zmp(const model::Model& model, const Feet& feet,
                               const model::SampledMotion& motion, const StabilizerOptions& options,
                               core::ThreadPool* pool) {
  const auto n = static_cast<std::size_t>(motion.q.cols());
  if (motion.times.size() != n || motion.phases.size() != n || motion.q.rows() != model.nq)
    throw InputError(input_error_message("motion", "", "times, configurations and phases differ in size"));
  if (!(options.margin >= 0.0) || !(options.overshoot >= 0.0) || options.max_iterations < 0)
    throw std::invalid_argument("StabilizerOptions: margin and overshoot must be >= 0, max_iterations >= 0");
  if (!model.has_free_flyer())
    throw ModelError(model.source_path + ": ZMP stabilization needs a free-flyer model");
  const double dt = uniform_period(motion.times);

  StabilizedMotion out;
  out.motion = motion;
  StabilizationReport& report = out.report;
  if (n == 0) {
    report.converged = true;
    return out;
  }
  Eigen::MatrixXd& q = out.motion.q;
  const SupportSequence support = support_sequence(model, feet, motion.q, motion.phases, pool);
  const Legs legs = Legs::of(model, feet);
  std::vector<model::Data> datas = thread_data(model, pool);
  model::Data& data = datas[0];  // the calling thread's

  report.com_height =
      options.com_height > 0.0 ? options.com_height : mean_com_height(model, datas, q, support, pool);
  const CartTable cart{report.com_height, -model.gravity.z(), dt};
  std::vector<double> zmp_change_x(n), zmp_change_y(n), com_change_x(n), com_change_y(n);
  Eigen::Matrix2Xd waist_shift = Eigen::Matrix2Xd::Zero(2, static_cast<Eigen::Index>(n));
  Eigen::Vector2d ratio = Eigen::Vector2d::Ones();

  for (int iteration = 0;; ++iteration) {
    model::differentiate(model, out.motion.times, q, out.motion.v, out.motion.a);
    evaluate_zmp(model, support, q, out.motion.v, out.motion.a, out.zmp, pool);
    report.final_worst_sample = out.zmp.worst_sample;
    report.final_worst_margin = out.zmp.worst_margin;
    if (iteration == 0) {
      report.initial_worst_sample = out.zmp.worst_sample;
      report.initial_worst_margin = out.zmp.worst_margin;
      report.samples_outside_margin = static_cast<int>(std::count_if(
          out.zmp.margin.begin(), out.zmp.margin.end(), [&](double m) { return m < options.margin; }));
    }
    report.converged = out.zmp.worst_margin >= options.margin;
    if (options.progress) {
      char message[160];
      std::snprintf(message, sizeof message, "worst ZMP margin %.4f m at t = %.3f s (wanted >= %.4f m)",
                    out.zmp.worst_margin,
                    out.motion.times[static_cast<std::size_t>(std::max(out.zmp.worst_sample, 0))],
                    options.margin);
      options.progress({"zmp", iteration, options.max_iterations, 0.0,
                        std::max(0.0, options.margin - out.zmp.worst_margin), message});
    }
    if (report.converged || iteration == options.max_iterations) break;

    // (2) The ZMP change asked at each sample.
    for (std::size_t k = 0; k < n; ++k) {
      zmp_change_x[k] = zmp_change_y[k] = 0.0;
      if (out.zmp.margin[k] >= options.margin) continue;
      const Vec3& zmp = out.zmp.zmp[k];
      if (!zmp.allFinite()) {
        char where[64];
        std::snprintf(where, sizeof where, "t = %.3f s", motion.times[k]);
        throw InfeasibleError(
            input_error_message("ZMP stabilization", where,
                                "no ZMP: the ground would have to pull the robot (vertical acceleration)"));
      }
      const Vec2 target = support.polygons[k].clamp(zmp.head<2>(), options.margin + options.overshoot);
      zmp_change_x[k] = target.x() - zmp.x();
      zmp_change_y[k] = target.y() - zmp.y();
    }
    // (3) The CoM change whose cart-table ZMP is that change (kNeighbourAcceleration ends: the finite
    // differences' convention).
    solve_com_for_zmp(cart, zmp_change_x, com_change_x, CartBoundary::kNeighbourAcceleration);
    solve_com_for_zmp(cart, zmp_change_y, com_change_y, CartBoundary::kNeighbourAcceleration);
    // (4) Shift the waist, keep the feet.
    if (iteration == 0) ratio = com_per_waist(model, data, legs, support, q.col(0));
    report.com_per_waist = ratio.minCoeff();
    for_each_sample_in_order(pool, n, [&](std::size_t k, int /*worker*/) {
      const auto c = static_cast<Eigen::Index>(k);
      waist_shift(0, c) += com_change_x[k] / ratio.x();
      waist_shift(1, c) += com_change_y[k] / ratio.y();
      q(0, c) = motion.q(0, c) + waist_shift(0, c);
      q(1, c) = motion.q(1, c) + waist_shift(1, c);
      keep_soles(model, legs, support, k, motion.times[k], q.col(c));
    });
    report.iterations = iteration + 1;
  }

  report.max_waist_shift = waist_shift.colwise().norm().maxCoeff();
  if (report.iterations > 0) {
    // Each sample's drift of the right and left sole (position, rotation), then the maxima in sample order.
    Eigen::Matrix4Xd drift(4, static_cast<Eigen::Index>(n));
    core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
      model::Data& sample_data = datas[static_cast<std::size_t>(worker)];
      for (int c = first; c < last; ++c) {
        const auto k = static_cast<std::size_t>(c);
        dynamics::forward_kinematics(model, sample_data, q.col(c));
        for (const bool right : {true, false}) {
          const SE3& now = dynamics::update_frame_placement(
              model, sample_data, right ? feet.right_sole_frame : feet.left_sole_frame);
          const SE3& was = right ? support.right_soles[k] : support.left_soles[k];
          drift(right ? 0 : 2, c) = (now.p - was.p).norm();
          drift(right ? 1 : 3, c) = spatial::log3(was.R.transpose() * now.R).norm();
        }
      }
    });
    for (Eigen::Index k = 0; k < drift.cols(); ++k) {
      for (const int foot : {0, 2}) {
        report.max_foot_drift = std::max(report.max_foot_drift, drift(foot, k));
        report.max_foot_rotation_drift = std::max(report.max_foot_rotation_drift, drift(foot + 1, k));
      }
    }
  }
  return out;
}

}  // namespace mimic::stability
