// Time series of vectors as the retargeting hands them on: one row per sample, one column per coordinate
// (joint angle, position component, ...). Row-major so that a sample is contiguous.
#pragma once

#include <Eigen/Core>

namespace mimic::retarget {

using SampleMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace mimic::retarget
