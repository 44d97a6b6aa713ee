// The two motions `mimic plot` compares an optimised result with (seed 000 Fig. 2), written on request by
// `mimic retarget --save-reference` beside X.pos:
//   X.reference.pos/.waist/.zmp - the kinematic reference after time re-parameterization (what the
//                                 optimiser imitates), at the output rate;
//   X.original.pos/.waist       - the same retargeted joint angles at the clip's original timing and
//                                 frame rate (faster than the robot may move where Algorithm 1 slowed it).
// Both go through io::motion_files, the one SampledMotion -> files conversion.
#pragma once

#include <filesystem>

#include "mimic/io/motion_files.hpp"
#include "mimic/io/pos_layout.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"

namespace mimic::pipeline {

struct ReferenceFiles {
  io::MotionFiles reference;  // X.reference.*
  io::MotionFiles original;   // X.original.* (no .zmp)
  io::PosLayout layout;       // the robot's .pos columns
};

// Source frame n at t = n / source_rate, holding the reference at its re-timed time timing.times[n]
// (retarget::interpolate_configuration between output samples, which reproduces the retargeted frame up
// to the interpolation of the output-rate resampling). v and a by model::differentiate.
model::SampledMotion original_timing_motion(const model::Model& model, const KinematicRetargetResult& result);

// The files of both motions (`model`: the robot the reference was retargeted to).
ReferenceFiles reference_files(const model::Model& model, const KinematicRetargetResult& result);

// X.reference.* and X.original.* for the output X.pos (or X.csv: motion_base_name), each group all or none.
void write_reference_files(const std::filesystem::path& pos_path, const ReferenceFiles& files, int columns);

}  // namespace mimic::pipeline
