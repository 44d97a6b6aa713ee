#include "mimic/motion/base_motion.hpp"

#include <Eigen/Geometry>

#include "mimic/spatial/explog.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::motion {

BaseMotion base_motion_from_waist(const Eigen::MatrixXd& waist, double rate) {
  const int n = static_cast<int>(waist.rows());
  BaseMotion base;
  base.q.resize(7, n);
  base.v.setZero(6, n);
  base.a.setZero(6, n);
  std::vector<Eigen::Matrix3d> rotation(n);
  for (int i = 0; i < n; ++i) {
    rotation[i] = spatial::rpy_to_rotation(waist.row(i).tail<3>().transpose());
    const Eigen::Quaterniond quaternion(rotation[i]);
    base.q.col(i) << waist.row(i).head<3>().transpose(), quaternion.x(), quaternion.y(), quaternion.z(),
        quaternion.w();
  }
  if (n < 2) return base;
  // Central differences inside, one-sided at both ends: i0 = max(i - 1, 0), i1 = min(i + 1, n - 1).
  for (int i = 0; i < n; ++i) {
    const int i0 = i > 0 ? i - 1 : 0;
    const int i1 = i < n - 1 ? i + 1 : n - 1;
    const double span = (i1 - i0) / rate;
    const Eigen::Vector3d pdot = (waist.row(i1).head<3>() - waist.row(i0).head<3>()).transpose() / span;
    base.v.col(i).head<3>() = rotation[i].transpose() * pdot;
    base.v.col(i).tail<3>() = spatial::log3(rotation[i0].transpose() * rotation[i1]) / span;
  }
  for (int i = 0; i < n; ++i) {
    const int i0 = i > 0 ? i - 1 : 0;
    const int i1 = i < n - 1 ? i + 1 : n - 1;
    base.a.col(i) = (base.v.col(i1) - base.v.col(i0)) * rate / (i1 - i0);
  }
  return base;
}

}  // namespace mimic::motion
