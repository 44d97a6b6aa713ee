// Cost of the RNEA derivatives on HRP-2 with the free-flyer (nv = 36), all in one run:
//   Rnea                    one inverse dynamics, rnea(q, v, a)
//   RneaDerivatives         dtau/dq, dtau/dv, dtau/da analytically (compute_rnea_derivatives)
//   RneaVjp                 w^T dtau/d(q, v, a) (compute_rnea_vjp)
//   RneaFiniteDifferences   the same three Jacobians by central differences of rnea (6 nv = 216 calls)
// Run: bench_dynamics_derivatives --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// After the table, the medians (the per-iteration mean when there are no repetitions) and the minima, with
// their ratios to one RNEA, are printed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"
#include "mimic/model/configuration.hpp"

namespace {

using mimic::dynamics::DerivativeData;
using mimic::model::Data;
using mimic::model::Model;

struct Problem {
  Model model;
  Eigen::VectorXd q, v, a, w;

  Problem()
      : model(mimic::model::load_urdf(std::string(MIMIC_SOURCE_DIR) + "/models/hrp2.urdf",
                                      mimic::model::LoadOptions::hrp2(mimic::model::RootType::kFreeFlyer))) {
    std::mt19937 rng(42);
    q = mimic::model::random_configuration(model, rng);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    v.resize(model.nv);
    a.resize(model.nv);
    w.resize(model.nv);
    for (int k = 0; k < model.nv; ++k) {
      v[k] = u(rng);
      a[k] = u(rng);
      w[k] = u(rng);
    }
  }
};

const Problem& problem() {
  static const Problem p;
  return p;
}

void Rnea(benchmark::State& state) {
  const Problem& p = problem();
  Data data(p.model);
  for (auto _ : state) {
    benchmark::DoNotOptimize(mimic::dynamics::rnea(p.model, data, p.q, p.v, p.a).data());
    benchmark::ClobberMemory();
  }
}

void RneaDerivatives(benchmark::State& state) {
  const Problem& p = problem();
  DerivativeData dd(p.model);
  for (auto _ : state) {
    mimic::dynamics::compute_rnea_derivatives(p.model, dd, p.q, p.v, p.a);
    benchmark::DoNotOptimize(dd.dtau_dq.data());
    benchmark::ClobberMemory();
  }
}

void RneaVjp(benchmark::State& state) {
  const Problem& p = problem();
  DerivativeData dd(p.model);
  for (auto _ : state) {
    mimic::dynamics::compute_rnea_vjp(p.model, dd, p.q, p.v, p.a, p.w);
    benchmark::DoNotOptimize(dd.vjp_dq.data());
    benchmark::ClobberMemory();
  }
}

// Central differences: q along the tangent space (integrate), v and a componentwise; no allocation in the
// loop, so that only RNEA calls are timed.
void RneaFiniteDifferences(benchmark::State& state) {
  const Problem& p = problem();
  const Model& m = p.model;
  Data data(m);
  Eigen::MatrixXd dq(m.nv, m.nv), dv(m.nv, m.nv), da(m.nv, m.nv);
  Eigen::VectorXd qp(m.nq), e = Eigen::VectorXd::Zero(m.nv), x(m.nv), tp(m.nv);
  const double h = 1e-6;
  for (auto _ : state) {
    for (int k = 0; k < m.nv; ++k) {
      e[k] = h;
      mimic::model::integrate(m, p.q, e, qp);
      tp = mimic::dynamics::rnea(m, data, qp, p.v, p.a);
      e[k] = -h;
      mimic::model::integrate(m, p.q, e, qp);
      dq.col(k) = (tp - mimic::dynamics::rnea(m, data, qp, p.v, p.a)) / (2.0 * h);
      e[k] = 0.0;
    }
    for (Eigen::MatrixXd* out : {&dv, &da}) {
      const Eigen::VectorXd& base = out == &dv ? p.v : p.a;
      x = base;
      for (int k = 0; k < m.nv; ++k) {
        x[k] = base[k] + h;
        tp = out == &dv ? mimic::dynamics::rnea(m, data, p.q, x, p.a)
                        : mimic::dynamics::rnea(m, data, p.q, p.v, x);
        x[k] = base[k] - h;
        const Eigen::VectorXd& tm = out == &dv ? mimic::dynamics::rnea(m, data, p.q, x, p.a)
                                               : mimic::dynamics::rnea(m, data, p.q, p.v, x);
        out->col(k) = (tp - tm) / (2.0 * h);
        x[k] = base[k];
      }
    }
    benchmark::DoNotOptimize(dq.data());
    benchmark::DoNotOptimize(dv.data());
    benchmark::DoNotOptimize(da.data());
    benchmark::ClobberMemory();
  }
}

// Besides the median, the minimum over the repetitions: on a shared machine other processes only ever add
// time, so the minimum is the least disturbed estimate of each cost.
double minimum(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

BENCHMARK(Rnea)->ComputeStatistics("min", minimum);
BENCHMARK(RneaDerivatives)->ComputeStatistics("min", minimum);
BENCHMARK(RneaVjp)->ComputeStatistics("min", minimum);
BENCHMARK(RneaFiniteDifferences)->ComputeStatistics("min", minimum);

// Console output plus the medians (or, without repetitions, the single run) collected by benchmark name.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      const bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
      const double ns = r.GetAdjustedRealTime() * to_ns(r.time_unit);
      if (median || single) time_ns_[r.run_name.function_name] = ns;
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "min")
        min_ns_[r.run_name.function_name] = ns;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (!time_ns_.count("Rnea")) return;
    print("median", time_ns_);
    print("minimum", min_ns_);
  }

 private:
  static double to_ns(benchmark::TimeUnit u) {
    switch (u) {
      case benchmark::kNanosecond:
        return 1.0;
      case benchmark::kMicrosecond:
        return 1e3;
      case benchmark::kMillisecond:
        return 1e6;
      case benchmark::kSecond:
        return 1e9;
    }
    return 1.0;
  }
  static void print(const char* statistic, std::map<std::string, double>& t) {
    if (!t.count("Rnea")) return;
    std::printf("\nHRP-2 free-flyer (nv = 36), %s real time:\n", statistic);
    for (const char* name : {"Rnea", "RneaDerivatives", "RneaVjp", "RneaFiniteDifferences"}) {
      if (!t.count(name)) continue;
      std::printf("  %-22s %10.3f us  = %7.2f x RNEA\n", name, t[name] * 1e-3, t[name] / t["Rnea"]);
    }
    if (t.count("RneaDerivatives") && t.count("RneaFiniteDifferences"))
      std::printf("  finite differences / analytic derivatives = %.1f x\n",
                  t["RneaFiniteDifferences"] / t["RneaDerivatives"]);
  }
  std::map<std::string, double> time_ns_, min_ns_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
