// The two motions `mimic plot` compares an optimised result with (seed 000 Fig. 2), written on request by
// `mimic retarget --save-reference` beside X.pos:
//   X.reference.pos/.waist/.zmp - the kinematic reference after time re-parameterization (what the
//                                 optimiser imitates), at the output rate;
//   X.original.pos/.waist       - the same retargeted joint angles at the clip's original timing and
//                                 frame rate (faster than the robot may move where Algorithm 1 slowed it).
#pragma once

#include <filesystem>

#include "mimic/io/motion_files.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"

namespace mimic::pipeline {

// Source frame n at t = n / source_rate, holding the reference at its re-timed time timing.times[n]
// (linear interpolation between output samples, which reproduces the retargeted frame up to the
// interpolation of the 200 Hz resampling).
io::MotionFiles original_timing_files(const KinematicRetargetResult& result);

// X.reference.* and X.original.* for the output X.pos, each group all or none.
void write_reference_files(const std::filesystem::path& pos_path, const KinematicRetargetResult& result,
                           int columns);

}  // namespace mimic::pipeline
