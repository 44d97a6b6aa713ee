#include "mimic/walking/footsteps.hpp"

#include <array>
#include <cmath>
#include <string>

#include "mimic/core/number_text.hpp"
#include "mimic/core/strict_yaml.hpp"
#include "mimic/core/text_file.hpp"

namespace mimic::walking {
namespace {

namespace fs = std::filesystem;
using core::StrictMapping;
using core::YamlDocument;

// Reads an optional number that must satisfy `ok`; `expected` completes "expected a number ...".
void read_checked(const StrictMapping& map, std::string_view key, double& out, bool (*ok)(double),
                  const char* expected) {
  double value = out;
  if (!map.read(key, value)) return;
  if (!ok(value))
    map.fail(key, std::string("expected a number ") + expected + ", found " + core::format_number(value));
  out = value;
}

bool positive(double x) { return x > 0.0; }
bool non_negative(double x) { return x >= 0.0; }

class FootstepParser {
 public:
  FootstepParser(std::string_view text, const fs::path& source)
      : document_(text, source.string()), base_(source.parent_path()) {}

  FootstepPlan parse() {
    const YAML::Node& root = document_.root();
    if (root.IsNull())
      document_.fail(0, "empty footstep file; expected 'initial_stance', 'timing' and 'steps'");
    const StrictMapping top(
        document_, root, "", 1,
        {"initial_stance", "timing", "initial_hold", "final_hold", "upper_body", "steps"});
    FootstepPlan plan;
    plan.source = document_.file();

    // child() requires its key: a missing section is "missing required key".
    const StrictMapping stance = top.child("initial_stance", {"right", "left"});
    plan.initial_right = placement(stance.child("right", {"position", "yaw"}));
    plan.initial_left = placement(stance.child("left", {"position", "yaw"}));

    const StrictMapping timing = top.child("timing", {"single_support", "double_support", "step_height"});
    timing.require("single_support");
    timing.require("double_support");
    StepTiming defaults;
    read_timing(timing, defaults);
    plan.final_transfer = defaults.double_support;

    read_checked(top, "initial_hold", plan.initial_hold, non_negative, ">= 0 (s)");
    read_checked(top, "final_hold", plan.final_hold, non_negative, ">= 0 (s)");
    std::string upper_body;
    if (top.read("upper_body", upper_body)) {
      if (upper_body.empty()) top.fail("upper_body", "expected a file name, found an empty string");
      const fs::path path(upper_body);
      plan.upper_body = path.is_absolute() ? path : (base_ / path).lexically_normal();
    }

    top.require("steps");
    const YAML::Node& list = top.node("steps");
    if (!list.IsSequence() || list.size() == 0)
      top.fail("steps", "expected a non-empty list of steps, found " + core::describe_yaml_value(list));
    FootPlacement right = plan.initial_right, left = plan.initial_left;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "steps[" + std::to_string(i) + "]";
      const int line =
          YamlDocument::line_of(list[i]) > 0 ? YamlDocument::line_of(list[i]) : top.line("steps");
      const StrictMapping item(document_, list[i], path, line,
                               {"foot", "position", "displacement", "yaw", "single_support", "double_support",
                                "step_height", "waist_height_change"});
      plan.steps.push_back(step(item, defaults, right, left));
      (plan.steps.back().foot == Foot::kRight ? right : left) = plan.steps.back().target;
    }
    return plan;
  }

 private:
  FootPlacement placement(const StrictMapping& map) const {
    map.require("position");
    FootPlacement p;
    std::array<double, 2> xy{};
    map.read("position", xy);
    p.position = Eigen::Vector2d(xy[0], xy[1]);
    map.read("yaw", p.yaw);
    return p;
  }

  static void read_timing(const StrictMapping& map, StepTiming& timing) {
    read_checked(map, "single_support", timing.single_support, positive, "> 0 (s)");
    // A zero transfer would make the ZMP reference jump from one sole to the other.
    read_checked(map, "double_support", timing.double_support, positive, "> 0 (s)");
    read_checked(map, "step_height", timing.step_height, non_negative, ">= 0 (m)");
  }

  Footstep step(const StrictMapping& map, const StepTiming& defaults, const FootPlacement& right,
                const FootPlacement& left) const {
    Footstep s;
    s.line = map.mapping_line();
    map.require("foot");
    std::string foot;
    map.read("foot", foot);
    if (foot == "right") {
      s.foot = Foot::kRight;
    } else if (foot == "left") {
      s.foot = Foot::kLeft;
    } else {
      map.fail("foot", "expected right or left, found '" + foot + "'");
    }
    const FootPlacement& previous = s.foot == Foot::kRight ? right : left;

    const bool has_position = map.has("position"), has_displacement = map.has("displacement");
    if (has_position == has_displacement) {
      document_.fail(map.mapping_line(),
                     map.key_path(has_position ? "displacement" : "position") + ": " +
                         (has_position ? "give either 'position' or 'displacement', not both"
                                       : "missing 'position' or 'displacement'"));
    }
    std::array<double, 2> xy{};
    s.target.yaw = previous.yaw;
    map.read("yaw", s.target.yaw);
    if (has_position) {
      map.read("position", xy);
      s.target.position = Eigen::Vector2d(xy[0], xy[1]);
    } else {
      map.read("displacement", xy);
      s.target.position = previous.to_world(Eigen::Vector2d(xy[0], xy[1]));
    }
    s.timing = defaults;
    read_timing(map, s.timing);
    map.read("waist_height_change", s.waist_height_change);
    return s;
  }

  YamlDocument document_;
  fs::path base_;
};

}  // namespace

const char* to_string(Foot foot) { return foot == Foot::kRight ? "right" : "left"; }

spatial::SE3 FootPlacement::pose(double z) const {
  return spatial::SE3(Eigen::AngleAxisd(yaw, spatial::Vec3::UnitZ()).toRotationMatrix(),
                      spatial::Vec3(position.x(), position.y(), z));
}

Eigen::Vector2d FootPlacement::to_world(const Eigen::Vector2d& local) const {
  return position + Eigen::Rotation2Dd(yaw) * local;
}

double FootstepPlan::duration() const {
  double t = initial_hold + final_transfer + final_hold;
  for (const Footstep& s : steps) t += s.timing.double_support + s.timing.single_support;
  return t;
}

FootstepPlan load_footsteps(const fs::path& path) {
  return parse_footsteps(core::read_text_file(path.string()), path);
}

FootstepPlan parse_footsteps(std::string_view yaml, const fs::path& source) {
  return FootstepParser(yaml, source).parse();
}

}  // namespace mimic::walking
