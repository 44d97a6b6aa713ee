// The one conversion between the spine model::SampledMotion and the hrpsys files of a motion
// (motion_files.hpp): joints in .pos columns, the base as x y z roll pitch yaw rows of .waist / .hip, the
// ZMP in the waist frame of .zmp. Only a conversion: filling in what the files lack (a base rebuilt from
// the support foot, detected support phases) is an algorithm of `stability`, which pipeline/read_motion
// calls with the pieces read here.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/io/motion_files.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::io {

// Motion -> files: X.pos holds the model's joints of every sample (the model's joint order is the column
// order), X.waist the base pose as x y z roll pitch yaw, the angles unwrapped from one sample to the next
// (the first sample takes the principal angles) so that a yaw turning past pi stays continuous, and X.zmp
// `zmp_world` (samples x 3, world, m) in the waist frame of that .waist; no X.zmp when `zmp_world` has no
// rows (a motion without a ZMP, such as a reference at the clip's timing). Throws std::invalid_argument when
// the model has no free-flyer base or the sizes disagree.
MotionFiles motion_files(const model::Model& model, const model::SampledMotion& motion,
                         const Eigen::MatrixXd& zmp_world);

// Files -> motion. The joint angles of X.pos as nj x N columns; InputError naming `file` when the file's
// joint count is not the model's.
Eigen::MatrixXd joint_columns(const model::Model& model, const PosSequence& pos, const std::string& file);
// The base poses of X.waist, one per sample.
std::vector<spatial::SE3> base_poses(const WaistSequence& waist);
// The base orientations of X.hip, one per sample.
std::vector<Eigen::Matrix3d> base_orientations(const HipSequence& hip);

}  // namespace mimic::io
