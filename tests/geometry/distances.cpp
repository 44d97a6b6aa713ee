// Pair distances and sole-corner heights of HRP-2 (distances.hpp): gradients against central differences
// in q, the half-sitting pose is free, today's failure fixtures (tests/data) are caught, no allocation.
#include "mimic/geometry/distances.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"
#include "support/allocation_counter.hpp"
#include "support/fixture_motion.hpp"
#include "support/shared_data.hpp"

namespace mimic::geometry {
namespace {

struct Hrp2 {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  CollisionModel cmodel = build_collision_model(robot.model, robot.description);
};

const Hrp2& hrp2() {
  static const Hrp2 instance;
  return instance;
}

int pair_index(const CollisionModel& cmodel, const std::string& name) {
  for (int k = 0; k < static_cast<int>(cmodel.pairs.size()); ++k)
    if (cmodel.pair_name(k) == name) return k;
  return -1;
}

TEST(Hrp2Collision, ShapesAndPairs) {
  const CollisionModel& cmodel = hrp2().cmodel;
  // waist, torso, head; per side thigh, shank, foot box, upper arm, forearm, hand.
  EXPECT_EQ(cmodel.shapes.size(), 15u);
  EXPECT_EQ(cmodel.corners.size(), 8u);
  // Adjacent through shapeless links: no pair; across the body: checked.
  EXPECT_EQ(pair_index(cmodel, "BODY / RLEG_LINK2"), -1);
  EXPECT_EQ(pair_index(cmodel, "RARM_LINK4 / RARM_LINK6"), -1);
  EXPECT_EQ(pair_index(cmodel, "CHEST_LINK1 / HEAD_LINK1"), -1);
  EXPECT_GE(pair_index(cmodel, "HEAD_LINK1 / RARM_LINK6"), 0);
  EXPECT_GE(pair_index(cmodel, "l_sole / r_sole"), 0);
  // 15 shapes, 105 pairs, 14 adjacent ones (each shape but the waist has one shape parent).
  EXPECT_EQ(cmodel.pairs.size(), 105u - 14u);
}

TEST(Hrp2Collision, HalfSittingIsFree) {
  const auto& [robot, cmodel] = hrp2();
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  compute_distances(robot.model, data, cmodel, cdata, robot.description.nominal_q(robot.model));
  Eigen::Index worst = 0;
  EXPECT_GE(cdata.distance.minCoeff(&worst), 0.01) << cmodel.pair_name(static_cast<int>(worst));
  // The soles lie on z = 0 (D1 reproduces the waist height to 1e-6: the corners are 0 to round-off).
  EXPECT_NEAR(cdata.corner_height.minCoeff(), 0.0, 1e-6);
  EXPECT_NEAR(cdata.corner_height.maxCoeff(), 0.0, 1e-6);
}

// Central differences along each tangent direction: step 1e-6 rad or m. Truncation error is h^2/6 times the
// third derivative (the distances' curvature is ~1 / 0.05 m over these links, so ~1e-10); round-off is
// 1e-16 x (distance ~1 m) / 1e-6 ~ 1e-10. A tolerance of 1e-6 leaves margin while catching any wrong
// column (whose entries are ~0.1 .. 1).
TEST(Hrp2Collision, GradientsMatchCentralDifferences) {
  const auto& [robot, cmodel] = hrp2();
  const model::Model& model = robot.model;
  model::Data data(model);
  CollisionData cdata(model, cmodel), plus(model, cmodel), minus(model, cmodel);
  std::mt19937 rng(3);
  constexpr double h = 1e-6;
  int rows_checked = 0;
  for (int trial = 0; trial < 6; ++trial) {
    // Trial 0: near the half-sitting (whose symmetric, parallel limbs are kinks of the distances, see
    // HalfSittingGradientsAreSubGradients); the others anywhere within the joint limits.
    const Eigen::VectorXd near_nominal =
        model::integrate(model, robot.description.nominal_q(model), 0.05 * Eigen::VectorXd::Random(model.nv));
    const Eigen::VectorXd q = trial == 0 ? near_nominal : model::random_configuration(model, rng);
    compute_distance_gradients(model, data, cmodel, cdata, q);
    Eigen::MatrixXd fd_distance(cdata.distance.size(), model.nv),
        fd_corner(cdata.corner_height.size(), model.nv);
    for (int c = 0; c < model.nv; ++c) {
      const Eigen::VectorXd dv = Eigen::VectorXd::Unit(model.nv, c) * h;
      compute_distances(model, data, cmodel, plus, model::integrate(model, q, dv));
      compute_distances(model, data, cmodel, minus, model::integrate(model, q, -dv));
      fd_distance.col(c) = (plus.distance - minus.distance) / (2 * h);
      fd_corner.col(c) = (plus.corner_height - minus.corner_height) / (2 * h);
    }
    for (Eigen::Index k = 0; k < fd_distance.rows(); ++k, ++rows_checked)
      EXPECT_LT((cdata.distance_gradient.row(k) - fd_distance.row(k)).lpNorm<Eigen::Infinity>(), 1e-6)
          << "trial " << trial << " pair " << cmodel.pair_name(static_cast<int>(k)) << " distance "
          << cdata.distance[k];
    EXPECT_LT((cdata.corner_gradient - fd_corner).lpNorm<Eigen::Infinity>(), 1e-6) << "trial " << trial;
  }
  EXPECT_EQ(rows_checked, 6 * 91);
}

// The same on the robots beyond HRP-2 (issue 16), whose collision models have what HRP-2's lacks: G1's
// capsules fitted to meshes, spheres (its shoulders) and boxes (its torso, chest plate and feet) met by
// the arms, in 100 random poses within the joint limits, hundreds of rows with a capsule inside a box
// (where the depth's gradient was wrong before, closest_points.hpp: these poses caught it). The step and
// tolerance as above; a row whose one-sided differences disagree (a kink within the step: capsules
// crossing, the depth's axis changing) is skipped, and most are checked.
void expect_gradients_match(const std::string& name, const std::filesystem::path& urdf) {
  const model::Robot robot = model::load_robot(
      (test::source_dir() / "config" / "robots" / (name + ".yaml")).string(), std::nullopt, urdf.string());
  const model::Model& model = robot.model;
  const CollisionModel cmodel = build_collision_model(model, robot.description);
  model::Data data(model);
  CollisionData cdata(model, cmodel), plus(model, cmodel), minus(model, cmodel);
  std::mt19937 rng(3);
  constexpr double h = 1e-6;
  int rows = 0, checked = 0, inside = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(model, rng);
    compute_distance_gradients(model, data, cmodel, cdata, q);
    Eigen::MatrixXd central(cdata.distance.size(), model.nv), kink(cdata.distance.size(), model.nv);
    for (int c = 0; c < model.nv; ++c) {
      const Eigen::VectorXd dv = Eigen::VectorXd::Unit(model.nv, c) * h;
      compute_distances(model, data, cmodel, plus, model::integrate(model, q, dv));
      compute_distances(model, data, cmodel, minus, model::integrate(model, q, -dv));
      central.col(c) = (plus.distance - minus.distance) / (2 * h);
      kink.col(c) = (plus.distance - 2 * cdata.distance + minus.distance) / h;  // forward - backward
    }
    for (Eigen::Index k = 0; k < central.rows(); ++k, ++rows) {
      if (kink.row(k).lpNorm<Eigen::Infinity>() > 1e-4) continue;
      ++checked;
      inside += cdata.distance[k] < 0.0;
      EXPECT_LT((cdata.distance_gradient.row(k) - central.row(k)).lpNorm<Eigen::Infinity>(), 1e-6)
          << name << " trial " << trial << " pair " << cmodel.pair_name(static_cast<int>(k)) << " distance "
          << cdata.distance[k];
    }
  }
  EXPECT_GT(checked, 0.9 * rows) << name;
  EXPECT_GT(inside, 100) << name;
}

TEST(RobotCollision, G1GradientsMatchCentralDifferences) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  expect_gradients_match("g1", urdf);
}

TEST(RobotCollision, Jvrc1GradientsMatchCentralDifferences) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/jvrc1/urdf/jvrc1.urdf");
  expect_gradients_match("jvrc1", urdf);
}

// The gradients are written run by run over the columns that move one shape only (ColumnRange). The dense
// reference: every column of the two bodies' world Jacobians (dynamics::body_jacobian), contracted with the
// witness points' wrenches [n; p x n]. The shared columns must come out zero (the rows are not written
// there) and the others equal to round-off: both sum six products of the same magnitudes (~1), in another
// order, so 1e-12 is a thousand times the round-off and far below any wrong column.
TEST(Hrp2Collision, RunWiseGradientsMatchDenseJacobians) {
  const auto& [robot, cmodel] = hrp2();
  const model::Model& model = robot.model;
  model::Data data(model);
  CollisionData cdata(model, cmodel);
  std::mt19937 rng(11);
  Eigen::Matrix<double, 6, Eigen::Dynamic> J1(6, model.nv), J2(6, model.nv);
  const auto wrench = [](const Vec3& n, const Vec3& p) {
    spatial::Vec6 f;
    f << n, p.cross(n);
    return f;
  };
  for (int trial = 0; trial < 4; ++trial) {
    compute_distance_gradients(model, data, cmodel, cdata, model::random_configuration(model, rng));
    for (int k = 0; k < static_cast<int>(cmodel.pairs.size()); ++k) {
      const CollisionPair& pair = cmodel.pairs[static_cast<size_t>(k)];
      const Contact& c = cdata.contacts[static_cast<size_t>(k)];
      dynamics::body_jacobian(model, data, cmodel.shapes[static_cast<size_t>(pair.first)].body,
                              dynamics::ReferenceFrame::kWorld, J1);
      dynamics::body_jacobian(model, data, cmodel.shapes[static_cast<size_t>(pair.second)].body,
                              dynamics::ReferenceFrame::kWorld, J2);
      const Eigen::RowVectorXd dense =
          wrench(c.normal, c.on_first).transpose() * J1 - wrench(c.normal, c.on_second).transpose() * J2;
      EXPECT_LT((cdata.distance_gradient.row(k) - dense).lpNorm<Eigen::Infinity>(), 1e-12)
          << "trial " << trial << " pair " << cmodel.pair_name(k);
    }
    for (size_t k = 0; k < cmodel.corners.size(); ++k) {
      const SoleCorner& corner = cmodel.corners[k];
      dynamics::body_jacobian(model, data, corner.body, dynamics::ReferenceFrame::kWorld, J1);
      const Vec3 p = data.oMi[static_cast<size_t>(corner.body)].act(corner.point);
      const Eigen::RowVectorXd dense = wrench(Vec3::UnitZ(), p).transpose() * J1;
      EXPECT_LT((cdata.corner_gradient.row(static_cast<Eigen::Index>(k)) - dense).lpNorm<Eigen::Infinity>(),
                1e-12)
          << "trial " << trial << " corner " << k;
    }
  }
}

// Runs of every length the kernel treats apart (1, 2 and odd, even longer ones, up to the last column), on
// made-up axes: each entry of the pair's columns is [n; p x n] . axis (minus, with the second point, for
// the second shape's columns), the other entries are left as they were. Same round-off argument as above.
TEST(PairGradient, EveryRunLengthAgainstTheDefinition) {
  constexpr int nv = 16;
  CollisionModel cmodel;
  CollisionPair pair;
  pair.first_only = {0, 2, 3, 4, 7, 8, 9, 10, 11};  // runs of 1, 3 and 5
  pair.second_only = {5, 6, 13, 15};                // runs of 2, 1, and 1 on the last column
  pair.first_ranges = ranges_of(pair.first_only);
  pair.second_ranges = ranges_of(pair.second_only);
  cmodel.pairs.push_back(pair);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  WorldAxes axes(nv, 6);
  for (auto& x : axes.reshaped()) x = u(rng);
  Contact contact;
  contact.normal = Vec3(u(rng), u(rng), u(rng)).normalized();
  contact.on_first = Vec3(u(rng), u(rng), u(rng));
  contact.on_second = contact.on_first - 0.1 * contact.normal;
  GradientRows row = GradientRows::Constant(1, nv, 7.0);
  pair_gradient(cmodel, 0, contact, axes, row.row(0));
  const auto entry = [&](int c, const Vec3& p) {
    return contact.normal.dot(axes.row(c).head<3>()) + p.cross(contact.normal).dot(axes.row(c).tail<3>());
  };
  for (int c = 0; c < nv; ++c) {
    const auto in = [c](const std::vector<int>& v) { return std::find(v.begin(), v.end(), c) != v.end(); };
    const double expected = in(pair.first_only)    ? entry(c, contact.on_first)
                            : in(pair.second_only) ? -entry(c, contact.on_second)
                                                   : 7.0;
    EXPECT_NEAR(row(0, c), expected, 1e-12) << "column " << c;
  }
}

// At the half-sitting the legs are parallel and the feet side by side, face to face: the closest points
// are not unique and the distances have kinks. A distance is a minimum over pairs of points, so its
// directional derivative along any d is the smallest over the closest pairs of g . d, and the gradient of
// any one closest pair is an upper bound of it: one-sided differences must not exceed g . d.
TEST(Hrp2Collision, HalfSittingGradientsAreSubGradients) {
  const auto& [robot, cmodel] = hrp2();
  const model::Model& model = robot.model;
  model::Data data(model);
  CollisionData cdata(model, cmodel), moved(model, cmodel);
  const Eigen::VectorXd q = robot.description.nominal_q(model);
  compute_distance_gradients(model, data, cmodel, cdata, q);
  constexpr double h = 1e-7;  // one-sided: truncation h x curvature (~1e-5) stays below the 1e-5 allowed
  for (int c = 0; c < model.nv; ++c) {
    for (const double sign : {-1.0, 1.0}) {
      const Eigen::VectorXd d = sign * Eigen::VectorXd::Unit(model.nv, c);
      compute_distances(model, data, cmodel, moved, model::integrate(model, q, h * d));
      const Eigen::VectorXd slope = (moved.distance - cdata.distance) / h;
      const Eigen::VectorXd bound = cdata.distance_gradient * d;
      for (Eigen::Index k = 0; k < slope.size(); ++k)
        EXPECT_LE(slope[k], bound[k] + 1e-5) << cmodel.pair_name(static_cast<int>(k)) << " dof " << c;
    }
  }
}

TEST(Hrp2Collision, BoxingFixtureHasTheRightHandInTheHead) {
  const auto& [robot, cmodel] = hrp2();
  const model::SampledMotion motion =
      test::read_fixture(robot.model, test::fixture_path("boxing_hand_in_head"));
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  const int pair = pair_index(cmodel, "HEAD_LINK1 / RARM_LINK6");
  double closest = 1.0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    compute_distances(robot.model, data, cmodel, cdata, motion.q.col(k));
    closest = std::min(closest, cdata.distance[pair]);
  }
  EXPECT_LT(closest, 0.0);
}

TEST(Hrp2Collision, SmoothedWalkFixtureHasASoleCornerBelowTheFloor) {
  const auto& [robot, cmodel] = hrp2();
  const model::SampledMotion motion =
      test::read_fixture(robot.model, test::fixture_path("walk_bar_smooth_toe_below_floor"));
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  double lowest = 1.0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    compute_distances(robot.model, data, cmodel, cdata, motion.q.col(k));
    lowest = std::min(lowest, cdata.corner_height.minCoeff());
  }
  EXPECT_LT(lowest, -0.005);
}

// Screening: the listed pairs get exactly the full evaluation's numbers, every other pair is at least the
// margin apart, and a margin beyond the robot's span lists every pair.
TEST(Hrp2Collision, ScreeningEvaluatesExactlyTheNearPairs) {
  const auto& [robot, cmodel] = hrp2();
  const model::Model& model = robot.model;
  model::Data data(model);
  CollisionData full(model, cmodel), near(model, cmodel);
  std::mt19937 rng(7);
  constexpr double margin = 0.05;
  int listed = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(model, rng);
    compute_distance_gradients(model, data, cmodel, full, q);
    compute_near_distance_gradients(model, data, cmodel, near, q, margin);
    std::vector<bool> is_near(cmodel.pairs.size(), false);
    for (int n = 0; n < near.near_count; ++n) {
      const int k = near.near_pairs[n];
      ASSERT_TRUE(n == 0 || near.near_pairs[n - 1] < k);
      is_near[static_cast<size_t>(k)] = true;
      EXPECT_EQ(near.distance[k], full.distance[k]);
      EXPECT_EQ(near.distance_gradient.row(k), full.distance_gradient.row(k));
    }
    for (int k = 0; k < static_cast<int>(cmodel.pairs.size()); ++k) {
      if (is_near[static_cast<size_t>(k)]) continue;
      EXPECT_GE(bounding_gap(cmodel, near.placed, k), margin);
      EXPECT_GE(full.distance[k], margin) << cmodel.pair_name(k);
    }
    EXPECT_EQ(near.corner_height, full.corner_height);
    EXPECT_EQ(near.corner_gradient, full.corner_gradient);
    listed += near.near_count;
    compute_near_distance_gradients(model, data, cmodel, near, q, robot_span(model, cmodel));
    EXPECT_EQ(near.near_count, static_cast<int>(cmodel.pairs.size()));
  }
  EXPECT_GT(listed, 0);
  EXPECT_LT(listed, 20 * static_cast<int>(cmodel.pairs.size()));  // some pairs were screened out
}

// robot_span bounds every pair distance (terms/self_collision.hpp relies on it).
TEST(Hrp2Collision, SpanBoundsEveryPairDistance) {
  const auto& [robot, cmodel] = hrp2();
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  const double span = robot_span(robot.model, cmodel);
  std::mt19937 rng(9);
  double widest = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    compute_distances(robot.model, data, cmodel, cdata, model::random_configuration(robot.model, rng));
    widest = std::max(widest, cdata.distance.maxCoeff());
  }
  EXPECT_LT(widest, span);
  EXPECT_LT(span, 10.0);  // a bound, but not a useless one for a 1.5 m robot
}

TEST(Hrp2Collision, GradientsDoNotAllocate) {
  const auto& [robot, cmodel] = hrp2();
  model::Data data(robot.model);
  CollisionData cdata(robot.model, cmodel);
  const Eigen::VectorXd q = robot.description.nominal_q(robot.model);
  compute_distance_gradients(robot.model, data, cmodel, cdata, q);
  const test::Counts allocations =
      test::count_allocations([&] { compute_distance_gradients(robot.model, data, cmodel, cdata, q); });
  EXPECT_EQ(allocations.total(), 0);
  const test::Counts screened = test::count_allocations(
      [&] { compute_near_distance_gradients(robot.model, data, cmodel, cdata, q, 0.05); });
  EXPECT_EQ(screened.total(), 0);
}

}  // namespace
}  // namespace mimic::geometry
