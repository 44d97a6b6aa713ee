// The world-frame forward pass of derivatives_detail.hpp, without the dynamics.
#include "mimic/dynamics/kinematics_derivatives.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

using spatial::Motion;

void forward_kinematics_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q) {
  if (data.nv != model.nv || q.size() != model.nq)
    throw std::invalid_argument(
        "forward_kinematics_derivatives: q or the DerivativeData do not match the model");
  detail::root_forward(model, data, q, Motion::Zero(), Motion::Zero());
  for (int b = 1; b < model.nbodies; ++b)
    detail::joint_forward(model, data, b, q[model.idx_q(model::Model::joint_of_body(b))], 0.0, 0.0);
}

void forward_kinematics_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                    const ConfigRef& v, const ConfigRef& a) {
  if (data.nv != model.nv || q.size() != model.nq || v.size() != model.nv || a.size() != model.nv)
    throw std::invalid_argument(
        "forward_kinematics_derivatives: q, v, a or the DerivativeData do not match the model");
  const bool ff = model.has_free_flyer();
  detail::root_forward(model, data, q, ff ? Motion(v.head<3>(), v.segment<3>(3)) : Motion::Zero(),
                       ff ? Motion(a.head<3>(), a.segment<3>(3)) : Motion::Zero());
  for (int b = 1; b < model.nbodies; ++b) {
    const int j = model::Model::joint_of_body(b);
    const int k = model.idx_v(j);
    detail::joint_forward(model, data, b, q[model.idx_q(j)], v[k], a[k]);
  }
}

}  // namespace mimic::dynamics
