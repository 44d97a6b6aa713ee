// Cart-table post-processing of a whole-body motion (seed 000 section VII, after Kajita et al. 2003): keeps
// the multibody ZMP inside the support polygon with a margin by shifting the waist horizontally, with the
// feet kept where they were by the leg IK.
//
// Input and output are plain data, a SampledMotion (sampled_motion.hpp):
//   times    uniform grid (the cart-table is discretized on it), s;
//   q        nq x N: waist position (3), waist quaternion x y z w (4), the 30 joint angles in OpenHRP order;
//   phases   the feet in contact at each sample (ContactPhase);
//   v, a     ignored on input (recomputed by differentiate()); consistent with q on output.
// The retarget pipeline builds it from its per-sample configurations; the smooth pipeline has it from
// sampled_motion().
//
// Loop (iteration i):
//   1. the multibody ZMP of every sample (motion_zmp.hpp);
//   2. where it is less than `margin` inside the support polygon, its target is the nearest point
//      `margin + overshoot` inside (the overshoot makes the iteration, which approaches its target from
//      outside, end inside the margin rather than converge to it); elsewhere the ZMP change asked is 0;
//   3. the CoM correction whose cart-table ZMP is that change: the exact tridiagonal solve (the ZMP is
//      unchanged where nothing was asked);
//   4. the waist moves horizontally by the CoM correction divided by the CoM-per-waist ratio (the legs and
//      feet do not follow the waist fully; the ratio is measured once on the first sample), both legs are
//      re-solved to keep the soles at their original poses, and the loop starts again.
// The exact correction is non-causal: the CoM shift for a violation decays as exp(-|t - t_violation| / Tc)
// (Tc = sqrt(zc / g) ~ 0.29 s) on both sides, so a violation within ~1 s of an end moves the end poses a
// little (with the CoM parallel to the ZMP there, at rest if the motion is).
// It stops when every sample is at least `margin` inside, or after `max_iterations` corrections: the report
// then says so and names the worst sample. A motion already inside with the margin is returned unchanged
// (same q, bit for bit).
#pragma once

#include <string>

#include "mimic/core/progress.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/motion_zmp.hpp"

namespace mimic::stability {

struct StabilizerOptions {
  double margin = 0.02;       // m, required depth of the ZMP inside the support polygon (issue 7: 2 cm)
  double overshoot = 0.002;   // m, extra depth of the clamped target (see the loop above)
  int max_iterations = 10;    // corrections before giving up (2-4 are typical)
  double com_height = 0.0;    // zc, m; 0: the mean height of the CoM above the ground over the motion
  ProgressCallback progress;  // one event per iteration (stage "zmp"), when set
};

struct StabilizationReport {
  bool converged = false;      // every sample at least `margin` inside
  int iterations = 0;          // corrections applied
  double com_height = 0.0;     // zc used, m
  double com_per_waist = 1.0;  // horizontal CoM displacement per unit waist displacement (feet fixed)
  int initial_worst_sample = -1;
  double initial_worst_margin = 0.0;  // m, signed distance (positive inside) before any correction
  int final_worst_sample = -1;
  double final_worst_margin = 0.0;       // m, after the last correction
  int samples_outside_margin = 0;        // before any correction
  double max_waist_shift = 0.0;          // m, horizontal
  double max_foot_drift = 0.0;           // m, sole displacement after re-solving the legs (rounding only)
  double max_foot_rotation_drift = 0.0;  // rad

  std::string summary() const;  // one line, e.g. for logs
};

struct StabilizedMotion {
  model::SampledMotion motion;  // corrected q, with v and a by model::differentiate()
  ZmpTrace zmp;                 // the multibody ZMP of `motion`
  StabilizationReport report;
};

// Runs the loop. Throws InputError for a non-uniform time grid or phases of the wrong size,
// InfeasibleError when a leg cannot keep its foot after a waist shift (the sample, time and leg are
// named) or when the ground would have to pull at some sample (no ZMP: a waist shift cannot fix it).
// `pool` (optional): the samples' threads (support, ZMP, CoM height, the legs' re-solve, the feet's
// drift), each sample writing its own entries, reductions and errors taken in sample order after: the
// result does not depend on it.
StabilizedMotion stabilize_zmp(const model::Model& model, const Feet& feet,
                               const model::SampledMotion& motion, const StabilizerOptions& options = {},
                               core::ThreadPool* pool = nullptr);

}  // namespace mimic::stability
