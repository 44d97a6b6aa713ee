// Cost of the motion optimisation (seed 000 section VI) on the shipped boxing sample, on the problem the
// retarget pipeline solves: the clip is retargeted once (pipeline::kinematic_retarget: landmarks,
// upper-body IK, Algorithm 1, 200 Hz) and prepared as `mimic retarget` prepares it (waist clamped to the
// legs' reach and smoothed, feet planted by the leg IK: pipeline::prepare_reference), then cut to its first
// 5, 10 and 20 s (the re-timed clip lasts 21.2 s) and the imitation problem solved with each back end.
// Reported per run: total seconds, solver iterations, seconds per iteration, solves (torque refinements) and
// the final peak ratios (and the closest pair's distance with the self-collision rows, `collision:1`; the
// boxing clip brings the right hand to the head after 19 s). Target (issue 6): the 10 s problem in <= 30 s on
// a 2-core machine, cost linear in the clip length.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "mimic/motion/optimize_motion.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"
#include "mimic/pipeline/reference_preparation.hpp"
#include "mimic/pipeline/robot.hpp"

namespace {

namespace mm = mimic::motion;

struct Boxing {
  mimic::pipeline::Robot robot;
  mm::MotionInput full;
};

const Boxing& boxing() {
  static const std::unique_ptr<Boxing> data = [] {
    auto b = std::make_unique<Boxing>();
    b->robot = mimic::pipeline::load_robot(mimic::io::RobotSettings{});
    const Eigen::VectorXd half_sitting = b->robot.description.nominal_q(b->robot.model);
    const mimic::mocap::Clip clip =
        mimic::mocap::load_clip(std::filesystem::path(MIMIC_SOURCE_DIR) / "data/mocap/boxing.bvh");
    auto retarget = mimic::pipeline::kinematic_retarget(clip, b->robot.model, half_sitting,
                                                        mimic::pipeline::KinematicRetargetOptions{});
    auto& ref = retarget.reference;
    mimic::pipeline::prepare_reference(b->robot, ref, mm::MotionSettings{}.knot_spacing);
    b->full.rate = ref.rate;
    b->full.motion = ref.motion;
    b->full.end_effectors = ref.end_effectors;
    return b;
  }();
  return *data;
}

// The first `seconds` of the prepared clip (all of it when shorter), differentiated again as a motion of
// its own (one-sided at its new end).
mm::MotionInput cut(const mimic::model::Model& model, const mm::MotionInput& full, double seconds) {
  const int n = std::min(static_cast<int>(seconds * full.rate) + 1, full.sample_count());
  mm::MotionInput input = full;
  input.motion.times.resize(static_cast<std::size_t>(n));
  input.motion.phases.resize(static_cast<std::size_t>(n));
  input.motion.q = full.motion.q.leftCols(n);
  mimic::model::differentiate(model, input.motion);
  input.end_effectors = full.end_effectors.leftCols(n);
  return input;
}

void BM_Imitation(benchmark::State& state) {
  const Boxing& b = boxing();
  const mm::MotionInput input = cut(b.robot.model, b.full, static_cast<double>(state.range(0)));
  // The settings of a default retarget job, with the back end of the run.
  mimic::io::JobConfig job = mimic::io::default_job(mimic::io::JobKind::kRetarget);
  job.solver.name =
      state.range(1) == 0 ? mimic::optim::Backend::kAugmentedLagrangian : mimic::optim::Backend::kIpopt;
  mm::MotionSettings settings = mimic::pipeline::motion_settings(job);
  // With the self-collision rows (issue 13) as `mimic retarget` solves it, or without.
  if (state.range(2) == 1) settings.geometry.collision = b.robot.collision;
  mm::MotionResult result;
  for (auto _ : state) result = mm::optimize_motion(b.robot.model, b.robot.description, input, settings);
  state.counters["seconds_of_motion"] = (input.sample_count() - 1) / input.rate;
  state.counters["solver_s"] = result.total_seconds;
  state.counters["iterations"] = result.total_iterations;
  state.counters["s_per_iter"] = result.total_seconds / std::max(result.total_iterations, 1);
  state.counters["solves"] = result.solves;
  state.counters["success"] = result.success;
  state.counters["vel_ratio"] = result.metrics.velocity.ratio;
  state.counters["tau_ratio"] = result.metrics.torque.ratio;
  state.counters["rmse_rad"] = result.metrics.imitation.joint_rmse;
  state.counters["min_distance_m"] = result.metrics.min_distance;
  state.SetLabel(result.success ? "ok" : result.failure);
}

}  // namespace

BENCHMARK(BM_Imitation)
    ->ArgsProduct({{5, 10, 20}, {0, 1}, {0, 1}})
    ->ArgNames({"seconds", "ipopt", "collision"})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

BENCHMARK_MAIN();
