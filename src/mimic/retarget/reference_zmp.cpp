#include "mimic/retarget/reference_zmp.hpp"

#include <stdexcept>

#include "mimic/dynamics/com.hpp"

namespace mimic::retarget {

Eigen::MatrixXd reference_zmp(const model::Model& model, const ReferenceMotion& ref, int* fallback_samples) {
  if (!model.has_free_flyer())
    throw std::invalid_argument("reference_zmp: the model needs a free-flyer base");
  const model::SampledMotion& motion = ref.motion;
  model::validate(model, motion);
  const Eigen::Index n = motion.size();
  Eigen::MatrixXd zmp(3, n);
  if (fallback_samples) *fallback_samples = 0;
  model::Data data(model);
  for (Eigen::Index m = 0; m < n; ++m) {
    if (const auto p = dynamics::zmp(model, data, motion.q.col(m), motion.v.col(m), motion.a.col(m), 0.0)) {
      zmp.col(m) = *p;
    } else {
      const Eigen::Vector3d com = dynamics::center_of_mass(model, data, motion.q.col(m));
      zmp.col(m) << com.x(), com.y(), 0.0;
      if (fallback_samples) ++*fallback_samples;
    }
  }
  return zmp;
}

}  // namespace mimic::retarget
