// build_collision_model and the description's collision section: overrides and exclusions do what
// docs/robot-description.md says, and bad collision input is an error naming the link or the key.
#include "mimic/geometry/collision_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>

#include "mimic/core/error.hpp"
#include "mimic/model/robot.hpp"
#include "support/temp_path.hpp"

namespace mimic::geometry {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A copy of the shipped description (and, when `urdf_edit` changes it, of the URDF) in a temporary folder,
// with its collision section replaced by `collision`.
class EditedRobot {
 public:
  EditedRobot(const std::string& collision, const std::function<std::string(std::string)>& urdf_edit = {})
      : dir_(test::unique_temp_path(::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::create_directories(dir_);
    const std::string source = MIMIC_SOURCE_DIR;
    std::string urdf = read(source + "/models/hrp2.urdf");
    if (urdf_edit) urdf = urdf_edit(urdf);
    std::ofstream(dir_ / "hrp2.urdf") << urdf;
    std::string yaml = read(source + "/config/robots/hrp2.yaml");
    yaml = std::regex_replace(yaml, std::regex("urdf: \\.\\./\\.\\./models/hrp2.urdf"), "urdf: hrp2.urdf");
    yaml = yaml.substr(0, yaml.find("\ncollision:")) + "\n" + collision;
    std::ofstream(dir_ / "hrp2.yaml") << yaml;
  }
  ~EditedRobot() { fs::remove_all(dir_); }
  std::string description() const { return (dir_ / "hrp2.yaml").string(); }
  CollisionModel load() const {
    const model::Robot robot = model::load_robot(description());
    return build_collision_model(robot.model, robot.description);
  }

 private:
  fs::path dir_;
};

template <class Error>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

int count_link(const CollisionModel& cmodel, const std::string& link) {
  int n = 0;
  for (const auto& shape : cmodel.shapes) n += shape.link == link;
  return n;
}

// Whether links l1 and l2 form a checked pair (in either order).
bool has_pair(const CollisionModel& cmodel, const std::string& l1, const std::string& l2) {
  for (int k = 0; k < static_cast<int>(cmodel.pairs.size()); ++k)
    if (cmodel.pair_name(k) == l1 + " / " + l2 || cmodel.pair_name(k) == l2 + " / " + l1) return true;
  return false;
}

TEST(CollisionModel, UrdfCylinderIsItsInscribedCapsule) {
  const model::Robot robot = model::load_robot(model::default_robot_description_path());
  const CollisionModel cmodel = build_collision_model(robot.model, robot.description);
  for (const auto& shape : cmodel.shapes) {
    if (shape.link != "HEAD_LINK1") continue;
    // <cylinder radius="0.07" length="0.176"/> at (0.01, 0, 0.098): segment 0.036 long about the origin.
    EXPECT_EQ(shape.kind, ShapeKind::kCapsule);
    EXPECT_DOUBLE_EQ(shape.radius, 0.07);
    EXPECT_NEAR((shape.a - Vec3(0.01, 0.0, 0.116)).norm(), 0.0, 1e-15);
    EXPECT_NEAR((shape.b - Vec3(0.01, 0.0, 0.080)).norm(), 0.0, 1e-15);
  }
}

TEST(CollisionModel, DescriptionShapesReplaceTheUrdfOnesAndExclusionsRemovePairs) {
  const EditedRobot robot(
      "collision:\n"
      "  shapes:\n"
      "    - {link: HEAD_LINK1, capsule: {a: [0, 0, 0.05], b: [0, 0, 0.1], radius: 0.05}}\n"
      "    - {link: HEAD_LINK1, box: {centre: [0.05, 0, 0.1], size: [0.02, 0.1, 0.1]}}\n"
      "  exclude:\n"
      "    - [RARM_LINK6, LARM_LINK6]\n");
  const CollisionModel cmodel = robot.load();
  EXPECT_EQ(count_link(cmodel, "HEAD_LINK1"), 2);
  EXPECT_EQ(cmodel.shapes.size(), 16u);
  EXPECT_FALSE(has_pair(cmodel, "RARM_LINK6", "LARM_LINK6"));
  EXPECT_TRUE(has_pair(cmodel, "RARM_LINK4", "LARM_LINK6"));
  EXPECT_TRUE(has_pair(cmodel, "HEAD_LINK1", "RARM_LINK6"));
}

TEST(CollisionModel, PairsCarryTheirRoutineAndRadii) {
  // A capsule and a box added to the head (after the URDF's shapes, feet boxes among them): every kind of
  // pair occurs, in both orders of capsule and box.
  const EditedRobot robot(
      "collision:\n"
      "  shapes:\n"
      "    - {link: HEAD_LINK1, capsule: {a: [0, 0, 0.05], b: [0, 0, 0.1], radius: 0.05}}\n"
      "    - {link: HEAD_LINK1, box: {centre: [0.05, 0, 0.1], size: [0.02, 0.1, 0.1]}}\n");
  const CollisionModel cmodel = robot.load();
  int seen[4] = {0, 0, 0, 0};
  for (const CollisionPair& pair : cmodel.pairs) {
    const CollisionShape& first = cmodel.shapes[static_cast<size_t>(pair.first)];
    const CollisionShape& second = cmodel.shapes[static_cast<size_t>(pair.second)];
    const bool c1 = first.kind == ShapeKind::kCapsule, c2 = second.kind == ShapeKind::kCapsule;
    const PairKind expected = c1 ? (c2 ? PairKind::kCapsuleCapsule : PairKind::kCapsuleBox)
                                 : (c2 ? PairKind::kBoxCapsule : PairKind::kBoxBox);
    EXPECT_EQ(pair.kind, expected);
    EXPECT_EQ(pair.first_radius, c1 ? first.radius : 0.0);
    EXPECT_EQ(pair.second_radius, c2 ? second.radius : 0.0);
    ++seen[static_cast<int>(pair.kind)];
  }
  for (const int n : seen) EXPECT_GT(n, 0);
}

TEST(CollisionModel, UnknownLinkIsAnInputErrorAtTheKey) {
  const EditedRobot shape(
      "collision:\n  shapes:\n    - {link: HEAD_LINK9, capsule: {a: [0, 0, 0], b: [0, 0, 1], radius: "
      "0.1}}\n");
  const std::string message = error_of<InputError>([&] { shape.load(); });
  EXPECT_NE(message.find("collision.shapes.link: no link 'HEAD_LINK9'"), std::string::npos) << message;
  const EditedRobot pair("collision:\n  exclude:\n    - [RARM_LINK6, HEAD]\n");
  const std::string pair_message = error_of<InputError>([&] { pair.load(); });
  EXPECT_NE(pair_message.find("collision.exclude: no link 'HEAD'"), std::string::npos) << pair_message;
}

TEST(CollisionModel, BadShapesAreInputErrors) {
  const EditedRobot sphere("collision:\n  shapes:\n    - {link: HEAD_LINK1, sphere: {radius: 0.1}}\n");
  const std::string message = error_of<InputError>([&] { sphere.load(); });
  EXPECT_NE(message.find("unknown key 'collision.shapes.sphere' (expected one of: link, capsule, box)"),
            std::string::npos)
      << message;
  const EditedRobot radius(
      "collision:\n  shapes:\n    - {link: HEAD_LINK1, capsule: {a: [0, 0, 0], b: [0, 0, 1], radius: 0}}\n");
  const std::string radius_message = error_of<InputError>([&] { radius.load(); });
  EXPECT_NE(radius_message.find("collision.shapes.capsule.radius: expected a length > 0"), std::string::npos)
      << radius_message;
}

TEST(CollisionModel, ExcludingALinkWithoutShapesIsAModelError) {
  const EditedRobot robot("collision:\n  exclude:\n    - [RARM_LINK5, HEAD_LINK1]\n");
  const std::string message = error_of<ModelError>([&] { robot.load(); });
  EXPECT_NE(message.find("link 'RARM_LINK5' carries no collision shape"), std::string::npos) << message;
}

// A <mesh> is read as the capsule fitted to it (robot_standing.cpp checks those on JVRC-1 and G1); one that
// cannot be read is a ModelError naming the link and the file.
TEST(CollisionModel, UnreadableUrdfMeshIsAModelErrorNamingTheLink) {
  const auto to_mesh = [](std::string urdf) {
    const std::string head = "<geometry><cylinder radius=\"0.07\" length=\"0.176\"/></geometry>";
    return urdf.replace(urdf.find(head), head.size(), "<geometry><mesh filename=\"head.stl\"/></geometry>");
  };
  const EditedRobot robot("", to_mesh);
  const std::string message = error_of<ModelError>([&] { robot.load(); });
  EXPECT_NE(message.find("link HEAD_LINK1: <collision>: <mesh filename=\"head.stl\">"), std::string::npos)
      << message;
  EXPECT_NE(message.find("cannot read the mesh"), std::string::npos) << message;
  // The description's shapes replace the link's <collision> elements: the mesh is then not read.
  const EditedRobot replaced(
      "collision:\n  shapes:\n    - {link: HEAD_LINK1, capsule: {a: [0, 0, 0.08], b: [0, 0, 0.12], radius: "
      "0.07}}\n",
      to_mesh);
  EXPECT_EQ(count_link(replaced.load(), "HEAD_LINK1"), 1);
}

TEST(CollisionModel, CylinderShorterThanItsDiameterIsAModelError) {
  const EditedRobot robot("", [](std::string urdf) {
    const std::string head = "<cylinder radius=\"0.07\" length=\"0.176\"/>";
    return urdf.replace(urdf.find(head), head.size(), "<cylinder radius=\"0.07\" length=\"0.1\"/>");
  });
  const std::string message = error_of<ModelError>([&] { robot.load(); });
  EXPECT_NE(message.find("link HEAD_LINK1: <collision>: a <cylinder> is read as its inscribed capsule"),
            std::string::npos)
      << message;
}

// ranges_of: the runs of sorted columns, which the gradients are written by.
TEST(CollisionModel, RangesOfColumns) {
  const auto runs = [](const std::vector<int>& columns) {
    std::vector<std::pair<int, int>> out;
    for (const ColumnRange& r : ranges_of(columns)) out.emplace_back(r.start, r.size);
    return out;
  };
  EXPECT_TRUE(runs({}).empty());
  EXPECT_EQ(runs({4}), (std::vector<std::pair<int, int>>{{4, 1}}));
  EXPECT_EQ(runs({0, 1, 2, 7, 8, 10}), (std::vector<std::pair<int, int>>{{0, 3}, {7, 2}, {10, 1}}));
}

}  // namespace
}  // namespace mimic::geometry
