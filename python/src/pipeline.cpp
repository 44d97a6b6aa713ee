// mimic.retarget / smooth / check: the commands' stages run from Python with the settings of a job, which
// is a dict (read by the job reader of `mimic batch` after job_yaml.cpp writes it as YAML), a job YAML
// path (read as `mimic batch` reads it), or None (the command's defaults). The returned tuple is wrapped in
// mimic.Result by __init__.py: (motion dict or None, report JSON text, summary text, written files).
//
// Outputs: files are written only when there is an output path, the `output` argument or the job's
// output.path (the .pos and its .waist / .zmp, and output.report when given), all or none as the command
// writes them; otherwise nothing is written and only the returned arrays hold the motion.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "bindings.hpp"
#include "job_yaml.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/io/pos_layout.hpp"
#include "mimic/io/sample_spacing.hpp"
#include "mimic/pipeline/check.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/smooth.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace mimic::python {
namespace {

using OptionalPath = std::optional<fs::path>;

// What a call adds to its job, as the command line adds to a --config job.
struct Overrides {
  OptionalPath input, output, report;
};

// A job whose outputs are not written still needs an output path to pass the job's checks; this one is
// never created.
fs::path unwritten_output() { return fs::temp_directory_path() / "mimic-python-unwritten.pos"; }
// The same for the input of a job that mimic.check reads only for its robot and limits.
fs::path unread_input() { return fs::temp_directory_path() / "mimic-python-unread.pos"; }

struct ResolvedJob {
  io::JobConfig job;
  bool write = false;  // the job has an output path of the caller's (argument or job key)
};

// The caller's job as a JobConfig: a dict through io::parse_job, a path through io::load_job, None as
// io::default_job(kind). `kind` empty accepts any job kind (mimic.check reads only the robot, payload,
// limits, contacts and margins of a job, as `mimic check --config` does); `placeholder_input` fills a
// missing input (the checked motion). `what` names the function in messages.
ResolvedJob resolve_job(const py::object& job, std::optional<io::JobKind> kind, const Overrides& overrides,
                        const OptionalPath& placeholder_input, const std::string& what) {
  const io::JobKind default_kind = kind.value_or(io::JobKind::kSmooth);
  ResolvedJob resolved;
  if (job.is_none()) {
    resolved.job = io::default_job(default_kind);
    if (overrides.input) resolved.job.input = *overrides.input;
    if (!overrides.input && placeholder_input) resolved.job.input = *placeholder_input;
    if (resolved.job.input.empty()) throw InputError(what + ": input: required (no job given)");
    resolved.write = overrides.output.has_value();
    resolved.job.output.path = overrides.output.value_or(unwritten_output());
    if (overrides.report) resolved.job.output.report = *overrides.report;
    if (kind) io::validate_job(resolved.job);  // mimic.check reads no input or output of its job
    return resolved;
  }
  if (py::isinstance(job, py::module_::import("collections.abc").attr("Mapping"))) {
    // A copy with the job kind first, the overrides applied and the placeholders filled in, as YAML.
    py::dict copy;
    const py::dict given(job);
    if (!given.contains("job")) copy["job"] = std::string(io::to_string(default_kind));
    for (const auto& [key, value] : given) copy[key] = value;
    if (overrides.input) copy["input"] = *overrides.input;
    if (!copy.contains("input") && placeholder_input) copy["input"] = *placeholder_input;
    py::dict output;
    if (copy.contains("output")) {
      const py::object given_output = copy["output"];
      if (py::isinstance(given_output, py::module_::import("collections.abc").attr("Mapping"))) {
        output = py::dict(given_output);
      } else {
        output["path"] = given_output;  // `output: X.pos` is short for {path: X.pos}
      }
    }
    if (overrides.output) output["path"] = *overrides.output;
    if (overrides.report) output["report"] = *overrides.report;
    resolved.write = output.contains("path");
    if (!resolved.write) output["path"] = unwritten_output();
    copy["output"] = output;
    resolved.job = io::parse_job(job_yaml(copy), "<dict>");
  } else {
    resolved.job = io::load_job(py::module_::import("os").attr("fspath")(job).cast<std::string>());
    if (overrides.input) resolved.job.input = *overrides.input;
    if (overrides.output) resolved.job.output.path = *overrides.output;
    if (overrides.report) resolved.job.output.report = *overrides.report;
    resolved.write = true;  // a job file always names its output
    io::validate_job(resolved.job);
  }
  if (kind && resolved.job.job != *kind) {
    throw InputError(input_error_message(resolved.job.source.string(), "",
                                         "job: expected " + std::string(io::to_string(*kind)) + " for " +
                                             what + ", found " +
                                             std::string(io::to_string(resolved.job.job))));
  }
  return resolved;
}

// The motion as written: time (N,) s; q (N, nj) joint angles, rad, in the robot's joint order; and, when
// the motion has them, waist_position (N, 3) m and waist_rpy (N, 3) rad in the world, zmp (N, 3) m in the
// waist frame. The arrays take over the C++ buffers (no copy).
py::dict motion_dict(io::MotionFiles files, const io::PosLayout& layout) {
  py::dict motion;
  motion["time"] =
      Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(files.pos.times.data(), files.pos.size()));
  motion["joint_names"] = layout.joints;
  motion["q"] = std::move(files.pos.angles);
  if (files.waist) {
    motion["waist_position"] = std::move(files.waist->position);
    motion["waist_rpy"] = std::move(files.waist->rpy);
  }
  if (files.zmp) motion["zmp"] = std::move(files.zmp->zmp);
  return motion;
}

// Writes the motion (`write_motion`) and the JSON report, all or none (io::write_report_with_outputs),
// when the job has an output path of the caller's; returns the files written.
std::vector<fs::path> write_outputs(const ResolvedJob& resolved, const io::Json& json,
                                    const io::MotionFiles& files, const std::function<void()>& write_motion) {
  if (!resolved.write) return {};
  const io::JobConfig& job = resolved.job;
  io::write_report_with_outputs(job.output.report, json, write_motion);
  const fs::path base = io::motion_base(job.output.path);
  std::vector<fs::path> written = {io::motion_file(base, ".pos")};
  if (files.waist) written.push_back(io::motion_file(base, ".waist"));
  if (files.hip) written.push_back(io::motion_file(base, ".hip"));
  if (files.zmp) written.push_back(io::motion_file(base, ".zmp"));
  if (!job.output.report.empty()) written.push_back(job.output.report);
  return written;
}

py::tuple run_retarget(const py::object& job, const OptionalPath& input, const OptionalPath& output,
                       const OptionalPath& report) {
  const ResolvedJob resolved =
      resolve_job(job, io::JobKind::kRetarget, {input, output, report}, {}, "mimic.retarget");
  const io::JobConfig& j = resolved.job;
  if (resolved.write) io::check_job_output_paths(j);
  pipeline::RetargetPipelineResult result;
  {
    py::gil_scoped_release release;  // the pipeline touches no Python object
    result = pipeline::run_retarget_pipeline(j);
  }
  const io::Json json = pipeline::retarget_report_json(j, result);
  const std::vector<fs::path> written =
      write_outputs(resolved, json, result.output, [&] { pipeline::write_retarget_outputs(j, result); });
  const std::string summary = pipeline::format_retarget_summary(result);
  const io::PosLayout layout = result.kinematic.pos_layout;
  return py::make_tuple(motion_dict(std::move(result.output), layout), json.dump(), summary, written);
}

py::tuple run_smooth(const py::object& job, const OptionalPath& input, const OptionalPath& output,
                     const OptionalPath& report) {
  const ResolvedJob resolved =
      resolve_job(job, io::JobKind::kSmooth, {input, output, report}, {}, "mimic.smooth");
  const io::JobConfig& j = resolved.job;
  if (resolved.write) io::check_job_output_paths(j);
  // As `mimic smooth` (apps/mimic/cmd_smooth.cpp): robot with payload, the written columns checked before
  // the solve, the planned motion and its sample spacing, the settings of the job.
  const pipeline::Robot robot = pipeline::load_robot(j.robot, j.payload);
  const io::PosLayout layout = io::PosLayout::of(robot.description);
  const io::PosWriteOptions write_options = io::pos_write_options(j, layout);
  const model::SampledMotion planned = pipeline::read_sampled_motion(robot, j.input, j.contacts);
  io::check_sample_spacing(planned.times, j.trajectory.knot_spacing,
                           io::motion_file(io::motion_base(j.input), ".pos").string());
  pipeline::SmoothSettings settings = pipeline::smooth_settings(j);
  settings.geometry.collision = robot.collision;
  pipeline::SmoothResult result;
  {
    py::gil_scoped_release release;
    result = pipeline::smooth_motion(robot.model, robot.feet, planned, settings);
  }
  const std::string summary = pipeline::format_smooth_summary(robot, result);
  pipeline::require_success(result);  // InfeasibleError: nothing is written
  if (const std::string warning = pipeline::short_of_optimum_warning(result.solve, "smoothed motion");
      !warning.empty())
    spdlog::warn("{}", warning);
  const io::Json json = pipeline::smooth_report_json(j, robot.model, result);
  const std::vector<fs::path> written = write_outputs(resolved, json, result.files, [&] {
    io::write_motion(io::motion_base(j.output.path), result.files, write_options, layout);
  });
  return py::make_tuple(motion_dict(std::move(result.files), layout), json.dump(), summary, written);
}

py::tuple run_check(const fs::path& motion, const py::object& job, const OptionalPath& report, double slip,
                    double slip_deg) {
  if (!(slip >= 0.0 && std::isfinite(slip))) throw InputError("slip: expected a finite number >= 0 (m)");
  if (!(slip_deg >= 0.0 && std::isfinite(slip_deg)))
    throw InputError("slip_deg: expected a finite number >= 0 (degrees)");
  const ResolvedJob resolved = resolve_job(job, std::nullopt, {}, unread_input(), "mimic.check");
  const io::JobConfig& j = resolved.job;
  // As `mimic check` (apps/mimic/cmd_check.cpp): the report must name none of the inputs.
  if (report) {
    std::vector<io::CommandFile> inputs = io::motion_file_set(motion, "the checked motion");
    if (!j.source.empty() && !job.is_none() && j.source != "<dict>")
      inputs.push_back({j.source, "the job file"});
    inputs.push_back({j.robot.model, "the robot model"});
    inputs.push_back({j.robot.config, "the robot description"});
    io::check_output_paths(inputs, {{*report, "the report"}});
  }
  const pipeline::Robot robot = pipeline::load_robot(j.robot, j.payload);
  evaluation::CheckOptions options = pipeline::check_options(j);
  if (job.is_none()) options.zmp_margin = 0.0;  // `mimic check` without --config: no margin asked
  options.collision = robot.collision;
  options.slip_position = slip;
  options.slip_angle = slip_deg * M_PI / 180.0;
  evaluation::Report result;
  {
    py::gil_scoped_release release;
    result = pipeline::check_motion_files(robot, motion.string(), j.contacts, options);
  }
  const io::Json json = pipeline::check_report_json(result, motion.string());
  std::vector<fs::path> written;
  if (report) {
    io::write_json_file(*report, json);
    written.push_back(*report);
  }
  return py::make_tuple(py::none(), json.dump(), pipeline::format_check_report(result), written);
}

}  // namespace

void bind_pipeline(py::module_& m) {
  m.def("_retarget", &run_retarget, py::arg("job") = py::none(), py::arg("input") = py::none(),
        py::arg("output") = py::none(), py::arg("report") = py::none());
  m.def("_smooth", &run_smooth, py::arg("job") = py::none(), py::arg("input") = py::none(),
        py::arg("output") = py::none(), py::arg("report") = py::none());
  m.def("_check", &run_check, py::arg("motion"), py::arg("job") = py::none(), py::arg("report") = py::none(),
        py::arg("slip") = 1.0e-3, py::arg("slip_deg") = 0.1);
}

}  // namespace mimic::python
