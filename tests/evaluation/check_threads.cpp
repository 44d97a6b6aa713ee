// check_motion on a ThreadPool gives exactly the report of one thread (check.hpp): each sample's kinematics,
// torques and distances are written by one task into that sample's entries, and every peak, sum, minimum
// and violation is taken in sample order afterwards. The motions are the check's failure fixtures with
// their finite-difference velocities and accelerations, so that torques, ZMP margins, slip and distances
// all vary from sample to sample: a task writing another's sample would move a peak, a sum or a
// violation's samples.
#include <gtest/gtest.h>

#include <string>

#include "mimic/core/thread_pool.hpp"
#include "mimic/evaluation/check.hpp"
#include "support/check_robot.hpp"

namespace mimic::evaluation {
namespace {

void expect_same_peaks(const std::vector<Peak>& a, const std::vector<Peak>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t j = 0; j < a.size(); ++j) {
    EXPECT_EQ(a[j].value, b[j].value) << a[j].joint;
    EXPECT_EQ(a[j].limit, b[j].limit) << a[j].joint;
    EXPECT_EQ(a[j].ratio, b[j].ratio) << a[j].joint;
    EXPECT_EQ(a[j].time, b[j].time) << a[j].joint;
  }
}

void expect_same_offences(const std::vector<GeometryOffence>& a, const std::vector<GeometryOffence>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].where, b[i].where);
    EXPECT_EQ(a[i].value, b[i].value);
    EXPECT_EQ(a[i].time, b[i].time);
    EXPECT_EQ(a[i].sample_indices, b[i].sample_indices);
  }
}

void expect_same_report(const Report& a, const Report& b) {
  expect_same_peaks(a.angle, b.angle);
  expect_same_peaks(a.velocity, b.velocity);
  expect_same_peaks(a.torque, b.torque);
  EXPECT_EQ(a.min_zmp_margin, b.min_zmp_margin);
  EXPECT_EQ(a.min_zmp_margin_time, b.min_zmp_margin_time);
  EXPECT_EQ(a.max_slip_position, b.max_slip_position);
  EXPECT_EQ(a.max_slip_angle, b.max_slip_angle);
  EXPECT_EQ(a.max_base_residual, b.max_base_residual);
  EXPECT_EQ(a.torque_integral, b.torque_integral);
  ASSERT_EQ(a.violations.size(), b.violations.size());
  for (std::size_t i = 0; i < a.violations.size(); ++i) {
    const Violation &x = a.violations[i], &y = b.violations[i];
    EXPECT_EQ(describe(x), describe(y));
    EXPECT_EQ(x.value, y.value) << describe(x);
    EXPECT_EQ(x.ratio, y.ratio) << describe(x);
    EXPECT_EQ(x.sample_indices, y.sample_indices) << describe(x);
  }
  ASSERT_EQ(a.geometry.has_value(), b.geometry.has_value());
  if (!a.geometry) return;
  const GeometryReport &g = *a.geometry, &h = *b.geometry;
  EXPECT_EQ(g.min_distance, h.min_distance);
  EXPECT_EQ(g.min_distance_time, h.min_distance_time);
  EXPECT_EQ(g.closest_first + g.closest_second, h.closest_first + h.closest_second);
  EXPECT_EQ(g.samples_below_safety, h.samples_below_safety);
  EXPECT_EQ(g.min_corner_height, h.min_corner_height);
  EXPECT_EQ(g.samples_below_ground, h.samples_below_ground);
  EXPECT_TRUE(g.sample_min_distance == h.sample_min_distance);
  EXPECT_TRUE(g.sample_min_corner_height == h.sample_min_corner_height);
  expect_same_offences(g.pair_offences, h.pair_offences);
  expect_same_offences(g.foot_offences, h.foot_offences);
}

TEST(CheckThreads, ReportIsTheSingleThreadReportForEveryThreadCount) {
  const test::CheckRobot& r = test::CheckRobot::instance();
  for (const std::string fixture : {"boxing_hand_in_head", "walk_bar_smooth_toe_below_floor"}) {
    SCOPED_TRACE(fixture);
    model::SampledMotion motion = r.fixture(fixture);
    model::differentiate(r.robot.model, motion);
    const Report single = check_motion(r.robot.model, r.feet, motion, r.with_geometry());
    ASSERT_FALSE(single.violations.empty());  // a collision, a foot below the floor (tests/data/README.md)
    for (const int threads : {1, 2, 3}) {
      core::ThreadPool pool(threads);
      expect_same_report(single, check_motion(r.robot.model, r.feet, motion, r.with_geometry(), &pool));
    }
  }
}

}  // namespace
}  // namespace mimic::evaluation
