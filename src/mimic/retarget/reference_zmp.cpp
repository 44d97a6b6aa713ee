#include "mimic/retarget/reference_zmp.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <stdexcept>

#include "mimic/dynamics/com.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::retarget {

namespace {

// Free-flyer configuration of sample m: waist pose (x y z roll pitch yaw) and joint angles.
Eigen::VectorXd configuration(const model::Model& model, const ReferenceMotion& ref, Eigen::Index m) {
  const spatial::SE3 waist(spatial::rpy_to_rotation(ref.waist.row(m).tail<3>().transpose()),
                           ref.waist.row(m).head<3>().transpose());
  return model::configuration(model, waist, ref.joints.row(m).transpose());
}

}  // namespace

SampleMatrix reference_zmp(const model::Model& model, const ReferenceMotion& ref, int* fallback_samples) {
  if (!model.has_free_flyer())
    throw std::invalid_argument("reference_zmp: the model needs a free-flyer base");
  if (ref.waist.rows() != ref.joints.rows() || ref.joints.cols() != model.nj || ref.waist.cols() != 6) {
    throw std::invalid_argument("reference_zmp: joints and waist samples do not match the model");
  }
  const Eigen::Index n = ref.joints.rows();
  SampleMatrix zmp(n, 3);
  if (fallback_samples) *fallback_samples = 0;
  if (n == 0) return zmp;
  model::Data data(model);
  const double dt = 1.0 / ref.rate;
  auto q_at = [&](Eigen::Index m) {
    return configuration(model, ref, std::clamp<Eigen::Index>(m, 0, n - 1));
  };
  Eigen::VectorXd q_prev = q_at(-1), q = q_at(0), q_next;
  Eigen::VectorXd back(model.nv), forward(model.nv), v(model.nv), a(model.nv);
  for (Eigen::Index m = 0; m < n; ++m) {
    q_next = q_at(m + 1);
    model::difference(model, q_prev, q, back);
    model::difference(model, q, q_next, forward);
    v = (back + forward) / (2.0 * dt);
    a = (forward - back) / (dt * dt);
    if (const auto p = dynamics::zmp(model, data, q, v, a, 0.0)) {
      zmp.row(m) = p->transpose();
    } else {
      const Eigen::Vector3d com = dynamics::center_of_mass(model, data, q);
      zmp.row(m) << com.x(), com.y(), 0.0;
      if (fallback_samples) ++*fallback_samples;
    }
    q_prev = q;
    q = q_next;
  }
  return zmp;
}

}  // namespace mimic::retarget
