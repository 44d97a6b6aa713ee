#include "mimic/stability/support_polygon.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "mimic/core/error.hpp"

namespace mimic::stability {
namespace {

// Exact arithmetic on metre-scale coordinates: rounding stays at a few ulps of 1 m.
constexpr double kExact = 1e-12;

// HRP-2 soles of config/robots/hrp2.yaml (hrp2.md §5): 0.23 x 0.131 m, the inner side 0.056 m from the ankle.
const model::SoleRectangle kRightSole{-0.100, 0.130, -0.075, 0.056};
const model::SoleRectangle kLeftSole{-0.100, 0.130, -0.056, 0.075};

spatial::SE3 sole_at(double x, double y, double yaw = 0.0) {
  return spatial::SE3(Eigen::AngleAxisd(yaw, spatial::Vec3::UnitZ()).toRotationMatrix(),
                      spatial::Vec3(x, y, 0.0));
}

TEST(SupportPolygon, HullDropsInteriorAndCollinearPointsAndIsCounterClockwise) {
  const std::vector<Vec2> points{{2, 0}, {0, 0}, {1, 0.5}, {2, 1}, {1, 0}, {0, 1}, {0.5, 0.5}, {0, 1}};
  const SupportPolygon p = SupportPolygon::hull(points);
  ASSERT_EQ(p.size(), 4);
  EXPECT_NEAR(p.area(), 2.0, kExact);  // positive area <=> counter-clockwise
  for (int i = 0; i < p.size(); ++i) {
    const Vec2& v = p.vertex(i);
    EXPECT_TRUE((v.x() == 0.0 || v.x() == 2.0) && (v.y() == 0.0 || v.y() == 1.0)) << v.transpose();
  }
}

TEST(SupportPolygon, DegenerateHulls) {
  const std::vector<Vec2> same{{1, 1}, {1, 1}, {1, 1}};
  EXPECT_EQ(SupportPolygon::hull(same).size(), 1);
  const std::vector<Vec2> collinear{{0, 0}, {2, 2}, {1, 1}};
  const SupportPolygon segment = SupportPolygon::hull(collinear);
  EXPECT_EQ(segment.size(), 2);
  // Nothing is strictly inside a segment: the distance is minus the distance to it.
  EXPECT_NEAR(segment.signed_distance(Vec2(0, 2)), -std::sqrt(2.0), kExact);
  EXPECT_NEAR(segment.signed_distance(Vec2(1, 1)), 0.0, kExact);
  EXPECT_THROW((void)segment.clamp(Vec2(0, 2), 0.01), InfeasibleError);
  EXPECT_THROW((void)SupportPolygon::hull(std::vector<Vec2>{}), std::invalid_argument);
}

TEST(SupportPolygon, SignedDistanceIsPositiveInsideAndMinusTheEuclideanDistanceOutside) {
  const std::vector<Vec2> rect{{0, 0}, {2, 0}, {2, 1}, {0, 1}};
  const SupportPolygon p = SupportPolygon::hull(rect);
  EXPECT_NEAR(p.signed_distance(Vec2(0.5, 0.5)), 0.5, kExact);
  EXPECT_NEAR(p.signed_distance(Vec2(1.0, 0.2)), 0.2, kExact);
  EXPECT_NEAR(p.signed_distance(Vec2(1.9, 0.6)), 0.1, kExact);
  EXPECT_NEAR(p.signed_distance(Vec2(2.0, 0.3)), 0.0, kExact);
  EXPECT_NEAR(p.signed_distance(Vec2(3.0, 0.5)), -1.0, kExact);
  EXPECT_NEAR(p.signed_distance(Vec2(3.0, 2.0)), -std::sqrt(2.0), kExact);  // nearest is a corner
  EXPECT_NEAR(p.signed_distance(Vec2(1.0, -0.25)), -0.25, kExact);
  EXPECT_TRUE(p.contains(Vec2(1.0, 0.5), 0.5));
  EXPECT_FALSE(p.contains(Vec2(1.0, 0.4), 0.5));
}

TEST(SupportPolygon, SingleAndDoubleSupportOfHrp2InHalfSitting) {
  // Soles in half-sitting: (0.00949, -/+0.095, 0) (hrp2.md §4).
  const spatial::SE3 right = sole_at(0.00949, -0.095), left = sole_at(0.00949, 0.095);
  const SupportPolygon right_only =
      SupportPolygon::of_feet(model::ContactPhase::kRightSupport, right, left, kRightSole, kLeftSole);
  const SupportPolygon left_only =
      SupportPolygon::of_feet(model::ContactPhase::kLeftSupport, right, left, kRightSole, kLeftSole);
  const SupportPolygon both =
      SupportPolygon::of_feet(model::ContactPhase::kDoubleSupport, right, left, kRightSole, kLeftSole);
  EXPECT_EQ(right_only.size(), 4);
  EXPECT_NEAR(right_only.area(), 0.230 * 0.131, kExact);
  EXPECT_NEAR(left_only.area(), 0.230 * 0.131, kExact);
  // Both feet: x in [-0.0905, 0.1395], y in [-0.170, 0.170].
  EXPECT_EQ(both.size(), 4);
  EXPECT_NEAR(both.area(), 0.230 * 0.340, kExact);

  const Vec2 between_feet(0.00949 + 0.015, 0.0);
  EXPECT_NEAR(both.signed_distance(between_feet), 0.115, kExact);  // half the sole length
  EXPECT_NEAR(right_only.signed_distance(between_feet), -(0.095 - 0.056), kExact);
  EXPECT_NEAR(left_only.signed_distance(between_feet), -(0.095 - 0.056), kExact);
  const Vec2 right_sole_centre(0.00949 + 0.015, -0.095 - 0.0095);
  EXPECT_NEAR(right_only.signed_distance(right_sole_centre), 0.131 / 2, kExact);
}

TEST(SupportPolygon, FeetTurnedAndSteppedGiveTheHullOfTheRotatedCorners) {
  // Right foot turned by 90 degrees: its forward axis is world +y.
  const spatial::SE3 right = sole_at(0.3, -0.1, M_PI / 2), left = sole_at(0.0, 0.1);
  const SupportPolygon right_only =
      SupportPolygon::of_feet(model::ContactPhase::kRightSupport, right, left, kRightSole, kLeftSole);
  // World x = 0.3 - y_sole, world y = -0.1 + x_sole.
  EXPECT_NEAR(right_only.signed_distance(Vec2(0.3 + 0.075, 0.0)), 0.0, kExact);
  EXPECT_NEAR(right_only.signed_distance(Vec2(0.3, -0.1 + 0.130)), 0.0, kExact);
  EXPECT_NEAR(right_only.signed_distance(Vec2(0.3, -0.1 - 0.100 - 0.01)), -0.01, kExact);

  const SupportPolygon both =
      SupportPolygon::of_feet(model::ContactPhase::kDoubleSupport, right, left, kRightSole, kLeftSole);
  EXPECT_GE(both.size(), 5);  // a stepped stance gives a hull with cut corners
  // The hull holds every corner of both soles and the midpoint of the two sole origins.
  for (const auto& outline : {std::pair{kRightSole, right}, std::pair{kLeftSole, left}})
    for (const Vec2& c : ground_corners(outline.first, outline.second))
      EXPECT_GE(both.signed_distance(c), -kExact);
  EXPECT_GT(both.signed_distance(Vec2(0.15, 0.0)), 0.0);
  EXPECT_GT(both.area(), right_only.area() + 0.230 * 0.131);
}

TEST(SupportPolygon, ClampGivesTheNearestPointAtLeastTheMarginInside) {
  const spatial::SE3 right = sole_at(0.2, -0.1, 0.4), left = sole_at(0.0, 0.1, -0.2);
  const SupportPolygon polygon =
      SupportPolygon::of_feet(model::ContactPhase::kDoubleSupport, right, left, kRightSole, kLeftSole);
  constexpr double kMargin = 0.02;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coordinate(-0.5, 0.5);
  // Points deep enough in the polygon, to check that nothing eligible is nearer than the clamped point.
  std::vector<Vec2> eligible;
  while (eligible.size() < 4000) {
    const Vec2 y(coordinate(rng), coordinate(rng));
    if (polygon.signed_distance(y) >= kMargin) eligible.push_back(y);
  }
  for (int trial = 0; trial < 300; ++trial) {
    const Vec2 p(coordinate(rng), coordinate(rng));
    const Vec2 c = polygon.clamp(p, kMargin);
    if (polygon.signed_distance(p) >= kMargin) {
      EXPECT_EQ(c, p);
      continue;
    }
    // The clamped point lies on the eroded boundary (the erosion is exact up to rounding).
    EXPECT_NEAR(polygon.signed_distance(c), kMargin, kExact);
    for (const Vec2& y : eligible) ASSERT_GE((p - y).norm(), (p - c).norm() - kExact);
  }
}

TEST(SupportPolygon, ClampFailsWhenTheMarginExceedsTheInradius) {
  const spatial::SE3 right = sole_at(0.0, -0.095), left = sole_at(0.0, 0.095);
  const SupportPolygon right_only =
      SupportPolygon::of_feet(model::ContactPhase::kRightSupport, right, left, kRightSole, kLeftSole);
  EXPECT_NO_THROW((void)right_only.clamp(Vec2(1, 1), 0.065));  // half the sole width is 0.0655
  EXPECT_THROW((void)right_only.clamp(Vec2(1, 1), 0.066), InfeasibleError);
}

}  // namespace
}  // namespace mimic::stability
