// Roll-pitch-yaw angles as hrpsys uses them in .waist and .hip files: R = Rz(yaw) Ry(pitch) Rx(roll),
// i.e. roll about the world x axis first, then pitch about world y, then yaw about world z.
#pragma once

#include <Eigen/Core>

namespace mimic::spatial {

Eigen::Matrix3d rpy_to_rotation(const Eigen::Vector3d& rpy);

// Angles of a rotation matrix: pitch in [-pi/2, pi/2], roll and yaw in [-pi, pi]. At pitch = +-pi/2
// (gimbal lock) only roll - yaw (or roll + yaw) is defined; yaw is then taken from the first column so
// that rpy_to_rotation(rotation_to_rpy(R)) == R everywhere.
Eigen::Vector3d rotation_to_rpy(const Eigen::Matrix3d& rotation);

// The same rotation with each angle shifted by a multiple of 2 pi to lie nearest `near` (typically the
// previous sample), so that a sequence stays continuous across +-pi.
Eigen::Vector3d rotation_to_rpy(const Eigen::Matrix3d& rotation, const Eigen::Vector3d& near);

// Makes every column of `angles` (one sample per row) continuous: each step is moved into [-pi, pi] by
// adding multiples of 2 pi to that sample and all later ones. hrpsys interpolates each angle linearly,
// so a yaw going from pi - e to -pi + e would otherwise turn the robot the long way round.
void unwrap_angles(Eigen::Ref<Eigen::MatrixXd> angles);

}  // namespace mimic::spatial
