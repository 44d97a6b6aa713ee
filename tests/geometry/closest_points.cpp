// closest_points.hpp against an independent computation: one set sampled densely, the exact distance of
// each sample to the other set by its elementary formula (point-segment projection, box signed-distance
// function). The sampled minimum over-estimates the true one by at most (step / 2) x (Lipschitz constant
// = the sampled segment's length), the bound each test allows; it can never be below it.
//
// box_box skips the edges whose lower bound exceeds the best distance found and evaluates the most
// promising edge first. Its result must be the one of the exhaustive search it prunes: segment_box of each
// of the 24 edges in order, the earliest edge winning among equal distances. The BoxBoxPruning tests
// compare them bit for bit (the same segment_box calls on the same world points), on random boxes, on
// boxes with parallel faces (where the closest points are not unique and the tie-break decides the
// witness points, hence the gradient row: the distance is the same for every choice, the gradient differs
// only on that measure-zero set of poses), and on HRP-2's feet in 10,000 random configurations within the
// joint limits.
#include "mimic/geometry/closest_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"

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

// Every edge of each box against the other, in the order (first's, second's; axis i, sj, sk).
Contact exhaustive_box_box(const OrientedBox& first, const OrientedBox& second) {
  Contact best;
  best.distance = std::numeric_limits<double>::infinity();
  const OrientedBox* const boxes[2] = {&first, &second};
  for (int side = 0; side < 2; ++side) {
    const OrientedBox& edges = *boxes[side];
    const OrientedBox& other = *boxes[1 - side];
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      for (const double sj : {-1.0, 1.0}) {
        for (const double sk : {-1.0, 1.0}) {
          const Vec3 middle =
              edges.centre + edges.R.col(j) * (sj * edges.half[j]) + edges.R.col(k) * (sk * edges.half[k]);
          const Vec3 along = edges.R.col(i) * edges.half[i];
          Contact c = segment_box(middle - along, middle + along, other);
          if (c.distance < best.distance) {
            if (side == 1) {
              std::swap(c.on_first, c.on_second);
              c.normal = -c.normal;
            }
            best = c;
          }
        }
      }
    }
  }
  return best;
}

void expect_identical(const Contact& pruned, const Contact& exhaustive, int trial) {
  EXPECT_EQ(pruned.distance, exhaustive.distance) << trial;
  EXPECT_EQ(pruned.on_first, exhaustive.on_first) << trial;
  EXPECT_EQ(pruned.on_second, exhaustive.on_second) << trial;
  EXPECT_EQ(pruned.normal, exhaustive.normal) << trial;
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
  int inside = 0, pierced = 0;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 300; ++trial) {
    const OrientedBox box = random_box(rng);
    const Vec3 a = random_vec(rng, 0.3), b = random_vec(rng, 0.3);
    const Contact c = segment_box(a, b, box);
    const auto [sampled, bound] = sampled_minimum(a, b, [&](const Vec3& p) { return box_sdf(p, box); });
    EXPECT_LE(c.distance, sampled + 1e-12) << trial;
    EXPECT_NEAR(point_segment(c.on_first, a, b), 0.0, 1e-12);
    EXPECT_NEAR((c.on_first - c.on_second).dot(c.normal), c.distance, 1e-12);
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    if (c.distance >= 0.0) {
      EXPECT_GE(c.distance, sampled - bound) << trial;
      EXPECT_NEAR(box_sdf(c.on_second, box), 0.0, 1e-12);  // on the box's surface
      continue;
    }
    // Inside: minus the penetration depth. Translated by it along the normal the segment touches the box,
    // and no shorter translation in any other direction frees it (the sampled minimum, the depth of the
    // deepest point, is a lower bound: a segment through two opposite faces is deeper than that).
    ++inside;
    pierced += c.distance < sampled - bound;
    const Vec3 out = -c.distance * c.normal;
    EXPECT_NEAR(segment_box(a + out, b + out, box).distance, 0.0, 1e-12) << trial;
    for (int k = 0; k < 200; ++k) {
      const Vec3 u = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
      const Vec3 shorter = -0.999 * c.distance * u;
      EXPECT_LE(segment_box(a + shorter, b + shorter, box).distance, 1e-12) << trial << " " << k;
    }
  }
  EXPECT_GT(inside, 20);  // the sample covers penetrating segments too
  EXPECT_GT(pierced, 5);  // and segments deeper than their deepest point
}

// The distance's gradient with respect to rigid motions of the segment and of the box (what the q-gradients
// of distances.hpp contract with the Jacobians): n . (v1 + w1 x on_first) - n . (v2 + w2 x on_second),
// against central differences of the distance, outside and inside the box (where the depth of the
// segment's deepest point, used before, had the gradient of one face where two were active, off by O(1),
// and none at all through two opposite faces). Step 1e-7 m or rad: the distance is piecewise smooth with
// curvature ~1 / (box size 0.02 m), truncation ~1e-12; round-off ~1e-16 / 1e-7 = 1e-9. A trial whose
// active axis changes within the step (a kink) is skipped: it shows as a difference between the one-sided
// quotients.
TEST(ClosestPoints, SegmentBoxGradientMatchesFiniteDifferences) {
  std::mt19937 rng(17);
  constexpr double h = 1e-7;
  int checked = 0, inside = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const OrientedBox box = random_box(rng);
    const Vec3 a = random_vec(rng, 0.3), b = random_vec(rng, 0.3);
    const Contact c = segment_box(a, b, box);
    // Motion k of 12: 0-2 translate the segment, 3-5 rotate it about the origin, 6-11 the same for the box.
    const auto moved = [&](int k, double step) {
      const Vec3 axis = Vec3::Unit(k % 3);
      const Mat3 R = Eigen::AngleAxisd(step, axis).toRotationMatrix();
      const Vec3 shift = step * axis;
      if (k < 3) return segment_box(a + shift, b + shift, box).distance;
      if (k < 6) return segment_box(R * a, R * b, box).distance;
      OrientedBox other = box;
      if (k < 9) {
        other.centre += shift;
      } else {
        other.R = R * box.R;
        other.centre = R * box.centre;
      }
      return segment_box(a, b, other).distance;
    };
    Eigen::Matrix<double, 12, 1> analytic, numeric, forward, backward;
    const Vec3 n = c.normal;
    analytic << n, c.on_first.cross(n), -n, -c.on_second.cross(n);
    for (int k = 0; k < 12; ++k) {
      const double plus = moved(k, h), minus = moved(k, -h);
      numeric[k] = (plus - minus) / (2 * h);
      forward[k] = (plus - c.distance) / h;
      backward[k] = (c.distance - minus) / h;
    }
    if ((forward - backward).lpNorm<Eigen::Infinity>() > 1e-4) continue;  // a kink within the step
    ++checked;
    inside += c.distance < 0.0;
    EXPECT_LT((analytic - numeric).lpNorm<Eigen::Infinity>(), 1e-6)
        << "trial " << trial << " distance " << c.distance << "\nanalytic " << analytic.transpose()
        << "\nnumeric  " << numeric.transpose();
  }
  EXPECT_GT(checked, 1900);
  EXPECT_GT(inside, 200);
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

TEST(BoxBoxPruning, RandomBoxesMatchTheExhaustiveSearch) {
  std::mt19937 rng(1313);
  int apart = 0, overlapping = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    const OrientedBox first = random_box(rng);
    OrientedBox second = random_box(rng);
    second.centre += random_vec(rng, 0.3);
    const Contact c = box_box(first, second);
    expect_identical(c, exhaustive_box_box(first, second), trial);
    (c.distance > 0.0 ? apart : overlapping) += 1;
  }
  EXPECT_GT(apart, 1000);
  EXPECT_GT(overlapping, 1000);
}

TEST(BoxBoxPruning, ParallelFacesMatchTheExhaustiveSearch) {
  // Same axes (up to a quarter turn about one of them): faces parallel, closest points not unique. Side by
  // side at a gap, touching (gap 0) and slightly overlapping.
  std::mt19937 rng(2626);
  std::uniform_int_distribution<int> axis(0, 2);
  std::uniform_real_distribution<double> size(0.02, 0.2), gap(-0.01, 0.05), shift(-0.05, 0.05);
  int touching = 0;
  for (int trial = 0; trial < 10000; ++trial) {
    const Eigen::Quaterniond rotation = Eigen::Quaterniond::UnitRandom();
    const Mat3 R = rotation.toRotationMatrix();
    const OrientedBox first{R, random_vec(rng, 0.1), Vec3(size(rng), size(rng), size(rng))};
    const int a = axis(rng);
    Mat3 R2 = R;
    if (trial % 2) R2 = R * Eigen::AngleAxisd(0.5 * M_PI, Vec3::Unit(a)).toRotationMatrix();
    OrientedBox second{R2, first.centre, Vec3(size(rng), size(rng), size(rng))};
    // Along axis a, the second's extent is its half along the axis mapped onto a (unchanged by a turn about
    // a).
    const double g = trial % 5 == 0 ? 0.0 : gap(rng);
    touching += g == 0.0;
    second.centre += R.col(a) * (first.half[a] + second.half[a] + g) + R.col((a + 1) % 3) * shift(rng) +
                     R.col((a + 2) % 3) * shift(rng);
    expect_identical(box_box(first, second), exhaustive_box_box(first, second), trial);
  }
  EXPECT_GT(touching, 1000);
}

TEST(BoxBoxPruning, Hrp2FeetMatchTheExhaustiveSearch) {
  const model::Robot robot = model::load_robot(model::default_robot_description_path());
  const CollisionModel cmodel = build_collision_model(robot.model, robot.description);
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  int feet = -1;
  for (int k = 0; k < static_cast<int>(cmodel.pairs.size()); ++k) {
    const CollisionPair& p = cmodel.pairs[static_cast<size_t>(k)];
    if (cmodel.shapes[static_cast<size_t>(p.first)].kind == ShapeKind::kBox &&
        cmodel.shapes[static_cast<size_t>(p.second)].kind == ShapeKind::kBox)
      feet = k;
  }
  ASSERT_GE(feet, 0);
  const CollisionPair& pair = cmodel.pairs[static_cast<size_t>(feet)];
  const auto i = static_cast<size_t>(pair.first), j = static_cast<size_t>(pair.second);
  std::mt19937 rng(4242);
  // The half-sitting (feet side by side, soles in one plane: parallel faces), then random poses.
  for (int trial = 0; trial < 10001; ++trial) {
    const Eigen::VectorXd q =
        trial == 0 ? robot.description.nominal_q(robot.model) : model::random_configuration(robot.model, rng);
    dynamics::forward_kinematics(robot.model, data, q);
    place_shapes(cmodel, data.oMi, cdata.placed);
    expect_identical(box_box(cdata.placed.box[i], cdata.placed.box[j]),
                     exhaustive_box_box(cdata.placed.box[i], cdata.placed.box[j]), trial);
  }
}

}  // namespace
}  // namespace mimic::geometry
