// The .zmp file holds the ZMP in the waist (BODY) frame, as hrpsys's SequencePlayer expects (hrp2.md
// section 6): p_waist = R_waist^T (p_world - waist_position). jrl-walkgen writes (ZMP - waist position) in
// world axes instead, which agrees only while the waist does not rotate; these helpers do the rotation.
#pragma once

#include <Eigen/Core>

#include "mimic/io/sequence.hpp"

namespace mimic::io {

Eigen::Vector3d zmp_world_to_waist(const Eigen::Vector3d& zmp_world, const Eigen::Vector3d& waist_position,
                                   const Eigen::Matrix3d& waist_rotation);
Eigen::Vector3d zmp_waist_to_world(const Eigen::Vector3d& zmp_waist, const Eigen::Vector3d& waist_position,
                                   const Eigen::Matrix3d& waist_rotation);

// Whole sequences, sample by sample; `zmp_world` is samples x 3 and shares the waist's times.
// Throws std::invalid_argument when the sample counts differ.
ZmpSequence zmp_sequence_from_world(const Eigen::MatrixXd& zmp_world, const WaistSequence& waist);
Eigen::MatrixXd zmp_sequence_in_world(const ZmpSequence& zmp, const WaistSequence& waist);

}  // namespace mimic::io
