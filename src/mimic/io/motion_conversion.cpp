#include "mimic/io/motion_conversion.hpp"

#include <stdexcept>

#include "mimic/core/error.hpp"
#include "mimic/io/zmp_frame.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::io {
namespace {

WaistSequence waist_sequence(const model::Model& model, const model::SampledMotion& motion) {
  const Eigen::Index n = motion.size();
  WaistSequence waist;
  waist.times = motion.times;
  waist.position.resize(n, 3);
  waist.rpy.resize(n, 3);
  Eigen::Vector3d previous = Eigen::Vector3d::Zero();
  for (Eigen::Index k = 0; k < n; ++k) {
    const spatial::SE3 base = model::base_pose(model, motion.q.col(k));
    // The first sample takes the principal angles, every later one the equivalent nearest its predecessor.
    previous = k == 0 ? spatial::rotation_to_rpy(base.R) : spatial::rotation_to_rpy(base.R, previous);
    waist.position.row(k) = base.p.transpose();
    waist.rpy.row(k) = previous.transpose();
  }
  return waist;
}

}  // namespace

MotionFiles motion_files(const model::Model& model, const model::SampledMotion& motion,
                         const Eigen::MatrixXd& zmp_world) {
  const Eigen::Index n = motion.size();
  const bool zmp = zmp_world.rows() > 0;  // none: no X.zmp
  if (!model.has_free_flyer() || motion.q.rows() != model.nq || motion.q.cols() != n ||
      (zmp && zmp_world.rows() != n) || zmp_world.cols() != 3) {
    throw std::invalid_argument("motion_files: one free-flyer configuration and one ZMP per sample expected");
  }
  MotionFiles files;
  files.pos.times = motion.times;
  files.pos.angles = motion.q.bottomRows(model.nj).transpose();
  WaistSequence waist = waist_sequence(model, motion);
  if (zmp) files.zmp = zmp_sequence_from_world(zmp_world, waist);
  files.waist = std::move(waist);
  return files;
}

Eigen::MatrixXd joint_columns(const model::Model& model, const PosSequence& pos, const std::string& file) {
  if (pos.angles.cols() != model.nj)
    throw InputError(input_error_message(file, "",
                                         "has " + std::to_string(pos.angles.cols()) +
                                             " joint columns but the model " + model.source_path + " has " +
                                             std::to_string(model.nj) + " joints"));
  return pos.angles.transpose();
}

std::vector<spatial::SE3> base_poses(const WaistSequence& waist) {
  std::vector<spatial::SE3> poses;
  poses.reserve(static_cast<std::size_t>(waist.size()));
  for (Eigen::Index k = 0; k < waist.size(); ++k) {
    poses.emplace_back(spatial::rpy_to_rotation(waist.rpy.row(k).transpose()),
                       waist.position.row(k).transpose());
  }
  return poses;
}

std::vector<Eigen::Matrix3d> base_orientations(const HipSequence& hip) {
  std::vector<Eigen::Matrix3d> orientations;
  orientations.reserve(static_cast<std::size_t>(hip.size()));
  for (Eigen::Index k = 0; k < hip.size(); ++k)
    orientations.push_back(spatial::rpy_to_rotation(hip.rpy.row(k).transpose()));
  return orientations;
}

}  // namespace mimic::io
