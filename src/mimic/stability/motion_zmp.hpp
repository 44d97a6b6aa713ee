// The ZMP of a whole-body motion at every sample, from the multibody dynamics, and its margin inside the
// support polygon.
//
// A sample's ZMP is dynamics::zmp(q, v, a) on the ground plane of that sample: the mean height of the soles
// in contact (flat ground). The velocities and accelerations are those of the SampledMotion, i.e. the
// finite differences of differentiate() (sampled_motion.hpp): second-order central differences inside, the
// neighbour's acceleration at both ends. The support polygon is the hull of the sole rectangles in contact
// (support_polygon.hpp).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::stability {

// The support of every sample of a motion.
struct SupportSequence {
  std::vector<SupportPolygon> polygons;   // hull of the soles in contact
  std::vector<double> ground_heights;     // m, mean height of the soles in contact
  std::vector<spatial::SE3> right_soles;  // sole poses (world)
  std::vector<spatial::SE3> left_soles;
};

// Supports from the sole poses of the configurations q (nq x N) and the phases (size N). `pool` (optional,
// here and below): the samples' threads, each sample writing its own entries; the results do not depend on
// it.
SupportSequence support_sequence(const model::Model& model, const Feet& feet, const Eigen::MatrixXd& q,
                                 const std::vector<model::ContactPhase>& phases,
                                 core::ThreadPool* pool = nullptr);

struct ZmpTrace {
  std::vector<spatial::Vec3> zmp;  // world; NaN where the ground would have to pull (no normal force)
  std::vector<double> margin;      // signed distance of the ZMP to the support polygon, m (positive inside)
  int worst_sample = -1;           // the sample of the smallest margin (the first one on ties)
  double worst_margin = 0.0;

  std::size_t size() const { return zmp.size(); }
};

// ZMP of each sample of (q, v, a) (columns), over `support`; the worst margin found in sample order after.
void evaluate_zmp(const model::Model& model, const SupportSequence& support, const Eigen::MatrixXd& q,
                  const Eigen::MatrixXd& v, const Eigen::MatrixXd& a, ZmpTrace& trace,
                  core::ThreadPool* pool = nullptr);

// The ZMP trace of a sampled motion (its own v and a, its phases).
ZmpTrace motion_zmp(const model::Model& model, const Feet& feet, const model::SampledMotion& motion,
                    core::ThreadPool* pool = nullptr);

}  // namespace mimic::stability
