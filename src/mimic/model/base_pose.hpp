// The base (waist) pose stored in a configuration q: the one place that knows the free-flyer layout
// [position (3); quaternion x y z w (4)] (model.hpp), so that no stage writes or reads it by hand.
// Roll-pitch-yaw rows exist only at the file boundary (io/, with the angle math of spatial/rpy.hpp);
// inside the program a base pose is an SE3.
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::model {

// The base quaternion of a free-flyer q as stored (not normalised). Eigen's Quaternion constructor takes
// (w, x, y, z) while q stores x y z w: this is the reason for having one function.
spatial::Quat base_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q);

// The base pose oMb encoded in q, with the quaternion normalised (identity for a fixed base).
spatial::SE3 base_pose(const Model& model, const Eigen::Ref<const Eigen::VectorXd>& q);

// Writes oMb into the base part of q (the joints are left alone), with a unit quaternion. A fixed-base
// model has no base coordinates: q is left unchanged.
void set_base_pose(const Model& model, Eigen::Ref<Eigen::VectorXd> q, const spatial::SE3& oMb);

// A whole configuration from a base pose and the joint values (size model.nj).
Eigen::VectorXd configuration(const Model& model, const spatial::SE3& oMb,
                              const Eigen::Ref<const Eigen::VectorXd>& joints);

}  // namespace mimic::model
