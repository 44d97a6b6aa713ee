// Penalised least-squares smoothing of uniformly sampled signals (a discrete smoothing spline, Whittaker's
// smoother with a second-difference penalty): the samples' high-frequency noise removed, their slow motion
// kept. The whole-body retarget (pipeline/whole_body_retarget.hpp) fits the per-frame IK's upper-body
// joints with it before the walking pattern carries them: their frame-to-frame noise is an acceleration
// the legs and the waist cannot cancel (Qualisys: the chest yaw accelerated at up to 598 rad/s^2).
//
// For samples y_k every `period` h seconds, each column of `samples` is replaced by the x minimising
//
//   h sum_k (x_k - y_k)^2 + mu h sum_{k=1}^{n-2} ((x_{k-1} - 2 x_k + x_{k+1}) / h^2)^2,
//
// the least squares plus mu times the integral of the squared acceleration. Away from the ends a sinusoid
// of angular frequency w passes with the gain 1 / (1 + mu d(w)^2), d(w) = (2 - 2 cos(w h)) / h^2 (-> w^2
// for w h << 1): mu = (2 pi f_c)^-4 halves the amplitude at the cutoff f_c (smoothing_gain), keeps 94 % at
// f_c / 2 and 99.6 % at f_c / 4. Straight lines pass unchanged (no acceleration to penalise), so a
// constant or a ramp is reproduced exactly. The normal matrix I + (mu / h^4) D^T D is pentadiagonal and
// positive definite; one factorisation serves every column.
#pragma once

#include <Eigen/Core>

namespace mimic::trajectory {

// The smoothed samples (rows = samples, one column per signal); `period` > 0 s, `cutoff` > 0 Hz. Fewer
// than three samples are returned unchanged (nothing to penalise). Throws std::invalid_argument for a
// period or cutoff that is not positive and finite.
Eigen::MatrixXd smooth_samples(const Eigen::MatrixXd& samples, double period, double cutoff);

// The same with every column j kept within [lower[j], upper[j]] (infinite bounds allowed): where the fit
// leaves a bound, those samples are held at it by stiff springs (weight 1e8 against the residuals') and
// the column fitted again, until no sample leaves; the fit bends onto the bound with a bounded
// acceleration instead of being cut off there with a velocity jump. The springs' last 1e-8 is clamped.
Eigen::MatrixXd smooth_samples_within(const Eigen::MatrixXd& samples, double period, double cutoff,
                                      const Eigen::VectorXd& lower, const Eigen::VectorXd& upper);

// The gain of smooth_samples away from the ends on a sinusoid of `frequency` Hz sampled every `period` s.
double smoothing_gain(double frequency, double period, double cutoff);

}  // namespace mimic::trajectory
