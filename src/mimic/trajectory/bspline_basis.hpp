// Quartic B-spline basis on a clamped uniform knot vector (seed 000 section VI, eqs. (21)-(23)).
//
// A quartic spline is C^3 at simple knots, so q, qdot and qddot are continuous (the paper's two
// requirements on the shape functions) and the torque, which depends on qddot, is continuous too. At any t
// only kOrder = 5 basis functions are non-zero; everything downstream (trajectory evaluation, sampled
// bases, Jacobians) works with that window of 5 so that the optimisation problem stays banded.
#pragma once

#include <array>
#include <vector>

namespace mimic::trajectory {

inline constexpr int kDegree = 4;           // quartic
inline constexpr int kOrder = kDegree + 1;  // non-zero basis functions at any t
inline constexpr int kMaxDerivative = 2;    // values, first and second derivatives

// Default knot spacing, 0.1 s. Why: bandwidth against variables. Measured with fit_spline on 200 Hz
// samples, a 0.1 s quartic spline reproduces a unit sine to 2e-5 at 1 Hz, 1.3e-3 at 2 Hz and 1.6e-2 at
// 3 Hz (15% at 4 Hz). Human joint motion has little power above a few Hz (gait kinematics are usually
// low-pass filtered at ~6 Hz, Winter, "Biomechanics and motor control of human movement"), the motion
// is slowed down by seed 000's Algorithm 1 before fitting, and HRP-2 could not follow more: a 0.3 rad
// swing at 3 Hz already needs 5.7 rad/s. Meanwhile a 10 s clip of 30 joints costs only 30 x 104 control
// points, and halving the spacing would double the variables and the cost of every solver iteration.
inline constexpr double kDefaultKnotSpacing = 0.1;

// The kOrder non-zero basis functions at one time: B_{first + k}(t) and their derivatives for
// k = 0..kOrder-1. derivative[d][k] is the d-th time derivative of B_{first+k} at t.
struct BasisWindow {
  int first = 0;
  std::array<std::array<double, kOrder>, kMaxDerivative + 1> derivative{};

  const std::array<double, kOrder>& value() const { return derivative[0]; }
  const std::array<double, kOrder>& first_derivative() const { return derivative[1]; }
  const std::array<double, kOrder>& second_derivative() const { return derivative[2]; }
};

// Clamped uniform quartic B-spline basis on [t0, tf]: kOrder copies of t0 and of tf, and the interior
// knots evenly spaced. The spacing is the largest value <= max_knot_spacing that divides tf - t0 into a
// whole number of intervals, so the knots are exactly uniform and land on t0 and tf.
class QuarticBspline {
 public:
  // Throws std::invalid_argument unless tf > t0, max_knot_spacing > 0 and there are at least two
  // intervals (so that the three control points pinned at each end do not overlap).
  QuarticBspline(double t0, double tf, double max_knot_spacing = kDefaultKnotSpacing);

  double t0() const { return t0_; }
  double tf() const { return tf_; }
  double duration() const { return tf_ - t0_; }
  double knot_spacing() const { return spacing_; }
  int num_intervals() const { return intervals_; }
  // Number of basis functions = number of control points = intervals + degree.
  int num_control_points() const { return intervals_ + kDegree; }
  const std::vector<double>& knots() const { return knots_; }

  // The non-zero basis functions at t and their first and second derivatives (Piegl & Tiller,
  // "The NURBS Book", algorithm A2.3). t may exceed [t0, tf] by a rounding error (1e-9 of the
  // duration), and is then clamped; beyond that throws std::out_of_range. Does not allocate.
  BasisWindow evaluate(double t) const;

 private:
  double t0_;
  double tf_;
  double spacing_;
  int intervals_;
  std::vector<double> knots_;
};

}  // namespace mimic::trajectory
