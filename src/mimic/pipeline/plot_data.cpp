// `mimic plot`: the quantities the figures show (joint angles, torques, ZMP, support polygons, geometry).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/pipeline/plot.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/stability/motion_zmp.hpp"

namespace mimic::pipeline {

const char* to_string(PlotFormat format) { return format == PlotFormat::kSvg ? "svg" : "png"; }

PlotFormat parse_plot_format(const std::string& text) {
  if (text == "png") return PlotFormat::kPng;
  if (text == "svg") return PlotFormat::kSvg;
  throw InputError("--format: expected one of png, svg; found '" + text + "'");
}

std::string motion_label(const std::filesystem::path& pos) {
  return motion_base_name(pos).filename().string();
}

namespace {

// Joint angles (nj x N) of a .pos, checked against the model's joint count.
PlotMotion plot_motion_of(const model::Model& robot, const LabelledMotion& motion) {
  const io::PosSequence& pos = motion.files.pos;
  if (pos.angles.cols() != robot.nj)
    throw InputError(input_error_message(motion.path.string(), "",
                                         "has " + std::to_string(pos.angles.cols()) +
                                             " joint columns but the robot model has " +
                                             std::to_string(robot.nj) + " joints"));
  PlotMotion out;
  out.label = motion.label;
  out.path = motion.path;
  out.times = pos.times;
  out.angles = pos.angles.transpose();
  return out;
}

std::vector<int> named_joints(const model::Model& robot, const std::vector<std::string>& names) {
  std::vector<int> joints;
  for (const auto& name : names) {
    if (!robot.has_joint(name)) {
      std::string valid;
      for (const auto& n : robot.joint_names) valid += (valid.empty() ? "" : ", ") + n;
      throw InputError("--joints: unknown joint '" + name + "'; valid names: " + valid);
    }
    const int j = robot.joint_index(name);
    if (std::find(joints.begin(), joints.end(), j) == joints.end()) joints.push_back(j);
  }
  return joints;
}

// The joints with the largest angle range over all the motions (at most `count`, in joint order). Joints
// that do not move are left out unless nothing moves.
std::vector<int> moving_joints(int nj, const std::vector<PlotMotion>& motions, int count) {
  std::vector<double> range(static_cast<std::size_t>(nj), 0.0);
  for (const auto& m : motions) {
    if (m.angles.cols() == 0) continue;
    for (int j = 0; j < nj; ++j)
      range[static_cast<std::size_t>(j)] = std::max(range[static_cast<std::size_t>(j)],
                                                    m.angles.row(j).maxCoeff() - m.angles.row(j).minCoeff());
  }
  std::vector<int> order(static_cast<std::size_t>(nj));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return range[static_cast<std::size_t>(a)] > range[static_cast<std::size_t>(b)];
  });
  std::vector<int> joints;
  constexpr double kStill = 1.0e-6;  // rad
  for (int j : order) {
    if (static_cast<int>(joints.size()) >= count) break;
    if (range[static_cast<std::size_t>(j)] > kStill || range[static_cast<std::size_t>(order[0])] <= kStill)
      joints.push_back(j);
  }
  std::sort(joints.begin(), joints.end());
  return joints;
}

std::vector<stability::Vec2> vertices_of(const stability::SupportPolygon& polygon) {
  std::vector<stability::Vec2> out;
  for (int i = 0; i < polygon.size(); ++i) out.push_back(polygon.vertex(i));
  return out;
}

}  // namespace

PlotData compute_plot_data(const model::Model& robot, const stability::Feet& feet, const LabelledMotion& main,
                           const std::vector<LabelledMotion>& comparisons,
                           const std::vector<model::ContactInterval>& contacts,
                           const PlotSelection& selection, const PlotGeometry& geometry) {
  PlotData data;
  const int nj = robot.nj;
  data.joint_names = robot.joint_names;
  data.lower_limit = robot.lower_limit;
  data.upper_limit = robot.upper_limit;
  data.effort_limit = robot.effort_limit;

  data.motions.push_back(plot_motion_of(robot, main));
  for (const auto& c : comparisons) data.motions.push_back(plot_motion_of(robot, c));
  data.joints = selection.joints.empty() ? moving_joints(nj, data.motions, selection.max_joints)
                                         : named_joints(robot, selection.joints);

  // Dynamics of the plotted motion, with the same building blocks as `mimic check`.
  const model::SampledMotion motion = pipeline::sampled_motion(robot, feet, main.files, contacts);
  const Eigen::Index n = motion.size();
  data.times = motion.times;
  data.base_reconstructed = motion.base_reconstructed;
  data.phases = motion.phases;
  data.torques.resize(nj, n);
  data.com.resize(2, n);
  model::Data scratch(robot);
  for (Eigen::Index k = 0; k < n; ++k) {
    data.torques.col(k) = stability::joint_torques_with_ground_reaction(
        robot, scratch, feet, motion.phases[static_cast<std::size_t>(k)], motion.q.col(k), motion.v.col(k),
        motion.a.col(k));
    data.com.col(k) = dynamics::center_of_mass(robot, scratch, motion.q.col(k)).head<2>();
  }

  const stability::SupportSequence support =
      stability::support_sequence(robot, feet, motion.q, motion.phases);
  stability::ZmpTrace trace;
  stability::evaluate_zmp(robot, support, motion.q, motion.v, motion.a, trace);
  data.zmp.resize(2, n);
  data.support_bounds.resize(4, n);
  data.margin = trace.margin;
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto s = static_cast<std::size_t>(k);
    data.zmp.col(k) = trace.zmp[s].head<2>();
    const auto& polygon = support.polygons[s];
    Eigen::Vector4d bounds(std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
    for (int i = 0; i < polygon.size(); ++i) {
      const auto& p = polygon.vertex(i);
      bounds = Eigen::Vector4d(std::min(bounds[0], p.x()), std::max(bounds[1], p.x()),
                               std::min(bounds[2], p.y()), std::max(bounds[3], p.y()));
    }
    data.support_bounds.col(k) = bounds;
    if (k == 0 || motion.phases[s] != motion.phases[s - 1])
      data.outlines.push_back(SupportOutline{motion.times[s], motion.phases[s], vertices_of(polygon)});
  }

  // The most loaded joints: largest peak |tau| / effort limit first.
  std::vector<std::pair<double, int>> load;
  for (int j = 0; j < nj; ++j) {
    const double limit = robot.effort_limit[j];
    const double peak = n > 0 ? data.torques.row(j).cwiseAbs().maxCoeff() : 0.0;
    load.emplace_back(std::isfinite(limit) && limit > 0.0 ? peak / limit : 0.0, j);
  }
  std::stable_sort(load.begin(), load.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int i = 0; i < std::min(selection.max_torque_joints, nj); ++i)
    data.torque_joints.push_back(load[static_cast<std::size_t>(i)].second);
  if (geometry.collision)
    data.geometry = evaluation::check_geometry(robot, *geometry.collision, motion, geometry.check);
  return data;
}

}  // namespace mimic::pipeline
