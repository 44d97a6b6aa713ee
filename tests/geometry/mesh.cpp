// Meshes (geometry/mesh.hpp, read by assimp), the package:// rule (mesh_path.hpp) and the capsule fit
// (capsule_fit.hpp) on files written here, and on the published JVRC-1 and G1 meshes (../shared/robots)
// where a known dimension checks units and axes.
#include "mimic/geometry/mesh.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>

#include "mimic/core/error.hpp"
#include "mimic/geometry/capsule_fit.hpp"
#include "mimic/geometry/mesh_path.hpp"
#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::geometry {
namespace {

namespace fs = std::filesystem;
using spatial::Vec3;

fs::path temp_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() /
      ("mimic_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" + name);
  fs::create_directories(dir);
  return dir;
}

// An ASCII STL of the box [0, 1] x [0, 2] x [0, 3] (12 triangles, outward normals).
void write_box_stl(const fs::path& path) {
  const Vec3 size(1, 2, 3);
  std::ofstream out(path);
  out << "solid box\n";
  const auto facet = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
    out << "facet normal 0 0 0\nouter loop\n";
    for (const Vec3& p : {a, b, c}) out << "vertex " << p.x() << " " << p.y() << " " << p.z() << "\n";
    out << "endloop\nendfacet\n";
  };
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;
    for (const double side : {0.0, 1.0}) {
      Vec3 p[4];
      for (int k = 0; k < 4; ++k) {
        p[k] = Vec3::Zero();
        p[k][axis] = side * size[axis];
        p[k][u] = (k == 1 || k == 2) ? size[u] : 0.0;
        p[k][w] = (k >= 2) ? size[w] : 0.0;
      }
      if (side > 0) {
        facet(p[0], p[1], p[2]);
        facet(p[0], p[2], p[3]);
      } else {
        facet(p[0], p[2], p[1]);
        facet(p[0], p[3], p[2]);
      }
    }
  }
  out << "endsolid box\n";
}

TEST(Mesh, ReadsStlWithScaleAndPlacement) {
  const fs::path dir = temp_dir("stl");
  write_box_stl(dir / "box.stl");
  const Mesh plain = read_mesh((dir / "box.stl").string());
  EXPECT_EQ(plain.triangles.cols(), 12);
  EXPECT_EQ(plain.vertices.cols(), 8);  // shared corners merged
  EXPECT_NEAR(enclosed_volume(plain), 6.0, 1e-12);
  // URDF order: scale in the mesh frame, then the <origin>.
  const spatial::SE3 origin(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()).toRotationMatrix(),
                            Vec3(1, 0, 0));
  const Mesh placed = read_mesh((dir / "box.stl").string(), Vec3(0.5, 0.5, 2.0), origin);
  EXPECT_NEAR(enclosed_volume(placed), 6.0 * 0.5, 1e-12);
  const Vec3 high = placed.vertices.rowwise().maxCoeff(), low = placed.vertices.rowwise().minCoeff();
  EXPECT_LT((low - Vec3(0.0, 0.0, 0.0)).norm(), 1e-12);  // x' = 1 - y in [0, 1], y' = x in [0, 0.5]
  EXPECT_LT((high - Vec3(1.0, 0.5, 6.0)).norm(), 1e-12);
  fs::remove_all(dir);
}

TEST(Mesh, UnreadableFileIsAModelError) {
  const fs::path dir = temp_dir("bad");
  std::ofstream(dir / "bad.stl") << "not a mesh";
  EXPECT_THROW(read_mesh((dir / "bad.stl").string()), ModelError);
  EXPECT_THROW(read_mesh((dir / "missing.dae").string()), ModelError);
  fs::remove_all(dir);
}

TEST(MeshPath, PackageResolvesNextToTheUrdfOrItsParent) {
  const fs::path dir = temp_dir("package");
  fs::create_directories(dir / "robot" / "urdf");
  fs::create_directories(dir / "robot" / "meshes");
  std::ofstream(dir / "robot" / "meshes" / "a.dae") << "";
  const std::string urdf = (dir / "robot" / "urdf" / "r.urdf").string();
  // Not next to the URDF: its parent's meshes/ (JVRC-1's layout).
  EXPECT_EQ(resolve_mesh_path("package://robot_description/meshes/a.dae", urdf),
            (dir / "robot" / "meshes" / "a.dae").string());
  // Next to the URDF when it is there (G1's layout).
  fs::create_directories(dir / "robot" / "urdf" / "meshes");
  std::ofstream(dir / "robot" / "urdf" / "meshes" / "a.dae") << "";
  EXPECT_EQ(resolve_mesh_path("package://robot_description/meshes/a.dae", urdf),
            (dir / "robot" / "urdf" / "meshes" / "a.dae").string());
  // mesh_root overrides both; relative and file:// paths.
  EXPECT_EQ(resolve_mesh_path("package://x/meshes/a.dae", urdf, "/opt/robot"), "/opt/robot/meshes/a.dae");
  EXPECT_EQ(resolve_mesh_path("meshes/b.STL", urdf), (dir / "robot" / "urdf" / "meshes" / "b.STL").string());
  EXPECT_EQ(resolve_mesh_path("file:///abs/c.stl", urdf), "/abs/c.stl");
  fs::remove_all(dir);
}

TEST(CapsuleFit, ContainsAndFitsACylinderOfPoints) {
  // Points on a cylinder of radius 0.05 around the x axis from x = -0.2 to 0.2, centred off the origin:
  // the capsule holds them with a radius of about 0.05 and a segment shorter than the cylinder.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi), along(-0.2, 0.2);
  Eigen::Matrix3Xd points(3, 2000);
  for (Eigen::Index i = 0; i < points.cols(); ++i) {
    const double t = angle(rng);
    points.col(i) = Vec3(along(rng), 0.05 * std::cos(t), 0.05 * std::sin(t)) + Vec3(0.3, -0.1, 0.7);
  }
  const Capsule capsule = fit_capsule(points);
  for (Eigen::Index i = 0; i < points.cols(); ++i)
    EXPECT_LE(distance_to_segment(capsule, points.col(i)), capsule.radius + 1e-12);
  EXPECT_NEAR(capsule.radius, 0.05, 2e-3);
  EXPECT_LT((capsule.b - capsule.a).norm(), 0.4);
  EXPECT_GT(std::abs((capsule.b - capsule.a).normalized().x()), 0.999);
  // One point: a sphere of radius 0.
  const Capsule point = fit_capsule(Eigen::Matrix3Xd(Vec3(1, 2, 3)));
  EXPECT_EQ(point.radius, 0.0);
  EXPECT_LT((point.a - Vec3(1, 2, 3)).norm(), 1e-15);
}

// Units and axes of the published meshes against the URDFs' joint offsets: JVRC-1's shank mesh spans the
// knee-to-ankle distance along z (COLLADA Z_UP read as it is, not turned to y-up), and its left foot file,
// written in centimetres under a 0.01 node scale, comes out as the mirror of the right one in metres.
TEST(Mesh, PublishedMeshesHaveTheRobotsDimensions) {
  MIMIC_REQUIRE_SHARED(jvrc1, "robots/jvrc1/meshes/R_KNEE_S.dae");
  const Mesh shank = read_mesh(jvrc1.string());
  const Vec3 low = shank.vertices.rowwise().minCoeff(), high = shank.vertices.rowwise().maxCoeff();
  // R_ANKLE_R sits 0.357 m below the knee joint (jvrc1.urdf); the shank mesh ends above it and begins
  // above the knee axis.
  EXPECT_NEAR(high.z() - low.z(), 0.375, 0.01);
  EXPECT_GT(high.z() - low.z(), 2.0 * (high.y() - low.y()));
  const fs::path meshes = jvrc1.parent_path();
  const Mesh right = read_mesh((meshes / "R_ANKLE_P_S.dae").string());
  const Mesh left = read_mesh((meshes / "L_ANKLE_P_S.dae").string());
  EXPECT_NEAR(left.vertices.row(2).minCoeff(), right.vertices.row(2).minCoeff(), 1e-6);
  EXPECT_NEAR(left.vertices.row(2).minCoeff(), -0.1077359, 1e-6);
  MIMIC_REQUIRE_SHARED(g1, "robots/g1/meshes/left_ankle_roll_link.STL");
  // G1's sole: the lowest vertex of the ankle-roll mesh, the number g1.yaml's sole frames use; just below
  // the bottoms of the URDF's contact spheres (z -0.03 - 0.005).
  const Mesh foot = read_mesh(g1.string());
  EXPECT_NEAR(foot.vertices.row(2).minCoeff(), -0.035409145, 1e-8);
}

}  // namespace
}  // namespace mimic::geometry
