// evaluation::check_geometry on today's failure fixtures (tests/data) and on clean motions.
#include "mimic/evaluation/geometry_check.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mimic/model/robot.hpp"
#include "support/fixture_motion.hpp"

namespace mimic::evaluation {
namespace {

struct Hrp2 {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  geometry::CollisionModel cmodel = geometry::build_collision_model(robot.model, robot.description);
};

const Hrp2& hrp2() {
  static const Hrp2 instance;
  return instance;
}

TEST(GeometryCheck, BoxingFixtureReportsTheHandInTheHead) {
  const auto& [robot, cmodel] = hrp2();
  const auto motion = test::read_fixture(robot.model, test::fixture_path("boxing_hand_in_head"));
  const GeometryReport report = check_geometry(robot.model, cmodel, motion);
  EXPECT_EQ(report.closest_first, "HEAD_LINK1");
  EXPECT_EQ(report.closest_second, "RARM_LINK6");
  EXPECT_LT(report.min_distance, 0.0);
  // tests/data/README.md: 16.8 mm deep at 19.78 s, 106 samples closer than 0.01 m.
  EXPECT_NEAR(report.min_distance, -0.0168, 1e-4);
  EXPECT_NEAR(report.min_distance_time, 19.78, 1e-9);
  EXPECT_EQ(report.closest_pair_samples_below, 106);
  EXPECT_GE(report.samples_below_safety, report.closest_pair_samples_below);
  EXPECT_FALSE(report.collision_free());
  EXPECT_TRUE(report.above_ground());
  // The offences: this pair only, with the same worst sample and count.
  ASSERT_EQ(report.pair_offences.size(), 1u);
  EXPECT_EQ(report.pair_offences[0].where, "HEAD_LINK1 / RARM_LINK6");
  EXPECT_EQ(report.pair_offences[0].value, report.min_distance);
  EXPECT_EQ(report.pair_offences[0].time, report.min_distance_time);
  EXPECT_EQ(report.pair_offences[0].samples, 106);
  EXPECT_TRUE(report.foot_offences.empty());
  // The per-sample series (what `mimic plot` draws) is the same scan: its minimum is the report's, at the
  // worst sample, and it is below the safety distance in exactly samples_below_safety samples.
  ASSERT_EQ(report.sample_min_distance.size(), motion.size());
  Eigen::Index worst = 0;
  EXPECT_EQ(report.sample_min_distance.minCoeff(&worst), report.min_distance);
  EXPECT_EQ(motion.times[static_cast<size_t>(worst)], report.min_distance_time);
  EXPECT_EQ((report.sample_min_distance.array() < 0.01).count(), report.samples_below_safety);
  EXPECT_EQ(report.safety_distance, 0.01);
}

TEST(GeometryCheck, SmoothedWalkFixtureReportsTheToeBelowTheFloor) {
  const auto& [robot, cmodel] = hrp2();
  const auto motion = test::read_fixture(robot.model, test::fixture_path("walk_bar_smooth_toe_below_floor"));
  const GeometryReport report = check_geometry(robot.model, cmodel, motion);
  EXPECT_EQ(report.lowest_corner_foot, "right");
  // tests/data/README.md (an independent forward kinematics): -9.8 mm at 2.295 s, 47 samples below.
  EXPECT_NEAR(report.min_corner_height, -0.0098, 1e-4);
  EXPECT_NEAR(report.min_corner_time, 2.295, 1e-9);
  EXPECT_EQ(report.samples_below_ground, 47);
  EXPECT_FALSE(report.above_ground());
  ASSERT_EQ(report.foot_offences.size(), 1u);
  EXPECT_EQ(report.foot_offences[0].where, "right foot");
  EXPECT_EQ(report.foot_offences[0].value, report.min_corner_height);
  EXPECT_EQ(report.foot_offences[0].samples, 47);
  ASSERT_EQ(report.sample_min_corner_height.size(), motion.size());
  EXPECT_EQ(report.sample_min_corner_height.minCoeff(), report.min_corner_height);
  EXPECT_EQ((report.sample_min_corner_height.array() < -1e-6).count(), 47);
}

TEST(GeometryCheck, StandingInHalfSittingIsClean) {
  const auto& [robot, cmodel] = hrp2();
  model::SampledMotion motion;
  motion.times = {0.0, 0.005, 0.01};
  motion.q = robot.description.nominal_q(robot.model).replicate(1, 3);
  const GeometryReport report = check_geometry(robot.model, cmodel, motion);
  EXPECT_TRUE(report.collision_free());
  EXPECT_TRUE(report.above_ground());
  EXPECT_GE(report.min_distance, 0.01);
  EXPECT_NEAR(report.min_corner_height, 0.0, 1e-6);
  EXPECT_TRUE(report.pair_offences.empty());
  EXPECT_TRUE(report.foot_offences.empty());
}

TEST(GeometryCheck, ModelWithoutShapesReportsNoNumbers) {
  const auto& [robot, cmodel] = hrp2();
  model::SampledMotion motion;
  motion.times = {0.0, 0.005};
  motion.q = robot.description.nominal_q(robot.model).replicate(1, 2);
  const GeometryReport report = check_geometry(robot.model, geometry::CollisionModel{}, motion);
  EXPECT_TRUE(report.collision_free());
  EXPECT_TRUE(report.above_ground());
  EXPECT_TRUE(std::isinf(report.sample_min_distance[1]));
}

TEST(GeometryCheck, PlannedWalkIsClean) {
  // The planned bar walk (data/motions, the smoothing job's input) keeps its feet flat.
  const auto& [robot, cmodel] = hrp2();
  const auto motion =
      test::read_fixture(robot.model, std::string(MIMIC_SOURCE_DIR) + "/data/motions/walk_bar_planned");
  const GeometryReport report = check_geometry(robot.model, cmodel, motion);
  EXPECT_TRUE(report.collision_free())
      << report.closest_first << " / " << report.closest_second << " " << report.min_distance;
  EXPECT_TRUE(report.above_ground()) << report.min_corner_height;
}

TEST(GeometryCheck, WrongSizedMotionIsRejected) {
  const auto& [robot, cmodel] = hrp2();
  model::SampledMotion motion;
  motion.times = {0.0};
  motion.q = Eigen::MatrixXd::Zero(robot.model.nq - 1, 1);
  EXPECT_THROW(check_geometry(robot.model, cmodel, motion), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::evaluation
