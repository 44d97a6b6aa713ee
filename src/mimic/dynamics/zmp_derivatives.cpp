// ZMP derivatives by the quotient rule on the contact-wrench derivatives (zmp_derivatives.hpp).
#include "mimic/dynamics/zmp_derivatives.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

namespace {

// Rows x and y of the ZMP derivative from the dof-major wrench derivative dW (nv x 6: [f; tau] per dof).
void quotient_rule(const MatrixX6& dW, double height, const spatial::Vec3& p, double fz,
                   Eigen::Ref<Matrix2x> out) {
  out.row(0) = ((height * dW.col(0) - dW.col(4) - p.x() * dW.col(2)) / fz).transpose();
  out.row(1) = ((height * dW.col(1) + dW.col(3) - p.y() * dW.col(2)) / fz).transpose();
}

}  // namespace

std::optional<spatial::Vec3> zmp_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                             const ConfigRef& v, const ConfigRef& a, double height,
                                             Eigen::Ref<Matrix2x> dzmp_dq, Eigen::Ref<Matrix2x> dzmp_dv,
                                             Eigen::Ref<Matrix2x> dzmp_da, double min_normal_force) {
  if (dzmp_dq.cols() != model.nv || dzmp_dv.cols() != model.nv || dzmp_da.cols() != model.nv)
    throw std::invalid_argument("zmp_derivatives: outputs must have model.nv columns");
  detail::centroidal_derivative_pass(model, data, q, v, a);
  const spatial::Force& W = data.of[0];
  const double fz = W.f.z();
  if (!(fz > min_normal_force)) return std::nullopt;
  const spatial::Vec3 p((height * W.f.x() - W.tau.y()) / fz, (height * W.f.y() + W.tau.x()) / fz, height);
  quotient_rule(data.dFdq, height, p, fz, dzmp_dq);
  quotient_rule(data.dFdv, height, p, fz, dzmp_dv);
  quotient_rule(data.Ag, height, p, fz, dzmp_da);
  return p;
}

}  // namespace mimic::dynamics
