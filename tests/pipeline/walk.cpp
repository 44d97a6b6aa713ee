// The walk stage (pipeline/walk.hpp) on the shipped job config/walk/bar_walk.yaml: the job path writes the
// shipped planned walk, the files it writes carry the motion's multibody ZMP, the smoothing job reads them
// with the phases they were made with, and a motion beyond the job's limits is refused.
// (A different stability.preview.q giving a different walk is tests/pipeline/job_options.cpp's.)
#include "mimic/pipeline/walk.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/sequence.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::pipeline {
namespace {

namespace fs = std::filesystem;
using spatial::SE3;

io::JobConfig shipped_job() { return io::load_job(test::source_dir() / "config" / "walk" / "bar_walk.yaml"); }

struct ShippedWalk {
  fs::path dir = test::unique_temp_path("pipeline_walk");
  io::JobConfig job = [this] {
    io::JobConfig j = shipped_job();
    j.output.path = dir / "walk.pos";
    j.output.report = dir / "walk.json";
    return j;
  }();
  WalkResult walk = run_walk(job);
  io::MotionFiles files = [this] {
    fs::create_directories(dir);
    write_walk_outputs(job, walk);
    io::MotionFiles read = io::read_motion(job.output.path);
    fs::remove_all(dir);
    return read;
  }();
};

const ShippedWalk& shipped() {
  static const ShippedWalk s;
  return s;
}

// data/motions/walk_bar_planned.* is what scripts/make_walk_sample.sh writes with `mimic walk` on this job.
// This only detects a change; walk_planned_file.cpp checks the files themselves physically (ZMP in the
// support of the YAML's phases, soles on the footsteps, waist heights, URDF limits).
TEST(Walk, JobWritesTheShippedPlannedWalk) {
  const ShippedWalk& s = shipped();
  const io::MotionFiles golden =
      io::read_motion(test::source_dir() / "data" / "motions" / "walk_bar_planned.pos");
  ASSERT_TRUE(golden.waist && golden.zmp && s.files.waist && s.files.zmp);
  ASSERT_EQ(golden.pos.size(), s.files.pos.size());
  EXPECT_EQ(s.walk.summary.steps, 6);
  // Files hold shortest round-trip numbers; what may differ is the compiler's floating point, amplified by
  // the waist correction's 1e-9 m tolerance: ~5e-9 in angles and positions, and 3300 times that in the ZMP
  // (a second difference over 5 ms). Any change to the scenario moves them by orders of magnitude more.
  EXPECT_LT((golden.pos.angles - s.files.pos.angles).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((golden.waist->position - s.files.waist->position).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((golden.waist->rpy - s.files.waist->rpy).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((golden.zmp->zmp - s.files.zmp->zmp).cwiseAbs().maxCoeff(), 1e-4);
}

// The ZMP from the written files (.pos + .waist read back, base rebuilt from them, finite differences, full
// dynamics with the bar) against the support polygon of the stated support phases.
TEST(Walk, MultibodyZmpOfTheWrittenMotionStaysInsideTheSupportPolygon) {
  const ShippedWalk& s = shipped();
  const model::Model& model = s.walk.robot.model;
  const stability::Feet& feet = s.walk.robot.feet;
  const walking::WalkingPattern& pattern = s.walk.pattern;
  const model::SampledMotion motion =
      pipeline::sampled_motion(model, feet, s.files, pattern.contact_intervals);
  ASSERT_EQ(motion.size(), pattern.size());
  model::Data data(model);
  double margin = INFINITY, margin_time = 0.0, deviation = 0.0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    const auto zmp = dynamics::zmp(model, data, motion.q.col(k), motion.v.col(k), motion.a.col(k), 0.0);
    ASSERT_TRUE(zmp.has_value()) << "no ground reaction at t = " << motion.times[static_cast<std::size_t>(k)];
    dynamics::forward_kinematics(model, data, motion.q.col(k));
    const SE3 r = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
    const SE3 l = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
    const stability::SupportPolygon polygon = stability::SupportPolygon::of_feet(
        motion.phases[static_cast<std::size_t>(k)], r, l, feet.right_outline, feet.left_outline);
    const double m = polygon.signed_distance(zmp->head<2>());
    if (m < margin) {
      margin = m;
      margin_time = motion.times[static_cast<std::size_t>(k)];
    }
    deviation =
        std::max(deviation, (zmp->head<2>() - pattern.zmp_reference.row(k).head<2>().transpose()).norm());
    // The .zmp file carries the same multibody ZMP (in the waist frame); the files hold shortest
    // round-trip numbers, so only the recomputation's rounding remains: measured 2.2e-12 m.
    EXPECT_LT((zmp->head<2>() - pattern.zmp.row(k).head<2>().transpose()).norm(), 1e-10);
  }
  std::printf("multibody ZMP: min margin %.4f m (t = %.3f s), max deviation from the reference %.4f m\n",
              margin, margin_time, deviation);
  // Measured 64.5 mm (the sole centre is 65.5 mm from the nearest sole edge): well over the job's 2 cm.
  EXPECT_GT(margin, s.job.stability.zmp_margin);
  EXPECT_LT(deviation, 0.01);
}

// config/jobs/walk_bar_smooth.yaml smooths this motion: same file, same bar, and the support phases stated.
TEST(Walk, SmoothingJobMatchesTheWalk) {
  const ShippedWalk& s = shipped();
  const io::JobConfig walk = shipped_job();
  const io::JobConfig smooth = io::load_job(test::source_dir() / "config" / "jobs" / "walk_bar_smooth.yaml");
  EXPECT_EQ(smooth.input, io::motion_file(io::motion_base(walk.output.path), ".pos"));
  ASSERT_TRUE(smooth.payload.has_value() && walk.payload.has_value());
  EXPECT_EQ(smooth.payload->attached_to, walk.payload->attached_to);
  EXPECT_EQ(smooth.payload->inertia.mass, walk.payload->inertia.mass);
  EXPECT_EQ(smooth.payload->inertia.com, walk.payload->inertia.com);
  EXPECT_EQ(smooth.payload->inertia.inertia_com, walk.payload->inertia.inertia_com);
  const auto& intervals = s.walk.pattern.contact_intervals;
  ASSERT_EQ(smooth.contacts.size(), intervals.size());
  for (std::size_t i = 0; i < smooth.contacts.size(); ++i) {
    // The YAML's decimals against sums of the plan's times: round-off of a few ulps, far below 1e-9 s.
    EXPECT_NEAR(smooth.contacts[i].start, intervals[i].start, 1e-9) << i;
    EXPECT_NEAR(smooth.contacts[i].end, intervals[i].end, 1e-9) << i;
    EXPECT_EQ(smooth.contacts[i].phase, intervals[i].phase) << i;
  }
}

// A motion beyond limits.velocity_factor is refused (run_walk throws, so write_walk_outputs is never reached)
// after the observer has seen it: the CLI prints the summary of a refused walk.
TEST(Walk, AMotionBeyondTheLimitsIsRefusedAfterTheObserverSawIt) {
  io::JobConfig job = shipped_job();
  job.limits.velocity_factor = 0.25;  // the walk reaches 0.513 (LLEG_JOINT3)
  bool observed = false;
  try {
    run_walk(job, {}, [&](const WalkResult& walk) {
      observed = true;
      EXPECT_GT(walk.summary.velocity.ratio, 0.25);
    });
    FAIL() << "a walk at 0.513 of the velocity limits passed limits.velocity_factor = 0.25";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("limits.velocity_factor = 0.25"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(observed);
}

struct Hrp2 {
  Robot robot = load_robot(io::RobotSettings{});
  Eigen::VectorXd posture = robot.description.nominal_q(robot.model).tail(robot.model.nj);
  std::vector<int> legs = [this] {
    const auto joints = stability::Legs::of(robot.model, robot.feet).joints();
    return std::vector<int>(joints.begin(), joints.end());
  }();
};

TEST(Walk, UpperBodyPosFilesAreResampledLinearlyAndOtherFilesRefused) {
  const Hrp2 r;
  const model::Model& model = r.robot.model;
  const fs::path dir = test::unique_temp_path("walk_upper_body");
  fs::create_directories(dir);
  io::PosSequence pos;
  pos.times = {0.0, 0.01, 0.02};  // 100 Hz
  pos.angles = Eigen::MatrixXd::Zero(3, model.nj);
  pos.angles(1, 16) = -0.2;
  pos.angles(2, 16) = -0.4;
  io::write_pos(dir / "arms.pos", pos);
  const walking::UpperBodyTrajectory arms = load_upper_body(dir / "arms.pos", model, r.posture, r.legs);
  Eigen::VectorXd q(model.nj);
  arms.at(0.015, q);  // a 200 Hz sample between two 100 Hz ones: one rounding (1e-15)
  EXPECT_NEAR(q[16], -0.3, 1e-15);

  EXPECT_THROW(load_upper_body(dir / "arms.bvh", model, r.posture, r.legs), InputError);
  EXPECT_THROW(load_upper_body(dir / "missing.yaml", model, r.posture, r.legs), InputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mimic::pipeline
