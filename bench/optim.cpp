// Cost of the optimisation back ends on a synthetic problem shaped like mimic's motion problems: 30 joints
// on quartic B-splines (0.1 s knots, at rest at both ends), residuals at 200 Hz tracking a reference
// (joint errors plus 3 nonlinear 7-joint "hand position" chains, as in seed 000 eq. (1)), and joint angle
// and velocity limits at 200 Hz (4 inequalities per joint and sample) that the reference violates.
// For clips of 5, 10 and 20 s: the whole solve (ALM; Ipopt with L-BFGS and with the Gauss-Newton
// Hessian) with its time per outer iteration, and the pieces of one ALM step (evaluation with
// Jacobians, normal-matrix assembly, sparse LDL^T). Everything should grow linearly with the length.
#include <benchmark/benchmark.h>

#include <Eigen/SparseCholesky>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "mimic/optim/augmented_lagrangian.hpp"
#include "mimic/optim/banded_cholesky.hpp"
#include "mimic/optim/ipopt_solver.hpp"
#include "mimic/optim/normal_equations.hpp"
#include "mimic/optim/normal_solver.hpp"
#include "mimic/optim/sparse.hpp"
#include "mimic/trajectory/sampled_basis.hpp"
#include "mimic/trajectory/spline_fit.hpp"
#include "mimic/trajectory/time_grid.hpp"

namespace {

namespace mo = mimic::optim;
namespace mt = mimic::trajectory;

constexpr int kJoints = 30;
constexpr int kChains = 3;
constexpr int kChainLength = 7;
constexpr double kLink = 0.1;             // m, each link of a chain
constexpr double kPositionWeight = 10.0;  // sigma of seed 000 eq. (1)
constexpr double kAngleLimit = 1.0;       // rad
constexpr int kRowsPerJoint = 4;          // q <= max, q >= min, qdot <= max, qdot >= -max

double velocity_limit(int joint) { return 2.0 + 0.1 * (joint % 10); }  // rad/s

// Sum of three sines per joint, 0.2-1.5 Hz, amplitudes 0.1-0.5 rad: peaks up to ~1.5 rad and ~4.7 rad/s.
Eigen::MatrixXd make_reference(const std::vector<double>& times) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> frequency(0.2, 1.5), amplitude(0.1, 0.5),
      phase(0.0, 2 * std::numbers::pi);
  Eigen::MatrixXd q(kJoints, static_cast<Eigen::Index>(times.size()));
  for (int j = 0; j < kJoints; ++j) {
    std::array<double, 9> p;
    for (double& v : p) v = 0.0;
    for (int m = 0; m < 3; ++m)
      p[3 * m] = frequency(rng), p[3 * m + 1] = amplitude(rng), p[3 * m + 2] = phase(rng);
    for (std::size_t n = 0; n < times.size(); ++n) {
      double v = 0.0;
      for (int m = 0; m < 3; ++m)
        v += p[3 * m + 1] * std::sin(2 * std::numbers::pi * p[3 * m] * times[n] + p[3 * m + 2]);
      q(j, static_cast<Eigen::Index>(n)) = v;
    }
  }
  return q;
}

// Planar chain with a vertical offset: p = sum_k l (cos phi_k, sin phi_k, 0.3 q_k), phi_k = q_1 + .. + q_k.
Eigen::Vector3d chain_position(const Eigen::Ref<const Eigen::VectorXd>& q, int chain,
                               double* dp_dq = nullptr) {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  std::array<double, kChainLength> phi;
  double sum = 0.0;
  for (int k = 0; k < kChainLength; ++k) {
    sum += q[chain * kChainLength + k];
    phi[k] = sum;
    p += kLink * Eigen::Vector3d(std::cos(sum), std::sin(sum), 0.3 * q[chain * kChainLength + k]);
  }
  if (dp_dq != nullptr) {  // 3 x kChainLength, row-major
    double sx = 0.0, sy = 0.0;
    for (int k = kChainLength - 1; k >= 0; --k) {
      sx -= kLink * std::sin(phi[k]);
      sy += kLink * std::cos(phi[k]);
      dp_dq[k] = sx;
      dp_dq[kChainLength + k] = sy;
      dp_dq[2 * kChainLength + k] = 0.3 * kLink;
    }
  }
  return p;
}

class SyntheticMotionProblem : public mo::Problem {
 public:
  explicit SyntheticMotionProblem(double duration)
      : times_(mt::uniform_time_grid(0.0, duration, mt::kOutputPeriod)),
        reference_(make_reference(times_)),
        // The pinned postures must respect the angle limits (else no point is feasible): clamp them.
        parameterization_(
            mt::QuarticBspline(0.0, duration), kJoints,
            mt::EndSpec::fixed_at_rest(reference_.col(0).cwiseMax(-0.9).cwiseMin(0.9)),
            mt::EndSpec::fixed_at_rest(reference_.col(reference_.cols() - 1).cwiseMax(-0.9).cwiseMin(0.9))),
        basis_(parameterization_, times_),
        weight_(std::sqrt(2.0 * mt::kOutputPeriod)) {
    reference_positions_.resize(3 * kChains, num_samples());
    for (int n = 0; n < num_samples(); ++n) {
      for (int c = 0; c < kChains; ++c)
        reference_positions_.col(n).segment<3>(3 * c) = chain_position(reference_.col(n), c);
    }
    for (int c = 0; c < kChains; ++c) {
      for (int k = 0; k < kChainLength; ++k) chain_joints_[c][k] = c * kChainLength + k;
    }
  }

  int num_samples() const { return basis_.num_samples(); }
  Eigen::VectorXd initial_guess() const { return mt::fit_spline(parameterization_, times_, reference_); }

  int num_variables() const override { return parameterization_.num_variables(); }
  int num_residuals() const override { return num_samples() * (kJoints + 3 * kChains); }
  int num_inequalities() const override { return num_samples() * kJoints * kRowsPerJoint; }

  mo::SparseMatrix residual_jacobian_pattern() const override {
    mo::PatternBuilder b(num_residuals(), num_variables());
    std::vector<int> columns;
    for (int n = 0; n < num_samples(); ++n) {
      const int row = n * (kJoints + 3 * kChains);
      for (int j = 0; j < kJoints; ++j) {
        columns.clear();
        basis_.append_columns(n, std::array{j}, columns);
        b.add_columns(row + j, columns);
      }
      for (int c = 0; c < kChains; ++c) {
        columns.clear();
        basis_.append_columns(n, chain_joints_[c], columns);
        for (int d = 0; d < 3; ++d) b.add_columns(row + kJoints + 3 * c + d, columns);
      }
    }
    return b.build();
  }

  mo::SparseMatrix inequality_jacobian_pattern() const override {
    mo::PatternBuilder b(num_inequalities(), num_variables());
    std::vector<int> columns;
    for (int n = 0; n < num_samples(); ++n) {
      for (int j = 0; j < kJoints; ++j) {
        columns.clear();
        basis_.append_columns(n, std::array{j}, columns);
        for (int k = 0; k < kRowsPerJoint; ++k) b.add_columns((n * kJoints + j) * kRowsPerJoint + k, columns);
      }
    }
    return b.build();
  }

  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    basis_.evaluate(x, samples_);
    std::array<double, 3 * kChainLength> dp_dq;
    for (int n = 0; n < num_samples(); ++n) {
      const int row = n * (kJoints + 3 * kChains);
      out.residuals.segment(row, kJoints) = weight_ * (samples_.q.col(n) - reference_.col(n));
      for (int c = 0; c < kChains; ++c) {
        const Eigen::Vector3d p = chain_position(samples_.q.col(n), c, jacobians ? dp_dq.data() : nullptr);
        const double w = weight_ * std::sqrt(kPositionWeight);
        out.residuals.segment<3>(row + kJoints + 3 * c) =
            w * (p - reference_positions_.col(n).segment<3>(3 * c));
        if (!jacobians) continue;
        for (double& v : dp_dq) v *= w;
        for (int d = 0; d < 3; ++d) {
          const Eigen::Map<const Eigen::VectorXd> partial(dp_dq.data() + d * kChainLength, kChainLength);
          basis_.chain_rule(n, chain_joints_[c], partial, zero_, zero_,
                            mo::row_values(out.residual_jacobian, row + kJoints + 3 * c + d).data());
        }
      }
      for (int j = 0; j < kJoints; ++j) {
        const double v = velocity_limit(j);
        double* g = out.inequalities.data() + (n * kJoints + j) * kRowsPerJoint;
        g[0] = samples_.q(j, n) / kAngleLimit - 1.0;
        g[1] = -samples_.q(j, n) / kAngleLimit - 1.0;
        g[2] = samples_.qdot(j, n) / v - 1.0;
        g[3] = -samples_.qdot(j, n) / v - 1.0;
        if (!jacobians) continue;
        const int first_row = (n * kJoints + j) * kRowsPerJoint;
        for (int k = 0; k < basis_.slot_count(n); ++k) {
          const double b0 = basis_.coefficient(n, 0, k);
          const double b1 = basis_.coefficient(n, 1, k);
          mo::row_values(out.residual_jacobian, row + j)[k] = weight_ * b0;
          mo::row_values(out.inequality_jacobian, first_row)[k] = b0 / kAngleLimit;
          mo::row_values(out.inequality_jacobian, first_row + 1)[k] = -b0 / kAngleLimit;
          mo::row_values(out.inequality_jacobian, first_row + 2)[k] = b1 / v;
          mo::row_values(out.inequality_jacobian, first_row + 3)[k] = -b1 / v;
        }
      }
    }
  }

 private:
  std::vector<double> times_;
  Eigen::MatrixXd reference_;
  Eigen::MatrixXd reference_positions_;
  mt::SplineParameterization parameterization_;
  mt::SampledBasis basis_;
  double weight_;
  std::array<std::array<int, kChainLength>, kChains> chain_joints_;
  mt::JointSamples samples_;
  const Eigen::VectorXd zero_ = Eigen::VectorXd::Zero(kChainLength);  // no partials w.r.t. qdot, qddot
};

void describe_size(benchmark::State& state, const SyntheticMotionProblem& p) {
  state.counters["variables"] = p.num_variables();
  state.counters["residuals"] = p.num_residuals();
  state.counters["inequalities"] = p.num_inequalities();
}

void report(benchmark::State& state, const mo::SolveResult& r) {
  state.counters["iterations"] = r.iterations;
  state.counters["inner_steps"] = r.inner_iterations;
  state.counters["evaluations"] = r.evaluations;
  state.counters["s_per_iteration"] = r.seconds / std::max(1, r.iterations);
  state.counters["objective"] = r.objective;
  state.counters["max_violation"] = r.max_violation;
  state.counters["converged"] = r.success();
}

void BM_AugmentedLagrangian(benchmark::State& state) {
  SyntheticMotionProblem p(static_cast<double>(state.range(0)));
  const Eigen::VectorXd x0 = p.initial_guess();
  mo::SolveResult r;
  for (auto _ : state) r = mo::solve_augmented_lagrangian(p, x0);
  describe_size(state, p);
  report(state, r);
}

void BM_Ipopt(benchmark::State& state, mo::IpoptOptions::Hessian hessian) {
  SyntheticMotionProblem p(static_cast<double>(state.range(0)));
  const Eigen::VectorXd x0 = p.initial_guess();
  mo::IpoptOptions o;
  o.hessian = hessian;
  mo::SolveResult r;
  for (auto _ : state) r = mo::solve_with_ipopt(p, x0, o);
  describe_size(state, p);
  report(state, r);
}

// The pieces of one ALM step.
void BM_EvaluateWithJacobians(benchmark::State& state) {
  SyntheticMotionProblem p(static_cast<double>(state.range(0)));
  const Eigen::VectorXd x0 = p.initial_guess();
  mo::Evaluation e = mo::make_evaluation(p);
  for (auto _ : state) p.evaluate(x0, true, e);
  describe_size(state, p);
}

// The normal matrix of one ALM step: all residual rows, plus the violated inequalities (weighted like a
// penalty of 1e3).
struct NormalMatrixSetup {
  explicit NormalMatrixSetup(double duration)
      : problem(duration),
        evaluation(mo::make_evaluation(problem)),
        ones(Eigen::VectorXd::Ones(problem.num_residuals())) {
    problem.evaluate(problem.initial_guess(), true, evaluation);
    active = (evaluation.inequalities.array() > 0.0).cast<double>() * 1e3;
    normal.emplace(blocks(), nullptr);
  }
  std::array<const mo::SparseMatrix*, 2> blocks() const {
    return {&evaluation.residual_jacobian, &evaluation.inequality_jacobian};
  }
  void assemble() {
    const std::array<const Eigen::VectorXd*, 2> weights = {&ones, &active};
    normal->assemble(blocks(), weights);
    for (int i = 0; i < normal->size(); ++i) normal->add_to_diagonal(i, 1e-6);
  }
  void count(benchmark::State& state) const {
    describe_size(state, problem);
    state.counters["nnz_normal_matrix"] = static_cast<double>(normal->matrix().nonZeros());
    state.counters["active_rows"] = static_cast<double>((active.array() > 0.0).count());
  }
  SyntheticMotionProblem problem;
  mo::Evaluation evaluation;
  Eigen::VectorXd ones, active;
  std::optional<mo::NormalEquations> normal;
};

void BM_NormalMatrix(benchmark::State& state) {
  NormalMatrixSetup s(static_cast<double>(state.range(0)));
  for (auto _ : state) {
    s.assemble();
    benchmark::DoNotOptimize(s.normal->matrix().valuePtr());
  }
  s.count(state);
}

void BM_SparseLdlt(benchmark::State& state) {
  NormalMatrixSetup s(static_cast<double>(state.range(0)));
  s.assemble();
  Eigen::SimplicialLDLT<mo::SymmetricMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt;
  ldlt.analyzePattern(s.normal->matrix());
  for (auto _ : state) {
    ldlt.factorize(s.normal->matrix());
    benchmark::DoNotOptimize(ldlt.vectorD().data());
  }
  s.count(state);
}

// The factorisation of a normal matrix shaped like the motion problems' (a full band, b = 5 x 16 joints - 1
// = 79, n = 16 x (slots): boxing's 8 s at 200 Hz with 0.05 s knots is n = 3376): as one band (BandedCholesky,
// the solver before the split) and as NormalSolver does it now, two halves at once on `threads` threads
// (split_banded_cholesky.hpp). The ALM factorises such a matrix 4 - 6 times per Gauss-Newton step.
mo::SymmetricMatrix full_band(int n, int band) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> entries;
  for (int c = 0; c < n; ++c) {
    entries.emplace_back(c, c, 2.0 * (band + 1));  // diagonally dominant: positive definite
    for (int r = c + 1; r <= std::min(n - 1, c + band); ++r) entries.emplace_back(r, c, u(rng));
  }
  mo::SymmetricMatrix lower(n, n);
  lower.setFromTriplets(entries.begin(), entries.end());
  lower.makeCompressed();
  return lower;
}

void BM_BandedCholesky(benchmark::State& state) {
  const mo::SymmetricMatrix h = full_band(static_cast<int>(state.range(0)), 79);
  mo::BandedCholesky chol;
  chol.analyze(h);
  for (auto _ : state) benchmark::DoNotOptimize(chol.factorize(h));
}

void BM_NormalSolver(benchmark::State& state) {
  const mo::SymmetricMatrix h = full_band(static_cast<int>(state.range(0)), 79);
  mimic::core::ThreadPool pool(static_cast<int>(state.range(1)));
  mo::NormalSolver solver;
  solver.analyze(h, &pool);
  for (auto _ : state) benchmark::DoNotOptimize(solver.factorize(h));
  state.counters["split"] = solver.split();
}

// A solve with the factor (the ALM's Newton point of every active-set iteration, and each conjugate-gradient
// iteration of a Newton step): the one band, and the split factor's halves on `threads` threads.
void BM_NormalSolverSolve(benchmark::State& state) {
  const mo::SymmetricMatrix h = full_band(static_cast<int>(state.range(0)), 79);
  mimic::core::ThreadPool pool(std::max(1, static_cast<int>(state.range(1))));
  mo::NormalSolver solver;
  solver.analyze(h, &pool);
  mo::BandedCholesky band;
  band.analyze(h);
  if (!solver.factorize(h) || !band.factorize(h)) state.SkipWithError("not positive definite");
  Eigen::VectorXd x = Eigen::VectorXd::Ones(h.rows());
  for (auto _ : state) {
    if (state.range(1) == 0) {
      band.solve_in_place(x);
    } else {
      solver.solve_in_place(x);
    }
    benchmark::DoNotOptimize(x.data());
  }
}

}  // namespace

BENCHMARK(BM_EvaluateWithJacobians)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormalMatrix)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SparseLdlt)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BandedCholesky)->Arg(3376)->Arg(8496)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormalSolver)
    ->ArgsProduct({{3376, 8496}, {1, 2}})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// threads 0: the one band (BandedCholesky).
BENCHMARK(BM_NormalSolverSolve)
    ->ArgsProduct({{3376, 8496}, {0, 1, 2}})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_AugmentedLagrangian)->Arg(5)->Arg(10)->Arg(20)->Unit(benchmark::kSecond)->Iterations(1);
// L-BFGS needs ~4x the iterations and each costs more: 20 s would take minutes.
BENCHMARK_CAPTURE(BM_Ipopt, lbfgs, mo::IpoptOptions::Hessian::kLimitedMemory)
    ->Arg(5)
    ->Arg(10)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Ipopt, gauss_newton, mo::IpoptOptions::Hessian::kGaussNewton)
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

BENCHMARK_MAIN();
