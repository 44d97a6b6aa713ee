// Kinematic retargeting throughput on the project's boxing sample (data/mocap/boxing.bvh): landmark
// extraction, per-frame upper-body IK (warm-started, as in a whole clip) and Algorithm 1 with the 200 Hz
// resampling. Target (issue 5): >= 1000 frames/s for the IK on this 2-core machine.
// BM_RetargetEndToEnd (issue 15): the whole `mimic retarget data/mocap/boxing.bvh` short of writing its
// files (pipeline::run_retarget_pipeline: load, kinematic retarget, optimisation, ZMP correction, check) on
// 1 and 2 threads, with the process CPU time and the seconds of each stage. Target: <= 0.15 x the clip's
// 8 s (1.2 s) on 2 cores. BM_RetargetWholeBodyWalk (issues 14, 15): `mimic retarget data/mocap/walk.bvh
// --whole-body` likewise.
#include <benchmark/benchmark.h>

#include <ctime>
#include <string>
#include <vector>

#include "mimic/mocap/load.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace {

using namespace mimic;

struct Setup {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  const model::Model& model = robot.model;
  Eigen::VectorXd rest = robot.description.nominal_q(model);
  mocap::Clip clip = mocap::load_clip(std::string(MIMIC_SOURCE_DIR) + "/data/mocap/boxing.bvh");
  retarget::LandmarkTrack track = retarget::extract_landmarks(clip);
  retarget::ReferenceMotion motion = retarget::retarget_motion(track, model, robot.description, rest);
};

const Setup& setup() {
  static const Setup s;
  return s;
}

// The whole clip, frame after frame: what `mimic retarget` spends in the IK.
void BM_RetargetBoxingClip(benchmark::State& state) {
  const Setup& s = setup();
  for (auto _ : state) {
    retarget::ReferenceMotion m = retarget::retarget_motion(s.track, s.model, s.robot.description, s.rest);
    benchmark::DoNotOptimize(m.motion.q.data());
  }
  state.SetItemsProcessed(state.iterations() * s.track.frame_count());
  state.counters["frames"] = s.track.frame_count();
}
BENCHMARK(BM_RetargetBoxingClip)->Unit(benchmark::kMillisecond);

// One warm-started frame in the middle of a punch sequence.
void BM_UpperBodyIkFrame(benchmark::State& state) {
  const Setup& s = setup();
  retarget::UpperBodyIk ik(s.model, s.robot.description);
  const int f = s.track.frame_count() / 2;
  const auto targets = retarget::upper_body_targets(s.track, s.track.frames[static_cast<std::size_t>(f)], 1.0,
                                                    ik.gripper_length());
  const Eigen::VectorXd previous = s.motion.motion.q.col(f - 1).tail(s.model.nj);
  Eigen::VectorXd joints(previous.size());
  for (auto _ : state) {
    joints = previous;
    benchmark::DoNotOptimize(ik.solve(targets, joints, 1.0 / s.track.rate));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpperBodyIkFrame)->Unit(benchmark::kMicrosecond);

void BM_ExtractLandmarks(benchmark::State& state) {
  const Setup& s = setup();
  for (auto _ : state) {
    retarget::LandmarkTrack t = retarget::extract_landmarks(s.clip);
    benchmark::DoNotOptimize(t.frames.data());
  }
  state.SetItemsProcessed(state.iterations() * s.track.frame_count());
}
BENCHMARK(BM_ExtractLandmarks)->Unit(benchmark::kMillisecond);

void BM_Algorithm1AndResampling(benchmark::State& state) {
  const Setup& s = setup();
  for (auto _ : state) {
    retarget::RetimedReference r =
        retarget::reparameterize(s.model, s.motion, s.model.velocity_limit, 0.9, 200.0);
    benchmark::DoNotOptimize(r.motion.motion.q.data());
  }
  state.SetItemsProcessed(state.iterations() * s.track.frame_count());
}
BENCHMARK(BM_Algorithm1AndResampling)->Unit(benchmark::kMillisecond);

// One run of the pipeline with the process CPU time and each stage's seconds as counters.
pipeline::RetargetPipelineResult timed_pipeline(const io::JobConfig& job, benchmark::State& state) {
  const double start = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
  pipeline::RetargetPipelineResult result = pipeline::run_retarget_pipeline(job);
  state.counters["cpu_s"] = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - start;
  for (const pipeline::StageTime& stage : result.stages) {
    std::string name = stage.stage;
    for (char& c : name) c = c == ' ' ? '_' : c;
    state.counters[name + "_s"] = stage.seconds;
  }
  return result;
}

void BM_RetargetEndToEnd(benchmark::State& state) {
  io::JobConfig job = io::default_job(io::JobKind::kRetarget);
  job.input = std::string(MIMIC_SOURCE_DIR) + "/data/mocap/boxing.bvh";
  job.output.path = "boxing.pos";  // not written
  job.solver.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const pipeline::RetargetPipelineResult result = timed_pipeline(job, state);
    state.counters["joint_rmse_rad"] = result.check.imitation ? result.check.imitation->joint_rmse : 0.0;
    benchmark::DoNotOptimize(result.output.pos.angles.data());
  }
  state.counters["threads"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_RetargetEndToEnd)
    ->Arg(1)
    ->Arg(2)
    ->ArgNames({"threads"})
    ->Iterations(3)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

// Issue 14 / 15: `mimic retarget data/mocap/walk.bvh --whole-body` short of writing its files (the clip's
// footsteps walked by the robot, seed 001's smoothing of legs and waist, the check) on 1 and 2 threads, with
// the process CPU time, each stage's seconds, the clip's duration and the written motion's (the robot walks
// slower than the human). Target: <= 1 x the clip's duration on 2 cores (the smoothing stage is most of it).
void BM_RetargetWholeBodyWalk(benchmark::State& state) {
  io::JobConfig job = io::default_job(io::JobKind::kRetarget);
  job.input = std::string(MIMIC_SOURCE_DIR) + "/data/mocap/walk.bvh";
  job.output.path = "walk.pos";  // not written
  job.retarget.mode = io::RetargetMode::kWholeBody;
  job.solver.threads = static_cast<int>(state.range(0));
  const double clip_seconds = mocap::load_clip(job.input).duration();
  for (auto _ : state) {
    const pipeline::RetargetPipelineResult result = timed_pipeline(job, state);
    state.counters["clip_s"] = clip_seconds;
    const std::vector<double>& times = result.output.pos.times;
    state.counters["output_s"] = times.empty() ? 0.0 : times.back() - times.front();
    benchmark::DoNotOptimize(result.output.pos.angles.data());
  }
  state.counters["threads"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_RetargetWholeBodyWalk)
    ->Arg(1)
    ->Arg(2)
    ->ArgNames({"threads"})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

// The same on 2 threads with the job's first penalty (solver.alm.penalty_initial) moved by `draw` x 1e-6
// relative: like the torque objective's (bench_motion's BM_TorqueObjectiveDraws), the smoothing's path is
// chaotic, and a change of the per-step cost is judged over draws -3 .. 3.
void BM_RetargetWholeBodyWalkDraws(benchmark::State& state) {
  io::JobConfig job = io::default_job(io::JobKind::kRetarget);
  job.input = std::string(MIMIC_SOURCE_DIR) + "/data/mocap/walk.bvh";
  job.output.path = "walk.pos";  // not written
  job.retarget.mode = io::RetargetMode::kWholeBody;
  job.solver.threads = 2;
  job.solver.alm.penalty_initial *= 1.0 + 1e-6 * static_cast<double>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(timed_pipeline(job, state).output.pos.angles.data());
}
BENCHMARK(BM_RetargetWholeBodyWalkDraws)
    ->DenseRange(-3, 3)
    ->ArgNames({"draw"})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
