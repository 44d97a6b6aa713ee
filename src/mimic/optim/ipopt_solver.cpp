#include "mimic/optim/ipopt_solver.hpp"

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mimic/optim/inequality_subset.hpp"
#include "mimic/optim/kkt.hpp"
#include "mimic/optim/normal_equations.hpp"

namespace mimic::optim {

namespace {

using Ipopt::Index;
using Ipopt::Number;

// Ipopt's default nlp_{lower,upper}_bound_inf is -/+1e19: anything beyond is "no bound".
constexpr double kIpoptInfinity = 2e19;

// The TNLP view of a Problem. Evaluations are cached per x (Ipopt's new_x flag): values at every trial
// point, Jacobians only when Ipopt asks for a derivative at that point.
class ProblemTnlp final : public Ipopt::TNLP {
 public:
  ProblemTnlp(Problem& problem, const Eigen::VectorXd& x0, const IpoptOptions& options,
              const ProgressCallback& progress)
      : problem_(problem),
        options_(options),
        progress_(progress),
        x0_(x0),
        n_(problem.num_variables()),
        ne_(problem.num_equalities()),
        ni_(problem.num_inequalities()),
        evaluation_(make_evaluation(problem)),
        shape_(evaluation_) {
    problem_.variable_bounds(lower_, upper_);
    if (options_.hessian == IpoptOptions::Hessian::kGaussNewton) {
      if (problem_.has_objective_term() && !problem_.has_objective_hessian()) {
        throw std::invalid_argument("solve_with_ipopt: the Gauss-Newton Hessian needs the Hessian of f0");
      }
      if (problem_.has_objective_hessian()) {
        objective_hessian_ = problem_.objective_hessian_pattern();
        objective_hessian_.makeCompressed();
      }
      const std::array<const SparseMatrix*, 1> blocks = {&evaluation_.residual_jacobian};
      gauss_newton_.emplace(blocks, problem_.has_objective_hessian() ? &objective_hessian_ : nullptr);
      residual_weight_.setOnes(problem_.num_residuals());
    }
  }

  // Results, valid after the solve.
  Eigen::VectorXd x;
  Multipliers multipliers;
  int iterations = 0;
  int evaluations = 0;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = n_;
    m = ne_ + ni_;
    nnz_jac_g = static_cast<Index>(evaluation_.equality_jacobian.nonZeros() +
                                   evaluation_.inequality_jacobian.nonZeros());
    nnz_h_lag = gauss_newton_ ? static_cast<Index>(gauss_newton_->matrix().nonZeros()) : 0;
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) override {
    for (int i = 0; i < n_; ++i) {
      x_l[i] = std::isfinite(lower_[i]) ? lower_[i] : -kIpoptInfinity;
      x_u[i] = std::isfinite(upper_[i]) ? upper_[i] : kIpoptInfinity;
    }
    for (int i = 0; i < ne_; ++i) g_l[i] = g_u[i] = 0.0;
    for (int i = 0; i < ni_; ++i) {
      g_l[ne_ + i] = -kIpoptInfinity;
      g_u[ne_ + i] = 0.0;
    }
    return true;
  }

  bool get_starting_point(Index, bool init_x, Number* x_out, bool init_z, Number*, Number*, Index,
                          bool init_lambda, Number*) override {
    if (init_z || init_lambda) return false;  // only a primal start is available
    if (init_x) std::copy(x0_.data(), x0_.data() + n_, x_out);
    return true;
  }

  bool eval_f(Index, const Number* x_in, bool new_x, Number& obj_value) override {
    if (!ensure(x_in, new_x, false)) return false;
    obj_value = evaluation_.objective();
    return std::isfinite(obj_value);
  }

  bool eval_grad_f(Index, const Number* x_in, bool new_x, Number* grad_f) override {
    if (!ensure(x_in, new_x, true)) return false;
    Eigen::Map<Eigen::VectorXd> g(grad_f, n_);
    g = evaluation_.objective_gradient;
    g.noalias() += evaluation_.residual_jacobian.transpose() * evaluation_.residuals;
    return g.allFinite();
  }

  bool eval_g(Index, const Number* x_in, bool new_x, Index, Number* g) override {
    if (!ensure(x_in, new_x, false)) return false;
    std::copy(evaluation_.equalities.data(), evaluation_.equalities.data() + ne_, g);
    std::copy(evaluation_.inequalities.data(), evaluation_.inequalities.data() + ni_, g + ne_);
    return true;
  }

  bool eval_jac_g(Index, const Number* x_in, bool new_x, Index, Index, Index* i_row, Index* j_col,
                  Number* values) override {
    if (values == nullptr) {  // structure call
      int k = 0;
      for (const auto& [m, offset] :
           {std::pair{&evaluation_.equality_jacobian, 0}, std::pair{&evaluation_.inequality_jacobian, ne_}}) {
        for (int r = 0; r < m->rows(); ++r) {
          for (int p = m->outerIndexPtr()[r]; p < m->outerIndexPtr()[r + 1]; ++p, ++k) {
            i_row[k] = offset + r;
            j_col[k] = m->innerIndexPtr()[p];
          }
        }
      }
      return true;
    }
    if (!ensure(x_in, new_x, true)) return false;
    const SparseMatrix& je = evaluation_.equality_jacobian;
    const SparseMatrix& ji = evaluation_.inequality_jacobian;
    std::copy(je.valuePtr(), je.valuePtr() + je.nonZeros(), values);
    std::copy(ji.valuePtr(), ji.valuePtr() + ji.nonZeros(), values + je.nonZeros());
    return true;
  }

  bool eval_h(Index, const Number* x_in, bool new_x, Number obj_factor, Index, const Number*, bool, Index,
              Index* i_row, Index* j_col, Number* values) override {
    if (!gauss_newton_) return false;
    const SymmetricMatrix& h = gauss_newton_->matrix();
    if (values == nullptr) {
      int k = 0;
      for (int c = 0; c < h.outerSize(); ++c) {
        for (int p = h.outerIndexPtr()[c]; p < h.outerIndexPtr()[c + 1]; ++p, ++k) {
          i_row[k] = h.innerIndexPtr()[p];  // row >= column: the lower triangle Ipopt expects
          j_col[k] = c;
        }
      }
      return true;
    }
    if (!ensure(x_in, new_x, true)) return false;
    if (problem_.has_objective_hessian()) problem_.evaluate_objective_hessian(current_x_, objective_hessian_);
    const std::array<const SparseMatrix*, 1> blocks = {&evaluation_.residual_jacobian};
    const std::array<const Eigen::VectorXd*, 1> weights = {&residual_weight_};
    gauss_newton_->assemble(blocks, weights,
                            problem_.has_objective_hessian() ? &objective_hessian_ : nullptr);
    for (Eigen::Index k = 0; k < h.nonZeros(); ++k) values[k] = obj_factor * h.valuePtr()[k];
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x_out, const Number* z_l,
                         const Number* z_u, Index m, const Number*, const Number* lambda, Number,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    x = Eigen::Map<const Eigen::VectorXd>(x_out, n);
    multipliers.lower_bound = Eigen::Map<const Eigen::VectorXd>(z_l, n);
    multipliers.upper_bound = Eigen::Map<const Eigen::VectorXd>(z_u, n);
    const Eigen::Map<const Eigen::VectorXd> all(lambda, m);
    multipliers.equality = all.head(ne_);
    multipliers.inequality = all.tail(ni_);
  }

  bool intermediate_callback(Ipopt::AlgorithmMode, Index iter, Number obj_value, Number inf_pr, Number inf_du,
                             Number mu, Number, Number, Number, Number, Index, const Ipopt::IpoptData*,
                             Ipopt::IpoptCalculatedQuantities*) override {
    iterations = iter;
    if (progress_) {
      ProgressEvent event;
      event.stage = "ipopt";
      event.iteration = iter;
      event.total = options_.max_iterations;
      event.objective = obj_value;
      event.violation = inf_pr;
      char text[128];
      std::snprintf(text, sizeof text, "dual infeasibility %.3g, barrier parameter %.3g", inf_du, mu);
      event.message = text;
      progress_(event);
    }
    return true;
  }

 private:
  bool ensure(const Number* x_in, bool new_x, bool jacobians) {
    if (new_x || !have_values_) {
      current_x_ = Eigen::Map<const Eigen::VectorXd>(x_in, n_);
      have_values_ = false;
      have_jacobians_ = false;
    }
    if (!have_values_ || (jacobians && !have_jacobians_)) {
      problem_.evaluate(current_x_, jacobians, evaluation_);
      ++evaluations;
      shape_.check(evaluation_);
      have_values_ = true;
      have_jacobians_ = jacobians;
    }
    return std::isfinite(evaluation_.objective_term) && evaluation_.residuals.allFinite() &&
           evaluation_.equalities.allFinite() && evaluation_.inequalities.allFinite();
  }

  Problem& problem_;
  const IpoptOptions& options_;
  const ProgressCallback& progress_;
  Eigen::VectorXd x0_;
  const int n_, ne_, ni_;
  Eigen::VectorXd lower_, upper_;
  Evaluation evaluation_;
  EvaluationShape shape_;
  Eigen::VectorXd current_x_;
  bool have_values_ = false;
  bool have_jacobians_ = false;
  SymmetricMatrix objective_hessian_;
  std::optional<NormalEquations> gauss_newton_;
  Eigen::VectorXd residual_weight_;
};

SolveStatus classify(Ipopt::ApplicationReturnStatus status, bool feasible, bool stationary,
                     std::string& reason) {
  using S = Ipopt::ApplicationReturnStatus;
  switch (status) {
    case S::Solve_Succeeded:
      if (feasible) {
        reason = "Ipopt converged";
        return SolveStatus::kConverged;
      }
      reason = "Ipopt converged, but the violation exceeds the feasibility tolerance";
      return SolveStatus::kStalled;
    case S::Solved_To_Acceptable_Level:
      if (feasible && stationary) {
        reason = "Ipopt reached its acceptable level, within mimic's tolerances";
        return SolveStatus::kConverged;
      }
      reason = "Ipopt stopped at its acceptable level, short of the tolerances";
      return SolveStatus::kStalled;
    case S::Infeasible_Problem_Detected:
      reason = "Ipopt converged to a point of local infeasibility";
      return SolveStatus::kInfeasible;
    case S::Restoration_Failed:
      reason = "Ipopt's feasibility restoration failed";
      return feasible ? SolveStatus::kStalled : SolveStatus::kInfeasible;
    case S::Maximum_Iterations_Exceeded:
      reason = "Ipopt's iteration limit";
      return SolveStatus::kMaxIterations;
    case S::Maximum_CpuTime_Exceeded:
      reason = "Ipopt's time limit";
      return SolveStatus::kTimeLimit;
    case S::Search_Direction_Becomes_Too_Small:
      reason = "Ipopt's search direction became too small";
      return SolveStatus::kStalled;
    case S::Diverging_Iterates:
      reason = "Ipopt's iterates diverged";
      return SolveStatus::kStalled;
    case S::Invalid_Number_Detected:
      reason = "Ipopt met a non-finite value";
      return SolveStatus::kEvaluationError;
    default:
      reason = "Ipopt failed with status " + std::to_string(static_cast<int>(status));
      return SolveStatus::kSolverError;
  }
}

}  // namespace

namespace {

// One Ipopt run on `problem` from x0.
struct IpoptRun {
  Ipopt::ApplicationReturnStatus status = Ipopt::Internal_Error;
  Eigen::VectorXd x;
  Multipliers multipliers;  // empty when Ipopt finalised no solution
  int iterations = 0;
  int evaluations = 0;
};

IpoptRun run_ipopt(Problem& problem, const Eigen::VectorXd& x0, const IpoptOptions& options,
                   const ProgressCallback& progress) {
  // The SmartPtr owns the adapter (Ipopt's reference counting); `tnlp` reads its results afterwards.
  auto* tnlp = new ProblemTnlp(problem, x0, options, progress);
  const Ipopt::SmartPtr<Ipopt::TNLP> owner = tnlp;
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->RethrowNonIpoptException(true);
  Ipopt::OptionsList& o = *app->Options();
  o.SetStringValue("sb", "yes");  // no banner
  o.SetIntegerValue("print_level", options.verbose ? 5 : 0);
  if (options.verbose) o.SetStringValue("print_timing_statistics", "yes");
  o.SetNumericValue("tol", options.stationarity_tolerance);
  // Ipopt's own tests are made a little stricter than mimic's final check, which it must pass: its
  // bounds relaxation (bound_relax_factor, 1e-8 by default) and its complementarity tolerance
  // (compl_inf_tol, 1e-4) would otherwise leave points outside mimic's tolerances.
  o.SetNumericValue("constr_viol_tol", 0.5 * options.feasibility_tolerance);
  o.SetNumericValue("acceptable_constr_viol_tol", 0.5 * options.feasibility_tolerance);
  o.SetNumericValue("compl_inf_tol", 0.5 * options.feasibility_tolerance);
  o.SetNumericValue("bound_relax_factor", std::min(1e-8, 0.1 * options.feasibility_tolerance));
  o.SetIntegerValue("max_iter", options.max_iterations);
  if (options.max_seconds > 0.0) o.SetNumericValue("max_cpu_time", options.max_seconds);
  // MUMPS' default ordering choice (7: automatic) picks an ordering whose fill-in explodes on the
  // KKT systems of spline problems (56 s instead of 1.7 s for 10 iterations of a 1 s clip of
  // bench/optim.cpp); AMD (0) is consistently fast on them.
  o.SetIntegerValue("mumps_pivot_order", 0);
  o.SetStringValue("hessian_approximation",
                   options.hessian == IpoptOptions::Hessian::kLimitedMemory ? "limited-memory" : "exact");
  bool options_ok = true;
  for (const auto& [name, value] : options.string_options) options_ok &= o.SetStringValue(name, value);
  for (const auto& [name, value] : options.integer_options) options_ok &= o.SetIntegerValue(name, value);
  for (const auto& [name, value] : options.numeric_options) options_ok &= o.SetNumericValue(name, value);
  if (!options_ok)
    throw std::invalid_argument("solve_with_ipopt: an Ipopt option was rejected (name or value)");

  IpoptRun run;
  run.x = x0;
  if (app->Initialize("") != Ipopt::Solve_Succeeded) {  // "": ignore any ipopt.opt in the working directory
    run.status = Ipopt::Invalid_Option;
    return run;
  }
  run.status = app->OptimizeTNLP(owner);
  if (tnlp->x.size() == x0.size()) run.x = tnlp->x;
  if (tnlp->multipliers.lower_bound.size() == x0.size()) run.multipliers = tnlp->multipliers;
  run.iterations = tnlp->iterations;
  run.evaluations = tnlp->evaluations;
  return run;
}

// Indices of g above `threshold`, merged into the ascending `rows`.
std::vector<int> add_rows_above(const Eigen::VectorXd& g, double threshold, const std::vector<int>& rows) {
  std::vector<int> merged;
  merged.reserve(rows.size());
  std::size_t k = 0;
  for (int i = 0; i < g.size(); ++i) {
    const bool kept = k < rows.size() && rows[k] == i;
    if (kept) ++k;
    if (kept || !(g[i] <= threshold)) merged.push_back(i);  // NaN counts as above
  }
  return merged;
}

// solve_with_ipopt for a definite Hessian choice (not kAuto).
SolveResult solve_with_hessian(Problem& problem, const Eigen::VectorXd& x0, const IpoptOptions& options,
                               const ProgressCallback& progress) {
  const auto start_time = std::chrono::steady_clock::now();
  SolveResult result;
  Evaluation full = make_evaluation(problem);
  IpoptRun run;
  std::string screening_note;
  bool screening_exhausted = false;
  const int m = problem.num_inequalities();
  if (!options.screen_inequalities || m < options.screening_min_inequalities) {
    run = run_ipopt(problem, x0, options, progress);
    result.iterations = run.iterations;
    result.evaluations = run.evaluations;
  } else {
    problem.evaluate(x0, false, full);
    ++result.evaluations;
    std::vector<int> rows = add_rows_above(full.inequalities, -options.screening_margin, {});
    Eigen::VectorXd x = x0;
    for (int round = 1;; ++round) {
      InequalitySubset subset(problem, rows);
      const std::string note = "screening round " + std::to_string(round) + ", " +
                               std::to_string(rows.size()) + " of " + std::to_string(m) + " inequalities";
      ProgressCallback tagged;
      if (progress) {
        tagged = [&](const ProgressEvent& e) {
          ProgressEvent copy = e;
          copy.message = note + "; " + e.message;
          progress(copy);
        };
      }
      run = run_ipopt(subset, x, options, tagged);
      result.iterations += run.iterations;
      result.evaluations += run.evaluations;
      // Back to the full problem's rows: multipliers of the rows left out are zero.
      if (run.multipliers.inequality.size() == static_cast<Eigen::Index>(rows.size())) {
        Eigen::VectorXd all = Eigen::VectorXd::Zero(m);
        for (std::size_t k = 0; k < rows.size(); ++k)
          all[rows[k]] = run.multipliers.inequality[static_cast<Eigen::Index>(k)];
        run.multipliers.inequality = std::move(all);
      }
      x = run.x;
      problem.evaluate(x, false, full);
      ++result.evaluations;
      screening_note = "; " + note;
      const std::vector<int> grown = add_rows_above(full.inequalities, -options.screening_margin, rows);
      bool violated_outside = false;
      for (std::size_t k = 0, i = 0; i < static_cast<std::size_t>(m); ++i) {
        if (k < rows.size() && rows[k] == static_cast<int>(i)) {
          ++k;
        } else if (!(full.inequalities[static_cast<Eigen::Index>(i)] <= options.feasibility_tolerance)) {
          violated_outside = true;
          break;
        }
      }
      if (!violated_outside) break;
      if (round >= options.max_screening_rounds) {
        screening_exhausted = true;
        break;
      }
      rows = grown;
    }
  }

  // mimic's verdict, on the full problem.
  result.x = run.x;
  problem.evaluate(result.x, true, full);
  ++result.evaluations;
  Eigen::VectorXd lower, upper;
  problem.variable_bounds(lower, upper);
  const KktMeasures k = measure_kkt(problem, result.x, full, lower, upper, run.multipliers);
  result.objective = k.objective;
  result.max_violation = k.max_violation;
  result.stationarity = k.stationarity;
  result.complementarity = k.complementarity;
  result.worst = k.worst;
  result.feasible = k.max_violation <= options.feasibility_tolerance;
  result.multipliers = std::move(run.multipliers);
  result.status =
      classify(run.status, result.feasible, k.stationarity <= options.stationarity_tolerance, result.reason);
  if (screening_exhausted) {
    result.status = SolveStatus::kMaxIterations;
    result.reason = std::to_string(options.max_screening_rounds) +
                    " screening rounds and inequalities left out are still violated";
  }
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, ": violation %.3g (tolerance %.3g), stationarity %.3g",
                k.max_violation, options.feasibility_tolerance, k.stationarity);
  result.reason += numbers + screening_note;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return result;
}

}  // namespace

SolveResult solve_with_ipopt(Problem& problem, const Eigen::VectorXd& x0, const IpoptOptions& options,
                             const ProgressCallback& progress) {
  if (x0.size() != problem.num_variables()) {
    throw std::invalid_argument("solve_with_ipopt: x0 has " + std::to_string(x0.size()) +
                                " entries, the problem " + std::to_string(problem.num_variables()) +
                                " variables");
  }
  if (options.hessian != IpoptOptions::Hessian::kAuto)
    return solve_with_hessian(problem, x0, options, progress);
  IpoptOptions limited_memory = options;
  limited_memory.hessian = IpoptOptions::Hessian::kLimitedMemory;
  if (problem.has_objective_term() && !problem.has_objective_hessian()) {
    return solve_with_hessian(problem, x0, limited_memory, progress);
  }
  IpoptOptions gauss_newton = options;
  gauss_newton.hessian = IpoptOptions::Hessian::kGaussNewton;
  gauss_newton.max_iterations = std::min(options.max_iterations, options.gauss_newton_iterations);
  SolveResult first = solve_with_hessian(problem, x0, gauss_newton, progress);
  if (first.success()) return first;
  SolveResult second = solve_with_hessian(problem, x0, limited_memory, progress);
  second.reason = "Gauss-Newton Hessian: " + std::string(to_string(first.status)) +
                  ", then limited-memory: " + second.reason;
  second.iterations += first.iterations;
  second.evaluations += first.evaluations;
  second.seconds += first.seconds;
  return second;
}

}  // namespace mimic::optim
