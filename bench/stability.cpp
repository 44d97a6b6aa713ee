// Timings of the stability stage on HRP-2: leg IK (and the damped Newton leg IK on G1's leg, from
// ../shared/robots), preview-control gains, the tridiagonal cart-table solve,
// the multibody ZMP of a motion and the whole ZMP stabilizer on a 4 s fast torso / arm swing. Run:
//   build/bench/bench_stability --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/cart_table.hpp"
#include "mimic/stability/leg_ik.hpp"
#include "mimic/stability/motion_zmp.hpp"
#include "mimic/stability/zmp_stabilizer.hpp"
#include "mimic/walking/preview_control.hpp"

namespace {

using namespace mimic;

struct Hrp2 {
  model::Model model = model::load_urdf(MIMIC_SOURCE_DIR "/models/hrp2.urdf",
                                        model::LoadOptions::hrp2(model::RootType::kFreeFlyer));
  model::RobotDescription description = model::default_robot_description();
  stability::Feet feet = stability::Feet::from(model, description);
};

const Hrp2& robot() {
  static const Hrp2 r;
  return r;
}

// Half-sitting, 0.5 s still, 3 s of torso pitch and arm swing at 1.5 Hz whose ZMP leaves the feet by 14 cm
// (the motion of tests/stability/zmp_stabilizer.cpp), 0.5 s still.
model::SampledMotion fast_swing(const Hrp2& r) {
  const Eigen::VectorXd half_sitting = r.description.nominal_q(r.model);
  const int chest = r.model.idx_q(r.model.joint_index("CHEST_JOINT1"));
  const int right_arm = r.model.idx_q(r.model.joint_index("RARM_JOINT0"));
  const int left_arm = r.model.idx_q(r.model.joint_index("LARM_JOINT0"));
  const double w = 2.0 * M_PI * 1.5;
  model::SampledMotion m;
  const int n = 801;
  m.q.resize(r.model.nq, n);
  for (int k = 0; k < n; ++k) {
    const double t = 0.005 * k;
    m.times.push_back(t);
    m.q.col(k) = half_sitting;
    const double s = (t > 0.5 && t < 3.5) ? std::sin(M_PI * (t - 0.5) / 3.0) : 0.0;
    m.q(chest, k) += s * s * 0.15 * (1.0 - std::cos(w * t));
    m.q(right_arm, k) -= s * s * 0.6 * std::sin(w * t);
    m.q(left_arm, k) -= s * s * 0.6 * std::sin(w * t);
  }
  m.phases.assign(n, model::ContactPhase::kDoubleSupport);
  model::differentiate(r.model, m.times, m.q, m.v, m.a);
  return m;
}

void BM_LegIk(benchmark::State& state) {
  const Hrp2& r = robot();
  const stability::LegKinematics leg(r.model, r.description.frames.right_sole);
  std::mt19937 rng(1);
  model::Data data(r.model);
  std::vector<spatial::SE3> waists, soles;
  for (int k = 0; k < 64; ++k) {
    const Eigen::VectorXd q = model::random_configuration(r.model, rng);
    dynamics::forward_kinematics(r.model, data, q);
    waists.push_back(model::base_placement(r.model, q));
    soles.push_back(dynamics::update_frame_placement(r.model, data, r.feet.right_sole_frame));
  }
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(leg.solve(waists[k], soles[k]));
    k = (k + 1) % waists.size();
  }
}
BENCHMARK(BM_LegIk);

// G1's right leg (pitch-roll-yaw hip at three points, pitch-roll ankle): the damped Newton solve, warm
// (seeded with the answer moved by up to 0.05 rad in every joint, as from the previous sample of a motion)
// and cold (seeded with the straight leg) on 64 poses within 1 rad of the zero pose.
void leg_ik_g1(benchmark::State& state, bool warm) {
  const char* env = std::getenv("MIMIC_SHARED_DIR");
  const std::filesystem::path urdf =
      std::filesystem::path(env && *env ? env : MIMIC_SHARED_DIR_DEFAULT) / "robots/g1/g1_29dof_rev_1_0.urdf";
  if (!std::filesystem::exists(urdf)) {
    state.SkipWithError(("shared data not found: " + urdf.string()).c_str());
    return;
  }
  const model::Model model = model::load_urdf(urdf.string());
  const stability::LegKinematics leg(model, "right_ankle_roll_link");
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<stability::LegAngles> seeds;
  std::vector<spatial::SE3> soles;
  const spatial::SE3 root(Eigen::Matrix3d::Identity(), spatial::Vec3(0.0, 0.0, 0.8));
  for (int k = 0; k < 64; ++k) {
    stability::LegAngles q;
    for (int i = 0; i < stability::kLegJoints; ++i)
      q(i) = std::clamp(u(rng), 0.8 * leg.lower_limit(i), 0.8 * leg.upper_limit(i));
    soles.push_back(leg.sole_pose(root, q));
    stability::LegAngles seed = stability::LegAngles::Zero();
    if (warm)
      for (int i = 0; i < stability::kLegJoints; ++i) seed(i) = q(i) + 0.05 * u(rng);
    seeds.push_back(seed);
  }
  std::size_t k = 0;
  int failed = 0;
  for (auto _ : state) {
    const stability::LegIkResult result = leg.solve(root, soles[k], seeds[k]);
    failed += result.ok() ? 0 : 1;
    benchmark::DoNotOptimize(result);
    k = (k + 1) % soles.size();
  }
  state.counters["failed"] = failed;
}

void BM_LegIkDampedNewtonWarm(benchmark::State& state) { leg_ik_g1(state, true); }
BENCHMARK(BM_LegIkDampedNewtonWarm);

void BM_LegIkDampedNewtonCold(benchmark::State& state) { leg_ik_g1(state, false); }
BENCHMARK(BM_LegIkDampedNewtonCold);

void BM_PreviewGains(benchmark::State& state) {
  walking::PreviewControlOptions options;
  for (auto _ : state) benchmark::DoNotOptimize(walking::PreviewController(options).gains().integral);
}
BENCHMARK(BM_PreviewGains)->Unit(benchmark::kMicrosecond);

void BM_CartTableSolve(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> zmp(n), com(n);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  for (double& p : zmp) p = u(rng);
  const stability::CartTable cart;
  for (auto _ : state) {
    stability::solve_com_for_zmp(cart, zmp, com, stability::CartBoundary::kNeighbourAcceleration);
    benchmark::DoNotOptimize(com.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CartTableSolve)->Arg(2000)->Unit(benchmark::kMicrosecond);

void BM_MotionZmp(benchmark::State& state) {
  const Hrp2& r = robot();
  const model::SampledMotion motion = fast_swing(r);
  for (auto _ : state) benchmark::DoNotOptimize(stability::motion_zmp(r.model, r.feet, motion).worst_margin);
  state.SetItemsProcessed(state.iterations() * motion.size());
}
BENCHMARK(BM_MotionZmp)->Unit(benchmark::kMillisecond);

void BM_StabilizeFastSwing(benchmark::State& state) {
  const Hrp2& r = robot();
  const model::SampledMotion motion = fast_swing(r);
  for (auto _ : state)
    benchmark::DoNotOptimize(stability::stabilize_zmp(r.model, r.feet, motion).report.final_worst_margin);
  state.SetItemsProcessed(state.iterations() * motion.size());
}
BENCHMARK(BM_StabilizeFastSwing)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
