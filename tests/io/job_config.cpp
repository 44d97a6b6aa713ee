// Job YAML: defaults, every key, strict errors with file / line / key path, path resolution.
#include <gtest/gtest.h>

#include <functional>

#include "io/io_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/job_json.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

std::string input_error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InputError";
  return "";
}

// Parses `yaml` as if it were config/jobs/test.yaml.
JobConfig parse(const std::string& yaml) { return parse_job(yaml, "config/jobs/test.yaml"); }
std::string error_of(const std::string& yaml) {
  return input_error_of([&] { parse(yaml); });
}

const std::string kMinimal = "job: retarget\ninput: clip.bvh\noutput: out.pos\n";

TEST(JobDefaults, MatchTheDocumentedSchema) {
  const JobConfig job = default_job(JobKind::kRetarget);
  EXPECT_EQ(job.job, JobKind::kRetarget);
  EXPECT_TRUE(job.input.empty());
  EXPECT_TRUE(job.output.path.empty());
  EXPECT_EQ(job.robot.model.filename(), "hrp2.urdf");
  EXPECT_TRUE(job.robot.model.is_absolute());
  EXPECT_EQ(job.robot.config.filename(), "hrp2.yaml");
  EXPECT_EQ(job.mocap.units, "auto");
  EXPECT_EQ(job.mocap.up_axis, "auto");
  EXPECT_EQ(job.mocap.preset, "auto");
  EXPECT_EQ(job.mocap.gap_fill_frames, 10);
  EXPECT_FALSE(job.retarget.scale);
  EXPECT_EQ(job.retarget.velocity_limit_scale, 0.9);
  EXPECT_FALSE(job.retarget.kinematic_only);
  EXPECT_EQ(job.objective.kind, ObjectiveKind::kImitation);
  EXPECT_EQ(job.objective.sigma, 1.0);
  EXPECT_EQ(job.limits.angle_factor, 1.0);
  EXPECT_EQ(job.limits.velocity_factor, 1.0);
  EXPECT_EQ(job.limits.torque_factor, 1.0);
  EXPECT_EQ(job.trajectory.knot_spacing, 0.1);
  EXPECT_EQ(job.trajectory.output_rate, 200.0);
  EXPECT_EQ(job.solver.name, optim::Backend::kAugmentedLagrangian);
  EXPECT_EQ(job.solver.max_iterations, 100);
  EXPECT_EQ(job.solver.tolerance, 1e-6);
  EXPECT_EQ(job.solver.constraint_tolerance, 1e-6);
  EXPECT_EQ(job.solver.alm.penalty_initial, 10.0);
  EXPECT_EQ(job.solver.alm.penalty_growth, 10.0);
  EXPECT_EQ(job.solver.alm.penalty_max, 1e8);
  EXPECT_EQ(job.solver.ipopt.linear_solver, "mumps");
  EXPECT_EQ(job.solver.ipopt.print_level, 0);
  EXPECT_TRUE(job.stability.enabled);
  EXPECT_EQ(job.stability.zmp_margin, 0.02);
  EXPECT_EQ(job.stability.max_iterations, 5);
  EXPECT_EQ(job.stability.preview.q, 1.0);
  EXPECT_EQ(job.stability.preview.r, 1e-6);
  EXPECT_EQ(job.stability.preview.horizon, 1.6);
  EXPECT_EQ(job.stability.preview.period, 0.005);
  EXPECT_EQ(job.geometry.safety_distance, 0.01);
  EXPECT_EQ(job.geometry.max_swing_tilt, 0.035);
  EXPECT_FALSE(job.payload);
  EXPECT_TRUE(job.contacts.empty());
  EXPECT_EQ(job.output.columns, 30);
  EXPECT_TRUE(job.output.report.empty());
  EXPECT_TRUE(job.source.empty());

  EXPECT_EQ(default_job(JobKind::kSmooth).objective.kind, ObjectiveKind::kTorque);
  EXPECT_EQ(default_job(JobKind::kWalk).objective.kind, ObjectiveKind::kTorque);
}

TEST(JobParse, MinimalFileTakesTheDefaults) {
  const JobConfig job = parse(kMinimal);
  JobConfig expected = default_job(JobKind::kRetarget);
  EXPECT_EQ(job.input, "config/jobs/clip.bvh");
  EXPECT_EQ(job.output.path, "config/jobs/out.pos");
  EXPECT_EQ(job.source, "config/jobs/test.yaml");
  EXPECT_EQ(job.robot.model, expected.robot.model);
  EXPECT_EQ(job.solver.max_iterations, expected.solver.max_iterations);
  EXPECT_EQ(job.objective.kind, ObjectiveKind::kImitation);
  EXPECT_EQ(parse_job("job: smooth\ninput: a.pos\noutput: b.pos\n", "j.yaml").objective.kind,
            ObjectiveKind::kTorque);
}

TEST(JobParse, EveryKey) {
  const JobConfig job = parse(R"(job: smooth
input: ../../data/planned.pos
output:
  path: /tmp/out/smoothed.pos
  columns: 40
  report: reports/smoothed.json
robot:
  model: robots/other.urdf
  config: robots/other.yaml
mocap:
  units: cm
  up_axis: -y
  preset: ../skeletons/cmu_asf.yaml
  gap_fill_frames: 0
retarget:
  scale: 0.85
  velocity_limit_scale: 0.5
  kinematic_only: true
objective:
  kind: imitation
  sigma: 2.5
  torque_weight: 0.001
limits:
  angle_factor: 0.95
  velocity_factor: 0.8
  torque_factor: 0.7
trajectory:
  knot_spacing: 0.05
  output_rate: 500
solver:
  name: ipopt
  max_iterations: 42
  tolerance: 1.0e-8
  constraint_tolerance: 2e-7
  threads: 3
  alm: { penalty_initial: 1.0, penalty_growth: 5, penalty_max: 1.0e6 }
  ipopt: { linear_solver: ma57, print_level: 5 }
stability:
  enabled: false
  zmp_margin: 0.03
  max_iterations: 0
geometry:
  safety_distance: 0.02
  max_swing_tilt: 0.5
payload:
  link: RARM_LINK6
  mass: 0.7
  com: [0.65, 0, -0.01]
  inertia: [0.001, 0.2, 0.2005, 0.0001, 0.0002, 0.0003]
contacts:
  - { start: 0.0, end: 0.8, support: both }
  - start: 0.8
    end: 1.6
    support: right
  - { start: 1.6, end: 2.0, support: left }
)");
  EXPECT_EQ(job.job, JobKind::kSmooth);
  EXPECT_EQ(job.input, "data/planned.pos");
  EXPECT_EQ(job.output.path, "/tmp/out/smoothed.pos");
  EXPECT_EQ(job.output.columns, 40);
  EXPECT_EQ(job.output.report, "config/jobs/reports/smoothed.json");
  EXPECT_EQ(job.robot.model, "config/jobs/robots/other.urdf");
  EXPECT_EQ(job.robot.config, "config/jobs/robots/other.yaml");
  EXPECT_EQ(job.mocap.units, "cm");
  EXPECT_EQ(job.mocap.up_axis, "-y");
  EXPECT_EQ(job.mocap.preset, "config/skeletons/cmu_asf.yaml");
  EXPECT_EQ(job.mocap.gap_fill_frames, 0);
  ASSERT_TRUE(job.retarget.scale);
  EXPECT_EQ(*job.retarget.scale, 0.85);
  EXPECT_EQ(job.retarget.velocity_limit_scale, 0.5);
  EXPECT_TRUE(job.retarget.kinematic_only);
  EXPECT_EQ(job.objective.kind, ObjectiveKind::kImitation);
  EXPECT_EQ(job.objective.sigma, 2.5);
  EXPECT_EQ(job.objective.torque_weight, 0.001);
  EXPECT_EQ(job.limits.angle_factor, 0.95);
  EXPECT_EQ(job.limits.velocity_factor, 0.8);
  EXPECT_EQ(job.limits.torque_factor, 0.7);
  EXPECT_EQ(job.trajectory.knot_spacing, 0.05);
  EXPECT_EQ(job.trajectory.output_rate, 500.0);
  EXPECT_EQ(job.solver.name, optim::Backend::kIpopt);
  EXPECT_EQ(job.solver.max_iterations, 42);
  EXPECT_EQ(job.solver.tolerance, 1e-8);
  EXPECT_EQ(job.solver.constraint_tolerance, 2e-7);
  EXPECT_EQ(job.solver.threads, 3);
  EXPECT_EQ(job.solver.alm.penalty_initial, 1.0);
  EXPECT_EQ(job.solver.alm.penalty_growth, 5.0);
  EXPECT_EQ(job.solver.alm.penalty_max, 1e6);
  EXPECT_EQ(job.solver.ipopt.linear_solver, "ma57");
  EXPECT_EQ(job.solver.ipopt.print_level, 5);
  EXPECT_FALSE(job.stability.enabled);
  EXPECT_EQ(job.stability.zmp_margin, 0.03);
  EXPECT_EQ(job.stability.max_iterations, 0);
  EXPECT_EQ(job.geometry.safety_distance, 0.02);
  EXPECT_EQ(job.geometry.max_swing_tilt, 0.5);
  ASSERT_TRUE(job.payload);
  EXPECT_EQ(job.payload->attached_to, "RARM_LINK6");
  EXPECT_EQ(job.payload->inertia.mass, 0.7);
  EXPECT_EQ(job.payload->inertia.com, Eigen::Vector3d(0.65, 0, -0.01));
  Eigen::Matrix3d inertia;
  inertia << 0.001, 0.0001, 0.0002, 0.0001, 0.2, 0.0003, 0.0002, 0.0003, 0.2005;
  EXPECT_EQ(job.payload->inertia.inertia_com, inertia);
  ASSERT_EQ(job.contacts.size(), 3u);
  EXPECT_EQ(job.contacts[1].start, 0.8);
  EXPECT_EQ(job.contacts[1].end, 1.6);
  EXPECT_EQ(job.contacts[1].phase, model::ContactPhase::kRightSupport);
  EXPECT_EQ(job.contacts[2].phase, model::ContactPhase::kLeftSupport);
}

// Preview control generates a walk's CoM; retarget and smooth correct the ZMP with the exact cart-table
// solve, so the weights are a walk job's keys only and elsewhere an error at the key (they used to be
// accepted and do nothing).
TEST(JobParse, PreviewKeysBelongToWalkJobs) {
  const std::string preview = "stability:\n  preview: { q: 2.0, r: 1.0e-5, horizon: 2.0, period: 0.002 }\n";
  const JobConfig walk =
      parse_job("job: walk\ninput: /data/steps.yaml\noutput: /out/walk.pos\n" + preview, "/jobs/j.yaml");
  EXPECT_EQ(walk.stability.preview.q, 2.0);
  EXPECT_EQ(walk.stability.preview.r, 1e-5);
  EXPECT_EQ(walk.stability.preview.horizon, 2.0);
  EXPECT_EQ(walk.stability.preview.period, 0.002);
  const std::string json = job_to_json(walk).dump();
  EXPECT_EQ(job_to_json(parse_job(json, "/jobs/j.yaml")).dump(), json);  // fed back, the same walk job

  EXPECT_EQ(
      error_of(kMinimal + preview),
      "config/jobs/test.yaml:line 5: stability.preview: only a walk job uses preview control (a retarget "
      "job corrects the ZMP with the exact cart-table solve): remove the key");
  EXPECT_EQ(error_of("job: smooth\ninput: a.pos\noutput: b.pos\n" + preview),
            "config/jobs/test.yaml:line 5: stability.preview: only a walk job uses preview control (a smooth "
            "job corrects the ZMP with the exact cart-table solve): remove the key");
}

TEST(JobParse, AutoScaleAndOutputShorthand) {
  const JobConfig job = parse(kMinimal + "retarget:\n  scale: auto\n");
  EXPECT_FALSE(job.retarget.scale);
  EXPECT_FALSE(job.retarget.scale_from_height);
  EXPECT_EQ(job.output.path, "config/jobs/out.pos");
  EXPECT_EQ(job.output.columns, 30);
  EXPECT_EQ(error_of("job: retarget\ninput: a.bvh\noutput: [a.pos]\n"),
            "config/jobs/test.yaml:line 3: output: expected a .pos path or a mapping with path, columns and "
            "report, "
            "found a list");
}

// retarget.mode: auto by default, the three spellings, and a misspelt one names the choices.
TEST(JobParse, RetargetMode) {
  EXPECT_EQ(parse(kMinimal).retarget.mode, RetargetMode::kAuto);
  EXPECT_EQ(parse(kMinimal + "retarget:\n  mode: whole_body\n").retarget.mode, RetargetMode::kWholeBody);
  EXPECT_EQ(parse(kMinimal + "retarget:\n  mode: upper_body\n").retarget.mode, RetargetMode::kUpperBody);
  EXPECT_EQ(parse(kMinimal + "retarget:\n  mode: auto\n").retarget.mode, RetargetMode::kAuto);
  EXPECT_EQ(
      error_of(kMinimal + "retarget:\n  mode: walking\n"),
      "config/jobs/test.yaml:line 5: retarget.mode: expected one of auto, whole_body, upper_body; found "
      "'walking'");
}

// retarget.scale: height measures the ratio from the standing heights (reference_motion.hpp).
TEST(JobParse, HeightScale) {
  JobConfig job = parse(kMinimal + "retarget:\n  scale: height\n");
  EXPECT_FALSE(job.retarget.scale);
  EXPECT_TRUE(job.retarget.scale_from_height);
  const std::string json = job_to_json(job).dump();
  EXPECT_NE(json.find("\"scale\": \"height\""), std::string::npos) << json;
  EXPECT_TRUE(parse_job(json, "config/jobs/test.yaml").retarget.scale_from_height);
  // Set from code, a number and height together are a contradiction, not a silent precedence.
  job.retarget.scale = 0.8;
  EXPECT_EQ(input_error_of([&] { validate_job(job); }),
            "retarget.scale: expected auto, height or a number, found both height and a number");
}

TEST(JobParse, PathsResolveAgainstTheYamlFolder) {
  const JobConfig job = parse_job(R"(job: walk
input: steps.yml
output: ../out/./walk.pos
mocap: { preset: cmu_asf }
)",
                                  "/data/jobs/walk.yaml");
  EXPECT_EQ(job.input, "/data/jobs/steps.yml");
  EXPECT_EQ(job.output.path, "/data/out/walk.pos");
  EXPECT_EQ(job.mocap.preset, "cmu_asf");  // a name, not a path
  // A job file in the working directory keeps relative paths relative to it.
  EXPECT_EQ(parse_job(kMinimal, "job.yaml").input, "clip.bvh");
}

TEST(JobParse, UnknownKeysNameTheLineAndTheChoices) {
  EXPECT_EQ(
      error_of(kMinimal + "solver:\n  name: alm\n  max_iter: 10\n"),
      "config/jobs/test.yaml:line 6: unknown key 'solver.max_iter' (did you mean 'max_iterations'? expected "
      "one of: name, max_iterations, tolerance, constraint_tolerance, threads, alm, ipopt)");
  EXPECT_EQ(
      error_of("job: retarget\nimput: a.bvh\noutput: o.pos\n"),
      "config/jobs/test.yaml:line 2: unknown key 'imput' (did you mean 'input'? expected one of: job, input, "
      "output, robot, mocap, retarget, objective, limits, trajectory, solver, stability, geometry, payload, "
      "contacts, csv_rate)");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  alm:\n    penalty_initial: 1\n    rho: 2\n"),
            "config/jobs/test.yaml:line 7: unknown key 'solver.alm.rho' (expected one of: penalty_initial, "
            "penalty_growth, penalty_max, penalty_schedule, newton_steps)");
  EXPECT_EQ(
      error_of(kMinimal + "contacts:\n  - { start: 0, end: 1, support: both }\n  - { start: 1, end: 2, "
                          "foot: left }\n"),
      "config/jobs/test.yaml:line 6: unknown key 'contacts[1].foot' (expected one of: start, end, support)");
  EXPECT_EQ(error_of(kMinimal + "input: other.bvh\n"),
            "config/jobs/test.yaml:line 4: duplicate key 'input' (first on line 2)");
}

TEST(JobParse, WrongTypes) {
  EXPECT_EQ(error_of(kMinimal + "\nsolver:\n  max_iterations: ten\n"),
            "config/jobs/test.yaml:line 6: solver.max_iterations: expected an integer, found 'ten'");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  max_iterations: 2.5\n"),
            "config/jobs/test.yaml:line 5: solver.max_iterations: expected an integer, found '2.5'");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  tolerance: [1]\n"),
            "config/jobs/test.yaml:line 5: solver.tolerance: expected a number, found a list");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  tolerance: .nan\n"),
            "config/jobs/test.yaml:line 5: solver.tolerance: expected a number, found '.nan'");
  EXPECT_EQ(error_of(kMinimal + "objective:\n  sigma: nan\n"),
            "config/jobs/test.yaml:line 5: objective.sigma: expected a finite number, found 'nan'");
  EXPECT_EQ(error_of(kMinimal + "stability:\n  enabled: yes\n"),
            "config/jobs/test.yaml:line 5: stability.enabled: expected true or false, found 'yes'");
  EXPECT_EQ(error_of(kMinimal + "limits: 0.9\n"),
            "config/jobs/test.yaml:line 4: limits: expected a mapping (key: value lines), found '0.9'");
  EXPECT_EQ(error_of(kMinimal + "payload:\n  frame: r_gripper\n  mass: 1\n  com: [1, 2]\n"),
            "config/jobs/test.yaml:line 7: payload.com: expected a list of 3 numbers, found a list of 2");
  EXPECT_EQ(error_of(kMinimal + "payload:\n  frame: r_gripper\n  mass: 1\n  com: [1, x, 2]\n"),
            "config/jobs/test.yaml:line 7: payload.com: expected a list of 3 numbers, found 'x' as item 2");
  EXPECT_EQ(error_of(kMinimal + "retarget:\n  scale: big\n"),
            "config/jobs/test.yaml:line 5: retarget.scale: expected auto, height or a number, found 'big'");
  EXPECT_EQ(error_of(kMinimal + "retarget:\n  scale: [1]\n"),
            "config/jobs/test.yaml:line 5: retarget.scale: expected auto, height or a number, found a list");
  EXPECT_EQ(error_of(kMinimal + "retarget:\n  scale: nan\n"),
            "config/jobs/test.yaml:line 5: retarget.scale: expected a finite number, found 'nan'");
  EXPECT_EQ(error_of(kMinimal + "contacts:\n  start: 0\n"),
            "config/jobs/test.yaml:line 4: contacts: expected a list of {start, end, support} phases, found "
            "a mapping");
  EXPECT_EQ(error_of(kMinimal + "mocap:\n  units:\n"),
            "config/jobs/test.yaml:line 5: mocap.units: expected a string, found nothing");
}

TEST(JobParse, WrongEnumerationValues) {
  EXPECT_EQ(error_of("job: retargte\ninput: a.bvh\noutput: o.pos\n"),
            "config/jobs/test.yaml:line 1: job: expected one of retarget, smooth, walk; found 'retargte'");
  EXPECT_EQ(error_of(kMinimal + "solver: { name: snopt }\n"),
            "config/jobs/test.yaml:line 4: solver.name: expected one of alm, ipopt; found 'snopt'");
  EXPECT_EQ(
      error_of(kMinimal + "objective:\n  kind: energy\n"),
      "config/jobs/test.yaml:line 5: objective.kind: expected one of imitation, torque; found 'energy'");
  EXPECT_EQ(
      error_of(kMinimal + "contacts:\n  - { start: 0, end: 1, support: middle }\n"),
      "config/jobs/test.yaml:line 5: contacts[0].support: expected one of both, right, left; found 'middle'");
  EXPECT_EQ(error_of(kMinimal + "mocap:\n  units: km\n"),
            "config/jobs/test.yaml:line 5: mocap.units: expected one of auto, m, cm, mm, dm, inch, cmu; "
            "found 'km'");
  EXPECT_EQ(
      error_of(kMinimal + "mocap:\n  up_axis: w\n"),
      "config/jobs/test.yaml:line 5: mocap.up_axis: expected one of auto, x, y, z, +x, -x, +y, -y, +z, -z; "
      "found 'w'");
  EXPECT_EQ(
      error_of(kMinimal + "solver:\n  ipopt:\n    linear_solver: ma99\n"),
      "config/jobs/test.yaml:line 6: solver.ipopt.linear_solver: expected one of mumps, ma27, ma57, ma77, "
      "ma86, ma97, pardiso, pardisomkl, spral, wsmp, custom; found 'ma99'");
  EXPECT_EQ(error_of(kMinimal + "output:\n  path: x.pos\n  columns: 31\n"),
            "config/jobs/test.yaml:line 4: duplicate key 'output' (first on line 3)");
  EXPECT_EQ(error_of("job: retarget\ninput: a.bvh\noutput:\n  path: x.pos\n  columns: 31\n"),
            "config/jobs/test.yaml:line 5: output.columns: expected 30 or 40, found 31");
}

// output.columns of another robot is checked against that robot's .pos layout (its description) once the
// robot is known, and the error still names the job file and the key's line.
// A job naming a robot description but no model takes the URDF the description names (empty model), not
// the default robot's; a model alone keeps the default description.
TEST(JobParse, DescriptionWithoutModelUsesItsOwnUrdf) {
  const JobConfig described = parse(kMinimal + "robot: { config: /m/other.yaml }\n");
  EXPECT_TRUE(described.robot.model.empty());
  EXPECT_EQ(described.robot.config, "/m/other.yaml");
  const JobConfig modelled = parse(kMinimal + "robot: { model: /m/other.urdf }\n");
  EXPECT_EQ(modelled.robot.model, "/m/other.urdf");
  EXPECT_EQ(modelled.robot.config, default_job(JobKind::kRetarget).robot.config);
  EXPECT_EQ(parse(kMinimal).robot.model, default_job(JobKind::kRetarget).robot.model);
}

TEST(JobParse, OutputColumnsOfAnotherRobot) {
  const std::string yaml =
      "job: retarget\ninput: a.bvh\nrobot:\n  config: ../robots/other.yaml\noutput:\n  path: x.pos\n"
      "  columns: 31\n";
  const JobConfig job = parse(yaml);
  model::RobotDescription description;
  description.joint_order = {"hip", "knee", "ankle"};
  description.extra_columns = {"grip"};
  const PosLayout other = PosLayout::of(description);
  EXPECT_EQ(input_error_of([&] { pos_write_options(job, other); }),
            "config/jobs/test.yaml:line 7: output.columns: expected 3 or 4, found 31");
  JobConfig four = job;
  four.output.columns = 4;
  EXPECT_TRUE(pos_write_options(four, other).wide);
  EXPECT_FALSE(pos_write_options(parse(kMinimal), default_pos_layout()).wide);
  // Built on the command line: the key only.
  JobConfig command_line = default_job(JobKind::kRetarget);
  command_line.output.columns = 31;
  EXPECT_EQ(input_error_of([&] { pos_write_options(command_line, other); }),
            "output.columns: expected 3 or 4, found 31");
  // Not given (the default robot's 30 by default_job()): the robot's own joints. Given as 30 in the
  // file, it is checked.
  JobConfig unset = default_job(JobKind::kWalk);
  unset.output.path = "x.pos";
  EXPECT_FALSE(pos_write_options(unset, other).wide);
  const JobConfig thirty = parse(
      "job: retarget\ninput: a.bvh\nrobot:\n  config: ../robots/other.yaml\noutput:\n  path: x.pos\n"
      "  columns: 30\n");
  EXPECT_EQ(input_error_of([&] { pos_write_options(thirty, other); }),
            "config/jobs/test.yaml:line 7: output.columns: expected 3 or 4, found 30");
}

TEST(JobParse, OutOfRangeValuesAndRelations) {
  EXPECT_EQ(error_of(kMinimal + "limits:\n  angle_factor: 1.5\n"),
            "config/jobs/test.yaml:line 5: limits.angle_factor: 1.5 is above the maximum 1");
  EXPECT_EQ(error_of(kMinimal + "limits:\n  torque_factor: 0\n"),
            "config/jobs/test.yaml:line 5: limits.torque_factor: 0 is below the minimum 0.1");
  EXPECT_EQ(error_of(kMinimal + "trajectory: { knot_spacing: -0.1 }\n"),
            "config/jobs/test.yaml:line 4: trajectory.knot_spacing: -0.1 s is below the minimum 0.01 s");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  alm: { penalty_growth: 2 }\n"),
            "config/jobs/test.yaml:line 5: solver.alm.penalty_growth: expected a number in [5, 10] (seed 000 "
            "eq. (16)), found 2");
  EXPECT_NE(error_of(kMinimal + "solver:\n  alm: { penalty_schedule: always }\n")
                .find("solver.alm.penalty_schedule: expected one of"),
            std::string::npos);
  EXPECT_EQ(error_of(kMinimal + "solver:\n  max_iterations: 0\n"),
            "config/jobs/test.yaml:line 5: solver.max_iterations: 0 is below the minimum 1");
  EXPECT_EQ(error_of(kMinimal + "solver:\n  threads: 257\n"),
            "config/jobs/test.yaml:line 5: solver.threads: 257 is above the maximum 256");
  EXPECT_EQ(
      error_of(kMinimal + "solver:\n  alm:\n    penalty_initial: 100\n    penalty_max: 10\n"),
      "config/jobs/test.yaml:line 7: solver.alm.penalty_max: expected a number >= penalty_initial (100), "
      "found 10");
  // A default value that conflicts with a written one is reported at the closest written key.
  EXPECT_EQ(
      error_of(kMinimal + "solver:\n  alm:\n    penalty_initial: 1.0e9\n"),
      "config/jobs/test.yaml:line 5: solver.alm.penalty_max: expected a number >= penalty_initial (1e+09), "
      "found 1e+08");
  EXPECT_EQ(
      error_of(kMinimal + "contacts:\n  - { start: 0, end: 1, support: both }\n  - { start: 0.9, end: 2, "
                          "support: left }\n"),
      "config/jobs/test.yaml:line 6: contacts[1].start: expected 1, the end of the previous phase (phases "
      "follow one another without gaps or overlaps), found 0.9");
  EXPECT_EQ(error_of(kMinimal + "contacts:\n  - { start: 0, end: 0, support: both }\n"),
            "config/jobs/test.yaml:line 5: contacts[0].end: expected a time after start (0), found 0");
  EXPECT_EQ(
      error_of(kMinimal + "payload: { link: RARM_LINK6, frame: r_gripper, mass: 1 }\n"),
      "config/jobs/test.yaml:line 4: payload: expected exactly one of 'link' or 'frame' naming where the "
      "payload is held");
  EXPECT_EQ(
      error_of(kMinimal + "payload: { frame: r_gripper, mass: 1, inertia: [1, 1, 3, 0, 0, 0] }\n"),
      "config/jobs/test.yaml:line 4: payload.inertia: not the inertia of a rigid body (principal moments 1, "
      "1, 3 must be >= 0 and satisfy the triangle inequality)");
  EXPECT_EQ(
      error_of(kMinimal + "geometry: { safety_distance: 0 }\n"),
      "config/jobs/test.yaml:line 4: geometry.safety_distance: expected a distance in (0, 0.1] m, found 0");
  EXPECT_EQ(
      error_of(kMinimal + "geometry:\n  safety_distance: 0.5\n"),
      "config/jobs/test.yaml:line 5: geometry.safety_distance: expected a distance in (0, 0.1] m, found "
      "0.5");
  EXPECT_EQ(
      error_of(kMinimal + "geometry:\n  max_swing_tilt: 1.6\n"),
      "config/jobs/test.yaml:line 5: geometry.max_swing_tilt: expected an angle in (0, pi/2) rad, found "
      "1.6");
  EXPECT_EQ(
      error_of(kMinimal + "geometry:\n  max_swing_tilt: -0.1\n"),
      "config/jobs/test.yaml:line 5: geometry.max_swing_tilt: expected an angle in (0, pi/2) rad, found "
      "-0.1");
  EXPECT_EQ(error_of(kMinimal + "payload: { frame: r_gripper }\n"),
            "config/jobs/test.yaml:line 4: missing required key 'payload.mass'");
  EXPECT_EQ(error_of("job: smooth\ninput: a.bvh\noutput: o.pos\n"),
            "config/jobs/test.yaml:line 2: input: a smooth job reads a .pos or .csv motion, not "
            "'config/jobs/a.bvh'");
  EXPECT_EQ(error_of("job: retarget\ninput: a.BVH\noutput: o.txt\n"),
            "config/jobs/test.yaml:line 3: output.path: expected a path ending in .pos (.waist and .zmp are "
            "written beside it) or .csv, found 'config/jobs/o.txt'");
  // csv_rate: within [1, 10000] Hz, at its line.
  EXPECT_EQ(error_of("job: smooth\ninput: w.csv\noutput: o.csv\ncsv_rate: 20000\n"),
            "config/jobs/test.yaml:line 4: csv_rate: 20000 Hz is above the maximum 10000 Hz");
}

TEST(JobParse, MissingKeysEmptyFilesAndBrokenYaml) {
  EXPECT_EQ(error_of("input: a.bvh\noutput: o.pos\n"),
            "config/jobs/test.yaml:line 1: missing required key 'job'");
  EXPECT_EQ(error_of("job: retarget\noutput: o.pos\n"),
            "config/jobs/test.yaml:line 1: missing required key 'input'");
  EXPECT_EQ(error_of("job: retarget\ninput: a.bvh\noutput: { columns: 40 }\n"),
            "config/jobs/test.yaml:line 3: missing required key 'output.path'");
  EXPECT_EQ(error_of(""),
            "config/jobs/test.yaml: empty job file; expected at least the keys 'job', 'input' and 'output'");
  EXPECT_EQ(error_of("- job\n"),
            "config/jobs/test.yaml:line 1: the file: expected a mapping (key: value lines), found a list");
  const std::string broken = error_of("job: retarget\nsolver: {name: alm\n");
  EXPECT_TRUE(broken.starts_with("config/jobs/test.yaml:line ")) << broken;
  EXPECT_NE(broken.find(": invalid YAML: "), std::string::npos) << broken;
}

TEST(JobLoad, FromAFile) {
  const auto dir = test::fresh_dir("job_load");
  test::spit(dir / "boxing.yaml", kMinimal);
  const JobConfig job = load_job(dir / "boxing.yaml");
  EXPECT_EQ(job.input, dir / "clip.bvh");
  EXPECT_EQ(job.source, dir / "boxing.yaml");
  EXPECT_EQ(input_error_of([&] { load_job(dir / "none.yaml"); }),
            (dir / "none.yaml").string() + ": cannot open the file (does it exist?)");
}

// A job naming a robot file that does not exist fails when it is loaded, at the key; a description at the
// place it had before config/robots/ says where it went.
TEST(JobLoad, MissingRobotFilesNameTheKey) {
  const auto dir = test::fresh_dir("job_missing_robot");
  fs::create_directories(dir / "robots");
  test::spit(dir / "robots" / "hrp2.yaml", "");
  test::spit(dir / "old.yaml", kMinimal + "robot:\n  config: hrp2.yaml\n");
  EXPECT_EQ(input_error_of([&] { load_job(dir / "old.yaml"); }),
            (dir / "old.yaml").string() + ":line 5: robot.config: no such robot description '" +
                (dir / "hrp2.yaml").string() + "' (the descriptions moved to " +
                (dir / "robots" / "hrp2.yaml").string() + ")");
  test::spit(dir / "none.yaml", kMinimal + "robot: { config: nowhere.yaml }\n");
  EXPECT_EQ(input_error_of([&] { load_job(dir / "none.yaml"); }),
            (dir / "none.yaml").string() + ":line 4: robot.config: no such robot description '" +
                (dir / "nowhere.yaml").string() + "'");
  test::spit(dir / "model.yaml", kMinimal + "robot: { model: robot.urdf }\n");
  EXPECT_EQ(input_error_of([&] { load_job(dir / "model.yaml"); }),
            (dir / "model.yaml").string() + ":line 4: robot.model: no such file '" +
                (dir / "robot.urdf").string() + "'");
  // Text parsed from memory does not look at the files.
  EXPECT_NO_THROW(parse(kMinimal + "robot: { config: nowhere.yaml }\n"));
}

TEST(JobLoad, ShippedExamplesAreValid) {
  const fs::path jobs = fs::path(MIMIC_SOURCE_DIR) / "config" / "jobs";
  for (const char* name : {"boxing_retarget.yaml", "boxing_c3d.yaml", "walk_bar_smooth.yaml"}) {
    SCOPED_TRACE(name);
    const JobConfig job = load_job(jobs / name);
    EXPECT_EQ(job.robot.model, (jobs / "../../models/hrp2.urdf").lexically_normal());
    EXPECT_TRUE(fs::exists(job.robot.model));
    EXPECT_TRUE(fs::exists(job.robot.config));
  }
  EXPECT_EQ(load_job(jobs / "boxing_c3d.yaml").input.filename(), "boxing.c3d");
  const JobConfig walk = load_job(jobs / "walk_bar_smooth.yaml");
  EXPECT_EQ(walk.job, JobKind::kSmooth);
  ASSERT_TRUE(walk.payload);
  EXPECT_EQ(walk.payload->attached_to, "r_gripper");
}

TEST(JobCommandLine, DefaultsPlusOverridesAreValidated) {
  JobConfig job = default_job(JobKind::kRetarget);
  EXPECT_EQ(input_error_of([&] { validate_job(job); }), "input: required (the motion to process)");
  job.input = "data/mocap/boxing.bvh";
  job.output.path = "out/boxing.pos";
  EXPECT_NO_THROW(validate_job(job));
  job.solver.tolerance = -1;
  EXPECT_EQ(input_error_of([&] { validate_job(job); }), "solver.tolerance: -1 is below the minimum 1e-12");
  job.solver.tolerance = std::nan("");
  EXPECT_EQ(input_error_of([&] { validate_job(job); }),
            "solver.tolerance: expected a finite number, found a non-finite value");
  job.solver.tolerance = 1e-6;
  job.output.columns = 41;
  EXPECT_EQ(input_error_of([&] { validate_job(job); }), "output.columns: expected 30 or 40, found 41");
}

TEST(JobEnums, SpellingsRoundTripAndErrorsNameTheOption) {
  for (auto kind : {JobKind::kRetarget, JobKind::kSmooth, JobKind::kWalk})
    EXPECT_EQ(parse_job_kind(to_string(kind)), kind);
  for (auto kind : {ObjectiveKind::kImitation, ObjectiveKind::kTorque}) {
    EXPECT_EQ(parse_objective_kind(to_string(kind)), kind);
  }
  for (auto backend : {optim::Backend::kAugmentedLagrangian, optim::Backend::kIpopt})
    EXPECT_EQ(parse_backend(optim::to_string(backend)), backend);
  using enum model::ContactPhase;
  for (auto phase : {kDoubleSupport, kRightSupport, kLeftSupport})
    EXPECT_EQ(parse_contact_phase(to_string(phase)), phase);
  EXPECT_EQ(to_string(kRightSupport), "right");  // the right foot alone carries the robot
  EXPECT_EQ(input_error_of([] { parse_backend("ALM", "--solver"); }),
            "--solver: expected one of alm, ipopt; found 'ALM'");
}

// The JSON of a job uses the YAML's keys: fed back (JSON is YAML) it gives the same job.
TEST(JobJson, RoundTripsThroughTheParser) {
  JobConfig job = parse_job(R"(job: smooth
input: /data/planned.pos
output: { path: /out/s.pos, columns: 40, report: /out/s.json }
robot: { model: /m/r.urdf, config: /m/r.yaml }
mocap: { units: mm, up_axis: +y, preset: cmu_asf, gap_fill_frames: 3 }
retarget: { scale: 0.9, velocity_limit_scale: 0.7, kinematic_only: true, mode: upper_body }
objective: { kind: imitation, sigma: 0.3 }
limits: { angle_factor: 0.9, velocity_factor: 0.8, torque_factor: 0.7 }
trajectory: { knot_spacing: 0.05, output_rate: 100 }
solver:
  name: ipopt
  max_iterations: 7
  tolerance: 1.0e-7
  constraint_tolerance: 1.0e-5
  alm: { penalty_initial: 2, penalty_growth: 6, penalty_max: 4, penalty_schedule: adaptive }
  ipopt: { linear_solver: ma27, print_level: 3 }
stability: { enabled: false, zmp_margin: 0.01, max_iterations: 2 }
geometry: { safety_distance: 0.02, max_swing_tilt: 0.5 }
payload: { frame: r_gripper, mass: 0.7, com: [0.65, 0, 0], inertia: [1e-4, 0.2, 0.2, 0, 0, 0] }
contacts: [{ start: 0, end: 1, support: both }, { start: 1, end: 1.5, support: left }]
)",
                            "/jobs/j.yaml");
  const std::string json = job_to_json(job).dump();
  const JobConfig back = parse_job(json, "/jobs/j.yaml");
  EXPECT_EQ(job_to_json(back).dump(), json);
  EXPECT_EQ(back.payload->inertia.inertia_com, job.payload->inertia.inertia_com);
  // A payload on a link echoes as `frame:` (every URDF link is a model frame) and reads back the same.
  const JobConfig on_link = parse_job(kMinimal + "payload: { link: RARM_LINK6, mass: 1 }\n", "/jobs/j.yaml");
  const std::string link_json = job_to_json(on_link).dump();
  EXPECT_NE(link_json.find("\"frame\": \"RARM_LINK6\""), std::string::npos) << link_json;
  EXPECT_EQ(parse_job(link_json, "/jobs/j.yaml").payload->attached_to, "RARM_LINK6");
  EXPECT_EQ(back.contacts.size(), 2u);
  EXPECT_EQ(back.solver.ipopt.linear_solver, "ma27");
  EXPECT_EQ(back.geometry.safety_distance, 0.02);
  EXPECT_EQ(back.geometry.max_swing_tilt, 0.5);
  EXPECT_NE(json.find("\"scale\": 0.9"), std::string::npos);

  // Defaults, with scale: auto and no payload or contacts.
  job = parse_job(kMinimal, "/jobs/j.yaml");
  const std::string minimal = job_to_json(job).dump();
  EXPECT_NE(minimal.find("\"scale\": \"auto\""), std::string::npos);
  EXPECT_EQ(minimal.find("payload"), std::string::npos);
  EXPECT_EQ(minimal.find("preview"), std::string::npos);  // a retarget job has no preview weights
  EXPECT_EQ(job_to_json(parse_job(minimal, "/jobs/j.yaml")).dump(), minimal);
}

}  // namespace
}  // namespace mimic::io
