// closest_points.hpp against an independent computation: one set sampled densely, the exact distance of
// each sample to the other set by its elementary formula (point-segment projection, box signed-distance
// function). The sampled minimum over-estimates the true one by at most (step / 2) x (Lipschitz constant
// = the sampled segment's length), the bound each test allows; it can never be below it.
#include "mimic/geometry/closest_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace mimic::geometry {
namespace {

double point_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double t = d.squaredNorm() > 0.0 ? std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
  return (a + t * d - p).norm();
}

double box_sdf(const Vec3& p, const OrientedBox& box) {
  const Vec3 q = (box.R.transpose() * (p - box.centre)).cwiseAbs() - box.half;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

constexpr int kSamples = 20001;

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

OrientedBox random_box(std::mt19937& rng) {
  std::uniform_real_distribution<double> size(0.02, 0.2);
  const Eigen::Quaterniond rotation = Eigen::Quaterniond::UnitRandom();
  return {rotation.toRotationMatrix(), random_vec(rng, 0.1), Vec3(size(rng), size(rng), size(rng))};
}

// Minimum over kSamples points of [a, b] of f(point), and the over-estimation bound.
template <class F>
std::pair<double, double> sampled_minimum(const Vec3& a, const Vec3& b, F f) {
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kSamples; ++k) best = std::min(best, f(a + (b - a) * (double(k) / (kSamples - 1))));
  return {best, 0.5 * (b - a).norm() / (kSamples - 1) + 1e-12};
}

TEST(ClosestPoints, SegmentSegmentMatchesSampling) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a1 = random_vec(rng, 0.3), b1 = random_vec(rng, 0.3), a2 = random_vec(rng, 0.3),
               b2 = random_vec(rng, 0.3);
    const Contact c = segment_segment(a1, b1, a2, b2);
    const auto [sampled, bound] =
        sampled_minimum(a1, b1, [&](const Vec3& p) { return point_segment(p, a2, b2); });
    EXPECT_LE(c.distance, sampled + 1e-12) << trial;
    EXPECT_GE(c.distance, sampled - bound) << trial;
    // The witness points are on the segments and realise the distance along the normal.
    EXPECT_NEAR(point_segment(c.on_first, a1, b1), 0.0, 1e-12);
    EXPECT_NEAR(point_segment(c.on_second, a2, b2), 0.0, 1e-12);
    EXPECT_NEAR((c.on_first - c.on_second).dot(c.normal), c.distance, 1e-12);
  }
}

TEST(ClosestPoints, DegenerateSegments) {
  const Vec3 x = Vec3::UnitX();
  // Parallel segments 0.1 apart, overlapping: the distance is exact, the normal is the offset direction.
  Contact c = segment_segment(Vec3::Zero(), x, Vec3(0.5, 0.1, 0.0), Vec3(1.5, 0.1, 0.0));
  EXPECT_NEAR(c.distance, 0.1, 1e-15);
  EXPECT_NEAR(c.normal.dot(-Vec3::UnitY()), 1.0, 1e-15);
  // A zero-length segment is a point.
  c = segment_segment(Vec3(0.3, 0.2, 0.0), Vec3(0.3, 0.2, 0.0), Vec3::Zero(), x);
  EXPECT_NEAR(c.distance, 0.2, 1e-15);
  c = segment_segment(Vec3::Zero(), Vec3::Zero(), Vec3(0.0, 0.0, 0.3), Vec3(0.0, 0.0, 0.3));
  EXPECT_NEAR(c.distance, 0.3, 1e-15);
  // Crossing segments: distance 0, normal perpendicular to both (the direction they separate in).
  c = segment_segment(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0), Vec3(0, 1, 0));
  EXPECT_EQ(c.distance, 0.0);
  EXPECT_NEAR(std::abs(c.normal.z()), 1.0, 1e-15);
  // Collinear overlapping segments: distance 0, a unit normal perpendicular to them.
  c = segment_segment(Vec3::Zero(), x, Vec3(0.5, 0, 0), Vec3(2, 0, 0));
  EXPECT_EQ(c.distance, 0.0);
  EXPECT_NEAR(c.normal.norm(), 1.0, 1e-15);
  EXPECT_NEAR(c.normal.dot(x), 0.0, 1e-15);
}

TEST(ClosestPoints, SegmentBoxMatchesSampling) {
  std::mt19937 rng(11);
  int inside = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const OrientedBox box = random_box(rng);
    const Vec3 a = random_vec(rng, 0.3), b = random_vec(rng, 0.3);
    const Contact c = segment_box(a, b, box);
    const auto [sampled, bound] = sampled_minimum(a, b, [&](const Vec3& p) { return box_sdf(p, box); });
    EXPECT_LE(c.distance, sampled + 1e-12) << trial;
    EXPECT_GE(c.distance, sampled - bound) << trial;
    EXPECT_NEAR(point_segment(c.on_first, a, b), 0.0, 1e-12);
    EXPECT_NEAR(box_sdf(c.on_second, box), 0.0, 1e-12);  // on the box's surface
    EXPECT_NEAR((c.on_first - c.on_second).dot(c.normal), c.distance, 1e-12);
    inside += c.distance < 0.0;
  }
  EXPECT_GT(inside, 20);  // the sample covers penetrating segments too
}

TEST(ClosestPoints, BoxBoxMatchesSamplingWhenApart) {
  // Sample the first box's surface on a grid (6 faces); each sample's exact distance to the second box.
  std::mt19937 rng(13);
  int apart = 0;
  for (int trial = 0; trial < 40; ++trial) {
    OrientedBox first = random_box(rng), second = random_box(rng);
    second.centre += random_vec(rng, 0.3);
    const Contact c = box_box(first, second);
    constexpr int kGrid = 201;
    double sampled = std::numeric_limits<double>::infinity();
    for (int axis = 0; axis < 3; ++axis)
      for (const double side : {-1.0, 1.0})
        for (int u = 0; u < kGrid; ++u)
          for (int v = 0; v < kGrid; ++v) {
            Vec3 local;
            local[axis] = side * first.half[axis];
            local[(axis + 1) % 3] = first.half[(axis + 1) % 3] * (2.0 * u / (kGrid - 1) - 1.0);
            local[(axis + 2) % 3] = first.half[(axis + 2) % 3] * (2.0 * v / (kGrid - 1) - 1.0);
            sampled = std::min(sampled, box_sdf(first.centre + first.R * local, second));
          }
    if (sampled <= 0.0) {
      EXPECT_LT(c.distance, 1e-12) << trial;  // a surface point inside the other box: they intersect
      continue;
    }
    ++apart;
    // Grid step <= 0.2 / 200 per direction: a sample lies within step / sqrt(2) of any surface point.
    const double bound = 0.2 / (kGrid - 1) + 1e-12;
    EXPECT_LE(c.distance, sampled + 1e-12) << trial;
    EXPECT_GE(c.distance, sampled - bound) << trial;
  }
  EXPECT_GT(apart, 10);
}

}  // namespace
}  // namespace mimic::geometry
