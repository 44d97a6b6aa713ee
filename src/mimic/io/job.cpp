#include "mimic/io/job.hpp"

#include <array>
#include <utility>

#include "mimic/core/data_dir.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/strict_yaml.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/io/job_validate.hpp"
#include "mimic/io/sample_table.hpp"
#include "mimic/model/robot_description.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

constexpr std::array<std::pair<JobKind, std::string_view>, 3> kJobKinds = {
    {{JobKind::kRetarget, "retarget"}, {JobKind::kSmooth, "smooth"}, {JobKind::kWalk, "walk"}}};
constexpr std::array<std::pair<ObjectiveKind, std::string_view>, 2> kObjectiveKinds = {
    {{ObjectiveKind::kImitation, "imitation"}, {ObjectiveKind::kTorque, "torque"}}};
constexpr std::array<std::pair<RetargetMode, std::string_view>, 3> kRetargetModes = {
    {{RetargetMode::kAuto, "auto"},
     {RetargetMode::kWholeBody, "whole_body"},
     {RetargetMode::kUpperBody, "upper_body"}}};
// `support: right` is the right foot carrying the robot alone.
constexpr std::array<std::pair<model::ContactPhase, std::string_view>, 3> kSupports = {
    {{model::ContactPhase::kDoubleSupport, "both"},
     {model::ContactPhase::kRightSupport, "right"},
     {model::ContactPhase::kLeftSupport, "left"}}};
using optim::kBackendNames;

template <class E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& names, E value) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) return name;
  }
  return "?";
}

template <class E, std::size_t N>
std::optional<E> value_of(const std::array<std::pair<E, std::string_view>, N>& names, std::string_view text) {
  for (const auto& [value, name] : names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

template <class E, std::size_t N>
std::string expected_one_of(const std::array<std::pair<E, std::string_view>, N>& names,
                            std::string_view found) {
  std::string text = "expected one of ";
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) text += ", ";
    text += names[i].second;
  }
  text += "; found '";
  text += core::escaped_for_message(found);
  text += "'";
  return text;
}

template <class E, std::size_t N>
E parse_named(const std::array<std::pair<E, std::string_view>, N>& names, std::string_view text,
              std::string_view what) {
  if (const auto value = value_of(names, text)) return *value;
  throw InputError(std::string(what) + ": " + expected_one_of(names, text));
}

// Reads an enumerated key of `map` into `out`.
template <class E, std::size_t N>
void read_named(const core::StrictMapping& map, std::string_view key,
                const std::array<std::pair<E, std::string_view>, N>& names, E& out) {
  std::string text;
  if (!map.read(key, text)) return;
  const auto value = value_of(names, text);
  if (!value) map.fail(key, expected_one_of(names, text));
  out = *value;
}

// Everything one parse needs: the document, where relative paths are anchored, and whether the robot files
// it names must exist (a job read from a file: checked here, where the file and line of the key are known).
class JobParser {
 public:
  JobParser(std::string_view text, const fs::path& source, bool check_robot_files = false)
      : document_(text, source.string()),
        base_(source.parent_path()),
        check_robot_files_(check_robot_files) {}

  JobConfig parse() {
    const YAML::Node& root = document_.root();
    if (root.IsNull())
      document_.fail(0, "empty job file; expected at least the keys 'job', 'input' and 'output'");
    const core::StrictMapping top(
        document_, root, "", 1,
        {"job", "input", "output", "robot", "mocap", "retarget", "objective", "limits", "trajectory",
         "solver", "stability", "geometry", "payload", "contacts", "csv_rate"});
    top.require("job");
    JobKind kind = JobKind::kRetarget;
    read_named(top, "job", kJobKinds, kind);
    JobConfig job = default_job(kind);
    job.source = document_.file();

    top.require("input");
    read_path(top, "input", job.input);
    top.require("output");
    parse_output(top, job.output);
    if (top.has("robot")) parse_robot(top.child("robot", {"model", "config"}), job.robot);
    if (top.has("mocap"))
      parse_mocap(top.child("mocap", {"units", "up_axis", "preset", "gap_fill_frames"}), job.mocap);
    if (top.has("retarget")) {
      parse_retarget(
          top.child("retarget", {"scale", "velocity_limit_scale", "kinematic_only", "mode", "loop_repeats"}),
          job.retarget);
    }
    if (top.has("objective")) {
      const auto map = top.child("objective", {"kind", "sigma", "torque_weight"});
      read_named(map, "kind", kObjectiveKinds, job.objective.kind);
      map.read("sigma", job.objective.sigma);
      map.read("torque_weight", job.objective.torque_weight);
    }
    if (top.has("limits")) {
      const auto map = top.child("limits", {"angle_factor", "velocity_factor", "torque_factor"});
      map.read("angle_factor", job.limits.angle_factor);
      map.read("velocity_factor", job.limits.velocity_factor);
      map.read("torque_factor", job.limits.torque_factor);
    }
    if (top.has("trajectory")) {
      const auto map = top.child("trajectory", {"knot_spacing", "output_rate"});
      map.read("knot_spacing", job.trajectory.knot_spacing);
      map.read("output_rate", job.trajectory.output_rate);
    }
    if (top.has("csv_rate")) {
      double rate = 0.0;
      top.read("csv_rate", rate);
      job.csv_rate = rate;
    }
    if (top.has("solver")) parse_solver(top, job.solver);
    if (top.has("stability")) parse_stability(top, kind, job.stability);
    if (top.has("geometry")) {
      const auto map = top.child("geometry", {"safety_distance", "max_swing_tilt"});
      map.read("safety_distance", job.geometry.safety_distance);
      map.read("max_swing_tilt", job.geometry.max_swing_tilt);
    }
    if (top.has("payload")) job.payload = parse_payload(top);
    if (top.has("contacts")) parse_contacts(top, job.contacts);

    job.key_lines = document_.key_lines();
    detail::validate_job(job, {document_.file(), &job.key_lines});
    return job;
  }

 private:
  fs::path resolve(const std::string& text) const {
    const fs::path path(text);
    if (path.empty() || path.is_absolute()) return path;
    return (base_ / path).lexically_normal();
  }

  void read_path(const core::StrictMapping& map, std::string_view key, fs::path& out) const {
    std::string text;
    if (map.read(key, text)) out = resolve(text);
  }

  void parse_output(const core::StrictMapping& top, OutputSettings& output) {
    // `output: X.pos` is short for `output: {path: X.pos}`.
    const YAML::Node& node = top.node("output");
    if (node.IsScalar()) {
      read_path(top, "output", output.path);
      return;
    }
    if (!node.IsMap()) {
      top.fail("output", "expected a .pos path or a mapping with path, columns and report, found " +
                             core::describe_yaml_value(node));
    }
    const auto map = top.child("output", {"path", "columns", "report"});
    map.require("path");
    read_path(map, "path", output.path);
    map.read("columns", output.columns);
    read_path(map, "report", output.report);
  }

  void parse_robot(const core::StrictMapping& map, RobotSettings& robot) const {
    read_path(map, "model", robot.model);
    read_path(map, "config", robot.config);
    // A description without a model: the URDF its `urdf:` names (not the default robot's, which would
    // not have the description's joints).
    if (map.has("config") && !map.has("model")) robot.model.clear();
    if (!check_robot_files_) return;
    if (map.has("model") && !fs::exists(robot.model))
      map.fail("model", "no such file '" + robot.model.string() + "'");
    // The robot descriptions moved from config/ to config/robots/: say so to a job written before.
    if (map.has("config") && !fs::exists(robot.config)) {
      const fs::path moved = robot.config.parent_path() / "robots" / robot.config.filename();
      map.fail("config",
               "no such robot description '" + robot.config.string() + "'" +
                   (fs::exists(moved) ? " (the descriptions moved to " + moved.string() + ")" : ""));
    }
  }

  void parse_mocap(const core::StrictMapping& map, MocapSettings& mocap) const {
    map.read("units", mocap.units);
    map.read("up_axis", mocap.up_axis);
    if (map.read("preset", mocap.preset)) {
      const bool is_path = mocap.preset.find('/') != std::string::npos || mocap.preset.ends_with(".yaml") ||
                           mocap.preset.ends_with(".yml");
      if (is_path) mocap.preset = resolve(mocap.preset).string();
    }
    map.read("gap_fill_frames", mocap.gap_fill_frames);
  }

  void parse_retarget(const core::StrictMapping& map, RetargetSettings& retarget) const {
    if (map.has("scale")) {
      const YAML::Node& scale = map.node("scale");
      const std::string text = scale.IsScalar() ? scale.Scalar() : std::string();
      if (text == "height") {
        retarget.scale_from_height = true;
      } else if (text != "auto") {
        // A word that is no number at all is more likely a misspelt keyword: name the keywords.
        if (!scale.IsScalar() || core::parse_number(text).status == core::NumberStatus::kNotANumber)
          map.fail("scale", "expected auto, height or a number, found " + core::describe_yaml_value(scale));
        double value = 0.0;
        map.read("scale", value);  // "nan", "1e400": read's own message
        retarget.scale = value;
      }
    }
    map.read("velocity_limit_scale", retarget.velocity_limit_scale);
    map.read("kinematic_only", retarget.kinematic_only);
    read_named(map, "mode", kRetargetModes, retarget.mode);
    if (map.has("loop_repeats")) {
      const YAML::Node& repeats = map.node("loop_repeats");
      if (!repeats.IsScalar() || repeats.Scalar() != "auto") {
        if (!repeats.IsScalar() ||
            core::parse_number(repeats.Scalar()).status == core::NumberStatus::kNotANumber)
          map.fail("loop_repeats",
                   "expected auto or a number of times, found " + core::describe_yaml_value(repeats));
        int value = 0;
        map.read("loop_repeats", value);  // "2.5", "1e12": read's own message
        retarget.loop_repeats = value;
      }
    }
  }

  void parse_solver(const core::StrictMapping& top, SolverSettings& solver) {
    const auto map = top.child(
        "solver", {"name", "max_iterations", "tolerance", "constraint_tolerance", "threads", "alm", "ipopt"});
    read_named(map, "name", kBackendNames, solver.name);
    map.read("max_iterations", solver.max_iterations);
    map.read("tolerance", solver.tolerance);
    map.read("constraint_tolerance", solver.constraint_tolerance);
    map.read("threads", solver.threads);
    if (map.has("alm")) {
      const auto alm = map.child(
          "alm", {"penalty_initial", "penalty_growth", "penalty_max", "penalty_schedule", "newton_steps"});
      alm.read("penalty_initial", solver.alm.penalty_initial);
      alm.read("penalty_growth", solver.alm.penalty_growth);
      alm.read("penalty_max", solver.alm.penalty_max);
      alm.read("penalty_schedule", solver.alm.penalty_schedule);
      alm.read("newton_steps", solver.alm.newton_steps);
    }
    if (map.has("ipopt")) {
      const auto ipopt = map.child("ipopt", {"linear_solver", "print_level"});
      ipopt.read("linear_solver", solver.ipopt.linear_solver);
      ipopt.read("print_level", solver.ipopt.print_level);
    }
  }

  void parse_stability(const core::StrictMapping& top, JobKind kind, StabilitySettings& stability) {
    const auto map = top.child("stability", {"enabled", "zmp_margin", "max_iterations", "preview"});
    map.read("enabled", stability.enabled);
    map.read("zmp_margin", stability.zmp_margin);
    map.read("max_iterations", stability.max_iterations);
    // Preview control generates a walk's CoM; retarget and smooth correct the ZMP with the exact cart-table
    // solve, which has no such weights. Accepting the keys there would promise a setting that does nothing.
    if (map.has("preview") && kind != JobKind::kWalk) {
      map.fail("preview", "only a walk job uses preview control (a " + std::string(to_string(kind)) +
                              " job corrects the ZMP with the exact cart-table solve): remove the key");
    }
    if (map.has("preview")) {
      const auto preview = map.child("preview", {"q", "r", "horizon", "period"});
      preview.read("q", stability.preview.q);
      preview.read("r", stability.preview.r);
      preview.read("horizon", stability.preview.horizon);
      preview.read("period", stability.preview.period);
    }
  }

  model::Payload parse_payload(const core::StrictMapping& parent) {
    const auto map = parent.child("payload", {"link", "frame", "mass", "com", "inertia"});
    if (map.has("link") == map.has("frame"))
      parent.fail("payload", "expected exactly one of 'link' or 'frame' naming where the payload is held");
    model::Payload payload;
    map.read(map.has("link") ? "link" : "frame", payload.attached_to);
    spatial::Inertia& body = payload.inertia;
    map.require("mass");
    map.read("mass", body.mass);
    map.read("com", std::span<double>(body.com.data(), 3));
    std::array<double, 6> inertia{};  // ixx iyy izz ixy ixz iyz
    if (map.read("inertia", inertia)) {
      body.inertia_com << inertia[0], inertia[3], inertia[4],  //
          inertia[3], inertia[1], inertia[5],                  //
          inertia[4], inertia[5], inertia[2];
    }
    return payload;
  }

  void parse_contacts(const core::StrictMapping& top, std::vector<model::ContactInterval>& contacts) {
    const YAML::Node& list = top.node("contacts");
    if (!list.IsSequence()) {
      top.fail("contacts",
               "expected a list of {start, end, support} phases, found " + core::describe_yaml_value(list));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "contacts[" + std::to_string(i) + "]";
      const int line = core::YamlDocument::line_of(list[i]);
      document_.record(path, line > 0 ? line : top.line("contacts"));
      const core::StrictMapping item(document_, list[i], path, line, {"start", "end", "support"});
      model::ContactInterval interval;
      for (const char* key : {"start", "end", "support"}) item.require(key);
      item.read("start", interval.start);
      item.read("end", interval.end);
      read_named(item, "support", kSupports, interval.phase);
      contacts.push_back(interval);
    }
  }

  core::YamlDocument document_;
  fs::path base_;
  bool check_robot_files_ = false;
};

}  // namespace

std::string_view to_string(JobKind kind) { return name_of(kJobKinds, kind); }
std::string_view to_string(ObjectiveKind kind) { return name_of(kObjectiveKinds, kind); }
std::string_view to_string(RetargetMode mode) { return name_of(kRetargetModes, mode); }
std::string_view to_string(model::ContactPhase phase) { return name_of(kSupports, phase); }

JobKind parse_job_kind(std::string_view text, std::string_view what) {
  return parse_named(kJobKinds, text, what);
}
ObjectiveKind parse_objective_kind(std::string_view text, std::string_view what) {
  return parse_named(kObjectiveKinds, text, what);
}
optim::Backend parse_backend(std::string_view text, std::string_view what) {
  return parse_named(kBackendNames, text, what);
}
model::ContactPhase parse_contact_phase(std::string_view text, std::string_view what) {
  return parse_named(kSupports, text, what);
}

JobConfig default_job(JobKind kind) {
  JobConfig job;
  job.job = kind;
  job.robot.model = core::data_dir() / "models" / "hrp2.urdf";
  job.robot.config = model::default_robot_description_path();
  job.output.columns = default_pos_layout().joint_columns();
  // Retargeting imitates the human; smoothing a planned motion minimises torques (seed 001).
  job.objective.kind = kind == JobKind::kRetarget ? ObjectiveKind::kImitation : ObjectiveKind::kTorque;
  return job;
}

JobConfig parse_job(std::string_view yaml, const fs::path& source) { return JobParser(yaml, source).parse(); }

JobConfig load_job(const fs::path& path) {
  return JobParser(core::read_text_file(path.string()), path, true).parse();
}

void validate_job(const JobConfig& job) { detail::validate_job(job, {}); }

}  // namespace mimic::io
