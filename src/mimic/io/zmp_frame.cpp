#include "mimic/io/zmp_frame.hpp"

#include <stdexcept>
#include <string>

#include "mimic/spatial/rpy.hpp"

namespace mimic::io {
namespace {

void check_same_length(Eigen::Index zmp_samples, const WaistSequence& waist) {
  if (zmp_samples != waist.size() || waist.position.rows() != waist.size() ||
      waist.rpy.rows() != waist.size()) {
    throw std::invalid_argument("ZMP frame conversion: " + std::to_string(zmp_samples) + " ZMP samples but " +
                                std::to_string(waist.size()) + " waist samples");
  }
}

}  // namespace

Eigen::Vector3d zmp_world_to_waist(const Eigen::Vector3d& zmp_world, const Eigen::Vector3d& waist_position,
                                   const Eigen::Matrix3d& waist_rotation) {
  return waist_rotation.transpose() * (zmp_world - waist_position);
}

Eigen::Vector3d zmp_waist_to_world(const Eigen::Vector3d& zmp_waist, const Eigen::Vector3d& waist_position,
                                   const Eigen::Matrix3d& waist_rotation) {
  return waist_position + waist_rotation * zmp_waist;
}

ZmpSequence zmp_sequence_from_world(const Eigen::MatrixXd& zmp_world, const WaistSequence& waist) {
  check_same_length(zmp_world.rows(), waist);
  ZmpSequence zmp{waist.times, Eigen::MatrixXd(zmp_world.rows(), 3)};
  for (Eigen::Index k = 0; k < zmp_world.rows(); ++k) {
    zmp.zmp.row(k) = zmp_world_to_waist(zmp_world.row(k).transpose(), waist.position.row(k).transpose(),
                                        spatial::rpy_to_rotation(waist.rpy.row(k).transpose()))
                         .transpose();
  }
  return zmp;
}

Eigen::MatrixXd zmp_sequence_in_world(const ZmpSequence& zmp, const WaistSequence& waist) {
  check_same_length(zmp.zmp.rows(), waist);
  Eigen::MatrixXd world(zmp.zmp.rows(), 3);
  for (Eigen::Index k = 0; k < zmp.zmp.rows(); ++k) {
    world.row(k) = zmp_waist_to_world(zmp.zmp.row(k).transpose(), waist.position.row(k).transpose(),
                                      spatial::rpy_to_rotation(waist.rpy.row(k).transpose()))
                       .transpose();
  }
  return world;
}

}  // namespace mimic::io
