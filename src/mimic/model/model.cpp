// Model lookups and the joint order of a robot description.
#include "mimic/model/model.hpp"

#include <algorithm>
#include <numeric>

#include "mimic/core/error.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::model {
namespace {

int find_name(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

int find_frame(const std::vector<Frame>& frames, const std::string& name) {
  const auto it = std::find_if(frames.begin(), frames.end(), [&](const Frame& f) { return f.name == name; });
  return it == frames.end() ? -1 : static_cast<int>(it - frames.begin());
}

}  // namespace

const std::vector<std::string>& openhrp_joint_names() { return default_robot_description().joint_order; }

LoadOptions LoadOptions::from(const RobotDescription& description, RootType root) {
  LoadOptions options;
  options.root = root;
  options.joint_order = description.joint_order;
  options.held_joints = description.held_joints;
  options.added_frames = description.added_frames;
  return options;
}

LoadOptions LoadOptions::hrp2(RootType root) { return from(default_robot_description(), root); }

int Model::joint_index(const std::string& joint_name) const {
  const int j = find_name(joint_names, joint_name);
  if (j < 0)
    throw ModelError(input_error_message(source_path, "joint '" + joint_name + "'", "no such joint"));
  return j;
}

int Model::frame_index(const std::string& frame_name) const {
  const int f = find_frame(frames, frame_name);
  if (f < 0)
    throw ModelError(input_error_message(source_path, "frame '" + frame_name + "'", "no such frame"));
  return f;
}

int Model::body_index(const std::string& link_name) const {
  const int b = find_name(body_names, link_name);
  if (b < 0)
    throw ModelError(input_error_message(source_path, "link '" + link_name + "'", "no such moving body"));
  return b;
}

bool Model::has_joint(const std::string& joint_name) const { return find_name(joint_names, joint_name) >= 0; }
bool Model::has_frame(const std::string& frame_name) const { return find_frame(frames, frame_name) >= 0; }

double Model::total_mass() const {
  return std::accumulate(inertias.begin(), inertias.end(), 0.0,
                         [](double m, const spatial::Inertia& y) { return m + y.mass; });
}

}  // namespace mimic::model
