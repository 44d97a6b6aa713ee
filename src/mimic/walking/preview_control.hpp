// ZMP tracking by preview control of the cart-table (Kajita et al., ICRA 2003, section III, after Katayama
// et al. 1985). Kajita's law for the jerk of the cart at sample k is (eq. (6))
//     u(k) = -Gi sum_{i<=k} e(i) - Gx X(k) - sum_{j=1..NL} Gp(j) p_ref(k + j),   e(i) = p(i) - p_ref(i),
// the optimal control of  J = sum Qe e(i)^2 + R du(i)^2  (eq. (5) with Qx = 0) for the incremental system
// augmented with the tracking error. The gains come from the discrete algebraic Riccati equation of that
// 4-state system (structure-preserving doubling, then Newton steps: the closed loop has a nearly defective
// double pole at exp(-dt / Tc), which limits doubling alone to ~1e-7).
//
// The gains of an infinite preview sum to -Gx1 (a cart resting on a constant reference is an equilibrium);
// eq. (6) truncates them at NL and so depends on the world origin: the missing weight (~0.4 % with 1.6 s)
// kicks a cart resting on a reference 0.07 m away from the origin (measured: 9 mm of ZMP error), and a
// walk far from the origin carries a bias the integral must absorb. Here the missing weight
// G_tail = -Gx1 - sum_{j<=NL} Gp(j) is applied to the current reference p_ref(k), which makes the law
// invariant to translations. (Applying it to p_ref(k + NL), the held last value, is as invariant but kicks
// the cart each time a footstep enters the window: 13 mm of ZMP error measured for a 0.1 m step.)
//
// The walking pattern generator streams its ZMP reference through a PreviewTracker per horizontal axis;
// track() runs a whole known sequence.
#pragma once

#include <Eigen/Core>
#include <span>

#include "mimic/stability/cart_table.hpp"

namespace mimic::walking {

struct PreviewControlOptions {
  stability::CartTable cart;  // zc (CoM height), g, dt = 5 ms
  double preview_time = 1.6;  // s; NL = preview_time / dt samples (Kajita 2003 section III-C: 1.6 s)
  double error_weight = 1.0;  // Qe (Kajita 2003: Q = 1)
  double jerk_weight = 1e-6;  // R on the jerk increment (Kajita 2003: R = 1e-6)
};

struct PreviewGains {
  double integral = 0.0;                                  // Gi
  Eigen::RowVector3d state = Eigen::RowVector3d::Zero();  // Gx
  Eigen::VectorXd preview;                                // Gp(1..NL), preview(j - 1) = Gp(j)
  double preview_tail = 0.0;                              // G_tail = -Gx1 - sum Gp, on p_ref(k)
  Eigen::Matrix4d riccati = Eigen::Matrix4d::Zero();      // P, solution of the DARE (for diagnostics)
};

class PreviewController {
 public:
  // Computes the gains. Throws std::invalid_argument for non-positive parameters and InfeasibleError if the
  // Riccati iteration does not converge.
  explicit PreviewController(const PreviewControlOptions& options);

  const PreviewControlOptions& options() const { return options_; }
  const stability::CartTable& cart() const { return options_.cart; }
  const PreviewGains& gains() const { return gains_; }
  int preview_samples() const { return static_cast<int>(gains_.preview.size()); }

  // Relative residual of the Riccati equation at the computed P (a check of the solve).
  double riccati_residual() const;

  // Tracks the whole reference: com[k] = X(k) for k = 0..N-1, com[0] = initial. The reference is held at its
  // last value after the end. `com` must have the size of `zmp_reference`.
  void track(std::span<const double> zmp_reference, const stability::CartState& initial,
             std::span<stability::CartState> com) const;

 private:
  PreviewControlOptions options_;
  PreviewGains gains_;
  Eigen::Matrix3d a_;
  Eigen::Vector3d b_;
  Eigen::RowVector3d c_;

  // sum_{j=1..NL} Gp(j) p_ref(k + j) for future = p_ref(k + 1), ..., extended by its last value.
  double preview_term(std::span<const double> future) const;

  friend class PreviewTracker;
};

// Streaming use of a PreviewController along one axis: one step() per control period.
class PreviewTracker {
 public:
  PreviewTracker(const PreviewController& controller, const stability::CartState& initial);

  // Advances from sample k to k + 1. `window` = p_ref(k), p_ref(k + 1), ..., at least one value; values
  // beyond its end are taken equal to its last one. Returns X(k + 1).
  const stability::CartState& step(std::span<const double> window);

  const stability::CartState& state() const { return state_; }
  double zmp() const { return controller_->cart().zmp(state_); }

 private:
  const PreviewController* controller_;
  stability::CartState state_;
  double error_sum_ = 0.0;
};

}  // namespace mimic::walking
