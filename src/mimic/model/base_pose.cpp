#include "mimic/model/base_pose.hpp"

namespace mimic::model {

spatial::Quat base_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q) {
  return spatial::Quat(q[6], q[3], q[4], q[5]);
}

spatial::SE3 base_pose(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q) {
  if (!model.has_free_flyer()) return spatial::SE3::Identity();
  return spatial::SE3(base_quaternion(q).normalized().toRotationMatrix(), q.head<3>());
}

void set_base_pose(const Model& model, Eigen::Ref<Eigen::VectorXd> q, const spatial::SE3& oMb) {
  if (!model.has_free_flyer()) return;
  spatial::Quat quat(oMb.R);
  quat.normalize();
  q.head<3>() = oMb.p;
  q.segment<4>(3) << quat.x(), quat.y(), quat.z(), quat.w();
}

Eigen::VectorXd configuration(const Model& model, const spatial::SE3& oMb,
                              const Eigen::Ref<const Eigen::VectorXd>& joints) {
  Eigen::VectorXd q(model.nq);
  set_base_pose(model, q, oMb);
  q.tail(model.nj) = joints;
  return q;
}

}  // namespace mimic::model
