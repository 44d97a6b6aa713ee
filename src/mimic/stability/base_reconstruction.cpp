#include "mimic/stability/base_reconstruction.hpp"

#include <cmath>
#include <stdexcept>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"

namespace mimic::stability {

using spatial::SE3;
using spatial::Vec3;

// A new support sole this close to z = 0 is on the ground (rounding of the switches, see the header).
constexpr double kGroundSnap = 1e-3;  // m

std::vector<SE3> reconstruct_base(const model::Model& model, const Feet& feet, const Eigen::MatrixXd& joints,
                                  const std::vector<Eigen::Matrix3d>* orientations, double hysteresis) {
  if (!model.has_free_flyer())
    throw ModelError(model.source_path + ": base reconstruction needs a free-flyer model");
  const Eigen::Index n = joints.cols();
  if (joints.rows() != model.nj || (orientations && std::ssize(*orientations) != n))
    throw std::invalid_argument("reconstruct_base: joints must be nj x N, with one orientation per sample");
  std::vector<SE3> base;
  base.reserve(static_cast<std::size_t>(n));
  model::Data data(model);
  SE3 anchor_world;  // world pose of the foot in support
  bool anchor_right = true;
  SE3 previous_oMb, previous_bMr, previous_bMl;  // base pose and sole placements at the previous sample
  for (Eigen::Index k = 0; k < n; ++k) {
    // Sole placements in the base frame (base at the identity).
    dynamics::forward_kinematics(model, data, model::configuration(model, SE3::Identity(), joints.col(k)));
    const SE3 bMr = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
    const SE3 bMl = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
    SE3 oMb;
    if (k == 0) {
      // Both soles flat on z = 0: the base orientation undoes the right sole's tilt; the base sits above the
      // origin at the height that puts the lower sole on the ground.
      anchor_right = bMr.p.z() <= bMl.p.z();
      const SE3& bMa = anchor_right ? bMr : bMl;
      oMb.R = orientations ? orientations->front() : Eigen::Matrix3d(bMa.R.transpose());
      oMb.p = Vec3(0.0, 0.0, -(oMb.R * bMa.p).z());
      anchor_world = oMb * bMa;
    } else {
      // Heights in the world: the soles relative to the base, turned by the previous base orientation.
      const double dz = (previous_oMb.R * (bMr.p - bMl.p)).z();
      const bool switch_to_right = !anchor_right && dz < -hysteresis;
      const bool switch_to_left = anchor_right && dz > hysteresis;
      if (switch_to_right || switch_to_left) {
        // The new support foot stays where it was at the previous sample (both feet were down then): the
        // previous base times the previous sole placement, not the current one (the base has moved since).
        // Put back on the ground if it is about there.
        anchor_right = switch_to_right;
        anchor_world = previous_oMb * (anchor_right ? previous_bMr : previous_bMl);
        if (std::abs(anchor_world.p.z()) < kGroundSnap) anchor_world.p.z() = 0.0;
      }
      const SE3& bMa = anchor_right ? bMr : bMl;
      if (orientations) {
        oMb.R = (*orientations)[static_cast<std::size_t>(k)];
        oMb.p = anchor_world.p - oMb.R * bMa.p;
      } else {
        oMb = anchor_world * bMa.inverse();
      }
    }
    previous_oMb = oMb;
    previous_bMr = bMr;
    previous_bMl = bMl;
    base.push_back(oMb);
  }
  return base;
}

}  // namespace mimic::stability
