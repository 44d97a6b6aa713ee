// Cost of the motion optimisation (seed 000 section VI) on the shipped boxing sample: the clip is
// retargeted once (pipeline::kinematic_retarget: landmarks, upper-body IK, Algorithm 1, 200 Hz), cut to
// 5, 10 and 20 s (looped when shorter; a loop seam is a jump only the optimisation smooths), and the
// imitation problem solved with each back end. Reported per run: total seconds, solver iterations,
// seconds per iteration, solves (torque refinements) and the final peak ratios. Target (issue 6): the
// 10 s problem in <= 30 s on a 2-core machine.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "mimic/model/robot_config.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"

namespace {

namespace mm = mimic::motion;

struct Boxing {
  mimic::model::Model model;
  mm::MotionInput full;
};

const Boxing& boxing() {
  static const std::unique_ptr<Boxing> data = [] {
    auto b = std::make_unique<Boxing>();
    const mimic::model::RobotConfig config =
        mimic::model::load_robot_config(mimic::model::default_robot_config_path());
    b->model =
        mimic::model::load_urdf(mimic::model::default_hrp2_urdf_path(), mimic::model::LoadOptions::hrp2());
    const Eigen::VectorXd half_sitting = config.half_sitting(b->model);
    const mimic::mocap::Clip clip =
        mimic::mocap::load_clip(std::filesystem::path(MIMIC_SOURCE_DIR) / "data/mocap/boxing.bvh");
    const auto retarget = mimic::pipeline::kinematic_retarget(clip, b->model, half_sitting,
                                                              mimic::pipeline::KinematicRetargetOptions{});
    const auto& ref = retarget.reference;
    b->full.rate = ref.rate;
    b->full.joints = ref.joints;
    b->full.end_effectors = ref.end_effectors;
    b->full.waist = ref.waist;
    b->full.rest = half_sitting.tail(b->model.nj);
    return b;
  }();
  return *data;
}

// The first `seconds` of the clip, looping it when shorter; the last sample is set back to the first so
// that the pinned ends are the (in-limit) start posture.
mm::MotionInput cut(const mm::MotionInput& full, double seconds) {
  const int n = static_cast<int>(seconds * full.rate) + 1;
  const int source = full.sample_count();
  mm::MotionInput input = full;
  input.joints.resize(n, 30);
  input.end_effectors.resize(n, 9);
  input.waist.resize(n, 6);
  for (int i = 0; i < n; ++i) {
    const int s = i % source;
    input.joints.row(i) = full.joints.row(s);
    input.end_effectors.row(i) = full.end_effectors.row(s);
    input.waist.row(i) = full.waist.row(s);
  }
  return input;
}

void BM_Imitation(benchmark::State& state) {
  const Boxing& b = boxing();
  const mm::MotionInput input = cut(b.full, static_cast<double>(state.range(0)));
  mm::MotionSettings settings;
  settings.solver.name = state.range(1) == 0 ? mimic::io::SolverKind::kAlm : mimic::io::SolverKind::kIpopt;
  mm::MotionResult result;
  for (auto _ : state) result = mm::optimize_motion(b.model, input, settings);
  state.counters["solver_s"] = result.total_seconds;
  state.counters["iterations"] = result.total_iterations;
  state.counters["s_per_iter"] = result.total_seconds / std::max(result.total_iterations, 1);
  state.counters["solves"] = result.solves;
  state.counters["success"] = result.success;
  state.counters["vel_ratio"] = result.metrics.velocity.ratio;
  state.counters["tau_ratio"] = result.metrics.torque.ratio;
  state.counters["rmse_rad"] = result.metrics.joint_rmse;
  state.SetLabel(result.success ? "ok" : result.failure);
}

}  // namespace

BENCHMARK(BM_Imitation)
    ->ArgsProduct({{5, 10, 20}, {0, 1}})
    ->ArgNames({"seconds", "ipopt"})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

BENCHMARK_MAIN();
