// Configuration-space operations: the free-flyer part of q is an element of SE(3) stored as
// [position; quaternion x y z w], its velocity a twist in the base frame (docs/CONTRACTS.md).
#include "mimic/model/configuration.hpp"

#include <algorithm>
#include <cmath>

#include "mimic/model/base_pose.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::model {
namespace {

using spatial::SE3;

}  // namespace

SE3 base_placement(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q) {
  return base_pose(model, q);
}

Eigen::VectorXd neutral(const Model& model) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.has_free_flyer()) q[6] = 1.0;
  for (int j = 0; j < model.nj; ++j)
    q[model.idx_q(j)] = std::clamp(0.0, model.lower_limit[j], model.upper_limit[j]);
  return q;
}

void integrate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
               const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> q_out) {
  if (model.has_free_flyer()) {
    const SE3 M = base_placement(model, q) * spatial::exp6(spatial::Motion(v.head<3>(), v.segment<3>(3)));
    set_base_pose(model, q_out, M);
  }
  q_out.tail(model.nj) = q.tail(model.nj) + v.tail(model.nj);
}

Eigen::VectorXd integrate(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                          const Eigen::Ref<const Eigen::VectorXd>& v) {
  Eigen::VectorXd out(model.nq);
  integrate(model, q, v, out);
  return out;
}

void difference(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q0,
                const Eigen::Ref<const Eigen::VectorXd>& q1, Eigen::Ref<Eigen::VectorXd> dv) {
  if (model.has_free_flyer()) {
    const spatial::Motion d = spatial::log6(base_placement(model, q0).act_inv(base_placement(model, q1)));
    dv.head<3>() = d.v;
    dv.segment<3>(3) = d.w;
  }
  dv.tail(model.nj) = q1.tail(model.nj) - q0.tail(model.nj);
}

Eigen::VectorXd difference(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q0,
                           const Eigen::Ref<const Eigen::VectorXd>& q1) {
  Eigen::VectorXd out(model.nv);
  difference(model, q0, q1, out);
  return out;
}

void normalize(const Model& model, Eigen::Ref<Eigen::VectorXd> q) {
  if (model.has_free_flyer()) q.segment<4>(3).normalize();
}

Eigen::VectorXd random_configuration(const Model& model, std::mt19937& rng) {
  Eigen::VectorXd q(model.nq);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  if (model.has_free_flyer()) {
    q.head<3>() << unit(rng), unit(rng), unit(rng);
    std::normal_distribution<double> gauss;
    Eigen::Vector4d quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng));  // uniform on S^3 once normalised
    q.segment<4>(3) = quat.normalized();
  }
  for (int j = 0; j < model.nj; ++j) {
    const double lo = std::isfinite(model.lower_limit[j]) ? model.lower_limit[j] : -M_PI;
    const double hi = std::isfinite(model.upper_limit[j]) ? model.upper_limit[j] : M_PI;
    q[model.idx_q(j)] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

}  // namespace mimic::model
