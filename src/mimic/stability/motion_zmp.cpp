#include "mimic/stability/motion_zmp.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/data.hpp"

namespace mimic::stability {
namespace {

// Sample k's entries of `support`, from the sole poses at q (nothing else is written).
void set_support(const model::Model& model, const Feet& feet, model::Data& data, const dynamics::ConfigRef& q,
                 model::ContactPhase phase, std::size_t k, SupportSequence& support) {
  dynamics::forward_kinematics(model, data, q);
  const spatial::SE3& right = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
  const spatial::SE3& left = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
  support.right_soles[k] = right;
  support.left_soles[k] = left;
  support.polygons[k] = SupportPolygon::of_feet(phase, right, left, feet.right_outline, feet.left_outline);
  switch (phase) {
    case model::ContactPhase::kRightSupport:
      support.ground_heights[k] = right.p.z();
      break;
    case model::ContactPhase::kLeftSupport:
      support.ground_heights[k] = left.p.z();
      break;
    case model::ContactPhase::kDoubleSupport:
      support.ground_heights[k] = 0.5 * (right.p.z() + left.p.z());
      break;
  }
}

}  // namespace

SupportSequence support_sequence(const model::Model& model, const Feet& feet, const Eigen::MatrixXd& q,
                                 const std::vector<model::ContactPhase>& phases, core::ThreadPool* pool) {
  const auto n = static_cast<std::size_t>(q.cols());
  if (phases.size() != n)
    throw std::invalid_argument("support_sequence: " + std::to_string(phases.size()) + " phases for " +
                                std::to_string(n) + " samples");
  SupportSequence support;
  support.polygons.resize(n);
  support.ground_heights.resize(n);
  support.right_soles.resize(n);
  support.left_soles.resize(n);
  std::vector<model::Data> datas(static_cast<std::size_t>(core::worker_count(pool)), model::Data(model));
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    model::Data& data = datas[static_cast<std::size_t>(worker)];
    for (int k = first; k < last; ++k) {
      const auto sample = static_cast<std::size_t>(k);
      set_support(model, feet, data, q.col(k), phases[sample], sample, support);
    }
  });
  return support;
}

void evaluate_zmp(const model::Model& model, const SupportSequence& support, const Eigen::MatrixXd& q,
                  const Eigen::MatrixXd& v, const Eigen::MatrixXd& a, ZmpTrace& trace,
                  core::ThreadPool* pool) {
  const auto n = static_cast<std::size_t>(q.cols());
  if (support.polygons.size() != n || v.cols() != q.cols() || a.cols() != q.cols())
    throw std::invalid_argument("evaluate_zmp: q, v, a and the support differ in length");
  trace.zmp.resize(n);
  trace.margin.resize(n);
  std::vector<model::Data> datas(static_cast<std::size_t>(core::worker_count(pool)), model::Data(model));
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    model::Data& data = datas[static_cast<std::size_t>(worker)];
    for (int c = first; c < last; ++c) {
      const auto k = static_cast<std::size_t>(c);
      const auto zmp = dynamics::zmp(model, data, q.col(c), v.col(c), a.col(c), support.ground_heights[k]);
      if (zmp) {
        trace.zmp[k] = *zmp;
        trace.margin[k] = support.polygons[k].signed_distance(zmp->head<2>());
      } else {
        trace.zmp[k].setConstant(std::numeric_limits<double>::quiet_NaN());
        trace.margin[k] = -std::numeric_limits<double>::infinity();
      }
    }
  });
  trace.worst_sample = -1;
  trace.worst_margin = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < n; ++k) {
    if (trace.worst_sample < 0 || trace.margin[k] < trace.worst_margin) {
      trace.worst_sample = static_cast<int>(k);
      trace.worst_margin = trace.margin[k];
    }
  }
}

ZmpTrace motion_zmp(const model::Model& model, const Feet& feet, const model::SampledMotion& motion,
                    core::ThreadPool* pool) {
  const SupportSequence support = support_sequence(model, feet, motion.q, motion.phases, pool);
  ZmpTrace trace;
  evaluate_zmp(model, support, motion.q, motion.v, motion.a, trace, pool);
  return trace;
}

}  // namespace mimic::stability
