#include "mimic/stability/waist_sequence.hpp"

#include <stdexcept>

#include "mimic/io/rpy.hpp"
#include "mimic/model/configuration.hpp"

namespace mimic::stability {

io::WaistSequence waist_sequence(const model::Model& model, const std::vector<double>& times,
                                 const Eigen::MatrixXd& q) {
  const auto n = static_cast<Eigen::Index>(times.size());
  if (!model.has_free_flyer() || q.rows() != model.nq || q.cols() != n)
    throw std::invalid_argument("waist_sequence: one free-flyer configuration per sample expected");
  io::WaistSequence waist;
  waist.times = times;
  waist.position.resize(n, 3);
  waist.rpy.resize(n, 3);
  Eigen::Vector3d previous = Eigen::Vector3d::Zero();
  for (Eigen::Index k = 0; k < n; ++k) {
    const spatial::SE3 base = model::base_placement(model, q.col(k));
    // The first sample takes the principal angles, every later one the equivalent nearest its predecessor.
    previous = k == 0 ? io::rotation_to_rpy(base.R) : io::rotation_to_rpy(base.R, previous);
    waist.position.row(k) = base.p.transpose();
    waist.rpy.row(k) = previous.transpose();
  }
  return waist;
}

}  // namespace mimic::stability
