// The spine of every pipeline: a whole-body motion sampled in time, as the dynamics sees it.
// Configurations q hold the free-flyer base and the joints in model order (model.hpp; base_pose.hpp
// reads and writes the base); v and a come from differentiate() so that every stage derives them the
// same way; each sample has its contact phase. File formats (roll-pitch-yaw, OpenHRP columns) are
// converted at the io boundary, never stored here.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"

namespace mimic::model {

struct SampledMotion {
  std::vector<double> times;         // s, strictly increasing
  Eigen::MatrixXd q;                 // nq x N, one configuration per column
  Eigen::MatrixXd v;                 // nv x N (base twist in the base frame, as the model's contract)
  Eigen::MatrixXd a;                 // nv x N
  std::vector<ContactPhase> phases;  // N
  bool base_reconstructed = false;   // true when no .waist was given (base rebuilt from the support foot)

  Eigen::Index size() const { return static_cast<Eigen::Index>(times.size()); }
};

// Finite-difference velocities and accelerations of q on its (possibly non-uniform) time grid: second-order
// central differences inside, first-order one-sided at both ends, all in the tangent space at sample k
// (model::difference), so that the base part is a body twist as the contract says.
void differentiate(const Model& model, const std::vector<double>& times, const Eigen::MatrixXd& q,
                   Eigen::MatrixXd& v, Eigen::MatrixXd& a);
// Fills motion.v and motion.a from motion.times and motion.q.
void differentiate(const Model& model, SampledMotion& motion);

// Throws std::invalid_argument naming the first inconsistency: times not finite or not strictly
// increasing, q not nq x N, v or a not nv x N, phases not N long. A stage calls it on a motion it did not
// build itself, so that a wrong shape fails with a message instead of an Eigen assertion later.
void validate(const Model& model, const SampledMotion& motion);

// True when the time steps are all equal to within `relative_tolerance` of the mean step (also for fewer
// than three samples). Spline fits and rate-based file writers need a uniform grid.
bool is_uniform(const std::vector<double>& times, double relative_tolerance = 1e-9);

}  // namespace mimic::model
