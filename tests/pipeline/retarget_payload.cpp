// A retarget job's payload is part of every stage after the kinematic retarget: the optimisation, the ZMP
// correction and the check of the written motion all see the robot that carries it (pipeline::load_robot
// once, with the payload). Before, only the optimisation did, and the ZMP and torques reported for a job
// with a payload were those of the bare robot.
#include <gtest/gtest.h>

#include "mimic/io/job.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"

namespace mimic::pipeline {
namespace {

TEST(RetargetPayload, ReachesTheZmpCorrectionAndTheCheck) {
  io::JobConfig bare = io::default_job(io::JobKind::kRetarget);
  bare.input = MIMIC_SOURCE_DIR "/data/mocap/boxing.bvh";
  bare.output.path = "unused.pos";
  io::JobConfig loaded = bare;
  // 2 kg in the right gripper. The imitation objective leaves the upper body where the reference puts it
  // (the torque limits do not bind: peak 32 % of the limit), so the two runs differ only where the
  // payload's dynamics are used.
  loaded.payload = model::Payload{
      "r_gripper", spatial::Inertia(2.0, spatial::Vec3(0.1, 0.0, 0.0), 0.001 * spatial::Mat3::Identity())};
  const RetargetPipelineResult without = run_retarget_pipeline(bare);
  const RetargetPipelineResult with = run_retarget_pipeline(loaded);
  ASSERT_TRUE(without.stabilized && with.stabilized);

  // The ZMP correction starts from the ZMP of the loaded robot.
  EXPECT_NE(with.stabilization.initial_worst_margin, without.stabilization.initial_worst_margin);
  // The check measures the loaded robot's torques: the load in the hand raises the peak.
  EXPECT_GT(evaluation::worst(with.check.torque).ratio, evaluation::worst(without.check.torque).ratio);
  EXPECT_TRUE(with.check.ok());
}

}  // namespace
}  // namespace mimic::pipeline
