// JVRC-1 and G1 from their published URDFs (../shared/robots) with the shipped descriptions: the nominal
// pose stands (soles flat at z = 0, centre of mass over the support polygon, no checked shape pair closer
// than the default safety distance 0.01 m), fixed and held links are merged without changing the dynamics
// (RNEA of the merged model = RNEA of a model that keeps them as bodies), and every capsule fitted to a
// collision mesh contains the mesh.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <regex>
#include <sstream>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/geometry/capsule_fit.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/geometry/link_meshes.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot.hpp"
#include "support/shared_data.hpp"

namespace mimic::geometry {
namespace {

namespace fs = std::filesystem;
using model::Model;
using model::Robot;

struct RobotCase {
  std::string name;  // config/robots/<name>.yaml
  std::string urdf;  // under ../shared
};

const RobotCase kJvrc1{"jvrc1", "robots/jvrc1/urdf/jvrc1.urdf"};
const RobotCase kG1{"g1", "robots/g1/g1_29dof_rev_1_0.urdf"};

Robot load(const RobotCase& robot, const fs::path& urdf) {
  return model::load_robot((test::source_dir() / "config" / "robots" / (robot.name + ".yaml")).string(),
                           std::nullopt, urdf.string());
}

class Standing : public ::testing::TestWithParam<RobotCase> {};

TEST_P(Standing, NominalPoseStandsOnFlatSoles) {
  MIMIC_REQUIRE_SHARED(urdf, GetParam().urdf);
  const Robot robot = load(GetParam(), urdf);
  const Model& m = robot.model;
  model::Data data(m);
  const Eigen::VectorXd q = robot.description.nominal_q(m);
  dynamics::forward_kinematics(m, data, q);
  dynamics::update_frame_placements(m, data);
  // Both soles on the ground plane and parallel to it: the waist height of the description is written to
  // 1e-9 m, the sole rotation is exact up to rounding (hip + knee + ankle pitch = 0).
  std::vector<Eigen::Vector2d> corners;
  for (const auto& [frame, sole] :
       {std::pair{robot.description.frames.right_sole, robot.description.right_sole},
        std::pair{robot.description.frames.left_sole, robot.description.left_sole}}) {
    const spatial::SE3& oMs = data.oMf[static_cast<std::size_t>(m.frame_index(frame))];
    EXPECT_NEAR(oMs.p.z(), 0.0, 1e-9) << frame;
    EXPECT_LT((oMs.R - spatial::Mat3::Identity()).norm(), 1e-12) << frame;
    for (const double x : {sole.x_min, sole.x_max})
      for (const double y : {sole.y_min, sole.y_max})
        corners.push_back((oMs.p + oMs.R * Vec3(x, y, 0)).head<2>());
  }
  // The centre of mass over the support polygon: the feet are side by side and level, so the polygon is
  // the rectangle between the feet's outer edges, within the x range both soles cover.
  const Vec3 com = dynamics::center_of_mass(m, data, q);
  double x_low = -1e9, x_high = 1e9, y_low = 1e9, y_high = -1e9;
  for (std::size_t foot = 0; foot < 2; ++foot) {
    double lo = 1e9, hi = -1e9;
    for (std::size_t k = 0; k < 4; ++k) {
      lo = std::min(lo, corners[4 * foot + k].x());
      hi = std::max(hi, corners[4 * foot + k].x());
      y_low = std::min(y_low, corners[4 * foot + k].y());
      y_high = std::max(y_high, corners[4 * foot + k].y());
    }
    x_low = std::max(x_low, lo);
    x_high = std::min(x_high, hi);
  }
  std::printf("%s: mass %.4f kg, CoM (%.4f, %.4f, %.4f) m, support x [%.4f, %.4f] y [%.4f, %.4f]\n",
              GetParam().name.c_str(), m.total_mass(), com.x(), com.y(), com.z(), x_low, x_high, y_low,
              y_high);
  EXPECT_GT(com.x(), x_low);
  EXPECT_LT(com.x(), x_high);
  EXPECT_GT(com.y(), y_low);
  EXPECT_LT(com.y(), y_high);

  // No two checked shapes overlap, and every sole corner is on the ground.
  const CollisionModel cmodel = build_collision_model(m, robot.description);
  CollisionData cd(m, cmodel);
  compute_distances(m, data, cmodel, cd, q);
  Eigen::Index closest = 0;
  const double min_distance = cd.distance.minCoeff(&closest);
  std::printf("%s: %zu shapes, %zu pairs, closest %s at %.4f m; sole corners %.2e .. %.2e m\n",
              GetParam().name.c_str(), cmodel.shapes.size(), cmodel.pairs.size(),
              cmodel.pair_name(static_cast<int>(closest)).c_str(), min_distance, cd.corner_height.minCoeff(),
              cd.corner_height.maxCoeff());
  for (int pair = 0; pair < static_cast<int>(cmodel.pairs.size()); ++pair)
    if (cd.distance[pair] < 0.0)
      std::printf("  overlapping: %s at %.4f m\n", cmodel.pair_name(pair).c_str(), cd.distance[pair]);
  // At least mimic's default safety distance (geometry.safety_distance, 0.01 m), as HRP-2's half-sitting.
  EXPECT_GE(min_distance, 0.01) << cmodel.pair_name(static_cast<int>(closest));
  EXPECT_NEAR(cd.corner_height.minCoeff(), 0.0, 1e-9);
  EXPECT_NEAR(cd.corner_height.maxCoeff(), 0.0, 1e-9);
}

TEST_P(Standing, FittedCapsulesContainTheirMeshes) {
  MIMIC_REQUIRE_SHARED(urdf, GetParam().urdf);
  const Robot robot = load(GetParam(), urdf);
  const CollisionModel cmodel = build_collision_model(robot.model, robot.description);
  const auto meshes = read_link_meshes(robot.model, robot.description, MeshUse::kCollision);
  ASSERT_FALSE(meshes.empty());
  double worst_ratio = 0.0;
  std::string worst;
  for (const LinkMesh& mesh : meshes) {
    const Capsule capsule = fit_capsule(mesh.mesh.vertices);
    double farthest = 0.0;
    for (Eigen::Index v = 0; v < mesh.mesh.vertices.cols(); ++v)
      farthest = std::max(farthest, distance_to_segment(capsule, mesh.mesh.vertices.col(v)));
    EXPECT_LE(farthest, capsule.radius + 1e-9) << mesh.link;
    // Not absurdly larger: the fit tries the principal axes of the vertices, and along the longest side a
    // of their principal box (a x b x c) its radius is at most the half diagonal of the b x c section
    // (smallest enclosing circle) and its segment at most a, so its volume is at most that capsule's. A
    // flat or hollow mesh still gets a capsule several times its box (printed: the ratio to the box and to
    // the mesh's own volume, which an open or hollow mesh makes small).
    const Eigen::Matrix3Xd centred = mesh.mesh.vertices.colwise() - mesh.mesh.vertices.rowwise().mean();
    const Eigen::SelfAdjointEigenSolver<spatial::Mat3> eigen(centred * centred.transpose());
    const Eigen::Matrix3Xd principal = eigen.eigenvectors().transpose() * centred;
    Vec3 side = principal.rowwise().maxCoeff() - principal.rowwise().minCoeff();
    std::sort(side.data(), side.data() + 3);  // c <= b <= a
    const double half_diagonal = 0.5 * std::hypot(side[0], side[1]);
    const double bound = std::numbers::pi * half_diagonal * half_diagonal * side[2] +
                         4.0 / 3.0 * std::numbers::pi * std::pow(half_diagonal, 3);
    EXPECT_LE(capsule.volume(), bound * (1.0 + 1e-9)) << mesh.link;
    const double ratio = capsule.volume() / (side[0] * side[1] * side[2]);
    std::printf("%s %-24s %6ld vertices  r %.4f  |ab| %.4f  capsule / box %.2f  capsule / mesh %.2f\n",
                GetParam().name.c_str(), mesh.link.c_str(), static_cast<long>(mesh.mesh.vertices.cols()),
                capsule.radius, (capsule.b - capsule.a).norm(), ratio,
                capsule.volume() / enclosed_volume(mesh.mesh));
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = mesh.link;
    }
    // The collision model holds this capsule unless the description replaces the link's shapes.
    const bool replaced =
        std::any_of(robot.description.collision.shapes.begin(), robot.description.collision.shapes.end(),
                    [&](const auto& spec) { return spec.link == mesh.link; });
    const bool found = std::any_of(cmodel.shapes.begin(), cmodel.shapes.end(), [&](const CollisionShape& s) {
      return s.link == mesh.link && s.kind == ShapeKind::kCapsule && (s.a - capsule.a).norm() < 1e-12 &&
             std::abs(s.radius - capsule.radius) < 1e-12;
    });
    EXPECT_EQ(found, !replaced) << mesh.link;
  }
  std::printf("%s: %zu collision meshes, largest capsule / box volume ratio %.2f (%s)\n",
              GetParam().name.c_str(), meshes.size(), worst_ratio, worst.c_str());
}

INSTANTIATE_TEST_SUITE_P(Robots, Standing, ::testing::Values(kJvrc1, kG1),
                         [](const auto& info) { return info.param.name; });

// The merged model's dynamics equal those of a model that keeps the merged links as bodies: JVRC-1's held
// fingers against the URDF's free ones at the same angles (torques of the other joints and the base
// wrench), G1's fixed links with mass (head, logo, pelvis contour, rubber hands) against the same URDF with
// those joints made revolute joints held at 0.
void expect_same_rnea(const Model& merged, const Model& unmerged) {
  model::Data dm(merged), du(unmerged);
  std::srand(16);
  std::mt19937 rng(16);
  Eigen::VectorXd q = model::random_configuration(merged, rng);
  Eigen::VectorXd v = Eigen::VectorXd::Random(merged.nv), a = Eigen::VectorXd::Random(merged.nv);
  Eigen::VectorXd qu = model::neutral(unmerged), vu = Eigen::VectorXd::Zero(unmerged.nv),
                  au = Eigen::VectorXd::Zero(unmerged.nv);
  qu.head<7>() = q.head<7>();
  vu.head<6>() = v.head<6>();
  au.head<6>() = a.head<6>();
  for (int j = 0; j < merged.nj; ++j) {
    const int k = unmerged.joint_index(merged.joint_names[static_cast<std::size_t>(j)]);
    qu[unmerged.idx_q(k)] = q[merged.idx_q(j)];
    vu[unmerged.idx_v(k)] = v[merged.idx_v(j)];
    au[unmerged.idx_v(k)] = a[merged.idx_v(j)];
  }
  for (const bool moving : {false, true}) {
    const Eigen::VectorXd zero_m = Eigen::VectorXd::Zero(merged.nv),
                          zero_u = Eigen::VectorXd::Zero(unmerged.nv);
    const Eigen::VectorXd tau = dynamics::rnea(merged, dm, q, moving ? v : zero_m, moving ? a : zero_m);
    const Eigen::VectorXd tau_u =
        dynamics::rnea(unmerged, du, qu, moving ? vu : zero_u, moving ? au : zero_u);
    const double scale = std::max(1.0, tau.cwiseAbs().maxCoeff());
    for (int c = 0; c < 6; ++c) EXPECT_NEAR(tau[c], tau_u[c], 1e-10 * scale) << "base " << c;
    for (int j = 0; j < merged.nj; ++j)
      EXPECT_NEAR(
          tau[merged.idx_v(j)],
          tau_u[unmerged.idx_v(unmerged.joint_index(merged.joint_names[static_cast<std::size_t>(j)]))],
          1e-10 * scale)
          << merged.joint_names[static_cast<std::size_t>(j)] << (moving ? " (moving)" : " (static)");
  }
}

TEST(MergedLinks, HeldFingersKeepTheDynamics) {
  MIMIC_REQUIRE_SHARED(urdf, kJvrc1.urdf);
  const Robot robot = load(kJvrc1, urdf);
  expect_same_rnea(robot.model, model::load_urdf(urdf.string()));
}

TEST(MergedLinks, FixedLinksKeepTheDynamics) {
  MIMIC_REQUIRE_SHARED(urdf, kG1.urdf);
  std::ifstream in(urdf);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  for (const std::string joint : {"pelvis_contour_joint", "logo_joint", "head_joint", "left_hand_palm_joint",
                                  "right_hand_palm_joint"}) {
    const std::regex fixed("(<joint name=\"" + joint + "\" type=\")fixed(\"[^>]*>)");
    ASSERT_TRUE(std::regex_search(text, fixed)) << joint;
    text = std::regex_replace(text, fixed,
                              "$1revolute$2<axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"0\" effort=\"1\" "
                              "velocity=\"1\"/>");
  }
  const fs::path unmerged_path = fs::temp_directory_path() / "mimic_test_g1_unmerged.urdf";
  std::ofstream(unmerged_path) << text;
  const Model unmerged = model::load_urdf(unmerged_path.string());
  fs::remove(unmerged_path);
  ASSERT_EQ(unmerged.nj, 29 + 5);
  expect_same_rnea(load(kG1, urdf).model, unmerged);
}

}  // namespace
}  // namespace mimic::geometry
