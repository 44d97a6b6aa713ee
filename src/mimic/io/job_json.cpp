#include "mimic/io/job_json.hpp"

namespace mimic::io {

Json job_to_json(const JobConfig& job) {
  Json json;
  json["job"] = to_string(job.job);
  json["input"] = job.input.string();
  json["output"]["path"] = job.output.path.string();
  json["output"]["columns"] = job.output.columns;
  json["output"]["report"] = job.output.report.string();
  json["robot"]["model"] = job.robot.model.string();
  json["robot"]["config"] = job.robot.config.string();

  Json& mocap = json["mocap"];
  mocap["units"] = job.mocap.units;
  mocap["up_axis"] = job.mocap.up_axis;
  mocap["preset"] = job.mocap.preset;
  mocap["gap_fill_frames"] = job.mocap.gap_fill_frames;

  Json& retarget = json["retarget"];
  if (job.retarget.scale)
    retarget["scale"] = *job.retarget.scale;
  else
    retarget["scale"] = job.retarget.scale_from_height ? "height" : "auto";
  retarget["velocity_limit_scale"] = job.retarget.velocity_limit_scale;
  retarget["kinematic_only"] = job.retarget.kinematic_only;
  retarget["mode"] = to_string(job.retarget.mode);
  if (job.retarget.loop_repeats)
    retarget["loop_repeats"] = *job.retarget.loop_repeats;  // auto: echo unchanged

  json["objective"]["kind"] = to_string(job.objective.kind);
  json["objective"]["sigma"] = job.objective.sigma;
  json["objective"]["torque_weight"] = job.objective.torque_weight;

  json["limits"]["angle_factor"] = job.limits.angle_factor;
  json["limits"]["velocity_factor"] = job.limits.velocity_factor;
  json["limits"]["torque_factor"] = job.limits.torque_factor;

  json["trajectory"]["knot_spacing"] = job.trajectory.knot_spacing;
  json["trajectory"]["output_rate"] = job.trajectory.output_rate;
  if (job.csv_rate) json["csv_rate"] = *job.csv_rate;  // only when set: a .pos job's echo is unchanged

  Json& solver = json["solver"];
  solver["name"] = optim::to_string(job.solver.name);
  solver["max_iterations"] = job.solver.max_iterations;
  solver["tolerance"] = job.solver.tolerance;
  solver["constraint_tolerance"] = job.solver.constraint_tolerance;
  solver["threads"] = job.solver.threads;
  solver["alm"]["penalty_initial"] = job.solver.alm.penalty_initial;
  solver["alm"]["penalty_growth"] = job.solver.alm.penalty_growth;
  solver["alm"]["penalty_max"] = job.solver.alm.penalty_max;
  solver["alm"]["penalty_schedule"] = job.solver.alm.penalty_schedule;
  solver["alm"]["newton_steps"] = job.solver.alm.newton_steps;
  solver["ipopt"]["linear_solver"] = job.solver.ipopt.linear_solver;
  solver["ipopt"]["print_level"] = job.solver.ipopt.print_level;

  Json& stability = json["stability"];
  stability["enabled"] = job.stability.enabled;
  stability["zmp_margin"] = job.stability.zmp_margin;
  stability["max_iterations"] = job.stability.max_iterations;
  // Only a walk job takes preview-control weights (the parser refuses them elsewhere): echo them there only,
  // so that any report's job object can be fed back with --config.
  if (job.job == JobKind::kWalk) {
    stability["preview"]["q"] = job.stability.preview.q;
    stability["preview"]["r"] = job.stability.preview.r;
    stability["preview"]["horizon"] = job.stability.preview.horizon;
    stability["preview"]["period"] = job.stability.preview.period;
  }

  json["geometry"]["safety_distance"] = job.geometry.safety_distance;
  json["geometry"]["max_swing_tilt"] = job.geometry.max_swing_tilt;

  if (job.payload) {
    const spatial::Inertia& body = job.payload->inertia;
    Json& out = json["payload"];
    // `frame` names a link as well (every URDF link is a model frame), so one key echoes both spellings.
    out["frame"] = job.payload->attached_to;
    out["mass"] = body.mass;
    out["com"] = Json::array_of(body.com);
    const Eigen::Matrix3d& i = body.inertia_com;
    out["inertia"] =
        Json::array_of(std::vector<double>{i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)});
  }
  if (!job.contacts.empty()) {
    Json& contacts = json["contacts"];
    for (const model::ContactInterval& interval : job.contacts) {
      Json& item = contacts.push_back(Json::object());
      item["start"] = interval.start;
      item["end"] = interval.end;
      item["support"] = to_string(interval.phase);
    }
  }
  return json;
}

}  // namespace mimic::io
