// Strict reader of the robot configuration YAML (config/hrp2.yaml).
#include "mimic/model/robot_config.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <initializer_list>
#include <set>

#include "mimic/core/error.hpp"

namespace mimic::model {
namespace {

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    const YAML::Mark mark = node.Mark();
    const std::string line = mark.is_null() ? std::string() : std::to_string(mark.line + 1);
    throw InputError(input_error_message(path_, line, what));
  }

  // A mapping with exactly the keys `allowed` (all required).
  void expect_keys(const YAML::Node& map, const std::string& where,
                   std::initializer_list<const char*> allowed) const {
    if (!map.IsMap()) fail(map, "'" + where + "' must be a mapping");
    std::set<std::string> expected(allowed.begin(), allowed.end());
    std::string list;
    for (const char* k : allowed) list += std::string(list.empty() ? "" : ", ") + k;
    for (const auto& kv : map) {
      const std::string key = kv.first.as<std::string>();
      if (!expected.count(key))
        fail(kv.first, "unknown key '" + key + "' in '" + where + "' (expected: " + list + ")");
    }
    for (const char* k : allowed)
      if (!map[k]) fail(map, "missing key '" + std::string(k) + "' in '" + where + "'");
  }

  double number(const YAML::Node& node, const std::string& what) const {
    try {
      return node.as<double>();
    } catch (const YAML::Exception&) {
      fail(node, what + ": expected a number");
    }
  }

  std::string text(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + ": expected a string");
    return node.as<std::string>();
  }

  SoleRectangle sole(const YAML::Node& node, const std::string& where) const {
    expect_keys(node, where, {"x_min", "x_max", "y_min", "y_max"});
    SoleRectangle r{number(node["x_min"], where + ".x_min"), number(node["x_max"], where + ".x_max"),
                    number(node["y_min"], where + ".y_min"), number(node["y_max"], where + ".y_max")};
    if (!(r.x_min < r.x_max && r.y_min < r.y_max)) fail(node, where + ": empty rectangle (min >= max)");
    return r;
  }

 private:
  std::string path_;
};

}  // namespace

RobotConfig load_robot_config(const std::string& path) {
  if (!std::filesystem::exists(path)) throw InputError(input_error_message(path, "", "no such file"));
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::ParserException& e) {
    throw InputError(input_error_message(path, std::to_string(e.mark.line + 1), e.msg));
  } catch (const YAML::Exception& e) {
    throw InputError(input_error_message(path, "", e.what()));
  }
  Reader reader(path);
  reader.expect_keys(root, "top level", {"urdf", "frames", "soles", "half_sitting"});

  RobotConfig config;
  config.source_path = path;
  const std::filesystem::path urdf = reader.text(root["urdf"], "urdf");
  config.urdf =
      (urdf.is_absolute() ? urdf : std::filesystem::path(path).parent_path() / urdf).lexically_normal();

  const YAML::Node frames = root["frames"];
  reader.expect_keys(frames, "frames", {"right_sole", "left_sole", "right_gripper", "left_gripper", "gaze"});
  config.right_sole_frame = reader.text(frames["right_sole"], "frames.right_sole");
  config.left_sole_frame = reader.text(frames["left_sole"], "frames.left_sole");
  config.right_gripper_frame = reader.text(frames["right_gripper"], "frames.right_gripper");
  config.left_gripper_frame = reader.text(frames["left_gripper"], "frames.left_gripper");
  config.gaze_frame = reader.text(frames["gaze"], "frames.gaze");

  const YAML::Node soles = root["soles"];
  reader.expect_keys(soles, "soles", {"right", "left"});
  config.right_sole = reader.sole(soles["right"], "soles.right");
  config.left_sole = reader.sole(soles["left"], "soles.left");

  const YAML::Node half = root["half_sitting"];
  reader.expect_keys(half, "half_sitting", {"waist", "joints"});
  const YAML::Node waist = half["waist"];
  if (!waist.IsSequence() || waist.size() != 3) reader.fail(waist, "half_sitting.waist: expected [x, y, z]");
  for (int k = 0; k < 3; ++k) config.half_sitting_waist[k] = reader.number(waist[k], "half_sitting.waist");
  const YAML::Node joints = half["joints"];
  if (!joints.IsMap()) reader.fail(joints, "half_sitting.joints: expected a mapping joint name -> value");
  std::vector<double> values;
  for (const auto& kv : joints) {
    const std::string name = kv.first.as<std::string>();
    for (const auto& seen : config.half_sitting_joint_names)
      if (seen == name) reader.fail(kv.first, "half_sitting.joints: joint '" + name + "' listed twice");
    config.half_sitting_joint_names.push_back(name);
    values.push_back(reader.number(kv.second, "half_sitting.joints." + name));
  }
  config.half_sitting_joints =
      Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
  return config;
}

Eigen::VectorXd RobotConfig::half_sitting(const Model& model) const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.has_free_flyer()) {
    q.head<3>() = half_sitting_waist;
    q[6] = 1.0;  // identity quaternion (x y z w)
  }
  for (size_t k = 0; k < half_sitting_joint_names.size(); ++k) {
    if (!model.has_joint(half_sitting_joint_names[k]))
      throw ModelError(input_error_message(
          source_path, "half_sitting.joints",
          "joint '" + half_sitting_joint_names[k] + "' is not in the model " + model.source_path));
    q[model.idx_q(model.joint_index(half_sitting_joint_names[k]))] =
        half_sitting_joints[static_cast<Eigen::Index>(k)];
  }
  return q;
}

std::string default_robot_config_path() { return std::string(MIMIC_SOURCE_DIR) + "/config/hrp2.yaml"; }
std::string default_hrp2_urdf_path() { return std::string(MIMIC_SOURCE_DIR) + "/models/hrp2.urdf"; }

}  // namespace mimic::model
