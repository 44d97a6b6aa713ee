#include "mimic/optim/alm_subproblem.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "mimic/optim/sparse.hpp"

namespace mimic::optim::detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Safeguard on multipliers (ALGENCAN's): keeps them finite on infeasible problems.
constexpr double kMaxMultiplier = 1e20;
// Initial Levenberg-Marquardt damping relative to the largest diagonal entry of the normal matrix
// (Nielsen's tau for a reasonable starting point).
constexpr double kInitialDamping = 1e-4;
// A step is accepted when it achieves this fraction of the decrease the model predicts.
constexpr double kMinStepQuality = 1e-4;
// The damping's floor relative to the same entry. Nielsen's update lowers the damping by up to 3 per good
// step; without a floor the whole-body walk's smoothing ran its late steps (penalty 1e6) at 1e-15 of it,
// where the damping no longer bounds the directions the normal matrix hardly determines: steps along them
// were rejected or bought little (13 steps in one inner solve where 1 does with a floor). With 1e-12: the
// same result (objective 50509.6, integral 100971), 131 -> 88 evaluations, over every draw of the first
// penalty (BM_RetargetWholeBodyWalkDraws); the G1 walk's smoothing 134 -> 114, the JVRC-1 one's, the bar
// walk's and the torque objective's evaluations as before. 1e-10 saved the whole-body walk more (73) but
// cost the G1 walk 184; 1e-11 cost the JVRC-1 walk 118 -> 206.
constexpr double kMinDamping = 1e-12;
constexpr int kMaxDampingIncreases = 40;
// Relative size of rounding errors in L~ (a few ulps of its value).
constexpr double kRounding = 1e-14;
// Active-set iterations on the model per step; they stop earlier as soon as the active set repeats.
constexpr int kMaxActiveSetIterations = 10;
// ... or as soon as one improves the damped model by less than this fraction of its total decrease.
constexpr double kActiveSetGain = 1e-2;
// The truncated Newton step's conjugate gradients stop once the preconditioned residual fell by this
// factor (an inexact Newton forcing term: the outer ratio test, not this, guards the step).
constexpr double kNewtonTolerance = 1e-2;
// Bound on the residual block's scale (set_residual_sizing): a secant quotient beyond it comes from a step
// across a kink or a far nonlinearity, not from the curvature near x.
constexpr double kMaxResidualScale = 100.0;
// Safety factor on the screening bound |J_g,i d| <= |J_g,i|_1 |d|_inf (track_rows): covers the rounding of
// the products the bound stands for, which is some 1e-16 of |J_g,i|_1 |d|_inf per entry of the row.
constexpr double kScreeningMargin = 1.01;

double squared_positive_part(double v) { return v > 0.0 ? v * v : 0.0; }

}  // namespace

AlmSubproblem::AlmSubproblem(Problem& problem, core::ThreadPool* pool, bool residual_curvature)
    : problem_(problem),
      pool_(pool),
      n_(problem.num_variables()),
      current_(make_evaluation(problem)),
      trial_(current_),  // a copy: the patterns are built once
      shape_(current_) {
  problem_.variable_bounds(lower_, upper_);
  if (lower_.size() != n_ || upper_.size() != n_)
    throw std::logic_error("Problem::variable_bounds: wrong size");
  for (int i = 0; i < n_; ++i) {
    if (std::isfinite(lower_[i])) lower_index_.push_back(i);
    if (std::isfinite(upper_[i])) upper_index_.push_back(i);
  }
  lower_active_.assign(lower_index_.size(), 0);
  upper_active_.assign(upper_index_.size(), 0);
  if (problem_.has_objective_hessian()) {
    objective_hessian_ = problem_.objective_hessian_pattern();
    objective_hessian_.makeCompressed();
    model_hessian_ = &objective_hessian_;
  } else if (residual_curvature && problem_.has_residual_curvature()) {
    objective_hessian_ = problem_.residual_curvature_pattern();
    objective_hessian_.makeCompressed();
    model_hessian_ = &objective_hessian_;
    curvature_term_ = true;
  }
  const std::array<const SparseMatrix*, 3> blocks = {&current_.residual_jacobian, &current_.equality_jacobian,
                                                     &current_.inequality_jacobian};
  normal_.emplace(blocks, model_hessian_);
  normal_->set_thread_pool(pool);
  solver_.analyze(normal_->matrix(), pool);

  const int nr = problem_.num_residuals();
  const int ne = problem_.num_equalities();
  const int ni = problem_.num_inequalities();
  multipliers_.equality.setZero(ne);
  multipliers_.inequality.setZero(ni);
  multipliers_.lower_bound.setZero(n_);
  multipliers_.upper_bound.setZero(n_);
  ones_r_.setOnes(nr);
  zeros_r_.setZero(nr);
  sigma_h_.setZero(ne);
  zeros_h_.setZero(ne);
  weight_g_.setZero(ni);
  zeros_g_.setZero(ni);
}

void AlmSubproblem::set_newton_iterations(int iterations) {
  if (iterations < 0) throw std::invalid_argument("AlmSubproblem: negative Newton iterations");
  newton_iterations_ = iterations;
  if (iterations > 0 && !curvature_) curvature_.emplace(problem_);
}

void AlmSubproblem::set_residual_curvature_refresh(int steps) {
  if (steps < 1) throw std::invalid_argument("AlmSubproblem: the curvature refresh must be >= 1 step");
  curvature_refresh_ = steps;
}

void AlmSubproblem::evaluate(const Eigen::VectorXd& x, Evaluation& e) {
  problem_.evaluate(x, true, e);
  ++evaluations_;
  shape_.check(e);
}

bool AlmSubproblem::finite(const Evaluation& e) {
  return std::isfinite(e.objective_term) && e.residuals.allFinite() && e.equalities.allFinite() &&
         e.inequalities.allFinite();
}

bool AlmSubproblem::start(const Eigen::VectorXd& x0) {
  x_ = x0;
  damping_ = -1.0;
  objective_gradient_current_ = gradient_current_ = kkt_gradients_ = false;
  evaluate(x_, current_);
  return finite(current_);
}

double AlmSubproblem::merit(const Eigen::VectorXd& x, const Evaluation& e) const {
  double phi =
      e.objective() + multipliers_.equality.dot(e.equalities) + 0.5 * sigma_ * e.equalities.squaredNorm();
  // lambda psi + sigma/2 psi^2 with psi = max(c, -lambda / sigma), written without psi.
  auto term = [&](double lambda, double c) {
    const double shifted = std::max(0.0, lambda + sigma_ * c);
    return (shifted * shifted - lambda * lambda) / (2.0 * sigma_);
  };
  for (int i = 0; i < e.inequalities.size(); ++i) phi += term(multipliers_.inequality[i], e.inequalities[i]);
  for (int i : lower_index_) phi += term(multipliers_.lower_bound[i], lower_[i] - x[i]);
  for (int i : upper_index_) phi += term(multipliers_.upper_bound[i], x[i] - upper_[i]);
  return phi;
}

void AlmSubproblem::merit_gradient(const Eigen::VectorXd& x, const Evaluation& e, Eigen::VectorXd& gradient,
                                   Eigen::VectorXd& objective_gradient) {
  objective_gradient = e.objective_gradient;
  objective_gradient.noalias() += e.residual_jacobian.transpose() * e.residuals;
  constraint_gradient(x, e, objective_gradient, gradient);
}

void AlmSubproblem::constraint_gradient(const Eigen::VectorXd& x, const Evaluation& e,
                                        const Eigen::VectorXd& objective_gradient,
                                        Eigen::VectorXd& gradient) {
  // Eq. (14).
  gradient = objective_gradient;
  if (e.equalities.size() > 0) {
    gradient.noalias() += e.equality_jacobian.transpose() * (multipliers_.equality + sigma_ * e.equalities);
  }
  if (e.inequalities.size() > 0) {
    // Only the active rows (max(0, ..) > 0) contribute: the product runs over them alone.
    inequality_factors_ = (multipliers_.inequality + sigma_ * e.inequalities).cwiseMax(0.0);
    add_transposed_product(e.inequality_jacobian, inequality_factors_, gradient);
  }
  for (int i : lower_index_)
    gradient[i] -= std::max(0.0, multipliers_.lower_bound[i] + sigma_ * (lower_[i] - x[i]));
  for (int i : upper_index_)
    gradient[i] += std::max(0.0, multipliers_.upper_bound[i] + sigma_ * (x[i] - upper_[i]));
}

double AlmSubproblem::relative_stationarity(const Eigen::VectorXd& gradient,
                                            const Eigen::VectorXd& objective_gradient) {
  const double scale =
      std::max(1.0, objective_gradient.size() ? objective_gradient.cwiseAbs().maxCoeff() : 0.0);
  return (gradient.size() ? gradient.cwiseAbs().maxCoeff() : 0.0) / scale;
}

double AlmSubproblem::max_violation() const {
  double v = 0.0;
  const Evaluation& e = current_;
  if (e.equalities.size() > 0) v = std::max(v, e.equalities.cwiseAbs().maxCoeff());
  if (e.inequalities.size() > 0) v = std::max(v, e.inequalities.maxCoeff());
  for (int i : lower_index_) v = std::max(v, lower_[i] - x_[i]);
  for (int i : upper_index_) v = std::max(v, x_[i] - upper_[i]);
  return v;
}

double AlmSubproblem::squared_violation() const {
  double c2 = current_.equalities.squaredNorm() + current_.inequalities.cwiseMax(0.0).squaredNorm();
  for (int i : lower_index_) c2 += squared_positive_part(lower_[i] - x_[i]);
  for (int i : upper_index_) c2 += squared_positive_part(x_[i] - upper_[i]);
  return c2;
}

void AlmSubproblem::set_multipliers(const Multipliers& m) {
  if (m.equality.size() != multipliers_.equality.size() ||
      m.inequality.size() != multipliers_.inequality.size() || m.lower_bound.size() != n_ ||
      m.upper_bound.size() != n_) {
    throw std::invalid_argument("AlmSubproblem::set_multipliers: sizes differ from the problem's");
  }
  if ((m.inequality.size() > 0 && m.inequality.minCoeff() < 0.0) ||
      (n_ > 0 && (m.lower_bound.minCoeff() < 0.0 || m.upper_bound.minCoeff() < 0.0))) {
    throw std::invalid_argument("AlmSubproblem::set_multipliers: negative inequality or bound multiplier");
  }
  multipliers_ = m;
  gradient_current_ = kkt_gradients_ = false;
}

void AlmSubproblem::update_multipliers() {
  // Eq. (15); for inequalities lambda + sigma psi = max(0, lambda + sigma g).
  const Evaluation& e = current_;
  // The merit gradient at x_ with the multipliers before the update is then the Lagrangian's gradient with
  // the updated ones, term for term and in the same order (eq. (14) against kkt.cpp), unless a multiplier is
  // clipped at kMaxMultiplier or a bound multiplier of an infinite bound is non-zero (a warm start's).
  kkt_gradients_ = gradient_current_;
  gradient_current_ = false;
  multipliers_.equality =
      (multipliers_.equality + sigma_ * e.equalities).cwiseMax(-kMaxMultiplier).cwiseMin(kMaxMultiplier);
  multipliers_.inequality =
      (multipliers_.inequality + sigma_ * e.inequalities).cwiseMax(0.0).cwiseMin(kMaxMultiplier);
  for (int i : lower_index_) {
    multipliers_.lower_bound[i] =
        std::clamp(multipliers_.lower_bound[i] + sigma_ * (lower_[i] - x_[i]), 0.0, kMaxMultiplier);
  }
  for (int i : upper_index_) {
    multipliers_.upper_bound[i] =
        std::clamp(multipliers_.upper_bound[i] + sigma_ * (x_[i] - upper_[i]), 0.0, kMaxMultiplier);
  }
  const auto below_cap = [](const Eigen::VectorXd& m) {
    return m.size() == 0 || m.cwiseAbs().maxCoeff() < kMaxMultiplier;
  };
  kkt_gradients_ = kkt_gradients_ && below_cap(multipliers_.equality) && below_cap(multipliers_.inequality) &&
                   below_cap(multipliers_.lower_bound) && below_cap(multipliers_.upper_bound);
  for (int i = 0; i < n_ && kkt_gradients_; ++i) {
    if ((!std::isfinite(lower_[i]) && multipliers_.lower_bound[i] != 0.0) ||
        (!std::isfinite(upper_[i]) && multipliers_.upper_bound[i] != 0.0))
      kkt_gradients_ = false;
  }
}

KktMeasures AlmSubproblem::measure_kkt() const {
  if (!kkt_gradients_) return optim::measure_kkt(problem_, x_, current_, lower_, upper_, multipliers_);
  return optim::measure_kkt(problem_, x_, current_, lower_, upper_, multipliers_, objective_gradient_,
                            gradient_);
}

void AlmSubproblem::prepare_model() {
  const Evaluation& e = current_;
  shifted_equalities_ = e.equalities + multipliers_.equality / sigma_;
  shifted_inequalities_ = e.inequalities + multipliers_.inequality / sigma_;
  shifted_lower_.resize(static_cast<Eigen::Index>(lower_index_.size()));
  for (std::size_t k = 0; k < lower_index_.size(); ++k) {
    const int i = lower_index_[k];
    shifted_lower_[k] = lower_[i] - x_[i] + multipliers_.lower_bound[i] / sigma_;
  }
  shifted_upper_.resize(static_cast<Eigen::Index>(upper_index_.size()));
  for (std::size_t k = 0; k < upper_index_.size(); ++k) {
    const int i = upper_index_[k];
    shifted_upper_[k] = x_[i] - upper_[i] + multipliers_.upper_bound[i] / sigma_;
  }
  // The part of the normal matrix that does not depend on the active set.
  if (problem_.has_objective_hessian()) problem_.evaluate_objective_hessian(x_, objective_hessian_);
  // The residuals' own curvature S(x; r): with it the model is Newton's, 1/2 |r + J_r d|^2 + 1/2 d^T S d.
  if (curvature_term_ && (steps_since_curvature_ < 0 || steps_since_curvature_ >= curvature_refresh_)) {
    problem_.evaluate_residual_curvature(x_, e.residuals, objective_hessian_);
    steps_since_curvature_ = 0;
    ++curvature_evaluations_;
  }
  sigma_h_.setConstant(sigma_);
  const std::array<const SparseMatrix*, 3> blocks = {&e.residual_jacobian, &e.equality_jacobian,
                                                     &e.inequality_jacobian};
  residual_weight_.setConstant(ones_r_.size(), residual_scale_);
  const std::array<const Eigen::VectorXd*, 3> weights = {&residual_weight_, &sigma_h_, &zeros_g_};
  normal_->assemble(blocks, weights, model_hessian_);
  base_values_ = normal_->matrix().coeffs();
  if (e.inequalities.size() > 0) row_abs_sums(e.inequality_jacobian, inequality_norms_, pool_);
  // The model's gradient at d = 0 short of the active inequalities and bounds (model_step adds them).
  base_rhs_ = objective_gradient_;
  if (e.equalities.size() > 0)
    base_rhs_.noalias() += e.equality_jacobian.transpose() * (sigma_ * shifted_equalities_);
}

double AlmSubproblem::model_value(double damping) const {
  // The smooth part from the base normal matrix H0 = c J_r^T J_r + hess f0 (or S) + sigma J_h^T J_h and the
  // model's gradient g0 at d = 0 (base_rhs_): g0^T d + 1/2 d^T H0 d is 1/2 |r + J_r d|^2 + f0's model
  // + sigma/2 |h~ + J_h d|^2 short of their constant, without a product with J_r or J_h (H0 has a sixth of
  // J_r's entries on the imitation).
  double m = base_rhs_.dot(delta_) + 0.5 * delta_.dot(h0_delta_) + 0.5 * damping * delta_.squaredNorm();
  double penalty = 0.0;
  // An untracked row is certified off (track_rows): its term is 0 and leaving it out of the sum changes no
  // bit of it.
  if (tracking_) {
    for (const int i : tracked_rows_)
      penalty += squared_positive_part(shifted_inequalities_[i] + jg_delta_[i]);
  } else {
    for (int i = 0; i < jg_delta_.size(); ++i)
      penalty += squared_positive_part(shifted_inequalities_[i] + jg_delta_[i]);
  }
  for (std::size_t k = 0; k < lower_index_.size(); ++k) {
    penalty += squared_positive_part(shifted_lower_[k] - delta_[lower_index_[k]]);
  }
  for (std::size_t k = 0; k < upper_index_.size(); ++k) {
    penalty += squared_positive_part(shifted_upper_[k] + delta_[upper_index_[k]]);
  }
  return m + 0.5 * sigma_ * penalty;
}

double AlmSubproblem::model_line_search(double damping) {
  // phi(t) = m(delta + t p) is a convex piecewise quadratic (for a positive semi-definite hess f0):
  // phi'(t) = q1 + q2 t + sigma sum_i max(0, c_i + t e_i) e_i is piecewise linear and non-decreasing,
  // with a kink where a penalty term switches on or off. Walk the kinks in [0, 1] in order. (With the
  // residual curvature S, which may be indefinite, q2 may be negative on a segment: phi' then stays negative
  // and the walk goes on to the segment's end, where the model is lower still; the ratio test guards the
  // step.)
  // The smooth part's slope and curvature along p from H0 (model_value).
  double q1 = (base_rhs_ + h0_delta_).dot(p_) + damping * delta_.dot(p_);
  double q2 = h0_p_.dot(p_) + damping * p_.squaredNorm();
  kinks_.clear();
  auto add_term = [&](double c, double slope) {
    if (c > 0.0 || (c == 0.0 && slope > 0.0)) {  // on at t = 0+
      q1 += sigma_ * c * slope;
      q2 += sigma_ * slope * slope;
      if (slope < 0.0 && -c / slope < 1.0) kinks_.push_back({-c / slope, c, slope});
    } else if (slope > 0.0 && -c / slope < 1.0) {
      kinks_.push_back({-c / slope, c, slope});
    }
  };
  // An untracked row stays off on the whole segment (track_rows): no term and no kink.
  for (const int i : tracked_rows_) add_term(shifted_inequalities_[i] + jg_delta_[i], jg_p_[i]);
  for (std::size_t k = 0; k < lower_index_.size(); ++k) {
    add_term(shifted_lower_[k] - delta_[lower_index_[k]], -p_[lower_index_[k]]);
  }
  for (std::size_t k = 0; k < upper_index_.size(); ++k) {
    add_term(shifted_upper_[k] + delta_[upper_index_[k]], p_[upper_index_[k]]);
  }
  std::sort(kinks_.begin(), kinks_.end(), [](const Kink& a, const Kink& b) { return a.t < b.t; });
  double t0 = 0.0;
  for (std::size_t k = 0; k <= kinks_.size(); ++k) {
    const double t1 = k < kinks_.size() ? kinks_[k].t : 1.0;
    const double d0 = q1 + q2 * t0;
    const double d1 = q1 + q2 * t1;
    if (d0 >= 0.0) return t0;
    if (d1 > 0.0) return t0 - d0 * (t1 - t0) / (d1 - d0);
    if (k == kinks_.size()) break;
    // Crossing the kink switches the term on (slope > 0) or off (slope < 0).
    const Kink& kink = kinks_[k];
    const double sign = kink.slope > 0.0 ? 1.0 : -1.0;
    q1 += sign * sigma_ * kink.c * kink.slope;
    q2 += sign * sigma_ * kink.slope * kink.slope;
    t0 = t1;
  }
  return 1.0;
}

bool AlmSubproblem::model_step(double damping, Eigen::VectorXd& step, double& predicted_decrease) {
  const Evaluation& e = current_;
  factorization_current_ = false;
  delta_.setZero(n_);
  h0_delta_.setZero(n_);
  jg_delta_.setZero(e.inequalities.size());
  tracking_ = false;
  tracked_.assign(static_cast<std::size_t>(e.inequalities.size()), 0);
  tracked_rows_.clear();
  path_lengths_.clear();
  // The largest |d|_inf on the model's path so far: its iterates and the Newton points they head for.
  double reach = 0.0;
  SymmetricMatrix& h = normal_->matrix();
  // H0 (prepare_model) on the normal matrix's pattern; the loop below overwrites the matrix, not these
  // values.
  const Eigen::Map<const SymmetricMatrix> h0(n_, n_, h.nonZeros(), h.outerIndexPtr(), h.innerIndexPtr(),
                                             base_values_.data());
  const double value_at_zero = model_value(damping);
  double value = value_at_zero;
  const std::array<const SparseMatrix*, 3> blocks = {&e.residual_jacobian, &e.equality_jacobian,
                                                     &e.inequality_jacobian};
  for (int iteration = 0; iteration < kMaxActiveSetIterations; ++iteration) {
    // Active set of the model at delta_ (at delta_ = 0: the current point's, so the first Newton point
    // is the plain Gauss-Newton step).
    // The columns where this iteration's matrix differs from the last one's: from the lowest to the highest
    // column of the rows and bounds that enter or leave the active set (the first iteration's damping or H0
    // may be new: all).
    int first_changed = iteration == 0 ? 0 : n_;
    int last_changed = iteration == 0 ? n_ - 1 : -1;
    const auto changed = [&](int column) {
      first_changed = std::min(first_changed, column);
      last_changed = std::max(last_changed, column);
    };
    // After the first iteration an untracked row is still off (its weight 0 since the first iteration).
    const auto update_weight = [&](int i) {
      const double weight = shifted_inequalities_[i] + jg_delta_[i] > 0.0 ? sigma_ : 0.0;
      if (weight != weight_g_[i]) {
        for (SparseMatrix::InnerIterator it(e.inequality_jacobian, i); it; ++it)
          changed(static_cast<int>(it.col()));
      }
      weight_g_[i] = weight;
    };
    if (tracking_) {
      for (const int i : tracked_rows_) update_weight(i);
    } else {
      for (int i = 0; i < weight_g_.size(); ++i) update_weight(i);
    }
    for (std::size_t k = 0; k < lower_index_.size(); ++k) {
      const char active = shifted_lower_[k] - delta_[lower_index_[k]] > 0.0;
      if (active != lower_active_[k]) changed(lower_index_[k]);
      lower_active_[k] = active;
    }
    for (std::size_t k = 0; k < upper_index_.size(); ++k) {
      const char active = shifted_upper_[k] + delta_[upper_index_[k]] > 0.0;
      if (active != upper_active_[k]) changed(upper_index_[k]);
      upper_active_[k] = active;
    }
    // Only the changed columns are rebuilt: the others hold the same sums as before, bit for bit (their
    // entries get nothing from the rows that switched).
    const int column_begin = std::min(first_changed, n_),
              column_end = std::max(last_changed + 1, column_begin);
    const int* h_outer = h.outerIndexPtr();
    std::copy(base_values_.data() + h_outer[column_begin], base_values_.data() + h_outer[column_end],
              h.valuePtr() + h_outer[column_begin]);
    if (weight_g_.size() > 0) {
      const std::array<const Eigen::VectorXd*, 3> weights = {&zeros_r_, &zeros_h_, &weight_g_};
      normal_->assemble_columns(blocks, weights, column_begin, column_end, /*accumulate=*/true);
    }
    const auto rebuilt = [&](int column) { return column >= column_begin && column < column_end; };
    // Gradient at d = 0 of the quadratic model with this active set (the product over its rows only).
    rhs_ = base_rhs_;
    if (weight_g_.size() > 0) {
      inequality_factors_ = weight_g_.cwiseProduct(shifted_inequalities_);
      add_transposed_product(e.inequality_jacobian, inequality_factors_, rhs_);
    }
    for (std::size_t k = 0; k < lower_index_.size(); ++k) {
      if (lower_active_[k]) {
        if (rebuilt(lower_index_[k])) normal_->add_to_diagonal(lower_index_[k], sigma_);
        rhs_[lower_index_[k]] -= sigma_ * shifted_lower_[k];
      }
    }
    for (std::size_t k = 0; k < upper_index_.size(); ++k) {
      if (upper_active_[k]) {
        if (rebuilt(upper_index_[k])) normal_->add_to_diagonal(upper_index_[k], sigma_);
        rhs_[upper_index_[k]] += sigma_ * shifted_upper_[k];
      }
    }
    for (int i = column_begin; i < column_end; ++i) normal_->add_to_diagonal(i, damping);
    ++factorizations_;
    factorization_current_ = solver_.refactorize(h, first_changed, last_changed);
    if (!factorization_current_) break;

    // Newton point of this active set, then the exact minimum of the model on the segment towards it:
    // the model decreases monotonically, whatever the active set does (a bare semismooth Newton
    // iteration can cycle between active sets of neighbouring samples).
    p_ = -rhs_;
    solver_.solve_in_place(p_);
    p_ -= delta_;
    if (!p_.allFinite()) break;
    // The segment delta_ + t p_, t in [0, 1], lies within max(|delta_|_inf, |delta_ + p_|_inf).
    reach = std::max({reach, delta_.cwiseAbs().maxCoeff(), (delta_ + p_).cwiseAbs().maxCoeff()});
    // H0 p (Eigen's sequential symmetric product) on one thread while the other screens the rows and
    // multiplies the tracked ones (few, after screening): the same values as one after the other.
    const auto product = [&] { h0_p_.noalias() = h0.selfadjointView<Eigen::Lower>() * p_; };
    const auto rows = [&] {
      track_rows(reach);
      multiply_rows(e.inequality_jacobian, tracked_rows_, p_, jg_p_, nullptr);
    };
    core::run_both(pool_, product, rows);
    const double t = model_line_search(damping);
    if (!(t > 0.0)) break;
    delta_ += t * p_;
    h0_delta_ += t * h0_p_;
    for (const int i : tracked_rows_) jg_delta_[i] += t * jg_p_[i];
    if (path_directions_.size() <= path_lengths_.size()) path_directions_.emplace_back();
    path_directions_[path_lengths_.size()] = p_;
    path_lengths_.push_back(t);
    const double previous = value;
    value = model_value(damping);
    // Done at the model's minimiser (full step to a Newton point whose active set held), or when one
    // more factorisation buys less than a small fraction of the decrease so far.
    if (t == 1.0 || previous - value < kActiveSetGain * (value_at_zero - value)) break;
  }
  if (!(value < value_at_zero)) return false;
  step = delta_;
  predicted_decrease = value_at_zero - value + 0.5 * damping * delta_.squaredNorm();
  return predicted_decrease > 0.0;
}

void AlmSubproblem::track_rows(double reach) {
  const Evaluation& e = current_;
  const int rows = static_cast<int>(e.inequalities.size());
  bool added = false;
  for (int i = 0; i < rows; ++i) {
    if (tracked_[static_cast<std::size_t>(i)]) continue;
    // Off on the whole path (and its rounding) when even the bound cannot reach 0; a NaN bound tracks it.
    if (screening_ && shifted_inequalities_[i] + kScreeningMargin * inequality_norms_[i] * reach < 0.0) {
      ++screened_rows_;
      continue;
    }
    tracked_[static_cast<std::size_t>(i)] = 1;
    added = true;
    if (!path_lengths_.empty()) ++replayed_rows_;
    // J_g,i delta_ as the unscreened product would hold it: the moves' J_g,i p (row_dot, multiply_rows'
    // entries) times t, added in order from 0.
    double value = 0.0;
    for (std::size_t m = 0; m < path_lengths_.size(); ++m)
      value += path_lengths_[m] * row_dot(e.inequality_jacobian, i, path_directions_[m]);
    jg_delta_[i] = value;
  }
  if (added || !tracking_) {
    tracked_rows_.clear();
    for (int i = 0; i < rows; ++i)
      if (tracked_[static_cast<std::size_t>(i)]) tracked_rows_.push_back(i);
  }
  tracking_ = true;
}

void AlmSubproblem::newton_step(double damping, Eigen::VectorXd& step, double& predicted_decrease) {
  if (!factorization_current_) return;
  const Evaluation& e = current_;
  // The weights of the rows' curvature: eq. (14)'s multipliers of the merit gradient at x.
  curvature_weights_.residual = e.residuals;
  curvature_weights_.equality = multipliers_.equality + sigma_ * e.equalities;
  curvature_weights_.inequality = (multipliers_.inequality + sigma_ * e.inequalities).cwiseMax(0.0);
  const SymmetricMatrix& h = normal_->matrix();  // J^T W J + damping I on the active set, lower triangle
  const auto product = [&](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    if (!curvature_->apply(x_, e, curvature_weights_, v, cg_sp_)) return false;
    out.noalias() = h.selfadjointView<Eigen::Lower>() * v;
    out += cg_sp_;
    return true;
  };
  // Preconditioned CG on q(d) = rhs^T d + 1/2 d^T B d from d = 0: its first iterate is the Newton point
  // of the Gauss-Newton matrix scaled by the exact curvature along it, each further one lowers q.
  cg_d_.setZero(n_);
  cg_r_ = -rhs_;
  cg_z_ = cg_r_;
  solver_.solve_in_place(cg_z_);
  cg_p_ = cg_z_;
  double rz = cg_r_.dot(cg_z_);
  const double rz0 = rz;
  for (int k = 0; k < newton_iterations_ && rz > kNewtonTolerance * kNewtonTolerance * rz0; ++k) {
    if (!product(cg_p_, cg_bp_)) break;
    const double curvature = cg_p_.dot(cg_bp_);
    if (!(curvature > 0.0)) break;  // negative curvature of the damped model: keep the last iterate
    const double alpha = rz / curvature;
    cg_d_ += alpha * cg_p_;
    cg_r_ -= alpha * cg_bp_;
    cg_z_ = cg_r_;
    solver_.solve_in_place(cg_z_);
    const double rz_next = cg_r_.dot(cg_z_);
    cg_p_ = cg_z_ + (rz_next / rz) * cg_p_;
    rz = rz_next;
  }
  // q(d) = rhs^T d + 1/2 d^T B d = 1/2 (rhs^T d - d^T r) with the residual r = -(rhs + B d) CG carries.
  const double q = 0.5 * (rhs_.dot(cg_d_) - cg_d_.dot(cg_r_));
  const double predicted = -q + 0.5 * damping * cg_d_.squaredNorm();  // of the undamped model
  if (!(q < 0.0) || !(predicted > 0.0) || !cg_d_.allFinite()) return;
  step = cg_d_;
  predicted_decrease = predicted;
}

void AlmSubproblem::update_residual_scale() {
  // The accepted step s = x_trial_ - x_: the secant curvature of 1/2 |r|^2 + f0 along s,
  // s^T (grad(x + s) - grad(x)), against the Gauss-Newton model's, |J_r s|^2 + s^T hess f0 s.
  sizing_step_ = x_trial_ - x_;
  multiply(current_.residual_jacobian, sizing_step_, sizing_jr_, pool_);
  double model = sizing_jr_.squaredNorm();
  if (problem_.has_objective_hessian())
    model += sizing_step_.dot(objective_hessian_.selfadjointView<Eigen::Lower>() * sizing_step_);
  const double actual = sizing_step_.dot(trial_objective_gradient_ - objective_gradient_);
  if (!(model > 0.0) || !std::isfinite(actual)) return;
  residual_scale_ = std::clamp(actual / model, 1.0, kMaxResidualScale);
}

InnerOutcome AlmSubproblem::minimize(double tolerance, int max_steps, int& accepted_steps,
                                     std::chrono::steady_clock::time_point deadline) {
  // The objective's gradient is still that of x_ after an earlier inner solve (only the multipliers and
  // the penalty changed): the constraint terms alone are recomputed.
  if (objective_gradient_current_) {
    constraint_gradient(x_, current_, objective_gradient_, gradient_);
  } else {
    merit_gradient(x_, current_, gradient_, objective_gradient_);
  }
  objective_gradient_current_ = gradient_current_ = true;
  kkt_gradients_ = false;
  double phi = merit(x_, current_);
  // The damping the last inner solve ended with (file comment), at most the initial rule's: a larger one
  // left by a solve that found no step would only shorten the first steps of this one.
  double& damping = damping_;
  double damping_growth = 2.0;
  double damping_floor = 0.0;
  for (int iteration = 0; iteration < max_steps; ++iteration) {
    const double stationarity = relative_stationarity(gradient_, objective_gradient_);
    if (stationarity <= tolerance) return InnerOutcome::kStationary;
    if (std::chrono::steady_clock::now() > deadline) return InnerOutcome::kTimeLimit;
    prepare_model();
    if (iteration == 0) {
      double largest = 0.0;
      for (int i = 0; i < n_; ++i)
        largest = std::max(largest, std::abs(base_values_[normal_->diagonal_position(i)]));
      const double initial = kInitialDamping * (largest > 0.0 ? largest : 1.0);
      damping = damping < 0.0 ? initial : std::min(damping, initial);
      largest_diagonal_ = largest;
      damping_floor = kMinDamping * (largest > 0.0 ? largest : 1.0);
      damping = std::max(damping, damping_floor);
    }

    bool accepted = false;
    for (int attempt = 0; attempt < kMaxDampingIncreases && !accepted; ++attempt) {
      double predicted = 0.0;
      if (model_step(damping, x_trial_, predicted)) {
        if (newton_iterations_ > 0) newton_step(damping, x_trial_, predicted);
        // Steps below rounding of x cannot change anything: the minimum is as precise as it gets.
        if (x_trial_.cwiseAbs().maxCoeff() <= 1e-15 * (1.0 + x_.cwiseAbs().maxCoeff())) {
          return InnerOutcome::kNoProgress;
        }
        x_trial_ += x_;
        evaluate(x_trial_, trial_);
        if (finite(trial_)) {
          const double phi_trial = merit(x_trial_, trial_);
          merit_gradient(x_trial_, trial_, trial_gradient_, trial_objective_gradient_);
          // Near the minimum the predicted decrease drowns in the rounding of L~: accept then any step
          // that does not increase it beyond rounding and reduces the gradient.
          const double rounding = kRounding * std::max(1.0, std::abs(phi));
          const double quality = predicted > rounding ? (phi - phi_trial) / predicted : 1.0;
          const bool good =
              predicted > rounding
                  ? quality > kMinStepQuality
                  : phi_trial <= phi + rounding &&
                        relative_stationarity(trial_gradient_, trial_objective_gradient_) < stationarity;
          if (good) {
            if (sizing_) update_residual_scale();
            ++steps_since_curvature_;
            x_.swap(x_trial_);
            swap(current_, trial_);
            gradient_.swap(trial_gradient_);
            objective_gradient_.swap(trial_objective_gradient_);
            phi = phi_trial;
            const double q = 2.0 * quality - 1.0;
            damping *= std::max(1.0 / 3.0, 1.0 - q * q * q);
            damping = std::max(damping, damping_floor);
            damping_growth = 2.0;
            accepted = true;
            break;
          }
        }
      }
      damping *= damping_growth;
      damping_growth *= 2.0;
    }
    if (!accepted) return InnerOutcome::kNoProgress;
    ++accepted_steps;
  }
  return relative_stationarity(gradient_, objective_gradient_) <= tolerance ? InnerOutcome::kStationary
                                                                            : InnerOutcome::kIterationLimit;
}

}  // namespace mimic::optim::detail
