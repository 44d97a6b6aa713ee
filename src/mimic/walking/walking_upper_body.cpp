#include "mimic/walking/walking_upper_body.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/strict_yaml.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/walking/walking_schedule.hpp"

namespace mimic::walking {
namespace {

namespace fs = std::filesystem;

bool strictly_increasing(const std::vector<double>& times) {
  return std::adjacent_find(times.begin(), times.end(), [](double a, double b) { return b <= a; }) ==
         times.end();
}

}  // namespace

UpperBodyTrajectory::UpperBodyTrajectory(std::vector<double> times, Eigen::MatrixXd joints,
                                         Interpolation interpolation)
    : times_(std::move(times)), joints_(std::move(joints)), interpolation_(interpolation) {
  if (times_.empty() || static_cast<Eigen::Index>(times_.size()) != joints_.rows())
    throw std::invalid_argument("UpperBodyTrajectory: needs one row of joints per time, at least one");
  if (!strictly_increasing(times_))
    throw std::invalid_argument("UpperBodyTrajectory: times must be strictly increasing");
}

UpperBodyTrajectory UpperBodyTrajectory::fixed(const Eigen::VectorXd& joints) {
  return UpperBodyTrajectory({0.0}, joints.transpose(), Interpolation::kLinear);
}

UpperBodyTrajectory UpperBodyTrajectory::sampled(std::vector<double> times, Eigen::MatrixXd joints) {
  return UpperBodyTrajectory(std::move(times), std::move(joints), Interpolation::kLinear);
}

UpperBodyTrajectory UpperBodyTrajectory::cubic(std::vector<double> times, Eigen::MatrixXd joints) {
  UpperBodyTrajectory trajectory(std::move(times), std::move(joints), Interpolation::kCubicHermite);
  const std::vector<double>& t = trajectory.times_;
  const Eigen::MatrixXd& q = trajectory.joints_;
  const Eigen::Index n = q.rows();
  trajectory.velocities_ = Eigen::MatrixXd::Zero(n, q.cols());
  if (n < 2) return trajectory;
  auto slope = [&](Eigen::Index i) {  // of the chord from sample i to i + 1
    return ((q.row(i + 1) - q.row(i)) / (t[static_cast<std::size_t>(i + 1)] - t[static_cast<std::size_t>(i)]))
        .eval();
  };
  trajectory.velocities_.row(0) = slope(0);
  trajectory.velocities_.row(n - 1) = slope(n - 2);
  for (Eigen::Index i = 1; i + 1 < n; ++i) {
    // The derivative at t_i of the parabola through samples i - 1, i, i + 1: the chord slopes weighted by
    // the other interval's length (second-order accurate on uneven spacing).
    const double before = t[static_cast<std::size_t>(i)] - t[static_cast<std::size_t>(i - 1)];
    const double after = t[static_cast<std::size_t>(i + 1)] - t[static_cast<std::size_t>(i)];
    trajectory.velocities_.row(i) = (after * slope(i - 1) + before * slope(i)) / (before + after);
  }
  return trajectory;
}

UpperBodyTrajectory UpperBodyTrajectory::keyframes(std::vector<double> times, Eigen::MatrixXd postures) {
  return UpperBodyTrajectory(std::move(times), std::move(postures), Interpolation::kMinimumJerk);
}

void UpperBodyTrajectory::at(double t, Eigen::Ref<Eigen::VectorXd> joints) const {
  if (t <= times_.front()) {
    joints = joints_.row(0).transpose();
    return;
  }
  if (t >= times_.back()) {
    joints = joints_.row(joints_.rows() - 1).transpose();
    return;
  }
  const auto next = std::upper_bound(times_.begin(), times_.end(), t);
  const Eigen::Index k = static_cast<Eigen::Index>(next - times_.begin());  // 1 <= k < size
  const double tau = (t - times_[static_cast<std::size_t>(k - 1)]) /
                     (times_[static_cast<std::size_t>(k)] - times_[static_cast<std::size_t>(k - 1)]);
  if (interpolation_ == Interpolation::kCubicHermite) {
    const double h = times_[static_cast<std::size_t>(k)] - times_[static_cast<std::size_t>(k - 1)];
    const double tau2 = tau * tau, tau3 = tau2 * tau;
    joints = ((2.0 * tau3 - 3.0 * tau2 + 1.0) * joints_.row(k - 1) +
              (tau3 - 2.0 * tau2 + tau) * h * velocities_.row(k - 1) +
              (-2.0 * tau3 + 3.0 * tau2) * joints_.row(k) + (tau3 - tau2) * h * velocities_.row(k))
                 .transpose();
    return;
  }
  const double s = interpolation_ == Interpolation::kLinear ? tau : minimum_jerk(tau);
  joints = ((1.0 - s) * joints_.row(k - 1) + s * joints_.row(k)).transpose();
}

UpperBodyTrajectory parse_upper_body_keyframes(std::string_view yaml, const fs::path& source,
                                               const model::Model& model, const Eigen::VectorXd& posture,
                                               std::span<const int> leg_joints) {
  core::YamlDocument document(yaml, source.string());
  if (document.root().IsNull()) document.fail(0, "empty upper-body file; expected 'keyframes'");
  const core::StrictMapping top(document, document.root(), "", 1, {"keyframes"});
  top.require("keyframes");
  const YAML::Node& list = top.node("keyframes");
  if (!list.IsSequence() || list.size() == 0)
    top.fail("keyframes", "expected a non-empty list of keyframes, found " + core::describe_yaml_value(list));

  std::vector<double> times;
  Eigen::MatrixXd postures(static_cast<Eigen::Index>(list.size()), model.nj);
  Eigen::VectorXd current = posture;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "keyframes[" + std::to_string(i) + "]";
    const int line = core::YamlDocument::line_of(list[i]);
    const core::StrictMapping item(document, list[i], path, line > 0 ? line : top.line("keyframes"),
                                   {"time", "joints"});
    item.require("time");
    double time = 0.0;
    item.read("time", time);
    if (time < 0.0 || (!times.empty() && time <= times.back())) {
      item.fail("time",
                "expected a time >= 0 after the previous keyframe's" +
                    (times.empty() ? std::string() : " (" + core::format_number(times.back()) + " s)") +
                    ", found " + core::format_number(time));
    }
    times.push_back(time);
    if (item.has("joints")) {
      // Any joint name may be a key (the checks below say which are allowed): a mapping with any keys,
      // which rejects a repeated joint and a value that is not a number like every other mapping.
      const core::StrictMapping joints = item.child_with_any_keys("joints");
      for (const auto& name : joints.keys()) {
        if (!model.has_joint(name)) joints.fail(name, "no joint of that name in the model");
        const int j = model.joint_index(name);
        if (std::find(leg_joints.begin(), leg_joints.end(), j) != leg_joints.end())
          joints.fail(name, "a leg joint; the legs follow the footsteps (leg IK)");
        double value = 0.0;
        joints.read(name, value);
        const double lower = model.lower_limit[j], upper = model.upper_limit[j];
        if (value < lower || value > upper) {
          joints.fail(name, core::format_number(value) + " rad is outside the joint limits [" +
                                core::format_number(lower) + ", " + core::format_number(upper) + "]");
        }
        current[j] = value;
      }
    }
    postures.row(static_cast<Eigen::Index>(i)) = current.transpose();
  }
  return UpperBodyTrajectory::keyframes(std::move(times), std::move(postures));
}

UpperBodyTrajectory load_upper_body_keyframes(const fs::path& path, const model::Model& model,
                                              const Eigen::VectorXd& posture,
                                              std::span<const int> leg_joints) {
  return parse_upper_body_keyframes(core::read_text_file(path.string()), path, model, posture, leg_joints);
}

}  // namespace mimic::walking
