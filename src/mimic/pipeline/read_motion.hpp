// A motion read from its hrpsys files as the stages want it: a model::SampledMotion with every sample's
// base, velocities, accelerations and support phase. The files give the joints and, when present, the
// base (.waist, or the orientation only in .hip); io/motion_conversion.hpp turns their rows into model
// types, and what they lack comes from `stability`: the base rebuilt from the support foot, the phases
// detected from the sole trajectories (unless the job states them).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "mimic/io/motion_files.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/stability/contact_detection.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::pipeline {

// Base from .waist (or .hip + reconstruction, or reconstruction alone, then `base_reconstructed`), joints
// from .pos (InputError when its joint count is not the model's), v and a by model::differentiate(), phases
// from `intervals` when given (model::phases_from_intervals), else detected.
model::SampledMotion sampled_motion(const model::Model& model, const stability::Feet& feet,
                                    const io::MotionFiles& files,
                                    const std::vector<model::ContactInterval>& intervals = {},
                                    const stability::ContactDetectionOptions& detection = {});

// The motion X.pos (or its base name X, with X.waist / X.hip beside it when present) read from its files
// (io::read_motion) for `robot`: sampled_motion() with the robot's feet. A path ending in .csv is a CSV
// motion instead (pipeline/csv_motion.hpp), read at `csv_rate` (required for one: InputError without it).
model::SampledMotion read_sampled_motion(const Robot& robot, const std::filesystem::path& path,
                                         const std::vector<model::ContactInterval>& intervals = {},
                                         std::optional<double> csv_rate = std::nullopt);

}  // namespace mimic::pipeline
