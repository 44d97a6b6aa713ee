// The shipped smoothing scenario (seed 001's bar-carrying walk): config/jobs/walk_bar_smooth.yaml on
// data/motions/walk_bar_planned.{pos,waist}, loaded as `mimic smooth` loads it (payload added to the model,
// contact phases from the job).
#pragma once

#include <memory>

#include "mimic/io/job.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/pipeline/read_motion.hpp"

namespace mimic::testing {

struct Scenario {
  io::JobConfig job;
  model::RobotDescription description;
  model::Model model;  // with the bar
  stability::Feet feet;
  io::MotionFiles files;
  model::SampledMotion planned;
};

// `stride` > 1 keeps every stride-th sample (a coarser grid for slow Debug / sanitizer builds).
inline std::unique_ptr<Scenario> load_scenario(int stride = 1) {
  auto s = std::make_unique<Scenario>();
  s->job = io::load_job(MIMIC_SOURCE_DIR "/config/jobs/walk_bar_smooth.yaml");
  s->description = model::load_robot_description(s->job.robot.config.string());
  s->model = model::with_payload(model::load_urdf(s->job.robot.model.string(), model::LoadOptions::hrp2()),
                                 *s->job.payload);
  s->feet = stability::Feet::from(s->model, s->description);
  s->files = io::read_motion(s->job.input);
  if (stride > 1) {
    io::MotionFiles coarse;
    const Eigen::Index n = (s->files.pos.size() - 1) / stride + 1;
    coarse.pos.angles.resize(n, s->files.pos.angles.cols());
    io::WaistSequence waist;
    waist.position.resize(n, 3);
    waist.rpy.resize(n, 3);
    for (Eigen::Index k = 0; k < n; ++k) {
      coarse.pos.times.push_back(s->files.pos.times[static_cast<std::size_t>(k * stride)]);
      coarse.pos.angles.row(k) = s->files.pos.angles.row(k * stride);
      waist.position.row(k) = s->files.waist->position.row(k * stride);
      waist.rpy.row(k) = s->files.waist->rpy.row(k * stride);
    }
    waist.times = coarse.pos.times;
    coarse.waist = waist;
    s->files = coarse;
  }
  s->planned = pipeline::sampled_motion(s->model, s->feet, s->files, s->job.contacts);
  return s;
}

// The samples of `motion` from `first` to `last` (inclusive), times shifted to start at 0.
inline model::SampledMotion window(const model::SampledMotion& motion, int first, int last) {
  model::SampledMotion w;
  const int n = last - first + 1;
  for (int k = first; k <= last; ++k) w.times.push_back(motion.times[k] - motion.times[first]);
  w.q = motion.q.middleCols(first, n);
  w.v = motion.v.middleCols(first, n);
  w.a = motion.a.middleCols(first, n);
  w.phases.assign(motion.phases.begin() + first, motion.phases.begin() + last + 1);
  return w;
}

}  // namespace mimic::testing
