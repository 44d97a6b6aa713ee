// Timings of the dynamics core on HRP-2 (36 DoF with the free-flyer): forward kinematics, RNEA with the
// base fixed and free, centre of mass. Run:
//   build/bench/bench_dynamics --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// Each iteration cycles through a pool of random states so the branch predictor cannot learn one state.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"

namespace {

using namespace mimic;

struct States {
  explicit States(const model::Model& model) {
    std::mt19937 rng(12345);
    for (int k = 0; k < kCount; ++k) {
      q.push_back(model::random_configuration(model, rng));
      v.push_back(Eigen::VectorXd::Random(model.nv));
      a.push_back(Eigen::VectorXd::Random(model.nv));
    }
  }
  static constexpr int kCount = 64;
  std::vector<Eigen::VectorXd> q, v, a;
};

const model::Model& hrp2(model::RootType root) {
  static const model::Model free_flyer = model::load_urdf(
      MIMIC_SOURCE_DIR "/models/hrp2.urdf", model::LoadOptions::hrp2(model::RootType::kFreeFlyer));
  static const model::Model fixed = model::load_urdf(MIMIC_SOURCE_DIR "/models/hrp2.urdf",
                                                     model::LoadOptions::hrp2(model::RootType::kFixed));
  return root == model::RootType::kFixed ? fixed : free_flyer;
}

void BM_ForwardKinematics(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  int k = 0;
  for (auto _ : state) {
    dynamics::forward_kinematics(model, data, s.q[k]);
    benchmark::DoNotOptimize(data.oMi.back());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_ForwardKinematics);

void BM_ForwardKinematicsVelocityAcceleration(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  int k = 0;
  for (auto _ : state) {
    dynamics::forward_kinematics(model, data, s.q[k], s.v[k], s.a[k]);
    benchmark::DoNotOptimize(data.a.back());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_ForwardKinematicsVelocityAcceleration);

void BM_RneaFixedBase(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFixed);
  model::Data data(model);
  const States s(model);
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynamics::rnea(model, data, s.q[k], s.v[k], s.a[k]).data());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_RneaFixedBase);

void BM_RneaFreeFlyer(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynamics::rnea(model, data, s.q[k], s.v[k], s.a[k]).data());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_RneaFreeFlyer);

void BM_RneaFreeFlyerExternalWrenches(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  dynamics::ExternalForces fext(model.nbodies, spatial::Force::from_vector(spatial::Vec6::Random()));
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynamics::rnea(model, data, s.q[k], s.v[k], s.a[k], fext).data());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_RneaFreeFlyerExternalWrenches);

void BM_CenterOfMass(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dynamics::center_of_mass(model, data, s.q[k]).data());
    k = (k + 1) % States::kCount;
  }
}
BENCHMARK(BM_CenterOfMass);

void BM_FrameJacobian(benchmark::State& state) {
  const auto& model = hrp2(model::RootType::kFreeFlyer);
  model::Data data(model);
  const States s(model);
  dynamics::forward_kinematics(model, data, s.q[0]);
  Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, model.nv);
  const int frame = model.frame_index("r_gripper");
  for (auto _ : state) {
    dynamics::frame_jacobian(model, data, frame, dynamics::ReferenceFrame::kLocalWorldAligned, J);
    benchmark::DoNotOptimize(J.data());
  }
}
BENCHMARK(BM_FrameJacobian);

}  // namespace

BENCHMARK_MAIN();
