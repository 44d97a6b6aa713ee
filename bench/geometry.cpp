// Timings of the self-collision distances of HRP-2 (issue 13 target: distance + gradient of every checked
// pair of one configuration in <= 5 us): each iteration is one call of distances.hpp's compute_*, that is
// forward kinematics, the 15 shapes placed, the 91 pairs' distances and closest points (capsules, boxes)
// and the 8 sole corners' heights; with gradients also every dof's world axis and the 91 + 8 gradient rows;
// and the same screened to the pairs within 5 cm (bounding spheres). Run:
//   build/bench/bench_geometry --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// Each iteration takes the next of a pool of configurations (random within the limits, and near the
// half-sitting), so the branch predictor cannot learn one.
// Machine-independent count (callgrind, --toggle-collect='mimic::geometry::compute_distance_gradients*'):
// about 70.7k instructions per BM_DistancesAndGradients iteration (76.1k before the box-box pruning and
// the per-pair routine table), of which the capsule-box and box-box edge closest points take ~14.7k
// (24 pairs, ~4 edges), the capsule-capsule ones ~10.0k (66 pairs), forward kinematics ~9.3k, box_box's
// bounds ~3.5k, the rest the per-pair set-up and the gradient rows. On a loaded 2-core machine the median
// was 4.5-4.6 us CPU (the same build of main: 4.8 us).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "mimic/geometry/distances.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"

namespace {

using namespace mimic;

struct Setup {
  Setup() {
    std::mt19937 rng(12345);
    const Eigen::VectorXd nominal = robot.description.nominal_q(robot.model);
    std::normal_distribution<double> noise(0.0, 0.2);
    for (int k = 0; k < 64; ++k) {
      if (k % 2 == 0) {
        q.push_back(model::random_configuration(robot.model, rng));
      } else {
        Eigen::VectorXd dv(robot.model.nv);
        for (auto& x : dv) x = noise(rng);
        q.push_back(model::integrate(robot.model, nominal, dv));
      }
    }
  }
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  geometry::CollisionModel cmodel = geometry::build_collision_model(robot.model, robot.description);
  std::vector<Eigen::VectorXd> q;
};

const Setup& setup() {
  static const Setup instance;
  return instance;
}

void BM_Distances(benchmark::State& state) {
  const Setup& s = setup();
  model::Data data(s.robot.model);
  geometry::CollisionData cdata(s.robot.model, s.cmodel);
  size_t k = 0;
  for (auto _ : state) {
    geometry::compute_distances(s.robot.model, data, s.cmodel, cdata, s.q[k++ % s.q.size()]);
    benchmark::DoNotOptimize(cdata.distance.data());
  }
  state.counters["pairs"] = static_cast<double>(s.cmodel.pairs.size());
}
BENCHMARK(BM_Distances);

void BM_DistancesAndGradients(benchmark::State& state) {
  const Setup& s = setup();
  model::Data data(s.robot.model);
  geometry::CollisionData cdata(s.robot.model, s.cmodel);
  size_t k = 0;
  for (auto _ : state) {
    geometry::compute_distance_gradients(s.robot.model, data, s.cmodel, cdata, s.q[k++ % s.q.size()]);
    benchmark::DoNotOptimize(cdata.distance_gradient.data());
  }
  state.counters["pairs"] = static_cast<double>(s.cmodel.pairs.size());
}
BENCHMARK(BM_DistancesAndGradients);

// The screened evaluation a problem would use: only the pairs whose bounding spheres are within 5 cm.
void BM_NearDistancesAndGradients(benchmark::State& state) {
  const Setup& s = setup();
  model::Data data(s.robot.model);
  geometry::CollisionData cdata(s.robot.model, s.cmodel);
  size_t k = 0;
  double near = 0.0;
  for (auto _ : state) {
    geometry::compute_near_distance_gradients(s.robot.model, data, s.cmodel, cdata, s.q[k++ % s.q.size()],
                                              0.05);
    benchmark::DoNotOptimize(cdata.distance_gradient.data());
    near += cdata.near_count;
  }
  state.counters["near pairs"] = near / static_cast<double>(state.iterations());
}
BENCHMARK(BM_NearDistancesAndGradients);

}  // namespace

BENCHMARK_MAIN();
